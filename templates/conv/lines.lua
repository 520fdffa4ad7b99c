-- lines.lua: the passes along the first axis A1 (spectrum1, pass1, pass3). A workgroup runs
-- one pair of lines (along A2: lines 2p and 2p + 1) as one complex FFT z = line0 + i line1,
-- every channel at once (the channel is the register index's column bits), so a texel is
-- read and written whole. The FFT is decimation in frequency with natural-order output
-- (templates/fft/plan.lua); its reorder rides on its last exchange where the plan can.
--   spectrum1: the PSF buffer, placed so its centre lands at Q1/2 (the FFTShift becomes a sign
--              in spectrum2) -> zk
--   pass1:     the image (padding implied by the loads) -> z, scaled by 1/P1 (a power of two:
--              exact), so halves hold values of the image's magnitude
--   pass3:     y's half spectra of the two lines (Hermitian: X[P1 - f] = conj X[f]) -> the
--              inverse (twiddles exp(+...)) -> line 2p in x, line 2p + 1 in y -> the output
local fftctx = require("templates.conv.fftctx")
local padding = require("templates.conv.padding")
local tiles = require("templates.conv.tiles")

local lines = {}

local u, plus, reg, literal = fftctx.u, fftctx.plus, fftctx.reg_name, fftctx.literal
local COMPONENT = { "x", "y", "z", "w" }

function lines.prepare(ctx)
    -- 3 channels ride in 4 column slots of the registers (the plan needs a power of two): the
    -- fourth is zero and never meets the others, so every step skips it (no butterflies, no
    -- shared-memory traffic; templates/fft/steps.lua's ctx.dead) wherever the layout holds
    -- the channel in registers.
    local n, channels = ctx.g.n, ctx.cfg.channels
    if channels < (1 << ctx.g.cb) then
        ctx.dead = function(L, k)
            for _, b in ipairs(L.thr) do if b >= n then return false end end
            return fftctx.channel(ctx, L, k) >= channels
        end
    end
    local p = fftctx.plan.build(ctx.g, { dif = true, natural = true })
    ctx.plan = p
    fftctx.account(ctx, p.steps)
    ctx.segments = { { text = ctx.role == "pass3" and "load two lines' half spectra" or "load two lines",
        steps = p.steps }, { text = "store" } }
end

function lines.emit_helpers(c, ctx)
    if ctx.cfg.padding == "mirror" and ctx.role == "pass1" then padding.emit_helper(c) end
    lines.emit_tile_helper(c, ctx)
end

-- Where the line passes' output goes (z, zk) or pass 3's input comes from (y): tiles.lua.
function lines.emit_tile_helper(c, ctx)
    if ctx.role == "pass3" then
        tiles.emit_y_slot(c, ctx)
    else
        tiles.emit_z_slot(c, ctx, ctx.role == "spectrum1" and "zk" or "z")
    end
end

-- Registers grouped by their element's constant part in layout L: { { const, {k, ch}... } },
-- in register order, with the invocation's part.
local function by_element(ctx, L, which)
    local groups, index, thread = {}, {}, nil
    for k = 0, ctx.registers - 1 do
        local t_part, r_part = which(ctx, L, k)
        thread = t_part
        if not index[r_part] then
            groups[#groups + 1] = { const = r_part, regs = {} }
            index[r_part] = groups[#groups]
        end
        local list = index[r_part].regs
        list[#list + 1] = { k = k, ch = fftctx.channel(ctx, L, k) }
    end
    return groups, thread
end

-- The loads and stores of complex buffers (f16: a uint of two halves).
function lines.load_complex(ctx, buffer, index)
    local v = string.format("%s[%s]", buffer, index)
    return ctx.cfg.storage == "f16" and ctx.dialect.unpack_half2(v) or v
end
function lines.store_complex(ctx, buffer, index, v)
    if ctx.cfg.storage == "f16" then v = ctx.dialect.pack_half2(v) end
    return string.format("%s[%s] = %s;", buffer, index, v)
end
local load_complex, store_complex = lines.load_complex, lines.store_complex

-- The pair of lines this workgroup runs; lines past `count` (an expression) return at once.
function lines.emit_pair(c, count)
    c:line("uint pair = group.x;")
    c:line("uint line0 = 2u * pair;")
    c:line("if (line0 >= %s) return;", count)
    c:note(string.format("bool odd_in = line0 + 1u < %s;", count), "an odd count: line 2p + 1 is padding")
    c:line("uint line1 = odd_in ? line0 + 1u : line0;")
end

-- The registers, but those no layout of the plan gives a channel (ctx.dead): never touched.
local function declare_registers(c, ctx)
    local names = {}
    for k = 0, ctx.registers - 1 do
        local used = not ctx.dead
        for _, step in ipairs(ctx.dead and ctx.plan.steps or {}) do
            for _, L in ipairs({ step.layout, step.from, step.to }) do
                if not ctx.dead(L, k) then used = true end
            end
        end
        if used then names[#names + 1] = reg(k) end
    end
    c:line("$float2 %s;", table.concat(names, ", "))
end

-- Reads of one texel of lines line0 and line1 at position `s1` along A1, as two float4
-- expressions or, for buffers, a function of the channel.
function lines.texel_reader(ctx, buffer, width, s1)
    local D, cfg = ctx.dialect, ctx.cfg
    local function at(line)
        local x, y = ctx.xy(s1, line)
        return x, y
    end
    if buffer then
        return function(line, ch)
            local x, y = at(line)
            return string.format("%s[(%s * %s + %s) * %su + %du]", buffer, y, width, x, cfg.channels, ch)
        end
    end
    return function(line)
        local x, y = at(line)
        return D.image_load(ctx.by_name.src, x, y, nil, 4)
    end
end

-- What the loads of spectrum1 and pass1 read past the data, for their comment.
function lines.load_note(ctx)
    local cfg, n = ctx.cfg, ctx.cfg.shape.n
    if ctx.role == "spectrum1" then
        return string.format(" The PSF is placed with its centre (psf_%s / 2) at %d, so element a1 reads PSF " ..
            "index a1 + centre - %d (zero outside the PSF).", cfg.first_axis == "x" and "width" or "height",
            n // 2, n // 2)
    end
    return cfg.padding == "zero" and " Past the image the padding reads zero." or
        " Past the image the padding reads the image mirrored (conv_mirror)."
end

-- Element a1 (declared) of both lines of spectrum1 and pass1, every channel read at once:
-- declares what it needs and returns value(ch), channel ch's z = line0 + i line1.
function lines.emit_real_element(c, ctx)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum1"
    local n = cfg.shape.n
    local image = not psf and cfg.input == "image"
    local read = lines.texel_reader(ctx, psf and "psf" or (not image and "src"),
        psf and "params.psf_width" or "params.width", "s1")
    local valid = padding.line_source(c, cfg, psf, "a1", "extent1", n, "s1")
    if image then
        c:line("$float4 t0 = %s;", read("line0"))
        c:line("$float4 t1 = %s;", read("line1"))
    end
    return function(ch)
        local a = image and ("t0." .. COMPONENT[ch + 1]) or read("line0", ch)
        local b = image and ("t1." .. COMPONENT[ch + 1]) or read("line1", ch)
        local v = string.format("$float2(%s, odd_in ? %s : 0.0f)", a, b)
        if valid then v = string.format("%s ? %s : $float2(0.0f, 0.0f)", valid, v) end
        return v
    end
end

-- The load of spectrum1 and pass1: real lines into z = line0 + i line1, all channels.
local function emit_real_load(c, ctx, L)
    local cfg = ctx.cfg
    local groups, jt = by_element(ctx, L, fftctx.position)
    c:comment(string.format("Load: register k holds element a1 of the line pair (a1 = k * %d + t for " ..
        "the register's element bits) of channel k / %d; z = line0 + i line1.%s", cfg.shape.wg,
        ctx.registers >> ctx.g.cb, lines.load_note(ctx)))
    for _, grp in ipairs(groups) do
        c:block("", function()
            c:line("uint a1 = %s;", plus(jt, grp.const))
            local value = lines.emit_real_element(c, ctx)
            for _, r in ipairs(grp.regs) do
                if r.ch >= cfg.channels then
                    if not (ctx.dead and ctx.dead(L, r.k)) then c:line("%s = $float2(0.0f, 0.0f);", reg(r.k)) end
                else
                    c:line("%s = %s;", reg(r.k), value(r.ch))
                end
            end
        end)
    end
end

-- The store of spectrum1 and pass1: the spectrum of the pair, natural order, per channel.
local function emit_spectrum_store(c, ctx, L)
    local cfg = ctx.cfg
    local psf = ctx.role == "spectrum1"
    local n = cfg.shape.n
    local buffer = psf and "zk" or "z"
    local groups, ft = by_element(ctx, L, fftctx.frequency)
    local scale = not psf and literal(1 / n) or nil
    c:comment(string.format("Store: frequency f of the pair's spectrum, channel c, at conv_z_slot(c, pair, " ..
        "f)%s.", scale and string.format(", times 1/%d (exact: a power of two)", n) or ""))
    for _, grp in ipairs(groups) do
        for _, r in ipairs(grp.regs) do
            if r.ch < cfg.channels then
                local v = scale and string.format("%s * %s", reg(r.k), scale) or reg(r.k)
                c:line(store_complex(ctx, buffer, string.format("conv_z_slot(%s, pair, %s)", u(r.ch),
                    plus(ft, grp.const)), v))
            end
        end
    end
end

-- pass3's load: z = X0[f] + i X1[f] from the two lines' half spectra in y.
local function emit_half_load(c, ctx, L)
    local cfg, n = ctx.cfg, ctx.cfg.shape.n
    local groups, jt = by_element(ctx, L, fftctx.position)
    c:comment(string.format("Load: register k holds frequency f = k * %d + t of channel k / %d: X[f] " ..
        "from line l's half spectrum at conv_y_slot(c, l, f) for f <= %d, conj X[%d - f] above (a " ..
        "real line's spectrum is Hermitian); z = X0 + i X1.", cfg.shape.wg, ctx.registers >> ctx.g.cb,
        n // 2, n))
    for _, grp in ipairs(groups) do
        c:block("", function()
            local mirrored = grp.const >= n // 2
            if mirrored then
                c:note(string.format("uint m = %s - %s;", u(n - grp.const), jt), "N - f, in the half spectrum")
            else
                c:line("uint m = %s;", plus(jt, grp.const))
            end
            for _, r in ipairs(grp.regs) do
                if r.ch >= cfg.channels then
                    if not (ctx.dead and ctx.dead(L, r.k)) then c:line("%s = $float2(0.0f, 0.0f);", reg(r.k)) end
                else
                    c:block("", function()
                        c:line("$float2 x = %s;", load_complex(ctx, "y", string.format("conv_y_slot(%s, line0, m)",
                            u(r.ch))))
                        c:line("$float2 w = odd_in ? %s : $float2(0.0f, 0.0f);",
                            load_complex(ctx, "y", string.format("conv_y_slot(%s, line1, m)", u(r.ch))))
                        if grp.const == 0 or grp.const == n // 2 then
                            c:comment("f = 0 or N/2: a real line's X[f] is real; the real part " ..
                                "alone keeps the two lines apart.")
                            c:line("x = (m & %s) == 0u ? $float2(x.x, 0.0f) : x;", u(n // 2 - 1))
                            c:line("w = (m & %s) == 0u ? $float2(w.x, 0.0f) : w;", u(n // 2 - 1))
                        end
                        if mirrored then
                            c:line("x = $float2(x.x, -x.y);")
                            c:line("w = $float2(w.x, -w.y);")
                        end
                        c:line("%s = $float2(x.x - w.y, x.y + w.x);", reg(r.k))
                    end)
                end
            end
        end)
    end
end

-- The source's channels at the output texel of line `line` (an expression per channel), for
-- the composite and for the channels the convolution does not write.
function lines.source_channels(c, ctx, a1, line, name, wanted)
    local cfg, D = ctx.cfg, ctx.dialect
    local x, y = ctx.xy(a1, line)
    local out = {}
    if cfg.input == "image" then
        if wanted == "always" then
            c:line("$float4 %s = %s;", name, D.image_load(ctx.by_name.src, x, y, nil, 4))
        else
            c:line("$float4 %s = $float4(0.0f, 0.0f, 0.0f, 0.0f);", name)
            c:line("if (params.composite != 0u) %s = %s;", name, D.image_load(ctx.by_name.src, x, y, nil, 4))
        end
        for ch = 1, 4 do out[ch] = name .. "." .. COMPONENT[ch] end
        return out
    end
    c:line("$float4 %s = $float4(0.0f, 0.0f, 0.0f, 1.0f);", name)
    c:block("if (params.composite != 0u)", function()
        for ch = 0, cfg.channels - 1 do
            c:line("%s.%s = src[(%s * params.width + %s) * %su + %du];", name, COMPONENT[ch + 1], y, x,
                cfg.channels, ch)
        end
    end)
    for ch = 1, 4 do out[ch] = name .. "." .. COMPONENT[ch] end
    return out
end

-- pass3's store comment: what the texels get.
function lines.output_comment(c, ctx, where)
    local cfg = ctx.cfg
    local passthrough = cfg.output == "image" and cfg.input == "image" and cfg.channels < 4
    c:comment("Store: line 2p is Re z, line 2p + 1 is Im z" .. where .. "; texels past the image are not " ..
        "written. With composite, out = src + intensity * (conv - src)." .. (passthrough and
        " Channels past the convolved ones keep the source's." or ""))
end

-- pass3's texels at position a1 (declared) of both lines: conv(ch) names channel ch's
-- register (nil past --channels); its .x is line 2p, its .y line 2p + 1.
function lines.emit_texels(c, ctx, conv)
    local cfg, D = ctx.cfg, ctx.dialect
    local image_out = cfg.output == "image"
    local passthrough = image_out and cfg.input == "image" and cfg.channels < 4
    for li, line in ipairs({ "line0", "line1" }) do
        local function body()
            local s = lines.source_channels(c, ctx, "a1", line, "s", passthrough and "always" or "composite")
            local parts = {}
            for ch = 0, 3 do
                local r = ch < cfg.channels and conv(ch)
                parts[ch + 1] = r and (r .. (li == 1 and ".x" or ".y")) or s[ch + 1]
            end
            c:line("$float4 o = $float4(%s);", table.concat(parts, ", "))
            c:line("if (params.composite != 0u) o = s + params.intensity * (o - s);")
            local x, y = ctx.xy("a1", line)
            if image_out then
                c:line(D.image_store(ctx.by_name.dst, 0, string.format("$uint2(%s, %s)", x, y), nil, "o", "float4"))
            else
                for ch = 0, cfg.channels - 1 do
                    c:line("dst[(%s * params.width + %s) * %su + %du] = o.%s;", y, x, cfg.channels, ch,
                        COMPONENT[ch + 1])
                end
            end
        end
        if li == 1 then c:block("", body) else c:block("if (odd_in)", body) end
    end
end

-- pass3's store: per texel the convolution of every channel, composited, cropped.
local function emit_output_store(c, ctx, L)
    local groups, ft = by_element(ctx, L, fftctx.frequency)
    lines.output_comment(c, ctx, "")
    c:line("uint f0 = %s;", ft)
    for _, grp in ipairs(groups) do
        c:block(string.format("if (%s < extent1)", plus("f0", grp.const)), function()
            c:line("uint a1 = %s;", plus("f0", grp.const))
            lines.emit_texels(c, ctx, function(ch)
                for _, r in ipairs(grp.regs) do
                    if r.ch == ch then return reg(r.k) end
                end
            end)
        end)
    end
end

-- The data's extents along A1 and A2 (the image's, or the PSF's for spectrum1), and the pair
-- of lines this workgroup runs.
function lines.emit_extents_and_pair(c, ctx)
    local psf = ctx.role == "spectrum1"
    local w, h = psf and "params.psf_width" or "params.width", psf and "params.psf_height" or "params.height"
    if ctx.cfg.first_axis == "x" then
        c:line("uint extent1 = %s;", w)
        c:line("uint extent2 = %s;", h)
    else
        c:line("uint extent1 = %s;", h)
        c:line("uint extent2 = %s;", w)
    end
    lines.emit_pair(c, "extent2")
end

function lines.emit_body(c, ctx)
    lines.emit_extents_and_pair(c, ctx)
    declare_registers(c, ctx)
    local steps = ctx.plan.steps
    for _, step in ipairs(steps) do
        if step.kind == "load" then
            c:blank()
            if ctx.role == "pass3" then emit_half_load(c, ctx, step.layout) else emit_real_load(c, ctx, step.layout) end
        elseif step.kind == "store" then
            c:blank()
            if ctx.role == "pass3" then emit_output_store(c, ctx, step.layout) else emit_spectrum_store(c, ctx, step.layout) end
        else
            fftctx.step(c, ctx, step)
        end
    end
end

return lines
