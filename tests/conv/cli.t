#!/bin/sh
# spdgen --conv on the command line: every bad input refused with one line naming the flag
# and the value (exit 2, nothing written); every target generated and deterministic, each
# shader's lines within 100 columns; the plan's regenerate command makes the same files; the
# contract header compiles; MSL compiles against the Metal shim (tests/msl/check-msl.sh);
# a small --selftest runs on the local device.
d=$(cd "$(dirname "$0")" && pwd)
SPDGEN_BUILD=${SPDGEN_BUILD:-$(cd "$d/../.." && pwd)/build}
. "$d/../lib.sh"

# refuse ERROR-PATTERN FLAGS...: exit 2, one line on stderr matching the pattern, nothing in
# the output folder.
refuse() {
    pattern=$1
    shift
    rm -rf "$WORK/out" && mkdir "$WORK/out"
    "$SPDGEN" --conv "$@" -o "$WORK/out/job.spv" --emit-header "$WORK/out/job.h" 2>"$WORK/err" >/dev/null
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$WORK/err" && [ -z "$(ls "$WORK/out")" ]
    ok $? "refused ($rc, $lines line): --conv $*"
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] || diag "$(cat "$WORK/err")"
}

refuse "^spdgen: error: --image 0x5: must be WxH" --image 0x5 --psf 3x3
refuse "^spdgen: error: --image 7x0: must be WxH" --image 7x0 --psf 3x3
refuse "^spdgen: error: --psf 0x3: must be WxH" --image 5x5 --psf 0x3
refuse "^spdgen: error: --psf 100x100: larger than the padded image 64x64" --image 64x64 --psf 100x100 --padded 64x64
refuse "^spdgen: error: --padded 64x64: the image + the PSF - 1 is 66 along x" --image 64x64 --psf 3x3 --padded 64x64
refuse "^spdgen: error: --padded 110x64: each side must be at least 8, even, with no prime factor above 7" \
    --image 40x40 --psf 3x3 --padded 110x64
refuse "^spdgen: error: --padded 64x45: each side must be at least 8, even" --image 40x40 --psf 3x3 --padded 64x45
refuse "^spdgen: error: --pad-to smooth: not with --padded" --image 40x40 --psf 3x3 --padded 48x64 --pad-to smooth
refuse "^spdgen: error: --pad-to pow3: must be pow2 | smooth" --image 40x40 --psf 3x3 --pad-to pow3
refuse "^spdgen: error: --channels 5: must be 1..4" --image 64x64 --psf 3x3 --channels 5
refuse "^spdgen: error: --channels 0: must be 1..4" --image 64x64 --psf 3x3 --channels 0
refuse "^spdgen: error: --image 16384x16 with --psf 2x2: the padded width 32768 is past one dispatch" \
    --image 16384x16 --psf 2x2 --pad-to pow2
refuse "^spdgen: error: --image 16384x16 with --psf 2x2: the padded width 16385 is past one dispatch" \
    --image 16384x16 --psf 2x2
refuse "^spdgen: error: --image 16x1000 with --psf 3x3: the padded height 1024 is past one dispatch (at most 512" \
    --image 16x1000 --psf 3x3 --max-wg 32 --pad-to pow2
refuse "^spdgen: error: --conv needs --psf" --image 64x64
refuse "^spdgen: error: --conv needs --image" --psf 3x3
refuse "^spdgen: error: --format rgba32f: only with --output image" --image 8x8 --psf 3x3 --output buffer --format rgba32f
refuse "^spdgen: error: --padding bogus: must be zero | mirror" --image 8x8 --psf 3x3 --padding bogus
refuse "^spdgen: error: --spectrum bogus" --image 8x8 --psf 3x3 --spectrum bogus
refuse "^spdgen: error: --storage f64: must be f32 | f16" --image 8x8 --psf 3x3 --storage f64
refuse "^spdgen: error: --ept 128: must be" --image 64x64 --psf 3x3 --ept 128
refuse "^spdgen: error: --ept 32: the line passes hold 4 channels, so at most --ept 16" --image 500x500 --psf 3x3 \
    --channels 4 --ept 32 --spectrum exact --pad-to pow2
refuse "^spdgen: error: --ept 32: the line passes' FFTs of 500 points take an E that divides 500, with E x 4 channels at most 32" \
    --image 500x500 --psf 1x1 --channels 4 --ept 32 --spectrum exact
refuse "^spdgen: error: --padded 64x90: the height 90 has no FFT shape for the column passes (every radix dividing one E <= 24)" \
    --image 50x70 --psf 15x21 --padded 64x90 --first-axis x
