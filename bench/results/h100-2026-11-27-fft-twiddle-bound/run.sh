for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
S=1000,1536,2187,3000,4860,15625,4099
# F: spdgen as built (3d5abb8); T: its mixed-radix twiddles made free (wrong results: timing only).
for b in F T; do timeout 250 build-gpu/F/bench/fft_bench --spdgen build-gpu/$b/spdgen --sizes $S --sweep 0 --pairs 0 --subgroups 0 --no-2d \
  --markdown $R/fft_$b.md --json $R/fft_$b.json > /dev/null 2> $R/fft_$b.err; echo "rc=$?" >> $R/fft_$b.err; done
timeout 120 python3 build-gpu/cufft.py --sizes $S --no-2d --json $R/cufft.json --markdown $R/cufft.md > /dev/null 2> $R/cufft.err; echo "rc=$?" >> $R/cufft.err
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for b in F T; do echo "== $b"; tail -1 $R/fft_$b.err; python3 - $R/fft_$b.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for g in d['groups']:
    for v in g['variants']:
        t=v['time']; print("%6d %-34s %-22s %8.1f us %5.1f%% %s"%(g['n'],v['spdgen'],v['shape'],t.get('median_us',0),100*t.get('fraction_of_floor',0),v['check']['status']))
PY
done
grep -E "^\|" $R/cufft.md | head -12
