-- mixed_lines.lua: the passes along the first axis A1 (spectrum1, pass1, pass3) where its
-- padded length is not a power of two. As lines.lua: a workgroup runs one pair of lines as
-- one complex FFT z = line0 + i line1, reading and writing each texel once for every
-- channel; here each channel has a register set of its own (c0v.., c1v..) and the channels'
-- FFTs run one after another through the same shared memory. The stages are mixed radix in
-- natural order (mixed_fft.lua), so element and frequency x of register k are it + a
-- constant.
--   spectrum1: the PSF, its centre placed at L1/2 -> zk
--   pass1:     the image (padding implied by the loads) -> z, scaled by 1/P1
--   pass3:     two lines' half spectra from y -> the inverse -> the output, cropped
local mixed_fft = require("templates.conv.mixed_fft")
local lines = require("templates.conv.lines")
local padding = require("templates.conv.padding")

local mixed_lines = {}

local u, plus = mixed_fft.u, mixed_fft.plus

local function prefix(ch) return string.format("c%dv", ch) end

function mixed_lines.prepare(ctx)
    local load = ctx.role == "pass3" and "load two lines' half spectra, every channel" or
        "load two lines, every channel"
    ctx.segments = { { text = load },
        { text = mixed_fft.phase_text(ctx, "per channel, " .. (ctx.forward and "the forward FFT" or
            "the inverse FFT")) },
        { text = ctx.role == "pass3" and "store the composite, cropped" or "store each channel's spectrum" } }
end

function mixed_lines.emit_helpers(c, ctx)
    mixed_fft.emit_helpers(c, ctx)
    if ctx.cfg.padding == "mirror" and ctx.role == "pass1" then padding.emit_helper(c) end
    lines.emit_tile_helper(c, ctx)
end

-- The registers of channel ch named after channel 0's (the loads fill every channel at once).
local function renamed(phys, ch)
    local out = {}
    for k, name in pairs(phys) do out[k] = prefix(ch) .. name:match("%d+$") end
    return out
end

-- spectrum1 and pass1: element a1 of both lines, every channel, zero past the data.
local function emit_real_load(c, ctx)
    c:comment(string.format("Load: element a1 = %s of the line pair into every channel's register, z = " ..
        "line0 + i line1.%s", mixed_fft.element_text(ctx, true), lines.load_note(ctx)))
    ctx.reg_prefix = prefix(0)
    return mixed_fft.each_input(c, ctx, function(_, x, k)
        c:block("", function()
            c:line("uint a1 = %s;", plus("it", x))
            local value = lines.emit_real_element(c, ctx)
            for ch = 0, ctx.cfg.channels - 1 do c:line("%s%d = %s;", prefix(ch), k, value(ch)) end
        end)
    end)
end

-- spectrum1 and pass1: frequency f of channel ch's pair spectrum at conv_z_slot(ch, pair, f).
local function emit_spectrum_store(c, ctx, ch, out)
    local psf = ctx.role == "spectrum1"
    local n = ctx.cfg.shape.n
    local buffer = psf and "zk" or "z"
    local scale = not psf and mixed_fft.literal(1 / n) or nil
    c:comment(string.format("Store channel %d: frequency f of the pair's spectrum at conv_z_slot(%d, pair, " ..
        "f)%s.", ch, ch, scale and string.format(", times 1/%d", n) or ""))
    mixed_fft.each_output(ctx, out, function(reg, x, _, _, bound)
        local v = scale and string.format("%s * %s", reg, scale) or reg
        local line = lines.store_complex(ctx, buffer, string.format("conv_z_slot(%s, pair, %s)", u(ch), x), v)
        if bound then c:line("if (it < %s) %s", u(bound), line) else c:line(line) end
    end)
end

