/* spd_header.c: the SPD's helper functions in the contract header (header.c writes the
 * numbers, bindings and push constants): buffer sizes, the dispatch plan of --edge weighted,
 * the mip count and the sub-rectangle update. P is the macro prefix ("SPD_"), fn the
 * function prefix ("spd_"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "embedded.h"
#include "header.h"
#include "job.h"
#include "spd.h"

#define say sg_text_printf

/* --tail hierarchy: the counter and hand-off buffers of the hierarchy, as
 * templates/spd/hierarchy.lua lays them out and runtime/spd/levels.c sizes them. */
static void hierarchy_sizes(sg_text *t, const char *P, const char *fn, long tile, long stages,
                            long value_bytes)
{
    int m = 0;
    while ((1L << m) < tile) m++;
    say(t, "/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3): stage s\n"
           " * (0..%ld) has grid_{s+1} units, grid_k = ceil(size / %ld^k) per axis; per slice the\n"
           " * hand-off buffer holds the results of stages 0..%ld, the counter buffer a counter per\n"
           " * unit of stages 1..%ld. */\n", stages - 1, tile, stages - 2, stages - 1);
    say(t, "static inline uint64_t %sgrid_units(uint32_t w, uint32_t h, uint32_t k)\n{\n"
           "    uint64_t round = (1ull << (k * %du)) - 1u;\n"
           "    return ((w + round) >> (k * %du)) * ((h + round) >> (k * %du));\n}\n", fn, m, m, m);
    say(t, "static inline uint64_t %scounter_bytes(uint32_t w, uint32_t h, uint32_t layers)\n{\n"
           "    uint64_t units = 0;\n"
           "    for (uint32_t k = 2; k <= %ldu; k++) units += %sgrid_units(w, h, k);\n"
           "    return layers * units * 4u;\n}\n", fn, stages, fn);
    say(t, "static inline uint64_t %shandoff_bytes(uint32_t w, uint32_t h, uint32_t layers)\n{\n"
           "    uint64_t units = 0;\n"
           "    for (uint32_t k = 1; k < %ldu; k++) units += %sgrid_units(w, h, k);\n"
           "    return layers * units * %ldu;\n}\n", fn, stages, fn, value_bytes);
    /* Broken after the head: a default prefix (SPD_<hash>_) would take them past 100 columns. */
    say(t, "#define %sCOUNTER_BYTES(src_width, src_height, layers) \\\n    %scounter_bytes(src_width, "
           "src_height, layers)\n", P, fn);
    say(t, "#define %sHANDOFF_BYTES(src_width, src_height, layers) \\\n    %shandoff_bytes(src_width, "
           "src_height, layers)\n", P, fn);
}

/* spd_pass_end, copied from the runtime's own planner (runtime/spd/spd_passes.h, embedded)
 * with its function prefix. */
static void pass_plan(sg_text *t, const char *P, const char *fn)
{
    const char *begin = "/* spd_pass_end: begin */\n", *end = "/* spd_pass_end: end */";
    for (const sg_embedded_file *e = sg_embedded_files; e->path; e++) {
        const char *a = strstr(e->data, begin), *b = a ? strstr(a, end) : NULL;
        if (!a || !b) continue;
        char doc[512];
        snprintf(doc, sizeof doc, "Dispatches: %sPASSES is for power-of-two sources; in general plan them "
                 "with %spass_end(w, h, base, mip_count, %sMAX_MIPS, 1), as libspdrt does (mip_count: "
                 "the levels of the whole chain, at most %sTOTAL_MIPS).", P, fn, P, P);
        sg_header_comment(t, doc);
        for (const char *p = a + strlen(begin); p < b;) {
            const char *hit = strstr(p, "spd_pass_end");
            if (!hit || hit >= b) {
                sg_text_append(t, p, (size_t)(b - p));
                break;
            }
            sg_text_append(t, p, (size_t)(hit - p));
            say(t, "%spass_end", fn);
            p = hit + strlen("spd_pass_end");
        }
        return;
    }
    t->failed = 1; /* the runtime's planner is embedded in every build */
}

