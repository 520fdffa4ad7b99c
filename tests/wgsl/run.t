#!/bin/sh
# A sample of --spd, --fft and --dmap configurations made by spdgen --target wgsl and run
# through Dawn (run.mjs, the WebGPU host binding each shader's contract) on a Mesa 25
# lavapipe, and compared with libspdrt's CPU references exactly as the Vulkan tests compare
# them (check.c: SPD every texel of every level and slice within spd_ref_bound_level, no
# sentinel left; FFT within SPDRT_FFT_BOUND_REL_L2 (Bluestein: its own bar) and
# SPDRT_FFT_BOUND_MAX_REL, no value left unwritten; --dmap bit for bit). Four-step plans run
# their passes in turn. A case whose feature the adapter lacks is skipped with the reason.
# The --unfenced-handoff case shows the single pass working on this implementation, which
# WGSL does not guarantee (docs/wgsl.md).
. "$(dirname "$0")/../lib.sh"
. "$SPDGEN_ROOT/tests/wgsl/env.sh"
CHECK="$SPDGEN_BUILD/tests/wgsl/check"

missing=$(wgsl_missing)
[ -n "$missing" ] || missing=$(wgsl_lavapipe_missing)
if [ -n "$missing" ]; then
    echo "1..0 # SKIP $missing"
    exit 0
fi
wgsl_lavapipe_missing >/dev/null

skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }

# log2 of the larger side: the levels a whole chain has.
levels() { awk -v w="$1" -v h="$2" 'BEGIN { m = w > h ? w : h; n = 0; while (m > 1) { m = int(m / 2); n++ } print n }'; }

# spd OP FORMAT W H OPTIONS...: one SPD configuration on one W x H source.
spd() {
    op=$1 format=$2 w=$3 h=$4
    shift 4
    label="spd --op $op --format $format $* on ${w}x$h"
    # shellcheck disable=SC2068
    if ! "$SPDGEN" --spd --op "$op" --format "$format" $@ --target wgsl -o "$WORK/s.wgsl" 2>"$WORK/err"; then
        ok 1 "$label: spdgen failed"
        diag "$(cat "$WORK/err")"
        return
    fi
    mips=$(levels "$w" "$h")
    bound=$(sed -n 's/.*--mips \([0-9]*\).*/\1/p' "$WORK/s.wgsl" | head -1)
    [ "$mips" -le "$bound" ] || mips=$bound
    per_pass=$(sed -n 's/.*--max-mips-per-pass \([0-9]*\).*/\1/p' "$WORK/s.wgsl" | head -1)
    seed=$((w * 7919 + h))
    # --array: 3 slices; --half and --sampler linear: their bounds (spd_ref_bound_level).
    layers=1 flags=
    case " $* " in *" --array "*) layers=3 flags="layers=3" ;; esac
    case " $* " in *" --half "*) flags="$flags half" ;; esac
    case " $* " in *" --sampler linear "*) flags="$flags linear" ;; esac
    rm -f "$WORK/out.bin"
    # shellcheck disable=SC2086
    "$CHECK" spd-source "$op" "$format" "$w" "$h" "$seed" "$WORK/src.bin" $flags &&
        wgsl_node 60 run.mjs spd "$WORK/s.wgsl" "$w" "$h" "$mips" "$WORK/src.bin" "$WORK/out.bin" "$layers"
    rc=$?
    if [ $rc -eq 3 ]; then
        skip "$label: $(cat "$WORK/node.err")"
        return
    elif [ $rc -ne 0 ]; then
        ok 1 "$label: run.mjs failed (exit $rc)"
        diag "$(cat "$WORK/node.err")"
        return
    fi
    # shellcheck disable=SC2086
    result=$("$CHECK" spd "$op" "$format" "$w" "$h" "$seed" "$mips" "$per_pass" "$WORK/out.bin" $flags)
    ok $? "WebGPU $label: $result"
}

# fft N COUNT OPTIONS...: COUNT FFTs of one --fft N configuration (one shader, or a four-step
# plan's passes); check.c is told the layout and direction (and a Bluestein shader's tables).
fft() {
    n=$1 count=$2
    shift 2
    label="fft $n${1:+ $*}, $count FFTs"
    rm -f "$WORK"/f.*
    # shellcheck disable=SC2068
    if ! "$SPDGEN" --fft "$n" $@ --target wgsl -o "$WORK/f.wgsl" 2>"$WORK/err"; then
        ok 1 "$label: spdgen failed"
        diag "$(cat "$WORK/err")"
        return
    fi
    flags=
    case " $* " in *" --real "*) flags="$flags real" ;; esac
    case " $* " in *" --stride "*) flags="$flags stride" ;; esac
    case " $* " in *" --direction inverse "*) flags="$flags inverse" ;; esac
    case " $* " in *" --storage f16 "*) flags="$flags f16" ;; esac
    case " $* " in *" --order native "*) flags="$flags native" ;; esac
    # A Bluestein shader: its tables' length M from the contract ("spectrum: M float2"). A
    # Rader shader: its primitive root from the opening comment ("primitive root g = G").
    m=$(sed -n 's/.* spectrum: \([0-9]*\) float2.*/\1/p' "$WORK/f.wgsl" 2>/dev/null | head -1)
    g=$(sed -n '/^\/\//p' "$WORK/f.wgsl" 2>/dev/null | sed 's|^//||' | tr -s ' \n' ' ' |
        sed -n 's/.*primitive root g = \([0-9]*\).*/\1/p')
    [ -n "$g" ] && m=
    rm -f "$WORK/out.bin" "$WORK/tables.bin"
    # shellcheck disable=SC2086
    "$CHECK" fft-source "$n" "$count" "$((n + count))" "$WORK/src.bin" $flags || { ok 1 "$label: check.c"; return; }
    case " $flags " in *" inverse "*) dir=inverse ;; *) dir=forward ;; esac
    if [ -n "$m" ]; then
        flags="$flags bluestein"
        "$CHECK" fft-tables "$n" "$m" "$dir" "$WORK/tables.bin" || { ok 1 "$label: check.c tables"; return; }
    elif [ -n "$g" ]; then
        flags="$flags rader"
        "$CHECK" fft-rader-table "$n" "$g" "$dir" "$WORK/tables.bin" || { ok 1 "$label: check.c table"; return; }
    fi
    if [ -f "$WORK/f.fftplan" ]; then
        label="$label (four-step plan)"
        wgsl_node 120 run.mjs plan "$WORK/f.fftplan" "$n" "$count" "$WORK/src.bin" "$WORK/out.bin"
    else
        wgsl_node 60 run.mjs fft "$WORK/f.wgsl" "$n" "$count" "$WORK/src.bin" "$WORK/out.bin" \
            ${m:+"$WORK/tables.bin"} ${g:+"$WORK/tables.bin"}
    fi
    rc=$?
    if [ $rc -eq 3 ]; then
        skip "$label: $(cat "$WORK/node.err")"
        return
    elif [ $rc -ne 0 ]; then
        ok 1 "$label: run.mjs failed (exit $rc)"
        diag "$(cat "$WORK/node.err")"
        return
    fi
    # shellcheck disable=SC2086
    result=$("$CHECK" fft "$n" "$count" "$((n + count))" "$WORK/out.bin" $flags)
    ok $? "WebGPU $label: $result"
}

