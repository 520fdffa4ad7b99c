#!/bin/sh
# The SPD kernel's command line: its usage errors (exit 2, one line naming the flag), what
# each of its options does to the shader and the contract header, and the headers compiling
# and agreeing with the runtime. Runs the real binary; asserts on exit codes, file contents
# and properties of the messages, never on text pasted from a previous run.
# spdgen's own flags (help, determinism, depfiles, --template-dir, ...): tests/cli/common.t.
. "$(dirname "$0")/../lib.sh"

# expect_usage_error DESCRIPTION FLAG_IN_MESSAGE ARGS...: exit 2, exactly one line on stderr
# naming the flag, nothing on stdout.
expect_usage_error() {
    desc=$1; flag=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "^spdgen: error: .*$flag" "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "$desc: exit 2, one line naming $flag"
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] || diag "exit $rc, stderr:" "$(cat "$WORK/err")"
}

expect_usage_error "--selftest of a 1x1 source (no levels to check)" "--size 1x1" --spd --selftest --size 1x1
expect_usage_error "--mips 0" "--mips 0" --spd --mips 0
expect_usage_error "--mips 13" "--mips 13" --spd --mips 13
expect_usage_error "--mips not a number" "--mips 1x" --spd --mips 1x
expect_usage_error "--mips beyond the chain of --max-size" "--mips 11" --spd --max-size 1024x512 --mips 11
expect_usage_error "--mips 15 even at 16384" "--mips 15" --spd --max-size 16384x16384 --mips 15
expect_usage_error "--max-size malformed" "--max-size 4096" --spd --max-size 4096
expect_usage_error "--max-size zero" "--max-size 0x64" --spd --max-size 0x64
expect_usage_error "--max-size too large" "--max-size 32768x32768" --spd --max-size 32768x32768
expect_usage_error "--op mean on integers" "--op mean" --spd --op mean --format r32ui
expect_usage_error "--op minmax without two channels" "--op minmax" --spd --op minmax --format r32f
expect_usage_error "--op srgb-mean not on rgba8" "--op srgb-mean" --spd --op srgb-mean --format rgba16f
expect_usage_error "--max-mips-per-pass above --mips" "--max-mips-per-pass 13" --spd --max-mips-per-pass 13
expect_usage_error "--max-mips-per-pass 0" "--max-mips-per-pass 0" --spd --max-mips-per-pass 0
expect_usage_error "--max-mips-per-pass with --op minmax" "--max-mips-per-pass 3" --spd --op minmax --format rg32f --max-mips-per-pass 3
expect_usage_error "--sampler linear with --op max" "--sampler linear" --spd --op max --sampler linear
expect_usage_error "--sampler linear with srgb-mean (would average encoded values)" "--sampler linear" --spd --op srgb-mean --format rgba8 --sampler linear
expect_usage_error "--sampler unknown" "--sampler nearest" --spd --sampler nearest
expect_usage_error "--half with a 32-bit format" "--half.*r32f" --spd --half --format r32f
expect_usage_error "--half with the default rgba32f" "--half.*rgba32f" --spd --half
expect_usage_error "--half with rgba8" "--half.*rgba8" --spd --half --format rgba8 --op max
expect_usage_error "--half with srgb-mean (rgba8)" "--half.*rgba8" --spd --half --op srgb-mean --format rgba8
expect_usage_error "--half with r32ui" "--half.*r32ui" --spd --half --format r32ui --op min
expect_usage_error "--half with --fft" "--half" --fft 64 --half
expect_usage_error "--half takes no value" "--half" --spd --half=1 --format r16f
"$SPDGEN" --spd --half --format rgba16f --op mean -o "$WORK/half.comp" &&
    grep -q "^#extension GL_EXT_shader_explicit_arithmetic_types_float16" "$WORK/half.comp" &&
    regenerate_command "$WORK/half.comp" | grep -q -- " --format rgba16f .* --half " &&
    grep -q "f16vec4 level6\[\]" "$WORK/half.comp" && ! grep -q "0\.25f" "$WORK/half.comp"
