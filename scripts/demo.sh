#!/bin/sh
# make demo: spdgen emits one SPD configuration for every target, validates it in-process,
# runs it on the local Vulkan device and checks every level against the CPU reference; then
# a density map, checked the same way and drawn as a tiled driver renders it (a PNG); an image
# bloomed by an FFT convolution job (build/demo/bloom.png beside the scene, bloom_scene.png).
set -eu
B=${1:-build}
OUT=$B/demo
SPDGEN=$B/spdgen
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
run() { echo "\$ $*"; "$@"; }

echo "== 1. Emit a Hi-Z (max) depth pyramid for every target, odd rows and columns folded in"
echo "   (--edge conservative: safe for occlusion culling); each is validated before it is written"
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --target glsl -o "$OUT/hiz.comp"
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --target hlsl -o "$OUT/hiz.hlsl"
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --target msl -o "$OUT/hiz.metal"
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --target spirv -o "$OUT/hiz.spv" \
    --emit-header "$OUT/hiz_contract.h" -MD
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --target spirv --spirv-from hlsl \
    -o "$OUT/hiz_hlsl.spv"
echo "   depfile: $(head -1 "$OUT/hiz.spv.d")"
echo "   contract: $(grep -c '#define' "$OUT/hiz_contract.h") definitions in $OUT/hiz_contract.h"
if command -v clang++ >/dev/null 2>&1; then
    run tests/msl/check-msl.sh "$OUT/hiz.metal"
    echo "   (MSL is type-checked against a Metal shim; see docs/msl.md: it is not run here)"
fi

echo
echo "== 2. Run on the local Vulkan device; compare every level with the CPU reference"
run "$B/examples/depth_pyramid" "$OUT/hiz.spv" --op max --format r32f --edge conservative --subgroup 8 --size 1920x1080
run "$B/examples/depth_pyramid" "$OUT/hiz_hlsl.spv" --op max --format r32f --edge conservative --subgroup 8 --size 1920x1080

echo
echo "== 3. A colour mip chain (mean, rgba32f) of an 6-layer array (cube faces), quad operations"
run "$SPDGEN" --spd --op mean --format rgba32f --subgroup 4 --array --target spirv -o "$OUT/cube.spv"
run "$B/examples/depth_pyramid" "$OUT/cube.spv" --op mean --format rgba32f --subgroup 4 \
    --size 512x512 --layers 6
echo
echo "== 4. The check an engine keeps in its CI: --selftest with the same flags"
run "$SPDGEN" --spd --op max --format r32f --edge conservative --subgroup 8 --max-size 8192x8192 --selftest --size 5000x3000
echo
echo "== 5. A foveated density map: generate, run, check against the CPU reference, and draw the"
echo "   bins a tiled driver (Mesa's turnip, modelled) renders with it"
run "$SPDGEN" --dmap fdm --texel 32 --foveation gaze --target spirv -o "$OUT/fdm.spv"
run "$B/examples/dmap_preview" "$OUT/fdm.spv" --texel 32 --size 1920x1080 -o "$OUT/dmap_preview.png"
echo
echo "== 6. Bloom: an HDR scene convolved with a 127x127 PSF (an Airy disk with diffraction spikes)"
echo "   by FFTs: the kernel spectrum, then three passes; checked on a sample against the CPU"
run "$SPDGEN" --conv --image 384x216 --psf 127x127 --padding mirror --target spirv -o "$OUT/bloom.spv"
run "$B/examples/bloom" "$OUT/bloom.convplan" --scene "$OUT/bloom_scene.png" -o "$OUT/bloom.png"
echo
echo "demo: all levels of every run matched the CPU reference"
