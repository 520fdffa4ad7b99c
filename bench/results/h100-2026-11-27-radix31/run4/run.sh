for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=4352,9728,12167,20000,100000
# Four-step plans: short passes with more columns per workgroup (lanes) against 4 (r31).
for b in lanes r31 lanes; do
  timeout 150 build-gpu/$b/bench/fft_bench --spdgen build-gpu/$b/spdgen --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 11 --markdown $R/$b.md --json $R/$b.json > /dev/null 2> $R/$b.err; echo "rc=$?" >> $R/$b.err
done
tar czf $OUT/results.tgz -C $OUT r
for b in lanes r31; do echo "== $b"; tail -1 $R/$b.err; grep -E "^\| [0-9]+ \|" $R/$b.md | cut -d'|' -f2,4,6,8 | head -12; done
