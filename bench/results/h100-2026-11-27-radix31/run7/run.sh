for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=41,47,59,61,97,103,193,257
# Rader's and Bluestein's rows per workgroup: A (today) against C (within one subgroup), twice.
for v in A C A2 C2; do
  timeout 100 build-gpu/rr/bench/fft_bench --spdgen build-gpu/rr/spdgen-${v%2} --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 9 --markdown $R/$v.md --json $R/$v.json > /dev/null 2> $R/$v.err; echo "rc=$?" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in A C A2 C2; do echo "== $v"; tail -1 $R/$v.err; grep -E "^\| [0-9]+ \|" $R/$v.md | cut -d'|' -f2,4,6 | sed 's/ S 0 //' | head -10; done
