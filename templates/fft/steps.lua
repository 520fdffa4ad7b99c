-- fft_steps.lua: the FFT's butterfly and exchange steps, spelled for the target: stages in
-- registers, stages across lanes by shuffles, register renaming, shared-memory exchanges in
-- rounds, and lane/register swaps. templates/fft_plan.lua says which steps; ctx (made by
-- templates/fft.lua) carries the dialect, the configuration and the plan.
local fft_plan = require("templates.fft.plan")
local twiddle = require("templates.fft.twiddle")
local X = require("templates.fft.expr")

local u, reg_name = X.u, X.reg_name
local thread_part, register_part = X.thread_part, X.register_part
local swizzle, swizzle_bits, conflict_ways = X.swizzle, X.swizzle_bits, X.conflict_ways

local steps = {}

-- The twiddle for a runtime exponent expression.
local function twiddle_expr(ctx, k)
    if not ctx.lut then return string.format("fft_twiddle(%s)", k) end
    return ctx.forward and string.format("twiddle_lut[%s]", k) or string.format("fft_conj(twiddle_lut[%s])", k)
end

-- What a twiddle exponent's mask and shift take: (j mod 2^b) << shift, from t's bits.
local function exponent_note(ctx, L, b, shift)
    local low = function(x) if x < b then return x end end
    local what = shift > 0 and string.format("(j mod %d) << %d", 1 << b, shift) or string.format("j mod %d", 1 << b)
    return string.format("%s: %s", what, X.thread_part_note(L, low, "j bits"))
end

-- Stage on bit b in registers: pairs (k0, k1) of registers differing in b's register bit.
-- Whether register k of layout L holds an element some output needs. A kernel whose
-- registers carry padding elements that never meet the others (the convolution's line passes
-- hold 3 channels in 4 column slots) sets ctx.dead(L, k); every step skips those registers
-- (butterflies and exchanges only ever combine or move elements of one column).
local function live(ctx, L, k) return not ctx.dead or not ctx.dead(L, k) end

local function emit_stage(c, ctx, step)
    local g, L, b = ctx.g, step.layout, step.bit
    local _, r = fft_plan.where(L, b)
    local shift = g.n - 1 - b
    -- The twiddle exponent is (j mod 2^b) << shift: the invocation's part once per stage,
    -- the register's part a constant.
    local low = function(x) if x < b then return x end end
    local runtime = thread_part(L, low)
    c:comment(string.format("Butterflies on bit %d (partners %d apart), in registers.", b, 1 << b))
    -- --twiddles squared: the stage before ran on bit b + 1 with the same invocation part one
    -- shift lower, so this exponent is twice its exponent and w^2e = (w^e)^2: three multiplies
    -- instead of a polynomial. Only from an evaluated twiddle, so each squared one is a single
    -- squaring away from the polynomial (about one ulp more error).
    local before = ctx.stage_twiddle
    local square = runtime ~= nil and ctx.squared and before ~= nil and not before.squared
        and before.runtime == runtime and before.shift + 1 == shift
    local base = nil
    if runtime and not square then
        base = "e" .. b
        c:note(string.format("uint %s = %s;", base, shift > 0 and string.format("(%s) << %s", runtime, u(shift))
            or runtime), exponent_note(ctx, L, b, shift))
    end
    -- Computed twiddles: w^(base + kconst) = w^base x w^kconst, so the polynomial runs once
    -- per stage and each butterfly multiplies by a compile-time constant (a product costs a
    -- fraction of a polynomial; the extra rounding is about one ulp).
    local w_base = nil
    if square then
        w_base = "w" .. b
        local v = before.name
        c:line("$float2 %s = $float2((%s.x + %s.y) * (%s.x - %s.y), 2.0f * %s.x * %s.y);", w_base,
            v, v, v, v, v, v)
    elseif base and not ctx.lut then
        w_base = "w" .. b
        c:line("$float2 %s = %s;", w_base, twiddle_expr(ctx, base))
    end
    ctx.stage_twiddle = w_base and { name = w_base, runtime = runtime, shift = shift, squared = square } or nil
    for k0 = 0, ctx.registers - 1 do
        if (k0 >> r) & 1 == 0 and (live(ctx, L, k0) or live(ctx, L, k0 | (1 << r))) then
            local k1 = k0 | (1 << r)
            local a, bb = reg_name(k0), reg_name(k1)
            local kconst = (register_part(L, k0, low)) << shift
            local function times_w(v)
                if w_base then
                    local w = twiddle.times_constant(w_base, kconst, 1 << g.n, ctx.sign, "$float2") or w_base
                    return string.format("fft_mul(%s, %s)", v, w)
                end
                if base then
                    return string.format("fft_mul(%s, %s)", v, twiddle_expr(ctx,
                        kconst > 0 and string.format("%s + %s", base, u(kconst)) or base))
                end
                return twiddle.times_constant(v, kconst, 1 << g.n, ctx.sign, "$float2")
            end
            if ctx.dif then
                local d = times_w("d")
                if d then
                    c:line("{ $float2 d = %s - %s; %s += %s; %s = %s; }", a, bb, a, bb, bb, d)
                else
                    c:line("{ $float2 d = %s - %s; %s += %s; %s = d; }", a, bb, a, bb, bb)
                end
            else
                local p = times_w(bb)
                if p then
                    c:line("{ $float2 p = %s; %s = %s - p; %s += p; }", p, bb, a, a)
                else
                    c:line("{ $float2 p = %s; %s = %s - p; %s += p; }", bb, bb, a, a)
                end
            end
        end
    end
