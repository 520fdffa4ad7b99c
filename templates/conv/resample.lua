-- resample.lua: the resample shader (--spectrum resampled): the kernel spectrum, kept at the
-- PSF's padded size Q1 x Q2 (spectrum2's natural order), sampled bilinearly at the padded
-- image's frequencies times psf_scale (Nabla's spectral resampling). It runs when the PSF or
-- psf_scale changes, and each invocation stores, register by register, the values one
-- invocation of pass 2 (`lane` of workgroup g2) multiplies its registers by after the forward
-- FFT: slot (g2 E + k) I + lane of r, register k (I invocations per workgroup). Pass 2 then
-- reads each register's value with one coalesced load (consecutive invocations, consecutive
-- slots) instead of a column of the spectrum, or four scattered taps. The resample's
-- workgroups have pass 2's size but span `merge` of its workgroups: more columns in lanes,
-- so each tap reads a row of neighbouring columns (conv_check.c's resample_shape).
local fftctx = require("templates.conv.fftctx")
local columns = require("templates.conv.columns")
local steps = require("templates.fft.mixed_steps")
local X = require("templates.fft.expr")

local resample = {}

local u, literal = fftctx.u, fftctx.literal

function resample.prepare(ctx)
    if not ctx.mixed then
        -- Where pass 2's forward DIF leaves each frequency.
        ctx.final = columns.forward_plan(ctx, "pass2").final
    end
    ctx.subgroup, ctx.slots = 0, 0
    ctx.segments = { { text = "for each register of pass 2's invocation: its frequency, the kernel " ..
        "spectrum sampled there bilinearly (1, 2 or 4 times at a Nyquist frequency), stored in its slot" } }
end

function resample.emit_helpers() end

local function load_complex(ctx, index)
    local v = string.format("spectrum[%s]", index)
    return ctx.cfg.storage == "f16" and ctx.dialect.unpack_half2(v) or v
end

-- The sample of H at (k1, k2) into h: the body of the loop over registers.
local function emit_sample(c, ctx)
    local s = ctx.sizes
    c:line("float u2 = float(k2 < %s ? int(k2) : int(k2) - %d) * ratio2;", u(s.p2 // 2), s.p2)
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
    local v = ctx.cfg.storage == "f16" and ctx.dialect.pack_half2("h") or "h"
    c:line("r[slot] = %s;", v)
end

-- The loop over pass 2's registers: k2, the frequency register k of invocation t holds after
-- the forward FFT, and its slot. Power of two: bit-reversed position, bits from t and k as the
-- DIF's last layout places them. Mixed radix: natural order, butterfly q's output m of the
-- last stage (register q R + m) is element (t's part) + its constant.
local function emit_registers(c, ctx, body)
    local I = ctx.invocations
    if not ctx.mixed then
        local n = ctx.g.n
        local freq = function(b) if b < n then return n - 1 - b end end
        local ft = X.thread_part(ctx.final, freq, "lane") or "0u"
        local fk = X.register_part_expr(ctx.final, freq, "k") or "0u"
        c:block(string.format("for (uint k = 0u; k < %s; k++)", u(ctx.registers)), function()
            c:note(string.format("uint k2 = %s | %s;", ft, fk), "the frequency register k holds")
            c:line("uint slot = sbase + k * %s;", u(I))
            body()
        end)
        return
    end
    local plan = ctx.plan
    local st = plan.stages[#plan.stages]
    local thread, const = steps.output_element_expr(ctx, "q", "m")
    c:block(string.format("for (uint q = 0u; q < %s; q++)", u(st.b)), function()
        c:block(string.format("for (uint m = 0u; m < %s; m++)", u(st.radix)), function()
            c:note(string.format("uint k2 = %s + %s;", thread, const), "the element butterfly q's output m is")
            c:line("uint slot = sbase + (q * %s + m) * %s;", u(st.radix), u(I))
            body()
        end)
    end)
end

-- Which of pass 2's invocations this one stands for: workgroup w of a channel spans pass 2's
-- workgroups [b M, (b + 1) M) (M = merge, b = w / M), C M columns in lanes, and the share j = w
-- mod M of their elements; lane is the pass 2 invocation's index in its workgroup g2.
local function emit_lane(c, ctx)
    local cfg, s = ctx.cfg, ctx.sizes
    local C, I, M = ctx.columns, ctx.invocations, cfg.shape.merge
    local gpc, gpc2 = cfg.shape.groups_per_channel, s.pass2_groups
    c:line("uint ch = group.x / %s;", u(gpc))
    c:line("if (ch >= %s) return;", u(cfg.channels))
    if M == 1 then
        c:line("uint g = group.x - ch * %s;", u(gpc))
        c:line("uint lane = t;")
    else
        local per = I // C // M -- pass 2's elements per column in one share
        c:line("uint w = group.x - ch * %s;", u(gpc))
        c:note(string.format("uint cv = t %% %s;", u(C * M)), "the column among the workgroup's")
        c:note(string.format("uint g = (w / %s) * %s + cv / %s;", u(M), u(M), u(C)), "pass 2's workgroup in the channel")
        c:note(string.format("if (g >= %s) return;", u(gpc2)), "past the last column's workgroup")
        c:note(string.format("uint lane = ((w %% %s) * %s + t / %s) * %s + cv %% %s;", u(M), u(per), u(C * M), u(C),
            u(C)), "its invocation there")
    end
    c:note(string.format("uint col = g * %s + lane %% %s;", u(C), u(C)), "k1: pass 2's column of that invocation")
    c:note(string.format("uint k1 = min(col, %s);", u(s.p1 // 2)), "past P1/2: slots pass 2 never uses")
    if ctx.mixed then c:note(string.format("uint it = lane / %s;", u(C)), "the invocation's index in its FFT") end
    c:comment(string.format("Register k's slot: sbase + k I, as pass 2 reads it (I = %d).", I))
    c:line("uint sbase = (ch * %s + g) * %s + lane;", u(gpc2), u(ctx.registers * I))
end

function resample.emit_body(c, ctx)
    local s = ctx.sizes
    emit_lane(c, ctx)
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
    c:note(string.format("uint n1 = k1 == %s ? 2u : 1u;", u(s.p1 // 2)), "signs of k1 sampled")
    emit_registers(c, ctx, function() emit_sample(c, ctx) end)
end

return resample
