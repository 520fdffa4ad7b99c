-- c_header.lua: renders a kernel's dispatch contract as a C header (--emit-header), so an
-- engine binds and dispatches the vendored shader from the same numbers spdgen used.
local c_header = {}

function c_header.render(cfg, contract)
    if contract.kernel == "fft" then return require("templates.fft_header").render(cfg, contract) end
    local out = {}
    local function line(fmt, ...) out[#out + 1] = select("#", ...) > 0 and string.format(fmt, ...) or fmt end
    local P = "SPD_"
    line("/* spdgen %s: dispatch contract of a single-pass downsampler (SPD).", cfg.version)
    line(" * Generated; regenerate with:")
    line(" *   %s", cfg.command)
    line(" * Entry point \"%s\"; push constants are 16 bytes (struct SpdPushConstants). */", contract.entry)
    line("#ifndef SPDGEN_SPD_CONTRACT_H")
    line("#define SPDGEN_SPD_CONTRACT_H")
    line("")
    line("#include <stdint.h>")
    line("")
    line("#define %sWORKGROUP_SIZE_X %d", P, contract.workgroup[1])
    line("#define %sWORKGROUP_SIZE_Y %d", P, contract.workgroup[2])
    line("#define %sWORKGROUP_SIZE_Z %d", P, contract.workgroup[3])
    line("/* Grid: one workgroup per 64x64 tile of level 0, one layer of workgroups per slice. */")
    line("#define %sGRID_X(src_width) (((src_width) + 63u) / 64u)", P)
    line("#define %sGRID_Y(src_height) (((src_height) + 63u) / 64u)", P)
    line("#define %sGRID_Z(layers) (%s)", P, contract.array and "(layers)" or "1u")
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
    local names = { [0] = "SOURCE", [1] = "MIPS", [2] = "COUNTERS", [3] = "LEVEL6" }
    for _, b in ipairs(contract.bindings) do
        line("#define %sBINDING_%s %d /* %s: %s */", P, names[b.binding], b.binding, b.kind, b.doc)
    end
    if contract.mips > 6 then
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
    line("#endif")
    return table.concat(out, "\n") .. "\n"
end

return c_header
