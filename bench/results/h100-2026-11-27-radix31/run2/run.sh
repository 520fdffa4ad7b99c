for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# Every other --ept/--wg pair of the lengths whose default is furthest from cuFFT.
S=29,31,46,62,85,961,4352
timeout 170 build-gpu/r31/bench/fft_bench --spdgen build-gpu/r31/spdgen --no-2d --sizes $S --pairs 20 --subgroups 0 --reps 11 --markdown $R/pairs.md --json $R/pairs.json > /dev/null 2> $R/pairs.err; echo "rc=$?" >> $R/pairs.err
# Every N from 2 to 1024, forward, inverse and round trip, on this driver.
SPDGEN_BUILD=$PWD/build-gpu/r31 timeout 380 sh tests/fft/every_n.sh 2 1024 all 16 glsl > $R/every_n.txt 2>&1; echo "rc=$?" >> $R/every_n.txt
tar czf $OUT/results.tgz -C $OUT r
tail -1 $R/pairs.err; grep -E "^\| [0-9]+ \|" $R/pairs.md | cut -d'|' -f2,3,4,6,8 | head -60
tail -12 $R/every_n.txt
