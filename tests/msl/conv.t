#!/bin/sh
# spdgen --conv jobs in MSL (issue 24): every shader of a job (spectrum1, spectrum2, the
# resample of a resampled job, pass1, pass2, pass3) run on the CPU executor (tests/msl/exec) in
# the plan's order, with libspdrt's grids and push constants, by tests/msl/conv/conv_msl.cpp,
# and the output compared with runtime/conv's references (the direct sum in double for an
# exact spectrum, the CPU pipeline in double for a resampled one) within tests/conv/matrix.c's
# bounds (SPDRT_CONV_BOUND_*: f32 spectra rel L2 2e-6, max 1e-5; f16 2e-3, 4e-3), no value
# unwritten (everything starts as NaN), the copied channels exact, guard bands untouched.
# The jobs, seeds and runs are tests/conv/matrix.c's first nine (the ninth: mixed-radix passes
# of --pad-to smooth), on the same random inputs:
# images 1x1 to 160x90, PSFs 1x1 to 63x63, 1-4 channels, both paddings and axis orders, images
# and buffers, composite, sharpening, psf_scale, shuffles and quad swaps, f16 spectra. One
# change: the job with an rgba16f output writes rgba32f here (the shim's textures convert no
# format; tests/msl/README.md), so its bounds carry no half rounding.
# Each run of a job takes the next threadgroup order (forward, reverse, shuffled) and SIMD
# width (8 and 32; 4 and 8 for --subgroup 4).
# Mutants: the 3-channel resampled job without pass 2's first threadgroup_barrier, and with
# pass 1's twiddle coefficient 6.28318548f as 6.28308548f (1.6e-5 off), must fail.
# Builds into $SPDGEN_BUILD/msl/conv (kept between runs): about 90 s of CPU from a cold build
# (ten programs of six units each), 3 s warm.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
MSL_DIR="$here"
MSL_BUILD="$SPDGEN_BUILD/msl/conv"
. "$MSL_DIR/tap.sh"

msl_need_tools

# SEED|FLAGS|RUN;RUN...: tests/conv/matrix.c's JOBS (seed 17 + 1000 x its index), each RUN
# "WxH KWxKH [composite=I] [sharpen=T] [scale=S]" (conv_msl --case).
cat >"$WORK/jobs" <<'EOF'
17|--conv --image 160x90 --psf 63x63 --channels 3 --spectrum exact --padding zero --first-axis x --format rgba32f|1x1 1x1;7x5 3x3;61x17 63x63;160x90 33x33 composite=0.6;120x70 16x9
1017|--conv --image 48x40 --psf 63x63 --channels 4 --spectrum exact --padding mirror --first-axis y --input buffer --output buffer --subgroup 8 --pad-to pow2|1x1 5x5;7x5 63x63;48x40 63x40 composite=1.5;33x40 2x2;47x39 30x1;1x40 31x20
2017|--conv --image 64x48 --psf 17x17 --channels 2 --spectrum exact --padding mirror --ept 4 --max-wg 64 --columns-per-wg 2 --format rgba32f --pad-to pow2|64x48 17x17;63x47 16x17 composite=0.8 sharpen=0.3;3x47 11x12
3017|--conv --image 64x48 --psf 25x25 --channels 2 --spectrum exact --storage f16 --input buffer --output buffer|64x48 25x25;64x48 1x1;60x40 3x3 composite=0.5
4017|--conv --image 96x64 --psf 33x21 --channels 3 --spectrum resampled --padding mirror --subgroup 4 --pad-to pow2 --format rgba32f|96x64 33x21;96x64 33x21 sharpen=0.5 scale=0.75;90x50 17x9 composite=0.7 scale=1.5
5017|--conv --image 96x50 --psf 40x16 --channels 3 --spectrum resampled --first-axis x --input buffer --output buffer --subgroup 8 --storage f16 --pad-to pow2|96x50 40x16;5x7 3x16 scale=0.6
6017|--conv --image 50x30 --psf 9x9 --padded 128x64 --channels 1 --spectrum exact --format rgba32f|50x30 9x9 composite=0.5;50x30 4x9
7017|--conv --image 1x1 --psf 1x1 --channels 1 --input buffer --output buffer --spectrum exact|1x1 1x1
8017|--conv --image 150x70 --psf 31x25 --channels 3 --pad-to smooth --padding mirror --format rgba32f|150x70 31x25;149x69 30x24 composite=0.6 sharpen=0.4 scale=0.8;7x5 3x3
EOF

# name FLAGS...: the build directory's name for a job (see tests/msl/msl.mk).
name() { echo "$*" | sed 's/--//g; s/  */_/g'; }

