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
#   variant_N.md, variant_N.json conv_bench again, resampled spectra only, with other spdgen
#                                flags (VARIANTS below: pass 2's columns per workgroup, whose
#                                shared-memory exchanges take 4 rounds at 8 columns and 1 at
#                                2; subgroup shuffles; the axis order)
#   summary.md                   all of it against the issue's targets (also printed)
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
# One variant a line ($CONV_VARIANTS replaces them, e.g. for a smoke run on another device).
VARIANTS=${CONV_VARIANTS:-'--columns-per-wg 2
--columns-per-wg 4
--subgroup 32
--columns-per-wg 2 --subgroup 32
--first-axis x'}
rm -f "$out/variants_failed.txt" "$out"/variant_*
n=0
variant_json=
echo "$VARIANTS" | while IFS= read -r v; do
    [ -n "$v" ] || continue
    n=$((n + 1))
    "$build/bench/conv_bench" "$@" --spectrum resampled --spdgen-args "$v" \
        --json "$out/variant_$n.json" --markdown "$out/variant_$n.md" >/dev/null 2>"$out/variant_$n.stderr" ||
        echo "variant $n ($v) failed" >>"$out/variants_failed.txt"
done
[ -s "$out/variants_failed.txt" ] && status=1
for f in "$out"/variant_*.json; do [ -s "$f" ] && variant_json="$variant_json $f"; done
if [ -s "$out/conv.json" ]; then
    torch_json=-
    [ -s "$out/conv_torch.json" ] && torch_json=$out/conv_torch.json
    python3 bench/conv/summary.py "$out/conv.json" "$torch_json" $variant_json >"$out/summary.md" || status=1
    cat "$out/summary.md"
fi
echo "run-gpu.sh: status $status (files in $out)"
exit $status
