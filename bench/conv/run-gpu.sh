#!/bin/sh
# bench/conv/run-gpu.sh OUT [CONV_BENCH_OPTIONS...]: the whole --conv speed run on the GPU machine, in one command
# (issue 24): the record test on the real driver (tests/conv/record.c, when built), conv_bench
# (every job on bench/gpu.c's harness with its floors and checks), the cuFFT baseline through
# PyTorch (bench/conv_torch.py, the same cases, heat, scrub and CUDA events), and the summary
# against the issue's targets (bench/conv/summary.py). Everything goes under OUT:
#   gpu.txt, spdgen.txt          the device and the generator
#   record_test.txt              TAP of tests/conv/record (skipped when not built)
#   conv.md, conv.json           conv_bench
#   conv_torch.md, conv_torch.json
#   summary.md                   both side by side (also printed)
#   *.stderr                     progress and errors
# Run from anywhere; uses $SPDGEN_BUILD (default: the checkout's build/): build/spdgen,
# build/bench/conv_bench, build/bench/copy.spv, build/bench/scrub.spv, build/tests/conv/record.
# Options after OUT go to conv_bench (e.g. --quick for a smoke run of the script on lavapipe,
# where conv_torch.py fails for want of CUDA). Exit 0 only if every step and check passed.
set -u
out=${1:?usage: bench/conv/run-gpu.sh OUT_DIR [CONV_BENCH_OPTIONS...]}
shift
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cd "$(dirname "$0")/../.." || exit 2
build=${SPDGEN_BUILD:-build}
mkdir -p "$out" || exit 2
status=0
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv && nvidia-smi; } \
    >"$out/gpu.txt" 2>&1
"$build/spdgen" --version >"$out/spdgen.txt" 2>&1 || status=1
if [ -x "$build/tests/conv/record" ]; then
    SPDGEN_BUILD=$build "$build/tests/conv/record" >"$out/record_test.txt" 2>&1 || status=1
fi
"$build/bench/conv_bench" "$@" --json "$out/conv.json" --markdown "$out/conv.md" >/dev/null 2>"$out/conv.stderr" ||
    status=1
python3 bench/conv_torch.py --json "$out/conv_torch.json" >"$out/conv_torch.md" 2>"$out/conv_torch.stderr" ||
    status=1
if [ -s "$out/conv.json" ]; then
    torch_json=
    [ -s "$out/conv_torch.json" ] && torch_json=$out/conv_torch.json
    python3 bench/conv/summary.py "$out/conv.json" $torch_json >"$out/summary.md" || status=1
    cat "$out/summary.md"
fi
echo "run-gpu.sh: status $status (files in $out)"
exit $status
