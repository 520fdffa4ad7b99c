for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench
run() { n=$1; b=$2; c=$3
  timeout 250 $B --spdgen build-gpu/$b/spdgen --cases $c --spectrum resampled --storage f32 --subgroups 0 --reps 11 \
    --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
run F F 1280x720:256,1024x1024:256,2560x1440:256,3000x1600:100,1800x1000:100
SG_PROBE_LINE_EPT=12 run E12 Q 1280x720:256,2560x1440:256,1800x1000:100
SG_PROBE_LINE_EPT=16 run E16 Q 1280x720:256,1024x1024:256,2560x1440:256,3000x1600:100
run F2 F 1280x720:256,1024x1024:256
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for n in F E12 E16 F2; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','').replace(' --psf ',':')
    print("%-3s %-24s p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f %s"%(sys.argv[2],cmd,j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pass1']['median_us']+j['pass2']['median_us']+j['pass3']['median_us'],j['pipeline']['median_us'],j['check'].get('status','')))
PY
done
for n in F E12 E16; do grep -h "Register" $R/$n.err | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //g' | awk -F'|' '{print $1 "|" $4 "|" $6}' | sed 's/--spectrum resampled --storage f32 --subgroup 0 --format rgba16f//' | cut -c1-200; done