ok $? "--half: fp16 extension, --half in the regenerate command, halves in the hand-off, no fp32 literal"
"$SPDGEN" --help | grep -q -- "--half"
ok $? "--help lists --half"
# --level1: interleaved (default) reads four 2x2 blocks T/2 apart and forms level 2 through
# lds_level1 (4 x --wg values); blocks reads each invocation's 4x4 block, no exchange; with
# --edge conservative|weighted only blocks (their 5x5 reads are written for it).
expect_usage_error "--level1 unknown" "--level1 diagonal" --spd --level1 diagonal
expect_usage_error "--level1 interleaved with --edge weighted" "--level1 interleaved" --spd --op mean --edge weighted --level1 interleaved
expect_usage_error "--level1 with --fft" "--level1" --fft 64 --level1 blocks
"$SPDGEN" --spd -o "$WORK/l1i.comp" && grep -q "^shared vec4 lds_level1\[1024\];" "$WORK/l1i.comp" &&
    "$SPDGEN" --spd --tile 32 --wg 64 -o "$WORK/l1i32.comp" && grep -q "^shared vec4 lds_level1\[256\];" "$WORK/l1i32.comp" &&
    "$SPDGEN" --spd --level1 blocks -o "$WORK/l1b.comp" && ! grep -q "lds_level1" "$WORK/l1b.comp" &&
    "$SPDGEN" --spd --op mean --edge weighted -o "$WORK/l1w.comp" && ! grep -q "lds_level1" "$WORK/l1w.comp" &&
    "$SPDGEN" --spd --tile 32 --wg 256 -o "$WORK/l1b2.comp" && ! grep -q "lds_level1" "$WORK/l1b2.comp" &&
    regenerate_command "$WORK/l1i.comp" | grep -q -- " --level1 interleaved "
ok $? "--level1: interleaved by default with 4 x --wg values of lds_level1; none with blocks, --edge weighted or 2x2 blocks (--wg 256 at --tile 32)"
cmd=$(regenerate_command "$WORK/l1b.comp" | head -1)
case $cmd in *"--level1 blocks"*) ;; *) false ;; esac &&
    $SPDGEN_BUILD/$cmd -o "$WORK/l1b_again.comp" && cmp -s "$WORK/l1b.comp" "$WORK/l1b_again.comp"
ok $? "--level1 blocks is named in the regenerate command, which reproduces the file"
"$SPDGEN" --help | grep -q -- "--level1"
ok $? "--help lists --level1"
# rgba8: interleaved up to 2048x2048 (faster there), blocks past it (its registers cost more).
"$SPDGEN" --spd --format rgba8 --max-size 2048x2048 -o "$WORK/l1r8s.comp" &&
    regenerate_command "$WORK/l1r8s.comp" | grep -q -- " --level1 interleaved " &&
    "$SPDGEN" --spd --format rgba8 --max-size 1920x1080 -o "$WORK/l1r8h.comp" &&
    regenerate_command "$WORK/l1r8h.comp" | grep -q -- " --level1 interleaved " &&
    "$SPDGEN" --spd --format rgba8 --max-size 2049x2048 -o "$WORK/l1r8l.comp" &&
    regenerate_command "$WORK/l1r8l.comp" | grep -q -- " --level1 blocks " &&
    "$SPDGEN" --spd --format rgba8 -o "$WORK/l1r8d.comp" &&
    regenerate_command "$WORK/l1r8d.comp" | grep -q -- " --level1 blocks "
