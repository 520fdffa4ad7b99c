for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi > $R/gpu.txt 2>&1
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256
# --pad-to smooth against the powers of two, every spectrum and storage, one call.
timeout 330 build-gpu/ps/bench/conv_bench --spdgen build-gpu/ps/spdgen --cases $C --subgroups 0 --reps 11 \
  --variants "-;--pad-to smooth" --markdown $R/conv.md --json $R/conv.json > /dev/null 2> $R/conv.err; echo "rc=$?" >> $R/conv.err
# cuFFT at the powers of two and at the smooth sizes spdgen chose.
timeout 120 python3 bench/conv_torch.py --cases $C,1280x720:256:1536x1000,1920x1080:512:2500x1600,1024x1024:256:1280x1280,2560x1440:256:2880x1728 --json $R/torch.json > $R/torch.md 2> $R/torch.err; echo "rc=$?" >> $R/torch.err
tar czf $OUT/results.tgz -C $OUT r
tail -1 $R/conv.err; grep -E "pipeline" $R/conv.md | cut -d'|' -f3,4 | head -40
grep -E "^\| \`" $R/conv.md | cut -c1-200 | head -40
cat $R/torch.md; tail -2 $R/torch.err
