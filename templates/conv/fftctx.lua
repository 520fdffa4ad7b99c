-- fftctx.lua: the FFT machinery of templates/fft/ as the convolution's shaders use it. A
-- shader's FFT is one of two shapes:
--   lines (along the first axis A1): one pair of image lines per workgroup, every channel in
--     registers (the channel is the register index's column bits, as --rows-per-wg's rows);
--   columns (along A2): C columns of a spectrum per workgroup in lanes (invocation t runs
--     column col0 + t mod C), one channel per workgroup.
-- This module builds the context templates/fft/steps.lua reads (the plan's geometry g, the
-- registers, the twiddles' sign, the shared arrays) and writes the helper functions the steps
-- call (fft_mul, fft_twiddle, the shared-memory swizzles).
local emit = require("templates.lib.emit")
local fft_plan = require("templates.fft.plan")
local twiddle = require("templates.fft.twiddle")
local steps = require("templates.fft.steps")
local common = require("templates.fft.common")
local X = require("templates.fft.expr")

local fftctx = {}

local log2, u = emit.log2, X.u

-- The geometry of one shape: n, e, w, cb (channel bits in registers), tc (column bits in
-- lanes), s (shuffle bits) and the shared budget in slots.
function fftctx.geometry(cfg)
    local shape = cfg.shape
    local lanes = shape.lanes > 0
    local g = {
        n = log2(shape.n), e = log2(shape.ept), w = log2(shape.wg),
        cb = lanes and 0 or cfg.sizes.channel_bits, tc = lanes and log2(shape.lanes) or 0,
        -- The FFT's shared budget (32 KB, less within WGSL's --wg-storage), so both plan alike.
        budget = common.budget_slots(cfg),
    }
    g.s = math.max(0, math.min(log2(math.max(cfg.subgroup, 1)) - g.tc, g.w))
    return g
end

-- The context steps.lua reads. sign: the twiddles' (-1 forward); every transform of one
-- shader uses one sign (an inverse of the other sign runs as conj(FFT(conj(x)))).
function fftctx.new(cfg, dialect, g, sign)
    local ctx = {
        cfg = cfg, dialect = dialect, g = g, sign = sign, forward = sign < 0, dif = true,
        registers = (1 << g.e) << g.cb, lanes = g.tc > 0, columns = 1 << g.tc,
        invocations = (1 << g.w) << g.tc,
        subgroup = g.s > 0 and cfg.subgroup or 0,
        lut = false, squared = false, swizzles = {}, shared_used = false,
        paired = cfg.shape.n >= 1024, slots = 0,
    }
    return ctx
end

-- Records the shared slots and swizzle helpers a list of plan steps needs.
function fftctx.account(ctx, plan_steps)
    for _, s in ipairs(plan_steps) do
        if s.slots and s.slots > ctx.slots then ctx.slots = s.slots end
        local helper = s.kind == "exchange" and steps.swizzle_helper(ctx, s)
        if helper then ctx.swizzles[helper] = true end
    end
end

-- The exchange arrays: the FFT's own, whose names expr.lua's shared_store and shared_load use.
fftctx.shared_arrays = common.exchange_arrays

-- Spells one plan step (not the load and the store, which each pass writes itself).
function fftctx.step(c, ctx, step)
    c:blank()
    if step.kind == "stage" then steps.stage(c, ctx, step)
    elseif step.kind == "shuffle_stage" then steps.shuffle_stage(c, ctx, step)
    elseif step.kind == "permute" then steps.permute(c, ctx, step)
    elseif step.kind == "exchange" then steps.exchange(c, ctx, step)
    elseif step.kind == "lane_swap" then steps.lane_swap(c, ctx, step)
    else error("conv: unexpected FFT step " .. step.kind) end
end

-- The helper functions: the complex product, the twiddles, the swizzles (the product and the
-- swizzles written by templates/fft/, as the FFT's shaders have them).
function fftctx.emit_helpers(c, ctx)
    common.emit_complex_product(c)
    twiddle.emit_device_function(c, 1 << ctx.g.n, ctx.sign, "fft_twiddle", false)
    c:blank()
    steps.emit_swizzles(c, ctx, function(bits)
        return string.format("Swizzle of the address above the column (slot = address x %d + " ..
            "column): XORs its higher %d-bit groups into its low %d bits, a bijection that spreads " ..
            "power-of-two strides over the banks.", ctx.columns, bits, bits)
    end)
end

-- Index expressions of register k in layout L (templates/fft/expr.lua's bit algebra):
--   position(L, k): the element's index j along the FFT (the DIF position; after a natural
--     reorder or a DIT, the natural index);
--   frequency(L, k): bitreverse(position), the frequency a DIF position holds;
--   channel(L, k): the register's column bits (line passes: the channel).
-- Each returns the invocation's part (an expression of t, or "0u") and the register's
-- constant part.
function fftctx.position(ctx, L, k)
    local n = ctx.g.n
    local map = function(b) if b < n then return b end end
    return X.thread_part(L, map) or "0u", X.register_part(L, k, map)
end

function fftctx.frequency(ctx, L, k)
    local n = ctx.g.n
    local map = function(b) if b < n then return n - 1 - b end end
    return X.thread_part(L, map) or "0u", X.register_part(L, k, map)
end

function fftctx.channel(ctx, L, k)
    local n = ctx.g.n
    return X.register_part(L, k, function(b) if b >= n then return b - n end end)
end

fftctx.plus = X.plus
fftctx.reg_name = X.reg_name
fftctx.u = u
fftctx.log2 = log2
fftctx.literal = twiddle.literal
fftctx.plan = fft_plan
fftctx.layout_text = steps.layout_text

return fftctx
