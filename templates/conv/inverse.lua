-- inverse.lua: the inverse half of the fused column pass, planned from wherever the forward
-- half left its values. The forward (templates/fft/plan.lua, DIF, native order) ends with the
-- low index bits in registers; an inverse planned by plan.build would start from the load
-- layout and first move every value back (one more exchange through shared memory, two
-- barriers). This plans a decimation in time (bits 0 up to n-1, bit-reversed input, natural
-- output) from the forward's last layout: butterflies on register bits at once, on lane bits
-- within a subgroup by shuffles, and exchanges only for bits held by invocations.
--
-- Steps are plan.lua's step tables, so templates/fft/steps.lua spells them; the exchanges
-- are planned by plan.lua's own bring_in, exchange and exchange_group.
local fft_plan = require("templates.fft.plan")

local inverse = {}

-- The shared exchange from L that brings `bits` (thread bits now) into registers, and the
-- layout after it: plan.lua's rules, so the inverse evicts and rounds as the forward does.
local function exchange_in(g, L, bits, done_at)
    local T = fft_plan.bring_in(g, L, bits, done_at)
    assert(fft_plan.fits_budget(g, L, T), "conv: an exchange of the inverse does not fit shared memory")
    return fft_plan.exchange(g, L, T, "butterfly"), T
end

-- Is index bit b held by a lane that a shuffle reaches (a lane bit of the subgroup above the
-- column lanes)?
local function in_shuffle_lanes(g, L, b)
    local kind, q = fft_plan.where(L, b)
    return kind == "thr" and q >= g.tc and q < g.tc + g.s
end

-- The steps of a DIT over bits 0..n-1 from layout L, and the layout it ends in.
function inverse.plan(g, L)
    local group = fft_plan.exchange_group(g)
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
            local step, T = exchange_in(g, L, bits, done_at)
            if step.slots > shared_slots then shared_slots = step.slots end
            steps[#steps + 1] = step
            L = T
        end
    end
    return { steps = steps, final = L, shared_slots = shared_slots }
end

return inverse
