-- spd.lua: the single-pass downsampler (SPD), written once for every target.
--
-- After AMD FidelityFX SPD: a 256-invocation workgroup reduces a 64x64 tile of the source
-- to one texel (levels 1..6); the last workgroup of each slice to finish, elected by an
-- atomic counter, reduces the level-6 texels of the whole slice to levels 7..12. The
-- target dialect (targets/<name>.lua) only spells what the languages write differently;
-- everything here is the algorithm.
--
-- The shape, chosen so every level needs as little exchange as possible:
--   * Invocation t owns texel morton(t) of level 2 of its tile (Morton order: every 4
--     consecutive invocations form a 2x2 block, every 16 a 4x4 block, every 64 an 8x8).
--   * Level 1: t reads the 4x4 block of the source under its level-2 texel, reduces it to
--     the 2x2 block of level 1, and reduces that to its level-2 texel: no exchange at all.
--   * Levels 3..6: the 2x2 block feeding each texel sits in 4 invocations. When they share a
--     subgroup the values move by subgroup shuffles (or quad broadcasts); otherwise through
--     shared memory. plan_steps() decides per level from --subgroup.
--   * Every pass (the tiles from level 0, the tail's regions of level 6, the hierarchy's
--     blocks) makes its first levels from its own source, then calls one routine,
--     spd_exchange_levels, for the levels made by exchanges (emit_routine).
-- Reduction semantics (the CPU reference in runtime/spd_ref.c is the definition): level k
-- is max(1, size >> k); texel (x, y) reduces the level-(k-1) texels (2x, 2y), (2x+1, 2y),
-- (2x, 2y+1), (2x+1, 2y+1), reading a one-texel-wide level's edge instead of past it, so the
-- last odd row/column is dropped (SPD's rule) and a constant image stays constant.
local emit = require("templates.lib.emit")
local spd_push = require("templates.spd.push")
local tile = require("templates.lib.tile")
local hierarchy = require("templates.spd.hierarchy")
local spd_half = require("templates.spd.half")
local edge = require("templates.spd.edge")
local resources = require("templates.spd.resources")

local spd = {}

-- The four-input reduction, a = top left, b = top right, c = bottom left, d = bottom right.
-- The evaluation order is part of the contract: the CPU reference uses the same one, so
-- min/max/test-order are bit-exact and mean differs only by the platform's rounding.
local OPS = {
    min = { what = "minimum", body = "min(min(a, b), min(c, d))" },
    max = { what = "maximum", body = "max(max(a, b), max(c, d))" },
    mean = { what = "average", body = "(((a + b) + c) + d) * 0.25f" },
    -- A depth pyramid for culling: the source's one channel becomes (min, max).
    minmax = { what = "minimum (R) and maximum (G) of the source's one channel",
               body = "$value(min(min(a.x, b.x), min(c.x, d.x)), max(max(a.y, b.y), max(c.y, d.y)))",
               source_channels = 1 },
    -- Averages light, not sRGB code values: decoded on load, encoded on store.
    ["srgb-mean"] = { what = "average in linear light of sRGB-encoded texels",
                      body = "(((a + b) + c) + d) * 0.25f", srgb = true },
    -- Test only: weights differ per corner, so any swap of the 2x2 order shows. Scaling by
    -- powers of two is exact, so FMA contraction cannot change the result.
    ["test-order"] = { what = "order-sensitive weighted sum (test only)",
                       body = "((a * 0.5f + b * 0.25f) + c * 0.125f) + d * 0.125f" },
}

-- Storage formats: channels the shader computes with, and float or unsigned integer.
local FORMATS = {
    r16f = { channels = 1 }, rg16f = { channels = 2 }, rgba16f = { channels = 4 },
    r32f = { channels = 1 }, rg32f = { channels = 2 }, rgba32f = { channels = 4 },
    rgba8 = { channels = 4 }, r32ui = { channels = 1, uint = true },
}

local MAX_SIZE = 16384                           -- the largest source (14 levels)
local MAX_REGIONS = (MAX_SIZE // 4096) * (MAX_SIZE // 4096) -- 64x64 regions of level 6
local u, log2 = tile.u, tile.log2

-- Level 0 as the reduction starts from it: a depth sample becomes its (min, max) pair,
-- sRGB code values become linear light.
local function source_value(ctx, fetch)
    if ctx.cfg.op == "minmax" then return "spd_depth_pair(" .. fetch .. ")" end
    if ctx.srgb then return "spd_srgb_to_linear(" .. fetch .. ")" end
    return spd_half.from_source(ctx.cfg, fetch)
end

-- A value as the storage format takes it: sRGB-encoded for srgb-mean.
local function stored_value(ctx, v)
    return ctx.srgb and ("spd_linear_to_srgb(" .. v .. ")") or v
end

-- The statement storing v at coord of level `level` (1 = dst_mips[0]).
local function store_mip(ctx, level, coord, v)
    return ctx.dialect.image_store(ctx.mips, level - 1, coord, ctx.cfg.array and "slice" or nil, v,
        ctx.value_abstract)
end

-- Offset of level-0 coordinate i (0..B-1) of an invocation's reads from its corner: i, or
-- with --level1 interleaved 0, 1, T/2, T/2 + 1.
local function level1_offset(ctx, i)
    local T = ctx.shape.tile
    return ctx.shape.block == 4 and ctx.level1_interleaved and (i % 2 + (i // 2) * (T // 2)) or i
end

-- The bilinear fetches of level 1 (--sampler linear) for the tile whose level-0 corner
-- (this invocation's block) is `corner`: one per 2x2 block at its centre, {suffix, uv}. By
-- default in texel units (an unnormalized sampler): the centre (2x + 1, 2y + 1) is an exact
-- float at any size. --sampler-coords normalized (and --array: Vulkan and Metal sample
-- unnormalized only single-layer views) scales it by 1 / size, exact for power-of-two sides.
local function level1_fetches(ctx, corner)
    local B = ctx.shape.block
    local function offset(i) return level1_offset(ctx, i) end
    local scale = ctx.cfg.sampler_normalized and " * inv_size" or ""
    local fetches = {}
    for _, q in ipairs(B == 2 and { { 0, 0 } } or { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        fetches[#fetches + 1] = { suffix = string.format("%d%d", q[1], q[2]),
            uv = string.format("$float2(%s + $uint2(%s, %s))%s", corner,
                u(offset(2 * q[1]) + 1), u(offset(2 * q[2]) + 1), scale) }
    end
    return fetches
end

-- --level1 interleaved: invocation t made the level-1 texels p + (T/4) * (i, j) of its
-- region (p = spd_morton_xy(t), i, j in {0, 1}); level 2 needs the 2x2 block at 2p, which
-- four invocations made. The exchange goes through lds_level1, split into four planes by the
-- texel's (x & 1, y & 1): plane a + 2b holds the texels (2p + (a, b)) at index t, so the
-- reads are four consecutive runs, and the writer's plane is its t & 3, its index
-- (t >> 2) + quadrant * W/4; both sides use every bank once per 32 values.
local function emit_level1_exchange(c, ctx, level, below)
    local D, W = ctx.dialect, ctx.shape.wg
    c:comment(string.format("Level %s: its 2x2 block of level %s was made by four invocations: " ..
        "exchange through shared memory (one plane per texel parity, a 2x2 block at index t).",
        level, below))
    for k, q in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        local quadrant = (k - 1) * (W // 4)
        c:line("lds_level1[(t & 3u) * %s + (t >> 2u)%s] = q%d%d;", u(W),
            quadrant == 0 and "" or (" + " .. u(quadrant)), q[1], q[2])
    end
    c:line(D.barrier())
    for k, q in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        local plane = (k - 1) * W
        c:line("q%d%d = lds_level1[%st];", q[1], q[2], plane == 0 and "" or (u(plane) .. " + "))
    end
end

-- A call spread over lines, continuation lines aligned after the opening parenthesis.
local function call_lines(c, head, args, tail)
    local pad = string.rep(" ", #head)
    for i, a in ipairs(args) do
        c:line("%s%s%s", i == 1 and head or pad, a, i == #args and tail or ",")
    end
end

-- Declares texel<level> = coord and runs `statement` (a store of value) when the texel is
-- inside the level (and, with a holder condition, only in the invocations that hold a value;
-- with a guard, only when it holds). --edge conservative first folds the edge strips into
-- value; level - base is the level within its pass.
local function store_texel(c, ctx, level, base, coord, value, holder, guard, statement)
    local conservative = ctx.cfg.edge == "conservative"
    local name = "texel" .. level
    c:line("$uint2 %s = %s;", name, coord)
    if conservative then edge.emit_fix(c, ctx, level - base, name, value) end
    local cond = string.format("spd_inside(%s, size_out)", name)
    if holder then cond = holder .. " && " .. cond end
    if guard then cond = guard .. " && " .. cond end
    c:line("if (%s) %s", cond, statement)
end

-- True when level 2 exchanges level 1 through shared memory (--level1 interleaved).
local function level2_exchanged(ctx)
    return ctx.shape.block == 4 and ctx.level1_interleaved
end

-- The first level of a pass (counted from its start) whose 2x2 blocks lie in other
-- invocations: level 2 after --level1 interleaved, else the first of ctx.steps (nil: none).
local function first_exchange_level(ctx)
    if level2_exchanged(ctx) then return 2 end
    return ctx.steps[1] and ctx.steps[1].level
end

-- True when a pass from level `base` to `last` has levels made by exchanges.
local function has_exchange_levels(ctx, base, last)
    local first = first_exchange_level(ctx)
    return first ~= nil and base + first <= last
end

-- The levels a pass makes by exchanges between invocations (ctx.steps), through e: j is
-- the level within the pass; e.name(j) names it in comments and e.number(j) in variable
-- names, e.next_level(j) starts it, e.store(j, coord, value, holder) stores it,
-- e.origin(n) is the region's corner in a level of n x n texels per region.
local function emit_exchange_levels(c, ctx, e)
    local D, T = ctx.dialect, ctx.shape.tile
    for _, s in ipairs(ctx.steps) do
        local j = s.level
        if j > e.last then break end
        e.next_level(j)
        local level, below = e.name(j), e.name(j - 1)
        local region = T >> j -- texels per region side at this level
        local out_spacing, out_count = 1, s.count // 4
        if s.kind == "shared" then
            c:comment(string.format("Level %s: each 2x2 block of level %s spans %d invocations, " ..
                "more than a subgroup: exchange through shared memory, then %s.", level, below,
                4 * s.spacing, out_count == 1 and "invocation 0 reduces the 4 entries"
                    or string.format("invocations 0..%d reduce 4 consecutive entries each", out_count - 1)))
            local array = s.buffer == 0 and "lds_a" or "lds_b"
            local cond = tile.holder_condition(ctx.shape, s.spacing, s.count)
            local write = string.format("%s[%s] = v;", array, tile.texel_index(s.spacing))
            c:line(cond and ("if (" .. cond .. ") " .. write) or write)
            c:line(D.barrier())
            c:block(out_count == 1 and "if (t == 0u)" or string.format("if (t < %s)", u(out_count)), function()
                call_lines(c, "v = spd_reduce_level(", { array .. "[4u * t]", array .. "[4u * t + 1u]",
                    array .. "[4u * t + 2u]", array .. "[4u * t + 3u]", "size_in" }, ");")
                e.store(j, string.format("%sspd_morton_xy(t)", e.origin(region)), "v")
            end)
        else
            out_spacing = 4 * s.spacing
            if s.kind == "quad" then
                c:comment(string.format("Level %s: each 2x2 block of level %s sits in one quad: " ..
                    "broadcast its four values to all four invocations.", level, below))
                local vt = ctx.value_abstract
                call_lines(c, "v = spd_reduce_level(", { D.quad_broadcast("v", 0, vt),
                    D.quad_broadcast("v", 1, vt), D.quad_broadcast("v", 2, vt), D.quad_broadcast("v", 3, vt),
                    "size_in" }, ");")
            else
                c:comment(string.format("Level %s: each 2x2 block of level %s sits in %d lanes of one " ..
                    "subgroup, %s: every invocation gathers its block by shuffles (all lanes take " ..
                    "part, so the shuffles run in uniform control flow).", level, below, 4 * s.spacing,
                    s.spacing == 1 and "one value per lane" or string.format("one value per %d lanes", s.spacing)))
                local block_lane = "block_lane" .. e.number(j)
                c:line("uint %s = lane & ~%s;", block_lane, u(4 * s.spacing - 1))
                local lanes = {}
                for i = 0, 3 do
                    lanes[i + 1] = D.shuffle("v", block_lane .. (i == 0 and "" or (" + " .. u(i * s.spacing))),
                        ctx.value_abstract)
                end
                lanes[5] = "size_in"
                call_lines(c, "v = spd_reduce_level(", lanes, ");")
            end
            e.store(j, string.format("%sspd_morton_xy(%s)", e.origin(region), tile.texel_index(out_spacing)),
                "v", tile.holder_condition(ctx.shape, out_spacing, out_count))
        end
    end
end

-- The parameters of spd_exchange_levels, as declared; a call passes the variables of the
-- same names (routine_arguments).
local function routine_parameters(ctx)
    local list = { "uint base", "$uint2 unit" }
    if level2_exchanged(ctx) then
        for _, q in ipairs({ "$value q00", "$value q10", "$value q01", "$value q11" }) do list[#list + 1] = q end
    else
        list[#list + 1] = "$value v"
    end
    for _, p in ipairs({ "$uint2 size_out", "$uint2 src_size", "uint mip_count", "uint t" }) do
        list[#list + 1] = p
    end
    if level2_exchanged(ctx) then list[#list + 1] = "$uint2 p" end
    if ctx.uses_lane then list[#list + 1] = "uint lane" end
    if ctx.cfg.array then list[#list + 1] = "uint slice" end
    if ctx.cfg.edge == "conservative" then
        for _, p in ipairs({ "bool edge_fix", "$uint2 edge_origin", "$uint2 edge_size", "uint edge_rows",
                             "uint edge_cols" }) do list[#list + 1] = p end
    end
    return list
end

-- The call's arguments: the pass's base level and unit, then the variables of the same names.
local function routine_arguments(ctx, base, unit)
    local args = {}
    for i, p in ipairs(routine_parameters(ctx)) do
        args[i] = i == 1 and base or i == 2 and unit or p:match("(%S+)$")
    end
    return args
end

-- The routine every pass calls for its levels made by exchanges (emitted when several
-- passes share it, as nvpro_pyramid's handleTile_ serves every level): `base` is the level
-- the pass starts from, `unit` the region it reduces (a tile, a region of level 6, a block
-- of the hierarchy). Stores go through spd_store_mip, whose switch keeps every image index
-- a constant.
local function emit_routine(c, ctx)
    local cfg = ctx.cfg
    local levels = {}
    for _, base in ipairs(ctx.pass_bases) do
        for j = first_exchange_level(ctx), ctx.shape.levels do
            if base + j <= cfg.mips then levels[base + j] = true end
        end
    end
    local slice = cfg.array and ", uint slice" or ""
    c:comment("Stores v at coord of level `level`: a switch over the levels the passes store, so " ..
        "every index into dst_mips is a constant.")
    c:block(string.format("void spd_store_mip(uint level, $uint2 coord%s, $value v)", slice), function()
        c:block("switch (level)", function()
            for level = 1, cfg.mips do
                if levels[level] then
                    c:line("case %s: %s break;", u(level), store_mip(ctx, level, "coord", "v"))
                end
            end
        end)
    end)
    c:blank()
    local first = first_exchange_level(ctx)
    c:comment(string.format("Levels base + %d .. base + %d of one pass over the region `unit`: their " ..
        "2x2 blocks lie in other invocations. %s Returns the region's last texel (in invocation 0).",
        first, ctx.shape.levels, level2_exchanged(ctx) and "Every invocation holds q00..q11, its four texels " ..
            "of level base + 1 (--level1 interleaved)." or string.format("Every invocation holds v, its " ..
            "texel of level base + %d.", first - 1)))
    c:block(string.format("$value spd_exchange_levels(%s)", table.concat(routine_parameters(ctx), ", ")), function()
        c:line("$uint2 size_in;")
        local function next_level(j)
            c:blank()
            c:line("if (mip_count < base + %s) return v;", u(j))
            c:line("size_in = size_out;")
            c:line("size_out = max($uint2(1u, 1u), src_size >> (base + %s));", u(j))
        end
        local function store(j, coord, value, holder)
            store_texel(c, ctx, j, 0, coord, value, holder, nil, string.format("spd_store_mip(base + %s, " ..
                "texel%d%s, %s);", u(j), j, cfg.array and ", slice" or "", stored_value(ctx, value)))
        end
        local function origin(n) return n == 1 and "unit + " or string.format("unit * %s + ", u(n)) end
        if level2_exchanged(ctx) then
            c:comment("Returned as it is when mip_count ends the pass at level base + 1: nothing reads it.")
            c:line("$value v = q00;")
            next_level(2)
            emit_level1_exchange(c, ctx, "base + 2", "base + 1")
            c:line("v = spd_reduce_level(q00, q10, q01, q11, size_in);")
            store(2, origin(ctx.shape.tile // 4) .. "p", "v")
        end
        emit_exchange_levels(c, ctx, {
            last = ctx.shape.levels, origin = origin, next_level = next_level, store = store,
            name = function(j) return "base + " .. j end,
            number = function(j) return j end,
        })
        c:blank()
        c:line("return v;")
    end)
    c:blank()
end

-- The pass's call of spd_exchange_levels for its levels base + first .. last.
local function call_routine(c, ctx, pass, base, last)
    c:blank()
    local first = base + first_exchange_level(ctx)
    c:comment(string.format("%s: the 2x2 blocks lie in other invocations; spd_exchange_levels " ..
        "makes them, as in every pass.", first == last and string.format("Level %d", last)
            or string.format("Levels %d..%d", first, last)))
    c:line("v = spd_exchange_levels(%s);", table.concat(routine_arguments(ctx, u(base), pass.unit), ", "))
end

-- Emits one pass: levels base+1 .. min(base+6, mips) of a 64x64 region whose texels are
-- read with pass.load(x, y). pass.origin(n) is the region's corner in a level of n x n
-- texels per region ("tile * 32u + " for workgroup tiles, "" for a single region), pass.unit
-- the region as spd_exchange_levels takes it. Levels beyond the dispatch's mip_count end
-- the pass with `return`, or, inside the tail's region loop (pass.guard_stores), are
-- computed but not stored: a return there would skip the remaining regions (the routine
-- returns from itself only).
-- What one pass's routines share: its levels, where an invocation's texel of a level lies,
-- and how a texel is stored and the next level entered.
local function pass_state(c, ctx, pass)
    local cfg = ctx.cfg
    local ps = { base = pass.base, conservative = cfg.edge == "conservative" }
    ps.last = math.min(ps.base + ctx.shape.levels, cfg.mips)
    ps.interleaved = ctx.shape.block == 4 and ctx.level1_interleaved
    -- Declares texel<level> = coord and stores value there when inside the level (and, with
    -- a holder condition, only from the invocations that hold a value).
    function ps.store(level, coord, value, holder)
        local guard = pass.guard_stores and string.format("mip_count >= %s", u(level)) or nil
        store_texel(c, ctx, level, ps.base, coord, value, holder, guard,
            store_mip(ctx, level, "texel" .. level, stored_value(ctx, value)))
    end
    function ps.next_level(level)
        c:blank()
        if not pass.guard_stores then c:line("if (mip_count < %s) %s;", u(level), pass.stop or "return") end
        c:line("size_in = size_out;")
        c:line("size_out = max($uint2(1u, 1u), src_size >> %s);", u(level))
    end
    -- Where this invocation's texel of a level with n texels per region side lies: the
    -- region's corner plus p (times scale). A one-invocation workgroup owns the whole tile.
    function ps.at(n, scale)
        if ctx.shape.wg == 1 then return (pass.origin(n):gsub(" %+ $", "")) end
        return pass.origin(n) .. "p" .. (scale and (" * " .. u(scale)) or "")
    end
    return ps
end

-- The pass's sizes and the corner of the block of the pass's base level this invocation
-- reduces into level base + 1 (with the clamped coordinates of its texel loads).
local function emit_level1_setup(c, ctx, pass, ps)
    local base, last = ps.base, ps.last
    -- size_in: the texel loads clamp to it, the normalized sampler scales by it and the levels
    -- after the first reduce by it; a 2D sampler's single level needs none (MSL's -Werror).
    if not pass.sample or ctx.cfg.sampler_normalized or last > base + 1 then c:line("$uint2 size_in = %s;", pass.size) end
    c:line("$uint2 size_out = max($uint2(1u, 1u), src_size >> %s);", u(base + 1))
    if ps.conservative then edge.emit_prepare(c, ctx, pass, last - base) end
    c:blank()
    local T, B = ctx.shape.tile, ctx.shape.block
    local clamp_note = pass.sample and "" or ", clamping coordinates to the level's edge so nothing outside it is read"
    if ps.interleaved then
        c:comment(string.format("Level %d: this invocation reads four 2x2 blocks of level %d, %d texels " ..
            "apart (--level1 interleaved), so the invocations of a subgroup read neighbouring blocks and " ..
            "each fetch instruction touches few cache lines%s.", base + 1, base, T // 2, clamp_note))
    else
        c:comment(string.format("Level %d: this invocation reads the %dx%d block of level %d under its " ..
            "level-%d texel%s.", base + 1, B, B, base, base + ctx.shape.register_levels, clamp_note))
    end
    c:line("$uint2 corner = %s;", ps.at(T, ps.interleaved and 2 or B))
    if not pass.sample then
        c:line("$uint2 edge = size_in - $uint2(1u, 1u);")
        local function plus(i) return level1_offset(ctx, i) == 0 and "" or (" + " .. u(level1_offset(ctx, i))) end
        for i = 0, B - 1 do c:line("uint x%d = min(corner.x%s, edge.x);", i, plus(i)) end
        for i = 0, B - 1 do c:line("uint y%d = min(corner.y%s, edge.y);", i, plus(i)) end
    end
end

-- --sampler linear: q00..q11 (v for 2x2 blocks) are this tile's bilinear fetches, made here
-- or, with pass.ahead, while the tile before was reduced. Returns what emits the next tile's
-- fetches (nothing without pass.ahead).
local function emit_level1_fetches(c, ctx, pass)
    local B = ctx.shape.block
    -- One bilinear fetch at the shared corner of each 2x2 block: the filter's weights are
    -- exactly 1/4 there, so it returns the block's mean.
    c:comment(string.format("--sampler linear: each 2x2 block of level %d is one bilinear fetch " ..
        "at its centre, where the filter weighs the four texels 1/4 each: %s.", pass.base,
        ctx.cfg.sampler_normalized and "normalized coordinates, exact for power-of-two sides"
            or "texel coordinates (2x + 1, 2y + 1), exact floats at any size"))
    if ctx.cfg.sampler_normalized then c:line("$float2 inv_size = $float2(1.0f, 1.0f) / $float2(size_in);") end
    -- The level-1 value of fetch f: v for a 2x2 block, q00..q11 for a 4x4 one.
    local function target(f) return B == 2 and "v" or ("$value q" .. f.suffix) end
    local function ahead(f) return "ahead" .. f.suffix end
    -- The fetches at corner, split into those issued one tile ahead and the rest.
    local function fetches(corner)
        local early, now = {}, {}
        for i, f in ipairs(level1_fetches(ctx, corner)) do
            table.insert(pass.ahead and i <= pass.ahead.count and early or now, f)
        end
        return early, now
    end
    local function fetch_into(name, list)
        for _, f in ipairs(list) do c:line("%s = %s;", name(f), pass.sample(f.uv)) end
    end
    local fetch_next = function() end
    local early, now = fetches("corner")
    if #early > 0 then
        local a = pass.ahead
        c:comment(string.format("--fetch-ahead %d: the workgroup's first tile fetches its own; " ..
            "every later tile's first %s went out while the tile before it was reduced, so the " ..
            "workgroup's loads stay in flight through levels 2..6 and their barriers.", a.count,
            a.count == 1 and "fetch" or (a.count .. " fetches")))
        c:block(string.format("if (%s)", a.first), function() fetch_into(ahead, early) end)
        for _, f in ipairs(early) do c:line("%s = %s;", target(f), ahead(f)) end
        -- The next tile's, emitted once this tile's level-1 values are used up (its stores
        -- issued and, for 4x4 blocks, its level-2 texel made), so that the registers they
        -- land in are not needed twice.
        fetch_next = function()
            c:block(string.format("if (%s)", a.next), function()
                c:line("$uint2 next_corner = corner + %s;", a.step)
                fetch_into(ahead, (fetches("next_corner")))
            end)
        end
    end
    fetch_into(target, now)
    return fetch_next
end

-- Stores q00..q11, the level-1 texels at corner + (q.x, q.y) * step.
local function emit_store_level1(c, ctx, ps, corner, step)
    local level = ps.base + 1
    c:line("$uint2 level%d_corner = %s;", level, corner)
    for _, q in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        local coord = string.format("level%d_corner + $uint2(%s, %s)", level, u(q[1] * step), u(q[2] * step))
        local value = string.format("q%d%d", q[1], q[2])
        if ps.conservative then
            local name = string.format("texel%d_%d%d", level, q[1], q[2])
            c:line("$uint2 %s = %s;", name, coord)
            edge.emit_fix(c, ctx, 1, name, value)
            coord = name
        end
        c:line("if (spd_inside(%s, size_out)) %s", coord, store_mip(ctx, level, coord, stored_value(ctx, value)))
    end
end

-- A 4x4 block per invocation: levels base + 1 and base + 2 in registers. Returns true when
-- the pass ends here (a chain of two levels, or the per-level routine takes over).
local function emit_block4(c, ctx, pass, ps)
    local base, last, T = ps.base, ps.last, ctx.shape.tile
    local fetch_next = pass.sample and emit_level1_fetches(c, ctx, pass) or function() end
    local L = pass.load
    -- The 2x2 rule for the four level-1 texels; prefix declares them (or not, when
    -- --edge weighted declared them before choosing between this and its 3-tap weights).
    local function quads(prefix)
        for _, q in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
            local x, y = 2 * q[1], 2 * q[2]
            call_lines(c, string.format("%sq%d%d = spd_reduce(", prefix, q[1], q[2]),
                { L("x" .. x, "y" .. y), L("x" .. (x + 1), "y" .. y), L("x" .. x, "y" .. (y + 1)),
                  L("x" .. (x + 1), "y" .. (y + 1)) }, ");")
        end
    end
    if pass.sample then
        -- q00..q11 are the bilinear fetches above.
    elseif ctx.cfg.edge == "weighted" then
        edge.emit_first_level(c, ctx, L, quads)
    else
        quads(ctx.value_type .. " ")
    end
    emit_store_level1(c, ctx, ps, ps.at(T // 2, not ps.interleaved and 2 or nil), ps.interleaved and T // 4 or 1)
    -- With fetches ahead, level 2 of a 4x4 block is made before the next tile's fetches.
    local level2_first = pass.ahead and not ps.interleaved and last >= base + 2
    if level2_first then
        c:comment(string.format("Level %d: the four level-%d texels just made are this invocation's " ..
            "2x2 block.", base + 2, base + 1))
        c:line("$value level%d = spd_reduce_level(q00, q10, q01, q11, size_out);", base + 2)
    end
    fetch_next()
    if last < base + 2 then return true end
    if ctx.routine and ps.interleaved then
        call_routine(c, ctx, pass, base, last)
        return true
    end
    ps.next_level(base + 2)
    if level2_first then
        c:line("v = level%d;", base + 2)
    else
        if ps.interleaved then emit_level1_exchange(c, ctx, base + 2, base + 1) else
            c:comment(string.format("Level %d: the four level-%d texels just made are this invocation's 2x2 block.",
                base + 2, base + 1))
        end
        c:line("v = spd_reduce_level(q00, q10, q01, q11, size_in);")
    end
    ps.store(base + 2, ps.at(T // 4), "v")
    return false
end

-- One pass: level base + 1 from the base level, the register levels, then the exchanges.
local function emit_pass(c, ctx, pass)
    local ps = pass_state(c, ctx, pass)
    local base, last, T = ps.base, ps.last, ctx.shape.tile
    emit_level1_setup(c, ctx, pass, ps)
    if ctx.shape.block == 2 then
        local L = pass.load
        local fetch_next = function() end
        if pass.sample then
            fetch_next = emit_level1_fetches(c, ctx, pass)
        else
            call_lines(c, "v = spd_reduce(", { L("x0", "y0"), L("x1", "y0"), L("x0", "y1"), L("x1", "y1") }, ");")
        end
        ps.store(base + 1, ps.at(T // 2), "v")
        fetch_next()
    elseif emit_block4(c, ctx, pass, ps) then
        return
    end

    if not has_exchange_levels(ctx, base, last) then return end
    if ctx.routine then return call_routine(c, ctx, pass, base, last) end
    emit_exchange_levels(c, ctx, {
        last = last - base, origin = pass.origin, store = function(j, ...) ps.store(base + j, ...) end,
        next_level = function(j) ps.next_level(base + j) end,
        name = function(j) return tostring(base + j) end,
        number = function(j) return base + j end,
    })
end

-- What the hand-off needs before the tile loop: the grid of tiles and where this slice's
-- level-6 texels go.
local function emit_handoff_layout(c, ctx)
    local cfg = ctx.cfg
    c:line("$uint2 tiles = (src_size + $uint2(63u, 63u)) >> 6u;")
    c:line("uint slice_tiles = tiles.x * tiles.y;")
    c:line("uint level6_base = %s;", cfg.array and "slice * slice_tiles" or "0u")
end

-- The hand-off between the tile pass and the tail: count this workgroup's tiles (their
-- level-6 texels are published in the loop) and let only the last workgroup of the slice
-- go on.
local function emit_handoff(c, ctx)
    local cfg = ctx.cfg
    local slice = cfg.array and "slice" or "0u"
    c:line("if (mip_count < 7u) return;")
    c:comment("An update dispatches only the tiles over a changed rectangle (params.tile_count " ..
        "per slice, 0 = all): the others' level-6 texels are still in the buffer from the " ..
        "dispatch before, so the last arrival of this dispatch reduces the whole slice.")
    c:line("uint arrivals = params.tile_count != 0u ? params.tile_count : slice_tiles;")
    hierarchy.elect(c, ctx, {
        release = "Release: make this workgroup's level-6 texels visible device-wide before the " ..
            "counter announces them. Without it the last workgroup may read a stale value " ..
            "(FidelityFX SPD issue #13).",
        counter = string.format("counters[%s]", slice), arrivals = "arrivals", count = "tile_end - tile_first",
        acquire = "Acquire: every invocation of the last workgroup orders its level-6 reads after " ..
            "the counter, which every other workgroup incremented after its release.",
        reset = "Reset the counter for the next dispatch; no other workgroup touches it again in " ..
            "this one, and the host's barrier between dispatches makes the store visible.",
    })
end

-- Phase 1: the workgroup's tiles, one after another. A whole-image dispatch may give each
-- workgroup several consecutive tiles of its row (params.tiles_per_workgroup), so the
-- hand-off, whose fence and atomic leave the workgroup waiting, is paid once per workgroup
-- rather than once per tile. With --tail hierarchy the runtime keeps that number a power of
-- two up to T, so a workgroup's tiles lie in one block of the first stage and share its
-- counter; tile_offset and tile_count (updates) are the loop tail's only.
local function emit_tile_loop(c, ctx, phase1)
    local D, shape = ctx.dialect, ctx.shape
    local grid = "tiles" -- the grid of tiles: the hierarchy's layout names it grid1
    if ctx.loop and ctx.handoff then
        emit_handoff_layout(c, ctx)
    elseif ctx.handoff then
        hierarchy.emit_layout(c, ctx)
        grid = "grid1"
    else
        c:line("$uint2 tiles = (src_size + $uint2(%s, %s)) >> %s;", u(shape.tile - 1), u(shape.tile - 1),
            u(shape.levels))
    end
    if ctx.loop then
        c:comment("Tiles tile_first .. tile_end - 1 of row tile_row: one per workgroup (the default, " ..
            "and always for an update), or params.tiles_per_workgroup consecutive ones.")
        c:line("uint tiles_here = params.tile_count == 0u ? max(params.tiles_per_workgroup, 1u) : 1u;")
        c:line("uint tile_first = group.x * tiles_here + params.tile_offset.x;")
        c:line("uint tile_end = min(tile_first + tiles_here, tiles.x);")
        c:line("uint tile_row = group.y + params.tile_offset.y;")
    else
        c:comment("Tiles tile_first .. tile_end - 1 of row tile_row: params.tiles_per_workgroup " ..
            "consecutive ones (0 = 1). Every dispatch covers the whole grid: tile_offset and " ..
            "tile_count are not read (a partial dispatch would leave the hierarchy's block " ..
            "counters short; updates need --tail loop).")
        c:line("uint tiles_here = max(params.tiles_per_workgroup, 1u);")
        c:line("uint tile_first = group.x * tiles_here;")
        c:line("uint tile_end = min(tile_first + tiles_here, %s.x);", grid)
        c:line("uint tile_row = group.y;")
    end
    c:block("for (uint tile_x = tile_first; tile_x < tile_end; tile_x++)", function()
        c:line("$uint2 tile = $uint2(tile_x, tile_row);")
        c:comment("One tile; `break` leaves it early when mip_count asks for fewer levels.")
        c:line("do {")
        c.depth = c.depth + 1
        phase1("break")
        if ctx.handoff then
            local next_level = u(shape.levels + 1)
            if ctx.loop then
                c:comment("Publish this tile's level-6 texel for the last workgroup.")
                c:line("if (t == 0u && mip_count >= %s) level6[level6_base + tile.y * tiles.x + tile.x] = v;",
                    next_level)
            else
                c:comment(string.format("Publish this tile's level-%d texel for the last unit of its block.",
                    shape.levels))
                c:line("if (t == 0u && mip_count >= %s) handoff[results0 + tile.y * grid1.x + tile.x] = v;",
                    next_level)
            end
        end
        c.depth = c.depth - 1
        c:line("} while (false);")
        c:comment("The next tile reuses the shared exchange arrays.")
        c:line("if (tile_x + 1u < tile_end) %s", D.barrier())
    end)
end

-- Everything the template and dialect need to agree on, and the dispatch contract.
local function make_context(cfg, dialect)
    local format, op = FORMATS[cfg.format], OPS[cfg.op]
    local channels = format.channels
    local shape = tile.shape(cfg.tile, cfg.wg)
    -- Only the steps of levels that exist at this --mips (the tail repeats a subset of them).
    local steps = {}
    for _, s in ipairs(tile.plan_steps(shape, cfg.subgroup)) do
        if s.level <= cfg.mips then steps[#steps + 1] = s end
    end
    -- Levels beyond one tile (--tail): the loop tail of the 64x64 shape loops over level-6
    -- regions in the last workgroup (and keeps level 12 in shared memory beyond 12 levels);
    -- --tail hierarchy, the only tail of smaller tiles, climbs a hierarchy of counters
    -- (templates/spd_hierarchy.lua).
    local loop = shape.tile == 64 and cfg.tail ~= "hierarchy"
    local extra = {}
    if loop and cfg.mips > 12 then extra[1] = { name = "lds_level12", count = MAX_REGIONS } end
    for _, a in ipairs(edge.shared_arrays(cfg)) do extra[#extra + 1] = a end
    -- --level1 interleaved applies to workgroups of several invocations reading 4x4 blocks
    -- when some level past 1 is made; the exchange array holds the region's level 1.
    local level1_interleaved = cfg.level1 == "interleaved" and cfg.edge == "drop" and shape.block == 4
        and shape.wg > 1 and cfg.mips >= 2
    if level1_interleaved then extra[#extra + 1] = { name = "lds_level1", count = 4 * shape.wg } end
    local ctx = {
        level1_interleaved = level1_interleaved,
        cfg = cfg, dialect = dialect, channels = channels, steps = steps, shape = shape, loop = loop,
        uint = format.uint or false,                         -- r32ui: integer values
        source_channels = op.source_channels or channels,    -- channels read from level 0
        srgb = op.srgb or false,
        shared = tile.shared_arrays(steps, extra),
        -- The counter and hand-off buffers, when levels continue past one tile.
        handoff = cfg.mips > shape.levels and (loop and { name = "level6", block = "SpdLevel6" }
            or { name = "handoff", block = "SpdHandoff" }) or nil,
        uses_lane = false,
        params = spd_push.params(), -- the push-constant block (templates/spd_push.lua)
    }
    for _, s in ipairs(steps) do
        if s.kind == "shuffle" then ctx.uses_lane = true end
    end
    local value_bytes = spd_half.value_bytes(cfg, channels)
    local shared_bytes = 4 -- lds_is_last
    for _, a in ipairs(ctx.shared) do shared_bytes = shared_bytes + a.count * value_bytes end
    local hierarchy_stages = hierarchy.stages({ cfg = cfg, shape = shape })
    local passes = (cfg.total_mips + cfg.mips - 1) // cfg.mips
    ctx.contract = {
        title = "a single-pass downsampler (SPD)",
        entry = dialect.entry_name("spd"),
        workgroup = { shape.wg, 1, 1 },
        tile = shape.tile, tile_levels = shape.levels, hierarchy = not loop,
        stages = hierarchy_stages,
        grid_text = { string.format("(src_width + %d) / %d", shape.tile - 1, shape.tile),
                 string.format("(src_height + %d) / %d", shape.tile - 1, shape.tile), cfg.array and "layers" or "1" },
        grid_doc = string.format("Grid: one workgroup per %dx%d tile of level 0 (--tile), one layer " ..
            "of workgroups per slice.", shape.tile, shape.tile),
        grid = { { arg = "src_width", per = shape.tile }, { arg = "src_height", per = shape.tile },
                 cfg.array and { arg = "layers", per = 1 } or { arg = "layers", value = 1 } },
        subgroup = cfg.subgroup,
        shared_bytes = shared_bytes,
        push_constants = spd_push.contract(cfg.mips),
        push_constant_bytes = spd_push.BYTES,
        bindings = {
            { binding = 0, macro = "SOURCE", name = "src_level0", kind = "sampled image",
              doc = string.format("level 0 of the source, %s, read with texel fetches (no sampler)",
                  cfg.array and "2D array" or "2D") },
            { binding = 1, macro = "MIPS", name = "dst_mips", kind = "storage image", count = cfg.mips,
              doc = string.format("levels 1..%d, write-only, %s; element i is level i+1", cfg.mips, cfg.format) },
        },
        values = {
            { name = "TILE", value = shape.tile, doc = "a workgroup reduces a TILE x TILE tile of level 0" },
            { name = "MAX_MIPS", value = cfg.mips, doc = "storage images bound at binding 1: levels per dispatch" },
            { name = "TOTAL_MIPS", value = cfg.total_mips, doc = "levels of the whole chain" },
            { name = "PASSES", value = passes,
              doc = "dispatches per chain: pass p reads level p * MAX_MIPS (--max-mips-per-pass)" },
            { name = "CHANNELS", value = channels },
            { name = "NEEDS_QUAD_OPS", value = cfg.subgroup == 4 and 1 or 0 },
            { name = "HANDOFF_VALUE_BYTES", value = value_bytes,
              doc = "bytes of one value in the hand-off buffer (binding 3)" },
        },
    }
    if not loop and hierarchy_stages > 1 then
        local v = ctx.contract.values
        v[#v + 1] = { name = "HIERARCHY_STAGES", value = hierarchy_stages,
                      doc = "stages of the hierarchy of counters (--tail hierarchy)" }
    end
    if cfg.edge ~= "drop" then
        local v = ctx.contract.values
        v[#v + 1] = { name = "EDGE_" .. cfg.edge:upper(), value = 1,
                      doc = "--edge " .. cfg.edge .. " (see the shader's opening comment)" }
    end
    if cfg.sampler_linear then
        local b = ctx.contract.bindings
        b[#b + 1] = { binding = 4, macro = "SAMPLER", name = "src_sampler", kind = "sampler",
            doc = cfg.sampler_normalized and "linear filtering, clamp to edge, normalized coordinates "
                .. "(--sampler-coords normalized, implied by --array: power-of-two sources only)"
                or "linear filtering, clamp to edge, unnormalized coordinates (texel units; "
                .. "--sampler linear: any size)" }
    end
    if ctx.handoff then
        local b = ctx.contract.bindings
        local counters_doc, handoff_doc = "uint per slice, zero before the first dispatch; the shader resets it",
            string.format("%d bytes per 64x64 tile per slice: the level-6 hand-off", value_bytes)
        if not loop then counters_doc, handoff_doc = hierarchy.buffer_docs(ctx, value_bytes) end
        b[#b + 1] = { binding = 2, macro = "COUNTERS", name = "counters", kind = "storage buffer", doc = counters_doc }
        b[#b + 1] = { binding = 3, macro = loop and "LEVEL6" or "HANDOFF", name = ctx.handoff.name,
                      kind = "storage buffer", doc = handoff_doc }
    end
    table.sort(ctx.contract.bindings, function(a, b) return a.binding < b.binding end)
    return ctx
end

-- The emitted file's opening comment: provenance, contract and strategy.
local function emit_header_comment(c, ctx)
    local cfg, k = ctx.cfg, ctx.contract
    c:line("// spdgen %s: single-pass downsampler (SPD), %s.", cfg.version, ctx.dialect.language)
    c:line("// Generated; regenerate with:")
    c:command(cfg.command)
    c:line("//")
    c:line("// Reduction: %s of each 2x2 block; %d levels; mips stored as %s.", OPS[cfg.op].what,
        cfg.total_mips, cfg.format)
    if spd_half.describe(cfg) then c:comment(spd_half.describe(cfg)) end
    if cfg.total_mips > cfg.mips then
        c:line("// Passes: the %d levels take %d dispatches of this shader, %d levels each. Pass p binds",
            cfg.total_mips, (cfg.total_mips + cfg.mips - 1) // cfg.mips, cfg.mips)
        c:line("// level p*%d as src_level0 and the next %d levels as dst_mips, with src_size that", cfg.mips, cfg.mips)
        c:line("// level's size and mip_count the levels left (at most %d); a shader-write ->", cfg.mips)
        c:line("// shader-read barrier between passes. 32-bit formats give the single-pass result")
        c:line("// exactly; 8/16-bit ones re-read stored (rounded) levels.")
    end
    if cfg.unfenced then
        c:comment("Unfenced hand-off (--unfenced-handoff): WGSL has no device-scope fence, so " ..
            "nothing in the language orders the other workgroups' writes of this dispatch " ..
            "before the last workgroup's reads; it works only where the implementation makes " ..
            "them visible in time (docs/wgsl.md). Without it no pass goes past one tile.")
    end
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        c:hanging(string.format("//   %-18s %s%s: ", ctx.interface:binding_label(b.binding),
            b.name, b.count and ("[" .. b.count .. "]") or ""), b.doc, emit.WIDTH)
    end
    c:hanging(string.format("//   %-18s ", ctx.interface:params_label()),
        string.format("%s (%d bytes)", spd_push.names(), k.push_constant_bytes), emit.WIDTH)
    local shape = ctx.shape
    c:line("//   workgroup %dx1x1, dispatch (%s, %s, %s)", shape.wg, k.grid_text[1], k.grid_text[2], k.grid_text[3])
    if ctx.loop then
        c:line("//   K tiles per workgroup (whole-image dispatches): tiles_per_workgroup = K and dispatch")
        c:line("//   x = (tiles x + K - 1) / K; each workgroup reduces K consecutive tiles of its row and")
        c:line("//   runs one hand-off for them (0 = 1, the grid above)")
        c:line("//   update of a changed rectangle: dispatch only the %dx%d tiles over it, tile_offset the", shape.tile, shape.tile)
        c:line("//   first, tile_count how many per slice (0 = all); the other tiles' levels stay as they are")
    else
        c:line("//   K tiles per workgroup: tiles_per_workgroup = K, a power of two up to %d (the K tiles", shape.tile)
        c:line("//   then share one block of the hierarchy), and dispatch x = (tiles x + K - 1) / K; each")
        c:line("//   workgroup reduces K consecutive tiles of its row and runs one hand-off for them")
        c:line("//   tile_count and tile_offset must be 0 (not read): the hierarchy's counters count every")
        c:line("//   unit of a block, so every dispatch covers the whole grid; updates need --tail loop")
    end
    local needs = cfg.subgroup == 4 and "; needs quad operations in compute" or "; no subgroup operations"
    if cfg.subgroup >= 8 and cfg.subgroup <= shape.wg then
        needs = string.format("; needs subgroups of at least %d invocations, full, with shuffles", cfg.subgroup)
    elseif cfg.subgroup >= 8 then
        needs = string.format("; needs the workgroup's %d invocations in one subgroup, with shuffles", shape.wg)
    end
    c:line("//   shared memory %d bytes%s", k.shared_bytes, needs)
    if cfg.subgroup >= 4 then
        c:line("//   assumes each subgroup is consecutive invocations of the workgroup (lane = t % size),")
        c:line("//   as 1D workgroups are laid out by every known Vulkan, D3D and Metal implementation")
    end
    if cfg.subgroup >= 8 and ctx.dialect.subgroup_requirement then
        c:line("//   %s", string.format(ctx.dialect.subgroup_requirement, math.min(cfg.subgroup, shape.wg)))
    end
    if ctx.handoff then
        c:line("//   sources up to %s (all %d levels in this one dispatch)", cfg.max_size, cfg.mips)
    end
    c:line("//")
    local t, m, r, b = shape.tile, shape.levels, shape.register_levels, shape.block
    local registers = r == 1 and "level 1" or string.format("levels 1 and %d", r)
    local owns = shape.wg == 1 and string.format("Its one invocation reads the whole tile and makes %s in " ..
            "registers.", registers)
        or string.format("Invocation t owns texel morton(t) of level %d: %s. %s 2x2 blocks held by other " ..
            "invocations: %s.", r, ctx.level1_interleaved and string.format("it reads four 2x2 blocks of " ..
                "level 0, %d texels apart (--level1 interleaved: a subgroup's fetches cover neighbouring " ..
                "texels), makes their level-1 texels, and one shared-memory exchange gives it the 2x2 block " ..
                "of level 1 under its level-2 texel", t // 2)
                or string.format("it reads the %dx%d block of level 0 beneath it and makes %s in registers",
                    b, b, registers), r + 1 == m and string.format("Level %d combines", m)
                or string.format("Levels %d..%d combine", r + 1, m), ctx.strategy)
    local tail = ""
    if ctx.handoff and ctx.loop then
        tail = " Each workgroup then publishes its level-6 texel and increments its slice's counter; " ..
            "the last to arrive reduces level 6 to the remaining levels with the same code."
    elseif ctx.handoff then
        tail = string.format(" Each workgroup then publishes its level-%d texel and increments its " ..
            "block's counter; the last of each %dx%d block of tiles reduces their level-%d texels to " ..
            "levels %d..%d with the same code, and so on up a hierarchy of counters to the last level.",
            m, t, t, m, m + 1, 2 * m)
    end
    if edge.describe(cfg) then
        c:comment(edge.describe(cfg))
        c:line("//")
    end
    c:comment(string.format("Strategy: each workgroup reduces one %dx%d tile of level 0 to levels 1..%d. ", t, t, m) ..
        owns .. tail)
    c:blank()
end

local function describe_strategy(ctx)
    local parts = {}
    for _, s in ipairs(ctx.steps) do
        if s.level <= 6 then
            local how = s.kind == "shared" and "shared memory" or s.kind == "quad" and "quad broadcasts" or "subgroup shuffles"
            parts[#parts + 1] = string.format("level %d by %s", s.level, how)
        end
    end
    return #parts > 0 and table.concat(parts, ", ") or "none needed at this mip count"
end

-- Pure helper functions (no resources, so every target can have them at file scope).
local function emit_helpers(c, ctx)
    c:comment("The reduction; a = top left, b = top right, c = bottom left, d = bottom right.")
    c:block("$value spd_reduce($value a, $value b, $value c, $value d)", function()
        c:line("return %s;", spd_half.body(ctx.cfg, ctx.dialect, OPS[ctx.cfg.op].body))
    end)
    c:blank()
    c:comment("Reduces a 2x2 block of a level of size size_in. Where that level is one texel " ..
        "wide (or high) the right (lower) texels lie outside it: repeat the edge instead, as " ..
        "the clamped reads of level 0 do.")
    c:block("$value spd_reduce_level($value a, $value b, $value c, $value d, $uint2 size_in)", function()
        c:block("if (size_in.x == 1u)", function() c:line("b = a;"); c:line("d = c;") end)
        c:block("if (size_in.y == 1u)", function() c:line("c = a;"); c:line("d = b;") end)
        c:line("return spd_reduce(a, b, c, d);")
    end)
    c:blank()
    edge.emit_helpers(c, ctx)
    if ctx.cfg.op == "minmax" then
        c:comment("A depth sample as the (min, max) pair it starts as.")
        c:block("$value spd_depth_pair(float depth)", function()
            c:line("return $value(depth, depth);")
        end)
        c:blank()
    end
    if ctx.srgb then
        c:comment("The sRGB transfer functions (IEC 61966-2-1), per colour channel; alpha is " ..
            "linear. Storage images cannot be sRGB, so the shader encodes before storing.")
        c:block("float spd_srgb_decode(float c)", function()
            c:line("return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);")
        end)
        c:blank()
        c:block("float spd_srgb_encode(float l)", function()
            c:line("return l <= 0.0031308f ? l * 12.92f : 1.055f * pow(l, 1.0f / 2.4f) - 0.055f;")
        end)
        c:blank()
        c:block("$float4 spd_srgb_to_linear($float4 v)", function()
            c:line("return $float4(spd_srgb_decode(v.x), spd_srgb_decode(v.y), spd_srgb_decode(v.z), v.w);")
        end)
        c:blank()
        c:block("$float4 spd_linear_to_srgb($float4 v)", function()
            c:line("return $float4(spd_srgb_encode(v.x), spd_srgb_encode(v.y), spd_srgb_encode(v.z), v.w);")
        end)
        c:blank()
    end
    if ctx.shape.wg > 1 then
        local what, lines = tile.morton_lines(ctx.shape)
        c:comment(what)
        c:block("$uint2 spd_morton_xy(uint i)", function()
            for _, line in ipairs(lines) do c:line(line) end
            c:line("return $uint2(x, y);")
        end)
        c:blank()
    end
    c:block("bool spd_inside($uint2 coord, $uint2 size)", function()
        c:line("return coord.x < size.x && coord.y < size.y;")
    end)
    c:blank()
    if ctx.routine then emit_routine(c, ctx) end
end

local function emit_main(c, ctx)
    local D, cfg = ctx.dialect, ctx.cfg
    local layer = cfg.array and "slice" or nil
    ctx.interface:emit_entry_open(c)
    if cfg.array then c:line("uint slice = group.z;") end
    c:line("$uint2 src_size = params.src_size;")
    if cfg.mips > 1 then c:line("uint mip_count = params.mip_count;") end
    local shape = ctx.shape
    if shape.wg > 1 then c:line("$uint2 p = spd_morton_xy(t);") end
    if cfg.mips > 1 or shape.block == 2 then c:line("$value v;") end
    -- --fetch-ahead N: the tile loop issues N of each invocation's level-1 fetches one tile
    -- ahead, into values that live across its iterations.
    local ahead = cfg.fetch_ahead > 0 and {
        count = cfg.fetch_ahead, first = "tile_x == tile_first", next = "tile_x + 1u < tile_end",
        step = string.format("$uint2(%s, 0u)", u(shape.tile)),
    } or nil
    if ahead then
        local names = {}
        for i, f in ipairs(level1_fetches(ctx, "")) do
            if i <= ahead.count then names[#names + 1] = "ahead" .. f.suffix end
        end
        c:line("$value %s;", table.concat(names, ", "))
    end
    c:blank()
    local function phase1(stop)
        c:comment(string.format("Phase 1: this workgroup's %dx%d tile of level 0 -> levels 1..%d.",
            shape.tile, shape.tile, math.min(shape.levels, cfg.mips)))
        c:block("", function()
            emit_pass(c, ctx, {
                base = 0, size = "src_size", stop = stop, unit = "tile",
                origin = function(n) return n == 1 and "tile + " or string.format("tile * %s + ", u(n)) end,
                load = function(x, y)
                    return source_value(ctx, D.image_load(ctx.src, x, y, layer, ctx.source_channels))
                end,
                ahead = ahead,
                sample = cfg.sampler_linear and function(uv)
                    return spd_half.from_source(cfg, D.image_sample(ctx.src, ctx.smp, uv, layer, ctx.source_channels))
                end or nil,
            })
        end)
    end
    emit_tile_loop(c, ctx, phase1)
    if ctx.handoff and not ctx.loop then hierarchy.emit(c, ctx, emit_pass) end
    if ctx.handoff and ctx.loop then
        c:blank()
        c:comment("Phase 2: hand-off. Only the last workgroup of this slice continues.")
        emit_handoff(c, ctx)
        c:blank()
        c:comment(string.format("Phase 3: the last workgroup reduces level 6 of the slice (read " ..
            "from the hand-off buffer) to levels 7..%d with the same steps as phase 1, one 64x64 " ..
            "region of level 6 at a time: one region for sources up to 4096x4096, 4x4 regions " ..
            "at 16384x16384. The other tail (--tail hierarchy), a hierarchy of counters, reduces " ..
            "the regions in parallel, faster for large sources.",
            math.min(12, cfg.mips)))
        c:line("$uint2 size6 = max($uint2(1u, 1u), src_size >> 6u);")
        c:line("$uint2 regions = (size6 + $uint2(63u, 63u)) >> 6u;")
        c:block("for (uint ry = 0u; ry < regions.y; ry++)", function()
            c:block("for (uint rx = 0u; rx < regions.x; rx++)", function()
                c:line("$uint2 region = $uint2(rx, ry);")
                c:block("", function()
                    emit_pass(c, ctx, {
                        base = 6, size = "size6", guard_stores = true, unit = "region",
                        origin = function(n) return n == 1 and "region + " or string.format("region * %s + ", u(n)) end,
                        load = function(x, y) return string.format("level6[level6_base + %s * tiles.x + %s]", y, x) end,
                    })
                end)
                if cfg.mips > 12 then
                    c:comment("Keep this region's level-12 texel for phase 4.")
                    c:line("if (t == 0u) lds_level12[ry * regions.x + rx] = v;")
                end
                c:comment("The next region reuses the shared exchange arrays.")
                c:line(D.barrier())
            end)
        end)
    end
    if ctx.loop and cfg.mips > 12 then
        c:blank()
        c:comment(string.format("Phase 4: levels 13..%d from the regions' level-12 texels (at " ..
            "most 4x4, in shared memory).", cfg.mips))
        c:line("if (mip_count < 13u) return;")
        c:block("", function()
            emit_pass(c, ctx, {
                base = 12, size = "max($uint2(1u, 1u), src_size >> 12u)", unit = "$uint2(0u, 0u)",
                origin = function() return "" end,
                load = function(x, y) return string.format("lds_level12[%s * regions.x + %s]", y, x) end,
            })
        end)
    end
    c.depth = c.depth - 1
    c:line("}")
end

-- The level each pass starts from: the tiles' 0, then the loop tail's 6 (and 12), or each
-- stage of the hierarchy's.
local function pass_bases(ctx)
    local bases = { 0 }
    if ctx.handoff and ctx.loop then
        bases[2] = 6
        if ctx.cfg.mips > 12 then bases[3] = 12 end
    elseif ctx.handoff then
        for s = 1, hierarchy.stages(ctx) - 1 do bases[#bases + 1] = s * ctx.shape.levels end
    end
    return bases
end

-- Entry point for the host: returns the shader text and the dispatch contract.
function spd.generate(cfg, dialect)
    local ctx = make_context(cfg, dialect)
    ctx.strategy = describe_strategy(ctx)
    local names = {}
    for k, v in pairs(dialect.types) do names[k] = v end
    ctx.value_abstract = ctx.uint and "uint" or spd_half.value_type(cfg, ctx.channels)
    names.value = dialect.types[ctx.value_abstract]
    ctx.value_type = names.value
    ctx.interface = resources.interface(ctx)
    ctx.pass_bases = pass_bases(ctx)
    -- One routine for the levels made by exchanges when several passes make them and the
    -- target's helper functions can use shared memory and the mips (templates/lib/interface.lua).
    local passes = 0
    for _, base in ipairs(ctx.pass_bases) do
        if has_exchange_levels(ctx, base, math.min(base + ctx.shape.levels, cfg.mips)) then passes = passes + 1 end
    end
    ctx.routine = passes > 1 and ctx.interface.shared_at_file_scope
    for _, r in ipairs(ctx.interface.resources) do
        if r.name == "src_level0" then ctx.src = r elseif r.name == "src_sampler" then ctx.smp = r
        elseif r.name == "dst_mips" then ctx.mips = r end
    end

    local c = emit.new(names)
    emit_header_comment(c, ctx)
    ctx.interface:emit_preamble(c)
    c:blank()
    ctx.interface:emit_declarations(c)
    c:blank()
    emit_helpers(c, ctx)
    emit_main(c, ctx)
    return c:text(), ctx.contract
end

return spd
