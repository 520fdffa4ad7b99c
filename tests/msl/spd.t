#!/bin/sh
# The SPD per-config matrix for MSL: spdgen's MSL runs on the CPU executor (tests/msl/exec)
# and every level is compared with the CPU reference, as tests/spd/glsl_matrix.t and
# tests/spd/hlsl_matrix.t do for GLSL and HLSL on the Vulkan device (tests/spd/matrix.c):
#   ops {min, max, mean} x --subgroup {0, 4, 8} x {r32f, rgba32f}, each either 2D or an
#   8-layer array, alternating so that every op, subgroup and format meets both (pairwise:
#   the executor builds each configuration with clang++ and runs it on the CPU), at sizes
#   {1x1, 2x2, 64x64, 65x65, 127x33, 128x32, 1x300, 5x300, 260x3} and 1000x1000 in 2D,
#   300x200 in arrays;
#   test-order on each subgroup path at 512x256 and 300x1000; 4096x4096 once.
# min/max/test-order bit-exact, mean within 2^-20; two dispatches per size with the levels
# refilled and no host reset of the counters (tests/msl/spd/spd_msl.cpp). SIMD-group
# widths: --subgroup 0 runs at 8 (one configuration at 8 and 32), 4 at 4 and 8, 8 at 8
# and 32; threadgroup orders rotate through forward, reverse and shuffled.
# Parity: for min and max, GLSL and HLSL on the Vulkan device and MSL on the executor must
# give bit-identical levels.
# Mutants: the kernel with one of two threadgroup_barriers removed must fail: the matrix
# can catch a missing barrier.
# Builds into $SPDGEN_BUILD/msl/spd (kept between runs).
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
MSL_DIR="$here"
MSL_BUILD="$SPDGEN_BUILD/msl/spd"
. "$MSL_DIR/tap.sh"

msl_need_tools

sizes="1x1 2x2 64x64 65x65 127x33 128x32 1x300 5x300 260x3"
configs=""
o=0
for op in min max mean; do
    s=0
    for sg in 0 4 8; do
        f=0
        for format in r32f rgba32f; do
            # 2D where op, subgroup and format indices sum to an even number, else an array:
            # each of them meets both with each of the others.
            dim=2d
            [ $(((o + s + f) % 2)) -eq 1 ] && dim=array
            configs="$configs ${op}_${sg}_${format}_$dim"
            f=$((f + 1))
        done
        s=$((s + 1))
    done
    o=$((o + 1))
done
order_configs="test-order_0_rgba32f_2d test-order_4_rgba32f_2d test-order_8_rgba32f_2d"
# Later formats and ops the shim can hold (32-bit float textures only: it does not quantize,
# so rgba16f, rgba8 and r32ui stay with the Vulkan tests): depth min/max pyramids and rg32f.
more_configs="minmax_8_rg32f_2d minmax_0_rg32f_array minmax_4_rg32f_2d max_8_rg32f_array mean_4_rg32f_2d"
# --edge conservative (one dispatch; weighted splits the chain, which the harness does not).
edge_configs="max_8_r32f_2d_conservative min_0_r32f_array_conservative minmax_4_rg32f_2d_conservative"

targets=""
# 4096x4096 once (13 levels, the hand-off at scale).
big_config=max_8_r32f_2d
for c in $configs $order_configs $more_configs $edge_configs $big_config; do
    targets="$targets $MSL_BUILD/spd/$c/spd_msl"
    case $c in
    min_* | max_*) targets="$targets $MSL_BUILD/spd/$c/glsl.spv $MSL_BUILD/spd/$c/hlsl.spv" ;;
    esac
done
msl_build "$WORK/build.log" $targets || { done_testing; exit 1; }

