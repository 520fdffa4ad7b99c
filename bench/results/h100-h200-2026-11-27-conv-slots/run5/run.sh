for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256
B=build-gpu/A/bench/conv_bench
for b in N T; do timeout 120 $B --spdgen build-gpu/$b/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --markdown $R/$b.md --json $R/$b.json > /dev/null 2> $R/$b.err; echo "rc=$?" >> $R/$b.err; done
tar czf $OUT/results.tgz -C $OUT r
for b in N T; do echo "== $b"; tail -1 $R/$b.err; python3 - $R/$b.json <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace('--storage ','')
    print("%-34s %s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f regs %s"%(cmd,j['padded_width'],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us'],'/'.join(regs[3:6])))
PY
done
