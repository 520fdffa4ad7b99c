for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
B=build-gpu/A/bench/conv_bench
for b in N W; do timeout 200 $B --spdgen build-gpu/$b/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --markdown $R/$b.md --json $R/$b.json > /dev/null 2> $R/$b.err; echo "rc=$?" >> $R/$b.err; done
for b in N W; do timeout 60 $B --spdgen build-gpu/$b/spdgen --cases 1280x720:256,1920x1080:512 --subgroups 0 --reps 11 --spectrum resampled --storage f16 \
  --markdown $R/f16_$b.md --json $R/f16_$b.json > /dev/null 2> $R/f16_$b.err; echo "rc=$?" >> $R/f16_$b.err; done
for l in glsl hlsl; do SPDGEN_BUILD=build-gpu/W timeout 200 build-gpu/W/tests/conv/matrix $l > $R/matrix-$l.tap 2>&1; echo "rc=$?" >> $R/matrix-$l.tap; done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for b in N W f16_N f16_W; do echo "== $b"; tail -1 $R/$b.err; python3 - $R/$b.json <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace('--storage ','')
    s=j['pass1']['median_us']+j['pass2']['median_us']+j['pass3']['median_us']
    print("%-30s %5d p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f regs %s %s"%(cmd,j['padded_width'],j['pass1']['median_us'],j['pass2']['median_us'],j['pass3']['median_us'],s,j['pipeline']['median_us'],'/'.join(regs[3:6]),j['check']['status']))
PY
done
for l in glsl hlsl; do grep -c "^ok" $R/matrix-$l.tap; grep -E "^not ok|worst|rc=|^1\.\." $R/matrix-$l.tap | cut -c1-250; done
