-- mixed_columns.lua: the passes along the second axis A2 (spectrum2 with --spectrum exact,
-- pass2) where its padded length is not a power of two. As columns.lua: a workgroup runs C
-- neighbouring columns k1 of one channel in lanes (invocation t runs column col0 + t mod C
-- as FFT invocation it = t / C), element a2 of column k1 unpacked from its pair's z. The
-- stages are mixed radix in natural order (mixed_fft.lua) and every radix divides E, so the
-- forward FFT's output x of register k is the inverse's input x of the same register: the
-- product with the kernel spectrum sits between them with no exchange.
--   spectrum2: forward FFT, sign (-1)^(k1 + k2) (the FFTShift), to the kernel spectrum at
--              (c * P2 + k2) * (P1/2 + 1) + k1, natural order as pass 2 reads it
--   pass2:     forward FFT, product with the kernel spectrum (exact: spectrum2's rows in
--              natural order; resampled: each register's slot, resample.lua), inverse FFT,
--              the lines of the image stored
local mixed_fft = require("templates.conv.mixed_fft")
local lines = require("templates.conv.lines")
local columns = require("templates.conv.columns")
local padding = require("templates.conv.padding")
local tiles = require("templates.conv.tiles")

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

local function emit_column(c, ctx)
    local C = ctx.columns
    columns.emit_column(c, ctx, function()
        if C > 1 then
            c:note(string.format("uint row = t %% %s;", u(C)), "which of the workgroup's columns")
            c:note(string.format("uint it = t / %s;", u(C)), "the invocation's index in its column's FFT")
            c:line("uint col = col0 + row;")
        else
            c:line("uint it = t;")
            c:line("uint col = col0;")
        end
    end)
end

-- The load: element a2 = it + W k of column k1, unpacked from its pair's z.
local function emit_load(c, ctx)
    columns.emit_load_head(c, ctx, "element a2 = " .. mixed_fft.element_text(ctx, true))
    ctx.reg_prefix = "v"
    return mixed_fft.each_input(c, ctx, function(reg, x)
        c:block("", function()
            c:line("uint a2 = %s;", plus("it", x))
            columns.emit_unpack(c, ctx, reg)
        end)
    end)
end

-- spectrum2's store: H(k1, k2) with the FFTShift sign, where pass 2 reads it.
local function emit_spectrum_store(c, ctx, out)
    assert(ctx.cfg.spectrum == "exact", "conv: a resampled kernel spectrum keeps power-of-two sides")
    c:comment(string.format("Store: H(k1, k2) = (-1)^(k1 + k2) times the transform (the PSF's centre sat " ..
        "at the middle of each axis), in row k2 of this column's tile, %d values a row (tiles.lua), k2 = %s.",
        tiles.of(ctx, "spectrum").width, mixed_fft.element_text(ctx, false)))
    local row = tiles.emit_column_base(c, ctx, "spectrum", "stile").width
    mixed_fft.each_output(ctx, out, function(reg, x, _, _, bound)
        c:block(bound and string.format("if (live && it < %s)", u(bound)) or "if (live)", function()
            c:line("uint k2 = %s;", x)
            c:line("$float2 h = ((col + k2) & 1u) != 0u ? -%s : %s;", reg, reg)
            c:line(lines.store_complex(ctx, "spectrum", string.format("stile + k2 * %s", u(row)), "h"))
        end)
    end)
end

-- pass2's product: the kernel spectrum at (k1, k2), the lerp toward a delta, the inverse's
-- norm 1/P2; the registers stay where they are for the inverse (every radix divides E).
local function emit_product(c, ctx, out)
    local s, st = ctx.sizes, ctx.plan.stages[#ctx.plan.stages]
    local resampled = ctx.cfg.spectrum == "resampled"
    local row
    local after = string.format("the sharpening lerp toward a delta, H + sharpen (1 - H); and 1/%d, the " ..
        "inverse's norm along A2. Every radix divides E, so each register holds the same index for the " ..
        "inverse's first stage.", s.p2)
    if resampled then
        columns.emit_slot_base(c, ctx, string.format("Product: H at k2 = %s, in this invocation's slots (the " ..
            "resample stored register q R + m's value at sbase + (q R + m) I); %s",
            mixed_fft.element_text(ctx, false), after))
    else
        c:comment(string.format("Product: H in row k2 of this column's tile (spectrum2 stored it in natural " ..
            "order), k2 = %s; %s", mixed_fft.element_text(ctx, false), after))
        row = tiles.emit_column_base(c, ctx, "spectrum", "stile").width
    end
    local scale = mixed_fft.literal(1 / s.p2)
    local nxt = {}
    mixed_fft.each_output(ctx, out, function(reg, x, q, m)
        c:block("", function()
            c:line("$float2 h = %s;", lines.load_complex(ctx, "spectrum", resampled and
                columns.slot(ctx, q * st.radix + m) or
                string.format("stile + %s * %s", mixed_fft.factor(x), u(row))))
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
    c:comment(string.format("Store: line a2 = %s of the image in row a2 of this column's tile of y, %d " ..
        "values a row (tiles.lua); lines past the image are not written.", mixed_fft.element_text(ctx, false),
        tiles.of(ctx, "y").width))
    local row = tiles.emit_column_base(c, ctx, "y", "yt").width
    mixed_fft.each_output(ctx, out, function(reg, x)
        c:line("if (live && %s < extent2) %s", mixed_fft.factor(x), lines.store_complex(ctx, "y",
            string.format("yt + %s * %s", mixed_fft.factor(x), u(row)), reg))
    end)
end

function mixed_columns.emit_body(c, ctx)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum2"
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
