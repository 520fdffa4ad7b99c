#!/bin/sh
# The FFT per-config matrix for MSL: spdgen's MSL runs on the CPU executor (tests/msl/exec)
# and every output is compared with the double-precision reference (runtime/fft_ref.c), as
# tests/fft/glsl_matrix.t and tests/fft/hlsl_matrix.t do for GLSL and HLSL on the Vulkan device
# (tests/fft/matrix.c):
#   a cover of the configurations `tests/fft/list` prints (the device matrix: N 4..16384,
#   E 2..64 with W 1..1024 and subgroups 0, 4, 8, native order, every norm, real rows,
#   columns, f16 storage, the twiddle spellings, rows per workgroup), chosen by tests/cover.pl so
#   that every flag value, every E with every subgroup and every flag value in both
#   directions still runs (each configuration is a clang++ build of up to ten seconds of CPU at
#   worst; the device tests run the whole list), plus the subgroup sizes lavapipe cannot run
#   (16, 32, 64; the configurations tests/fft/msl_compile.t adds).
# Same metric and bounds as the device tests (spdrt_fft_compare; relative L2 <= 4e-7,
# max|err| / max|ref| <= 2e-6; f16 storage 1e-3, 2e-3), on random data in [-1, 1]: rows
# 4 FFTs up to N = 1024 and 2 above, columns 9 (a partial last group of columns). Each
# configuration runs three dispatches, one per threadgroup order (forward, reverse,
# shuffled), with the SIMD-group widths rotating through those the kernel allows (>= its
# --subgroup: 0 and 8 at 8 and 32, 4 at 4, 8 and 32, 16 at 16 and 32, 32 at 32 and 64, 64
# at 64), the first with packed strides, the others with strides 2 and 6 elements longer
# (gaps that must stay unwritten). The contract header of each is checked against its
# flags (tests/msl/fft/fft_msl.cpp).
# Mutants: the matrix must catch a slightly wrong twiddle (one polynomial coefficient off
# by 1.6e-5) and a missing threadgroup_barrier (read after write, and write after read).
# Four-step plans (several kernels) are not run here.
# Builds into $SPDGEN_BUILD/msl/fft (kept between runs).
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
MSL_DIR="$here"
MSL_BUILD="$SPDGEN_BUILD/msl/fft"
. "$MSL_DIR/tap.sh"

msl_need_tools

{
    "$SPDGEN_BUILD/tests/fft/list" | perl "$here/../cover.pl"
    echo "--fft 4096 --ept 4 --wg 1024 --subgroup 32 --direction forward"
    echo "--fft 16384 --ept 16 --wg 1024 --subgroup 64 --direction forward"
    echo "--fft 2048 --ept 8 --wg 256 --subgroup 16 --direction forward --real"
    echo "--fft 1024 --ept 4 --wg 256 --subgroup 32 --direction forward --order native --stride"
    echo "--fft 8192 --ept 16 --wg 512 --subgroup 64 --direction inverse --order native --storage f16"
    echo "--fft 16384 --ept 16 --wg 1024 --subgroup 32 --direction inverse --real --storage f16"
} >"$WORK/configs"
total=$(wc -l <"$WORK/configs")
listed=$("$SPDGEN_BUILD/tests/fft/list" | wc -l)
[ "$total" -gt 30 ] && [ "$total" -lt "$listed" ]
ok $? "the matrix runs $total configurations (a cover of tests/fft/list's $listed, and 6 wider subgroups)"

# name FLAGS...: the build directory's name for a configuration (see tests/msl/msl.mk).
name() { echo "$*" | sed 's/--//g; s/  */_/g'; }

targets=""
while read -r flags; do
    # shellcheck disable=SC2086 # flags are words
    targets="$targets $MSL_BUILD/fft/$(name $flags)/fft_msl"
done <"$WORK/configs"
# shellcheck disable=SC2086
msl_build "$WORK/build.log" $targets || { done_testing; exit 1; }

