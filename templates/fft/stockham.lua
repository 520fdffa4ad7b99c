-- stockham.lua: the mixed-radix plan as data (no shader text here; mixed.lua spells it).
--
-- N = R_1 x ... x R_S points, W invocations, E = N / W values each (gen/fft/fft_radix.c
-- chose the radices and each exchange's rounds). A Stockham autosort, so the input and the
-- output are in natural order: stage s, with p = R_1 ... R_(s-1), runs the N / R butterflies
-- i = 0..N/R - 1 of R = R_s points; butterfly i reads the elements i + m N / R (m = 0..R-1),
-- multiplies input m by w_N^(m (i mod p) N / (p R)) (w_N = exp(sign 2 pi i / N)), takes the
-- R-point DFT and writes output m to element (i div p) p R + (i mod p) + m p. Invocation t
-- runs butterflies i = t + W q, q = 0..B-1 (B = ceil(E / R)); where R does not divide E the
-- last ones are idle in some invocations ("guarded"). Between stages the outputs go through
-- shared memory; the last stage's outputs are the frequencies, in natural order.
--
-- Each stage's twiddles and output places are t's part plus a constant per butterfly when
-- p divides W (t's part: t mod p; "thread") or W divides p (i mod p = t + W (q mod p/W);
-- "thread_const"); otherwise t + W q is split per butterfly ("general").
--
-- An exchange in Q rounds (where the whole transform does not fit the shared memory; only
-- when every radix divides E): round a writes the outputs of butterflies q in [a B/Q,
-- (a+1) B/Q), all elements in [a N/Q, (a+1) N/Q), and the next stage reads exactly those:
-- its register k = q' + m' B' holds element t + W k, k in [a E/Q, (a+1) E/Q).
-- Where some radix does not divide E, an exchange that does not fit at once runs by
-- component instead ("components"): two rounds of all N values, the real parts, then the
-- imaginary parts (4 bytes each), each written and read as a round of one.
local stockham = {}

local function gcd(a, b)
    while b ~= 0 do a, b = b, a % b end
    return a
end

-- cfg: n, ept (E), wg (W), radices, rounds (one per exchange), components (every exchange
-- by component). Returns the plan: { n, e, w, stages = { { radix, b, p, flies, twiddles,
-- rounds, exact } }, registers, slots (the largest round, for one FFT: complex values, or
-- floats by component), exact (every radix divides E), components }.
function stockham.build(n, e, w, radices, rounds, components)
    assert(n == e * w, "stockham: N = E x W")
    local plan = { n = n, e = e, w = w, stages = {}, registers = 0, slots = 0, exact = true,
        components = components or false }
    local p = 1
    for s, r in ipairs(radices) do
        assert(n % (p * r) == 0, "stockham: the radices do not make N")
        local b = (e + r - 1) // r
        local st = { radix = r, b = b, p = p, flies = n // r, exact = e % r == 0, index = s }
        st.twiddles = p == 1 and "none" or w % p == 0 and "thread" or p % w == 0 and "thread_const" or "general"
        if s < #radices then
            st.rounds = rounds[s] or 1
            local q = st.rounds
            if plan.components then
                assert(q == 2, "stockham: an exchange by component is two rounds")
                q = 1 -- each round holds all N values, one float each
            elseif q > 1 then
                assert(b % q == 0 and (n // (p * r)) % q == 0 and e % r == 0,
                    "stockham: rounds that do not split the butterflies")
            end
            if n // q > plan.slots then plan.slots = n // q end
        end
        if b * r > plan.registers then plan.registers = b * r end
        plan.exact = plan.exact and st.exact
        plan.stages[s] = st
        p = p * r
    end
    assert(p == n, "stockham: the radices do not make N")
    for s = 1, #plan.stages - 1 do
        if plan.stages[s].rounds > 1 and not plan.components then
            assert(plan.exact, "stockham: rounds need every radix to divide E")
        end
    end
    return plan
end

-- The bound on t of butterfly q (t + W q < N / R), or nil when every invocation runs it.
function stockham.guard(plan, st, q)
    local left = st.flies - plan.w * q
    if left >= plan.w then return nil end
    assert(left > 0, "stockham: a butterfly no invocation runs")
    return left
end

-- Where butterfly q's output m goes, past the thread part (an expression in `it`, the
-- invocation's index in its FFT, named by the caller: "thread": (it / p) p R + it mod p;
-- "thread_const": it; "general": per butterfly): the constant (q div per) A + (q mod per) B
-- + m C, as { per (nil: no split, q B), A, B, C }. One formula for the constant of a known
-- q and m (output_const) and for q and m held in variables (mixed_steps.lua).
function stockham.output_terms(plan, st)
    local p, r, w = st.p, st.radix, plan.w
    if st.twiddles == "none" or st.twiddles == "thread" then return { b = w * r, c = p } end
    if st.twiddles == "thread_const" then return { per = p // w, a = p * r, b = w, c = p } end
    return { b = 0, c = p }
end

function stockham.output_const(plan, st, q, m)
    local t = stockham.output_terms(plan, st)
    if t.per then return (q // t.per) * t.a + (q % t.per) * t.b + m * t.c end
    return q * t.b + m * t.c
end

-- The twiddle exponent's constant part for butterfly q, input m, in units of w_N
-- ("thread_const": m W (q mod p/W) N / (p R)); the runtime part is m x (t's exponent).
function stockham.twiddle_const(plan, st, q, m)
    if st.twiddles ~= "thread_const" then return 0 end
    local per = st.p // plan.w
    return m * plan.w * (q % per) * (plan.n // (st.p * st.radix))
end

-- The rounds of the exchange after stage s: for round a, the butterflies q it writes and the
-- next stage's logical registers k it reads.
function stockham.round_sets(plan, s, a)
    local st, nx = plan.stages[s], plan.stages[s + 1]
    local q = st.rounds
    local writes, reads = {}, {}
    for b = a * st.b // q, (a + 1) * st.b // q - 1 do writes[#writes + 1] = b end
    for k = a * plan.e // q, (a + 1) * plan.e // q - 1 do reads[#reads + 1] = k end
    assert(not plan.components, "stockham: an exchange by component writes and reads everything")
    assert(q == 1 or nx.exact, "stockham: rounds need the next stage's radix to divide E")
    return writes, reads
end

stockham.gcd = gcd
return stockham
