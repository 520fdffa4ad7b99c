-- rader.lua: Rader's FFT of a prime N in one workgroup (mixed.lua runs its two FFTs of
-- L = N - 1 points). With g a primitive root mod N, a[q] = x[g^q] and b[p] = w^(g^-p)
-- (w = exp(-+2 pi i / N)), X[g^-m] = x[0] + (a (*) b)[m], the cyclic convolution of L
-- points, and X[0] = x[0] + sum a = x[0] + A[0]. So: load a (a gather), forward FFT, keep
-- X[0], the product with B / L (the table `spectrum`, libspdrt's spdrt_fft_rader_tables)
-- plus x[0] at frequency 0 (the unnormalized inverse adds it to every output), inverse FFT,
-- store (a scatter). The direction is in the table alone; the FFTs are forward then inverse.
-- The index maps are powers of g computed from the invocation's bits: g^(it + c) = g^c x the
-- product of g^(2^b) over it's set bits b, each a constant, all below N^2 < 2^32.
local X = require("templates.fft.expr")
local common = require("templates.fft.common")

local rader = {}

local u = X.u

-- base^e mod n for integers (e >= 0).
local function power(base, e, n)
    local r, b = 1, base % n
    while e > 0 do
        if e % 2 == 1 then r = r * b % n end
        b = b * b % n
        e = e // 2
    end
    return r
end
rader.power = power

-- The inverse of g mod the prime n (Fermat).
function rader.inverse(g, n) return power(g, n - 2, n) end

-- Declares `name` = base^(exponent) mod n for a runtime exponent below 2^bits: the product
-- of the constants base^(2^b) over its set bits.
function rader.emit_power(c, name, exponent, base, bits, n)
    c:line("uint %s = 1u;", name)
    for b = 0, bits - 1 do
        c:line("%s = (%s & %s) != 0u ? %s * %s %% %s : %s;", name, X.factor(exponent), u(1 << b), name,
            u(power(base, 1 << b, n)), u(n), name)
    end
end

-- Bits of every value below `limit`.
function rader.bits(limit)
    local b = 0
    while (1 << b) < limit do b = b + 1 end
    return b
end

-- The index base^(e + const) mod n, `var` holding base^e mod n.
function rader.index(var, base, const, n)
    local k = power(base, const, n)
    if k == 1 then return var end
    return string.format("%s * %s %% %s", var, u(k), u(n))
end

-- Whether the row passes through shared memory on the way in and out (its gather and
-- scatter then read and write shared memory, the buffer in order): where every exchange
-- holds all of the workgroup's L-point rows at once, so the slots exist already.
function rader.staged(ctx)
    if #ctx.plan.stages < 2 then return false end
    for _, st in ipairs(ctx.plan.stages) do
        if (st.rounds or 1) > 1 then return false end
    end
    return ctx.slots >= ctx.plan.n * ctx.ffts
end

-- The slots between two staged rows: L, or L + W where L is a multiple of 32 and a subgroup
-- of 32 holds several rows of W invocations, which would otherwise meet in the same banks
-- (where the padded rows still fit the shared-memory budget).
function rader.row_stride(ctx)
    local L, W = ctx.plan.n, ctx.plan.w
    if ctx.ffts > 1 and L % 32 == 0 and W < 32 and 32 % W == 0 and
        (L + W) * ctx.ffts <= common.budget_slots(ctx.cfg) then
        return L + W
    end
    return L
end

-- X[0] = x[0] + A[0] (A[0]: register reg of invocation 0, frequency 0 of the forward FFT),
-- stored scaled; x0 declared for the product.
function rader.emit_dc(c, ctx, reg)
    c:blank()
    c:comment("X[0] = x[0] + A[0], the sum of every input; x[0] joins every other output through " ..
        "frequency 0 of the product.")
    c:line("$float2 x0 = %s;", common.load_complex(ctx, ctx.src_at("0")))
    local cond = "it == 0u" .. (ctx.live and " && " .. ctx.live or "")
    c:block(string.format("if (%s)", cond), function()
        c:line(common.store_complex(ctx, ctx.dst_at("0"), common.scaled(ctx, string.format("(x0 + %s)", reg))))
    end)
end

return rader