targets=""
while IFS='|' read -r seed flags runs; do
    # shellcheck disable=SC2086 # flags are words
    targets="$targets $MSL_BUILD/conv/$(name $flags)/conv_msl"
done <"$WORK/jobs"
# shellcheck disable=SC2086
msl_build "$WORK/build.log" $targets || { done_testing; exit 1; }

# cases SUBGROUP RUNS: conv_msl's --case arguments, one per line, each run with the next
# threadgroup order and SIMD width.
cases() {
    echo "$2" | tr ';' '\n' | awk -v sg="$1" '{
        split("forward reverse shuffled", order, " ")
        simd = (sg == 4) ? ((NR % 2) ? 4 : 8) : ((NR % 2) ? 8 : 32)
        print $0 " simd=" simd " order=" order[(NR - 1) % 3 + 1] }'
}

# cases_of DIR RUNS: $WORK/cases, conv_msl's --case arguments for DIR's job, one per line.
cases_of() {
    sg=$(sed -n 's/.*--subgroup \([0-9]*\).*/\1/p' "$1/job.convplan" | head -n 1)
    cases "${sg:-0}" "$2" >"$WORK/cases"
}

start=$(date +%s)
while IFS='|' read -r seed flags runs; do
    # shellcheck disable=SC2086
    dir="$MSL_BUILD/conv/$(name $flags)"
    cases_of "$dir" "$runs"
    set --
    while read -r c; do set -- "$@" --case "$c"; done <"$WORK/cases"
    msl_run "msl $flags" "$dir/conv_msl" --plan "$dir/job.convplan" --label "msl $flags" --seed "$seed" "$@"
done <"$WORK/jobs"
diag "$(wc -l <"$WORK/jobs") jobs run in $(($(date +%s) - start)) s"

# Mutants: one shader of the 3-channel resampled job (shared memory, quad swaps) changed, the
# changed line kept as a comment so line numbers stay; each must fail at least one run.
seed=4017
flags=$(sed -n 5p "$WORK/jobs" | cut -d'|' -f2)
runs=$(sed -n 5p "$WORK/jobs" | cut -d'|' -f3)
# shellcheck disable=SC2086
job="$MSL_BUILD/conv/$(name $flags)"
for which in barrier twiddle; do
    case $which in
    barrier) # pass 2's first exchange through threadgroup memory, read before it is written
        role=pass2 what="its first threadgroup_barrier" pattern='threadgroup_barrier'
        edit='NR == n { print "// (threadgroup_barrier removed)"; next } { print }' ;;
    twiddle) # sin's first Taylor coefficient 2 pi in pass 1's FFT
        role=pass1 what="fft_twiddle's coefficient 6.28318548f as 6.28308548f" pattern='6\.28318548f'
        # shellcheck disable=SC2016 # awk's $0
        edit='NR == n { sub(/6\.28318548f/, "6.28308548f"); print $0 " // (coefficient changed)"; next } { print }' ;;
    esac
    line=$(grep -n "$pattern" "$job/job.$role.metal" | head -n 1 | cut -d: -f1)
    if [ -z "$line" ]; then
        ok 1 "mutant: job.$role.metal has nothing to change for $which"
        continue
    fi
    m="$MSL_BUILD/mutant/conv-$which"
    mkdir -p "$m"
    for f in "$job"/job.*; do
        # Replaced only when changed, so that make reuses the last build.
        if [ "$f" = "$job/job.$role.metal" ]; then awk -v n="$line" "$edit" "$f" >"$m/new"; else cp "$f" "$m/new"; fi
        cmp -s "$m/new" "$m/${f##*/}" || mv "$m/new" "$m/${f##*/}"
    done
    msl_build "$WORK/mutant.log" "$m/conv_msl" || continue
    cases_of "$m" "$runs"
    set --
    while read -r c; do set -- "$@" --case "$c"; done <"$WORK/cases"
    timeout 600 "$m/conv_msl" --plan "$m/job.convplan" --label "mutant $which" --seed "$seed" "$@" \
        >"$WORK/mutant.out" 2>&1
    failed=$(grep -c '^not ok' "$WORK/mutant.out")
    lines=$(grep -c '^\(not \)\{0,1\}ok' "$WORK/mutant.out")
    [ "$failed" -gt 0 ]
    ok $? "mutant: job.$role.metal with $what (line $line) fails ($failed of $lines lines)"
    grep '^not ok' -A1 "$WORK/mutant.out" | cut -c1-300 | sed 's/^/# /'
done
done_testing
