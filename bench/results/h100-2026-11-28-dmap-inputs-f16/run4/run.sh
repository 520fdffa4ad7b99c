for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
S="--sizes 1920x1080,3840x2160,1408x1152 --reps 19"
for i in 1 2; do
timeout 200 build-gpu/D/dmap_bench --spdgen build-gpu/D/spdgen $S \
    --json $R/dmap$i.json --markdown $R/dmap$i.md > /dev/null 2> $R/dmap$i.err; echo "rc=$? $SECONDS" >> $R/dmap$i.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for i in 1 2; do echo "== $i"; grep -E "^### |texel-load floor,|texel 16 --foveation off --content --subgroup (0|8) --batch 4 --fetch (blocks|columns)( --inputs f16)? \|" $R/dmap$i.md | cut -c1-150; done
grep -h "inputs f16:" $R/dmap1.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //' | sort -u
