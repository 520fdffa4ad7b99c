-- spd_tile.lua: the shape of one SPD workgroup (--tile T, --wg N) and the plan of how its
-- invocations exchange values, as data for templates/spd.lua.
--
-- A workgroup of N invocations reduces a T x T tile (T = 2^M) by M levels. Each invocation
-- reads a B x B block of its tile's source (B = T / sqrt(N), 2 or 4) and makes the first
-- log2(B) levels in registers; every later level combines 2x2 blocks held by 4 different
-- invocations. gen/cli.c admits exactly the (T, N) pairs with B in {2, 4} and N <= 256.
local emit = require("templates.lib.emit")

local tile = {}

local log2 = emit.log2
tile.log2 = log2

-- The workgroup's geometry: tile side, levels per tile, invocations, block side, the levels
-- made in registers and the Morton bits per axis of an invocation index.
function tile.shape(t, n)
    local levels, index_bits = log2(t), log2(n) // 2
    local register_levels = levels - index_bits
    return { tile = t, levels = levels, wg = n, block = 1 << register_levels,
             register_levels = register_levels, morton_bits = index_bits }
end

-- How each level after the register levels is formed from the 2x2 blocks of the level
-- before. Each step records where the earlier level's values sit: every `spacing`-th
-- invocation holds one, for the first `count` texels in Morton order. A subgroup step gathers
-- the 4 values from lanes `spacing` apart; it needs the 4 x spacing lanes in one subgroup,
-- so it is possible while 4 x spacing <= min(subgroup size, workgroup size). A shared-memory
-- step stores the values and lets the first count/4 invocations read 4 consecutive entries,
-- which leaves one value per invocation again (spacing 1).
function tile.plan_steps(shape, subgroup)
    local reach = math.min(subgroup, shape.wg)
    local steps, spacing, count = {}, 1, shape.wg
    local shared_steps = 0
    for j = shape.register_levels + 1, shape.levels do
        local step = { level = j, spacing = spacing, count = count }
        if subgroup >= 4 and 4 * spacing <= reach then
            step.kind = subgroup == 4 and "quad" or "shuffle"
            spacing = spacing * 4
        else
            step.kind = "shared"
            step.buffer = shared_steps % 2 -- ping-pong: a write never races the last read
            shared_steps = shared_steps + 1
            spacing = 1
        end
        count = count // 4
        steps[#steps + 1] = step
    end
    return steps
end

-- Shared memory: the two ping-pong exchange arrays sized for their largest step, then any
-- arrays the caller adds (the 64x64 tail's level-12 texels).
function tile.shared_arrays(steps, extra)
    local size = { [0] = 0, [1] = 0 }
    for _, s in ipairs(steps) do
        if s.kind == "shared" then size[s.buffer] = math.max(size[s.buffer], s.count) end
    end
    local arrays = {}
    for b = 0, 1 do
        if size[b] > 0 then arrays[#arrays + 1] = { name = b == 0 and "lds_a" or "lds_b", count = size[b] } end
    end
    for _, a in ipairs(extra) do arrays[#arrays + 1] = a end
    return arrays
end

-- "12u" for uint literals and masks.
local function u(n) return string.format("%du", n) end
tile.u = u

-- Condition under which invocation t holds a value: every spacing-th, first `count` texels.
function tile.holder_condition(shape, spacing, count)
    local parts = {}
    if spacing > 1 then parts[#parts + 1] = string.format("(t & %s) == 0u", u(spacing - 1)) end
    if count * spacing < shape.wg then
        parts[#parts + 1] = spacing > 1 and string.format("(t >> %s) < %s", u(log2(spacing)), u(count))
            or string.format("t < %s", u(count))
    end
    return #parts > 0 and table.concat(parts, " && ") or nil
end

-- The Morton index of the texel invocation t holds.
function tile.texel_index(spacing)
    return spacing > 1 and string.format("t >> %s", u(log2(spacing))) or "t"
end

-- The Morton decoding of an invocation index, as the two lines of spd_morton_xy: bits
-- 0, 2, 4, ... of i give x, bits 1, 3, 5, ... give y (shape.morton_bits of each).
function tile.morton_lines(shape)
    local xs, ys, xbits, ybits = {}, {}, {}, {}
    for k = 0, shape.morton_bits - 1 do
        xs[#xs + 1] = k == 0 and "(i & 1u)" or string.format("((i >> %s) & %s)", u(k), u(1 << k))
        ys[#ys + 1] = string.format("((i >> %s) & %s)", u(k + 1), u(1 << k))
        xbits[#xbits + 1] = tostring(2 * k)
        ybits[#ybits + 1] = tostring(2 * k + 1)
    end
    return string.format("Morton order: bits %s of i give x, bits %s give y.",
            table.concat(xbits, ", "), table.concat(ybits, ", ")),
        { "uint x = " .. table.concat(xs, " | ") .. ";", "uint y = " .. table.concat(ys, " | ") .. ";" }
end

return tile
