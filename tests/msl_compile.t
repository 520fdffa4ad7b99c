#!/bin/sh
# Every MSL configuration spdgen emits compiles with clang++ against the Metal shim
# (tests/msl/): a syntax and type check of the MSL subset spdgen uses. It does not run the
# code and does not prove that Apple's compiler accepts it (see README).
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang++ not installed"
    exit 0
fi

for op in min max mean test-order; do
    for sg in 0 4 8 16 32 64; do
        for format in r32f rgba32f rgba16f rgba8; do
            for array in "" --array; do
                files=""
                for mips in 1 3 6 7 12; do
                    f="$WORK/spd_${op}_${sg}_${format}${array}_$mips.metal"
                    "$SPDGEN" --spd --target msl --op $op --subgroup $sg --format $format \
                        $array --mips $mips -o "$f" || echo "spdgen failed" >"$f"
                    files="$files $f"
                done
                # shellcheck disable=SC2086
                "$here/msl/check-msl.sh" $files 2>"$WORK/err"
                ok $? "MSL --op $op --subgroup $sg --format $format $array, --mips 1 3 6 7 12"
                [ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
            done
        done
    done
done
done_testing
