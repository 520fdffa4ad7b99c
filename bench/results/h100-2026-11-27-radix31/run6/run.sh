for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=12,15,46,62,85,119,143,169,221,247,289,323,351,360,361,391,437,480,529,540,720,841,899,961
# Rows per workgroup: A (today: double while under 64 invocations), B (one row where W >= 16),
# C (double while two of them stay within one subgroup of 32), then A again.
for v in A B C A; do
  timeout 120 build-gpu/rr/bench/fft_bench --spdgen build-gpu/rr/spdgen-$v --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 9 --markdown $R/$v.md --json $R/$v.json > /dev/null 2> $R/$v.err; echo "rc=$?" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in A B C; do echo "== $v"; tail -1 $R/$v.err; grep -E "^\| [0-9]+ \|" $R/$v.md | cut -d'|' -f2,4,6 | sed 's/ S 0 //' | head -30; done
