#!/bin/sh
# Every accepted option combination validates (issue 26, item 1). A fixed pseudo-random sample
# of each kernel's option space (SPDGEN_SWEEP=N per kernel to widen it) runs with --check:
# spdgen may refuse a combination (exit 2, a usage error) or generate and validate it (exit 0);
# accepting it and then failing inside the generator or validator (exit 1) is a defect.
. "$(dirname "$0")/../lib.sh"
count=${SPDGEN_SWEEP:-100}

# sample SEED N CHOICE-LISTS...: N argument lists, one value from each list. A list starting
# with '?' is an option left at its default 85% of the time, so a sample changes two or three
# options and many are valid.
sample() {
    seed=$1 n=$2
    shift 2
    printf '%s\n' "$@" | awk -v seed="$seed" -v n="$n" '
        { lists[NR] = $0 }
        END {
            srand(seed)
            for (i = 0; i < n; i++) {
                line = ""
                for (j = 1; j <= NR; j++) {
                    list = lists[j]
                    if (substr(list, 1, 1) == "?") {
                        if (rand() < 0.85) continue
                        list = substr(list, 2)
                    }
                    k = split(list, v, "|")
                    line = line " " v[int(rand() * k) + 1]
                }
                print line
            }
        }'
}

sweep() { # sweep NAME: reads argument lists on stdin
    name=$1 accepted=0 refused=0 failed=0
    while read -r args; do
        # shellcheck disable=SC2086
        "$SPDGEN" $args --check >/dev/null 2>"$WORK/err"
        case $? in
        0) accepted=$((accepted + 1)) ;;
        2) refused=$((refused + 1)) ;;
        *) failed=$((failed + 1)); diag "accepted, then failed: spdgen $args" "$(head -3 "$WORK/err")" ;;
        esac
    done
    [ $failed -eq 0 ] && [ $accepted -ge $((count / 3)) ]
    ok $? "$name: $accepted accepted and validated, $refused refused (exit 2), $failed accepted then failed"
}

targets='--target glsl|--target hlsl|--target msl|--target spirv|--target spirv --spirv-from hlsl'

sample 1 "$count" '--spd' \
    '?--op min|--op max|--op mean|--op minmax|--op srgb-mean' \
    '?--format r16f|--format rg16f|--format rgba16f|--format r32f|--format rg32f|--format rgba8|--format r32ui' \
    '?--max-size 1920x1080|--max-size 64x64|--max-size 16384x16384|--max-size 8192x2' \
    '?--mips 1|--mips 7|--mips 13' '?--max-mips-per-pass 3|--max-mips-per-pass 6' \
    '?--tile 2|--tile 8|--tile 16|--tile 32' '?--wg 4|--wg 64|--wg 256' \
    '?--tail loop|--tail hierarchy' '?--level1 interleaved|--level1 blocks' \
    '?--sampler linear|--sampler load' '?--sampler-coords texel|--sampler-coords normalized' \
    '?--fetch-ahead 1|--fetch-ahead 4' '?--edge conservative|--edge weighted' \
    '?--subgroup 4|--subgroup 8|--subgroup 32' '?--array' '?--half' "$targets" >"$WORK/spd"
sweep "--spd" <"$WORK/spd"

sample 2 "$count" \
    '--fft 4|--fft 64|--fft 256|--fft 1024|--fft 2048|--fft 4096|--fft 16384|--fft 65536' \
    '?--ept 2|--ept 8|--ept 16|--ept 64' '?--wg 32|--wg 256|--wg 1024' '?--max-wg 256' \
    '?--subgroup 4|--subgroup 8|--subgroup 32' '?--direction inverse' \
    '?--norm none|--norm unitary' '?--order native' '?--storage f16' '?--stride' \
    '?--real' '?--column-layout lanes|--column-layout registers' \
    '?--columns-per-wg 2|--columns-per-wg 4,8' '?--rows-per-wg 2|--rows-per-wg 4' \
    '?--prefetch-rows 2' '?--twiddles device|--twiddles lut|--twiddles squared' \
    '?--shared-layout split|--shared-layout paired' "$targets" >"$WORK/fft"
sweep "--fft" <"$WORK/fft"

done_testing
