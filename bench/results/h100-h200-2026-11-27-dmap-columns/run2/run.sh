for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
PROBE_STRIPS=build-gpu/probe/strips_rows.spv timeout 150 build-gpu/R/bench/dmap_bench --spdgen build-gpu/dmapwrap.sh --sizes 1920x1080,3840x2160,1408x1152 --reps 19 \
    --json $R/probe.json --markdown $R/probe.md > /dev/null 2> $R/probe.err; echo "rc=$? $SECONDS" >> $R/probe.err
timeout 150 build-gpu/R/bench/dmap_bench --spdgen build-gpu/C/spdgen --sizes 1920x1080,3840x2160,1408x1152 --reps 19 \
    --json $R/dmap.json --markdown $R/dmap.md > /dev/null 2> $R/dmap.err; echo "rc=$? $SECONDS" >> $R/dmap.err
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err
for v in probe dmap; do echo "== $v"; grep -E "^### |texel-load floor,|fetch (strips|blocks|columns) \|" $R/$v.md | grep -v "fence\|batch [12]" | cut -c1-150; grep -h "columns:\|strips:" $R/$v.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //' | sort -u | head -8; done
