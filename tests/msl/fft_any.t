#!/bin/sh
# FFT lengths beyond powers of two in MSL (issue 27): a subset of tests/fft/mixed.t's
# lengths, spdgen's MSL run on the CPU executor (tests/msl/exec) by the FFT harness
# (tests/msl/fft/fft_msl.cpp), every output compared with the double-precision reference
# (spdrt_fft_reference: the direct sum at these N) within mixed.t's bars: relative L2 <= 4e-7
# for mixed radix, <= 1.5e-6 for Rader and Bluestein, max|err| / max|ref| <= 2e-6.
#   mixed radix: 6 (one invocation per FFT, 32 FFTs per threadgroup), 15 inverse, 1000
#   forward and inverse (25 x 40, radices 40 and 25, two FFTs per threadgroup), 1000 as 8 x 125
#   (125 threads: SIMD-groups cut by the FFT's edge), 1536 (48 x 32), 2400 (16 x 150: exchanges
#   by component, the real parts, then the imaginary, through one float array), columns (12
#   --stride) and real rows (1000 --real: 20 x 50, two pairs of rows per threadgroup);
#   the prime radices 17 and 23 (391 = 17 x 23);
#   Bluestein: 41 forward and inverse (M = 81; its chirp and kernel-spectrum tables at
#   buffer(3) and buffer(4), computed by spdrt_fft_bluestein_tables as libspdrt fills them);
#   Rader: 257 forward and inverse (its kernel spectrum at buffer(3), spdrt_fft_rader_tables).
# Each configuration: its contract header against the flags, then three dispatches (threadgroup
# orders forward, reverse, shuffled; SIMD widths 8, 32, 8; packed strides, then 2 and 6
# elements longer). These paths use no SIMD-group functions (every exchange goes through
# threadgroup memory), so the widths only change the fibers' schedule.
# Round trips for 1000, 41 and 257: the forward program saves its first run's input and output
# (--save), the inverse program reads that output as its first run's input (--from) and must
# give the input back within relative L2 1e-6 (mixed.t's bar): the harness links one kernel
# per program, so the two directions meet through a file.
# Mutants: the 1000-point kernel without its threadgroup_barrier, the Bluestein kernel with a
# twiddle coefficient off by 1.6e-5, and the Rader kernel without x[0] in its product, must fail.
# Builds into $SPDGEN_BUILD/msl/fft (shared with tests/msl/fft.t, kept between runs).
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
MSL_DIR="$here"
MSL_BUILD="$SPDGEN_BUILD/msl/fft"
. "$MSL_DIR/tap.sh"

msl_need_tools

cat >"$WORK/configs" <<'EOF'
--fft 6 --direction forward
--fft 15 --direction inverse
--fft 1000 --direction forward
--fft 1000 --direction inverse
--fft 1000 --ept 8 --wg 125 --direction forward
--fft 1536 --direction forward
--fft 2400 --direction forward
--fft 12 --direction forward --stride
--fft 1000 --direction forward --real
--fft 391 --direction forward
--fft 41 --direction forward
--fft 41 --direction inverse
--fft 257 --direction forward
--fft 257 --direction inverse
EOF

# name FLAGS...: the build directory's name for a configuration (see tests/msl/msl.mk).
name() { echo "$*" | sed 's/--//g; s/  */_/g'; }

targets=""
while read -r flags; do
    # shellcheck disable=SC2086 # flags are words
    targets="$targets $MSL_BUILD/fft/$(name $flags)/fft_msl"
done <"$WORK/configs"
# shellcheck disable=SC2086
msl_build "$WORK/build.log" $targets || { done_testing; exit 1; }

start=$(date +%s)
while read -r flags; do
    # 3 rows (a partial last threadgroup where one holds two or more), 9 columns.
    case " $flags " in *" --stride "*) count=9 ;; *) count=3 ;; esac
    # The round trip: plain forward configurations save, the inverse of the same N reads.
    n=$(echo "$flags" | cut -d' ' -f2)
    trip=""
    [ "$flags" = "--fft $n --direction forward" ] && trip="--save $WORK/$n.run"
    [ "$flags" = "--fft $n --direction inverse" ] && [ -f "$WORK/$n.run" ] && trip="--from $WORK/$n.run"
    # shellcheck disable=SC2086
    msl_run "msl $flags" "$MSL_BUILD/fft/$(name $flags)/fft_msl" --config "$flags" --label "msl $flags" \
        --count $count --runs 8:forward:0,32:reverse:2,8:shuffled:6 $trip
done <"$WORK/configs"
diag "$(wc -l <"$WORK/configs") configurations run in $(($(date +%s) - start)) s"

# Mutants, as in tests/msl/fft.t: the changed line is kept (as a comment or with one) so line
# numbers stay; each must fail at least one of its three dispatches.
for which in barrier twiddle rader; do
    case $which in
    barrier) # the exchange between the 40- and 25-point stages, read before written
        flags="--fft 1000 --direction forward"
        what="its threadgroup_barrier"
        pattern='threadgroup_barrier'
        edit='NR == n { print "// (threadgroup_barrier removed)"; next } { print }' ;;
    twiddle) # sin's first Taylor coefficient 2 pi, in the Bluestein kernel's 81-point FFTs
        flags="--fft 41 --direction forward"
        what="fft_twiddle's coefficient 6.28318548f as 6.28308548f"
        pattern='6\.28318548f'
        # shellcheck disable=SC2016 # awk's $0
        edit='NR == n { sub(/6\.28318548f/, "6.28308548f"); print $0 " // (coefficient changed)"; next } { print }' ;;
    rader) # Rader's x[0], added at frequency 0 of the product, left out
        flags="--fft 257 --direction forward"
        what="x0 left out of frequency 0"
        pattern=' + x0 : '
        # shellcheck disable=SC2016 # awk's $0
        edit='NR == n { sub(/ \+ x0 : /, " : "); print $0 " // (x0 removed)"; next } { print }' ;;
    esac
    # shellcheck disable=SC2086
    c=$(name $flags)
    src="$MSL_BUILD/fft/$c/kernel.metal"
    line=$(grep -n "$pattern" "$src" | head -n 1 | cut -d: -f1)
    msl_fft_mutant "$c" "$which" "$line" "$edit" "$flags" 3 8:forward:0,32:reverse:2,8:shuffled:6 "$what"
done
done_testing
