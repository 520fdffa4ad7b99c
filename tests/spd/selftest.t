#!/bin/sh
# spdgen --selftest on the local Vulkan device: passes for correct shaders, fails (exit 1)
# for a broken one and without a device, and checks its own flags (exit 2).
. "$(dirname "$0")/../lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

expect_usage_error() {
    desc=$1; flag=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q -- "^spdgen: error: .*$flag" "$WORK/err"
    ok $? "$desc: exit 2, one line naming $flag"
}
expect_usage_error "--size without --selftest" "--size" --spd --size 64x64
expect_usage_error "--seed without --selftest" "--seed" --spd --seed 3
expect_usage_error "--size malformed" "--size 64" --spd --selftest --size 64
expect_usage_error "--size zero" "--size 0x64" --spd --selftest --size 0x64
expect_usage_error "--size layers without --array" "layers need --array" --spd --selftest --size 8x8x2
expect_usage_error "--size beyond 2048 layers" "--size 8x8x2049" --spd --array --selftest --size 8x8x2049
expect_usage_error "--size beyond --max-size" "--size 5000x10" --spd --selftest --size 5000x10
expect_usage_error "--seed not a number" "--seed x" --spd --selftest --seed x
expect_usage_error "--sampler linear --array --size not a power of two" "--size 1920x1080" --spd --array --sampler linear --selftest --size 1920x1080x2

for target in glsl hlsl msl spirv; do
    "$SPDGEN" --spd --op max --format r32f --subgroup 8 --target $target --selftest --size 300x170 \
        -o "$WORK/never.$target" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 0 ] && grep -q "^selftest passed: 8 levels, every value bit-exact" "$WORK/out" &&
        [ "$(grep -c '^level ' "$WORK/out")" -eq 8 ] && [ ! -e "$WORK/never.$target" ]
    ok $? "--target $target --selftest: 8 levels bit-exact, one line each, nothing written"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/out" "$WORK/err")"
done
for cfg in "--op max --format rgba16f --subgroup 8 --target glsl" "--op min --format r16f --subgroup 4 --target hlsl" \
    "--op minmax --format rg16f --subgroup 0 --target msl"; do
    # shellcheck disable=SC2086 # $cfg is a list of flags
    "$SPDGEN" --spd --half $cfg --selftest --size 300x170 >"$WORK/out" 2>"$WORK/err"
    [ $? -eq 0 ] && grep -q "^selftest passed: 8 levels, every value bit-exact" "$WORK/out"
    ok $? "--half $cfg --selftest: 8 levels bit-exact (min/max of halves are exact)"
done
"$SPDGEN" --spd --half --format rgba16f --op mean --subgroup 8 --selftest --size 300x170 >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q "^selftest passed: 8 levels, every value within .* (the --half bound of the last level)" "$WORK/out"
ok $? "--half mean --selftest: 8 levels within the per-level --half bound"
# rgba8 with --sampler linear: the filter's own rounding (spd_ref_filter_bound) makes the
# bound 2 units of 1/255 where texel loads keep 1.
"$SPDGEN" --spd --format rgba8 --sampler linear --subgroup 8 --selftest --size 1024x256 >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q "^selftest passed: 10 levels, every value within 0.00784 of the CPU reference" "$WORK/out"
ok $? "--sampler linear rgba8 --selftest: 10 levels within 2 units (2/255)"
# A 2D --sampler linear shader samples at texel coordinates: any size, by default 1920x1080.
"$SPDGEN" --spd --format rgba32f --sampler linear --subgroup 8 --selftest >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q "^selftest passed: 10 levels" "$WORK/out" && grep -q "1920x1080" "$WORK/out"
ok $? "--sampler linear --selftest: 1920x1080 by default, 10 levels within the bound"
"$SPDGEN" --spd --target msl --selftest --size 64x64 | grep -q "running its GLSL twin"
ok $? "--target msl --selftest says it runs the GLSL twin"
"$SPDGEN" --spd --array --op mean --subgroup 4 --selftest --size 130x67x4 --seed 9 >"$WORK/out"
[ $? -eq 0 ] && grep -q "130x67 x 4 layer(s), seed 9" "$WORK/out"
ok $? "--array --selftest with --size WxHxLAYERS and --seed"
"$SPDGEN" --spd --array --op max --format r32f --subgroup 8 --selftest --size 130x3x2048 >"$WORK/out"
[ $? -eq 0 ] && grep -q "130x3 x 2048 layer(s)" "$WORK/out" && grep -q "^selftest passed: 7 levels" "$WORK/out"
ok $? "--array --selftest with 2048 layers (the most --size allows): 7 levels bit-exact"

