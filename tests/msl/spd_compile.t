#!/bin/sh
# Every MSL configuration spdgen emits compiles with clang++ against the Metal shim
# (tests/msl/): a syntax and type check of the MSL subset spdgen uses. It does not prove that
# Apple's compiler accepts the code (see docs/msl.md).
#
# Each emitted file is self-contained, so one translation unit per op includes every
# configuration, each inside its own namespace (the shim's include guard makes the inner
# #include <metal_stdlib> a no-op): 90 configurations per clang run instead of one.
# --half configurations compute in half, half2, half4 (the shim's native clang half).
# (rgba16f emits the same MSL as rgba32f but for its comment.)
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang++ not installed"
    exit 0
fi

# gen FILE ARGS...: spdgen ARGS -o FILE, two at a time in the background (the generator
# validates each shader's GLSL twin: most of this test's time); a failure leaves a line in
# $WORK/failures.
running=0
gen() {
    f=$1
    shift
    ("$SPDGEN" "$@" -o "$f" || echo "$f" >>"$WORK/failures") &
    running=$((running + 1))
    if [ $running -ge 2 ]; then
        wait
        running=0
    fi
}

# check_unit DESC: $unit compiles against the shim, and every configuration was generated.
check_unit() {
    wait
    running=0
    failed=$(cat "$WORK/failures" 2>/dev/null | wc -l)
    rm -f "$WORK/failures"
    [ $failed -eq 0 ] && "$here/check-msl.sh" "$unit" 2>"$WORK/err"
    ok $? "$1 compile against the shim"
    [ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
}

for op in min max mean test-order "mean --sampler linear" "mean --sampler linear --fetch-ahead 4" \
    "mean --sampler linear --sampler-coords normalized" "max --half" "mean --half" "max --edge conservative" "mean --edge weighted"; do
    name=$(echo "$op" | tr -d ' -')
    unit="$WORK/all_$name.metal"
    echo '#include <metal_stdlib>' >"$unit"
    n=0 failed=0
    # The edge modes add code to every pass, not new subgroup plans: three plans cover them.
    sgs="0 4 8 16 32 64"
    case "$op" in *edge*) sgs="0 4 32" ;; esac
    # Normalized sampler coordinates change only the fetches' coordinates: three plans too.
    case "$op" in *coords*) sgs="0 4 32" ;; esac
    for sg in $sgs; do
        formats="r32f rgba32f rgba8"
        # --sampler linear: also rgba16f, whose texels the sampler reads as float too.
        case "$op" in *sampler*) formats="r32f rgba16f rgba8" ;; esac
        # --half (fp16 math) is for the 16-bit float formats only.
        case "$op" in *half*) formats="r16f rg16f rgba16f" ;; esac
        for format in $formats; do
            for array in "" --array; do
                # Arrays change the coordinates, not the levels: the hand-off (7) and the
                # whole chain (12) cover them; 2D also builds 1 level. (3 levels, a prefix of
                # 7's first phase, added a sixth of this test's time and no code of its own.)
                mipses="1 7 12"
                [ -n "$array" ] && mipses="7 12"
                for mips in $mipses; do
                    n=$((n + 1))
                    f="$WORK/${name}_${sg}_${format}${array}_$mips.metal"
                    # shellcheck disable=SC2086 # $op may carry --sampler linear
                    gen "$f" --spd --target msl --op $op --subgroup $sg --format $format \
                        $array --mips $mips
                    printf 'namespace config%d {\n#include "%s"\n}\n' $n "$f" >>"$unit"
                done
            done
        done
    done
    check_unit "MSL --op $op: all $n configurations (--subgroup $(echo $sgs | tr ' ' ,) x 3 formats x 2D --mips 1 7 12 and arrays --mips 7 12)"
done

# --tile T with every --wg it takes (the hierarchy of counters; --tail hierarchy), a few subgroups,
# 2D and arrays, up to 14 levels.
unit="$WORK/tiles.metal"
echo '#include <metal_stdlib>' >"$unit"
n=0 failed=0
# 64:256 is --tile 64 --tail hierarchy (the loop of the default is compiled above).
for tw in 2:1 4:4 4:1 8:16 8:4 16:64 16:16 32:256 32:64 64:256; do
    for sg in 0 4 8 32; do
        for array in "" --array; do
            n=$((n + 1))
            f="$WORK/tile_${tw%:*}_${tw#*:}_$sg$array.metal"
            gen "$f" --spd --target msl --op max --format r32f --tile "${tw%:*}" --wg "${tw#*:}" \
                --tail hierarchy --subgroup $sg $array --max-size 16384x16384
            printf 'namespace tile%d {\n#include "%s"\n}\n' $n "$f" >>"$unit"
        done
    done
done
# --fetch-ahead with the hierarchy: 2x2 blocks (one fetch ahead) and 4x4 blocks (the default 2).
for cfg in "--tile 32 --wg 256 --fetch-ahead 1" "--tail hierarchy"; do
    for sg in 0 8; do
        n=$((n + 1))
        f="$WORK/ahead_$n.metal"
        # shellcheck disable=SC2086 # $cfg holds several flags
        gen "$f" --spd --target msl --op mean --format rgba8 --sampler linear $cfg --subgroup $sg \
            --max-size 16384x16384
        printf 'namespace tile%d {\n#include "%s"\n}\n' $n "$f" >>"$unit"
    done
done
check_unit "MSL --tile: all $n configurations (every (T, N) x --subgroup 0 4 8 32 x 2D/array, 14 levels; --fetch-ahead with 2x2 and 4x4 blocks)"
done_testing
