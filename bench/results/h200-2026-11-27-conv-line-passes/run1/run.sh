for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench
run() { n=$1; c=$2; v=$3
  timeout 250 $B --spdgen build-gpu/F/spdgen --cases $c --spectrum resampled --storage f32 --subgroups 0 --reps 11 \
    --variants "$v" --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
# Channels 1 and 2 on a 3-channel bench job: pass timings only (the bench's check expects 3 channels).
run ch 1280x720:256,1920x1080:512,1024x1024:256 "-;--channels 1;--channels 2"
# One channel over three times the lines: pass 1 as 3 x 360 workgroups of one channel each would run.
run tall 1280x2160:256,1920x3240:512 "--channels 1"
# Pass 1 by its grid: 264, 270, 360 and 396 workgroups of 3 channels (two fit a multiprocessor at 128 registers).
run waves 1280x528:256,1280x540:256,1280x720:256,1280x792:256,1280x1056:256 "-"
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for n in ch tall waves; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    cmd=j['command'].replace('--conv --image ','').replace(' --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','').replace(' --psf ',':')
    print("%-4s %-40s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f"%(sys.argv[2],cmd,j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us']))
PY
done
grep -h "pass1\|Register" $R/ch.err | head -20
