-- resample.lua: the resample shader (--spectrum resampled): the kernel spectrum, kept at the
-- PSF's padded size Q1 x Q2 (spectrum2's natural order), sampled bilinearly at the padded
-- image's frequencies times psf_scale (Nabla's spectral resampling) and stored in the layout
-- pass 2 reads in the exact path: (c * P2 + j2) * (P1/2 + 1) + k1, j2 the bit-reversed
-- position of frequency k2. It runs when the PSF or psf_scale changes, so pass 2 does one
-- coalesced load per value instead of four scattered taps, whatever the spectrum mode.
-- One invocation per value: consecutive invocations store consecutive k1.
local fftctx = require("templates.conv.fftctx")

local resample = {}

local u, literal, log2 = fftctx.u, fftctx.literal, fftctx.log2

function resample.prepare(ctx)
    ctx.invocations = ctx.cfg.shape.wg
    ctx.subgroup, ctx.slots, ctx.columns = 0, 0, 1
    ctx.segments = { { text = "sample the kernel spectrum bilinearly (1, 2 or 4 times at a Nyquist " ..
        "frequency), store where pass 2 reads it" } }
end

-- Pass 2 holds frequency k2 at bit-reversed position j2 where P2 is a power of two, at k2
-- itself where it runs mixed-radix stages (natural order).
local function natural(ctx)
    local p2 = ctx.sizes.p2
    return p2 & (p2 - 1) ~= 0
end

function resample.emit_helpers(c, ctx)
    if natural(ctx) then return end
    local bits = log2(ctx.sizes.p2)
    c:comment(string.format("Frequency k2 of bit-reversed position j2 (%d bits): where pass 2's DIF " ..
        "holds each frequency.", bits))
    c:block("uint conv_reverse(uint j)", function()
        c:line("uint k = 0u;")
        c:block(string.format("for (uint b = 0u; b < %s; b++)", u(bits)), function()
            c:line("k = (k << 1u) | ((j >> b) & 1u);")
        end)
        c:line("return k;")
    end)
    c:blank()
end

local function load_complex(ctx, index)
    local v = string.format("spectrum[%s]", index)
    return ctx.cfg.storage == "f16" and ctx.dialect.unpack_half2(v) or v
end

function resample.emit_body(c, ctx)
    local cfg, s = ctx.cfg, ctx.sizes
    local half1, gpc, wg = s.p1 // 2 + 1, cfg.shape.groups_per_channel, cfg.shape.wg
    c:comment(string.format("Value i of channel ch: k1 = i mod %d, j2 = i / %d (the %d x %d values pass 2 " ..
        "reads per channel).", half1, half1, half1, s.p2))
    c:line("uint ch = group.x / %s;", u(gpc))
    c:line("if (ch >= %s) return;", u(cfg.channels))
    c:line("uint i = (group.x - ch * %s) * %s + t;", u(gpc), u(wg))
    c:line("if (i >= %s) return;", u(half1 * s.p2))
    c:line("uint k1 = i %% %s;", u(half1))
    c:line("uint j2 = i / %s;", u(half1))
    if natural(ctx) then
        c:note("uint k2 = j2;", "pass 2's mixed-radix stages hold frequencies in natural order")
    else
        c:line("uint k2 = conv_reverse(j2);")
    end
    c:blank()
    c:comment(string.format("H sampled bilinearly from the %dx%d kernel spectrum (along A1, A2) at " ..
        "u = kappa * Q / P * psf_scale, kappa the signed frequency (k2 - %d above %d), indices wrapping " ..
        "mod Q: the spectrum stays at the PSF's padded size (it rings). A Nyquist frequency (k = P / 2) " ..
        "is both +P/2 and -P/2: its samples at +u and -u are averaged, so the product stays Hermitian " ..
        "and the inverse real at any psf_scale.", s.q1, s.q2, s.p2, s.p2 // 2 - 1))
    c:line("uint sch = ch * %s;", u(s.q2))
    c:line("float ratio1 = %s * params.psf_scale;", literal(s.q1 / s.p1))
    c:line("float ratio2 = %s * params.psf_scale;", literal(s.q2 / s.p2))
    c:line("float u1 = float(k1) * ratio1;")
    c:line("float u2 = float(k2 < %s ? int(k2) : int(k2) - %d) * ratio2;", u(s.p2 // 2), s.p2)
    c:note(string.format("uint n1 = k1 == %s ? 2u : 1u;", u(s.p1 // 2)), "signs of k1 sampled")
    c:note(string.format("uint n = n1 * (k2 == %s ? 2u : 1u);", u(s.p2 // 2)), "1, 2 or 4 samples")
    c:line("$float2 h = $float2(0.0f, 0.0f);")
    c:block("for (uint v = 0u; v < n; v++)", function()
        c:line("float v1 = v % n1 != 0u ? -u1 : u1;")
        c:line("float v2 = v / n1 != 0u ? -u2 : u2;")
        c:line("float floor1 = floor(v1);")
        c:line("float floor2 = floor(v2);")
        c:line("float t1 = v1 - floor1;")
        c:line("float t2 = v2 - floor2;")
        c:line("uint i1 = uint(int(floor1)) & %s;", u(s.q1 - 1))
        c:line("uint i1b = (i1 + 1u) & %s;", u(s.q1 - 1))
        c:line("uint i2 = uint(int(floor2)) & %s;", u(s.q2 - 1))
        c:line("uint r0 = (sch + i2) * %s;", u(s.q1))
        c:line("uint r1 = (sch + ((i2 + 1u) & %s)) * %s;", u(s.q2 - 1), u(s.q1))
        c:line("$float2 h00 = %s;", load_complex(ctx, "r0 + i1"))
        c:line("$float2 h01 = %s;", load_complex(ctx, "r0 + i1b"))
        c:line("$float2 h10 = %s;", load_complex(ctx, "r1 + i1"))
        c:line("$float2 h11 = %s;", load_complex(ctx, "r1 + i1b"))
        c:line("$float2 h0 = h00 + (h01 - h00) * t1;")
        c:line("$float2 h1 = h10 + (h11 - h10) * t1;")
        c:line("h += h0 + (h1 - h0) * t2;")
    end)
    c:line("h = h / float(n);")
    c:blank()
    c:comment(string.format("Store: at (c * %d + j2) * %d + k1, where pass 2 reads frequency (k1, k2).",
        s.p2, half1))
    local v = cfg.storage == "f16" and ctx.dialect.pack_half2("h") or "h"
    c:line("r[(ch * %s + j2) * %s + k1] = %s;", u(s.p2), u(half1), v)
end

return resample
