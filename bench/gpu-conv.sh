#!/bin/sh
# bench/gpu-conv.sh: the convolution benchmark's run on the GPU machine (bench/README.md, "The
# convolution benchmark"), from the repository root with build/ built (make all bench) and
# carried. Writes into $OUT (default bench/results/conv-run): gpu.txt (the driver's view of
# the device), conv.md/.json (every job, read scrub), conv_write.md/.json (exact fp32 spectra
# with a write scrub: the rows comparable with cuFFT's), conv_torch.md/.json (cuFFT through
# PyTorch) and each program's stderr. Exit 0 only if every program passed its checks.
set -u
OUT=${OUT:-bench/results/conv-run}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi >"$OUT/gpu.txt" 2>&1 || echo "no nvidia-smi" >"$OUT/gpu.txt"
rc=0
build/bench/conv_bench --json "$OUT/conv.json" --markdown "$OUT/conv.md" >/dev/null \
    2>"$OUT/conv.err" || rc=1
build/bench/conv_bench --scrub-mode write --spectrum exact --storage f32 \
    --json "$OUT/conv_write.json" --markdown "$OUT/conv_write.md" >/dev/null \
    2>"$OUT/conv_write.err" || rc=1
python3 bench/conv_torch.py --json "$OUT/conv_torch.json" >"$OUT/conv_torch.md" \
    2>"$OUT/conv_torch.err" || rc=1
echo "bench/gpu-conv.sh: exit $rc; $OUT holds the reports"
exit $rc
