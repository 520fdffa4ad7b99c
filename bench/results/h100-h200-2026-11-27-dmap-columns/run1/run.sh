for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
for v in none strips_rows none2; do
  p=; [ $v = strips_rows ] && p=build-gpu/probe/$v.spv
  PROBE_STRIPS=$p timeout 140 build-gpu/R/bench/dmap_bench --spdgen build-gpu/dmapwrap.sh --sizes 1920x1080,3840x2160,1408x1152 --reps 19 \
    --json $R/$v.json --markdown $R/$v.md > /dev/null 2> $R/$v.err; echo "rc=$? $SECONDS" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for v in none strips_rows none2; do echo "== $v"; grep -E "^### |texel-load floor,|batch 4 --fetch (strips|blocks) \|" $R/$v.md | grep -v "texel 8\|texel 32\|subgroup 32\|fdm\|gaze" | cut -c1-170; grep -h "texel 16 --foveation off --content --subgroup 0 --batch 4 --fetch strips:" $R/$v.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //' | head -1; done
