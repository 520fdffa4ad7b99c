for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
S=2187,1536,3000,4860,768,1000,6144
timeout 420 build-gpu/R/bench/fft_bench --spdgen build-gpu/R/spdgen --sizes $S --sweep 0 --pairs 0 --rows 2,4 --subgroups 0 --no-2d \
  --markdown $R/rows.md --json $R/rows.json > /dev/null 2> $R/rows.err; echo "rc=$?" >> $R/rows.err
timeout 100 python3 build-gpu/cufft.py --sizes $S --no-2d --json $R/cufft.json --markdown $R/cufft.md > /dev/null 2> $R/cufft.err; echo "rc=$?" >> $R/cufft.err
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -1 $R/rows.err
python3 - $R/rows.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for g in d['groups']:
    for v in g['variants']:
        t=v['time']; print("%6d %-52s %-40s %8.1f us %5.1f%% %s"%(g['n'],v['spdgen'].replace('spdgen ',''),v['shape'][:40],t.get('median_us',0),100*t.get('fraction_of_floor',0),v['check']['status']))
PY
grep -E "^\| [0-9]" $R/cufft.md | head -12
