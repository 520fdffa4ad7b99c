for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
for d in R D0 D1 D2; do
  timeout 140 build-gpu/$d/bench/dmap_bench --spdgen build-gpu/F/spdgen --sizes 1920x1080,3840x2160,1408x1152 --reps 19 \
    --json $R/$d.json --markdown $R/$d.md > /dev/null 2> $R/$d.err; echo "rc=$? $SECONDS" >> $R/$d.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for d in R D0 D1 D2; do echo "== $d"; grep -E "^### |texel-load|fetch blocks \|" $R/$d.md | cut -c1-200; done
grep -h "dmap_fetch:\|dmap_gather:" $R/*.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //' | sort | uniq | head -12
