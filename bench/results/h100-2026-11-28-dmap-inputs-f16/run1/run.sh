for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
S="--sizes 1920x1080,3840x2160,1408x1152 --reps 19"
for v in c16 cm16; do
PROBE_COLUMNS=build-gpu/probe/$v.spv timeout 150 build-gpu/R/bench/dmap_bench --spdgen build-gpu/colwrap.sh $S \
    --json $R/$v.json --markdown $R/$v.md > /dev/null 2> $R/$v.err; echo "rc=$? $SECONDS" >> $R/$v.err
done
timeout 150 build-gpu/R/bench/dmap_bench --spdgen build-gpu/C/spdgen $S \
    --json $R/dmap.json --markdown $R/dmap.md > /dev/null 2> $R/dmap.err; echo "rc=$? $SECONDS" >> $R/dmap.err
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for v in c16 cm16 dmap; do echo "== $v"; grep -E "^### |texel-load floor,|texel 16 --foveation off --content --subgroup (0|8) --batch 4 --fetch (blocks|columns) \|" $R/$v.md | cut -c1-150; grep -h "columns" $R/$v.err | grep -o "texel 16 --foveation off.*Registers=[0-9]*\|Register[^;]*" | sort -u | head -4; done