-- pass3: z = X0[f] + i X1[f] for every channel, from the two lines' half spectra.
local function emit_half_load(c, ctx)
    local cfg, n = ctx.cfg, ctx.cfg.shape.n
    local W = ctx.plan.w
    c:comment(string.format("Load: frequency f = %s into every channel's register: X[f] from line l's half " ..
        "spectrum at conv_y_slot(c, l, f) for f <= %d, conj X[%d - f] above (a real line's spectrum is " ..
        "Hermitian); z = X0 + i X1.", mixed_fft.element_text(ctx, true), n // 2, n))
    ctx.reg_prefix = prefix(0)
    return mixed_fft.each_input(c, ctx, function(_, x, k)
        c:block("", function()
            -- it < W: the frequency's side of N/2 is known here where the whole range is.
            local side = x + W - 1 <= n // 2 and "below" or x > n // 2 and "above" or "either"
            c:line("uint f = %s;", plus("it", x))
            if side == "below" then
                c:line("uint m = f;")
            elseif side == "above" then
                c:note(string.format("uint m = %s - f;", u(n)), "N - f, in the half spectrum")
            else
                c:line("bool above = f > %s;", u(n // 2))
                c:line("uint m = above ? %s - f : f;", u(n))
            end
            for ch = 0, cfg.channels - 1 do
                c:block("", function()
                    c:line("$float2 x = %s;", lines.load_complex(ctx, "y", string.format("conv_y_slot(%s, line0, m)",
                        u(ch))))
                    c:line("$float2 w = odd_in ? %s : $float2(0.0f, 0.0f);",
                        lines.load_complex(ctx, "y", string.format("conv_y_slot(%s, line1, m)", u(ch))))
                    if x == 0 or (x <= n // 2 and x + W > n // 2) then
                        c:comment("f = 0 or N/2: a real line's X[f] is real; the real part alone keeps " ..
                            "the two lines apart.")
                        c:line("bool real_f = m == 0u || m == %s;", u(n // 2))
                        c:line("x = real_f ? $float2(x.x, 0.0f) : x;")
                        c:line("w = real_f ? $float2(w.x, 0.0f) : w;")
                    end
                    if side == "above" then
                        c:line("x = $float2(x.x, -x.y);")
                        c:line("w = $float2(w.x, -w.y);")
                    elseif side == "either" then
                        c:line("x = above ? $float2(x.x, -x.y) : x;")
                        c:line("w = above ? $float2(w.x, -w.y) : w;")
                    end
                    c:line("%s%d = $float2(x.x - w.y, x.y + w.x);", prefix(ch), k)
                end)
            end
        end)
    end)
end

-- pass3: per texel the convolution of every channel, composited, cropped.
local function emit_output_store(c, ctx, outs)
    lines.output_comment(c, ctx, ", element a1 = " .. mixed_fft.element_text(ctx, false))
    mixed_fft.each_output(ctx, outs[0], function(_, x, q, m, bound)
        local cond = string.format("%s < extent1", mixed_fft.factor(x))
        if bound then cond = string.format("it < %s && %s", u(bound), cond) end
        c:block(string.format("if (%s)", cond), function()
            c:line("uint a1 = %s;", x)
            lines.emit_texels(c, ctx, function(ch) return outs[ch][q][m + 1] end)
        end)
    end)
end

function mixed_lines.emit_body(c, ctx)
    local cfg = ctx.cfg
    lines.emit_extents_and_pair(c, ctx)
    c:line("uint it = t;")
    local prefixes = {}
    for ch = 0, cfg.channels - 1 do prefixes[#prefixes + 1] = prefix(ch) end
    mixed_fft.declare(c, ctx, prefixes)
    c:blank()
    local phys = ctx.role == "pass3" and emit_half_load(c, ctx) or emit_real_load(c, ctx)
    local outs = {}
    for ch = 0, cfg.channels - 1 do
        c:blank()
        local label = string.format("Channel %d, %s FFT of %d points. ", ch, ctx.forward and "forward" or
            "inverse", cfg.shape.n)
        outs[ch] = mixed_fft.run(c, ctx, renamed(phys, ch), prefix(ch), ctx.sign, label)
        if ctx.role ~= "pass3" then
            c:blank()
            emit_spectrum_store(c, ctx, ch, outs[ch])
        end
    end
    if ctx.role == "pass3" then
        c:blank()
        emit_output_store(c, ctx, outs)
    end
end

return mixed_lines