ok $? "--level1 for rgba8: interleaved up to 2048x2048 of --max-size, blocks past it (and at \
the default 4096x4096)"
expect_usage_error "--edge unknown" "--edge clamp" --spd --edge clamp
expect_usage_error "--edge conservative with mean" "--edge conservative" --spd --op mean --edge conservative
expect_usage_error "--edge conservative with test-order" "--edge conservative" --spd --op test-order --edge conservative
expect_usage_error "--edge weighted with min" "--edge weighted" --spd --op min --edge weighted
expect_usage_error "--edge weighted with max" "--edge weighted" --spd --op max --format r32f --edge weighted
expect_usage_error "--sampler linear with --edge conservative" "--sampler linear" --spd --op max --edge conservative --sampler linear
expect_usage_error "--sampler linear with --edge weighted" "--sampler linear" --spd --op mean --edge weighted --sampler linear
expect_usage_error "--fetch-ahead 5" "--fetch-ahead 5" --spd --sampler linear --fetch-ahead 5
expect_usage_error "--fetch-ahead not a number" "--fetch-ahead two" --spd --sampler linear --fetch-ahead two
expect_usage_error "--fetch-ahead without the sampler" "--fetch-ahead 2" --spd --fetch-ahead 2
expect_usage_error "--sampler-coords without the sampler" "--sampler-coords normalized" --spd --sampler-coords normalized
expect_usage_error "--sampler-coords unknown" "--sampler-coords pixel" --spd --sampler linear --sampler-coords pixel
expect_usage_error "--sampler-coords texel with --array" "--sampler-coords texel" --spd --array --sampler linear --sampler-coords texel
expect_usage_error "--fetch-ahead 2 with 2x2 blocks (one fetch)" "--fetch-ahead 2" --spd --sampler linear --tile 32 --wg 256 --fetch-ahead 2
expect_usage_error "--fetch-ahead with --fft" "--fetch-ahead" --fft 64 --fetch-ahead 1
expect_usage_error "--edge with --fft" "--edge" --fft 64 --edge weighted
expect_usage_error "--edge conservative with --tile 32" "--edge conservative" --spd --op max --edge conservative --tile 32
expect_usage_error "--edge weighted with --tile 16" "--edge weighted" --spd --edge weighted --tile 16 --wg 16
expect_usage_error "--edge conservative with --half" "--edge conservative" --spd --op max --format r16f --half --edge conservative
expect_usage_error "--tail unknown" "--tail tree" --spd --tail tree
# --tail at --tile 64: the hierarchy past 4096 texels a side, unless something needs the loop.
# tail_is WANT FILE FLAGS...: spdgen FLAGS -o FILE names --tail WANT in its regenerate command.
tail_is() {
    want=$1 file=$WORK/$2
    shift 2
    "$SPDGEN" --spd "$@" -o "$file" &&
        [ "$(regenerate_command "$file" | sed -n 's/.* --tail \([a-z]*\) .*/\1/p')" = "$want" ]
}
tail_is loop t4k.comp --max-size 4096x4096 &&
    tail_is hierarchy t4k1.comp --max-size 4097x64 &&
    tail_is hierarchy t16k.comp --max-size 16384x16384 &&
    tail_is loop t8kw.comp --max-size 8192x8192 --edge weighted &&
    tail_is loop t8kp.comp --max-size 8192x8192 --max-mips-per-pass 7 &&
    tail_is loop t8k6.comp --max-size 8192x8192 --mips 6 &&
    tail_is loop t8kl.comp --max-size 8192x8192 --tail loop &&
    tail_is loop t8k.wgsl --max-size 8192x8192 --target wgsl
