-- c_header.lua: renders a kernel's dispatch contract as a C header (--emit-header), so an
-- engine binds and dispatches the vendored shader from the same numbers spdgen used.
local c_header = {}

-- --tail hierarchy (always below --tile 64): the buffers of the hierarchy of counters, as templates/spd_hierarchy.lua
-- lays them out (and runtime/levels.c sizes them).
local function hierarchy_sizes(line, P, contract)
    local m, stages = contract.tile_levels, contract.stages
    line("/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3): stage s")
    line(" * (0..%d) has grid_{s+1} units, grid_k = ceil(size / %d^k) per axis; per slice the", stages - 1, contract.tile)
    line(" * hand-off buffer holds the results of stages 0..%d, the counter buffer a counter per", stages - 2)
    line(" * unit of stages 1..%d. */", stages - 1)
    line("static inline uint64_t spd_grid_units(uint32_t w, uint32_t h, uint32_t k)")
    line("{")
    line("    uint64_t round = (1ull << (k * %du)) - 1u;", m)
    line("    return ((w + round) >> (k * %du)) * ((h + round) >> (k * %du));", m, m)
    line("}")
    line("static inline uint64_t spd_counter_bytes(uint32_t w, uint32_t h, uint32_t layers)")
    line("{")
    line("    uint64_t units = 0;")
    line("    for (uint32_t k = 2; k <= %du; k++) units += spd_grid_units(w, h, k);", stages)
    line("    return layers * units * 4u;")
    line("}")
    line("static inline uint64_t spd_handoff_bytes(uint32_t w, uint32_t h, uint32_t layers)")
    line("{")
    line("    uint64_t units = 0;")
    line("    for (uint32_t k = 1; k < %du; k++) units += spd_grid_units(w, h, k);", stages)
    line("    return layers * units * %du;", contract.level6_bytes_per_tile)
    line("}")
    line("#define %sCOUNTER_BYTES(src_width, src_height, layers) spd_counter_bytes(src_width, src_height, layers)", P)
    line("#define %sHANDOFF_BYTES(src_width, src_height, layers) spd_handoff_bytes(src_width, src_height, layers)", P)
end

