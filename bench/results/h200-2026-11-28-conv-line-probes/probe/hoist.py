# Probe: each stage's twiddles computed once, in channel 0's FFT, and kept for the other
# channels (hand edit of spdgen's mixed-radix line-pass GLSL).
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split('\n')
decl = re.compile(r'^(\s*)(uint e\d+|vec2 w\d+[lh]\d+) = (.*)$')
names, out, channel = [], [], -1
for ln in lines:
    m = re.match(r'^\s*// Channel (\d+), ', ln)
    if m: channel = int(m.group(1))
    d = decl.match(ln)
    if d and channel >= 0:
        typ, name = d.group(2).split()
        if channel == 0:
            names.append((typ, name))
            out.append('%s%s = %s' % (d.group(1), name, d.group(3)))
        continue
    out.append(ln)
s = '\n'.join(out)
ds = ''.join('    %s %s;\n' % (t, n) for t, n in names)
s = s.replace('    uint it = t;\n', '    uint it = t;\n' + ds, 1)
open(dst, 'w').write(s)
print(len(names), 'hoisted')
