#!/bin/sh
# The example programs under hostile input (examples/example.h): a bad option value is one
# line naming the flag and the value, exit 2 (they read "32junk" as 32, wrapped 4294967297 to
# 1, crashed on --texel 0); a write that fails is exit 1 (a full device read as "wrote").
. "$(dirname "$0")/../lib.sh"
EX="$SPDGEN_BUILD/examples"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

# bad PROGRAM PATTERN ARGS...: exit 2, one line on stderr matching the pattern.
bad() {
    prog=$1 pattern=$2
    shift 2
    "$EX/$prog" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q -- "$pattern" "$WORK/err"
    ok $? "$prog $*: exit 2 (got $rc), one line naming the flag and value"
    [ $rc -eq 2 ] || diag "$(cat "$WORK/err")"
}
bad dmap_preview "--texel 0: a power of two" x.spv --texel 0 -o "$WORK/p.png"
bad dmap_preview "--texel 32junk:" x.spv --texel 32junk -o "$WORK/p.png"
bad dmap_preview "--size 256x128junk:" x.spv --size 256x128junk -o "$WORK/p.png"
bad dmap_preview "--tile 4294967264x64:" x.spv --tile 4294967264x64 -o "$WORK/p.png"
bad depth_pyramid "--mips 4294967297:" x.spv --mips 4294967297
bad depth_pyramid "--subgroup abc:" x.spv --subgroup abc
bad depth_pyramid "--layers 2junk:" x.spv --layers 2junk
bad depth_pyramid "--size 1x1:" x.spv --size 1x1
bad depth_pyramid "--bogus" x.spv --bogus 1
bad bloom "--intensity nan:" x.convplan --intensity nan -o "$WORK/o.png"
bad bloom "--intensity 1junk:" x.convplan --intensity 1junk -o "$WORK/o.png"
bad bloom "--bogus: an unknown flag" x.convplan --bogus 1 -o "$WORK/o.png"
bad bloom "-o: needs a value" x.convplan -o
bad dmap_preview "--size: needs a value" x.spv --size

# A SPIR-V file that is not whole words (cut or padded by a byte) is refused, not run short.
"$SPDGEN" --dmap fdm --texel 32 --target spirv -o "$WORK/w.spv" && cp "$WORK/w.spv" "$WORK/odd.spv" &&
    printf 'x' >>"$WORK/odd.spv"
"$EX/dmap_preview" "$WORK/odd.spv" --texel 32 --size 256x128 -o "$WORK/odd.png" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$WORK/odd.png" ] && grep -q "cannot read .*odd.spv" "$WORK/err"
ok $? "dmap_preview of a SPIR-V file one byte past whole words: exit 1 (got $rc), nothing drawn"

# Radiance HDR input: Debian 12's stb fills the rows past a truncated file with zeros, and
# hangs on a run-length scanline the file ends inside. bloom checks the file first. flat: a
# flat file (width < 8); rle: 8-wide run-length scanlines; rle_zero: a span of 0 values
# (skipped, as stb does); wide: 8 wide but flat.
hdr_head() { printf '#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %s +X %s\n' "$2" "$1"; }
flat() { hdr_head 4 4; i=0; while [ $i -lt 16 ]; do printf '\200\200\200\201'; i=$((i + 1)); done; }
rle() { hdr_head 8 2; for r in 1 2; do printf '\002\002\000\010\210\200\210\200\210\200\210\201'; done; }
# 8 wide but flat: a first scanline not starting with 2, 2 makes the whole file flat pixels.
wide() { hdr_head 8 2; i=0; while [ $i -lt 16 ]; do printf '\200\200\200\201'; i=$((i + 1)); done; }
"$SPDGEN" --conv --image 64x48 --psf 15x15 --target spirv -o "$WORK/h.spv"
flat >"$WORK/flat.hdr"
rle >"$WORK/rle.hdr"
wide >"$WORK/wide.hdr"
head -c 100 "$WORK/wide.hdr" >"$WORK/wide_cut.hdr"
head -c 103 "$WORK/flat.hdr" >"$WORK/flat_cut.hdr" # the last pixel's 4 bytes and 2 more cut
head -c 64 "$WORK/rle.hdr" >"$WORK/rle_cut.hdr"   # 5 bytes short of the second scanline
{ hdr_head 8 1; printf '\002\002\000\010\000\210\200\210\200\210\200\210\201'; } >"$WORK/rle_zero.hdr"
for f in flat rle rle_zero wide; do
    rm -f "$WORK/$f.png"
    timeout 60 "$EX/bloom" "$WORK/h.convplan" -i "$WORK/$f.hdr" -o "$WORK/$f.png" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 0 ] && [ -s "$WORK/$f.png" ]
    ok $? "bloom -i $f.hdr, a whole file: exit 0 (got $rc), the picture written"
    [ $rc -eq 0 ] || diag "$(cat "$WORK/err")"
done
for f in flat_cut rle_cut wide_cut; do
    rm -f "$WORK/$f.png"
    timeout 60 "$EX/bloom" "$WORK/h.convplan" -i "$WORK/$f.hdr" -o "$WORK/$f.png" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "$f.hdr: truncated" "$WORK/err" &&
        [ ! -e "$WORK/$f.png" ]
    ok $? "bloom -i $f.hdr: exit 1 (got $rc), one line naming the file and why (truncated), nothing written"
    [ $rc -eq 1 ] || diag "$(cat "$WORK/err")"
done

# A full device (a private one where we may make it): exit 1, not "wrote".
if mknod "$WORK/full" c 1 7 2>/dev/null; then
    "$SPDGEN" --conv --image 64x48 --psf 15x15 --target spirv -o "$WORK/b.spv" &&
        "$EX/bloom" "$WORK/b.convplan" -o "$WORK/full" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q "cannot write .*full" "$WORK/err" && ! grep -q "wrote" "$WORK/out"
    ok $? "bloom -o on a full device: exit 1 (got $rc), no \"wrote\""
    "$SPDGEN" --dmap fdm --texel 32 --target spirv -o "$WORK/f.spv" &&
        "$EX/dmap_preview" "$WORK/f.spv" --texel 32 --size 256x128 -o "$WORK/full" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q "cannot write .*full" "$WORK/err"
    ok $? "dmap_preview -o on a full device: exit 1 (got $rc)"
else
    echo "ok $((TAP_N + 1)) # SKIP making a device node needs root"
    echo "ok $((TAP_N + 2)) # SKIP making a device node needs root"
    TAP_N=$((TAP_N + 2))
fi
done_testing
