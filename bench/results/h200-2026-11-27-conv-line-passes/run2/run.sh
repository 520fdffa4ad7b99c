for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench
C8=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
run() { n=$1; b=$2; c=$3; st=$4
  timeout 250 $B --spdgen build-gpu/$b/spdgen --cases $c --spectrum resampled --storage $st --subgroups 0 --reps 11 \
    --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
run F F $C8 f32
run P P $C8 f32
run F16 F 1280x720:256,1920x1080:512 f16
run P16 P 1280x720:256,1920x1080:512 f16
run Pw P 1280x528:256,1280x540:256,1280x792:256,1280x1056:256 f32
SPDGEN_BUILD=build-gpu/P timeout 200 build-gpu/P/tests/conv/matrix glsl > $R/matrix-glsl.tap 2>&1; echo "rc=$?" >> $R/matrix-glsl.tap
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for n in F P F16 P16 Pw; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','').replace(' --psf ',':')
    print("%-3s %-24s p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f %s"%(sys.argv[2],cmd,j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pass1']['median_us']+j['pass2']['median_us']+j['pass3']['median_us'],j['pipeline']['median_us'],j['check'].get('status','')))
PY
done
grep -c "^ok" $R/matrix-glsl.tap; grep -E "^not ok|rc=|^1\.\." $R/matrix-glsl.tap | head
grep -h "Register" $R/P.err | head -8 | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //g' | cut -c1-400
