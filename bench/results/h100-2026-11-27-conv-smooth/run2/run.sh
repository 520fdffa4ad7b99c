for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
# Smooth sides a little under the power of two (976 + 25 - 1 = 1000 against 1024; 900 -> 960;
# 1800 -> 1920), and more (1000 + 100 - 1 -> 1120 against 2048; 3000x1600 -> 3136x1728).
C=976x976:25,900x900:25,1800x1000:100,3000x1600:100
for v in a b; do
timeout 250 build-gpu/ps/bench/conv_bench --spdgen build-gpu/ps/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled \
  --variants "-;--pad-to smooth" --markdown $R/conv-$v.md --json $R/conv-$v.json > /dev/null 2> $R/conv-$v.err; echo "rc=$?" >> $R/conv-$v.err
done
tar czf $OUT/results.tgz -C $OUT r
for v in a b; do tail -1 $R/conv-$v.err; grep -E "^\| \`|pipeline|pass [123]" $R/conv-$v.md | cut -d'|' -f2,3,4 | sed 's/--channels 3 --spectrum resampled//; s/--subgroup 0 --format rgba16f//' | cut -c1-150; done
