#!/bin/sh
# spdgen --dmap's MSL on the CPU executor of tests/msl (tests/dmap/dmap_msl.cpp): eight
# configurations (shuffles, quads, shared memory; texels 8..128; views 1..3; foveation,
# content and both; one with --rate-map's buffer, one with --batch 2 --fetch rows, one with
# --batch 2 --fetch strips --fence, one with --fetch columns, one with --inputs f16's half
# textures), every
# texel equal to the CPU reference after each of two dispatches, SIMD-group widths and
# threadgroup orders rotating. Builds into $SPDGEN_BUILD/dmap/msl.
d=$(cd "$(dirname "$0")" && pwd)
SPDGEN_BUILD=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
. "$d/../lib.sh"
. "$d/../msl/tap.sh"
B="$SPDGEN_BUILD/dmap"

msl_need_tools

# FLAGS|WIDTHS per configuration.
configs="--dmap fsr --texel 16 --foveation gaze --content --views 1 --max-rate 4 --subgroup 8 --fetch blocks|8,32
--dmap fdm --texel 64 --foveation fixed --content --combine coarser --views 2 --max-rate 16 --subgroup 4 --rate-map|4,16
--dmap fdm --texel 128 --foveation off --content --views 1 --max-rate 16 --subgroup 0|8,32
--dmap fsr --texel 16 --foveation off --content --views 1 --max-rate 4 --subgroup 8 --batch 2 --fetch rows|8,32
--dmap fsr --texel 32 --foveation gaze --content --views 2 --max-rate 4 --subgroup 0 --batch 2 --fetch strips --fence|8,32
--dmap fsr --texel 16 --foveation off --content --views 1 --max-rate 4 --subgroup 8 --fetch columns|8,32
--dmap fdm --texel 32 --foveation gaze --content --views 2 --max-rate 16 --subgroup 8 --inputs f16|8,32
--dmap fsr --texel 8 --foveation gaze --views 3 --max-rate 4|32,8"
name() { echo "$1" | sed 's/--//g; s/ /_/g'; }

targets=""
while IFS='|' read -r flags widths; do targets="$targets $B/msl/$(name "$flags")/dmap_msl"; done <<EOF2
$configs
EOF2
# shellcheck disable=SC2086
if ! make -s -j2 -f "$d/dmap.mk" B="$B" SPDGEN_BUILD="$SPDGEN_BUILD" $targets >"$WORK/build.log" 2>&1; then
    ok 1 "build with tests/dmap/dmap.mk"
    diag "$(tail -n 30 "$WORK/build.log")"
    done_testing
    exit 1
fi
while IFS='|' read -r flags widths; do
    # shellcheck disable=SC2086
    msl_run "$flags" "$B/msl/$(name "$flags")/dmap_msl" $flags --widths "$widths" 1x1 7x5 65x33 250x131 320x200
done <<EOF2
$configs
EOF2
done_testing
