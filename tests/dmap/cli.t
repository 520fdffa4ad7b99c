#!/bin/sh
# spdgen --dmap on the command line: every bad input refused with one line naming the flag,
# the value and what is allowed (exit 2, nothing written); every target generated and
# deterministic; emitted lines within 100 columns; --inputs f16 marks the loads; the contract
# header compiles; the MSL compiles against the Metal shim (tests/msl/check-msl.sh).
d=$(cd "$(dirname "$0")" && pwd)
SPDGEN_BUILD=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
. "$d/../lib.sh"

# refuse ERROR-PATTERN FLAGS...: exit 2, one line on stderr matching the pattern, no output.
refuse() {
    pattern=$1
    shift
    rm -f "$WORK/out"
    "$SPDGEN" "$@" -o "$WORK/out" 2>"$WORK/err" >/dev/null
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$WORK/err" && [ ! -e "$WORK/out" ]
    ok $? "refused ($rc, $lines line): $*"
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] || diag "$(cat "$WORK/err")"
}

refuse "--texel 16: --dmap fdm takes 32..1024" --dmap fdm --texel 16
refuse "--texel 64: --dmap fsr takes 8, 16 or 32" --dmap fsr --texel 64
refuse "--texel.*24" --dmap fsr --texel 24
refuse "--texel.*2048" --dmap fdm --texel 2048
refuse "--max-rate 8: --dmap fsr rates are 1, 2 or 4" --dmap fsr --max-rate 8
refuse "--max-rate.*32" --dmap fdm --max-rate 32
refuse "--max-rate.*3" --dmap fdm --max-rate 3
refuse "--foveation off: nothing decides the rates" --dmap fsr --foveation off
refuse "--views.*7" --dmap fsr --views 7
refuse "--selftest: not with --dmap resolve" --dmap resolve --selftest
refuse "--views.*0" --dmap fsr --views 0
refuse "--subgroup 8: only with --content" --dmap fsr --subgroup 8
refuse "--subgroup.*12" --dmap fsr --content --subgroup 12
refuse "--batch 2: only with --content" --dmap fsr --batch 2
refuse "--batch.*3" --dmap fsr --content --batch 3
refuse "--fetch rows: only with --content" --dmap fdm --fetch rows
refuse "--fetch.*diagonals" --dmap fsr --content --fetch diagonals
refuse "--fetch columns: only with --subgroup 8 or more.*not 0" --dmap fsr --content --fetch columns
refuse "--fetch columns: only with --subgroup 8 or more.*not 4" --dmap fsr --content --fetch columns --subgroup 4
refuse "--fetch columns: only with --texel 16 or more" --dmap fsr --texel 8 --content --fetch columns --subgroup 8
refuse "--fetch columns: only with --batch 4 and --ring joined" --dmap fsr --content --fetch columns --subgroup 8 --batch 2
refuse "--fetch columns: only with --batch 4 and --ring joined" --dmap fdm --content --fetch columns --subgroup 16 --ring last
refuse "--batch: not with --dmap resolve" --dmap resolve --batch 1
refuse "--fence: only with --content" --dmap fsr --fence
refuse "--fetch strips: only with --subgroup 0" --dmap fsr --content --fetch strips --subgroup 8
refuse "--fence: only with --batch 1 or 2 or --ring last" --dmap fsr --content --fence
refuse "--ring last: only with --content" --dmap fsr --ring last
refuse "--ring.*first" --dmap fsr --content --ring first
refuse "--ring: not with --dmap resolve" --dmap resolve --ring last
refuse "--fence: not with --dmap resolve" --dmap resolve --fence
refuse "--combine coarser: only with both" --dmap fsr --combine coarser
refuse "--texel: not with --dmap resolve" --dmap resolve --texel 16
refuse "--format: only with --dmap resolve" --dmap fsr --format rgba8
refuse "--dmap.*bogus" --dmap bogus
refuse "--rate-map: not with --dmap resolve" --dmap resolve --rate-map
refuse "--size.*0x16" --dmap fsr --selftest --size 0x16
refuse "--size: only meaningful with --selftest" --dmap fsr --size 64x64
refuse "--size 64x64x2: the layers are --views (1)" --dmap fsr --selftest --size 64x64x2
refuse "--op: only for --spd" --dmap fsr --op max
refuse "--inputs f16: only with --content" --dmap fsr --inputs f16
refuse "--inputs.*f8.*f32 | f16" --dmap fsr --content --inputs f8
refuse "--inputs: not with --dmap resolve" --dmap resolve --inputs f16
refuse "--inputs f16: not with HLSL" --dmap fsr --content --inputs f16 --target hlsl
refuse "--inputs f16: not with HLSL" --dmap fdm --content --inputs f16 --target spirv --spirv-from hlsl
refuse "--inputs f16: not with --target wgsl" --dmap fsr --content --inputs f16 --target wgsl \
    --features texture-formats-tier1