end

-- The mask of lane bit q and the partner it gives, for a comment.
local function lane_note(ctx, q, index_bit)
    local what = index_bit and string.format("lane bit %d holds index bit %s", q, index_bit)
        or string.format("lane bit %d", q)
    if ctx.subgroup == 4 then
        return string.format("%s: the partner is lane ^ %d (a quad swap)", what, 1 << q)
    end
    return string.format("%s: the partner is lane ^ %s", what, u(1 << q))
end

local function shuffle(ctx, v, lane_bit)
    local D = ctx.dialect
    if ctx.subgroup == 4 then return D.quad_swap(v, 1 << lane_bit, "float2") end
    return D.shuffle_xor(v, 1 << lane_bit, "float2")
end

-- Stage on bit b, held by lane bit q: partners sit in lanes 2^q apart (q = b, or b + log2 C
-- in the lanes layout); each lane keeps its index bits and computes its own half of the
-- butterfly from its value and its partner's.
local function emit_shuffle_stage(c, ctx, step)
    local g, b = ctx.g, step.bit
    local _, q = fft_plan.where(step.layout, b)
    local shift = g.n - 1 - b
    c:comment(string.format("Butterflies on bit %d (partners %d apart): in lanes %d apart of one " ..
        "subgroup, traded by %s. Each lane computes its own half: the lower %s.", b, 1 << b, 1 << q,
        ctx.subgroup == 4 and "quad swaps" or "XOR shuffles",
        ctx.dif and "the sum, the upper (lower - upper) x w" or "lower + w x upper, the upper lower - w x upper"))
    c:block("", function()
        c:note(string.format("bool upper = (t & %s) != 0u;", u(1 << q)), lane_note(ctx, q, tostring(b)))
        local has_tw = b > 0
        if has_tw then
            -- The twiddle exponent: j's bits below b (held by the lanes below q) << shift.
            local low = thread_part(step.layout, function(x) if x < b then return x end end)
            local k = string.format("(%s) << %s", low, u(shift))
            local note = exponent_note(ctx, step.layout, b, shift)
            if ctx.dif then
                c:note(string.format("$float2 w = upper ? %s : $float2(1.0f, 0.0f);", twiddle_expr(ctx, k)), note)
            else
                c:note(string.format("$float2 w = %s;", twiddle_expr(ctx, k)), note)
            end
        end
        for k = 0, ctx.registers - 1 do
            if not live(ctx, step.layout, k) then goto next end
            local v = reg_name(k)
            c:line("%s o%d = %s;", "$float2", k, shuffle(ctx, v, q))
            if ctx.dif then
                local sum = string.format("upper ? o%d - %s : %s + o%d", k, v, v, k)
                c:line(has_tw and "%s = fft_mul(%s, w);" or "%s = %s;", v, sum)
            else
                c:line(has_tw and "{ $float2 p = fft_mul(upper ? %s : o%d, w); %s = upper ? o%d - p : %s + p; }"
                    or "{ $float2 p = upper ? %s : o%d; %s = upper ? o%d - p : %s + p; }", v, k, v, k, v)
            end
            ::next::
        end
    end)
