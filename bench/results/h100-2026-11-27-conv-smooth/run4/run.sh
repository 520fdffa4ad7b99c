for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# tests/conv/matrix (GLSL, HLSL) on this GPU under the validation layer: every job, the bounds as stated.
for l in glsl hlsl; do SPDGEN_BUILD=build-gpu/ps timeout 250 build-gpu/ps/tests/conv/matrix $l > $R/matrix-$l.tap 2>&1; echo "rc=$?" >> $R/matrix-$l.tap; done
tar czf $OUT/results.tgz -C $OUT r
for l in glsl hlsl; do grep -c "^ok" $R/matrix-$l.tap; grep -E "^not ok|worst|rc=|^1\.\." $R/matrix-$l.tap | cut -c1-250; done
