for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# The conv pipeline timed before its passes (first, today's order) or after them (last).
for v in first last first2 last2; do
  case $v in last*) export CONV_BENCH_PIPELINE_LAST=1 ;; *) unset CONV_BENCH_PIPELINE_LAST ;; esac
  timeout 130 build-gpu/cv/bench/conv_bench --spdgen build-gpu/cv/spdgen --subgroups 0 --reps 11 --markdown $R/$v.md --json $R/$v.json > /dev/null 2> $R/$v.err; echo "rc=$?" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in first last first2 last2; do echo "== $v"; tail -1 $R/$v.err; grep -E "^\| (\`|\| (pass|pipeline))" $R/$v.md | sed 's/--channels 3 //; s/--subgroup 0 --format rgba16f//' | cut -d'|' -f2,3,4 | cut -c1-110; done