# widths S: the SIMD-group widths a kernel with --subgroup S runs at.
widths() {
    case $1 in
    0 | 8) echo "8 32" ;;
    4) echo "4 8 32" ;;
    16) echo "16 32" ;;
    32) echo "32 64" ;;
    *) echo "$1" ;;
    esac
}
# runs INDEX S: three dispatches, one per order, widths rotating from INDEX, strides packed,
# then 2 and 6 elements longer (even: rows of halves start at even samples).
runs() {
    ws=$(widths "$2")
    nw=$(echo "$ws" | wc -w)
    spec=""
    d=0
    for order in forward reverse shuffled; do
        w=$(echo "$ws" | cut -d' ' -f$((($1 + d) % nw + 1)))
        case $d in 0) pad=0 ;; 1) pad=2 ;; *) pad=6 ;; esac
        spec="$spec${spec:+,}$w:$order:$pad"
        d=$((d + 1))
    done
    echo "$spec"
}
# count FLAGS...: FFTs per dispatch.
count() {
    case " $* " in
    *" --stride "*) echo 9 ;;
    *) [ "$2" -le 1024 ] && echo 4 || echo 2 ;;
    esac
}

start=$(date +%s)
i=0
while read -r flags; do
    sg=$(echo "$flags" | sed 's/.*--subgroup \([0-9]*\).*/\1/')
    # shellcheck disable=SC2086
    msl_run "msl $flags" "$MSL_BUILD/fft/$(name $flags)/fft_msl" --config "$flags" --label "msl $flags" \
        --count "$(count $flags)" --runs "$(runs $i "$sg")"
    i=$((i + 1))
done <"$WORK/configs"
diag "$total configurations run in $(($(date +%s) - start)) s"

# Mutants (the line changed is kept, as a comment or with a comment, so line numbers stay):
# each must fail under the same checks, in at least one of three dispatches (the count is
# reported). The barriers removed are ones a race needs: the first exchange's barrier
# between its writes and reads (read after write), and, in a four-round exchange, the
# barrier between round 1's reads and round 2's writes to the same slots (write after
# read). Not every barrier is one: the first barrier of an exchange whose writes go to
# exactly the slots each thread read last (the generator's usual layout) orders nothing
# between threads, and removing it passes, rightly.
c1=fft_1024_ept_4_wg_256_subgroup_8_direction_forward
f1="--fft 1024 --ept 4 --wg 256 --subgroup 8 --direction forward"
c2=fft_16384_ept_16_wg_1024_subgroup_0_direction_inverse
f2="--fft 16384 --ept 16 --wg 1024 --subgroup 0 --direction inverse"
msl_build "$WORK/mutant.log" "$MSL_BUILD/fft/$c1/kernel.metal" "$MSL_BUILD/fft/$c1/contract.h" \
    "$MSL_BUILD/fft/$c2/kernel.metal" "$MSL_BUILD/fft/$c2/contract.h" || { done_testing; exit 1; }
for which in twiddle barrier-raw barrier-war; do
    case $which in
    twiddle) # sin's first Taylor coefficient 2 pi off by 1.6e-5 in the device twiddle
        c=$c1 flags=$f1 count=4
        src="$MSL_BUILD/fft/$c/kernel.metal"
        line=$(grep -n '6\.28318548f' "$src" | head -n 1 | cut -d: -f1)
        what="fft_twiddle's coefficient 6.28318548f as 6.28308548f"
        # shellcheck disable=SC2016 # awk's $0
        edit='NR == n { sub(/6\.28318548f/, "6.28308548f"); print $0 " // (coefficient changed)"; next } { print }' ;;
    barrier-raw)
        c=$c1 flags=$f1 count=4
        src="$MSL_BUILD/fft/$c/kernel.metal"
        line=$(grep -n 'threadgroup_barrier' "$src" | head -n 1 | cut -d: -f1)
        what="its first threadgroup_barrier (the first exchange's writes, then its reads)"
        edit='NR == n { print "// (threadgroup_barrier removed)"; next } { print }' ;;
    barrier-war)
        c=$c2 flags=$f2 count=2
        src="$MSL_BUILD/fft/$c/kernel.metal"
        line=$(grep -n 'threadgroup_barrier' "$src" | sed -n 2p | cut -d: -f1)
        what="its second threadgroup_barrier (the first exchange's round-1 reads, then round-2 writes)"
        edit='NR == n { print "// (threadgroup_barrier removed)"; next } { print }' ;;
    esac
    msl_fft_mutant "$c" "$which" "$line" "$edit" "$flags" "$count" 8:forward:0,8:reverse:2,32:shuffled:6 "$what"
done
done_testing
