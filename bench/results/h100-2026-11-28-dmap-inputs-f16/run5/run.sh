for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
S="--sizes 1920x1080,1408x1152 --reps 19"
for v in cf p1 p2; do
PROBE_F16=build-gpu/probe/$v.spv timeout 100 build-gpu/D/dmap_bench --spdgen build-gpu/f16wrap.sh $S \
    --json $R/$v.json --markdown $R/$v.md > /dev/null 2> $R/$v.err; echo "rc=$?" >> $R/$v.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for v in cf p1 p2; do echo "== $v"; grep -E "^### |texel-load floor,|texel 16 --foveation off --content --subgroup 8 --batch 4 --fetch columns( --inputs f16)? \|" $R/$v.md | cut -c1-150; grep -h "columns --inputs f16:" $R/$v.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //' | sort -u | head -3; done
