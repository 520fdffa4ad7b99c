#!/bin/sh
# The FFT configurations of the device matrix (tests/fft/list) that tests/msl/fft.t does not
# build and run (those outside tests/cover.pl's cover; so clang++ sees every one of them),
# plus the subgroup sizes lavapipe cannot run (16, 32, 64), emitted as MSL and compiled with
# clang++ against the Metal shim (tests/msl/): a syntax and type check of the MSL subset
# spdgen uses, not a proof that Apple's compiler accepts it (see docs/msl.md).
#
# Each emitted file is self-contained, so one translation unit includes 16 configurations,
# each inside its own namespace (the shim's include guard makes the inner
# #include <metal_stdlib> a no-op): one clang run per 16 configurations.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang++ not installed"
    exit 0
fi

"$SPDGEN_BUILD/tests/fft/list" >"$WORK/list"
sort "$WORK/list" >"$WORK/listed"
perl "$here/../cover.pl" <"$WORK/list" | sort >"$WORK/executed" # as tests/msl/fft.t picks it
{
    comm -23 "$WORK/listed" "$WORK/executed"
    echo "--fft 4096 --ept 4 --wg 1024 --subgroup 32"
    echo "--fft 16384 --ept 16 --wg 1024 --subgroup 64"
    echo "--fft 2048 --ept 8 --wg 256 --subgroup 16 --real"
    echo "--fft 1024 --ept 4 --wg 256 --subgroup 32 --stride --order native"
    echo "--fft 8192 --ept 16 --wg 512 --subgroup 64 --direction inverse --order native --storage f16"
    # Lengths beyond powers of two (issue 27): every kernel radix, real rows, columns, halves,
    # Bluestein.
    echo "--fft 3003"
    echo "--fft 2310 --direction inverse"
    echo "--fft 1000 --real --storage f16"
    echo "--fft 1536 --stride"
    echo "--fft 97 --norm unitary"
} | sort -u >"$WORK/configs"
total=$(wc -l <"$WORK/configs")
[ "$total" -gt 60 ] && [ -s "$WORK/executed" ]
ok $? "the matrix lists $total configurations (and tests/msl/fft.t runs $(wc -l <"$WORK/executed"))"

flush() { # compile the current unit: flush FIRST LAST
    [ "$n" -eq 0 ] && return
    failed_gen=$1
    [ "$failed_gen" -eq 0 ] && "$here/../msl/check-msl.sh" "$unit" 2>"$WORK/err"
    ok $? "MSL configurations $first..$count compile against the shim"
    [ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
    n=0
}

count=0 n=0 gen_failed=0
while read -r flags; do
    count=$((count + 1))
    if [ "$n" -eq 0 ]; then
        first=$count gen_failed=0
        unit="$WORK/unit_$count.metal"
        echo '#include <metal_stdlib>' >"$unit"
    fi
    n=$((n + 1))
    f="$WORK/config_$count.metal"
    # shellcheck disable=SC2086 # flags are words
    if ! "$SPDGEN" $flags --target msl -o "$f"; then
        gen_failed=1
        diag "spdgen $flags --target msl failed"
    fi
    printf 'namespace config%d {\n#include "%s"\n}\n' "$count" "$f" >>"$unit"
    [ "$n" -eq 16 ] && flush $gen_failed
done <"$WORK/configs"
flush $gen_failed

# Four-step plans: both passes of each in one unit.
unit="$WORK/plans.metal"
echo '#include <metal_stdlib>' >"$unit"
n=0 failed=0
for flags in "--fft 65536 --subgroup 32" "--fft 262144 --direction inverse --storage f16" \
    "--fft 1048576 --subgroup 64 --norm unitary" "--fft 32768 --max-wg 256 --subgroup 4"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$SPDGEN" $flags --target msl -o "$WORK/plan$n.metal" || failed=1
    for p in 1 2; do
        printf 'namespace plan%d_pass%d {\n#include "%s"\n}\n' $n $p "$WORK/plan$n.pass$p.metal" >>"$unit"
    done
done
[ $failed -eq 0 ] && "$here/../msl/check-msl.sh" "$unit" 2>"$WORK/err"
ok $? "MSL: both passes of $n four-step plans (N = 32768 .. 2^20) compile against the shim"
[ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
done_testing