static void mip_count(sg_text *t, const char *P, const char *fn)
{
    say(t, "\n/* mip_count for a source: the levels that exist, at most %sMAX_MIPS.\n"
           " * 0: nothing to do. */\n"
           "static inline uint32_t %smip_count(uint32_t src_width, uint32_t src_height)\n{\n"
           "    uint32_t size = src_width > src_height ? src_width : src_height, levels = 0;\n"
           "    while (size > 1u && levels < %sMAX_MIPS) {\n"
           "        size >>= 1;\n        levels++;\n    }\n    return levels;\n}\n", P, fn, P);
}

static void update_dispatch(sg_text *t, const char *P, const char *fn, const char *type, int edge)
{
    say(t, "\n/* A sub-rectangle update: level-0 texels inside (x, y, w, h) changed since a dispatch of\n"
           " * this shader over the same source size, with the same counter and level-6 buffers (pass\n"
           " * p keeps its own level-6 buffer). Fills *pc and the grid for the pass that reads level\n"
           " * `base` (p * %sMAX_MIPS; 0 for one pass): only the 64x64 tiles of that level over the\n"
           " * rectangle, each level-`base` texel covering the 2^base x 2^base block of level 0 it\n"
           " * reduces. Dispatch (grid[0], grid[1], layers). Returns 0, or -1 when the rectangle is\n"
           " * empty or leaves the source, or the pass has no levels to write. */\n", P);
    if (edge == SG_SPD_EDGE_WEIGHTED) {
        char doc[256];
        snprintf(doc, sizeof doc, "--edge weighted: pass p reads the level %spass_end planned, not p * "
                 "%sMAX_MIPS.", fn, P);
        sg_header_comment(t, doc);
    }
    say(t, "static inline int %supdate_dispatch(uint32_t src_width, uint32_t src_height, uint32_t x,\n"
           "    uint32_t y, uint32_t w, uint32_t h, uint32_t base, %s *pc,\n    uint32_t grid[2])\n{\n",
        fn, type);
    say(t, "    uint32_t bw = src_width >> base ? src_width >> base : 1u;\n"
           "    uint32_t bh = src_height >> base ? src_height >> base : 1u;\n"
           "    uint32_t size = src_width > src_height ? src_width : src_height, total = 0;\n"
           "    uint32_t x0, y0, x1, y1;\n"
           "    while (size > 1u && total < %sTOTAL_MIPS) {\n"
           "        size >>= 1;\n        total++;\n    }\n"
           "    if (w == 0u || h == 0u || x >= src_width || y >= src_height || w > src_width - x ||\n"
           "        h > src_height - y || base >= total)\n"
           "        return -1;\n"
           "    /* Level-`base` texels over the rectangle, clamped to the level: a rectangle in the\n"
           "     * dropped odd edge changes nothing, and dispatching the edge tile is harmless. */\n"
           "    x0 = x >> base, y0 = y >> base, x1 = (x + w - 1u) >> base, y1 = (y + h - 1u) >> base;\n"
           "    x0 = x0 < bw ? x0 : bw - 1u, x1 = x1 < bw ? x1 : bw - 1u;\n"
           "    y0 = y0 < bh ? y0 : bh - 1u, y1 = y1 < bh ? y1 : bh - 1u;\n", P);
    if (edge == SG_SPD_EDGE_CONSERVATIVE)
        say(t, "    /* --edge conservative: a tile near the right/bottom edge also reads the next one. */\n"
               "    x0 = x0 > 64u ? x0 - 64u : 0u, y0 = y0 > 64u ? y0 - 64u : 0u;\n");
    else if (edge == SG_SPD_EDGE_WEIGHTED)
        say(t, "    /* --edge weighted: odd levels reach one texel further left/up. */\n"
               "    x0 = x0 > 1u ? x0 - 1u : 0u, y0 = y0 > 1u ? y0 - 1u : 0u;\n");
    say(t, "    pc->src_width = bw;\n    pc->src_height = bh;\n");
    if (edge == SG_SPD_EDGE_WEIGHTED)
        say(t, "    pc->mip_count = %spass_end(src_width, src_height, base, total,\n"
               "        %sMAX_MIPS, 1) - base;\n", fn, P);
    else
        say(t, "    pc->mip_count = total - base < %sMAX_MIPS ? total - base : %sMAX_MIPS;\n", P, P);
    say(t, "    pc->tile_offset_x = x0 / 64u;\n    pc->tile_offset_y = y0 / 64u;\n"
           "    grid[0] = x1 / 64u - x0 / 64u + 1u;\n    grid[1] = y1 / 64u - y0 / 64u + 1u;\n"
           "    pc->tile_count = grid[0] * grid[1];\n"
           "    pc->tiles_per_workgroup = pc->unused = 0u; /* an update runs one tile per workgroup */\n"
           "    return 0;\n}\n");
}