# widths CONFIG: the SIMD-group widths to run (each >= the --subgroup the kernel needs).
widths() {
    case $1 in
    mean_0_rgba32f_array) echo 8,32 ;;
    *_0_*) echo 8 ;;
    *_4_*) echo 4,8 ;;
    *) echo 8,32 ;;
    esac
}
# run CONFIG SIZE...: the configuration's harness on those sizes, with parity for min/max.
run() {
    c=$1
    shift
    set -- $(echo "$c" | tr _ ' ') "$@"
    op=$1 sg=$2 format=$3 dim=$4 edge=drop
    shift 4
    case $1 in conservative) edge=$1; shift ;; esac
    layers=1 label="msl $op --subgroup $sg $format --edge $edge"
    [ "$dim" = array ] && layers=8 label="$label 8 layers"
    parity=""
    case $op in
    min | max) parity="--spirv glsl=$MSL_BUILD/spd/$c/glsl.spv --spirv hlsl=$MSL_BUILD/spd/$c/hlsl.spv" ;;
    esac
    # shellcheck disable=SC2086 # parity is a list of arguments
    msl_run "$label" "$MSL_BUILD/spd/$c/spd_msl" --op "$op" --format "$format" --layers $layers \
        --edge "$edge" --widths "$(widths "$c")" --label "$label" $parity "$@"
}

for c in $configs; do
    case $c in
    *_2d) more=1000x1000 ;;
    *) more=300x200 ;;
    esac
    # shellcheck disable=SC2086
    run "$c" $sizes $more
done
for c in $order_configs; do
    run "$c" 512x256 300x1000
done
for c in $more_configs; do
    run "$c" 2x2 65x65 127x33 1x300 1000x1000 5x300 260x3
done
for c in $edge_configs; do
    run "$c" 3x3 65x65 127x33 129x191 5x300 260x3 1000x999
done
run $big_config 4096x4096

# Mutants: the matrix must catch a missing barrier in the real kernel. Two barriers are
# removed, one at a time, from test-order --subgroup 8 (the line is kept as a comment, so
# line numbers stay): the first one (the first shared-memory exchange of the tile) and the
# one after the atomic counter (between the election of the last threadgroup and the
# threads reading its result). Each mutant must fail at 1024x1024: a wrong level, or an
# error the executor reports.
c=test-order_8_rgba32f_2d
src="$MSL_BUILD/spd/$c/kernel.metal"
for which in first hand-off; do
    case $which in
    first) line=$(grep -n 'threadgroup_barrier' "$src" | head -n 1 | cut -d: -f1) ;;
    hand-off) line=$(awk '/atomic_fetch_add_explicit/ { after = 1 } after && /threadgroup_barrier/ { print NR; exit }' "$src") ;;
    esac
    if [ -z "$line" ]; then
        ok 1 "mutant: $c has no $which threadgroup_barrier to remove"
        continue
    fi
    dir="$MSL_BUILD/mutant/$c-$which"
    mkdir -p "$dir"
    awk -v n="$line" 'NR == n { print "// (threadgroup_barrier removed)"; next } { print }' "$src" >"$dir/kernel.new"
    # Replaced only when changed, so that make reuses the last build.
    cmp -s "$dir/kernel.new" "$dir/kernel.metal" || mv "$dir/kernel.new" "$dir/kernel.metal"
    cmp -s "$MSL_BUILD/spd/$c/contract.h" "$dir/contract.h" || cp "$MSL_BUILD/spd/$c/contract.h" "$dir/contract.h"
    msl_build "$WORK/mutant.log" "$dir/spd_msl" || continue
    timeout 600 "$dir/spd_msl" --op test-order --format rgba32f --layers 1 --widths 8 --label mutant \
        1024x1024 >"$WORK/mutant.out" 2>&1
    grep -q '^not ok' "$WORK/mutant.out"
    ok $? "mutant: $c without its $which threadgroup_barrier (line $line) fails"
    diag "$(grep -A1 '^not ok' "$WORK/mutant.out" | tail -n 1 | cut -c3-300)"
done
done_testing