# dmap KIND TEXEL MAX_RATE W H [core]: --dmap fdm|fsr with gaze foveation on a W x H render,
# the map bit for bit against the reference. Its formats (rg8unorm, r8uint) need
# texture-formats-tier1; "core" runs the same shader with the map declared in a core format
# of the same channels (rgba8unorm, r32uint), for adapters without it (lavapipe under Dawn).
dmap() {
    kind=$1 texel=$2 rate=$3 w=$4 h=$5
    label="dmap $kind --texel $texel --max-rate $rate on ${w}x$h"
    if ! "$SPDGEN" --dmap "$kind" --texel "$texel" --foveation gaze --max-rate "$rate" \
        --features texture-formats-tier1 --target wgsl -o "$WORK/d.wgsl" 2>"$WORK/err"; then
        ok 1 "$label: spdgen failed"
        diag "$(cat "$WORK/err")"
        return
    fi
    if [ "$6" = core ]; then
        label="$label, its map declared rgba8unorm / r32uint (core)"
        sed -e 's/texture_storage_2d<rg8unorm,/texture_storage_2d<rgba8unorm,/' \
            -e 's/texture_storage_2d<r8uint,/texture_storage_2d<r32uint,/' \
            -e 's/--features texture-formats-tier1/--features none/' "$WORK/d.wgsl" >"$WORK/d2.wgsl"
        mv "$WORK/d2.wgsl" "$WORK/d.wgsl"
    fi
    rm -f "$WORK/map.bin"
    "$CHECK" dmap-params "$kind" "$texel" gaze "$rate" "$w" "$h" "$WORK/params.bin" &&
        wgsl_node 60 run.mjs dmap "$WORK/d.wgsl" "$w" "$h" "$WORK/params.bin" "$WORK/map.bin"
    rc=$?
    if [ $rc -eq 3 ]; then
        skip "$label: $(cat "$WORK/node.err")"
        return
    elif [ $rc -ne 0 ]; then
        ok 1 "$label: run.mjs failed (exit $rc)"
        diag "$(cat "$WORK/node.err")"
        return
    fi
    result=$("$CHECK" dmap "$kind" "$texel" gaze "$rate" "$w" "$h" "$WORK/map.bin")
    ok $? "WebGPU $label: $result"
}

spd mean rgba32f 300 200 --max-size 512x512
spd max r32f 257 129 --max-size 1024x1024
spd min r32ui 200 150 --max-size 256x256
spd srgb-mean rgba8 128 96 --max-size 128x128
spd mean rgba16f 150 150 --max-size 256x256
spd minmax rg32f 130 70 --max-size 256x256 --tile 16 --mips 4
spd mean rgba32f 96 80 --max-size 128x128 --subgroup 4 --features subgroups
spd mean rgba32f 200 130 --max-size 256x256 --subgroup 8 --features subgroups
spd max r32f 256 180 --max-size 256x256 --unfenced-handoff --max-mips-per-pass 8 --storage-textures 8
spd mean rgba32f 100 70 --max-size 128x128 --array
spd mean rgba16f 128 128 --max-size 128x128 --sampler linear
spd mean r32f 64 64 --max-size 64x64 --sampler linear --features float32-filterable
spd mean rgba16f 120 90 --max-size 128x128 --half --features shader-f16
fft 64 32
fft 1024 8
fft 256 16 --ept 8
fft 1024 8 --subgroup 8 --features subgroups
fft 256 6 --real
fft 256 6 --real --direction inverse
fft 64 24 --stride
fft 256 8 --storage f16
fft 256 4 --real --storage f16
fft 60 6 --storage f16
fft 256 8 --twiddles lut
fft 128 8 --order native
fft 128 8 --order native --direction inverse
fft 6 5
fft 15 4 --direction inverse
fft 1000 3
fft 1000 3 --stride
fft 97 3
fft 97 2 --direction inverse
fft 31 4
fft 391 3 --direction inverse
fft 8192 2
fft 6000 1
dmap fsr 16 4 300 200
dmap fsr 16 4 300 200 core
dmap fdm 32 16 500 300
dmap fdm 32 16 500 300 core
done_testing
