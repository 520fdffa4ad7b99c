for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/fft_bench_chunk
run() { n=$1; shift
  env "$@" timeout 120 $B --spdgen build-gpu/F/spdgen --sizes 32768,65536 --sweep 0 --pairs 0 --subgroups 0 --no-2d --reps 9 --b2b 0 \
    --json $R/$n.json --markdown $R/$n.md > /dev/null 2> $R/$n.err; echo "rc=$? $SECONDS" >> $R/$n.err; }
run base X=0
for r in 16 32 64 128; do run s$r FFT_PROBE_CHUNK_ROWS=$r; done
for r in 16 32 64; do run o$r FFT_PROBE_CHUNK_ROWS=$r FFT_PROBE_OVERLAP=1; done
run base2 X=0
timeout 60 python3 build-gpu/cufft.py --sizes 32768,65536 --no-2d --reps 9 --json $R/cufft.json --markdown $R/cufft.md > $R/cufft.out 2>&1; echo "rc=$? $SECONDS" >> $R/cufft.out
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt; tail -qn1 $R/*.err $R/cufft.out
for n in base s16 s32 s64 s128 o16 o32 o64 base2; do python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for g in d['groups']:
    for v in g['variants']:
        t=v['time']; print("%-5s %6d %-48s %8.1f us %5.1f%% floor %7.1f %s"%(sys.argv[2], g['n'], v['spdgen'][:48], t['median_us'] or -1, 100*(t.get('fraction_of_floor') or 0), g['floor']['median_us'], v['check']['status']))
PY
done
grep -E "32768|65536" $R/cufft.md | head -4
