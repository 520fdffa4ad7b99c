# Probe: a line pass's channels in lanes. From spdgen's one-channel GLSL (--channels 1 --ept E):
# the workgroup grows to C x W invocations, group ch = index / W runs channel ch's FFT on its
# own shared memory; pass3 gathers the channels of each texel through shared memory at the end.
import re, sys
src, dst, C = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read()
wg = int(re.search(r'local_size_x = (\d+)', s).group(1))
n = int(re.search(r'shared vec2 fft_c\[(\d+)\];', s).group(1))
s = s.replace('local_size_x = %d' % wg, 'local_size_x = %d' % (wg * C))
s = s.replace('shared vec2 fft_c[%d];' % n, 'shared vec2 fft_c[%d];' % (n * C))
head, main = s.split('void main() {', 1)
main = main.replace('uint t = gl_LocalInvocationIndex;',
    'uint t = gl_LocalInvocationIndex %% %du;\n    uint ch = gl_LocalInvocationIndex / %du;\n'
    '    uint so = ch * %du;' % (wg, wg, n), 1)
main = main.replace('fft_c[', 'fft_c[so + ')
pass3 = 'conv_y_slot(0u' in main
if not pass3:
    main = main.replace('t0.x', 't0[ch]').replace('t1.x', 't1[ch]')
    main = main.replace('conv_z_slot(0u,', 'conv_z_slot(ch,')
else:
    main = main.replace('conv_y_slot(0u,', 'conv_y_slot(ch,')
    i = main.index('    // Store: line 2p')
    store = main[i:]
    pairs = re.findall(r'uint a1 = (it(?: \+ \d+u)?);\s*\{\s*vec4 s = [^;]*;\s*vec4 o = vec4\((c0v\d+)\.x', store)
    assert len(pairs) * 192 >= n or True
    body = ['    // Gather: each channel group puts its line pair (Re line0, Im line1) in its shared',
            '    // memory; then every invocation composes texels of all channels.',
            '    barrier();']
    for a, reg in pairs:
        body.append('    fft_c[so + %s] = %s;' % (a, reg))
    body += ['    barrier();',
             '    for (uint a1 = gl_LocalInvocationIndex; a1 < extent1; a1 += %du) {' % (wg * C)]
    comps = ', '.join('fft_c[%d + a1].x' % (k * n) for k in range(C))
    compsy = ', '.join('fft_c[%d + a1].y' % (k * n) for k in range(C))
    rest = ', '.join('s.' + 'xyzw'[k] for k in range(C, 4))
    body += ['        {', '            vec4 s = texelFetch(src, ivec2(a1, line0), 0);',
             '            vec4 o = vec4(%s, %s);' % (comps, rest),
             '            if (params.composite != 0u) o = s + params.intensity * (o - s);',
             '            imageStore(dst[0], ivec2(uvec2(a1, line0)), o);', '        }',
             '        if (odd_in) {', '            vec4 s = texelFetch(src, ivec2(a1, line1), 0);',
             '            vec4 o = vec4(%s, %s);' % (compsy, rest),
             '            if (params.composite != 0u) o = s + params.intensity * (o - s);',
             '            imageStore(dst[0], ivec2(uvec2(a1, line1)), o);', '        }', '    }', '}', '']
    main = main[:i] + '\n'.join(body)
open(dst, 'w').write(head + 'void main() {' + main)
