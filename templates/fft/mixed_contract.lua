-- mixed_contract.lua: what a mixed-radix or Bluestein FFT shader promises (the contract
-- table, the declarations as templates/lib/interface.lua data, the opening comment). The
-- contract's names are the power-of-two path's (docs/fft.md), so hosts and libspdrt treat
-- every FFT alike; Bluestein adds its two tables (bindings 2 and 3).
local radix = require("templates.fft.radix")
local common = require("templates.fft.common")

local contract = {}

local complex_of = common.complex_of

-- What the input and the output buffer hold, in words: Bluestein's passes here, every other
-- shape as the power-of-two path says it (common.lua).
local function describe_buffers(ctx)
    local f = ctx.f
    if f.real or not ctx.bpass then return common.describe_buffers(ctx) end
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
end

function contract.make(ctx)
    local f = ctx.f
    local n = ctx.n
    local bindings = common.buffer_bindings(describe_buffers(ctx))
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
    if ctx.rader then
        bindings[3] = { binding = 2, macro = "SPECTRUM", name = "spectrum", kind = "storage buffer",
            doc = string.format("%d float2: Rader's kernel spectrum, the %d-point FFT of b[p] = exp(%s2 pi i " ..
                "(g^-p mod %d) / %d) (g = %d) divided by %d, in double rounded to float " ..
                "(spdrt_fft_rader_tables)", ctx.m, ctx.m, ctx.forward and "-" or "+", n, n, ctx.root, ctx.m) }
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
    local flag = common.flag
    local per_wg = ctx.ffts
    local values = common.values(ctx, per_wg, {
        ept_doc = ctx.bluestein and string.format("of the %d-point FFTs of Bluestein's convolution", ctx.m)
            or ctx.rader and string.format("of the %d-point FFTs of Rader's convolution", ctx.m) or nil,
        native_order = { name = "NATIVE_ORDER", value = 0,
            doc = "mixed radix, Rader and Bluestein are in natural order" },
        twiddle_lut = { name = "TWIDDLE_LUT", value = 0, doc = "twiddles computed on the device" },
        rows_in_turn = { name = "ROWS_IN_TURN", value = 0, doc = "the FFTs of a workgroup run together, in lanes" },
        columns_in_lanes = { name = "COLUMNS_IN_LANES", value = flag(ctx.interleaved),
          doc = "1: invocation t runs FFT t mod COLUMNS_PER_WORKGROUP; 0: FFT t / (WORKGROUP_SIZE_X / " ..
              "COLUMNS_PER_WORKGROUP), each FFT's invocations consecutive" },
    })
    values[#values + 1] = { name = "STAGES", value = #ctx.plan.stages,
        doc = "mixed-radix stages (the opening comment lists them)" }
    if ctx.bluestein or ctx.bpass then
        values[#values + 1] = { name = "BLUESTEIN_M", value = ctx.m,
            doc = "Bluestein's convolution length: the tables' sizes are N and BLUESTEIN_M" }
    end
    if ctx.rader then
        values[#values + 1] = { name = "RADER_ROOT", value = ctx.root,
            doc = "Rader's primitive root g mod N: a convolution of N - 1 points whose table (binding 2) " ..
                "spdrt_fft_rader_tables(N, RADER_ROOT, inverse) computes" }
    end
    local k = {
        title = ctx.bpass and string.format("pass %d of a three-pass Bluestein FFT plan", f.pass.index)
            or f.pass and string.format("pass %d of a four-step FFT plan", f.pass.index)
            or ctx.bluestein and "a Bluestein FFT" or ctx.rader and "a Rader FFT" or "a mixed-radix workgroup FFT",
        entry = ctx.dialect.entry_name("fft"),
        workgroup = { ctx.invocations, 1, 1 },
        subgroup = 0,
        shared_bytes = ctx.slots * (ctx.components and 4 or common.SLOT_BYTES), -- by component: floats
        bindings = bindings,
        values = values,
        push_constants = common.push_constants(ctx),
        push_constant_bytes = 16,
        element_bytes = common.element_bytes(ctx),
    }
    common.set_grid(k, per_wg)
    return k
end

function contract.interface(ctx)
    local resources = common.buffer_resources(ctx)
    -- Bluestein's tables: the chirp (binding 2) and the kernel's spectrum (binding 3).
    local function chirp() return { kind = "storage_buffer", binding = 2, name = "chirp", block = "FftChirp",
        element = "float2", access = "read" } end
    local function spectrum(binding) return { kind = "storage_buffer", binding = binding or 3, name = "spectrum",
        block = "FftSpectrum", element = "float2", access = "read" } end
    if ctx.rader then
        resources[3] = spectrum(2)
    elseif ctx.bpass == 2 then
        resources[3] = spectrum()
    elseif ctx.bpass then
        resources[3] = chirp()
    end
    if ctx.bluestein then
        resources[3], resources[4] = chirp(), spectrum()
    end
    return common.interface(ctx, resources, {})
end

