-- columns.lua: the passes along the second axis A2 (spectrum2, pass2). A workgroup runs C
-- neighbouring columns k1 (frequencies along A1, 0..L1/2) of one channel in lanes
-- (invocation t runs column col0 + t mod C), so each load and store of a subgroup covers C
-- neighbouring values. Element a2 of column k1 is line a2's spectrum at k1, unpacked from
-- its pair's z = line0 + i line1: X0[k] = (Z[k] + conj Z[-k]) / 2, X1[k] = (Z[k] - conj
-- Z[-k]) / 2i, so the line passes never unpack and this pass reads each value of z once.
--   spectrum2: forward FFT, sign (-1)^(k1 + k2) (the PSF's centre sat at L/2: the FFTShift),
--              to the kernel spectrum (exact: in bit-reversed order along A2, as pass 2 holds
--              it; resampled: natural order, the whole L1 x L2 spectrum)
--   pass2:     forward FFT (DIF, bit-reversed output), product with the kernel spectrum
--              (exact: as spectrum2 stored it; resampled: in pass 2's register order, as
--              resample.lua stored it), the inverse as conj(FFT(conj(.))) by a DIT from
--              where the forward left each value (inverse.lua): no reorder anywhere
local fftctx = require("templates.conv.fftctx")
local inverse = require("templates.conv.inverse")
local padding = require("templates.conv.padding")
local tiles = require("templates.conv.tiles")
local X = require("templates.fft.expr")

local columns = {}

local u, plus, reg, literal = fftctx.u, fftctx.plus, fftctx.reg_name, fftctx.literal

-- The forward FFT's plan of a column pass: a DIF, in natural order only where spectrum2
-- stores the whole PSF-sized spectrum for the resample. The resample reads pass 2's.
function columns.forward_plan(ctx, role)
    local natural = role == "spectrum2" and ctx.cfg.spectrum == "resampled"
    return fftctx.plan.build(ctx.g, { dif = true, natural = natural })
end

function columns.prepare(ctx)
    local fwd = columns.forward_plan(ctx, ctx.role)
    ctx.forward_plan = fwd
    fftctx.account(ctx, fwd.steps)
    ctx.segments = { { text = "load two lines' spectra and unpack the column", steps = fwd.steps } }
    if ctx.role == "pass2" then
        local inv = inverse.plan(ctx.g, fwd.final)
        ctx.inverse_plan = inv
        fftctx.account(ctx, inv.steps)
        ctx.segments[#ctx.segments + 1] = { text = "product with the kernel spectrum", steps = {} }
        ctx.segments[#ctx.segments + 1] = { text = "inverse, as a DIT from the forward's layout", steps = inv.steps }
    end
    ctx.segments[#ctx.segments + 1] = { text = "store" }
end

function columns.emit_helpers(c, ctx)
    if ctx.cfg.padding == "mirror" and ctx.role == "pass2" then padding.emit_helper(c) end
end

local lines = require("templates.conv.lines")
local load_complex, store_complex = lines.load_complex, lines.store_complex

-- The lengths along A1 and A2 of this shader's data (the image's, or the PSF's spectrum).
function columns.lengths(ctx)
    local s = ctx.sizes
    if ctx.role == "spectrum2" then return s.q1, s.q2 end
    return s.p1, s.p2
end
local lengths = columns.lengths

-- The data's extent along A2, which channel and columns this workgroup runs; lanes(c)
-- declares `col` (and what else the FFT needs of the invocation) from col0.
function columns.emit_column(c, ctx, lanes)
    local cfg = ctx.cfg
    local l1 = lengths(ctx)
    local gpc = cfg.shape.groups_per_channel
    local psf = ctx.role == "spectrum2"
    local w, h = psf and "params.psf_width" or "params.width", psf and "params.psf_height" or "params.height"
    c:line("uint extent2 = %s;", cfg.first_axis == "x" and h or w)
    c:line("uint ch = group.x / %s;", u(gpc))
    c:line("if (ch >= %s) return;", u(cfg.channels))
    c:line("uint col0 = (group.x - ch * %s) * %s;", u(gpc), u(ctx.columns))
    lanes(c)
    c:note(string.format("bool live = col <= %s;", u(l1 // 2)), "columns past L1/2 read safely, store nothing")
    c:line("uint colr = live ? col : 0u;")
end

local function emit_column(c, ctx)
    columns.emit_column(c, ctx, function()
        if ctx.columns > 1 then
            c:note(string.format("uint col = col0 + (t & %s);", u(ctx.columns - 1)), "k1: every layout keeps " ..
                "the column in t's low bits")
        else
            c:line("uint col = col0;")
        end
    end)
end

-- Element a2 (declared) of column k1 = col into register reg: line a2's spectrum at k1,
-- unpacked from its pair's z (the PSF's lines placed with their centre at L2/2, or the
-- image's with the padding implied).
function columns.emit_unpack(c, ctx, reg)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum2"
    local l2 = select(2, lengths(ctx))
    local buffer = psf and "zk" or "z"
    local valid = padding.line_source(c, cfg, psf, "a2", "extent2", l2, "r")
    c:line("uint row = zt + (r >> 1u) * %s;", u(tiles.of(ctx, buffer).width))
    c:line("$float2 za = %s;", load_complex(ctx, buffer, "row"))
    c:line("$float2 zb = %s;", load_complex(ctx, buffer, "row + zm"))
    c:note("$float2 m = $float2(zb.x, -zb.y);", "conj Z[-k1]")
    c:note("$float2 d = (r & 1u) == 0u ? za + m : $float2(za.y - m.y, m.x - za.x);",
        "2 X0, or 2 X1 = (Z - conj Z[-k]) / i")
    c:line("%s = %s ? d * 0.5f : $float2(0.0f, 0.0f);", reg, valid and ("live && " .. valid) or "live")
end

-- The load's opening: what register k holds (element a2 = `element` of column k1) and where
-- the invocation's column starts in its tile of z (or zk).
function columns.emit_load_head(c, ctx, element)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum2"
    local l1, l2 = lengths(ctx)
    local buffer = psf and "zk" or "z"
    c:comment(string.format("Load: %s of column k1 = col: line a2's spectrum at k1, unpacked from Z[k1] " ..
        "and Z[-k1] of pair a2 / 2 (tiles.lua: pair p of the column's tile at zt + p * %d, Z[-k1] %d " ..
        "further, but Z[0] and Z[%d] are their own). %s", element, tiles.of(ctx, buffer).width,
        tiles.of(ctx, buffer).c, l1 // 2,
        psf and string.format("The PSF's lines sit with their centre (psf lines / 2) at %d: a2 reads PSF line " ..
        "a2 + centre - %d, zero outside.", l2 // 2, l2 // 2) or (cfg.padding == "zero" and
        "Past the image the padding is zero." or
        "Past the image the padding reads the image's lines mirrored (conv_mirror).")))
    local t = tiles.emit_column_base(c, ctx, buffer, "zt")
    c:line("uint zm = colr == 0u || colr == %s ? 0u : %s;", u(l1 // 2), u(t.c))
end

-- The load: element a2 of column k1, unpacked from its pair's z.
local function emit_load(c, ctx, L)
    columns.emit_load_head(c, ctx, string.format("register k holds element a2 = k * %d + t / %d",
        ctx.cfg.shape.wg, ctx.columns))
    local pt = fftctx.position(ctx, L, 0)
    for k = 0, ctx.registers - 1 do
        local _, pr = fftctx.position(ctx, L, k)
        c:block("", function()
            c:line("uint a2 = %s;", plus(pt, pr))
            columns.emit_unpack(c, ctx, reg(k))
        end)
    end
end

-- spectrum2's store: H(k1, k2) with the FFTShift sign.
local function emit_spectrum_store(c, ctx, L)
    local cfg = ctx.cfg
    local l1, l2 = lengths(ctx)
    local exact = cfg.spectrum == "exact"
    local ft = fftctx.frequency(ctx, L, 0)
    local pt = fftctx.position(ctx, L, 0)
    local where = exact and string.format("in row j2 of this column's tile, %d values a row (tiles.lua), j2 " ..
        "the bit-reversed position of k2 (where pass 2 holds frequency k2)", tiles.of(ctx, "spectrum").width) or
        string.format("at (c * %d + k2) * %d + k1, and its Hermitian twin conj H at (-k1, -k2) for 0 < k1 < %d",
        l2, l1, l1 // 2)
    c:comment(string.format("Store: H(k1, k2) = (-1)^(k1 + k2) times the transform (the PSF's centre " ..
        "sat at (%d, %d)), %s.", l1 // 2, l2 // 2, where))
    local row = exact and tiles.emit_column_base(c, ctx, "spectrum", "stile").width
    if not exact then c:line("uint sch = ch * %s;", u(l2)) end
    for k = 0, ctx.registers - 1 do
        local _, fr = fftctx.frequency(ctx, L, k)
        local _, pr = fftctx.position(ctx, L, k)
        c:block("if (live)", function()
            c:line("uint k2 = %s;", plus(ft, fr))
            c:line("$float2 h = ((col + k2) & 1u) != 0u ? -%s : %s;", reg(k), reg(k))
            if exact then
                c:line(store_complex(ctx, "spectrum", string.format("stile + %s * %s", X.factor(plus(pt, pr)),
                    u(row)), "h"))
            else
                c:line(store_complex(ctx, "spectrum", string.format("(sch + k2) * %s + col", u(l1)), "h"))
                c:block(string.format("if (col > 0u && col < %s)", u(l1 // 2)), function()
                    c:line(store_complex(ctx, "spectrum", string.format("(sch + ((%s - k2) & %s)) * %s + %s - col",
                        u(l2), u(l2 - 1), u(l1), u(l1)), "$float2(h.x, -h.y)"))
                end)
            end
        end)
    end
end

-- The resampled spectrum in pass 2's register order (resample.lua stores it so): register k
-- of invocation t of workgroup group.x reads slot sbase + k I, I invocations per workgroup,
-- so the invocations of a subgroup read consecutive values.
function columns.emit_slot_base(c, ctx, comment)
    c:comment(comment)
    c:line("uint sbase = group.x * %s + t;", u(ctx.registers * ctx.invocations))
end
function columns.slot(ctx, k) return string.format("sbase + %s", u(k * ctx.invocations)) end

-- pass2's product: the kernel spectrum at (k1, k2), the lerp toward a delta, the norm of the
-- inverse along A2 (1/P2, a power of two), then conj for the inverse as a forward DIT. Each
-- register reads the value of the frequency the DIF left there: the exact spectrum from
-- spectrum2's rows (bit-reversed along A2), the resampled one from the register's own slot.
local function emit_product(c, ctx, L)
    local s = ctx.sizes
    local scale = literal(1 / s.p2)
    local resampled = ctx.cfg.spectrum == "resampled"
    local row
    if resampled then
        columns.emit_slot_base(c, ctx, "Product: H from the kernel spectrum at the image's frequencies, in " ..
            "this invocation's slots (the resample stored register k's value at sbase + k I). Then the " ..
            "sharpening lerp toward a delta, H + sharpen (1 - H).")
    else
        c:comment("Product: H from the kernel spectrum at the image's frequencies, in row j2 of this " ..
            "column's tile, j2 this register's position (spectrum2 stored it in the same bit-reversed " ..
            "order). Then the sharpening lerp toward a delta, H + sharpen (1 - H).")
        row = tiles.emit_column_base(c, ctx, "spectrum", "stile").width
    end
    local pt = fftctx.position(ctx, L, 0)
    for k = 0, ctx.registers - 1 do
        local _, pr = fftctx.position(ctx, L, k)
        c:block("", function()
            c:line("$float2 h = %s;", load_complex(ctx, "spectrum", resampled and columns.slot(ctx, k) or
                string.format("stile + %s * %s", X.factor(plus(pt, pr)), u(row))))
            c:line("h = h + params.sharpen * ($float2(1.0f, 0.0f) - h);")
            c:line("$float2 p = fft_mul(%s, h) * %s;", reg(k), scale)
            c:line("%s = $float2(p.x, -p.y);", reg(k))
        end)
    end
end

-- pass2's store: conj of the DIT's output (the inverse), line a2's half spectrum at k1.
local function emit_half_store(c, ctx, L)
    c:comment(string.format("Store: conj of the transform (the inverse), line a2 of the image in row a2 of " ..
        "this column's tile of y, %d values a row (tiles.lua); lines past the image are not written.",
        tiles.of(ctx, "y").width))
    local row = tiles.emit_column_base(c, ctx, "y", "yt").width
    local pt = fftctx.position(ctx, L, 0)
    for k = 0, ctx.registers - 1 do
        local _, pr = fftctx.position(ctx, L, k)
        c:block("", function()
            c:line("uint a2 = %s;", plus(pt, pr))
            c:line("if (live && a2 < extent2) %s", store_complex(ctx, "y", string.format("yt + a2 * %s",
                u(row)), string.format("$float2(%s.x, -%s.y)", reg(k), reg(k))))
        end)
    end
end

function columns.emit_body(c, ctx)
    local psf = ctx.role == "spectrum2"
    emit_column(c, ctx)
    local names = {}
    for k = 0, ctx.registers - 1 do names[#names + 1] = reg(k) end
    c:line("$float2 %s;", table.concat(names, ", "))
    -- The forward and the inverse each in a scope of their own: their stages name their
    -- twiddle exponents after the bit (e3, w3), and both run every bit.
    local last
    c:comment("The forward FFT.")
    c:block("", function()
        for _, step in ipairs(ctx.forward_plan.steps) do
            if step.kind == "load" then
                c:blank()
                emit_load(c, ctx, step.layout)
            elseif step.kind == "store" then
                last = step.layout
            else
                fftctx.step(c, ctx, step)
            end
        end
    end)
    c:blank()
    if psf then
        emit_spectrum_store(c, ctx, last)
        return
    end
    emit_product(c, ctx, last)
    c:blank()
    c:comment("The inverse: a DIT (twiddles exp(-...)) of the conjugate, conjugated again at the store.")
    ctx.dif = false
    c:block("", function()
        for _, step in ipairs(ctx.inverse_plan.steps) do fftctx.step(c, ctx, step) end
    end)
    c:blank()
    emit_half_store(c, ctx, ctx.inverse_plan.final)
end

return columns
