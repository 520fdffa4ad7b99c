-- mixed_fft.lua: the convolution's FFTs of a length that is not a power of two (--pad-to
-- smooth, or --padded): the mixed-radix stages of templates/fft/ (stockham.lua plans them,
-- mixed_steps.lua spells them) in natural order in and out, so the passes index every value
-- by its element or frequency directly. mixed_lines.lua and mixed_columns.lua write the
-- passes; this module builds the context those steps read and writes their helpers.
local stockham = require("templates.fft.stockham")
local steps = require("templates.fft.mixed_steps")
local radix = require("templates.fft.radix")
local twiddle_any = require("templates.fft.twiddle_any")
local common = require("templates.fft.common")
local X = require("templates.fft.expr")

local mixed_fft = {}

-- The shared layout of two floats per slot from this length, as the FFT's.
local PAIRED_FROM_N = 1024

-- The context of one shader's FFT: cfg.shape's plan, `lanes` columns per workgroup in lanes
-- (the column passes; invocation t runs column t mod C as element index it = t / C) or one
-- line pair (the line passes). `both`: a forward FFT and an inverse (pass 2), else `sign`.
function mixed_fft.new(cfg, dialect, sign, both)
    local shape = cfg.shape
    local plan = stockham.build(shape.n, shape.ept, shape.wg, shape.radices, shape.rounds)
    local lanes = shape.lanes > 0
    local ffts = lanes and shape.lanes or 1
    return {
        cfg = cfg, dialect = dialect, mixed = true, plan = plan, plan_now = plan, sign = sign, both = both,
        forward = sign < 0, ffts = ffts, interleaved = lanes, lanes = lanes, columns = ffts,
        invocations = ffts * plan.w, registers = plan.registers, slots = plan.slots * ffts,
        paired = shape.n >= PAIRED_FROM_N,
        subgroup = 0, shared_used = false,
    }
end

-- The helpers the steps call: the complex product, the DFT routines of the plan's radices,
-- the twiddles (of both signs for pass 2).
function mixed_fft.emit_helpers(c, ctx)
    common.emit_complex_product(c)
    local radices, needs = {}, false
    for _, st in ipairs(ctx.plan.stages) do
        radices[#radices + 1] = st.radix
        needs = needs or st.twiddles ~= "none"
    end
    radix.emit_routines(c, ctx.dialect, radices, ctx.both and { -1, 1 } or { ctx.sign })
    if needs then twiddle_any.emit_stage_functions(c, ctx.plan.n, ctx.sign, ctx.both) end
end

-- "5 x 7 x 7 x 2": the stage radices, for comments.
function mixed_fft.radices_text(ctx)
    local parts = {}
    for _, st in ipairs(ctx.plan.stages) do parts[#parts + 1] = tostring(st.radix) end
    return table.concat(parts, " x ")
end

-- The phase map's lines of one FFT: its stages and exchanges.
function mixed_fft.phase_text(ctx, what)
    return string.format("%s: %d stages of radix %s in registers, exchanges through shared memory", what,
        #ctx.plan.stages, mixed_fft.radices_text(ctx))
end

-- Which element a register holds, for comments: butterfly q's input m of the first stage
-- (`first`) or its output m of the last is element it + W q + (N / R) m.
function mixed_fft.element_text(ctx, first)
    local plan = ctx.plan
    local st = plan.stages[first and 1 or #plan.stages]
    local step = plan.n // st.radix
    if st.b == 1 then
        return string.format("it + %d m (its butterfly's %s m)", step, first and "input" or "output")
    end
    return string.format("it + %d q + %d m (butterfly q's %s m)", plan.w, step, first and "input" or "output")
end

-- The registers of one channel set: prefix .. k, k = 0 .. registers - 1.
function mixed_fft.declare(c, ctx, prefixes)
    for _, prefix in ipairs(prefixes) do
        local names = {}
        for k = 0, ctx.plan.registers - 1 do names[#names + 1] = prefix .. k end
        c:line("$float2 %s;", table.concat(names, ", "))
    end
end

-- Runs the FFT on phys (the first stage's registers, k = q + m B, named prefix .. k; the
-- exchanges name theirs the same way), in a scope of its own (its stages name their twiddles
-- per stage); returns the last stage's out[q][m].
function mixed_fft.run(c, ctx, phys, prefix, sign, label)
    local out
    ctx.reg_prefix = prefix
    c:block("", function() out = steps.run(c, ctx, phys, sign, label) end)
    return out
end

mixed_fft.each_input = steps.each_input
mixed_fft.each_output = steps.each_output
mixed_fft.u = X.u
mixed_fft.plus = X.plus
mixed_fft.factor = X.factor
mixed_fft.literal = require("templates.fft.twiddle").literal

return mixed_fft
