-- mixed_steps.lua: one mixed-radix FFT spelled for the target: each stage's twiddles, its
-- butterflies in registers, and the exchange through shared memory to the next stage, as
-- stockham.lua plans them. The load before the first stage and what happens to the last
-- stage's outputs are the caller's (mixed.lua): a store, or Bluestein's product and second
-- FFT.
local stockham = require("templates.fft.stockham")
local radix = require("templates.fft.radix")
local X = require("templates.fft.expr")

local steps = {}

local function u(n) return string.format("%du", n) end
local function reg_name(k) return "v" .. k end

-- "it", "(it / p) * pR + it % p" ...: the invocation's part of butterfly outputs' elements.
local function output_thread(plan, st)
    local p, r = st.p, st.radix
    if st.twiddles == "none" then return string.format("it * %s", u(r)) end
    if st.twiddles == "thread" then
        if p == plan.w then return "it" end
        return string.format("(it / %s) * %s + it %% %s", u(p), u(p * r), u(p))
    end
    if st.twiddles == "thread_const" then return "it" end
    return nil -- general: per butterfly
end

-- The twiddle factors of stage st: a function (q, m) -> the runtime factor's expression (nil
-- for none) and the constant exponent (w_N units) to rotate by. w^(m e) for m = 1..R-1 is
-- H_(m div s) x P_(m mod s), s = ceil(sqrt R): about 2 sqrt(R) polynomials per stage (per
-- butterfly where the exponent is not the invocation's alone), each factor one or two
-- products.
local function twiddle_parts(c, ctx, st, e, prefix)
    local R = st.radix
    local s = math.ceil(math.sqrt(R))
    while s * s < R do s = s + 1 end
    local lows, highs = {}, {}
    for m = 1, R - 1 do
        if m % s ~= 0 then lows[m % s] = true end
        if m >= s then highs[m // s] = true end
    end
    for i = 1, s - 1 do
        if lows[i] then
            c:line("$float2 %sl%d = %s(%s);", prefix, i, ctx.twiddle_fn or "fft_twiddle",
                i == 1 and e or string.format("%s * %s", u(i), e))
        end
    end
    for j = 1, (R - 1) // s do
        if highs[j] then
            c:line("$float2 %sh%d = %s(%s * %s);", prefix, j, ctx.twiddle_fn or "fft_twiddle", u(j * s), e)
        end
    end
    return function(m)
        local lo, hi = m % s, m // s
        if hi == 0 then return string.format("%sl%d", prefix, lo) end
        if lo == 0 then return string.format("%sh%d", prefix, hi) end
        return string.format("fft_mul(%sh%d, %sl%d)", prefix, hi, prefix, lo)
    end
end

-- The stage's shared twiddle parts ("thread" and "thread_const" stages), before its
-- butterflies. Returns the per-butterfly function (nil: no twiddles).
local function stage_twiddles(c, ctx, st)
    local plan = ctx.plan_now
    if st.twiddles == "none" then return nil end
    local unit = plan.n // (st.p * st.radix)
    if st.twiddles == "general" then
        return function(q) -- emitted inside butterfly q's block
            c:note(string.format("uint e = ((it + %s) %% %s) * %s;", u(plan.w * q), u(st.p), u(unit)),
                "(i mod p) N / (p R) for this butterfly i")
            return twiddle_parts(c, ctx, st, "e", "w")
        end
    end
    local name = "e" .. (ctx.run_prefix or "") .. st.index
    local kk = st.twiddles == "thread" and st.p ~= plan.w and string.format("(it %% %s)", u(st.p)) or "it"
    c:note(string.format("uint %s = %s%s;", name, kk, unit == 1 and "" or " * " .. u(unit)),
        string.format("(i mod p) N / (p R): i mod %d is %s", st.p, st.twiddles == "thread" and
            "the invocation's alone" or "the invocation's plus a constant per butterfly"))
    local parts = twiddle_parts(c, ctx, st, name, "w" .. (ctx.run_prefix or "") .. st.index)
    return function() return parts end
end

-- Butterflies of stage st on the registers phys[k] (k = q + m B); returns out[q][m], the
-- register holding output m of butterfly q.
local function butterflies(c, ctx, st, phys, sign)
    local plan = ctx.plan_now
    local out = {}
    local tw = stage_twiddles(c, ctx, st)
    for q = 0, st.b - 1 do
        local regs = {}
        for m = 0, st.radix - 1 do regs[m + 1] = phys[q + m * st.b] end
        local bound = stockham.guard(plan, st, q)
        local function body()
            if tw then
                local parts = tw(q)
                for m = 1, st.radix - 1 do
                    c:line("%s = fft_mul(%s, %s);", regs[m + 1], regs[m + 1], parts(m))
                    local k = stockham.twiddle_const(plan, st, q, m)
                    if k ~= 0 then radix.rotate(c, regs[m + 1], k, plan.n, sign) end
                end
            end
            out[q] = radix.dft(c, regs, sign)
        end
        if bound or st.twiddles == "general" then
            c:block(bound and string.format("if (it < %s)", u(bound)) or "", body)
        else
            body()
        end
    end
    return out
end

-- Where this FFT's values sit in shared memory: x_local (the element's slot in a round, an
-- expression in it plus a constant) placed among the workgroup's FFTs: blocks of `size`
-- slots (rows), or interleaved (columns in lanes: neighbouring invocations, neighbouring
-- slots).
local function slot_thread(ctx, thread, size)
    if ctx.ffts == 1 then return thread end
    if ctx.interleaved then return string.format("%s * %s + row", X.factor(thread), u(ctx.ffts)) end
    return string.format("row * %s + %s", u(size), X.factor(thread))
end
local function slot_const(ctx, const)
    return ctx.interleaved and ctx.ffts > 1 and const * ctx.ffts or const
end

-- The exchange after stage s: its outputs out[q][m] through shared memory, in rounds, into
-- the next stage's registers; returns them (phys[k], k = q' + m' B'). junction: after the last
-- stage, into the first stage of the next FFT (a convolution's inverse), in one round.
local function exchange(c, ctx, s, out, junction)
    local D, plan = ctx.dialect, ctx.plan_now
    local st, nx = plan.stages[s], plan.stages[junction and 1 or s + 1]
    local Q = junction and 1 or st.rounds
    -- By component: every value in each round, its real part, then its imaginary part.
    local parts = not junction and plan.components and { "x", "y" }
    local size = parts and plan.n or plan.n // Q
    local thread = output_thread(plan, st)
    local rounds
    if parts then
        rounds = string.format("Two rounds of %d floats, the real parts of every value, then the imaginary " ..
            "parts (a radix that does not divide E leaves no ranges of elements to split by)", size * ctx.ffts)
    elseif Q == 1 then
        rounds = string.format("One round of %d slots", size * ctx.ffts)
    else
        rounds = string.format("%d rounds of %d slots, each the elements [a %d, (a + 1) %d) (the outputs of " ..
            "a range of butterflies, the inputs of a range of registers)", Q, size * ctx.ffts, size, size)
    end
    c:comment(string.format("Exchange through shared memory: output m of butterfly i goes to element " ..
        "(i div %d) %d + (i mod %d) + %d m, where %s's butterfly i' reads its input m' from element " ..
        "i' + %d m'. %s.", st.p, st.p * st.radix, st.p, st.p, junction and "the inverse's stage 1" or
        "stage " .. (s + 1), plan.n // nx.radix, rounds))
    local phys = {}
    c:block("", function()
        if thread then c:line("uint wa = %s;", slot_thread(ctx, thread, size)) end
        c:line("uint ra = %s;", slot_thread(ctx, "it", size))
        for a = 0, Q - 1 do
            if ctx.shared_used then c:line(D.barrier()) end
            local writes = {}
            if Q == 1 or parts then
                for q = 0, st.b - 1 do writes[#writes + 1] = q end
            else
                writes = stockham.round_sets(plan, s, a)
            end
            local freed = {}
            for _, q in ipairs(writes) do
                local bound = stockham.guard(plan, st, q)
                local function body()
                    local base = "wa"
                    if not thread then
                        c:line("uint i = it + %s;", u(plan.w * q))
                        c:line("uint wq = %s;", slot_thread(ctx, string.format("(i / %s) * %s + i %% %s", u(st.p),
                            u(st.p * st.radix), u(st.p)), size))
                        base = "wq"
                    end
                    for m = 0, st.radix - 1 do
                        local k = stockham.output_const(plan, st, q, m) - (parts and 0 or a * size)
                        local at = k == 0 and base or string.format("%s + %s", base, u(slot_const(ctx, k)))
                        c:line(parts and X.shared_store_part(at, out[q][m + 1], parts[a + 1]) or
                            X.shared_store(ctx, at, out[q][m + 1]))
                        freed[#freed + 1] = out[q][m + 1]
                    end
                end
                if bound or not thread then
                    c:block(bound and string.format("if (it < %s)", u(bound)) or "", body)
                else
                    body()
                end
            end
            c:line(D.barrier())
            if parts then
                -- The other component of each register is still to be written: set this one.
                phys = steps.each_input(c, ctx, function(reg, at)
                    c:line("%s.%s = %s;", reg, parts[a + 1], X.shared_load_part(at == 0 and "ra" or
                        string.format("ra + %s", u(slot_const(ctx, at)))))
                end, nx)
            elseif Q == 1 then
                phys = steps.each_input(c, ctx, function(reg, at)
                    c:line("%s = %s;", reg, X.shared_load(ctx, at == 0 and "ra" or
                        string.format("ra + %s", u(slot_const(ctx, at)))))
                end, nx)
            else
                local _, reads = stockham.round_sets(plan, s, a)
                table.sort(freed, function(x, y) return tonumber(x:match("%d+$")) < tonumber(y:match("%d+$")) end)
                assert(#freed == #reads, "mixed: a round reads as many values as it writes")
                for i, k in ipairs(reads) do
                    phys[k] = freed[i]
                    local at = plan.w * k - a * size
                    c:line("%s = %s;", phys[k], X.shared_load(ctx, at == 0 and "ra" or
                        string.format("ra + %s", u(slot_const(ctx, at)))))
                end
            end
            ctx.shared_used = true
        end
    end)
    return phys
end

-- Runs the stages of ctx.plan_now on phys (the first stage's registers, k = q + m B) with
-- `sign`; returns the last stage's out[q][m] (its outputs are elements
-- output_element(q, m)).
function steps.run(c, ctx, phys, sign, label)
    local plan = ctx.plan_now
    local out
    for s, st in ipairs(plan.stages) do
        c:blank()
        c:comment(string.format("%sStage %d of %d: %d butterflies of radix %s, %d per invocation (butterfly " ..
            "i = it + %d q)%s; input m times w_N^(m (i mod %d) %d)%s.", label or "", s, #plan.stages, st.flies,
            radix.describe(st.radix), st.b, plan.w, st.b * plan.w > st.flies and string.format(", idle " ..
            "where i >= %d", st.flies) or "", st.p, plan.n // (st.p * st.radix), st.p == 1 and " (all 1)" or ""))
        out = butterflies(c, ctx, st, phys, sign)
        if s < #plan.stages then
            c:blank()
            phys = exchange(c, ctx, s, out)
        end
    end
    return out
end

-- A convolution's FFTs where some radix does not divide E: the inverse's first-stage registers
-- (phys[k], k = q + m B) where the last stage's outputs already hold each invocation's inputs
-- (both elements it + constants, no invocation idle); nil otherwise.
function steps.handover(ctx, out)
    local plan = ctx.plan_now
    local last, first = plan.stages[#plan.stages], plan.stages[1]
    local held = {}
    for q = 0, last.b - 1 do
        if stockham.guard(plan, last, q) then return nil end
        for m = 0, last.radix - 1 do
            local thread, const = steps.output_element(ctx, q, m)
            if thread ~= "it" then return nil end
            held[const] = out[q][m + 1]
        end
    end
    local phys = {}
    for q = 0, first.b - 1 do
        if stockham.guard(plan, first, q) then return nil end
        for m = 0, first.radix - 1 do
            phys[q + m * first.b] = held[steps.input_element(ctx, q, m)]
            if not phys[q + m * first.b] then return nil end
        end
    end
    return phys
end

-- Otherwise the last stage's outputs (element output_element(q, m)) go through shared memory
-- into the inverse's first-stage registers.
function steps.junction(c, ctx, out)
    for _, st in ipairs(ctx.plan_now.stages) do
        assert((st.rounds or 1) == 1, "mixed: a junction needs every exchange in one round")
    end
    c:blank()
    return exchange(c, ctx, #ctx.plan_now.stages, out, true)
end

-- Element index of the last stage's output m of butterfly q, as (thread part, constant).
function steps.output_element(ctx, q, m)
    local plan = ctx.plan_now
    local st = plan.stages[#plan.stages]
    local thread = output_thread(plan, st)
    -- General twiddles place each butterfly apart; in the last stage butterfly i = it + W q
    -- is below N / R = p, so its output m is element i + m p.
    if not thread then return "it", plan.w * q + m * st.p end
    return thread, stockham.output_const(plan, st, q, m)
end

-- output_element for a butterfly q and an output m held in variables (a loop over the last
-- stage's outputs): (thread part, the constant part as an expression in qv and mv).
function steps.output_element_expr(ctx, qv, mv)
    local plan = ctx.plan_now
    local st = plan.stages[#plan.stages]
    local t = stockham.output_terms(plan, st)
    local thread = output_thread(plan, st)
    local function times(v, k) return k == 1 and v or string.format("%s * %s", v, u(k)) end
    local terms = {}
    if not thread then terms[1] = times(qv, plan.w) end -- as output_element: butterfly it + W q
    if t.per then
        terms[#terms + 1] = string.format("(%s / %s) * %s", qv, u(t.per), u(t.a))
        terms[#terms + 1] = string.format("(%s %% %s) * %s", qv, u(t.per), u(t.b))
    elseif t.b ~= 0 then
        terms[#terms + 1] = times(qv, t.b)
    end
    terms[#terms + 1] = times(mv, t.c)
    return thread or "it", table.concat(terms, " + ")
end

-- The first stage's input m of butterfly q: element it + W q + m N / R.
function steps.input_element(ctx, q, m)
    local plan = ctx.plan_now
    local st = plan.stages[1]
    return plan.w * q + m * (plan.n // st.radix)
end

-- The inputs of stage st (the first by default), register by register, within the guard of
-- idle butterflies: fn(reg, x, k) loads element it + x (x = W q + m N / R) into register reg
-- (named ctx.reg_prefix .. k, "v" by default); returns the registers (phys[k], k = q + m B).
function steps.each_input(c, ctx, fn, st)
    local plan = ctx.plan_now
    st = st or plan.stages[1]
    local phys = {}
    for q = 0, st.b - 1 do
        local bound = stockham.guard(plan, st, q)
        local function body()
            for m = 0, st.radix - 1 do
                local k = q + m * st.b
                phys[k] = (ctx.reg_prefix or "v") .. k
                fn(phys[k], plan.w * q + m * (plan.n // st.radix), k)
            end
        end
        if bound then c:block(string.format("if (it < %s)", u(bound)), body) else body() end
    end
    return phys
end

-- The last stage's outputs, element by element: fn(reg, x_expr, q, m).
function steps.each_output(ctx, out, fn)
    local plan = ctx.plan_now
    local st = plan.stages[#plan.stages]
    for q = 0, st.b - 1 do
        local bound = stockham.guard(plan, st, q)
        for m = 0, st.radix - 1 do
            local thread, const = steps.output_element(ctx, q, m)
            fn(out[q][m + 1], X.plus(thread or "it", const), q, m, bound)
        end
    end
end

steps.reg_name = reg_name
steps.slot_thread = slot_thread
steps.slot_const = slot_const
return steps
