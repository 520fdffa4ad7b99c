for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
S=11,13,17,19,23,29,31,34,46,62,85,391,961,1000,1088,1984,2187,4352,9728,12167,15625,103,2053
# The odd-prime DFTs writing each output pair as soon as it is known (r31i) against writing
# them all at the end (r31); the same fft_bench (its lengths' kinds know radices to 31); cuFFT.
for b in r31i r31; do
  timeout 200 build-gpu/$b/bench/fft_bench --spdgen build-gpu/$b/spdgen --no-2d --sizes $S --pairs 0 --subgroups 0 --reps 11 --markdown $R/$b.md --json $R/$b.json > /dev/null 2> $R/$b.err; echo "rc=$?" >> $R/$b.err
done
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
timeout 120 python3 bench/cufft.py --sizes $S --no-2d --json $R/cufft.json --markdown $R/cufft.md > $R/cufft.log 2>&1; echo "rc=$?" >> $R/cufft.log
tar czf $OUT/results.tgz -C $OUT r
for b in r31i r31; do echo "== $b"; tail -1 $R/$b.err; grep -E "^\| [0-9]+ \|" $R/$b.md | cut -d'|' -f2,4,6,8 | head -24; done
echo "== cufft"; grep -E "^\| [0-9]" $R/cufft.md | cut -d'|' -f2,4,8 | head -24
