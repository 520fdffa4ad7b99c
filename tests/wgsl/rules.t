#!/bin/sh
# WebGPU's rules in spdgen --target wgsl (no WebGPU needed): what a WGSL shader cannot honour
# is refused with one line naming the rule and exit 2 (formats without their feature,
# subgroups and f16 without theirs, workgroups and workgroup storage over the limits given,
# passes past the storage-texture limit or past one tile without --unfenced-handoff); the
# defaults shape the shader to the limits given; SPD's default for WGSL hands nothing off
# between workgroups, and the single pass is an opt-in whose header states the risk; mixed
# radix spells its in-out routines with pointers.
. "$(dirname "$0")/../lib.sh"

# refused "SPDGEN ARGS" PHRASE: exit 2, exactly one line on stderr, holding PHRASE.
refused() {
    # shellcheck disable=SC2086
    "$SPDGEN" $1 -o "$WORK/x" 2>"$WORK/err"
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$2" "$WORK/err"
    ok $? "spdgen $1: exit $rc, $lines line naming '$2'"
    diag "$(cat "$WORK/err")"
}

W="--target wgsl"
refused "--spd --format r16f $W" "r16float as a storage texture only with the feature 'texture-formats-tier1'"
refused "--spd --format rg16f --op minmax --mips 4 $W" "rg16float as a storage texture only with the feature 'texture-formats-tier1'"
refused "--dmap fdm $W" "rg8unorm as a storage texture only with the feature 'texture-formats-tier1'"
refused "--spd --subgroup 32 $W" "WGSL needs the WebGPU feature 'subgroups'"
refused "--spd --subgroup 4 $W" "WGSL needs the WebGPU feature 'subgroups'"
refused "--fft 1024 --subgroup 32 $W" "WGSL needs the WebGPU feature 'subgroups'"
refused "--spd --format rgba16f --half $W" "WGSL needs the WebGPU feature 'shader-f16'"
refused "--spd --sampler linear $W" "WGSL needs the WebGPU feature 'float32-filterable'"
refused "--spd --tile 64 --wg 256 --wg-invocations 128 $W" "exceeds the WebGPU limit maxComputeInvocationsPerWorkgroup of 128"
refused "--fft 1024 --max-wg 512 $W" "more than the WebGPU limit maxComputeInvocationsPerWorkgroup of 256"
refused "--spd --wg-storage 1024 $W" "more than the WebGPU limit maxComputeWorkgroupStorageSize of 1024"
refused "--spd --max-mips-per-pass 5 $W" "more than the WebGPU limit maxStorageTexturesPerShaderStage of 4"
refused "--spd --max-mips-per-pass 8 --storage-textures 8 $W" "WGSL has no device-scope fence"
refused "--spd --unfenced-handoff $W" "it needs --max-mips-per-pass above 6"
refused "--spd --unfenced-handoff --target glsl" "only for --target wgsl"
refused "--spd --op minmax --format rg32f $W" "a later pass would read the stored (min, max) pairs"

# The features named make them legal, and the shader enables them.
"$SPDGEN" --spd --subgroup 4 --features subgroups $W -o "$WORK/sg.wgsl" &&
    grep -q '^enable subgroups;' "$WORK/sg.wgsl"
ok $? "--subgroup 4 --features subgroups: the shader opens with 'enable subgroups;'"
"$SPDGEN" --spd --subgroup 0 $W -o "$WORK/s0.wgsl" && ! grep -q '^enable' "$WORK/s0.wgsl"
ok $? "--subgroup 0: no enable directive"

# WGSL has no in-out parameters: the radix routines take pointers to the caller's vars.
"$SPDGEN" --fft 15 $W -o "$WORK/m15.wgsl" &&
    grep -q '^fn fft_dft3(x0_io: ptr<function, vec2<f32>>' "$WORK/m15.wgsl" &&
    grep -q 'fft_dft5(&v0, &v3, &v6, &v9, &v12);' "$WORK/m15.wgsl"
ok $? "--fft 15: the 3- and 5-point routines take ptr<function, vec2<f32>> arguments"

