for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256
for b in A B; do
timeout 250 build-gpu/$b/bench/conv_bench --spdgen build-gpu/$b/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--columns-per-wg 8" --markdown $R/conv_$b.md --json $R/conv_$b.json > /dev/null 2> $R/conv_$b.err; echo "rc=$?" >> $R/conv_$b.err
done
tar czf $OUT/results.tgz -C $OUT r
for b in A B; do echo "== $b"; tail -1 $R/conv_$b.err; grep -E "^\| \`|pass 2|pipeline" $R/conv_$b.md | cut -d'|' -f2,3,4 | sed 's/--channels 3 --spectrum resampled//; s/--subgroup 0 --format rgba16f//; s/--storage f32//' | cut -c1-150
grep -o "Register Count=[0-9]*" $R/conv_$b.err | tr '\n' ' ' ; echo; done
