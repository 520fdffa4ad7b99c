-- kernel.lua: the FFT convolution (--conv), written once for every target: five shaders of
-- one job, chosen by cfg.role.
--   spectrum1, spectrum2  the kernel spectrum, when the PSF changes: its FFT along the first
--                         axis A1 (two PSF lines per complex FFT), then along A2, with the
--                         FFTShift folded in as a (-1)^(k1 + k2) sign
--   resample              --spectrum resampled, when the PSF or psf_scale changes: the kernel
--                         spectrum sampled at the image's frequencies, stored in pass 2's
--                         register order (run in pass 2's shape)
--   pass1                 the image's FFT along A1 (two lines per complex FFT), read from the
--                         image with the padding implied by the loads
--   pass2                 along A2: forward FFT, product with the kernel spectrum, inverse,
--                         in one dispatch (power of two: in bit-reversed order between them)
--   pass3                 the inverse along A1, unpacking the two lines, cropped, composited
-- lines.lua writes the passes along A1, columns.lua those along A2; templates/fft/ plans and
-- spells the FFTs (fftctx.lua); resources.lua says where every value lives. A padded side
-- that is not a power of two (--pad-to smooth) takes mixed_lines.lua or mixed_columns.lua,
-- on the mixed-radix stages (mixed_fft.lua).
local emit = require("templates.lib.emit")
local interface = require("templates.lib.interface")
local fftctx = require("templates.conv.fftctx")
local mixed_fft = require("templates.conv.mixed_fft")
local resources = require("templates.conv.resources")

local kernel = {}

local ROLE_MODULE = { spectrum1 = "lines", pass1 = "lines", pass3 = "lines", spectrum2 = "columns",
    pass2 = "columns", resample = "resample" }

local WHAT = {
    spectrum1 = "the PSF's FFT along the first axis (two PSF lines per complex FFT)",
    spectrum2 = "the kernel spectrum: the FFT along the second axis, FFTShift as a sign",
    resample = "the kernel spectrum sampled bilinearly at the image's frequencies, for pass 2",
    pass1 = "the image's FFT along the first axis (two lines per complex FFT, padding implied)",
    pass2 = "along the second axis: forward FFT, product with the kernel spectrum, inverse",
    pass3 = "the inverse along the first axis: two lines unpacked, cropped, composited",
}

-- The image's coordinates (x, y) of position a1 along the first axis and a2 along the second.
local function axis_map(cfg)
    if cfg.first_axis == "x" then return function(a1, a2) return a1, a2 end end
    return function(a1, a2) return a2, a1 end
end

local function make_context(cfg, dialect)
    local ctx
    local module = ROLE_MODULE[cfg.role]
    if cfg.role == "resample" then
        -- No FFT: pass 2's context (its shape), to place each value where pass 2 reads it.
        ctx = cfg.shape.mixed and mixed_fft.new(cfg, dialect, -1, true) or
            fftctx.new(cfg, dialect, fftctx.geometry(cfg), -1)
    elseif cfg.shape.mixed then
        -- A padded side that is not a power of two: the mixed-radix stages (mixed_fft.lua).
        ctx = mixed_fft.new(cfg, dialect, cfg.role == "pass3" and 1 or -1, cfg.role == "pass2")
        module = "mixed_" .. module
    else
        ctx = fftctx.new(cfg, dialect, fftctx.geometry(cfg), cfg.role == "pass3" and 1 or -1)
    end
    ctx.role = cfg.role
    ctx.sizes = cfg.sizes
    ctx.strides = resources.layout(cfg)
    ctx.resources = resources.of(cfg)
    ctx.by_name = {}
    for _, r in ipairs(ctx.resources) do ctx.by_name[r.name] = r end
    ctx.xy = axis_map(cfg)
    ctx.module = require("templates.conv." .. module)
    ctx.module.prepare(ctx)
    return ctx
end

local function make_contract(ctx)
    local cfg, shape = ctx.cfg, ctx.cfg.shape
    local grid, grid_doc
    if ctx.lanes then
        grid = { { arg = "channels", value = cfg.channels * shape.groups_per_channel }, {}, {} }
        grid_doc = string.format("Grid: %d workgroups per channel, %d columns each.",
            shape.groups_per_channel, ctx.columns)
        if ctx.role == "resample" and shape.merge > 1 then
            grid_doc = string.format("Grid: %d workgroups per channel, each a share of the values of %d " ..
                "of pass 2's (%d columns).", shape.groups_per_channel, shape.merge, ctx.columns * shape.merge)
        end
    else
        grid = { { arg = "lines", per = 2 }, {}, {} }
        grid_doc = "Grid: one workgroup per pair of lines along the second axis (of the image, " ..
            "or of the PSF for spectrum1)."
    end
    return {
        title = cfg.role .. " of an FFT convolution",
        entry = ctx.dialect.entry_name("conv"),
        workgroup = { ctx.invocations, 1, 1 },
        grid = grid, grid_doc = grid_doc,
        subgroup = ctx.subgroup, shared_bytes = ctx.slots * 8,
        bindings = resources.bindings(ctx.resources),
        push_constants = resources.push_contract(), push_constant_bytes = 4 * #resources.PUSH,
        values = ctx.role == "resample" and {
            { name = "COLUMNS_PER_WORKGROUP", value = ctx.columns, doc = "pass 2's: in lanes" },
            { name = "GROUPS_PER_CHANNEL", value = shape.groups_per_channel, doc = "workgroups per channel" },
        } or {
            { name = "FFT_N", value = shape.n, doc = "the FFT's length" },
            { name = "ELEMENTS_PER_INVOCATION", value = shape.ept },
            { name = "COLUMNS_PER_WORKGROUP", value = ctx.columns, doc = "column passes: in lanes" },
            { name = "GROUPS_PER_CHANNEL", value = shape.groups_per_channel,
              doc = "column passes: workgroups per channel" },
        },
    }
end

local function make_interface(ctx)
    local shared = fftctx.shared_arrays(ctx)
    return interface.new(ctx.dialect, {
        kernel = "conv", local_size = { ctx.invocations, 1, 1 }, resources = ctx.resources,
        params = { block = "ConvParams", name = "params", fields = resources.push_fields() },
        shared = shared, builtins = { "t", "group" },
        features = { shuffle_xor = ctx.subgroup >= 8, quad = ctx.subgroup == 4 },
    })
end

-- The phase map: each segment's steps, consecutive butterflies of a kind on one line.
local function emit_phases(c, ctx)
    local lines = {}
    local function bits(list) return (#list == 1 and "bit " or "bits ") .. table.concat(list, ", ") end
    for _, seg in ipairs(ctx.segments) do
        if seg.text then lines[#lines + 1] = seg.text end
        local run, kind = {}, nil
        local function flush()
            if #run > 0 then lines[#lines + 1] = string.format("%s: butterflies on %s", kind, bits(run)) end
            run, kind = {}, nil
        end
        for _, s in ipairs(seg.steps or {}) do
            local k = s.kind == "stage" and "registers" or s.kind == "shuffle_stage" and
                (ctx.subgroup == 4 and "quad swaps" or "subgroup shuffles") or nil
            if k then
                if kind ~= k then flush() end
                kind = k
                run[#run + 1] = s.bit
            elseif s.kind == "exchange" then
                flush()
                lines[#lines + 1] = string.format("shared memory: %s (%d round%s of %d slots)",
                    s.what == "reorder" and "reorder into natural order" or "an exchange" ..
                    (s.what == "butterfly_reorder" and ", into natural order" or ""), s.rounds,
                    s.rounds == 1 and "" or "s", s.slots)
            end
        end
        flush()
    end
    c:comment("Phases, in order:")
    for i, l in ipairs(lines) do c:hanging(string.format("//   %d. ", i), l) end
end

local function emit_header_comment(c, ctx)
    local cfg, k = ctx.cfg, ctx.contract
    c:line("// spdgen %s: FFT convolution, %s.", cfg.version, ctx.dialect.language)
    c:line("// Generated; regenerate with:")
    c:command(cfg.command)
    c:line("//")
    c:hanging("// Shader: ", string.format("%s, %s. The first axis is %s; the padded image is %dx%d " ..
        "(%s padding), %d channel%s.", cfg.role, WHAT[cfg.role], cfg.first_axis,
        cfg.first_axis == "x" and cfg.sizes.p1 or cfg.sizes.p2, cfg.first_axis == "x" and cfg.sizes.p2 or cfg.sizes.p1,
        cfg.padding, cfg.channels, cfg.channels == 1 and "" or "s"))
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        c:hanging(string.format("//   %s %s: ", ctx.interface:binding_label(b.binding), b.name), b.doc)
    end
    local names = {}
    for _, p in ipairs(k.push_constants) do names[#names + 1] = p.name end
    c:hanging("//   ", string.format("%s, ConvParams params (%d bytes): %s", ctx.interface:params_label(),
        k.push_constant_bytes, table.concat(names, ", ")))
    c:hanging("//   ", string.format("workgroup %dx1x1; %s; shared memory %d bytes; %s", ctx.invocations,
        (k.grid_doc:gsub("%.$", "")), k.shared_bytes, ctx.subgroup >= 8 and string.format("needs full subgroups of %d " ..
        "invocations", ctx.subgroup) or ctx.subgroup == 4 and "needs quad operations" or "no subgroup operations"))
    c:line("//")
    if ctx.role == "resample" then
        c:comment(string.format("Pass 2's shape: %d elements per invocation x %d invocations, %d columns per " ..
            "workgroup in lanes; each invocation stores the %d values pass 2's invocation of the same index " ..
            "multiplies by.", cfg.shape.ept, cfg.shape.wg, ctx.columns, ctx.registers))
        emit_phases(c, ctx)
        c:blank()
        return
    end
    if ctx.mixed then
        c:comment(string.format("FFT: %d = %s points (mixed radix, natural order in and out), %d elements per " ..
            "invocation x %d invocations%s.", cfg.shape.n, mixed_fft.radices_text(ctx), cfg.shape.ept, cfg.shape.wg,
            ctx.lanes and string.format(", %d columns per workgroup in lanes", ctx.columns) or
            string.format(", a register set per channel (%d)", cfg.channels)))
        emit_phases(c, ctx)
        c:blank()
        return
    end
    c:comment(string.format("FFT: %d points, %d elements per invocation x %d invocations%s.", cfg.shape.n,
        cfg.shape.ept, cfg.shape.wg, ctx.lanes and string.format(", %d columns per workgroup in lanes",
        ctx.columns) or ctx.dead and string.format(", %d channel slots in registers for %d channels (every step " ..
        "skips the rest)", 1 << ctx.g.cb, cfg.channels) or
        string.format(", %d channel%s in registers", 1 << ctx.g.cb, ctx.g.cb > 0 and "s" or "")))
    emit_phases(c, ctx)
    c:blank()
end

function kernel.generate(cfg, dialect)
    local ctx = make_context(cfg, dialect)
    ctx.contract = make_contract(ctx)
    ctx.interface = make_interface(ctx)
    local names = {}
    for k, v in pairs(dialect.types) do names[k] = v end
    local c = emit.new(names)
    emit_header_comment(c, ctx)
    ctx.interface:emit_preamble(c)
    c:blank()
    ctx.interface:emit_declarations(c)
    c:blank()
    if ctx.role ~= "resample" and not ctx.mixed then fftctx.emit_helpers(c, ctx) end
    ctx.module.emit_helpers(c, ctx)
    ctx.interface:emit_entry_open(c)
    ctx.module.emit_body(c, ctx)
    c.depth = c.depth - 1
    c:line("}")
    return c:text(), ctx.contract
end

return kernel
