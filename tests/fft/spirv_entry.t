#!/bin/sh
# A cover of the FFT device matrix (tests/fft/list through tests/cover.pl: every flag value,
# every E with every subgroup, both directions; the device tests build all of it from both
# languages) plus the larger subgroup sizes, compiled from GLSL and from HLSL: the module has
# a GLCompute entry point "main" with LocalSize (--wg, times C with C columns in lanes) 1 1
# and passes spirv-val, checked with SPIRV-Tools' own tools (independent of spdgen's check).
. "$(dirname "$0")/../lib.sh"

# local_size FLAGS: docs/fft.md's local size: --wg W, or C x W with --stride in lanes
# (--columns-per-wg C; by default C = the largest power of two up to 16 with C x W <= 1024,
# the lanes layout only where that C is 8 or more, or with --column-layout lanes).
local_size() {
    wg=$(echo "$1" | sed -n 's/.*--wg \([0-9]*\).*/\1/p')
    case " $1 " in
    *" --column-layout registers "*) echo "$wg"; return ;;
    *" --stride "*) ;;
    *) echo "$wg"; return ;;
    esac
    c=$(echo "$1" | sed -n 's/.*--columns-per-wg \([0-9]*\).*/\1/p')
    if [ -z "$c" ]; then
        c=16
        while [ $((c * wg)) -gt 1024 ] && [ "$c" -gt 1 ]; do c=$((c / 2)); done
        case " $1 " in *" --column-layout lanes "*) ;; *) [ "$c" -lt 8 ] && c=1 ;; esac
    fi
    echo $((wg * c))
}

{
    "$SPDGEN_BUILD/tests/fft/list" | perl "$(dirname "$0")/../cover.pl"
    echo "--fft 4096 --ept 4 --wg 1024 --subgroup 32"
    echo "--fft 16384 --ept 16 --wg 1024 --subgroup 64"
    echo "--fft 2048 --ept 8 --wg 256 --subgroup 16 --real"
} | sort -u >"$WORK/configs"

while read -r flags; do
    wg=$(local_size "$flags")
    for from in glsl hlsl; do
        # shellcheck disable=SC2086 # flags are words
        "$SPDGEN" $flags --target spirv --spirv-from $from -o "$WORK/m.spv" &&
            spirv-dis "$WORK/m.spv" -o "$WORK/m.dis" &&
            grep -Eq 'OpEntryPoint GLCompute %[A-Za-z0-9_]+ "main"' "$WORK/m.dis" &&
            grep -Eq "OpExecutionMode(Id)? %[A-Za-z0-9_]+ LocalSize(Id)? ($wg|%uint_$wg) (1|%uint_1) (1|%uint_1)\$" "$WORK/m.dis" &&
            spirv-val --target-env vulkan1.1 "$WORK/m.spv"
        ok $? "$from $flags: entry main, LocalSize $wg 1 1, spirv-val"
    done
done <"$WORK/configs"

# Four-step plans: every pass file the plan names has LocalSize = the plan's wg for it.
for flags in "--fft 65536 --subgroup 8" "--fft 1048576 --subgroup 32" "--fft 32768 --max-wg 256" \
    "--fft 32768 --column-layout registers"; do
    for from in glsl hlsl; do
        rm -rf "$WORK/plan" && mkdir "$WORK/plan"
        # shellcheck disable=SC2086
        "$SPDGEN" $flags --target spirv --spirv-from $from -o "$WORK/plan/fft.spv"
        good=$?
        grep '^pass ' "$WORK/plan/fft.fftplan" >"$WORK/passes"
        while read -r _ p _ file _ _ _ wg _; do
            spirv-dis "$WORK/plan/$file" -o "$WORK/m.dis" &&
                grep -Eq 'OpEntryPoint GLCompute %[A-Za-z0-9_]+ "main"' "$WORK/m.dis" &&
                grep -Eq "OpExecutionMode(Id)? %[A-Za-z0-9_]+ LocalSize(Id)? ($wg|%uint_$wg) (1|%uint_1) (1|%uint_1)\$" "$WORK/m.dis" &&
                spirv-val --target-env vulkan1.1 "$WORK/plan/$file" || good=1
        done <"$WORK/passes"
        [ "$(wc -l <"$WORK/passes")" -eq 2 ] || good=1
        ok $good "$from $flags: both pass files have entry main, the plan's LocalSize, spirv-val"
    done
done
done_testing