# Every target, every kind of configuration: generated, deterministic, short lines.
n=0 bad=0 long=0 twice=0
for flags in "--dmap fsr" "--dmap fdm --texel 1024 --views 6" "--dmap fsr --content --subgroup 8" \
    "--dmap fdm --content --foveation fixed --combine coarser --texel 256 --views 2 --rate-map" \
    "--dmap fsr --texel 8 --content --foveation off --subgroup 4" \
    "--dmap fsr --content --subgroup 32 --batch 1" "--dmap fdm --content --fetch rows --batch 2" \
    "--dmap fsr --content --batch 2 --fence" "--dmap fdm --content --texel 64 --fetch strips" \
    "--dmap fsr --content --ring last --fence" "--dmap fsr --content --foveation off --fetch columns --subgroup 8" \
    "--dmap fdm --content --texel 128 --views 2 --fetch columns --subgroup 32"; do
    for t in glsl hlsl msl; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$SPDGEN" $flags --target $t -o "$WORK/a.$n" || { bad=$((bad + 1)); diag "$flags --target $t"; }
        # one configuration per target again: the same bytes
        if [ $((n % 4)) -eq 1 ]; then
            twice=$((twice + 1))
            "$SPDGEN" $flags --target $t -o "$WORK/b.$n" && cmp -s "$WORK/a.$n" "$WORK/b.$n" ||
                { bad=$((bad + 1)); diag "$flags --target $t: not the same twice"; }
        fi
        l=$(awk 'length > 100' "$WORK/a.$n" | wc -l)
        [ "$l" -eq 0 ] || { long=$((long + l)); diag "$flags --target $t: $l long lines"; }
    done
done
ok $bad "$n configurations x targets generate; $twice of them twice, byte for byte the same"
ok $long "every emitted line is within 100 columns"

# --fetch's default: columns where it applies (--subgroup 8 or more, --texel 16 and up,
# --batch 4, --ring joined), blocks elsewhere; given, as given.
fetch_of() { # spdgen flags: the --fetch its regenerate command names
    "$SPDGEN" "$@" -o "$WORK/f.comp" && regenerate_command "$WORK/f.comp" | sed -n 's/.*--fetch \([a-z]*\).*/\1/p'
}
defaults=0
for case in "columns|--dmap fsr --content --subgroup 8" "columns|--dmap fdm --content --texel 64 --subgroup 32" \
    "blocks|--dmap fsr --content" "blocks|--dmap fsr --content --subgroup 4" \
    "blocks|--dmap fsr --content --subgroup 8 --texel 8" "blocks|--dmap fsr --content --subgroup 8 --batch 2" \
    "blocks|--dmap fsr --content --subgroup 8 --ring last" "blocks|--dmap fsr --content --subgroup 8 --fetch blocks" \
    "rows|--dmap fsr --content --subgroup 8 --fetch rows"; do
    want=${case%%|*}
    # shellcheck disable=SC2086 # the case's flags
    got=$(fetch_of ${case#*|})
    [ "$got" = "$want" ] || { defaults=1; diag "${case#*|}: --fetch $got, not $want"; }
done
ok $defaults "--fetch: columns by default where it applies, blocks elsewhere, a given one kept"

# --inputs f16: both textures' loads relaxed to 16 bits in the SPIR-V (mediump in the GLSL, half
# textures in the MSL, widened to float where read); f32: none relaxed.
relaxed_fetches() { # SPIR-V file: how many OpImageFetch results are RelaxedPrecision
    spirv-dis "$1" | awk '/OpDecorate %[0-9a-z_]+ RelaxedPrecision/ { r[$2] = 1 }
        /= OpImageFetch/ { if (r[$1]) n++ } END { print n + 0 }'
}
"$SPDGEN" --dmap fsr --content --subgroup 8 --fetch columns --inputs f16 --target spirv -o "$WORK/h16.spv" &&
    "$SPDGEN" --dmap fsr --content --subgroup 8 --fetch columns --target spirv -o "$WORK/h32.spv" &&
    "$SPDGEN" --dmap fdm --content --inputs f16 --target msl -o "$WORK/h16.metal" &&
    [ "$(relaxed_fetches "$WORK/h16.spv")" -eq 2 ] && [ "$(relaxed_fetches "$WORK/h32.spv")" -eq 0 ] &&
    [ "$(grep -c 'texture2d<half, access::read> src_\(colour\|motion\)' "$WORK/h16.metal")" -eq 2 ] &&
    grep -q 'float4 rgb = float4(src_colour.read(' "$WORK/h16.metal"
ok $? "--inputs f16: the colour and motion loads relaxed (SPIR-V) and half textures (MSL); f32: none"

# The contract header: compiles, and its push-constant struct has the shader's fields.
"$SPDGEN" --dmap fsr --name dmap --content --views 2 -o "$WORK/h.comp" --emit-header "$WORK/h.h" &&
    printf '#include "h.h"\nint main(void) { DmapPushConstants p = {0}; p.gaze1 = 1; p.cutoff = 2;\n return (int)sizeof p == 4 * 12 ? 0 : 1; }\n' >"$WORK/h.c" &&
    cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/h" "$WORK/h.c" && "$WORK/h"
ok $? "--emit-header compiles; its struct holds the 12 push constants of fsr --content --views 2"
grep -q "DMAP_TEXEL 16" "$WORK/h.h" && grep -q "DMAP_BINDING_MOTION 2" "$WORK/h.h" &&
    ! grep -q "RATE_AXES" "$WORK/h.h" && "$SPDGEN" --dmap fsr --name dmap --rate-map -o "$WORK/r.comp" --emit-header "$WORK/r.h" &&
    grep -q "DMAP_BINDING_RATE_AXES 3" "$WORK/r.h"
ok $? "the header names the texel size and the bindings (binding 3 only with --rate-map)"

# MSL: syntax and types against the shim (no open Metal compiler exists).
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
    msl=""
    for i in $(seq 1 $n); do [ $((i % 3)) -eq 0 ] && msl="$msl $WORK/a.$i"; done
    # shellcheck disable=SC2086
    "$d/../msl/check-msl.sh" $msl 2>"$WORK/err"
    ok $? "the MSL of every configuration compiles against the Metal shim"
    [ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
else
    echo "ok $((TAP_N + 1)) # SKIP clang++ not installed"
    TAP_N=$((TAP_N + 1))
fi
done_testing