ok $? "--tail at --tile 64: hierarchy past 4096 texels a side; loop at 4096, with --edge, passes, \
--mips 6, --target wgsl or when named"
expect_usage_error "--tail loop with --tile 16" "--tail loop" --spd --tile 16 --tail loop
expect_usage_error "--tail loop with --tile 2" "--tail loop" --spd --tile 2 --tail loop
expect_usage_error "--edge conservative with --tail hierarchy" "--edge conservative" --spd --op max --edge conservative --tail hierarchy
expect_usage_error "--edge weighted with --tail hierarchy" "--edge weighted" --spd --edge weighted --tail hierarchy
expect_usage_error "--tail with --fft" "--tail" --fft 64 --tail hierarchy
expect_usage_error "an FFT option with --spd" "--ept" --spd --ept 4
expect_usage_error "--wg 100" "--wg 100" --spd --wg 100
expect_usage_error "--tile 48 (not a power of two)" "--tile 48" --spd --tile 48
expect_usage_error "--tile 128 (beyond 64)" "--tile 128" --spd --tile 128
expect_usage_error "--tile 1 (no level to make)" "--tile 1" --spd --tile 1
expect_usage_error "--wg 128 does not fit --tile 32" "--wg 128" --spd --tile 32 --wg 128
expect_usage_error "--wg 64 does not fit the default --tile 64" "--wg 64" --spd --wg 64
expect_usage_error "--tile with --fft" "--tile" --fft 64 --tile 8
# The message lists the valid workgroups of the tile: 256 and 64 for --tile 32.
"$SPDGEN" --spd --tile 32 --wg 16 2>&1 | grep -q -- "--tile 32 takes --wg 256 or 64"
ok $? "--wg that does not fit --tile 32 names the valid list (256, 64)"
# Without --wg the tile takes its largest workgroup, (T/2)^2 up to 256; the header says so.
for tw in 2:1 4:4 8:16 16:64 32:256 64:256; do
    t=${tw%:*}; n=${tw#*:}
    "$SPDGEN" --spd --name spd --tile "$t" -o "$WORK/tile.comp" --emit-header "$WORK/tile.h" &&
        grep -q "^#define SPD_WORKGROUP_SIZE_X $n\$" "$WORK/tile.h" &&
        grep -q "^#define SPD_TILE $t " "$WORK/tile.h" &&
        grep -q "local_size_x = $n," "$WORK/tile.comp"
    ok $? "--tile $t defaults to --wg $n (contract header and shader agree)"
done
expect_usage_error "--subgroup 3" "--subgroup 3" --spd --subgroup 3
expect_usage_error "--op median" "--op median" --spd --op median
expect_usage_error "--format bgr8" "--format bgr8" --spd --format bgr8

# Without --mips the shader makes the full chain of --max-size.
"$SPDGEN" --spd --max-size 16384x16384 --check && "$SPDGEN" --spd --max-size 16384x2 -o "$WORK/m.comp" &&
    grep -q "dst_mips\[14\]" "$WORK/m.comp" && "$SPDGEN" --spd --max-size 300x20 -o "$WORK/m.comp" &&
    grep -q "dst_mips\[8\]" "$WORK/m.comp"
ok $? "--max-size alone sets --mips to its full chain (14 at 16384, 8 at 300)"

# --max-mips-per-pass K: the shader binds K levels; with K <= 6 it needs no counter at all.
"$SPDGEN" --spd --name spd --mips 12 --max-mips-per-pass 6 -o "$WORK/p.comp" --emit-header "$WORK/p.h" &&
    grep -q "dst_mips\[6\]" "$WORK/p.comp" && ! grep -q "counters" "$WORK/p.comp" &&
    grep -q "define SPD_PASSES 2" "$WORK/p.h" && grep -q "define SPD_TOTAL_MIPS 12" "$WORK/p.h"
ok $? "--max-mips-per-pass 6: 6 levels per dispatch, no atomic counter, 2 passes in the contract"

# --edge drop is the default and changes nothing; the other modes name themselves in the
# regenerate command, and weighted's contract header carries the dispatch planner.
"$SPDGEN" --spd --op max -o "$WORK/d1.comp" && "$SPDGEN" --spd --op max --edge drop -o "$WORK/d2.comp" &&
    cmp -s "$WORK/d1.comp" "$WORK/d2.comp" && grep -q -- "--edge drop" "$WORK/d1.comp" &&
    "$SPDGEN" --spd --op max --edge conservative -o "$WORK/d3.comp" && grep -q -- "--edge conservative" "$WORK/d3.comp" &&
    ! cmp -s "$WORK/d1.comp" "$WORK/d3.comp"
ok $? "--edge drop is the default (same bytes; the command names it); conservative names itself"
"$SPDGEN" --spd --name spd --edge weighted --format rgba16f -o "$WORK/w.comp" --emit-header "$WORK/w.h" &&
    grep -q "SPD_EDGE_WEIGHTED 1" "$WORK/w.h" && grep -q "static inline uint32_t spd_pass_end" "$WORK/w.h"
ok $? "--edge weighted: the contract header carries spd_pass_end"
cat >"$WORK/plan.c" <<'EOC'
#include "w.h"
#include <stdio.h>
/* The header's planner (the same text as the runtime's, compared above) on sizes up to 300:
 * every dispatch makes 1..SPD_MAX_MIPS levels, a power-of-two source SPD_PASSES dispatches. */
int main(void)
{
    for (uint32_t w = 1; w <= 300; w++)
        for (uint32_t h = 1; h <= 300; h += 7) {
            uint32_t mips = spd_mip_count(w, h), base = 0, n = 0;
            while (base < mips) {
                uint32_t end = spd_pass_end(w, h, base, mips, SPD_MAX_MIPS, 1);
                if (end <= base || end - base > SPD_MAX_MIPS) return 1;
                base = end, n++;
            }
            if ((w & (w - 1)) == 0 && (h & (h - 1)) == 0 && mips && n != (uint32_t)SPD_PASSES) return 2;
        }
    printf("%u\n", spd_pass_end(4096, 4096, 0, 12, SPD_MAX_MIPS, 1));
    return 0;
}
EOC
sed -n '/spd_pass_end: begin/,/spd_pass_end: end/p' "$(dirname "$0")/../../runtime/spd/spd_passes.h" | sed '1d;$d' >"$WORK/runtime_fn.h"
awk '/The last level of the dispatch/ { on = 1 } on { print } on && /^}$/ { exit }' "$WORK/w.h" >"$WORK/header_fn.h"
grep -q "static inline uint32_t spd_pass_end" "$WORK/runtime_fn.h" && cmp -s "$WORK/runtime_fn.h" "$WORK/header_fn.h" &&
    cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/plan" "$WORK/plan.c" && [ "$("$WORK/plan")" = "12" ]
ok $? "--edge weighted: the header's spd_pass_end is the runtime's, compiles, and plans valid dispatches"

# Every emitted line fits in 100 columns: each target, with the options that shape the text
# most (arrays, the sampler, both edge modes, small tiles, the hierarchy, halves, subgroups,
# passes).
wide=0
for target in glsl hlsl msl; do
    for args in "" "--array --sampler linear --format rgba16f" "--op max --format r32f --edge conservative --array" \
        "--format rgba16f --edge weighted" "--tile 8" "--tile 16 --wg 16 --subgroup 16 --op max --format r32f" \
        "--max-size 16384x16384 --tail hierarchy" "--format rgba16f --half --subgroup 8 --sampler linear" \
        "--subgroup 4 --max-mips-per-pass 4" "--format rgba8 --sampler linear --fetch-ahead 4 --mips 5"; do
        # shellcheck disable=SC2086 # several flags
        "$SPDGEN" --spd $args --target $target -o "$WORK/w.$target" && [ -z "$(long_lines "$WORK/w.$target")" ] && continue
        wide=1
        diag "--spd $args --target $target:" "$(long_lines "$WORK/w.$target" | head -3)"
    done
done
ok $wide "no emitted line is longer than 100 columns (SPD, every target)"
# The C header too, with the default prefix (SPD_<hash>_, longer than most --name values).
wide=0
for args in "" "--format rgba16f --edge weighted" "--max-size 16384x16384 --tail hierarchy" \
    "--op max --format r32f --edge conservative --array"; do
    # shellcheck disable=SC2086 # several flags
    "$SPDGEN" --spd $args -o "$WORK/w.comp" --emit-header "$WORK/w.h" && [ -z "$(long_lines "$WORK/w.h")" ] &&
        continue
    wide=1
    diag "--spd $args --emit-header:" "$(long_lines "$WORK/w.h" | head -3)"
done
ok $wide "no header line is longer than 100 columns with the default prefix (SPD)"

# --emit-header: a C header that compiles and agrees with the shader's local size.
"$SPDGEN" --spd --name spd --array --target msl -o "$WORK/s.metal" --emit-header "$WORK/contract.h"
cat >"$WORK/use.c" <<'EOC'
#include "contract.h"
#include <stdio.h>
int main(void)
{
    SpdPushConstants pc = {4096, 2048, spd_mip_count(4096, 2048), 0, 0, 0, 0, 0};
    printf("%d %u %u %u %u\n", SPD_WORKGROUP_SIZE_X, SPD_GRID_X(4096u), SPD_GRID_Y(2048u),
           pc.mip_count, (unsigned)sizeof pc);
    return 0;
}
EOC
cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/use" "$WORK/use.c" && [ "$("$WORK/use")" = "256 64 32 12 32" ]
ok $? "--emit-header: the contract header compiles; grid and mip count follow the contract"

# spd_update_dispatch: the tiles over a rectangle, worked out by hand for a 4096x2048
# source (64x32 tiles): a texel at (100, 70) is tile (1, 1); (4000..4095, 2000..2047)
# spans tiles 62..63 of row 31; in pass 1 of --max-mips-per-pass 6 (level 6, 64x32) the
# same rectangle is texels 62..63 x 31 of tile (0, 0), with 6 levels left; an empty or
# outside rectangle is refused.
"$SPDGEN" --spd --name spd --mips 12 --max-mips-per-pass 6 -o "$WORK/u.comp" --emit-header "$WORK/update.h"
cat >"$WORK/update.c" <<'EOC'
#include "update.h"
#include <stdio.h>
static void show(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t base)
{
    SpdPushConstants pc;
    uint32_t grid[2];
    if (spd_update_dispatch(4096, 2048, x, y, w, h, base, &pc, grid) != 0) {
        printf("refused\n");
        return;
    }
    printf("%ux%u %u %u,%u %u %u %ux%u\n", pc.src_width, pc.src_height, pc.mip_count,
           pc.tile_offset_x, pc.tile_offset_y, pc.tile_count, pc.tiles_per_workgroup, grid[0], grid[1]);
}
int main(void)
{
    show(100, 70, 1, 1, 0);
    show(4000, 2000, 96, 48, 0);
    show(4000, 2000, 96, 48, 6);
    show(0, 0, 0, 1, 0);
    show(4000, 0, 97, 1, 0);
    return 0;
}
EOC
cc -std=c11 -Wall -Werror -I"$WORK" -o "$WORK/update" "$WORK/update.c" &&
    [ "$("$WORK/update" | tr '\n' ';')" = "4096x2048 6 1,1 1 0 1x1;4096x2048 6 62,31 2 0 2x1;64x32 6 0,0 1 0 1x1;refused;refused;" ]
ok $? "--emit-header: spd_update_dispatch maps a rectangle to the tiles over it in each pass"
# Below --tile 64 the hierarchy counts every unit of a block: no update helper in the header,
# and the shader says it does not read tile_offset (the runtime refuses updates: spd_update.h).
for tiles in "--tile 16" "--tail hierarchy"; do
    "$SPDGEN" --spd --name spd $tiles -o "$WORK/t16.comp" --emit-header "$WORK/t16.h" &&
        ! grep -q "spd_update_dispatch(" "$WORK/t16.h" && grep -q "updates need --tail loop" "$WORK/t16.h" &&
        ! grep -q "params.tile_offset" "$WORK/t16.comp" && grep -q "updates need --tail loop" "$WORK/t16.comp"
    ok $? "$tiles: no spd_update_dispatch in the header; the shader ignores tile_offset and says updates need --tail loop"
done

# --tail: loop is the default at 64 (same bytes; the command names it) and implied
# hierarchy below it (--tile 16 --tail hierarchy is --tile 16); --tail hierarchy at 64 names
# itself, binds the hierarchy's hand-off buffer and explains the choice.
"$SPDGEN" --spd -o "$WORK/l1.comp" && "$SPDGEN" --spd --tail loop -o "$WORK/l2.comp" &&
    cmp -s "$WORK/l1.comp" "$WORK/l2.comp" && grep -q -- "--tail loop" "$WORK/l1.comp" &&
    "$SPDGEN" --spd --tile 16 -o "$WORK/h1.comp" && "$SPDGEN" --spd --tile 16 --tail hierarchy -o "$WORK/h2.comp" &&
    cmp -s "$WORK/h1.comp" "$WORK/h2.comp"
ok $? "--tail: loop is the default at --tile 64, hierarchy below it (same bytes either way)"
"$SPDGEN" --spd --tail hierarchy --max-size 16384x16384 -o "$WORK/h.comp" &&
    regenerate_command "$WORK/h.comp" | grep -q -- " --tail hierarchy " && grep -q "buffer SpdHandoff" "$WORK/h.comp" &&
    ! grep -q "level6\[" "$WORK/h.comp" && ! grep -q "lds_level12" "$WORK/h.comp" &&
    grep -q "faster for large sources" "$WORK/h.comp" && grep -q "Stage 2:" "$WORK/h.comp"
ok $? "--tail hierarchy at --tile 64: named in the command, hierarchy buffers, no region loop, 3 stages at 14 levels, says why"
"$SPDGEN" --help | grep -q -- "--tail T .*loop"
ok $? "--help lists --tail"
# --fetch-ahead: 2 by default with --sampler linear --tail hierarchy at 64 (the same bytes as
# naming it, which the command then names), 0 elsewhere; a value other than the default is
# named in the command, and the shader holds that many fetches of the next tile.
"$SPDGEN" --spd --sampler linear --tail hierarchy -o "$WORK/a1.comp" &&
    "$SPDGEN" --spd --sampler linear --tail hierarchy --fetch-ahead 2 -o "$WORK/a2.comp" &&
    cmp -s "$WORK/a1.comp" "$WORK/a2.comp" && regenerate_command "$WORK/a1.comp" | grep -q -- " --fetch-ahead 2 " &&
    [ "$(grep -c "ahead[01][01] = " "$WORK/a1.comp")" -eq 4 ] &&
    "$SPDGEN" --spd --sampler linear -o "$WORK/a3.comp" && ! grep -q "ahead00" "$WORK/a3.comp" &&
    "$SPDGEN" --spd --sampler linear --tail hierarchy --fetch-ahead 0 -o "$WORK/a4.comp" &&
    regenerate_command "$WORK/a4.comp" | grep -q -- " --fetch-ahead 0 " && ! grep -q "ahead00" "$WORK/a4.comp" &&
    "$SPDGEN" --spd --sampler linear --fetch-ahead 4 -o "$WORK/a5.comp" &&
    regenerate_command "$WORK/a5.comp" | grep -q -- " --fetch-ahead 4 " && [ "$(grep -c "ahead[01][01] = " "$WORK/a5.comp")" -eq 8 ]
ok $? "--fetch-ahead: 2 by default with the sampler and --tail hierarchy, 0 otherwise; other values named in the command"
# --sampler-coords: texel coordinates by default (no 1/size scale, the command names texel),
# normalized ones with --sampler-coords normalized (named) and with --array (implied).
"$SPDGEN" --spd --sampler linear -o "$WORK/c1.comp" && ! grep -q "inv_size" "$WORK/c1.comp" &&
    grep -q "unnormalized coordinates" "$WORK/c1.comp" && grep -q -- "--sampler-coords texel" "$WORK/c1.comp" &&
    "$SPDGEN" --spd --sampler linear --sampler-coords normalized -o "$WORK/c2.comp" &&
    grep -q "\* inv_size" "$WORK/c2.comp" && regenerate_command "$WORK/c2.comp" | grep -q -- " --sampler-coords normalized" &&
    "$SPDGEN" --spd --sampler linear --array -o "$WORK/c3.comp" && grep -q "\* inv_size" "$WORK/c3.comp" &&
    regenerate_command "$WORK/c3.comp" | grep -q -- " --sampler-coords normalized"
ok $? "--sampler-coords: texel by default, normalized when asked for (named in the command) and with --array"
# The header's buffer sizes for --tile 64 --tail hierarchy are the runtime's (levels.c), for
# sizes with 1, 2 and 3 stages and several blocks per stage, 1 and 6 layers.
"$SPDGEN" --spd --name spd --tail hierarchy --max-size 16384x16384 -o "$WORK/h.comp" --emit-header "$WORK/spd_h.h" &&
cat >"$WORK/sizes.c" <<'EOC' &&
#include <stdio.h>
#include "spd_h.h"
#include "spdrt.h"
int main(void)
{
    static const uint32_t sizes[][3] = {{1, 1, 1}, {65, 65, 1}, {1000, 700, 6}, {5000, 300, 1},
                                        {16384, 4, 1}, {4, 16384, 6}, {16384, 16384, 1}, {4097, 9000, 2}};
    int bad = 0;
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint64_t c, h;
        spdrt_spd_buffer_bytes(64, 1, 14, sizes[i][0], sizes[i][1], sizes[i][2], 4, &c, &h);
        bad += c != SPD_COUNTER_BYTES(sizes[i][0], sizes[i][1], sizes[i][2]) ||
               h != SPD_HANDOFF_BYTES(sizes[i][0], sizes[i][1], sizes[i][2]);
        /* The loop's sizes must differ from the hierarchy's once there is a stage 2. */
        if (sizes[i][0] == 16384 && sizes[i][1] == 16384) {
            uint64_t lc, lh;
            spdrt_spd_buffer_bytes(64, 0, 14, 16384, 16384, 1, 4, &lc, &lh);
            bad += lc != 4 || c == lc;
        }
    }
    printf("%d\n", bad);
    return 0;
}
EOC
cc -std=c11 -Wall -Werror -I"$WORK" -I"$(dirname "$0")/../../runtime/include" -I"$(dirname "$0")/../../runtime" -o "$WORK/sizes" "$WORK/sizes.c" \
    "$(dirname "$0")/../../runtime/spd/levels.c" &&
    [ "$("$WORK/sizes")" = "0" ]
ok $? "--tail hierarchy: the header's counter and hand-off bytes equal spdrt_spd_buffer_bytes(64, hierarchy)"

done_testing
