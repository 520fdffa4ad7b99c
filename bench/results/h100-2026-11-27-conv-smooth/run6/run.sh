for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# The default (smooth, with the 1/32 rules) against --pad-to pow2, same call; cuFFT on 1536x1024.
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
timeout 300 build-gpu/ps/bench/conv_bench --spdgen build-gpu/ps/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--pad-to pow2" --markdown $R/conv.md --json $R/conv.json > /dev/null 2> $R/conv.err; echo "rc=$?" >> $R/conv.err
timeout 100 python3 bench/conv_torch.py --cases 1280x720:256,1280x720:256:1536x1024,1920x1080:512:2500x1600 --json $R/torch.json > $R/torch.md 2> $R/torch.err; echo "rc=$?" >> $R/torch.err
tar czf $OUT/results.tgz -C $OUT r
tail -1 $R/conv.err; grep -E "^\| \`|pipeline" $R/conv.md | cut -d'|' -f2,3,4 | sed 's/--channels 3 --spectrum resampled//; s/--subgroup 0 --format rgba16f//; s/--storage f32//' | cut -c1-150
cat $R/torch.md; tail -1 $R/torch.err
