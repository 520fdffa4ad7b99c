for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# Which smooth side: the smallest, or a slightly larger one of other radices (same call).
run() { timeout 140 build-gpu/ps/bench/conv_bench --spdgen build-gpu/ps/spdgen --cases $1 --subgroups 0 --reps 11 \
  --spectrum resampled --storage f32 --variants "$2" --markdown $R/$3.md --json $R/$3.json > /dev/null 2> $R/$3.err; echo "rc=$?" >> $R/$3.err; }
run 1920x1080:512 "--padded 2450x1600;--padded 2500x1600;--padded 2560x1600" s1080
run 3000x1600:100 "--padded 3136x1728;--padded 3150x1728;--padded 3200x1728;--padded 3240x1728" s3000
run 1280x720:256 "--padded 1536x1000;--padded 1600x1000;--padded 1536x1024" s720
run 2560x1440:256 "--padded 2880x1728;--padded 2916x1728;--padded 3000x1728;--padded 2880x2048" s1440
tar czf $OUT/results.tgz -C $OUT r
for v in s1080 s3000 s720 s1440; do tail -1 $R/$v.err; grep -E "^\| \`|pipeline|pass [123]" $R/$v.md | cut -d'|' -f2,3,4 | sed 's/--channels 3 --spectrum resampled//; s/--subgroup 0 --format rgba16f//; s/--storage f32//' | cut -c1-150; done
