-- fft_header.lua: an FFT's dispatch contract as a C header (--emit-header), so an engine
-- binds, sizes and dispatches the vendored shader from the same numbers spdgen used.
local fft_header = {}

function fft_header.render(cfg, k)
    local out = {}
    local function line(fmt, ...) out[#out + 1] = select("#", ...) > 0 and string.format(fmt, ...) or fmt end
    local P = "FFT_"
    local n = k.n
    line("/* spdgen %s: dispatch contract of a workgroup FFT.", cfg.version)
    line(" * Generated; regenerate with:")
    line(" *   %s", cfg.command)
    line(" * Entry point \"%s\"; push constants are 16 bytes (struct FftPushConstants). */", k.entry)
    line("#ifndef SPDGEN_FFT_CONTRACT_H")
    line("#define SPDGEN_FFT_CONTRACT_H")
    line("")
    line("#include <stdint.h>")
    line("")
    line("#define %sN %d", P, n)
    line("#define %sELEMENTS_PER_INVOCATION %d", P, k.ept)
    line("#define %sINVERSE %d /* 0: X[f] = sum x[j] exp(-2 pi i j f / N); 1: exp(+...) */", P,
        k.direction == "inverse" and 1 or 0)
    -- %.17g prints 1 for 1.0, and "1f" is not a C literal: keep a decimal point.
    local scale = string.format("%.17g", k.scale)
    if not scale:find("[.eE]") then scale = scale .. ".0" end
    line("#define %sSCALE %sf /* --norm %s: applied to every output value */", P, scale, k.norm)
    line("#define %sNATIVE_ORDER %d /* 1: the %s is in bit-reversed order (fft_native_index) */", P,
        k.order == "native" and 1 or 0, k.direction == "inverse" and "input" or "output")
    line("#define %sREAL %d /* two real rows per FFT, half spectra with X[0], X[N/2] packed */", P, k.real and 1 or 0)
    line("#define %sSTRIDED %d /* FFTs along columns: element j of column c at c + j * stride */", P, k.strided and 1 or 0)
    line("#define %sF16 %d /* elements stored as IEEE halves */", P, k.storage == "f16" and 1 or 0)
    line("#define %sTWIDDLE_LUT %d /* binding 2 holds N/2 float2 exp(-2 pi i k / N) */", P, k.twiddles == "lut" and 1 or 0)
    line("#define %sWORKGROUP_SIZE_X %d", P, k.workgroup[1])
    line("#define %sWORKGROUP_SIZE_Y 1", P)
    line("#define %sWORKGROUP_SIZE_Z 1", P)
    line("#define %sCOLUMNS_PER_WORKGROUP %d /* FFTs per workgroup: columns (--stride) or rows */", P, k.columns)
    line("/* 1: those rows run one after another (--prefetch-rows); 0: together, in registers or lanes. */")
    line("#define %sROWS_IN_TURN %d", P, k.rows_in_turn and 1 or 0)
    line("/* 1: the columns sit in lanes (WORKGROUP_SIZE_X = COLUMNS_PER_WORKGROUP x N / ELEMENTS_PER_INVOCATION;")
    line(" * invocation t runs column t mod COLUMNS_PER_WORKGROUP); 0: in each invocation's registers. */")
    line("#define %sCOLUMNS_IN_LANES %d", P, k.lanes and 1 or 0)
    line("/* Grid: workgroups for `count` FFTs (rows, pairs of real rows, or columns). */")
    line("#define %sGRID_X(count) (((count) + %du) / %du)", P, k.columns - 1, k.columns)
    line("#define %sSHARED_MEMORY_BYTES %d", P, k.shared_bytes)
    line("/* Subgroup size the shuffles assume (0: none). With >= 8 the pipeline must use full subgroups")
    line(" * and requiredSubgroupSize = this where the device can set it; 4: quad operations. */")
    line("#define %sSUBGROUP_SIZE %d", P, k.subgroup)
    line("/* Bytes of one element of the input and output buffers. */")
    line("#define %sSRC_ELEMENT_BYTES %d", P, k.element_bytes.src)
    line("#define %sDST_ELEMENT_BYTES %d", P, k.element_bytes.dst)
    line("")
    line("/* Bindings (descriptor set 0), all storage buffers. */")
    local names = { [0] = "SRC", [1] = "DST", [2] = "TWIDDLES" }
    for _, b in ipairs(k.bindings) do
        line("#define %sBINDING_%s %d /* %s */", P, names[b.binding], b.binding, b.doc)
    end
    line("")
    line("typedef struct FftPushConstants {")
    for _, p in ipairs(k.push_constants) do
        line("    uint32_t %s; /* offset %d: %s */", p.name, p.offset, p.doc)
    end
    line("} FftPushConstants;")
    line("")
    line("/* --order native: frequency f is stored at element fft_native_index(f), and element j")
    line(" * holds frequency fft_native_index(j) (bit reversal over log2(N) bits, an involution). */")
    line("static inline uint32_t fft_native_index(uint32_t k)")
    line("{")
    line("    uint32_t r = 0;")
    line("    for (uint32_t bit = 1; bit < %du; bit <<= 1, k >>= 1) r = (r << 1) | (k & 1u);", n)
    line("    return r;")
    line("}")
    if k.twiddles == "lut" then
        line("")
        line("/* Fills the twiddle table (binding 2): table[2k], table[2k+1] = cos, -sin of 2 pi k / N,")
        line(" * computed in double. Needs <math.h>. */")
        line("static inline void fft_fill_twiddles(float table[%d])", n)
        line("{")
        line("    for (uint32_t k = 0; k < %du; k++) {", n // 2)
        line("        double a = 6.283185307179586476925 * (double)k / %d.0;", n)
        line("        table[2 * k] = (float)cos(a);")
        line("        table[2 * k + 1] = (float)-sin(a);")
        line("    }")
        line("}")
    end
    line("")
    line("#endif")
    return table.concat(out, "\n") .. "\n"
end

return fft_header
