#!/bin/sh
# FFT lengths beyond powers of two (issue 27): spdgen's FFT (build/bench/fft_bench) and cuFFT
# (bench/cufft.py, through PyTorch) on the same sizes in one run, each against its own copy
# floor, and one summary table of both (bench/fft_any_summary.py). See bench/README.md,
# "Any FFT length".
#
#   bench/fft_any_gpu.sh [--quick] [--sizes LIST] OUTDIR
#
# Writes into OUTDIR (created): fft_any.md / fft_any.json (fft_bench's report, every
# variant), cufft_any.md / cufft_any.json, SUMMARY.md, and the programs' stderr as *.log.
# Default sizes: the issue's mixed-radix N (768, 1000, 1536, 2187, 3000, 4860, 6144, 10000,
# 15625), Bluestein 1009 and 4099, and the powers of two beside them (1024 .. 16384); 512 MiB
# per transform; every --ept/--wg pair spdgen lists for each N not a power of two.
# --quick: a smoke run for a CPU implementation (lavapipe): N = 15, 41, 97, 1000, 1024 at 2 MiB
# per transform, one other pair, few repetitions. cuFFT runs only where PyTorch sees a CUDA
# device; otherwise SUMMARY.md says it was not run.
# Exit status: 0 when both programs ran and every check passed; 1 otherwise; 2 usage.
# Runs from any directory; finds build/ as $SPDGEN_BUILD or the repository's build/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${SPDGEN_BUILD:-$here/../build}
quick=0
sizes=""
while [ $# -gt 1 ]; do
    case $1 in
    --quick) quick=1 ;;
    --sizes) sizes=$2; shift ;;
    *) echo "fft_any_gpu.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
    echo "usage: bench/fft_any_gpu.sh [--quick] [--sizes LIST] OUTDIR" >&2
    exit 2
fi
out=$1
mkdir -p "$out" || exit 1
if [ ! -x "$build/bench/fft_bench" ]; then
    echo "fft_any_gpu.sh: $build/bench/fft_bench not found (run make bench)" >&2
    exit 1
fi

if [ $quick -eq 1 ]; then
    sizes=${sizes:-15,41,97,1000,1024}
    set -- --quick --batch-mib 2 --pairs 1
    cuargs="--batch-mib 2 --reps 3 --heat-ms 10"
else
    sizes=${sizes:-768,1000,1009,1024,1536,2048,2187,3000,4096,4099,4860,6144,8192,10000,15625,16384}
    set -- --pairs 20
    cuargs=""
fi

start=$(date +%s)
echo "fft_any_gpu.sh: fft_bench on N = $sizes ..." >&2
"$build/bench/fft_bench" --no-2d --sizes "$sizes" "$@" --json "$out/fft_any.json" \
    --markdown "$out/fft_any.md" >/dev/null 2>"$out/fft_any.log"
rc=$?
echo "fft_any_gpu.sh: fft_bench exit $rc after $(($(date +%s) - start)) s (log: $out/fft_any.log)" >&2

cu=""
if python3 -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    echo "fft_any_gpu.sh: cuFFT through PyTorch ..." >&2
    # shellcheck disable=SC2086 # cuargs are words
    python3 "$here/cufft.py" --sizes "$sizes" --no-2d $cuargs --json "$out/cufft_any.json" \
        --markdown "$out/cufft_any.md" >/dev/null 2>"$out/cufft_any.log"
    curc=$?
    echo "fft_any_gpu.sh: cufft.py exit $curc (log: $out/cufft_any.log)" >&2
    [ $curc -eq 0 ] && cu="$out/cufft_any.json"
    [ $curc -eq 0 ] || rc=1
else
    echo "fft_any_gpu.sh: no PyTorch with a CUDA device here: cuFFT not run" >&2
fi

if [ -s "$out/fft_any.json" ]; then
    # shellcheck disable=SC2086 # an empty $cu is no argument
    python3 "$here/fft_any_summary.py" "$out/fft_any.json" $cu >"$out/SUMMARY.md" || rc=1
fi
echo "fft_any_gpu.sh: done in $(($(date +%s) - start)) s: $out/SUMMARY.md (exit $rc)" >&2
[ $rc -eq 0 ] && exit 0
exit 1
