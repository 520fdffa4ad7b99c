for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
for x in 0 1 2 3; do
timeout 120 build-gpu/A/bench/conv_bench --spdgen build-gpu/X$x/spdgen --cases 1280x720:256 --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--columns-per-wg 8" --markdown $R/x$x.md --json $R/x$x.json > /dev/null 2> $R/x$x.err; echo "rc=$?" >> $R/x$x.err
done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for x in 0 1 2 3; do echo "== X$x"; tail -1 $R/x$x.err; python3 - $R/x$x.json <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled --storage f32 --subgroup 0 --format rgba16f','')
    print("%-50s p1 %6.1f p2 %6.1f (%5.1f%%) p3 %6.1f pipe %6.1f regs %s %s"%(cmd,j['pass1']['median_us'],j['pass2']['median_us'],100*j['pass2']['fraction_of_floor'],j['pass3']['median_us'],j['pipeline']['median_us'],'/'.join(regs[3:6]),j['check']['status']))
PY
done