-- The plan in words: "1000 = 40 x 25: stage 1 radix 40 = 4 x 2 x 5 ...".
local function describe_stages(ctx)
    local parts, radices = {}, {}
    for s, st in ipairs(ctx.plan.stages) do
        radices[#radices + 1] = st.radix
        local idle = st.b * ctx.plan.w > st.flies and string.format(", %d invocations idle in the last",
            st.b * ctx.plan.w - st.flies) or ""
        parts[#parts + 1] = string.format("stage %d: %d butterflies of radix %s, %d per invocation%s%s", s,
            st.flies, radix.describe(st.radix), st.b, idle, st.rounds and (ctx.plan.components and
            string.format(", then an exchange through shared memory (2 rounds of %d floats: the real parts, " ..
            "then the imaginary)", ctx.plan.n * ctx.ffts) or string.format(", then an exchange " ..
            "through shared memory (%d round%s of %d slots)", st.rounds, st.rounds == 1 and "" or "s",
            ctx.plan.n // st.rounds * ctx.ffts)) or ", then the store")
    end
    return table.concat(radices, " x "), parts
end

function contract.header_comment(c, ctx)
    local cfg, f, k = ctx.cfg, ctx.f, ctx.contract
    local n = ctx.n
    common.comment_opening(c, ctx)
    local sign = ctx.forward and "-" or "+"
    local s = common.scale_text(ctx)
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
            "natural order. %d has a prime factor above 31, so Bluestein's chirp-z: with c[j] = exp(%s pi i " ..
            "j^2 / N), X[f] = c[f] sum_j (x[j] c[j]) conj c[f - j], a circular convolution of length M = %d = " ..
            "%d x %d (M1 x M2) >= 2N - 1, in three passes: 1. the chirp product and the FFTs of M1 points; " ..
            "2. the FFTs of M2 points, the product with the kernel's spectrum and the inverse FFTs of M2 " ..
            "points; 3. the inverse FFTs of M1 points and the chirp product. This pass: %s.", ctx.bpass,
            f.direction, ctx.big_n, sign, ctx.scale == 1 and "1 here" or s, f.norm, ctx.big_n, sign, M, M1, M2,
            this[ctx.bpass]))
    elseif f.pass then
        common.comment_pass_transform(c, ctx, "mixed-radix FFTs")
    elseif ctx.rader then
        c:hanging("// Transform: ", string.format("%s FFT of N = %d points (complex to complex), X[f] = s * " ..
            "sum_j x[j] exp(%s2 pi i j f / N), s = %s (--norm %s); input and output in natural order. %d is " ..
            "a prime above 31, so Rader's algorithm: with the primitive root g = %d, a[q] = x[g^q] and b[p] " ..
            "= exp(%s2 pi i g^-p / N), X[g^-m] = x[0] + (a (*) b)[m], a circular convolution of L = N - 1 = " ..
            "%d points done by a forward FFT, a product with the table `spectrum` and an inverse FFT, all " ..
            "in this workgroup; X[0] = x[0] + the sum of a.", f.direction, n, sign, s, f.norm, n, ctx.root,
            sign, ctx.m))
    elseif ctx.bluestein then
        c:hanging("// Transform: ", string.format("%s FFT of N = %d points (complex to complex), X[f] = s * " ..
            "sum_j x[j] exp(%s2 pi i j f / N), s = %s (--norm %s); input and output in natural order. %d has " ..
            "a prime factor above 31, so Bluestein's chirp-z: with c[j] = exp(%s pi i j^2 / N), X[f] = " ..
            "c[f] sum_j (x[j] c[j]) conj c[f - j], a circular convolution of length M = %d >= 2N - 1 done " ..
            "by a forward FFT of M points, a product with the table `spectrum` and an inverse FFT, all in " ..
            "this workgroup.", f.direction, n, sign, s, f.norm, n, sign, ctx.m))
    else
        common.comment_transform(c, ctx, "input and output in natural order")
    end
    common.comment_contract(c, ctx)
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
        "on the device from integer exponents (fft_twiddle).", (ctx.bluestein or ctx.rader) and ctx.m or f.n, radices,
        f.ept, ctx.plan.w))
    local two = ctx.bluestein or ctx.rader or ctx.bpass == 2
    c:comment(two and "Phases, in order (the forward FFT, then the inverse):" or "Phases, in order:")
    local i = 1
    c:hanging(string.format("//   %d. ", i), (ctx.bluestein or ctx.bpass == 1) and "load x[j] c[j] (zero for j >= N)"
        or ctx.rader and "load a[j] = x[g^j mod N]"
        or ctx.rows_staged and "load the workgroup's rows in order into shared memory, then each invocation's " ..
            "elements from there (the store goes back the same way)"
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
            or ctx.rader and "store X[0] = x[0] + A[0]; registers: times spectrum[f], plus x[0] at f = 0"
            or "registers: times spectrum[f]")
        list("inverse: ")
        i = i + 1
        c:hanging(string.format("//   %d. ", i), ctx.bluestein and "store X[f] = c[f] times the convolution, f < N"
            or ctx.rader and "store X[g^-j mod N] = output j" or "the store times the inverse four-step twiddles")
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
