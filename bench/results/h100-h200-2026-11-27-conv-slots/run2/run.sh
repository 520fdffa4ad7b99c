for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
B=build-gpu/A
timeout 280 $B/bench/conv_bench --spdgen $B/spdgen --cases 1280x720:256,976x976:25 --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--ept 8;--ept 8 --columns-per-wg 8;--ept 8 --columns-per-wg 2;--columns-per-wg 8;--ept 4;--columns-per-wg 2" --markdown $R/p2.md --json $R/p2.json > /dev/null 2> $R/p2.err; echo "rc=$?" >> $R/p2.err
timeout 200 $B/bench/conv_bench --spdgen $B/spdgen --cases 1920x1080:512,1024x1024:256,2560x1440:256 --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--columns-per-wg 2" --markdown $R/mx.md --json $R/mx.json > /dev/null 2> $R/mx.err; echo "rc=$?" >> $R/mx.err
tar czf $OUT/results.tgz -C $OUT r
for b in p2 mx; do echo "== $b"; tail -1 $R/$b.err; python3 - $R/$b.json <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled --storage f32 --subgroup 0 --format rgba16f','')
    print("%-60s p1 %6.1f p2 %6.1f p3 %6.1f pipe %6.1f regs %s"%(cmd,j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],j['pipeline']['median_us'],'/'.join(regs[3:6])))
PY
done
