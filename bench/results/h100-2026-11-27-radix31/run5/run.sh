for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=29,31,46,62,85,391,961,1984
# Rows per workgroup for the big prime radices: the default, then 1, 2, 8, 16 forced.
for v in "" -r1 -r2 -r8 -r16; do
  b=rows$v
  timeout 100 build-gpu/rows/bench/fft_bench --spdgen build-gpu/rows/spdgen$v --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 9 --markdown $R/$b.md --json $R/$b.json > /dev/null 2> $R/$b.err; echo "rc=$?" >> $R/$b.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in "" -r1 -r2 -r8 -r16; do b=rows$v; echo "== $b"; tail -1 $R/$b.err; grep -E "^\| [0-9]+ \|" $R/$b.md | cut -d'|' -f2,4,6,8 | head -9; done