refuse "^spdgen: error: --ept 8: this job's FFTs of 8 points take at most --ept 4" --image 8x8 --psf 1x1 --ept 8
refuse "^spdgen: error: --pass2-ept 12: pass 2's FFTs of 128 points take a power of two" --image 64x48 --psf 17x17 \
    --pad-to pow2 --first-axis y --pass2-ept 12
refuse "^spdgen: error: --pass2-ept 1: must be 2..64" --image 64x48 --psf 17x17 --pass2-ept 1
refuse "^spdgen: error: --pass2-ept 8: the column passes' FFTs of 96 points take an E that divides 96 and every radix" \
    --image 150x70 --psf 31x25 --pass2-ept 8
refuse "^spdgen: error: --pass2-ept 64: this job's FFTs of 64 points take at most --pass2-ept 32" --image 64x48 \
    --psf 17x17 --pad-to pow2 --first-axis x --pass2-ept 64
refuse "^spdgen: error: --columns-per-wg 64: 64 columns" --image 64x64 --psf 3x3 --columns-per-wg 64 --pad-to pow2
refuse "^spdgen: error: --columns-per-wg 64: no shape of the 1250-point FFTs" --image 1250x1250 --psf 1x1 --columns-per-wg 64
refuse "^spdgen: error: --size: only meaningful with --selftest" --image 64x64 --psf 3x3 --size 8x8
refuse "^spdgen: error: --size 65x8: larger than --image 64x64" --image 64x64 --psf 3x3 --selftest --size 65x8