end

-- Register renaming: the same invocations hold the same elements in other registers.
local function emit_permute(c, ctx, step)
    local A, B = step.from, step.to
    local all = function(x) return x end
    local moves = {}
    for kb = 0, ctx.registers - 1 do
        local want = register_part(B, kb, all)
        for ka = 0, ctx.registers - 1 do
            if register_part(A, ka, all) == want and ka ~= kb and live(ctx, A, ka) then
                moves[#moves + 1] = { from = ka, to = kb }
            end
        end
    end
    if #moves == 0 then return end
    c:comment("Registers renamed: each invocation already holds the elements of the next layout.")
    c:block("", function()
        for _, m in ipairs(moves) do c:line("$float2 r%d = %s;", m.from, reg_name(m.from)) end
        for _, m in ipairs(moves) do c:line("%s = r%d;", reg_name(m.to), m.from) end
    end)
end

-- Index bits as the comments name them: bits of j by number, column bits as c0, c1, ...
local function bit_names(ctx, bits)
    local names = {}
    for i, b in ipairs(bits) do names[i] = b < ctx.g.n and tostring(b) or "c" .. (b - ctx.g.n) end
    return table.concat(names, ",")
end

local function layout_text(ctx, L)
    local r, t = {}, {}
    for i = #L.reg, 1, -1 do r[#r + 1] = L.reg[i] end
    for q = #L.thr, 1, -1 do t[#t + 1] = L.thr[q] end
    return string.format("registers hold index bits {%s}, invocations {%s}", bit_names(ctx, r), bit_names(ctx, t))
end

-- An expression as an operand of << or |: names and calls as they are, others in parentheses.
local function operand(e) return (e:match("^[%w_]+$") or e:match("^[%w_]+%b()$")) and e or "(" .. e .. ")" end

-- Where an exchange's slots are: "wa"/"ra" hold the invocation's part, each register adds a
-- constant, and the slot is XOR-swizzled (a bijection; an exchange writes and reads through
-- the same one, so each exchange may pick its own) to spread the lanes of a subgroup over
-- the 32 banks:
--   "slot": the slot's 5-bit groups above bit 4 fold into its low 5 bits (fft_swizzle);
--   "address" (lanes layout): the column stays the slot's low tc bits (the C columns of a
--     subgroup in C banks) and the address above it folds its (5 - tc)-bit groups into its
--     low 5 - tc bits (fft_swizzle_address).
-- A lanes exchange takes the one with fewer bank conflicts, "address" when equal; one that
-- moves the columns out of the lowest lanes (pass 1's reorder, a transpose) needs "slot".
local function slot_parts(ctx, step, mode)
    local tc, addr_of = ctx.g.tc, step.addr_of
    local identity = function(a) return a end
    local p = {}
    if mode == "address" then
        local bits = swizzle_bits(tc)
        local on = bits > 0 and (step.slots >> tc) > (1 << bits)
        local above = function(b) local a = addr_of[b] if a and a >= tc then return a - tc end end
        local column = function(b) local a = addr_of[b] if a and a < tc then return a end end
        local sw = on and function(a) return swizzle(a, bits) end or identity
        p.helper = on and "address" or nil
        -- The slot of address a (for the bank-conflict count).
        p.place = function(a) return (sw(a >> tc) << tc) | (a & ((1 << tc) - 1)) end
        -- The constant of register k in layout L.
        p.constant = function(L, k) return sw(register_part(L, k, above)) << tc end
        -- The invocation's part in layout L: (address << tc) | column.
        p.thread = function(L)
            local hi = thread_part(L, above) or "0u"
            if on then hi = "fft_swizzle_address(" .. hi .. ")" end
            local col = thread_part(L, column)
            if hi == "0u" then return col end
            return string.format("(%s << %s) | %s", operand(hi), u(tc), operand(col))
        end
    else
        local on = step.slots > 32
        local map = function(b) return addr_of[b] end
        local sw = on and swizzle or identity
        p.helper = on and "slot" or nil
        p.place = sw
        p.constant = function(L, k) return sw(register_part(L, k, map)) end
        p.thread = function(L)
            local e = thread_part(L, map) or "0u"
            return on and "fft_swizzle(" .. e .. ")" or e
        end
    end
    p.ways = math.max(conflict_ways(step.from, addr_of, p.place), conflict_ways(step.to, addr_of, p.place))
    return p
end

-- The slots an exchange uses (see slot_parts).
local function exchange_slots(ctx, step)
    local whole = slot_parts(ctx, step, "slot")
    if ctx.g.tc == 0 then return whole end
    local lanes = slot_parts(ctx, step, "address")
    return whole.ways < lanes.ways and whole or lanes
end

-- The index bits register k sets in layout L that have an address (not a round's fixed
-- bits): what its slot constant is made of.
local function register_note(ctx, L, k, addr_of)
    local bits = {}
    for i = 1, #L.reg do
        if (k >> (i - 1)) & 1 == 1 and addr_of[L.reg[i]] then bits[#bits + 1] = L.reg[i] end
    end
    table.sort(bits, function(x, y) return x > y end)
    if #bits == 0 then return "no index bit" end
    return (#bits == 1 and "index bit " or "index bits ") .. bit_names(ctx, bits)
end

-- A shared-memory exchange, in rounds; every round writes and reads the same registers.
local function emit_exchange(c, ctx, step)
    local D = ctx.dialect
    local A, B, addr_of = step.from, step.to, step.addr_of
    local slot = exchange_slots(ctx, step)
    local ways = slot.ways
    local purpose = step.what == "reorder" and "into natural order" or step.what == "butterfly_reorder"
        and "to bring the last butterflies' partners together, already in the natural-order " ..
        "output layout (the butterflies left keep every element in its invocation)" or step.what == "return"
        and "back to the load layout" or step.what == "pair"
        and "so samples f and f + 1 meet in one invocation" or "to bring the next butterflies' partners together"
    local rounds = step.rounds == 1 and string.format("One round of %d slots", step.slots) or
        string.format("%d rounds of %d slots, each moving the elements with one value of index " ..
            "bits {%s}", step.rounds, step.slots, bit_names(ctx, step.fixed))
    c:comment(string.format("Exchange through shared memory %s: from %s to %s. %s; %s.", purpose,
        layout_text(ctx, A), layout_text(ctx, B), rounds, ways == 1 and "no bank conflicts" or
        string.format("up to %d-way bank conflicts", ways)))
    c:block("", function()
        local map = function(b) return addr_of[b] end
        c:comment(string.format("Slot = the address of the element's index bits%s: wa and ra hold t's " ..
            "part, each register XORs in its own (the constant, named by the bits it sets), and the " ..
            "parts combine by XOR.", slot.helper == "slot" and ", swizzled by fft_swizzle (linear over " ..
            "XOR)" or slot.helper == "address" and ", the address above the column swizzled by " ..
            "fft_swizzle_address (linear over XOR)" or ""))
        c:note(string.format("uint wa = %s;", slot.thread(A)), X.thread_part_note(A, map, "address bits") or "0")
        c:note(string.format("uint ra = %s;", slot.thread(B)), X.thread_part_note(B, map, "address bits") or "0")
        for round = 0, step.rounds - 1 do
            -- Registers of this round: those whose fixed bits spell `round`.
            local regs = {}
            for k = 0, ctx.registers - 1 do
                local ok = true
                for i, fb in ipairs(step.fixed) do
                    local _, pos = fft_plan.where(A, fb)
                    if ((k >> pos) & 1) ~= ((round >> (i - 1)) & 1) then ok = false end
                end
                if ok then regs[#regs + 1] = k end
            end
            local stores, loads = {}, {}
            for _, k in ipairs(regs) do
                if live(ctx, A, k) then stores[#stores + 1] = k end
                if live(ctx, B, k) then loads[#loads + 1] = k end
            end
            if #stores == 0 and #loads == 0 then goto skip end -- a round of padding alone
            if ctx.shared_used then c:line(D.barrier()) end
            for _, k in ipairs(stores) do
                local a = slot.constant(A, k)
                c:note(X.shared_store(ctx, "wa ^ " .. u(a), reg_name(k)), register_note(ctx, A, k, addr_of))
            end
            c:line(D.barrier())
            for _, k in ipairs(loads) do
                local a = slot.constant(B, k)
                c:note(string.format("%s = %s;", reg_name(k), X.shared_load(ctx, "ra ^ " .. u(a))),
                    register_note(ctx, B, k, addr_of))
            end
            ctx.shared_used = true
            ::skip::
        end
    end)
end

-- Lane bit q and register bit r trade places: in each pair of registers differing in r the
-- lower lane sends its upper register and the upper lane its lower one.
local function emit_lane_swap(c, ctx, step)
    c:comment(string.format("Lane bit %d trades places with register bit %d (index bits %d and %d) " ..
        "by shuffles, %s.", step.lane, step.reg, step.from.thr[step.lane + 1], step.from.reg[step.reg + 1],
        step.why == "pair" and "so samples f and f + 1 (one uint of halves) meet in one invocation"
        or "so the reorder below keeps every register bit and runs in small rounds"))
    c:block("", function()
        c:note(string.format("bool upper = (t & %s) != 0u;", u(1 << step.lane)), lane_note(ctx, step.lane))
        for k0 = 0, ctx.registers - 1 do
            if (k0 >> step.reg) & 1 == 0 and (live(ctx, step.from, k0) or live(ctx, step.from, k0 | (1 << step.reg))) then
                local k1 = k0 | (1 << step.reg)
                local a, b = reg_name(k0), reg_name(k1)
                c:line("{ $float2 o = %s; %s = upper ? o : %s; %s = upper ? %s : o; }",
                    shuffle(ctx, string.format("upper ? %s : %s", a, b), step.lane), a, a, b, b)
            end
        end
    end)
end

steps.stage = emit_stage
steps.shuffle_stage = emit_shuffle_stage
steps.permute = emit_permute
steps.exchange = emit_exchange
-- The swizzle helper an exchange needs: "slot" (fft_swizzle), "address"
-- (fft_swizzle_address) or nil.
function steps.swizzle_helper(ctx, step) return exchange_slots(ctx, step).helper end

-- The swizzle functions ctx.swizzles asks for, written here beside the exchanges that call
-- them so every kernel using these steps (the FFT's, the convolution's) writes the same ones.
-- address_comment(bits): the comment of fft_swizzle_address, each kernel's own wording.
function steps.emit_swizzles(c, ctx, address_comment)
    local function swizzle_function(name, bits, slots, text)
        local terms, shift = {}, bits
        while (1 << shift) < slots do
            terms[#terms + 1] = string.format("(a >> %s)", u(shift))
            shift = shift + bits
        end
        c:comment(text)
        c:block("uint " .. name .. "(uint a)", function()
            c:line("return a ^ ((%s) & %s);", table.concat(terms, " ^ "), u((1 << bits) - 1))
        end)
        c:blank()
    end
    if ctx.swizzles.slot then
        swizzle_function("fft_swizzle", 5, ctx.slots, "Shared-memory address swizzle: XORs the higher " ..
            "5-bit groups of the address into its low 5 bits (the bank), a bijection that spreads " ..
            "power-of-two strides over 32 banks.")
    end
    if ctx.swizzles.address then
        local bits = swizzle_bits(ctx.g.tc)
        swizzle_function("fft_swizzle_address", bits, ctx.slots >> ctx.g.tc, address_comment(bits))
    end
end
steps.lane_swap = emit_lane_swap
steps.layout_text = layout_text
steps.bit_names = bit_names
return steps
