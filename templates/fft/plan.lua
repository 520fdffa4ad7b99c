-- fft_plan.lua: the FFT's plan, as data. No shader text here: templates/fft.lua walks the
-- steps and spells them.
--
-- The transform is radix 2. N = 2^n points, E = 2^e registers per invocation, W = 2^w
-- invocations per FFT. A workgroup may also run C neighbouring columns (or rows) at once;
-- their index is treated as extra "column bits" of the element index, above the n bits of
-- j, that no butterfly touches (so one plan serves C columns at once). They sit either in
-- registers (cb bits: each invocation holds its E elements of every column, E x C
-- registers; --rows-per-wg and --column-layout registers) or in the invocation index (tc
-- bits, the lanes layout: C x W invocations, invocation t = C x (the FFT's invocation) +
-- column, so the C invocations in a row hold the same element of C neighbouring columns).
--
-- A LAYOUT says where each element sits: every bit of the element index is either a
-- register bit (a bit of the register number k) or a thread bit (a bit of the invocation
-- index t). layout.reg[i + 1] is the index bit held by register bit i, layout.thr[q + 1]
-- the index bit held by thread bit q. The butterflies on index bit b
-- (pairs j and j + 2^b) run in registers when b is a register bit; an EXCHANGE moves data
-- between invocations to change the layout. Two kinds of exchange:
--   * subgroup: when b is one of the s lowest bits of j held by threads within a subgroup
--     of S consecutive invocations (lanes tc..tc+s-1; s = log2(S) - tc), the butterfly
--     partners trade values by XOR shuffles;
--   * shared memory: every other move. Shared memory holds only what one round of an
--     exchange needs: an exchange runs in rounds, each round the elements whose "fixed"
--     bits (register bits in both layouts) have one value, so a 48 KB or 32 KB device
--     still runs N = 16384 (see plan_exchange).
-- Forward and natural-order inverse transforms are decimation in frequency (DIF: bits n-1
-- down to 0, input in natural order, output in bit-reversed order, put in natural order by
-- the last butterfly exchange when only register butterflies follow it, else by one more
-- exchange); the native-order inverse is decimation in time (DIT: bits 0 up to
-- n-1, input in bit-reversed order, output natural), so a forward and an inverse in native
-- order skip both reorders.
local emit = require("templates.lib.emit")

local plan = {}

local log2 = emit.log2
plan.log2 = log2

-- Exported with bring_in, exchange and exchange_group below: the convolution's inverse
-- (templates/conv/inverse.lua) plans its DIT from these, so both plan by the same rules.
local function copy_layout(L)
    local c = { reg = {}, thr = {} }
    for i, b in ipairs(L.reg) do c.reg[i] = b end
    for i, b in ipairs(L.thr) do c.thr[i] = b end
    return c
end
plan.copy_layout = copy_layout

-- Where bit b sits in L: "reg"/"thr" and the 0-based position.
function plan.where(L, b)
    for i, x in ipairs(L.reg) do if x == b then return "reg", i - 1 end end
    for i, x in ipairs(L.thr) do if x == b then return "thr", i - 1 end end
    error("fft_plan: bit " .. b .. " is in no position")
end

-- The load layout: register k holds j = k*W + t (consecutive invocations read consecutive
-- elements); column bits above the registers' j bits, or (lanes) the lowest thread bits.
local function load_layout(g)
    local L = { reg = {}, thr = {} }
    for i = 0, g.e - 1 do L.reg[i + 1] = g.w + i end
    for c = 0, g.cb - 1 do L.reg[g.e + c + 1] = g.n + c end
    for c = 0, g.tc - 1 do L.thr[c + 1] = g.n + c end
    for q = 0, g.w - 1 do L.thr[g.tc + q + 1] = q end
    return L
end

-- A target layout with the given thread bits and register bit set, where the register bits
-- L already holds keep their positions (so every round of the exchange reads back into the
-- registers it wrote from: the exchange runs in place) and new ones fill the others.
local function target_layout(L, thr, reg_set)
    local T = { reg = {}, thr = {} }
    for q, b in ipairs(thr) do T.thr[q] = b end
    local wanted, placed = {}, {}
    for _, b in ipairs(reg_set) do wanted[b] = true end
    for i, b in ipairs(L.reg) do
        if wanted[b] then T.reg[i], placed[b] = b, true end
    end
    local incoming = {}
    for _, b in ipairs(reg_set) do if not placed[b] then incoming[#incoming + 1] = b end end
    table.sort(incoming)
    local next_in = 1
    for i = 1, #L.reg do
        if T.reg[i] == nil then
            T.reg[i] = incoming[next_in]
            next_in = next_in + 1
        end
    end
    return T
end

-- Output layout in natural order: invocation t, register k hold frequency f = k*W + t;
-- f is the bit reversal of the DIF position j, so thread bit q holds j bit n-1-q and the
-- register bits hold j bits 0..e-1. Column bits held by threads (lanes) sit above the
-- lowest `columns_after` frequency bits: 0 puts them first (the C invocations in a row
-- hold one frequency of C neighbouring columns), W's bits w last (consecutive invocations
-- hold consecutive frequencies of one column: a store to rows); pass 1 of a plan puts
-- them above its scratch tile's bits.
local function natural_output_layout(g, L, columns_after)
    local thr, set = {}, {}
    for q = 0, g.w - 1 do
        if q == columns_after then
            for c = 0, g.tc - 1 do thr[#thr + 1] = g.n + c end
        end
        thr[#thr + 1] = g.n - 1 - q
    end
    if columns_after >= g.w then
        for c = 0, g.tc - 1 do thr[#thr + 1] = g.n + c end
    end
    for b = 0, g.e - 1 do set[#set + 1] = b end
    for c = 0, g.cb - 1 do set[#set + 1] = g.n + c end
    return target_layout(L, thr, set)
end

-- Brings `bits` (thread bits now) into registers. They evict, first, register bits whose
-- butterflies are done, oldest first, then bits not yet processed, lowest position first;
-- never column bits. Each evicted bit takes the thread position its replacement left.
local function bring_in(g, L, bits, done_at)
    local candidates = {}
    for i, b in ipairs(L.reg) do
        if b < g.n then candidates[#candidates + 1] = { pos = i, bit = b } end
    end
    table.sort(candidates, function(x, y)
        local dx, dy = done_at[x.bit], done_at[y.bit]
        if (dx ~= nil) ~= (dy ~= nil) then return dx ~= nil end
        if dx and dx ~= dy then return dx < dy end
        return x.pos < y.pos
    end)
    local T = copy_layout(L)
    for i, b in ipairs(bits) do
        local victim = candidates[i]
        local _, q = plan.where(L, b)
        T.reg[victim.pos] = b
        T.thr[q + 1] = victim.bit
    end
    return T
end
plan.bring_in = bring_in

local function same_threads(A, B)
    for q = 1, #A.thr do if A.thr[q] ~= B.thr[q] then return false end end
    return true
end

-- An exchange from A to B through shared memory, in rounds. Bits that are register bits in
-- both layouts (at the same position, as target_layout arranges) may be "fixed": a round
-- moves only the elements with one value of the fixed bits, so it needs total / 2^fixed
-- slots. Fix as few as the budget allows (fewer rounds, fewer barriers), highest first.
-- The register bits A and B hold at the same position (the bits a round may fix), highest
-- first, and how many of them the budget makes the exchange fix.
local function fixable_bits(g, A, B)
    local common = {}
    for i, b in ipairs(A.reg) do
        if B.reg[i] == b then common[#common + 1] = b end
    end
    table.sort(common, function(x, y) return x > y end)
    local f = 0
    while (1 << (g.n + g.cb + g.tc - f)) > g.budget do f = f + 1 end
    return common, f
end

local function fits_budget(g, A, B)
    local common, f = fixable_bits(g, A, B)
    return f <= #common
end
plan.fits_budget = fits_budget

local function plan_exchange(g, A, B, what)
    if same_threads(A, B) then
        return { kind = "permute", from = A, to = B, what = what }
    end
    local common, f = fixable_bits(g, A, B)
    local total_bits = g.n + g.cb + g.tc
    if f > #common then
        error(string.format("fft_plan: the %s exchange needs %d elements of shared memory at " ..
            "least; the budget is %d", what, 1 << (total_bits - #common), g.budget))
    end
    local fixed, is_fixed = {}, {}
    for i = 1, f do fixed[i], is_fixed[common[i]] = common[i], true end
    -- Shared address of an element: its non-fixed bits, in increasing order; column bits
    -- held by threads (lanes) first, so the slot is [index * C + column] and the C
    -- invocations in a row use C consecutive banks.
    local addr_of = {}
    local a = 0
    for b = g.n, g.n + g.tc - 1 do addr_of[b], a = a, a + 1 end
    for b = 0, total_bits - 1 do
        if not is_fixed[b] and not addr_of[b] then addr_of[b], a = a, a + 1 end
    end
    return { kind = "exchange", from = A, to = B, fixed = fixed, addr_of = addr_of,
             slots = 1 << a, rounds = 1 << f, what = what }
end
plan.exchange = plan_exchange

-- The largest group of bits one shared exchange brings in: 2^group slots for every
-- invocation (W x C of them in the lanes layout) must fit, at most the register bits.
function plan.exchange_group(g)
    local group = 0
    while group < g.e and (g.budget >> (group + 1)) >= (1 << (g.w + g.tc)) do group = group + 1 end
    return group
end

-- The plan: { steps = {...}, shared_slots = n, final = layout }. g holds n, e, w, s, cb, tc
-- and budget (shared-memory slots, one complex each); opts: dif, natural, real_unpack
-- (bools), pair_output (frequencies f and f + 1 in one invocation, for outputs of 16-bit
-- halves), columns_after (lanes: the natural-order output puts the column bits above that
-- many of the frequency's thread bits; natural_output_layout).
function plan.build(g, opts)
    local steps, time, done_at = {}, 0, {}
    local L = load_layout(g)
    local shared_slots = 0
    local function add(step)
        steps[#steps + 1] = step
        if step.slots and step.slots > shared_slots then shared_slots = step.slots end
    end
    local function stage(b)
        time = time + 1
        done_at[b] = time
        add({ kind = "stage", bit = b, layout = L })
    end
    local function exchange_to(T, what)
        add(plan_exchange(g, L, T, what))
        L = T
    end
    local group = plan.exchange_group(g)
    if group == 0 and g.s < g.w then
        error("fft_plan: shared memory cannot hold one exchange of the workgroup")
    end

    add({ kind = "load", layout = L })
    if opts.dif then
        for b = g.n - 1, g.w, -1 do stage(b) end
        local b = g.w - 1
        local reordered = false
        while b >= g.s do
            local bits = {}
            for x = b, math.max(g.s, b - group + 1), -1 do bits[#bits + 1] = x end
            local T, what = bring_in(g, L, bits, done_at), "butterfly"
            if opts.natural and g.s == 0 and b - #bits < 0 then
                -- The last exchange brings in bits {b..0}, which the natural output layout
                -- holds in registers too (its registers are bits 0..e-1), and after it only
                -- register butterflies remain, which leave every bit where it is. So this
                -- exchange can go straight to the output layout, and the separate reorder
                -- exchange (a full pass through shared memory and two barriers) goes away.
                local O = natural_output_layout(g, L, opts.columns_after or 0)
                if fits_budget(g, L, O) then T, what, reordered = O, "butterfly_reorder", true end
            end
            exchange_to(T, what)
            for _, x in ipairs(bits) do stage(x) end
            b = b - #bits
        end
        for x = g.s - 1, 0, -1 do
            time = time + 1
            done_at[x] = time
            add({ kind = "shuffle_stage", bit = x, layout = L })
        end
        if opts.natural then
            -- Lane bits 0..e-1 (j bit q at lane tc + q) move into registers by shuffles first
            -- (evicting bits >= e), so the reorder keeps every register bit in place and can
            -- run in small rounds.
            for q = 0, math.min(g.s, g.e) - 1 do
                local pos
                for i, b2 in ipairs(L.reg) do
                    if b2 >= g.e and b2 < g.n then pos = i - 1 break end
                end
                if pos then
                    local T = copy_layout(L)
                    T.thr[g.tc + q + 1], T.reg[pos + 1] = L.reg[pos + 1], q
                    add({ kind = "lane_swap", lane = g.tc + q, reg = pos, from = L, to = T })
                    L = T
                end
            end
            if not reordered then exchange_to(natural_output_layout(g, L, opts.columns_after or 0), "reorder") end
            if opts.pair_output then
                -- Frequencies f and f + 1 (f even) into one invocation: output bit 0 (index
                -- bit n-1) goes to register bit 0, from a thread bit by a shuffle when it is
                -- a lane bit, else through shared memory, or from another register bit.
                local kind, pos = plan.where(L, g.n - 1)
                local T = copy_layout(L)
                if kind == "thr" then
                    T.thr[pos + 1], T.reg[1] = L.reg[1], L.thr[pos + 1]
                    if pos >= g.tc and pos < g.tc + g.s then
                        add({ kind = "lane_swap", lane = pos, reg = 0, from = L, to = T, why = "pair" })
                        L = T
                    else
                        exchange_to(T, "pair")
                    end
                elseif pos ~= 0 then
                    T.reg[pos + 1], T.reg[1] = L.reg[1], L.reg[pos + 1]
                    exchange_to(T, "pair")
                end
            end
        end
    else
        for x = 0, g.s - 1 do
            time = time + 1
            done_at[x] = time
            add({ kind = "shuffle_stage", bit = x, layout = L })
        end
        local b = g.s
        while b <= g.w - 1 do
            local bits = {}
            for x = b, math.min(g.w - 1, b + group - 1) do bits[#bits + 1] = x end
            exchange_to(bring_in(g, L, bits, done_at), "butterfly")
            for _, x in ipairs(bits) do stage(x) end
            b = b + #bits
        end
        local set = {}
        for i = 0, g.e - 1 do set[#set + 1] = g.w + i end
        for c = 0, g.cb - 1 do set[#set + 1] = g.n + c end
        -- Back to the load layout's bits for the last butterflies, so the store is coalesced.
        local T = target_layout(L, load_layout(g).thr, set)
        local moved = not same_threads(L, T)
        for i = 1, #L.reg do moved = moved or L.reg[i] ~= T.reg[i] end
        if moved then exchange_to(T, "return") end
        for x = g.w, g.n - 1 do stage(x) end
    end
    if opts.real_unpack then
        -- Z[f] and Z[N-f] meet in one invocation: invocation t trades its upper-half
        -- registers with invocation W - t, E/2 values, a round of W slots per register.
        local per_round = math.max(1, math.min(g.e > 0 and (1 << g.e) // 2 or 1, g.budget >> g.w))
        local slots = per_round << g.w
        add({ kind = "real_unpack", layout = L, per_round = per_round, slots = slots })
    end
    add({ kind = "store", layout = L })
    return { steps = steps, shared_slots = shared_slots, final = L, group = group }
end

return plan
