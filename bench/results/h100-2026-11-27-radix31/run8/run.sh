for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=17,19,23,29,31,34,46,62,85,119,143,169,289,361,391,529,841,961,1000,1984,2187,4352,103,2053
# The final build's defaults (prime radices to 31, rows within one subgroup, wider plan
# passes) beside cuFFT in one call; then every N from 2 to 1024 on this driver.
timeout 200 build-gpu/final/bench/fft_bench --spdgen build-gpu/final/spdgen --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 11 --markdown $R/final.md --json $R/final.json > /dev/null 2> $R/final.err; echo "rc=$?" >> $R/final.err
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
timeout 120 python3 bench/cufft.py --sizes $S --no-2d --json $R/cufft.json --markdown $R/cufft.md > $R/cufft.log 2>&1; echo "rc=$?" >> $R/cufft.log
SPDGEN_BUILD=$PWD/build-gpu/final timeout 200 sh tests/fft/every_n.sh 2 1024 all 16 glsl > $R/every_n.txt 2>&1; echo "rc=$?" >> $R/every_n.txt
tar czf $OUT/results.tgz -C $OUT r
tail -1 $R/final.err; grep -E "^\| [0-9]+ \|" $R/final.md | cut -d'|' -f2,4,6,8 | sed 's/ S 0 //' | head -26
echo "== cufft"; grep -E "^\| [0-9]" $R/cufft.md | cut -d'|' -f2,4,8 | head -26
tail -5 $R/every_n.txt
