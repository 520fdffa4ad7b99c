for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench; P=build-gpu/P
run() { # name image case, then env assignments
  n=$1; img=$2; c=$3; shift 3
  env PROBE_IMAGE=$img "$@" timeout 150 $B --spdgen $P/wrap.sh --cases $c --spectrum resampled --storage f32 --subgroups 0 --reps 11 \
    --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err
}
run g_base 1280x720 1280x720:256
run g_A 1280x720 1280x720:256 PROBE_PASS1=$P/p1_A.spv PROBE_PASS2=$P/p2_A.spv PROBE_PASS3=$P/p3_A.spv
run g_T 1280x720 1280x720:256 PROBE_PASS1=$P/p1_T.spv PROBE_PASS2=$P/p2_T.spv PROBE_PASS3=$P/p3_T.spv
run g_F 1280x720 1280x720:256 PROBE_PASS1=$P/p1_F.spv PROBE_PASS2=$P/p2_F.spv PROBE_PASS3=$P/p3_F.spv
run g_N 1280x720 1280x720:256 PROBE_PASS2=$P/p2_N.spv
run g_L 1280x720 1280x720:256 PROBE_PASS2=$P/p2_L.spv
run h_base 1920x1080 1920x1080:512
run h_A 1920x1080 1920x1080:512 PROBE_PASS1=$P/h1_A.spv PROBE_PASS2=$P/h2_A.spv PROBE_PASS3=$P/h3_A.spv
run h_T 1920x1080 1920x1080:512 PROBE_PASS1=$P/h1_T.spv PROBE_PASS2=$P/h2_T.spv PROBE_PASS3=$P/h3_T.spv
run h_F 1920x1080 1920x1080:512 PROBE_PASS1=$P/h1_F.spv PROBE_PASS2=$P/h2_F.spv PROBE_PASS3=$P/h3_F.spv
run g_base2 1280x720 1280x720:256
tar czf $OUT/results.tgz -C $OUT r
for n in g_base g_A g_T g_F g_N g_L h_base h_A h_T h_F g_base2; do python3 - $R/$n.json $n <<'PY'
import json,sys,re
try: d=json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[2], 'no json', e); sys.exit()
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    print("%-8s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f regs %s"%(sys.argv[2],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us'],'/'.join(regs)))
PY
done
