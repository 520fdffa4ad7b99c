-- mixed_columns.lua: the passes along the second axis A2 (spectrum2 with --spectrum exact,
-- pass2) where its padded length is not a power of two. As columns.lua: a workgroup runs C
-- neighbouring columns k1 of one channel in lanes (invocation t runs column col0 + t mod C
-- as FFT invocation it = t / C), element a2 of column k1 unpacked from its pair's z. The
-- stages are mixed radix in natural order (mixed_fft.lua) and every radix divides E, so the
-- forward FFT's output x of register k is the inverse's input x of the same register: the
-- product with the kernel spectrum sits between them with no exchange.
--   spectrum2: forward FFT, sign (-1)^(k1 + k2) (the FFTShift), to the kernel spectrum at
--              (c * P2 + k2) * (P1/2 + 1) + k1, natural order as pass 2 reads it
--   pass2:     forward FFT, product with the kernel spectrum (exact, or as the resample
--              shader stored it, in natural order), inverse FFT, the lines of the image stored
local mixed_fft = require("templates.conv.mixed_fft")
local lines = require("templates.conv.lines")
local padding = require("templates.conv.padding")

local mixed_columns = {}

local u, plus = mixed_fft.u, mixed_fft.plus

function mixed_columns.prepare(ctx)
    ctx.segments = { { text = "load two lines' spectra and unpack the column" },
        { text = mixed_fft.phase_text(ctx, "the forward FFT") } }
    if ctx.role == "pass2" then
        ctx.segments[#ctx.segments + 1] = { text = "product with the kernel spectrum" }
        ctx.segments[#ctx.segments + 1] = { text = mixed_fft.phase_text(ctx, "the inverse FFT") }
    end
    ctx.segments[#ctx.segments + 1] = { text = "store" }
end

function mixed_columns.emit_helpers(c, ctx)
    mixed_fft.emit_helpers(c, ctx)
    if ctx.cfg.padding == "mirror" and ctx.role == "pass2" then padding.emit_helper(c) end
end

local function lengths(ctx)
    local s = ctx.sizes
    if ctx.role == "spectrum2" then return s.q1, s.q2 end
    return s.p1, s.p2
end

local function emit_column(c, ctx)
    local cfg = ctx.cfg
    local l1 = lengths(ctx)
    local gpc, C = cfg.shape.groups_per_channel, ctx.columns
    c:line("uint ch = group.x / %s;", u(gpc))
    c:line("if (ch >= %s) return;", u(cfg.channels))
    c:line("uint col0 = (group.x - ch * %s) * %s;", u(gpc), u(C))
    if C > 1 then
        c:note(string.format("uint row = t %% %s;", u(C)), "which of the workgroup's columns")
        c:note(string.format("uint it = t / %s;", u(C)), "the invocation's index in its column's FFT")
        c:line("uint col = col0 + row;")
    else
        c:line("uint it = t;")
        c:line("uint col = col0;")
    end
    c:note(string.format("bool live = col <= %s;", u(l1 // 2)), "columns past L1/2 read safely, store nothing")
    c:line("uint colr = live ? col : 0u;")
    c:note(string.format("uint colm = colr == 0u ? 0u : %s - colr;", u(l1)), "-k1: where Z[-k1] is")
end

-- The load: element a2 = it + W k of column k1, unpacked from its pair's z.
local function emit_load(c, ctx)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum2"
    local l1, l2 = lengths(ctx)
    local pairs = psf and ctx.strides.zk_pairs or ctx.strides.z_pairs
    local buffer = psf and "zk" or "z"
    c:comment(string.format("Load: register k holds element a2 = it + %d k of column k1 = col: line a2's " ..
        "spectrum at k1, from pair a2 / 2's z (channel c, pair p at (c * %d + p) * %d). %s", ctx.plan.w,
        pairs, l1, psf and string.format("The PSF's lines sit with their centre (psf lines / 2) at %d: a2 " ..
        "reads PSF line a2 + centre - %d, zero outside.", l2 // 2, l2 // 2) or (cfg.padding == "zero" and
        "Past the image the padding is zero." or "Past the image the padding reads the image's lines " ..
        "mirrored (conv_mirror).")))
    c:line("uint zch = ch * %s;", u(pairs))
    ctx.reg_prefix = "v"
    return mixed_fft.each_input(c, ctx, function(reg, x)
        c:block("", function()
            c:line("uint a2 = %s;", plus("it", x))
            local valid
            if psf then
                c:line("uint shifted = a2 + (extent2 >> 1u);")
                c:line("bool r_in = shifted >= %s && shifted - %s < extent2;", u(l2 // 2), u(l2 // 2))
                c:line("uint r = r_in ? shifted - %s : 0u;", u(l2 // 2))
                valid = "r_in"
            else
                valid = padding.source(c, cfg, "a2", "extent2", l2, "r")
            end
            c:line("uint at = (zch + (r >> 1u)) * %s;", u(l1))
            c:line("$float2 za = %s;", lines.load_complex(ctx, buffer, "at + colr"))
            c:line("$float2 zb = %s;", lines.load_complex(ctx, buffer, "at + colm"))
            c:note("$float2 m = $float2(zb.x, -zb.y);", "conj Z[-k1]")
            c:note("$float2 d = (r & 1u) == 0u ? za + m : $float2(za.y - m.y, m.x - za.x);",
                "2 X0, or 2 X1 = (Z - conj Z[-k]) / i")
            c:line("%s = %s ? d * 0.5f : $float2(0.0f, 0.0f);", reg, valid and ("live && " .. valid) or "live")
        end)
    end)
end

-- spectrum2's store: H(k1, k2) with the FFTShift sign, where pass 2 reads it.
local function emit_spectrum_store(c, ctx, out)
    local l2 = select(2, lengths(ctx))
    local half1 = ctx.strides.half1
    assert(ctx.cfg.spectrum == "exact", "conv: a resampled kernel spectrum keeps power-of-two sides")
    c:comment(string.format("Store: H(k1, k2) = (-1)^(k1 + k2) times the transform (the PSF's centre sat " ..
        "at the middle of each axis), at (c * %d + k2) * %d + k1, k2 = it + %d k in register k.", l2, half1,
        ctx.plan.w))
    c:line("uint sch = ch * %s;", u(l2))
    mixed_fft.each_output(ctx, out, function(reg, x, _, _, bound)
        c:block(bound and string.format("if (live && it < %s)", u(bound)) or "if (live)", function()
            c:line("uint k2 = %s;", x)
            c:line("$float2 h = ((col + k2) & 1u) != 0u ? -%s : %s;", reg, reg)
            c:line(lines.store_complex(ctx, "spectrum", string.format("(sch + k2) * %s + col", u(half1)), "h"))
        end)
    end)
end

-- pass2's product: the kernel spectrum at (k1, k2), the lerp toward a delta, the inverse's
-- norm 1/P2; the registers stay where they are for the inverse (every radix divides E).
local function emit_product(c, ctx, out)
    local s, st = ctx.sizes, ctx.plan.stages[#ctx.plan.stages]
    local half1 = ctx.strides.half1
    c:comment(string.format("Product: H at (c * %d + k2) * %d + k1 (%s stored it in natural order), k2 = " ..
        "it + %d k in register k; the sharpening lerp toward a delta, H + sharpen (1 - H); and 1/%d, the " ..
        "inverse's norm along A2.", s.p2, half1, ctx.cfg.spectrum == "exact" and "spectrum2" or
        "the resample shader", ctx.plan.w, s.p2))
    c:line("uint sch = ch * %s;", u(s.p2))
    local scale = mixed_fft.literal(1 / s.p2)
    local nxt = {}
    mixed_fft.each_output(ctx, out, function(reg, x, q, m)
        c:block("", function()
            c:line("$float2 h = %s;", lines.load_complex(ctx, "spectrum",
                string.format("(sch + %s) * %s + colr", mixed_fft.factor(x), u(half1))))
            c:line("h = h + params.sharpen * ($float2(1.0f, 0.0f) - h);")
            c:line("%s = fft_mul(%s, h) * %s;", reg, reg, scale)
        end)
        nxt[q + m * st.b] = reg
    end)
    return nxt
end

-- pass2's store: line a2 of the image's half spectrum at k1; lines past the image are not
-- written.
local function emit_half_store(c, ctx, out)
    local half1, e2 = ctx.strides.half1, ctx.sizes.e2
    c:comment(string.format("Store: line a2 = it + %d k of the image at (c * %d + a2) * %d + k1; lines past " ..
        "the image are not written.", ctx.plan.w, e2, half1))
    c:line("uint ych = ch * %s;", u(e2))
    mixed_fft.each_output(ctx, out, function(reg, x)
        c:line("if (live && %s < extent2) %s", mixed_fft.factor(x), lines.store_complex(ctx, "y",
            string.format("(ych + %s) * %s + col", mixed_fft.factor(x), u(half1)), reg))
    end)
end

function mixed_columns.emit_body(c, ctx)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum2"
    local w, h = psf and "params.psf_width" or "params.width", psf and "params.psf_height" or "params.height"
    c:line("uint extent2 = %s;", cfg.first_axis == "x" and h or w)
    emit_column(c, ctx)
    mixed_fft.declare(c, ctx, { "v" })
    c:blank()
    local phys = emit_load(c, ctx)
    c:blank()
    local out = mixed_fft.run(c, ctx, phys, "v", -1, string.format("Forward FFT of %d points. ", cfg.shape.n))
    c:blank()
    if psf then
        emit_spectrum_store(c, ctx, out)
        return
    end
    local nxt = emit_product(c, ctx, out)
    c:blank()
    ctx.twiddle_fn, ctx.run_prefix = "fft_twiddle_inverse", "i"
    out = mixed_fft.run(c, ctx, nxt, "v", 1, string.format("Inverse FFT of %d points. ", cfg.shape.n))
    c:blank()
    emit_half_store(c, ctx, out)
end

return mixed_columns
