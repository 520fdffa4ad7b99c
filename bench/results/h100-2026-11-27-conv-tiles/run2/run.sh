for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench; P=build-gpu/P
run() { # name variant, then env assignments
  n=$1; v=$2; shift 2
  env PROBE_IMAGE=1280x720 "$@" timeout 150 $B --spdgen $P/wrap.sh --cases 1280x720:256 --spectrum resampled --storage f32 --subgroups 0 --reps 11 \
    --variants "$v" --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err
}
E="--ept 8 --columns-per-wg 2"
run g_base -
run g_Pc - PROBE_PASS2=$P/p2_Pc.spv
run g_Fc - PROBE_PASS2=$P/p2_Fc.spv
run g_Lc - PROBE_PASS2=$P/p2_Lc.spv
run g_Y - PROBE_PASS2=$P/p2_Y.spv PROBE_PASS3=$P/p3_Y.spv
run e_base "$E"
run e_A "$E" PROBE_PASS2=$P/e2_A.spv
run e_Pc "$E" PROBE_PASS2=$P/e2_Pc.spv
run e_Fc "$E" PROBE_PASS2=$P/e2_Fc.spv
run g_base2 -
tar czf $OUT/results.tgz -C $OUT r
for n in g_base g_Pc g_Fc g_Lc g_Y e_base e_A e_Pc e_Fc g_base2; do python3 - $R/$n.json $n <<'PY'
import json,sys,re
try: d=json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[2], 'no json', e); sys.exit()
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    print("%-8s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f regs %s"%(sys.argv[2],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us'],'/'.join(regs)))
PY
done
