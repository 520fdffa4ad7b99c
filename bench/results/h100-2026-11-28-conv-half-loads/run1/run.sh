for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/D/conv_bench
C8=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
run() { n=$1; b=$2; c=$3; st=$4
  timeout 250 $B --spdgen build-gpu/$b/spdgen --cases $c --spectrum resampled --storage $st --subgroups 0 --reps 11 \
    --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
run F D $C8 f32
run H H $C8 f32
run F16 D 1280x720:256,1920x1080:512 f16
run H16 H 1280x720:256,1920x1080:512 f16
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for n in F H F16 H16; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','').replace(' --psf ',':')
    print("%-3s %-24s p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f %s"%(sys.argv[2],cmd[:24],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pass1']['median_us']+j['pass2']['median_us']+j['pass3']['median_us'],j['pipeline']['median_us'],j['check'].get('status','')))
PY
done
for n in F H; do echo "== $n"; grep -h "Register" $R/$n.err | head -12 | sed 's/Binary Size=[0-9]*; Stack Size=0; Local Memory Size=68719476736; //g' | cut -c1-300; done
