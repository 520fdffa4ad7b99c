for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=35,45,50,54,56,60,63,70,72,75,80,84,85,96,98,102,112,119
# Short rows staged in shared memory up to W = 8 (w8) against W = 4 (w4), twice each.
for v in w4 w8 w4b w8b; do
  timeout 100 build-gpu/st/bench/fft_bench --spdgen build-gpu/st/spdgen-${v%b} --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 9 --markdown $R/$v.md --json $R/$v.json > /dev/null 2> $R/$v.err; echo "rc=$?" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in w4 w8 w4b w8b; do echo "== $v"; tail -1 $R/$v.err; grep -E "^\| [0-9]+ \|" $R/$v.md | cut -d'|' -f2,6 | tr '\n' ' '; echo; done
