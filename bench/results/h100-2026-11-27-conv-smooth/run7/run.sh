for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# The pipeline-over-passes gap: read scrub (clean L2 before each repetition) against write
# scrub (an L2 of dirty lines), same jobs, same call.
C=1024x1024:256,1920x1080:512
for m in read write; do
timeout 120 build-gpu/ps/bench/conv_bench --spdgen build-gpu/ps/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --scrub-mode $m --variants "-;--pad-to pow2" --markdown $R/$m.md --json $R/$m.json > /dev/null 2> $R/$m.err; echo "rc=$?" >> $R/$m.err
done
tar czf $OUT/results.tgz -C $OUT r
for m in read write; do echo "== $m"; tail -1 $R/$m.err; grep -E "^\| \`|pipeline|pass [123]" $R/$m.md | cut -d'|' -f2,3,4 | sed 's/--channels 3 --spectrum resampled//; s/--subgroup 0 --format rgba16f//; s/--storage f32//' | cut -c1-120; done
