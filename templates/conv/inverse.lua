-- inverse.lua: the inverse half of the fused column pass, planned from wherever the forward
-- half left its values. The forward (templates/fft/plan.lua, DIF, native order) ends with the
-- low index bits in registers; an inverse planned by plan.build would start from the load
-- layout and first move every value back (one more exchange through shared memory, two
-- barriers). This plans a decimation in time (bits 0 up to n-1, bit-reversed input, natural
-- output) from the forward's last layout: butterflies on register bits at once, on lane bits
-- within a subgroup by shuffles, and exchanges only for bits held by invocations.
--
-- Steps are plan.lua's step tables, so templates/fft/steps.lua spells them. The exchange
-- planning below follows plan.lua's local bring_in and plan_exchange (same rules: evict done
-- bits oldest first; rounds fix the highest register bits both layouts share).
local fft_plan = require("templates.fft.plan")

local inverse = {}

local function copy_layout(L)
    local c = { reg = {}, thr = {} }
    for i, b in ipairs(L.reg) do c.reg[i] = b end
    for i, b in ipairs(L.thr) do c.thr[i] = b end
    return c
end

-- Brings `bits` (thread bits now) into registers, evicting register bits whose butterflies
-- are done (oldest first), then the lowest positions; never column bits.
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
        local _, q = fft_plan.where(L, b)
        T.reg[victim.pos] = b
        T.thr[q + 1] = victim.bit
    end
    return T
end

-- An exchange from A to B through shared memory in rounds: a round moves the elements with
-- one value of the fixed bits (register bits at the same position in both layouts, highest
-- first), as few as the budget allows.
local function exchange(g, A, B)
    local common = {}
    for i, b in ipairs(A.reg) do
        if B.reg[i] == b then common[#common + 1] = b end
    end
    table.sort(common, function(x, y) return x > y end)
    local total_bits = g.n + g.cb + g.tc
    local f = 0
    while (1 << (total_bits - f)) > g.budget do f = f + 1 end
    assert(f <= #common, "conv: an exchange of the inverse does not fit shared memory")
    local fixed, is_fixed = {}, {}
    for i = 1, f do fixed[i], is_fixed[common[i]] = common[i], true end
    -- Addresses: the column bits held by invocations first (a row of lanes in one bank
    -- run), then every other unfixed bit in increasing order.
    local addr_of, a = {}, 0
    for b = g.n, g.n + g.tc - 1 do addr_of[b], a = a, a + 1 end
    for b = 0, total_bits - 1 do
        if not is_fixed[b] and not addr_of[b] then addr_of[b], a = a, a + 1 end
    end
    return { kind = "exchange", from = A, to = B, fixed = fixed, addr_of = addr_of,
             slots = 1 << a, rounds = 1 << f, what = "butterfly" }
end

-- Is index bit b held by a lane that a shuffle reaches (a lane bit of the subgroup above the
-- column lanes)?
local function in_shuffle_lanes(g, L, b)
    local kind, q = fft_plan.where(L, b)
    return kind == "thr" and q >= g.tc and q < g.tc + g.s
end

-- The steps of a DIT over bits 0..n-1 from layout L, and the layout it ends in. `group`: the
-- most bits one exchange brings in (as plan.build computes it).
function inverse.plan(g, L, group)
    local steps, time, done_at = {}, 0, {}
    local shared_slots = 0
    local b = 0
    while b < g.n do
        local kind = fft_plan.where(L, b)
        if kind == "reg" then
            time = time + 1
            done_at[b] = time
            steps[#steps + 1] = { kind = "stage", bit = b, layout = L }
            b = b + 1
        elseif in_shuffle_lanes(g, L, b) then
            time = time + 1
            done_at[b] = time
            steps[#steps + 1] = { kind = "shuffle_stage", bit = b, layout = L }
            b = b + 1
        else
            local bits, x = {}, b
            while #bits < group and x < g.n and fft_plan.where(L, x) == "thr" and not in_shuffle_lanes(g, L, x) do
                bits[#bits + 1] = x
                x = x + 1
            end
            local T = bring_in(g, L, bits, done_at)
            local step = exchange(g, L, T)
            if step.slots > shared_slots then shared_slots = step.slots end
            steps[#steps + 1] = step
            L = T
        end
    end
    return { steps = steps, final = L, shared_slots = shared_slots }
end

-- The most bits one shared exchange brings in (plan.build's rule): 2^group slots for each of
-- the workgroup's invocations must fit the budget, at most the register bits.
function inverse.group(g)
    local group = 0
    while group < g.e and (g.budget >> (group + 1)) >= (1 << (g.w + g.tc)) do group = group + 1 end
    return group
end

return inverse