# --tail hierarchy at --tile 64: the selftest hands the runtime the flag, which sizes the
# hierarchy's buffers (16384x4: 3 stages, more hand-off results than the loop's level 6).
for cfg in "--op max --format r32f --subgroup 8 --max-size 16384x16384 --size 16384x4" \
           "--op mean --subgroup 4 --array --target hlsl --size 1000x700x3" \
           "--op min --format r32f --target msl --max-size 8192x8192 --size 5000x300"; do
    # shellcheck disable=SC2086 # several flags
    "$SPDGEN" --spd --tail hierarchy $cfg --selftest >"$WORK/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && grep -q "^spdgen selftest: .* --tail hierarchy " "$WORK/out" &&
        grep -q "^selftest passed" "$WORK/out"
    ok $? "--tail hierarchy --selftest $cfg passes"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/out")"
done

# --edge: the selftest compares with the reference of the same edge mode.
for cfg in "--op max --format r32f --edge conservative --subgroup 8" "--op minmax --format rg32f --edge conservative --target hlsl" \
           "--op mean --edge weighted --subgroup 4" "--op mean --format rgba16f --edge weighted --target msl"; do
    # shellcheck disable=SC2086 # several flags
    "$SPDGEN" --spd $cfg --selftest --size 301x203 >"$WORK/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && grep -q "^selftest passed: 8 levels" "$WORK/out"
    ok $? "--selftest $cfg passes on 301x203"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/out")"
done
"$SPDGEN" --spd --op max --format r32f --max-mips-per-pass 3 --selftest --size 300x200 >"$WORK/out" 2>&1
ok $? "--selftest with --max-mips-per-pass runs the chain in its dispatches"

# A conservative shader whose strips are left out (drop's result) must fail its selftest.
mkdir -p "$WORK/noedge/templates/spd"
sed 's/if conservative then edge.emit_fix(c, ctx, level - base, name, value) end/-- (mutant: no fix)/' \
    "$(dirname "$0")/../../templates/spd/kernel.lua" >"$WORK/noedge/templates/spd/kernel.lua"
"$SPDGEN" --spd --op max --edge conservative --template-dir "$WORK/noedge" --selftest --size 301x203 >"$WORK/out" 2>&1
[ $? -eq 1 ] && grep -q "selftest FAILED" "$WORK/out"
ok $? "a conservative shader without its level-2..6 fixes fails its selftest"

# A shader that reduces the 2x2 block in the wrong order must fail its selftest.
mkdir -p "$WORK/broken/templates/spd"
sed 's/v = spd_reduce_level(q00, q10, q01, q11, size_in);/v = spd_reduce_level(q00, q01, q10, q11, size_in);/' \
    "$(dirname "$0")/../../templates/spd/kernel.lua" >"$WORK/broken/templates/spd/kernel.lua"
"$SPDGEN" --spd --op test-order --template-dir "$WORK/broken" --selftest --size 64x64 >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "selftest FAILED" "$WORK/out" && grep -q "first: level 2" "$WORK/out"
ok $? "a shader with a wrong 2x2 order fails its selftest (exit 1, first mismatch at level 2)"

SPDGEN_DEVICE=no-such-device-xyz "$SPDGEN" --spd --selftest --size 8x8 >/dev/null 2>"$WORK/err"
[ $? -eq 1 ] && grep -q "no-such-device-xyz" "$WORK/err"
ok $? "--selftest without a matching device: exit 1 naming SPDGEN_DEVICE's value"
done_testing
