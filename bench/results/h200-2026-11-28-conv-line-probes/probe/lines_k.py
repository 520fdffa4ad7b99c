# Probe: K line pairs per workgroup of a conv line pass (hand edit of spdgen's GLSL).
import re, sys
src, dst, K = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read()
wg = int(re.search(r'local_size_x = (\d+)', s).group(1))
n = int(re.search(r'shared vec2 fft_c\[(\d+)\];', s).group(1))
s = s.replace('local_size_x = %d' % wg, 'local_size_x = %d' % (wg * K))
s = s.replace('shared vec2 fft_c[%d];' % n, 'shared vec2 fft_c[%d];' % (n * K))
head, main = s.split('void main() {', 1)
main = main.replace('uint t = gl_LocalInvocationIndex;',
    'uint t = gl_LocalInvocationIndex %% %du;\n    uint so = (gl_LocalInvocationIndex / %du) * %du;' % (wg, wg, n), 1)
assert 'uint pair = group.x;' in main
main = main.replace('uint pair = group.x;', 'uint pair = group.x * %du + gl_LocalInvocationIndex / %du;' % (K, wg), 1)
main = main.replace('fft_c[', 'fft_c[so + ')
open(dst, 'w').write(head + 'void main() {' + main)
