for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
B=build-gpu/A/bench/conv_bench
timeout 200 $B --spdgen build-gpu/X0/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --markdown $R/old.md --json $R/old.json > /dev/null 2> $R/old.err; echo "rc=$?" >> $R/old.err
timeout 300 $B --spdgen build-gpu/N/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --variants "-;--columns-per-wg 8" --markdown $R/new.md --json $R/new.json > /dev/null 2> $R/new.err; echo "rc=$?" >> $R/new.err
for b in X0 N; do timeout 60 $B --spdgen build-gpu/$b/spdgen --cases 1280x720:256,1920x1080:512 --subgroups 0 --reps 11 --spectrum resampled --storage f16 \
  --markdown $R/f16_$b.md --json $R/f16_$b.json > /dev/null 2> $R/f16_$b.err; echo "rc=$?" >> $R/f16_$b.err; done
timeout 100 python3 build-gpu/conv_torch.py --cases 1280x720:256:1536x1024,1920x1080:512:2500x1600 --json $R/torch.json > $R/torch.md 2> $R/torch.err; echo "rc=$?" >> $R/torch.err
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for b in old new f16_X0 f16_N; do echo "== $b"; tail -1 $R/$b.err; python3 - $R/$b.json <<'PY'
import json,sys,re
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    st=j['pipeline'].get('driver_statistics','')
    regs=re.findall(r'Register Count=(\d+)',st)
    cmd=j['command'].replace('--conv --image ','').replace(' --channels 3 --spectrum resampled','').replace(' --subgroup 0 --format rgba16f','').replace('--storage ','')
    print("%-44s p1 %6.1f p2 %6.1f (%4.1f%%) p3 %6.1f pipe %6.1f rs %5.1f regs %s %s"%(cmd,j['pass1']['median_us'],j['pass2']['median_us'],100*j['pass2']['fraction_of_floor'],j['pass3']['median_us'],j['pipeline']['median_us'],j['resample']['median_us'],'/'.join(regs[2:6]),j['check']['status']))
PY
done
cat $R/torch.md | tail -5; tail -1 $R/torch.err