void sg_spd_header(sg_text *t, const sg_run *run, const sg_job *job, const char *P, const char *fn)
{
    const sg_spd_params *s = run->params;
    const sg_contract *c = &job->shaders[0].gen.contract;
    long tile = s->tile, mips = s->mips_per_pass;
    long stages = sg_contract_int(c, "HIERARCHY_STAGES", 1);
    long value_bytes = sg_contract_int(c, "HANDOFF_VALUE_BYTES", 4);
    int hierarchy = s->tail == SG_SPD_TAIL_HIERARCHY;
    long tile_levels = 0;
    while ((1L << tile_levels) < tile) tile_levels++;
    char type[64];
    snprintf(type, sizeof type, "%c%.*sPushConstants", toupper((unsigned char)fn[0]),
             (int)strlen(fn) - 2, fn + 1);

    say(t, "\n/* With k tiles per workgroup (push constant tiles_per_workgroup = k, whole-image dispatches\n");
    if (hierarchy)
        say(t, " * only; k a power of two up to %ld, so a workgroup's tiles share one block of the\n"
               " * hierarchy): fewer workgroups along x, each reducing k consecutive tiles of its row. */\n",
            tile);
    else
        say(t, " * only): fewer workgroups along x, each reducing k consecutive tiles of its row. */\n");
    say(t, "#define %sGRID_X_TILES(src_width, k) ((%sGRID_X(src_width) + (k) - 1u) / (k))\n", P, P);
    if (hierarchy && stages > 1) {
        hierarchy_sizes(t, P, fn, tile, stages, value_bytes);
    } else if (mips > tile_levels) {
        say(t, "/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3). */\n"
               "#define %sCOUNTER_BYTES(layers) ((layers) * 4u)\n"
               "#define %sLEVEL6_BYTES(src_width, src_height, layers) \\\n"
               "    ((layers) * %sGRID_X(src_width) * %sGRID_Y(src_height) * %ldu)\n", P, P, P, P,
            value_bytes);
    }
    if (s->edge == SG_SPD_EDGE_WEIGHTED) {
        say(t, "\n");
        pass_plan(t, P, fn);
    }
    mip_count(t, P, fn);
    if (hierarchy) {
        char doc[512];
        snprintf(doc, sizeof doc, "No %supdate_dispatch: sub-rectangle updates need --tail loop. The "
                 "hierarchy of counters of --tile %ld counts every unit of a block, so every dispatch "
                 "covers the whole grid (tile_count and tile_offset 0; this shader does not read them).",
                 fn, tile);
        say(t, "\n");
        sg_header_comment(t, doc);
    } else
        update_dispatch(t, P, fn, type, s->edge);
}
