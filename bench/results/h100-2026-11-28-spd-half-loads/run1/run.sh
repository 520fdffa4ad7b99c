for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
S="--sizes 1920x1080,2560x1440,3840x2160,2048,4096 --formats rgba16f --ops mean --subgroups 0 --b2b 0"
for b in D S D S; do n=$b$SECONDS
timeout 140 build-gpu/D/spd_bench --spdgen build-gpu/$b/spdgen $S --variants "--sampler linear" \
    --json $R/$n.json --markdown $R/$n.md > /dev/null 2> $R/$n.err; echo "rc=$? $SECONDS" >> $R/$n.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for f in $R/*.md; do echo "== $f"; grep -E "FidelityFX|^\| (1920|2560|3840|2048|4096)" $f | head -30 | cut -c1-160; done
