for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench
run() { n=$1; b=$2; c=$3; m=$4
  timeout 250 $B --spdgen build-gpu/$b/spdgen --cases $c --spectrum resampled --storage f32 --subgroups 0 --reps 11 --passes $m \
    --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
run Fa F 1280x720:256,1920x1080:512,2560x1440:256 alone
run Ft F 1280x720:256,1920x1080:512,2560x1440:256 after
SG_PROBE_LINE_EPT=16 run Qa Q 1280x720:256,1024x1024:256 alone
SG_PROBE_LINE_EPT=16 run Qt Q 1280x720:256,1024x1024:256 after
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for n in Fa Ft Qa Qt; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','').replace(' --psf ',':')
    g=lambda k: j[k]['median_us']
    print("%-3s %-24s p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f b2b %6.1f %s"%(sys.argv[2],cmd,g('pass1'),g('pass2'),g('pass3'),g('pass1')+g('pass2')+g('pass3'),g('pipeline'),j['pipeline'].get('b2b_us',0) or 0,j['check'].get('status','')))
PY
done
