-- mixed_contract.lua: what a mixed-radix or Bluestein FFT shader promises (the contract
-- table, the declarations as templates/lib/interface.lua data, the opening comment). The
-- contract's names are the power-of-two path's (docs/fft.md), so hosts and libspdrt treat
-- every FFT alike; Bluestein adds its two tables (bindings 2 and 3).
local interface = require("templates.lib.interface")
local twiddle = require("templates.fft.twiddle")
local radix = require("templates.fft.radix")

local contract = {}

local function complex_of(storage)
    return storage == "f16" and "complex values, each a uint of two IEEE halves (x low, y high)"
        or "complex values, each a float2 (x real, y imaginary)"
end

local function describe_buffers(ctx)
    local f, n = ctx.f, ctx.n
    local real = f.storage == "f16" and "real samples, IEEE halves two per uint (even j in the low half)"
        or "real samples, each a float"
    if f.real and ctx.forward then
        return string.format("real rows of %d %s; FFT b reads rows 2b and 2b+1 (x and y), row r at " ..
            "r * in_stride", n, real), string.format("half spectra, %d %s per row: row 2b = X[0..%d), " ..
            "row 2b+1 = Y[0..%d); element 0 packs (X[0], X[%d]) (both real), row r at r * out_stride",
            n // 2, complex_of(f.storage), n // 2, n // 2, n // 2)
    elseif f.real then
        return string.format("half spectra, %d %s per row: rows 2b and 2b+1 = X and Y of FFT b, element " ..
            "0 packing (X[0], X[%d]); row r at r * in_stride", n // 2, complex_of(f.storage), n // 2),
            string.format("real rows of %d %s: rows 2b and 2b+1 = x and y; row r at r * out_stride", n, real)
    elseif ctx.bpass then
        local M, cols, N = ctx.m, ctx.cols, ctx.big_n
        local scratch = "fp32 complex values, each a float2"
        if ctx.bpass == 1 then
            return string.format("%s; the transforms' rows of N = %d, row b at b * in_stride, each read as " ..
                "the first %d values of a %d x %d matrix (zero past them): this pass's FFT c is column c mod %d " ..
                "of row c / %d (element j at j * %d)", complex_of(ctx.src_storage), N, N, f.n, cols, cols, cols,
                cols), string.format("%s; scratch 1, %d per transform: FFT c writes its output times " ..
                "exp(-2 pi i (c mod %d) k / %d) as the contiguous row at c * %d", scratch, M, cols, M, f.n)
        elseif ctx.bpass == 2 then
            return string.format("%s; scratch 1: FFT c is column c mod %d of transform c / %d (element j " ..
                "at j * %d)", scratch, cols, cols, cols), string.format("%s; scratch 2, in the places of " ..
                "scratch 1: output k of FFT c times exp(+2 pi i (c mod %d) k / %d)", scratch, cols, M)
        end
        return string.format("%s; scratch 2, %d per transform: FFT c reads the contiguous row at c * %d",
            scratch, M, f.n), string.format("%s; the result in natural order, transform b at b * " ..
            "out_stride: output k of FFT c is frequency (c mod %d) + %d k, stored below N = %d",
            complex_of(ctx.dst_storage), cols, cols, N)
    elseif f.pass then
        local p, cols = f.pass, f.pass.n_total // f.n
        if p.index == 1 then
            return string.format("%s; the transforms' rows of %d, row b at b * in_stride, each read as a " ..
                "%d x %d matrix: this pass's FFT c is column c mod %d of row c / %d (element j at j * %d)",
                complex_of(ctx.src_storage), p.n_total, f.n, cols, cols, cols, cols),
                string.format("%s; scratch, %d per transform: FFT c writes its output times exp(%s2 pi i " ..
                "(c mod %d) k / %d) as the contiguous row at c * %d", complex_of(ctx.dst_storage), p.n_total,
                ctx.forward and "-" or "+", cols, p.n_total, f.n)
        end
        return string.format("%s; the scratch of pass 1: %d per transform, FFT c is column c mod %d of " ..
            "transform c / %d (element j at j * %d)", complex_of(ctx.src_storage), p.n_total, cols, cols, cols),
            string.format("%s; the result in natural order, transform b at b * out_stride: output k of FFT c " ..
            "is frequency (c mod %d) + %d k", complex_of(ctx.dst_storage), cols, cols)
    elseif f.strided then
        return string.format("%s; FFT c is column c: element j at c + j * in_stride", complex_of(f.storage)),
            string.format("%s; element j of column c at c + j * out_stride", complex_of(f.storage))
    end
    return string.format("%s; FFT b is row b: element j at b * in_stride + j", complex_of(f.storage)),
        string.format("%s; element j of row b at b * out_stride + j", complex_of(f.storage))
end

function contract.make(ctx)
    local f = ctx.f
    local n = ctx.n
    local src, dst = describe_buffers(ctx)
    local bindings = {
        { binding = 0, macro = "SRC", name = "src", kind = "storage buffer", doc = "input, read-only: " .. src },
        { binding = 1, macro = "DST", name = "dst", kind = "storage buffer", doc = "output, write-only: " .. dst },
    }
    if ctx.bpass then
        local M, N = ctx.m, ctx.big_n
        if ctx.bpass == 2 then
            bindings[3] = { binding = 3, macro = "SPECTRUM", name = "spectrum", kind = "storage buffer",
                doc = string.format("%d float2: Bluestein's kernel spectrum divided by %d, in natural " ..
                    "order (spdrt_fft_bluestein_tables)", M, M) }
        else
            bindings[3] = { binding = 2, macro = "CHIRP", name = "chirp", kind = "storage buffer",
                doc = string.format("%d float2: c[j] = exp(%s pi i (j^2 mod %d) / %d) " ..
                    "(spdrt_fft_bluestein_tables)", N, ctx.forward and "-" or "+", 2 * N, N) }
        end
    end
    if ctx.bluestein then
        bindings[3] = { binding = 2, macro = "CHIRP", name = "chirp", kind = "storage buffer",
            doc = string.format("%d float2: c[j] = exp(%s pi i (j^2 mod %d) / %d), computed in double on " ..
                "the host and rounded to float (spdrt_fft_bluestein_tables)", n, ctx.forward and "-" or "+",
                2 * n, n) }
        bindings[4] = { binding = 3, macro = "SPECTRUM", name = "spectrum", kind = "storage buffer",
            doc = string.format("%d float2: the spectrum of the chirp's conjugate b[j] = conj c[j] for |j| " ..
                "< %d, zero otherwise, placed mod %d, divided by %d: FFT_%d(b) / %d in double, rounded to " ..
                "float (spdrt_fft_bluestein_tables)", ctx.m, n, ctx.m, ctx.m, ctx.m, ctx.m) }
    end
    local function flag(v) return v and 1 or 0 end
    local per_wg = ctx.ffts
    local elem = { src = ctx.elements.src == "float2" and 8 or 4, dst = ctx.elements.dst == "float2" and 8 or 4 }
    local values = {
        { name = "N", value = n },
        { name = "ELEMENTS_PER_INVOCATION", value = f.ept, doc = ctx.bluestein and
            string.format("of the %d-point FFTs of Bluestein's convolution", ctx.m) or nil },
        { name = "INVERSE", value = flag(f.direction == "inverse"),
          doc = "0: X[f] = sum x[j] exp(-2 pi i j f / N); 1: exp(+...)" },
        { name = "SCALE", value = ctx.scale + 0.0, doc = "--norm " .. f.norm .. ": applied to every output value" },
        { name = "NATIVE_ORDER", value = 0, doc = "mixed radix and Bluestein are in natural order" },
        { name = "REAL", value = flag(f.real), doc = "two real rows per FFT, half spectra with X[0], X[N/2] packed" },
        { name = "STRIDED", value = flag(f.strided), doc = "FFTs along columns: element j of column c at c + j * stride" },
        { name = "F16", value = flag(f.storage == "f16"), doc = "elements stored as IEEE halves" },
        { name = "TWIDDLE_LUT", value = 0, doc = "twiddles computed on the device" },
        { name = "COLUMNS_PER_WORKGROUP", value = per_wg, doc = "FFTs per workgroup: columns (--stride) or rows" },
        { name = "ROWS_IN_TURN", value = 0, doc = "the FFTs of a workgroup run together, in lanes" },
        { name = "COLUMNS_IN_LANES", value = flag(ctx.interleaved),
          doc = "1: invocation t runs FFT t mod COLUMNS_PER_WORKGROUP; 0: FFT t / (WORKGROUP_SIZE_X / " ..
              "COLUMNS_PER_WORKGROUP), each FFT's invocations consecutive" },
        { name = "SRC_ELEMENT_BYTES", value = elem.src, doc = "bytes of one element of the input buffer" },
        { name = "DST_ELEMENT_BYTES", value = elem.dst, doc = "bytes of one element of the output buffer" },
        { name = "STAGES", value = #ctx.plan.stages, doc = "mixed-radix stages (the opening comment lists them)" },
    }
    if ctx.bluestein or ctx.bpass then
        values[#values + 1] = { name = "BLUESTEIN_M", value = ctx.m,
            doc = "Bluestein's convolution length: the tables' sizes are N and BLUESTEIN_M" }
    end
    return {
        title = ctx.bpass and string.format("pass %d of a three-pass Bluestein FFT plan", f.pass.index)
            or f.pass and string.format("pass %d of a four-step FFT plan", f.pass.index)
            or ctx.bluestein and "a Bluestein FFT" or "a mixed-radix workgroup FFT",
        entry = ctx.dialect.entry_name("fft"),
        workgroup = { ctx.invocations, 1, 1 },
        grid_text = { per_wg == 1 and "count" or string.format("(count + %d) / %d", per_wg - 1, per_wg), "1", "1" },
        grid_doc = "Grid: workgroups for `count` FFTs (rows, pairs of real rows, or columns), the push " ..
            "constant count.",
        grid = { { arg = "count", per = per_wg }, {}, {} },
        subgroup = 0,
        shared_bytes = ctx.slots * 8,
        bindings = bindings,
        values = values,
        push_constants = {
            { name = "count", offset = 0, doc = f.strided and "columns to transform (FFTs)"
                or f.real and "FFTs: pairs of real rows" or "rows to transform (FFTs)" },
            { name = "in_stride", offset = 4, doc = string.format("distance between %s of the input, in %s",
                f.strided and "consecutive elements of a column" or "rows",
                (f.real and ctx.forward) and "real samples" or "complex elements") },
            { name = "out_stride", offset = 8, doc = string.format("the same for the output, in %s",
                (f.real and not ctx.forward) and "real samples" or "complex elements") },
            { name = "unused", offset = 12, doc = "padding to 16 bytes" },
        },
        push_constant_bytes = 16,
        element_bytes = elem,
    }
end

function contract.interface(ctx)
    local resources = {
        { kind = "storage_buffer", binding = 0, name = "src", block = "FftSource", element = ctx.elements.src,
          access = "read" },
        { kind = "storage_buffer", binding = 1, name = "dst", block = "FftDestination",
          element = ctx.elements.dst, access = "write" },
    }
    if ctx.bpass == 2 then
        resources[3] = { kind = "storage_buffer", binding = 3, name = "spectrum", block = "FftSpectrum",
            element = "float2", access = "read" }
    elseif ctx.bpass then
        resources[3] = { kind = "storage_buffer", binding = 2, name = "chirp", block = "FftChirp",
            element = "float2", access = "read" }
    end
    if ctx.bluestein then
        resources[3] = { kind = "storage_buffer", binding = 2, name = "chirp", block = "FftChirp",
            element = "float2", access = "read" }
        resources[4] = { kind = "storage_buffer", binding = 3, name = "spectrum", block = "FftSpectrum",
            element = "float2", access = "read" }
    end
    local fields = {}
    for _, p in ipairs(ctx.contract.push_constants) do fields[#fields + 1] = { type = "uint", name = p.name } end
    local shared = {}
    if ctx.slots > 0 then
        shared[1] = ctx.paired and { type = "float2", name = "fft_c", count = ctx.slots }
            or { type = "float", name = "fft_re", count = ctx.slots }
        if not ctx.paired then shared[2] = { type = "float", name = "fft_im", count = ctx.slots } end
    end
    return interface.new(ctx.dialect, {
        kernel = "fft", local_size = { ctx.invocations, 1, 1 }, resources = resources,
        params = { block = "FftParams", name = "params", fields = fields }, shared = shared,
        builtins = { "t", "group" }, features = {},
    })
end

-- The plan in words: "1000 = 40 x 25: stage 1 radix 40 = 4 x 2 x 5 ...".
local function describe_stages(ctx)
    local parts, radices = {}, {}
    for s, st in ipairs(ctx.plan.stages) do
        radices[#radices + 1] = st.radix
        local idle = st.b * ctx.plan.w > st.flies and string.format(", %d invocations idle in the last",
            st.b * ctx.plan.w - st.flies) or ""
        parts[#parts + 1] = string.format("stage %d: %d butterflies of radix %s, %d per invocation%s%s", s,
            st.flies, radix.describe(st.radix), st.b, idle, st.rounds and string.format(", then an exchange " ..
            "through shared memory (%d round%s of %d slots)", st.rounds, st.rounds == 1 and "" or "s",
            ctx.plan.n // st.rounds * ctx.ffts) or ", then the store")
    end
    return table.concat(radices, " x "), parts
end

function contract.header_comment(c, ctx)
    local cfg, f, k = ctx.cfg, ctx.f, ctx.contract
    local n = ctx.n
    c:line("// spdgen %s: workgroup FFT, %s.", cfg.version, ctx.dialect.language)
    c:line("// Generated; regenerate with:")
    c:command(cfg.command)
    c:line("//")
    local sign = ctx.forward and "-" or "+"
    local s = ctx.scale == 1 and "1" or twiddle.literal(ctx.scale):gsub("f$", "")
    local what = f.real and (ctx.forward and "two real rows -> their half spectra"
        or "two half spectra -> two real rows") or "complex to complex"
    if ctx.bpass then
        local M, cols = ctx.m, ctx.cols
        local M1, M2 = ctx.bpass == 2 and cols or f.n, ctx.bpass == 2 and f.n or cols
        local this = {
            "the chirp product x[j] c[j] (zero for j >= N), the forward FFTs of M1 points over the " ..
            "columns of the M1 x M2 matrix and the four-step twiddles exp(-2 pi i j2 k1 / M)",
            "per frequency k1 the forward FFT of M2 points, the product with the kernel's spectrum at " ..
            "k1 + M1 k2 and the inverse FFT of M2 points, times the inverse's twiddles exp(+2 pi i k1 n2 / M)",
            "per n2 the inverse FFT of M1 points and the chirp product, X[n2 + M2 n1] for n2 + M2 n1 < N",
        }
        c:hanging("// Transform: ", string.format("pass %d of 3 of a %s FFT of N = %d points (complex to " ..
            "complex), X[f] = s * sum_j x[j] exp(%s2 pi i j f / N), s = %s (--norm %s); input and output in " ..
            "natural order. %d has a prime factor above 13, so Bluestein's chirp-z: with c[j] = exp(%s pi i " ..
            "j^2 / N), X[f] = c[f] sum_j (x[j] c[j]) conj c[f - j], a circular convolution of length M = %d = " ..
            "%d x %d (M1 x M2) >= 2N - 1, in three passes: 1. the chirp product and the FFTs of M1 points; " ..
            "2. the FFTs of M2 points, the product with the kernel's spectrum and the inverse FFTs of M2 " ..
            "points; 3. the inverse FFTs of M1 points and the chirp product. This pass: %s.", ctx.bpass,
            f.direction, ctx.big_n, sign, ctx.scale == 1 and "1 here" or s, f.norm, ctx.big_n, sign, M, M1, M2,
            this[ctx.bpass]))
    elseif f.pass then
        local p, cols = f.pass, f.pass.n_total // f.n
        c:hanging("// Transform: ", string.format("pass %d of %d of a four-step %s FFT of N = %d points = " ..
            "%d x %d (X[f] = s * sum_j x[j] exp(%s2 pi i j f / N), s = %s, --norm %s; natural order). This " ..
            "pass runs %d mixed-radix FFTs of %d points per transform%s.", p.index, p.count, f.direction,
            p.n_total, p.index == 1 and f.n or cols, p.index == 1 and cols or f.n, sign,
            ctx.scale == 1 and "1 here" or s, f.norm, cols, f.n, p.index == 1 and ", over the columns of " ..
            "the transform read as a matrix, then multiplies by the four-step twiddles" or
            ", over the columns of pass 1's scratch"))
    elseif ctx.bluestein then
        c:hanging("// Transform: ", string.format("%s FFT of N = %d points (complex to complex), X[f] = s * " ..
            "sum_j x[j] exp(%s2 pi i j f / N), s = %s (--norm %s); input and output in natural order. %d has " ..
            "a prime factor above 13, so Bluestein's chirp-z: with c[j] = exp(%s pi i j^2 / N), X[f] = " ..
            "c[f] sum_j (x[j] c[j]) conj c[f - j], a circular convolution of length M = %d >= 2N - 1 done " ..
            "by a forward FFT of M points, a product with the table `spectrum` and an inverse FFT, all in " ..
            "this workgroup.", f.direction, n, sign, s, f.norm, n, sign, ctx.m))
    else
        c:hanging("// Transform: ", string.format("%s FFT of N = %d points (%s), X[f] = s * sum_j x[j] " ..
            "exp(%s2 pi i j f / N), s = %s (--norm %s); input and output in natural order.", f.direction, n,
            what, sign, s, f.norm))
    end
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        c:hanging(string.format("//   %s %s: ", ctx.interface:binding_label(b.binding), b.name), b.doc)
    end
    local pcs = {}
    for _, p in ipairs(k.push_constants) do pcs[#pcs + 1] = p.name end
    c:line("//   %s, FftParams params: uint %s (16 bytes)", ctx.interface:params_label(), table.concat(pcs, ", "))
    c:hanging("//   ", string.format("workgroup %dx1x1 = %d FFT%s x %d invocations, dispatch (%s, 1, 1)%s",
        ctx.invocations, ctx.ffts, ctx.ffts == 1 and "" or "s", ctx.plan.w, k.grid_text[1],
        ctx.ffts == 1 and "" or ctx.interleaved and string.format(": invocation t runs FFT col0 + t mod %d " ..
            "as its invocation t / %d, so neighbouring invocations load the same element of neighbouring " ..
            "columns", ctx.ffts, ctx.ffts) or string.format(": invocation t runs FFT fft0 + t / %d as its " ..
            "invocation t mod %d", ctx.plan.w, ctx.plan.w)))
    c:hanging("//   ", string.format("shared memory %d bytes; no subgroup operations%s", k.shared_bytes,
        cfg.subgroup > 0 and string.format(" (--subgroup %d is not used: a Stockham exchange moves each " ..
            "register to a lane that varies across the subgroup)", cfg.subgroup) or ""))
    c:line("//")
    local radices, parts = describe_stages(ctx)
    c:comment(string.format("Plan: %s = %s, %d elements per invocation x %d invocations (E x W; a stage " ..
        "whose radix does not divide E leaves invocations idle), Stockham autosort: each stage's outputs " ..
        "go where the next stage reads them, so input and output are in natural order. Twiddles: computed " ..
        "on the device from integer exponents (fft_twiddle).", ctx.bluestein and ctx.m or f.n, radices,
        f.ept, ctx.plan.w))
    local two = ctx.bluestein or ctx.bpass == 2
    c:comment(two and "Phases, in order (the forward FFT, then the inverse):" or "Phases, in order:")
    local i = 1
    c:hanging(string.format("//   %d. ", i), (ctx.bluestein or ctx.bpass == 1) and "load x[j] c[j] (zero for j >= N)"
        or "load")
    local function list(prefix)
        for _, text in ipairs(parts) do
            i = i + 1
            c:hanging(string.format("//   %d. ", i), prefix .. text)
        end
    end
    if two then
        list("forward: ")
        i = i + 1
        c:hanging(string.format("//   %d. ", i), ctx.bpass and "registers: times spectrum[k1 + M1 k2]"
            or "registers: times spectrum[f]")
        list("inverse: ")
        i = i + 1
        c:hanging(string.format("//   %d. ", i), ctx.bluestein and "store X[f] = c[f] times the convolution, f < N"
            or "the store times the inverse four-step twiddles")
    elseif ctx.bpass then
        list("")
        i = i + 1
        c:hanging(string.format("//   %d. ", i), ctx.bpass == 1 and "the store times the four-step twiddles"
            or "store X[f] = c[f] times the convolution, f < N")
    else
        list("")
        if f.real and ctx.forward then
            i = i + 1
            c:hanging(string.format("//   %d. ", i), "shared memory: Z[f] meets Z[N - f]; unpack and store " ..
                "two real rows' half spectra")
        end
    end
    c:blank()
end

return contract
