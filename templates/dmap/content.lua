-- content.lua: content-adaptive rates after AMD FidelityFX Variable Shading, as code for
-- templates/dmap/kernel.lua. A workgroup of 256 invocations covers a 64x64-pixel region:
-- 32x32 blocks of 2x2 pixels, each invocation 2x2 blocks at Morton position t, so the
-- tile reduction is templates/lib/tile.lua's plan (registers, then subgroup shuffles,
-- quad broadcasts or shared memory per level).
--
-- Per 2x2 block, as FidelityFX computes it (its ffx_variable_shading.h, tile sizes 8..32):
-- the previous frame's luminance 0.30 R + 0.59 G + 0.11 B at each pixel moved back by its
-- motion vector; d.x = the larger horizontal difference, d.y the larger vertical one, d.z
-- the block's range, each less a motion term; then each is widened by how far the 4
-- neighbouring blocks' minimum lies below and maximum above this block's. A tile takes
-- the maximum of each over its blocks. Where this differs from FidelityFX, on purpose:
--   * the motion term is motion_factor x max(|x|, |y|) of the block's first pixel, not the
--     Euclidean length: sqrt has no exact precision in Vulkan, and the maps must be exact;
--   * a motion vector rounds as floor(v + 0.5) (GLSL's round() leaves halves open);
--   * reads outside the image clamp to its edge (motion too; D3D's Load returns 0 there);
--   * blocks whose first pixel lies outside the image do not count toward a tile;
--   * one maximum per tile, then one decision (FidelityFX's tile-32 path ANDs the decisions
--     of 64-wide waves, which can give 1x1 where the tile's maximum gives 1x2);
--   * its "additional shading rates" path is not reproduced (it starts its minima at the
--     cutoff, so 4x4 appears only in dark areas, and at tile size 8 always writes 1x1);
--     the 4x4 tier here is cutoff4 on the tile's largest 2x2 range (hooks.lua).
-- Luminance and the sums are `precise` (no fused multiply-add), so the float results are
-- the same on every conforming device and in the CPU reference (runtime/dmap/dmap_ref.c).
local tile = require("templates.lib.tile")

local content = {}

content.REGION = 64        -- pixels per workgroup region side
content.BLOCKS = 32        -- 2x2 blocks per region side
content.SIDE = 34          -- the blocks and their ring, in the min/max arrays
content.SHAPE = tile.shape(32, 256)

local u = tile.u

-- The reduction levels of a texel of T pixels, T/2 blocks: log2(T/2), at most the region's.
function content.levels(T)
    return math.min(tile.log2(T // 2), content.SHAPE.levels)
end

-- The planner's steps for the levels a texel needs.
function content.steps(T, subgroup)
    local steps = {}
    for _, s in ipairs(tile.plan_steps(content.SHAPE, subgroup)) do
        if s.level <= content.levels(T) then steps[#steps + 1] = s end
    end
    return steps
end

-- The pixel (px, py) of the batch's load k: pixel k % 4 (x fastest) of block k / 4, whose
-- position in blocks is (block_x[k / 4], block_y[k / 4]).
local function emit_pixel(c)
    c:line("int px = region_x + 2 * block_x[k >> 2u] + int(k & 1u);")
    c:line("int py = region_y + 2 * block_y[k >> 2u] + int((k >> 1u) & 1u);")
end

-- One batch of blocks: `n` of the invocation's own (q = first + j, `first` an expression)
-- and, where `last` (an expression) holds and t < 128, the ring block as j = n. Every motion
-- vector of the batch is requested before the first is used, then every colour, so up to
-- 4 x (n + 1) loads per invocation are in flight at once; then each block's differences d
-- (own blocks) and its minimum and motion-lowered maximum, in the min/max arrays.
local function emit_batch(c, ctx, first, n, last)
    local D, P, B = ctx.dialect, ctx.precise, content.BLOCKS
    local slots, loads = n + 1, 4 * (n + 1)
    local ring = string.format("t < %s", u(4 * B))
    c:line("uint blocks = %s ? %s : %s;", last and (last .. " && " .. ring) or ring, u(n + 1), u(n))
    c:line("int block_x[%d];", slots)
    c:line("int block_y[%d];", slots)
    c:block(string.format("for (uint j = 0u; j < %s; j++)", u(n)), function()
        c:line("uint q = %s;", first == "0u" and "j" or (first .. " + j"))
        c:line("block_x[j] = int(2u * p.x + (q & 1u));")
        c:line("block_y[j] = int(2u * p.y + (q >> 1u));")
    end)
    c:line("block_x[%d] = ring_x;", n)
    c:line("block_y[%d] = ring_y;", n)
    c:comment("Motion vectors of the batch's pixels (load k: block k / 4, pixel k % 4, x " ..
        "fastest); reads clamp to the image.")
    c:line("$float2 mv[%d];", loads)
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u(loads)), function()
        c:line("mv[k] = $float2(0.0f, 0.0f);")
        c:block("if ((k >> 2u) < blocks)", function()
            emit_pixel(c)
            c:line("uint mx = uint(clamp(px, 0, last_x));")
            c:line("uint my = uint(clamp(py, 0, last_y));")
            c:line("mv[k] = %s;", D.image_load(ctx.motion, "mx", "my", ctx.layer, 2))
        end)
    end)
    c:comment("The luminance each pixel came from: the motion vector rounds as floor(v + 0.5), " ..
        "the read clamps to the image.")
    c:line("%s l[%d];", P("float"), loads)
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u(loads)), function()
        c:line("l[k] = 0.0f;")
        c:block("if ((k >> 2u) < blocks)", function()
            emit_pixel(c)
            c:line("int sx = clamp(px - int(floor(mv[k].x + 0.5f)), 0, last_x);")
            c:line("int sy = clamp(py - int(floor(mv[k].y + 0.5f)), 0, last_y);")
            c:line("$float4 rgb = %s;", D.image_load(ctx.colour, "uint(sx)", "uint(sy)", ctx.layer, 4))
            c:line("%s lr = rgb.x * 0.30f;", P("float"))
            c:line("%s lg = rgb.y * 0.59f;", P("float"))
            c:line("%s lb = rgb.z * 0.11f;", P("float"))
            c:line("l[k] = (lr + lg) + lb;")
        end)
    end)
    c:comment("Each block: its differences less the motion term of its first pixel (own blocks), " ..
        "its minimum and motion-lowered maximum for phase 2.")
    c:block(string.format("for (uint j = 0u; j < %s; j++)", u(slots)), function()
        c:block("if (j < blocks)", function()
            c:line("uint i = 4u * j;")
            c:line("%s m = params.motion_factor * max(abs(mv[i].x), abs(mv[i].y));", P("float"))
            c:line("%s lo = min(min(min(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);", P("float"))
            c:line("%s hi = max(max(max(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);", P("float"))
            c:block(string.format("if (j < %s)", u(n)), function()
                c:line("d[%s] = $float4(max(abs(l[i] - l[i + 1u]), abs(l[i + 2u] - l[i + 3u])) - m,",
                    first == "0u" and "j" or (first .. " + j"))
                c:line("    max(abs(l[i] - l[i + 2u]), abs(l[i + 1u] - l[i + 3u])) - m,")
                c:line("    (hi - lo) - m, 0.0f);")
            end)
            c:line("uint slot = uint(block_y[j] + 1) * %s + uint(block_x[j] + 1);", u(content.SIDE))
            c:line("lds_min[slot] = lo;")
            c:line("lds_max[slot] = hi - m;")
        end)
    end)
end

-- Phases 1-3 for the region at (region_x, region_y): every block's d, widened by its
-- neighbours, in d[0..3] (0 for blocks outside the image).
local function emit_blocks(c, ctx)
    local B, S = content.BLOCKS, content.SIDE
    local batch = ctx.cfg.batch
    c:comment(string.format("Phase 1: the 2x2-pixel blocks: this invocation's four at 2 * " ..
        "morton(t) (q = 0..3), and for t < %d one of the ring of blocks around the region's " ..
        "%dx%d, whose minimum and maximum phase 2 needs. The loads go out in %s " ..
        "(--batch %d), all of a batch's motion vectors before any is used, then all its colours: " ..
        "a load's latency is paid once per batch, not once per block.",
        4 * B, B, B, batch == 4 and "one batch (the four blocks and the ring block)" or
            string.format("%d batches of %d block%s (the ring block joins the last)", 4 // batch, batch,
                batch > 1 and "s" or ""), batch))
    c:line("$uint2 p = dmap_morton_xy(t);")
    c:line("uint side = t >> 5u;")
    c:line("int ring_k = int(t & 31u);")
    c:line("int ring_x = side < 2u ? ring_k : (side == 2u ? -1 : %d);", B)
    c:line("int ring_y = side < 2u ? (side == 0u ? -1 : %d) : ring_k;", B)
    c:line("%s d[4];", ctx.precise("$float4"))
    if batch == 4 then
        emit_batch(c, ctx, "0u", 4, nil)
    else
        c:block(string.format("for (uint batch = 0u; batch < %s; batch++)", u(4 // batch)), function()
            emit_batch(c, ctx, string.format("batch * %s", u(batch)), batch,
                string.format("batch == %s", u(4 // batch - 1)))
        end)
    end
    c:line(ctx.dialect.barrier())
    c:blank()
    c:comment("Phase 2: widen each block by how far its 4 neighbours' minimum lies below its own " ..
        "and their maximum above (FidelityFX's guard against burn-in); blocks outside the image " ..
        "count as 0.")
    c:line("$float4 zero = $float4(0.0f, 0.0f, 0.0f, 0.0f);")
    c:block("for (uint q = 0u; q < 4u; q++)", function()
        c:line("uint bx = 2u * p.x + (q & 1u);")
        c:line("uint by = 2u * p.y + (q >> 1u);")
        c:line("uint s = (by + 1u) * %s + bx + 1u;", u(S))
        c:line("float nmin = min(min(min(lds_min[s - %s], lds_min[s - 1u]), lds_min[s + %s]),",
            u(S), u(S))
        c:line("    lds_min[s + 1u]);")
        c:line("float nmax = max(max(max(lds_max[s - %s], lds_max[s - 1u]), lds_max[s + %s]),",
            u(S), u(S))
        c:line("    lds_max[s + 1u]);")
        c:line("float dmin = max(0.0f, lds_min[s] - nmin);")
        c:line("float dmax = max(0.0f, nmax - lds_max[s]);")
        c:line("%s w = (d[q] + dmin) + dmax;", ctx.precise("$float4"))
        c:line("bool inside = region_x + int(2u * bx) <= last_x;")
        c:line("inside = inside && region_y + int(2u * by) <= last_y;")
        c:line("d[q] = inside ? max(zero, w) : zero;")
    end)
end

-- v = the maximum of four values, on two lines where one is too long.
local function max4(c, a, b, c2, d)
    local line = string.format("v = max(max(%s, %s), max(%s, %s));", a, b, c2, d)
    if 4 * c.depth + #line <= 100 then return c:line(line) end
    c:line("v = max(max(%s, %s),", a, b)
    c:line("    max(%s, %s));", c2, d)
end

-- Phase 3: the maximum over the texel's blocks: the invocation's own 2x2 in registers,
-- then the planner's exchange steps. Returns the holders' spacing and count after it.
local function emit_reduce(c, ctx)
    local D = ctx.dialect
    c:comment("Phase 3: the maximum of each of d.x, d.y, d.z over the texel's blocks: this " ..
        "invocation's four, then " .. ctx.strategy .. ".")
    c:line("$float4 v = max(max(d[0], d[1]), max(d[2], d[3]));")
    local spacing, count = 1, content.SHAPE.wg
    for _, s in ipairs(ctx.steps) do
        if s.kind == "shared" then
            local array = s.buffer == 0 and "lds_a" or "lds_b"
            local cond = tile.holder_condition(content.SHAPE, s.spacing, s.count)
            local write = string.format("%s[%s] = v;", array, tile.texel_index(s.spacing))
            c:line(cond and ("if (" .. cond .. ") " .. write) or write)
            c:line(D.barrier())
            c:block(string.format("if (t < %s)", u(s.count // 4)), function()
                max4(c, string.format("%s[4u * t]", array), string.format("%s[4u * t + 1u]", array),
                    string.format("%s[4u * t + 2u]", array), string.format("%s[4u * t + 3u]", array))
            end)
            spacing, count = 1, s.count // 4
        elseif s.kind == "quad" then
            max4(c, D.quad_broadcast("v", 0, "float4"), D.quad_broadcast("v", 1, "float4"),
                D.quad_broadcast("v", 2, "float4"), D.quad_broadcast("v", 3, "float4"))
            spacing, count = 4 * s.spacing, s.count // 4
        else
            local lane = "block_lane" .. s.level
            c:line("uint %s = lane & ~%s;", lane, u(4 * s.spacing - 1))
            local l = {}
            for i = 0, 3 do
                l[i + 1] = D.shuffle("v", lane .. (i == 0 and "" or (" + " .. u(i * s.spacing))), "float4")
            end
            max4(c, l[1], l[2], l[3], l[4])
            spacing, count = 4 * s.spacing, s.count // 4
        end
    end
    return spacing, count
end

-- The region's part of the content rate: phases 1-3; returns the holders as the caller
-- needs them: the condition (or nil for every invocation) and the texel index expression.
function content.emit_region(c, ctx)
    emit_blocks(c, ctx)
    c:blank()
    local spacing, count = emit_reduce(c, ctx)
    return tile.holder_condition(content.SHAPE, spacing, count), tile.texel_index(spacing)
end

-- The helper the phases call: Morton decoding of an invocation or texel index.
function content.emit_morton(c)
    local what, lines = tile.morton_lines(content.SHAPE)
    c:comment(what)
    c:block("$uint2 dmap_morton_xy(uint i)", function()
        for _, line in ipairs(lines) do c:line(line) end
        c:line("return $uint2(x, y);")
    end)
end

-- What the strategy comment says of the exchanges.
function content.describe(steps)
    if #steps == 0 then return "no exchange (a texel is one invocation's blocks)" end
    local parts = {}
    for _, s in ipairs(steps) do
        local how = s.kind == "shared" and "shared memory" or s.kind == "quad" and "quad broadcasts"
            or "subgroup shuffles"
        parts[#parts + 1] = string.format("level %d by %s", s.level, how)
    end
    return table.concat(parts, ", ")
end

-- Shared memory: the exchange arrays the steps use, then the blocks' minima and maxima.
function content.shared(steps)
    local out = {}
    for _, a in ipairs(tile.shared_arrays(steps, {})) do
        out[#out + 1] = { type = "float4", name = a.name, count = a.count }
    end
    out[#out + 1] = { type = "float", name = "lds_min", count = content.SIDE * content.SIDE }
    out[#out + 1] = { type = "float", name = "lds_max", count = content.SIDE * content.SIDE }
    return out
end

return content
