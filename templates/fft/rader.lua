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
local steps = require("templates.fft.mixed_steps")
local io = require("templates.fft.mixed_io")

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

-- ---- the shader's parts (mixed.lua calls emit_load and emit) ------------------------

-- Where x[j] (1 <= j < N) waits in shared memory when Rader's row is staged there: slot j - 1
-- of this FFT's rader.row_stride.
local function rader_slot(ctx, j_minus_1)
    if ctx.ffts == 1 then return j_minus_1 end
    return string.format("row * %s + %s", u(ctx.rader_stride), X.factor(j_minus_1))
end

-- Rader's load: element j of the convolution is x[g^j mod N], g^(it + c) = gin g^c. Staged
-- (rader.staged): x[1..N-1] read in order into shared memory, then gathered from there; else
-- gathered from the buffer.
function rader.emit_load(c, ctx)
    local plan, st, N, g, D = ctx.plan, ctx.plan.stages[1], ctx.n, ctx.root, ctx.dialect
    local staged = ctx.rader_staged
    if staged then
        c:comment(string.format("Load x[1..%d] in order (consecutive invocations, consecutive elements) into " ..
            "shared slots 0..%d, so the gather below reads shared memory, not scattered addresses.", N - 1, N - 2))
        for k = 0, ctx.f.ept - 1 do
            c:line("%s = %s;", steps.reg_name(k), common.load_complex(ctx, ctx.src_at(io.plus("it", plan.w * k + 1))))
        end
        for k = 0, ctx.f.ept - 1 do
            c:line(X.shared_store(ctx, rader_slot(ctx, io.plus("it", plan.w * k)), steps.reg_name(k)))
        end
        c:line(D.barrier())
        ctx.shared_used = true
    end
    c:comment(string.format("Gather a[j] = x[g^j mod %d] (g = %d)%s: butterfly q of stage 1 reads elements j = " ..
        "it + %d q + %d m into registers q + %d m; gin = g^it mod %d.", N, g, staged and " from those slots" or "",
        plan.w, plan.n // st.radix, st.b, N))
    rader.emit_power(c, "gin", "it", g, rader.bits(plan.w), N)
    return steps.each_input(c, ctx, function(reg, x)
        local index = rader.index("gin", g, x, N)
        c:line("%s = %s;", reg, staged and X.shared_load(ctx, rader_slot(ctx, index .. " - 1u"))
            or common.load_complex(ctx, ctx.src_at(index)))
    end)
end

-- Rader's store: output element j of the inverse FFT is X[g^-j mod N]; gout = g^-(its thread
-- part), times the constant g^-(its constant part). Staged: scattered into shared slot
-- (g^-j mod N) - 1, then stored in order.
local function emit_store(c, ctx, out)
    local N, inv, D, W = ctx.n, rader.inverse(ctx.root, ctx.n), ctx.dialect, ctx.plan.w
    local staged = ctx.rader_staged
    local thread = steps.output_element(ctx, 0, 0)
    c:blank()
    c:comment(string.format("%s X[g^-j mod %d] = x[0] + (a (*) b)[j] for output element j%s; gout = " ..
        "g^-(%s) mod %d.", staged and "Scatter into shared slot X - 1:" or "Store", N,
        not staged and ctx.scale ~= 1 and ", times the norm's scale" or "", thread, N))
    if staged then c:line(D.barrier()) end
    rader.emit_power(c, "gout", thread, inv, rader.bits(thread == "it" and W or ctx.m), N)
    steps.each_output(ctx, out, function(reg, x, q, m, bound)
        local _, const = steps.output_element(ctx, q, m)
        local index = rader.index("gout", inv, const, N)
        local function store()
            if staged then
                c:line(X.shared_store(ctx, rader_slot(ctx, index .. " - 1u"), reg))
            else
                c:line(common.store_complex(ctx, ctx.dst_at(index), io.scaled(ctx, reg)))
            end
        end
        local cond = {}
        if bound then cond[#cond + 1] = string.format("it < %s", u(bound)) end
        if ctx.live and not staged then cond[#cond + 1] = ctx.live end
        if #cond > 0 then c:block(string.format("if (%s)", table.concat(cond, " && ")), store) else store() end
    end)
    if not staged then return end
    c:line(D.barrier())
    c:comment(string.format("Store X[1..%d] in order%s.", N - 1, ctx.scale ~= 1 and ", times the norm's scale" or ""))
    for k = 0, ctx.f.ept - 1 do
        local line = common.store_complex(ctx, ctx.dst_at(io.plus("it", W * k + 1)),
            io.scaled(ctx, X.shared_load(ctx, rader_slot(ctx, io.plus("it", W * k)))))
        if ctx.live then c:line("if (%s) %s", ctx.live, line) else c:line(line) end
    end
end

-- Rader's convolution, after its load: forward FFT, X[0], the product (mixed.lua's
-- emit_product; x[0] added at frequency 0), inverse FFT, the scattered store.
function rader.emit(c, ctx, phys, emit_product)
    local out = steps.run(c, ctx, phys, -1, string.format("Forward FFT of L = %d points. ", ctx.m))
    local dc = out[0][1] -- frequency 0 in invocation 0
    rader.emit_dc(c, ctx, dc)
    local nxt = emit_product(c, ctx, out, string.format("The product with the kernel's spectrum (divided by " ..
        "L = %d) at each output's frequency; frequency 0 adds x[0].", ctx.m))
    c:line("%s = it == 0u ? %s + x0 : %s;", dc, dc, dc)
    -- Every radix dividing E, output j of register k is the inverse's input in register k;
    -- else the registers may still hold the inverse's inputs, or one more exchange puts them there.
    if ctx.plan.exact then
        out = nxt
    else
        out = steps.handover(ctx, out) or steps.junction(c, ctx, out)
    end
    ctx.twiddle_fn, ctx.run_prefix = "fft_twiddle_inverse", "i"
    out = steps.run(c, ctx, out, 1, string.format("Inverse FFT of L = %d points. ", ctx.m))
    emit_store(c, ctx, out)
end

return rader
