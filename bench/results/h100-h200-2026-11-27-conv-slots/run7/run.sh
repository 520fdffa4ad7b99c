for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
# tests/conv/matrix (GLSL, HLSL) on this GPU under the validation layer, the build of 3d5abb8.
for l in glsl hlsl; do SPDGEN_BUILD=build-gpu/F timeout 250 build-gpu/F/tests/conv/matrix $l > $R/matrix-$l.tap 2>&1; echo "rc=$?" >> $R/matrix-$l.tap; done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for l in glsl hlsl; do grep -c "^ok" $R/matrix-$l.tap; grep -E "^not ok|worst|rc=|^1\.\.|VUID|Validation" $R/matrix-$l.tap | cut -c1-250 | head; done
