for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
export SPDGEN_BUILD=build-gpu/D
timeout 200 build-gpu/D/tests/dmap/gen glsl > $R/gen-glsl.tap 2>&1; echo "rc=$?" >> $R/gen-glsl.tap
timeout 150 build-gpu/D/tests/dmap/gen hlsl > $R/gen-hlsl.tap 2>&1; echo "rc=$?" >> $R/gen-hlsl.tap
timeout 60 build-gpu/D/tests/dmap/fsr_hw > $R/fsr_hw.tap 2>&1; echo "rc=$?" >> $R/fsr_hw.tap
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for t in gen-glsl gen-hlsl fsr_hw; do echo "== $t: $(grep -c '^ok' $R/$t.tap) ok, $(grep -c '^not ok' $R/$t.tap) not ok"; grep -E "^not ok|^1\.\.|rc=|inputs f16|columns" $R/$t.tap | cut -c1-200 | head -12; done
tail -5 $R/fsr_hw.tap