# Every target of the first configuration, two of the others (each spdgen run of HLSL or SPIR-V
# compiles its shaders): six shaders (five with --spectrum exact, which has no resample) and
# the plan, lines within 100 columns; the first of each target made twice, the same bytes.
n=0 bad=0 long=0
for job in "glsl hlsl msl spirv:--image 320x180 --psf 63x63" \
    "glsl msl:--image 64x48 --psf 16x9 --channels 1 --padding mirror --spectrum exact" \
    "hlsl msl:--image 100x60 --psf 31x20 --channels 4 --storage f16 --subgroup 8 --input buffer --output buffer --ept 4 --pad-to pow2" \
    "glsl hlsl msl:--image 150x70 --psf 31x25 --pad-to smooth --padding mirror --pass2-ept 24" \
    "msl:--image 100x60 --psf 21x21 --channels 4 --pad-to smooth --spectrum exact --storage f16 --input buffer --output buffer"; do
    flags=${job#*:}
    for t in ${job%%:*}; do
        n=$((n + 1))
        case $t in glsl) ext=comp ;; hlsl) ext=hlsl ;; msl) ext=metal ;; spirv) ext=spv ;; esac
        mkdir -p "$WORK/a.$n" "$WORK/b.$n"
        # shellcheck disable=SC2086
        "$SPDGEN" --conv $flags --target $t -o "$WORK/a.$n/job.$ext" || { bad=$((bad + 1)); diag "$flags --target $t"; }
        if [ $n -le 4 ]; then
            # shellcheck disable=SC2086
            "$SPDGEN" --conv $flags --target $t -o "$WORK/b.$n/job.$ext" &&
                diff -r "$WORK/a.$n" "$WORK/b.$n" >/dev/null || { bad=$((bad + 1)); diag "$flags --target $t: not the same twice"; }
        fi
        case $flags in *exact*) files=6 ;; *) files=7 ;; esac
        [ "$(ls "$WORK/a.$n" | wc -l)" -eq $files ] &&
            { [ $files -eq 6 ] || [ -f "$WORK/a.$n/job.resample.$ext" ]; } ||
            { bad=$((bad + 1)); diag "$flags --target $t: not $((files - 1)) shaders and a plan"; }
        if [ $t != spirv ]; then
            l=$(long_lines "$WORK/a.$n"/* | wc -l)
            [ "$l" -eq 0 ] || { long=$((long + l)); diag "$flags --target $t: $l long lines" "$(long_lines "$WORK/a.$n"/* | head -3)"; }
        fi
    done
done
ok $bad "$n jobs of 5 configurations, every target: six shaders (five exact) and a plan each; one per target made twice, byte for byte the same"
ok $long "every emitted line (shaders and plans) is within 100 columns"

# The plan's regenerate command, run again, writes the same files (--pad-to smooth: the
# command names the --padded sizes it chose).
for a in 5 9; do
    cmd=$(regenerate_command "$WORK/a.$a/job.convplan")
    mkdir -p "$WORK/re.$a" && (cd "$WORK/re.$a" && eval "\"\$SPDGEN\" ${cmd#spdgen }" -o job.comp) &&
        diff -r "$WORK/a.$a" "$WORK/re.$a" >/dev/null
    ok $? "the plan's regenerate command ($(echo "$cmd" | cut -c1-60)...) makes the same files"
done

# The contract header compiles and names the job's sizes.
"$SPDGEN" --conv --image 160x90 --psf 25x25 --channels 3 --name bloom --target spirv -o "$WORK/h.spv" \
    --emit-header "$WORK/bloom.h" &&
    printf '#include "bloom.h"\n#include <stdio.h>\nint main(void) { printf("%%d %%d %%d %%d\\n", BLOOM_IMAGE_WIDTH, BLOOM_PSF_HEIGHT, BLOOM_PADDED_WIDTH, BLOOM_PADDED_HEIGHT); return 0; }\n' >"$WORK/h.c" &&
    cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/h" "$WORK/h.c" && [ "$("$WORK/h")" = "160 25 192 128" ]
ok $? "--emit-header compiles and names the image, the PSF and the padded sizes (160 + 25 - 1 -> 192, 90 + 25 - 1 -> 128)"
# --pad-to smooth (the default): the smallest even sides with no prime factor above 7 (100 + 21
# - 1 = 120 = 2^3 3 5; 60 + 21 - 1 = 80 = 2^4 5; 150 + 31 - 1 = 180 = 2^2 3^2 5; 70 + 25 - 1 =
# 94 = 2 x 47, so 96 = 2^5 3), those along the second axis (the column passes) with radices
# that all divide one E <= 24. In the header's job above, 160 + 25 - 1 = 184 takes 192 = 2^6
# 3 (184 = 2^3 23, 186 = 2 3 31, 188 = 2^2 47, 190 = 2 5 19) and 90 + 25 - 1 = 114 takes 128:
# 120 = 2^3 3 5 and 126 = 2 3^2 7 would need E = 30 or 42 along the second axis.
# Past the smallest: a first-axis side with a factor 7 gives way to one without at most 1/32
# larger (1920 + 512 - 1 = 2431: 2450 = 2 5^2 7^2, so 2500 = 2^2 5^4; 1080 + 511 = 1591:
# 1600), and a second-axis side to the power of two at most 1/32 larger (720 + 255 = 975:
# 1000 = 2^3 5^3, so 1024; 1280 + 255 = 1535: 1536 = 2^9 3).
for job in "100x60 21x21:120 80" "150x70 31x25:180 96" "1920x1080 512x512:2500 1600" "1280x720 256x256:1536 1024"; do
    sizes=${job%%:*}
    "$SPDGEN" --conv --image "${sizes% *}" --psf "${sizes#* }" --pad-to smooth --name bloom --target spirv \
        -o "$WORK/h.spv" --emit-header "$WORK/bloom.h" && cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/h" "$WORK/h.c" &&
        [ "$("$WORK/h" | cut -d' ' -f3-)" = "${job#*:}" ]
    ok $? "--pad-to smooth pads --image ${sizes% *} with --psf ${sizes#* } to ${job#*:}"
done
# The line passes' stages are planned with each exchange's bank conflicts counted: a first
# stage of radix 16 writes its outputs 16 slots apart, so 16 invocations write one bank. 1024 +
# 256 - 1 = 1279 pads to 1280 = 2^8 5, whose plan without that count begins with radix 16.
mkdir -p "$WORK/lines"
"$SPDGEN" --conv --image 1024x1024 --psf 256x256 -o "$WORK/lines/j" &&
    r=$(tr -d '\n/' <"$WORK/lines/j.pass1" | tr -s ' ' |
        sed -n 's/.*Channel 0, forward FFT of 1280 points. Stage 1 of [0-9]*: [0-9]* butterflies of radix \([0-9]*\).*/\1/p') &&
    [ -n "$r" ] && [ $((r % 16)) -ne 0 ]
ok $? "--conv --image 1024x1024 --psf 256x256: pass 1's first stage (radix ${r:-none}) is not a multiple of 16"
# Pass 2 over 1024 points (800 + 225 - 1) defaults to E 8 in 2 columns: 128 x 2 = 256
# invocations, ceil((72 / 2 + 1) / 2) = 19 workgroups a channel; the resample spans 16 / 2 = 8
# of them, so 24. With --columns-per-wg the columns' default E 16 holds (--ept or --pass2-ept
# give E themselves).
shape() { sed -n "s/^shader $1 file [^ ]* wg \([0-9]*\) .* columns \([0-9]*\) groups \([0-9]*\)$/\1 \2 \3/p" "$2"; }
"$SPDGEN" --conv --image 64x800 --psf 9x225 -o "$WORK/narrow.spv" &&
    [ "$(shape pass2 "$WORK/narrow.convplan")" = "256 2 19" ] && [ "$(shape resample "$WORK/narrow.convplan")" = "256 2 24" ]
ok $? "a pass 2 of 1024 points runs E 8 in 2 columns, and the resample spans 8 of its workgroups"
"$SPDGEN" --conv --image 64x800 --psf 9x225 --columns-per-wg 4 -o "$WORK/wide.spv" &&
    [ "$(shape pass2 "$WORK/wide.convplan")" = "256 4 10" ]
ok $? "--columns-per-wg 4 keeps E 16 for pass 2 of 1024 points (64 x 4 invocations)"
for b in SPECTRUM1_PSF SPECTRUM1_ZK SPECTRUM2_ZK SPECTRUM2_SPECTRUM RESAMPLE_SPECTRUM RESAMPLE_R PASS1_SRC PASS1_Z PASS2_Z PASS2_Y PASS2_SPECTRUM \
    PASS3_Y PASS3_SRC PASS3_DST; do grep -q "^#define BLOOM_BINDING_$b [0-9]" "$WORK/bloom.h" || echo "$b"; done >"$WORK/missing"
[ ! -s "$WORK/missing" ] && [ -z "$(long_lines "$WORK/bloom.h")" ]
ok $? "the header names every shader's bindings, within 100 columns"
[ -s "$WORK/missing" ] && diag "missing: $(cat "$WORK/missing")" "$(long_lines "$WORK/bloom.h")"

# MSL: syntax and types against the shim (no open Metal compiler exists).
if command -v "${CLANGXX:-clang++}" >/dev/null 2>&1; then
    # The passes that hold the most constructs (each file is a clang++ run): the image passes
    # with mirror padding; the buffer passes with halves and shuffles.
    "$d/../msl/check-msl.sh" "$WORK"/a.6/job.pass1.metal "$WORK"/a.6/job.pass3.metal "$WORK"/a.8/job.pass1.metal \
        "$WORK"/a.8/job.pass2.metal "$WORK"/a.8/job.resample.metal "$WORK"/a.3/job.pass3.metal \
        "$WORK"/a.11/job.pass1.metal "$WORK"/a.11/job.pass3.metal "$WORK"/a.12/job.pass2.metal \
        "$WORK"/a.12/job.spectrum2.metal 2>"$WORK/err"
    ok $? "MSL compiles against the Metal shim: the image passes of --padding mirror, pass 1, 2 and the resample of --storage f16 --subgroup 8, pass 3 of 3 channels, the mixed-radix passes of --pad-to smooth"
    [ -s "$WORK/err" ] && diag "$(head -20 "$WORK/err")"
else
    echo "ok $((TAP_N + 1)) # SKIP clang++ not installed"
    TAP_N=$((TAP_N + 1))
fi

# --selftest: a small job on the local device against the references.
"$SPDGEN" --conv --image 24x20 --psf 7x5 --channels 2 --padding mirror --spectrum exact --selftest >"$WORK/st" 2>&1
rc=$?
if grep -q "no Vulkan device" "$WORK/st"; then
    echo "ok $((TAP_N + 1)) # SKIP no Vulkan device"
    TAP_N=$((TAP_N + 1))
else
    [ $rc -eq 0 ] && grep -q "^selftest passed" "$WORK/st"
    ok $? "--selftest of a small job passes"
    [ $rc -eq 0 ] || diag "$(tail -5 "$WORK/st")"
fi
# A job whose buffers pass the device's largest allocation (3.2 GB here; 2 GiB on lavapipe)
# fails with one line, exit 1; it crashed lavapipe (exit 139) before the runtime checked.
"$SPDGEN" --conv --image 64x64 --psf 8x8 --padded 16384x16384 --size 2x2 --selftest >"$WORK/big" 2>&1
rc=$?
if [ $rc -eq 0 ] || grep -q "no Vulkan device" "$WORK/big"; then
    echo "ok $((TAP_N + 1)) # SKIP the device allocates 3.2 GB at once (or there is none)"
    TAP_N=$((TAP_N + 1))
else
    [ $rc -eq 1 ] && [ "$(wc -l <"$WORK/big")" -eq 1 ] && grep -q "exceeds .*largest allocation" "$WORK/big"
    ok $? "--selftest of a job past the device's largest allocation: exit 1, one line"
    diag "$(cat "$WORK/big")"
fi
done_testing
