# Probe: a line pass without its FFTs (loads and stores only), from spdgen's own GLSL.
import sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split('\n')
out, i, cut = [], 0, 0
while i < len(lines):
    ln = lines[i]
    nxt = next((l for l in lines[i + 1:] if l.strip()), '')
    if ln == '    {' and nxt.startswith('        // Channel '):
        j = i + 1
        while lines[j] != '    }': j += 1
        i = j + 1; cut += 1
        continue
    out.append(ln); i += 1
open(dst, 'w').write('\n'.join(out))
print(cut, 'FFTs cut')