# The defaults shape the shader to the limits given: mixed radix and Bluestein too, whose
# exchanges take more rounds within less workgroup storage (32 KB elsewhere).
for args in "--fft 2000" "--fft 999" "--fft 1000 --stride" "--fft 2000 --real" \
    "--fft 97 --wg-storage 1024" "--fft 1000 --wg-storage 2048"; do
    limit=$(echo "$args" | sed -n 's/.*--wg-storage \([0-9]*\).*/\1/p')
    limit=${limit:-16384}
    # shellcheck disable=SC2086
    "$SPDGEN" $args $W -o "$WORK/m.wgsl" 2>"$WORK/err"
    rc=$?
    bytes=$(sed -n 's|^//   shared memory \([0-9]*\) bytes.*|\1|p' "$WORK/m.wgsl" 2>/dev/null)
    [ $rc -eq 0 ] && [ -n "$bytes" ] && [ "$bytes" -le "$limit" ]
    ok $? "$args: exit $rc, a plan within $limit bytes of workgroup storage (${bytes:-none})"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/err")"
    rm -f "$WORK/m.wgsl"
done

"$SPDGEN" --spd --wg-invocations 64 $W -o "$WORK/w64.wgsl" &&
    grep -q '^@compute @workgroup_size(64, 1, 1)' "$WORK/w64.wgsl"
ok $? "--spd --wg-invocations 64: a workgroup of 64 invocations"
"$SPDGEN" --fft 4096 --wg-storage 8192 $W -o "$WORK/f8.wgsl" &&
    grep -q '^//   shared memory 8192 bytes' "$WORK/f8.wgsl"
ok $? "--fft 4096 --wg-storage 8192: a plan within 8192 bytes of workgroup storage"

# SPD's default for WGSL: dispatches of at most log2(tile) levels, no counters, no hand-off.
"$SPDGEN" --spd $W -o "$WORK/d.wgsl"
cmd=$(regenerate_command "$WORK/d.wgsl")
k=$(echo "$cmd" | sed -n 's/.*--max-mips-per-pass \([0-9]*\).*/\1/p')
[ "$k" -le 6 ] && ! grep -q 'var<storage' "$WORK/d.wgsl" && ! grep -q 'atomic' "$WORK/d.wgsl"
ok $? "--spd --target wgsl: passes of $k levels, no storage buffers, no atomics (no hand-off)"
"$SPDGEN" --spd --unfenced-handoff --max-mips-per-pass 12 --storage-textures 12 $W -o "$WORK/u.wgsl" &&
    grep -q '^// Unfenced hand-off (--unfenced-handoff): WGSL has no device-scope fence' "$WORK/u.wgsl" &&
    grep -q 'atomicAdd' "$WORK/u.wgsl"
ok $? "--unfenced-handoff --max-mips-per-pass 12: one pass with the hand-off, its header states the risk"

# --conv: the default shapes of every shader of the job (six with the resampled spectrum)
# fit the limits given, and a workgroup past them (--max-wg, --columns-per-wg) is refused
# naming the rule.
for args in "--conv --image 1280x720 --psf 256x256" \
    "--conv --image 320x180 --psf 31x31 --wg-storage 8192 --wg-invocations 128"; do
    slim=$(echo "$args" | sed -n 's/.*--wg-storage \([0-9]*\).*/\1/p'); slim=${slim:-16384}
    ilim=$(echo "$args" | sed -n 's/.*--wg-invocations \([0-9]*\).*/\1/p'); ilim=${ilim:-256}
    rm -f "$WORK"/cv.*
    # shellcheck disable=SC2086
    "$SPDGEN" $args $W -o "$WORK/cv.wgsl" 2>"$WORK/err"
    rc=$?
    worst=$(cat "$WORK"/cv.*.wgsl 2>/dev/null | sed -n 's|.*shared memory \([0-9]*\)\( bytes\)*.*|\1|p' |
        sort -n | tail -1)
    wide=$(cat "$WORK"/cv.*.wgsl 2>/dev/null | sed -n 's|^@compute @workgroup_size(\([0-9]*\),.*|\1|p' |
        sort -n | tail -1)
    [ $rc -eq 0 ] && [ "$(ls "$WORK"/cv.*.wgsl | wc -l)" -eq 6 ] && [ -n "$worst" ] &&
        [ "$worst" -le "$slim" ] && [ "$wide" -le "$ilim" ]
    ok $? "$args: exit $rc, 6 shaders within $slim bytes (${worst:-none}) and $ilim invocations (${wide:-none})"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/err")"
done
refused "--conv --image 1280x720 --psf 256x256 --max-wg 1024 --columns-per-wg 8 $W" "exceeds the WebGPU limit maxComputeInvocationsPerWorkgroup of 256"

done_testing
