for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
B=build-gpu/R/bench/conv_bench
C8=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
run() { n=$1; b=$2; c=$3; v=$4
  timeout 280 $B --spdgen build-gpu/$b/spdgen --cases $c --spectrum resampled --storage f32 --subgroups 0 --reps 11 \
    --variants "$v" --markdown $R/$n.md --json $R/$n.json > /dev/null 2> $R/$n.err; echo "rc=$?" >> $R/$n.err; }
run H H $C8 "-"
run T T $C8 "-;--columns-per-wg 2"
run T8 T 1280x720:256,976x976:25 "--ept 8 --columns-per-wg 2;--ept 8"
tar czf $OUT/results.tgz -C $OUT r
for n in H T T8; do tail -1 $R/$n.err; python3 - $R/$n.json $n <<'PY'
import json,sys,re
try: d=json.load(open(sys.argv[1]))
except Exception as e: print(sys.argv[2], 'no json', e); sys.exit()
for j in d['jobs']:
    if j.get('error'): print(sys.argv[2], j['command'][:60], 'ERROR', j['error'][:80]); continue
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace(' --storage f32','')
    print("%-3s %-44s %s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f %s regs %s"%(sys.argv[2],cmd,j['padded_width'],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us'],j['check'].get('status','') if isinstance(j['check'],dict) else j['check'],'/'.join(regs[3:6])))
PY
done