function c_header.render(cfg, contract)
    if contract.kernel == "fft" then return require("templates.fft_header").render(cfg, contract) end
    local out = {}
    local function line(fmt, ...) out[#out + 1] = select("#", ...) > 0 and string.format(fmt, ...) or fmt end
    local P = "SPD_"
    line("/* spdgen %s: dispatch contract of a single-pass downsampler (SPD).", cfg.version)
    line(" * Generated; regenerate with:")
    line(" *   %s", cfg.command)
    line(" * Entry point \"%s\"; push constants are %d bytes (struct SpdPushConstants). */", contract.entry,
        contract.push_constant_bytes)
    line("#ifndef SPDGEN_SPD_CONTRACT_H")
    line("#define SPDGEN_SPD_CONTRACT_H")
    line("")
    line("#include <stdint.h>")
    line("")
    line("#define %sWORKGROUP_SIZE_X %d", P, contract.workgroup[1])
    line("#define %sWORKGROUP_SIZE_Y %d", P, contract.workgroup[2])
    line("#define %sWORKGROUP_SIZE_Z %d", P, contract.workgroup[3])
    local t = contract.tile
    line("/* Grid: one workgroup per %dx%d tile of level 0 (--tile), one layer of workgroups per slice. */", t, t)
    line("#define %sTILE %d", P, t)
    line("#define %sGRID_X(src_width) (((src_width) + %du) / %du)", P, t - 1, t)
    line("#define %sGRID_Y(src_height) (((src_height) + %du) / %du)", P, t - 1, t)
    line("#define %sGRID_Z(layers) (%s)", P, contract.array and "(layers)" or "1u")
    line("/* With k tiles per workgroup (push constant tiles_per_workgroup = k, whole-image dispatches")
    if contract.hierarchy then
        line(" * only; k a power of two up to %d, so a workgroup's tiles share one block of the", t)
        line(" * hierarchy): fewer workgroups along x, each reducing k consecutive tiles of its row. */")
    else
        line(" * only): fewer workgroups along x, each reducing k consecutive tiles of its row. */")
    end
    line("#define %sGRID_X_TILES(src_width, k) ((%sGRID_X(src_width) + (k) - 1u) / (k))", P, P)
    line("#define %sMAX_MIPS %d /* storage images bound at binding 1: levels per dispatch */", P, contract.mips)
    line("#define %sTOTAL_MIPS %d /* levels of the whole chain */", P, contract.total_mips)
    line("/* Dispatches per chain: pass p reads level p * %sMAX_MIPS (--max-mips-per-pass). */", P)
    line("#define %sPASSES %d", P, contract.passes)
    line("#define %sCHANNELS %d", P, contract.channels)
    line("#define %sSHARED_MEMORY_BYTES %d", P, contract.shared_bytes)
    line("/* Minimum subgroup size (0: none needed). With >= 8 the pipeline must use full subgroups,")
    line(" * and a required subgroup size of exactly this where the device can set one. */")
    line("#define %sSUBGROUP_SIZE %d", P, contract.subgroup)
    line("#define %sNEEDS_QUAD_OPS %d", P, contract.subgroup == 4 and 1 or 0)
    line("")
    line("/* Bindings (descriptor set 0). */")
    local names = { [0] = "SOURCE", [1] = "MIPS", [2] = "COUNTERS", [3] = contract.hierarchy and "HANDOFF" or "LEVEL6" }
    for _, b in ipairs(contract.bindings) do
        line("#define %sBINDING_%s %d /* %s: %s */", P, names[b.binding], b.binding, b.kind, b.doc)
    end
    if contract.hierarchy and contract.stages > 1 then
        hierarchy_sizes(line, P, contract)
    elseif contract.mips > 6 then
        line("/* Bytes of the counter buffer (binding 2) and the hand-off buffer (binding 3). */")
        line("#define %sCOUNTER_BYTES(layers) ((layers) * 4u)", P)
        line("#define %sLEVEL6_BYTES(src_width, src_height, layers) \\", P)
        line("    ((layers) * %sGRID_X(src_width) * %sGRID_Y(src_height) * %du)", P, P, contract.level6_bytes_per_tile)
    end
    line("")
    line("typedef struct SpdPushConstants {")
    for _, p in ipairs(contract.push_constants) do
        line("    uint32_t %s; /* offset %d: %s */", p.name, p.offset, p.doc)
    end
    line("} SpdPushConstants;")
    line("")
    if cfg.edge ~= "drop" then
        line("/* --edge %s (see the shader's opening comment). */", cfg.edge)
        line("#define %sEDGE_%s 1", P, cfg.edge:upper())
        line("")
    end
    if cfg.edge == "weighted" then
        -- The runtime's own planner, copied verbatim (runtime/spd_passes.h, embedded).
        local source = embedded_source("runtime/spd_passes.h")
        local body = source:match("/%* spd_pass_end: begin %*/\n(.-)/%* spd_pass_end: end %*/")
        assert(body, "runtime/spd_passes.h: spd_pass_end markers not found")
        line("/* Dispatches: SPD_PASSES is for power-of-two sources; in general plan them with")
        line(" * spd_pass_end(w, h, base, mip_count, %sMAX_MIPS, 1), as libspdrt does (mip_count: the", P)
        line(" * levels of the whole chain, at most %sTOTAL_MIPS). */", P)
        line("%s", (body:gsub("\n$", "")))
        line("")
    end
    line("/* mip_count for a source: the levels that exist, at most %sMAX_MIPS. 0: nothing to do. */", P)
    line("static inline uint32_t spd_mip_count(uint32_t src_width, uint32_t src_height)")
    line("{")
    line("    uint32_t size = src_width > src_height ? src_width : src_height, levels = 0;")
    line("    while (size > 1u && levels < %sMAX_MIPS) {", P)
    line("        size >>= 1;")
    line("        levels++;")
    line("    }")
    line("    return levels;")
    line("}")
    line("")
    if contract.hierarchy then
        -- Every block counter waits for all its units: a dispatch of only some tiles would
        -- leave counters short (and wrong for the next dispatch), so no update helper.
        line("/* No spd_update_dispatch: sub-rectangle updates need --tail loop. The hierarchy of counters")
        line(" * of --tile %d counts every unit of a block, so every dispatch covers the whole grid")
        line(" * (tile_count and tile_offset 0; this shader does not read them). */", contract.tile)
        line("")
    else
        line("/* A sub-rectangle update: level-0 texels inside (x, y, w, h) changed since a dispatch of")
        line(" * this shader over the same source size, with the same counter and level-6 buffers (pass")
        line(" * p keeps its own level-6 buffer). Fills *pc and the grid for the pass that reads level")
        line(" * `base` (p * %sMAX_MIPS; 0 for one pass): only the 64x64 tiles of that level over the", P)
        line(" * rectangle, each level-`base` texel covering the 2^base x 2^base block of level 0 it")
        line(" * reduces. Dispatch (grid[0], grid[1], layers). Returns 0, or -1 when the rectangle is")
        line(" * empty or leaves the source, or the pass has no levels to write. */")
        if cfg.edge == "weighted" then
            line("/* --edge weighted: pass p reads the level spd_pass_end planned, not p * %sMAX_MIPS. */", P)
        end
        line("static inline int spd_update_dispatch(uint32_t src_width, uint32_t src_height, uint32_t x,")
        line("                                      uint32_t y, uint32_t w, uint32_t h, uint32_t base,")
        line("                                      SpdPushConstants *pc, uint32_t grid[2])")
        line("{")
        line("    uint32_t bw = src_width >> base ? src_width >> base : 1u;")
        line("    uint32_t bh = src_height >> base ? src_height >> base : 1u;")
        line("    uint32_t size = src_width > src_height ? src_width : src_height, total = 0;")
        line("    uint32_t x0, y0, x1, y1;")
        line("    while (size > 1u && total < %sTOTAL_MIPS) {", P)
        line("        size >>= 1;")
        line("        total++;")
        line("    }")
        line("    if (w == 0u || h == 0u || x >= src_width || y >= src_height || w > src_width - x ||")
        line("        h > src_height - y || base >= total)")
        line("        return -1;")
        line("    /* Level-`base` texels over the rectangle, clamped to the level: a rectangle in the")
        line("     * dropped odd edge changes nothing, and dispatching the edge tile is harmless. */")
        line("    x0 = x >> base, y0 = y >> base, x1 = (x + w - 1u) >> base, y1 = (y + h - 1u) >> base;")
        line("    x0 = x0 < bw ? x0 : bw - 1u, x1 = x1 < bw ? x1 : bw - 1u;")
        line("    y0 = y0 < bh ? y0 : bh - 1u, y1 = y1 < bh ? y1 : bh - 1u;")
        if cfg.edge == "conservative" then
            line("    /* --edge conservative: a tile near the right/bottom edge also reads the next one. */")
            line("    x0 = x0 > 64u ? x0 - 64u : 0u, y0 = y0 > 64u ? y0 - 64u : 0u;")
        elseif cfg.edge == "weighted" then
            line("    /* --edge weighted: odd levels reach one texel further left/up. */")
            line("    x0 = x0 > 1u ? x0 - 1u : 0u, y0 = y0 > 1u ? y0 - 1u : 0u;")
        end
        line("    pc->src_width = bw;")
        line("    pc->src_height = bh;")
        if cfg.edge == "weighted" then
            line("    pc->mip_count = spd_pass_end(src_width, src_height, base, total, %sMAX_MIPS, 1) - base;", P)
        else
            line("    pc->mip_count = total - base < %sMAX_MIPS ? total - base : %sMAX_MIPS;", P, P)
        end
        line("    pc->tile_offset_x = x0 / 64u;")
        line("    pc->tile_offset_y = y0 / 64u;")
        line("    grid[0] = x1 / 64u - x0 / 64u + 1u;")
        line("    grid[1] = y1 / 64u - y0 / 64u + 1u;")
        line("    pc->tile_count = grid[0] * grid[1];")
        line("    pc->tiles_per_workgroup = pc->unused = 0u; /* an update runs one tile per workgroup */")
        line("    return 0;")
        line("}")
        line("")
    end
    line("#endif")
    return table.concat(out, "\n") .. "\n"
end

return c_header
