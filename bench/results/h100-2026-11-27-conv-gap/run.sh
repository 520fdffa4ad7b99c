for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
C=1280x720:256,1920x1080:512,1024x1024:256,2560x1440:256,976x976:25,900x900:25,1800x1000:100,3000x1600:100
for m in alone after; do timeout 250 build-gpu/F/bench/conv_bench --spdgen build-gpu/F/spdgen --cases $C --subgroups 0 --reps 11 --spectrum resampled --storage f32 \
  --passes $m --markdown $R/$m.md --json $R/$m.json > /dev/null 2> $R/$m.err; echo "rc=$?" >> $R/$m.err; done
tar czf $OUT/results.tgz -C $OUT r
cat $R/gpu.txt
for m in alone after; do echo "== $m"; tail -1 $R/$m.err; python3 - $R/$m.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d['jobs']:
    p=[j[k]['median_us'] for k in ('pass1','pass2','pass3')]
    print("%-10s p1 %6.1f p2 %6.1f p3 %6.1f sum %6.1f pipe %6.1f %s"%(j['command'].split()[2],p[0],p[1],p[2],sum(p),j['pipeline']['median_us'],j['check']['status']))
PY
done
