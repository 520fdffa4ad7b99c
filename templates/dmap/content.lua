-- content.lua: content-adaptive rates after AMD FidelityFX Variable Shading, as code for
-- templates/dmap/kernel.lua. A workgroup of 256 invocations covers a 64x64-pixel region:
-- 32x32 blocks of 2x2 pixels, each invocation 2x2 blocks at Morton position t, so the
-- tile reduction is templates/lib/tile.lua's plan (registers, then subgroup shuffles,
-- quad broadcasts or shared memory per level). How the region's pixels are loaded is the
-- one choice left to the device: --batch (how many blocks' loads go out before any is used)
-- and --fetch (an invocation's own blocks, adjacent pixels of a row per subgroup through
-- shared memory, or a pixel column per invocation traded in halves with its neighbour by
-- shuffles); the map is the same bit for bit either way.
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

-- The planner's steps for the levels a texel needs. Two shared-memory steps in a row become
-- one: every holder of the first writes its value, one barrier, and each holder of the second
-- folds 16 entries (fold 16) instead of 4 twice with a barrier each; the ping-pong buffers
-- are reassigned over the merged steps.
function content.steps(T, subgroup)
    local steps = {}
    for _, s in ipairs(tile.plan_steps(content.SHAPE, subgroup)) do
        if s.level <= content.levels(T) then
            local prev = steps[#steps]
            if s.kind == "shared" and prev and prev.kind == "shared" and prev.fold == 4 then
                prev.fold, prev.last = 16, s.level
            else
                local step = {}
                for k, v in pairs(s) do step[k] = v end
                step.fold = 4
                steps[#steps + 1] = step
            end
        end
    end
    local shared = 0
    for _, s in ipairs(steps) do
        if s.kind == "shared" then s.buffer, shared = shared % 2, shared + 1 end
    end
    return steps
end

-- Own block q's position in blocks (x, y), q a number or an expression. --fetch blocks and
-- rows: the 2x2 blocks at 2 * p (p = morton(t)); --fetch strips and columns: a column of 4
-- blocks at o.
local function own_block(ctx, q)
    if ctx.cfg.fetch == "strips" or ctx.cfg.fetch == "columns" then
        return "o.x", string.format("o.y + %s", type(q) == "number" and u(q) or q)
    end
    if type(q) == "number" then
        return string.format("2u * p.x + %s", u(q % 2)), string.format("2u * p.y + %s", u(q // 2))
    end
    return string.format("2u * p.x + (%s & 1u)", q), string.format("2u * p.y + (%s >> 1u)", q)
end

-- The pixel (px, py) of the batch's load k. --fetch blocks: pixel k % 4 (x fastest) of block
-- k / 4, whose position in blocks is (block_x[k / 4], block_y[k / 4]). --fetch rows: for
-- k < 4n, column t % 64 of the region, row t / 64 + 4 (row0 + k); then the ring block's pixels.
local function emit_pixel(c, rows, n, row0)
    if not rows then
        c:line("int px = region_x + 2 * block_x[k >> 2u] + int(k & 1u);")
        c:line("int py = region_y + 2 * block_y[k >> 2u] + int((k >> 1u) & 1u);")
        return
    end
    local row = row0 == "0u" and "k" or string.format("%s + k", row0)
    c:line("int px = k < %s ? region_x + int(t & 63u) : region_x + 2 * ring_x + int(k & 1u);", u(4 * n))
    c:line("int py = k < %s ? region_y + int(t >> 6u) + 4 * int(%s)", u(4 * n), row)
    c:line("    : region_y + 2 * ring_y + int((k >> 1u) & 1u);")
end

-- The motion vectors of `count` pixels into array `mv`: pixel() declares load k's (px, py).
-- Where `guard` (an expression of k) is given, only those loads go out and the rest stay zero.
-- Reads clamp to the image.
local function emit_motion_loads(c, ctx, mv, count, guard, pixel)
    c:line("$float2 %s[%d];", mv, count)
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u(count)), function()
        local load = function()
            pixel()
            c:line("uint mx = uint(clamp(px, 0, last_x));")
            c:line("uint my = uint(clamp(py, 0, last_y));")
            c:line("%s[k] = %s;", mv, ctx.dialect.image_load(ctx.motion, "mx", "my", ctx.layer, 2))
        end
        if not guard then return load() end
        c:line("%s[k] = $float2(0.0f, 0.0f);", mv)
        c:block(string.format("if (%s)", guard), load)
    end)
end

-- The luminance 0.30 R + 0.59 G + 0.11 B (exact: `precise`) each of those pixels came from,
-- into array `l`: the motion vector rounds as floor(v + 0.5), the read clamps to the image.
local function emit_luminance_loads(c, ctx, mv, l, count, guard, pixel)
    local P = ctx.precise
    c:line("%s %s[%d];", P("float"), l, count)
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u(count)), function()
        local load = function()
            pixel()
            c:line("int sx = clamp(px - int(floor(%s[k].x + 0.5f)), 0, last_x);", mv)
            c:line("int sy = clamp(py - int(floor(%s[k].y + 0.5f)), 0, last_y);", mv)
            c:line("$float4 rgb = %s;", ctx.dialect.image_load(ctx.colour, "uint(sx)", "uint(sy)", ctx.layer, 4))
            c:line("%s lr = rgb.x * 0.30f;", P("float"))
            c:line("%s lg = rgb.y * 0.59f;", P("float"))
            c:line("%s lb = rgb.z * 0.11f;", P("float"))
            c:line("%s[k] = (lr + lg) + lb;", l)
        end
        if not guard then return load() end
        c:line("%s[k] = 0.0f;", l)
        c:block(string.format("if (%s)", guard), load)
    end)
end

-- A block's minimum lo, motion-lowered maximum and differences from l[i..i + 3] and its
-- motion term m (declared by the caller): d[`q`], own_lo[`q`] and own_hi[`q`] where q is
-- given (phase 2 reads an invocation's own blocks from registers), then the min/max arrays
-- at `slot`. The luminance array is `l` unless `lum` names another.
local function emit_block_values(c, ctx, q, slot, lum)
    local P = ctx.precise
    local L = function(s) return lum and (s:gsub("l%[", lum .. "[")) or s end
    c:line(L("%s lo = min(min(min(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);"), P("float"))
    c:line(L("%s hi = max(max(max(l[i], l[i + 1u]), l[i + 2u]), l[i + 3u]);"), P("float"))
    local own = function()
        c:line(L("d[%s] = $float4(max(abs(l[i] - l[i + 1u]), abs(l[i + 2u] - l[i + 3u])) - m,"), q.index)
        c:line(L("    max(abs(l[i] - l[i + 2u]), abs(l[i + 1u] - l[i + 3u])) - m,"))
        c:line("    (hi - lo) - m, 0.0f);")
        c:line("own_lo[%s] = lo;", q.index)
        c:line("own_hi[%s] = hi - m;", q.index)
    end
    if q.when then c:block(string.format("if (%s)", q.when), own) elseif q.index then own() end
    c:line("uint slot = %s;", slot)
    c:line("lds_min[slot] = lo;")
    c:line("lds_max[slot] = hi - m;")
end

-- One batch: `n` blocks' worth of the invocation's pixels (--fetch blocks: its own blocks
-- q = first + j, `first` an expression; --fetch rows: 4n rows of its column) and, where `last`
-- (an expression) holds and t < 128, the ring block as j = n. Every motion vector of the
-- batch is requested before the first is used, then every colour, so up to 4 x (n + 1) loads
-- per invocation are in flight at once. Then --fetch blocks: each block's differences d and
-- its minimum and motion-lowered maximum in the min/max arrays; --fetch rows: each pixel's
-- luminance in lds_lum, a block's motion term (from its first pixel) in lds_max, the ring
-- block's values in the min/max arrays.
local function emit_batch(c, ctx, first, n, last, row0)
    local D, P, B = ctx.dialect, ctx.precise, content.BLOCKS
    local rows = ctx.cfg.fetch == "rows"
    local slots, loads = n + 1, 4 * (n + 1)
    local ring = string.format("t < %s", u(4 * B))
    local plus = function(e) return first == "0u" and e or string.format("%s + %s", first, e) end
    c:comment(string.format("Blocks j < %d are the invocation's own, j = %d the ring block where `ring` " ..
        "holds: every condition below is a constant but `ring`, once the loops unroll.", n, n))
    c:line("bool ring = %s;", last and (last .. " && " .. ring) or ring)
    if not rows then
        c:line("int block_x[%d];", slots)
        c:line("int block_y[%d];", slots)
        c:block(string.format("for (uint j = 0u; j < %s; j++)", u(n)), function()
            c:line("uint q = %s;", plus("j"))
            local x, y = own_block(ctx, "q")
            c:line("block_x[j] = int(%s);", x)
            c:line("block_y[j] = int(%s);", y)
        end)
        c:line("block_x[%d] = ring_x;", n)
        c:line("block_y[%d] = ring_y;", n)
    end
    c:comment(rows and string.format("Motion vectors of the batch's pixels (loads 0..%d: the " ..
        "column's rows, then the ring block's, x fastest); reads clamp to the image.", 4 * n - 1)
        or "Motion vectors of the batch's pixels (load k: block k / 4, pixel k % 4, x fastest); " ..
        "reads clamp to the image.")
    local pixel = function() emit_pixel(c, rows, n, row0) end
    local guard = string.format("k < %s || ring", u(4 * n))
    emit_motion_loads(c, ctx, "mv", loads, guard, pixel)
    c:comment("The luminance each pixel came from: the motion vector rounds as floor(v + 0.5), " ..
        "the read clamps to the image.")
    emit_luminance_loads(c, ctx, "mv", "l", loads, guard, pixel)
    if not rows then
        c:comment("Each block: its differences less the motion term of its first pixel (own " ..
            "blocks), its minimum and motion-lowered maximum for phase 2.")
        c:block(string.format("for (uint j = 0u; j < %s; j++)", u(slots)), function()
            c:block(string.format("if (j < %s || ring)", u(n)), function()
                c:line("uint i = 4u * j;")
                c:line("%s m = params.motion_factor * max(abs(mv[i].x), abs(mv[i].y));", P("float"))
                emit_block_values(c, ctx, { index = plus("j"), when = string.format("j < %s", u(n)) },
                    string.format("uint(block_y[j] + 1) * %s + uint(block_x[j] + 1)", u(content.SIDE)))
            end)
        end)
        return
    end
    c:comment("Each pixel's luminance to shared memory; a block's first pixel (even column, even " ..
        "row) leaves the block's motion term where phase 1b finds it, in lds_max.")
    c:block(string.format("for (uint k = 0u; k < %s; k++)", u(4 * n)), function()
        c:line("uint row = (t >> 6u) + 4u * %s;", row0 == "0u" and "k" or string.format("(%s + k)", row0))
        c:line("lds_lum[row * %s + (t & 63u)] = l[k];", u(content.REGION))
        c:block("if (((t | (t >> 6u)) & 1u) == 0u)", function()
            c:line("%s m = params.motion_factor * max(abs(mv[k].x), abs(mv[k].y));", P("float"))
            c:line("lds_max[(row / 2u + 1u) * %s + (t & 63u) / 2u + 1u] = m;", u(content.SIDE))
        end)
    end)
    c:comment("The ring block: its minimum and motion-lowered maximum for phase 2.")
    c:block("if (ring)", function()
        c:line("uint i = %s;", u(4 * n))
        c:line("%s m = params.motion_factor * max(abs(mv[i].x), abs(mv[i].y));", P("float"))
        emit_block_values(c, ctx, {}, string.format("uint(ring_y + 1) * %s + uint(ring_x + 1)",
            u(content.SIDE)))
    end)
end

-- --ring last: the ring block (t < 128) as a batch of its own after the invocation's blocks,
-- so the loads held at once are the blocks' 16, not 20 (fewer registers).
local function emit_ring_batch(c, ctx)
    local D, P, B = ctx.dialect, ctx.precise, content.BLOCKS
    c:comment(string.format("--ring last: the ring block's loads (t < %d) go out only now, as a " ..
        "batch of their own: fewer loads held at once, one more latency for those invocations.", 4 * B))
    c:block(string.format("if (t < %s)", u(4 * B)), function()
        local pixel = function()
            c:line("int px = region_x + 2 * ring_x + int(k & 1u);")
            c:line("int py = region_y + 2 * ring_y + int((k >> 1u) & 1u);")
        end
        emit_motion_loads(c, ctx, "ring_mv", 4, nil, pixel)
        emit_luminance_loads(c, ctx, "ring_mv", "ring_l", 4, nil, pixel)
        c:line("uint i = 0u;")
        c:line("%s m = params.motion_factor * max(abs(ring_mv[0].x), abs(ring_mv[0].y));", P("float"))
        emit_block_values(c, ctx, {}, string.format("uint(ring_y + 1) * %s + uint(ring_x + 1)",
            u(content.SIDE)), "ring_l")
    end)
end

-- --fetch columns, phase 1: invocation t reads one pixel column, 16 rows: x = 2 o.x + h (h =
-- t & 1), the rows of blocks o.y - 4 h .. o.y - 4 h + 7, so the lanes of one load instruction
-- read adjacent pixels of a row. Then it trades half with its neighbour t ^ 1, which reads
-- the column beside it, by subgroup shuffles (no barrier): each keeps its own column of its
-- 4 blocks' rows (8 h .. 8 h + 7) and takes the neighbour's, and the odd one takes the even
-- one's motion terms (a block's first pixel is in the even column).
local function emit_columns(c, ctx)
    local D, P, B = ctx.dialect, ctx.precise, content.BLOCKS
    local N = content.SHAPE.wg
    c:comment(string.format("Blocks j < 4 are the invocation's own, j = 4 the ring block where `ring` " ..
        "holds (t < %d).", 4 * B))
    c:line("bool ring = t < %s;", u(4 * B))
    c:line("uint h = t & 1u;")
    c:line("int column = region_x + 2 * int(o.x) + int(h);")
    c:line("int row0 = region_y + 2 * (int(o.y) - 4 * int(h));")
    local pixel = function()
        c:line("int px = k < 16u ? column : region_x + 2 * ring_x + int(k & 1u);")
        c:line("int py = k < 16u ? row0 + int(k) : region_y + 2 * ring_y + int((k >> 1u) & 1u);")
    end
    c:comment("Motion vectors: rows 0..15 of the column, then the ring block's 4 pixels (x fastest); " ..
        "reads clamp to the image.")
    emit_motion_loads(c, ctx, "mv", 20, "k < 16u || ring", pixel)
    c:comment("The luminance each pixel came from: the motion vector rounds as floor(v + 0.5), " ..
        "the read clamps to the image.")
    emit_luminance_loads(c, ctx, "mv", "l", 20, "k < 16u || ring", pixel)
    c:comment("Trade halves with t ^ 1, the neighbouring lane, by shuffles: the rows the neighbour " ..
        "keeps (the odd one's first 8, the even one's last 8), and the even one's motion terms of " ..
        "rows 8, 10, 12, 14.")
    c:line("float their[8];")
    c:block("for (uint i = 0u; i < 8u; i++)", function()
        c:line("float give = h == 1u ? l[i] : l[8u + i];")
        c:line("their[i] = %s;", D.shuffle_xor("give", 1, "float"))
    end)
    c:line("float their_m[4];")
    c:block("for (uint j = 0u; j < 4u; j++)", function()
        c:line("uint k = 8u + 2u * j;")
        c:line("%s give = params.motion_factor * max(abs(mv[k].x), abs(mv[k].y));", P("float"))
        c:line("their_m[j] = %s;", D.shuffle_xor("give", 1, "float"))
    end)
    c:comment("Each own block from both columns (the even one first), its motion term from the even " ..
        "column's first pixel; then as --fetch blocks: the differences, the minimum and maximum.")
    c:block("for (uint j = 0u; j < 4u; j++)", function()
        c:comment("Rows 8 h + 2 j and the next: selected, not indexed by h, so l stays in registers.")
        c:line("float mine0 = h == 0u ? l[2u * j] : l[8u + 2u * j];")
        c:line("float mine1 = h == 0u ? l[2u * j + 1u] : l[8u + 2u * j + 1u];")
        c:line("float their0 = their[2u * j];")
        c:line("float their1 = their[2u * j + 1u];")
        c:line("%s bl[4];", P("float"))
        c:line("bl[0] = h == 0u ? mine0 : their0;")
        c:line("bl[1] = h == 0u ? their0 : mine0;")
        c:line("bl[2] = h == 0u ? mine1 : their1;")
        c:line("bl[3] = h == 0u ? their1 : mine1;")
        c:line("%s own_m = params.motion_factor * max(abs(mv[2u * j].x), abs(mv[2u * j].y));", P("float"))
        c:line("float m = h == 0u ? own_m : their_m[j];")
        c:line("uint i = 0u;")
        emit_block_values(c, ctx, { index = "j" }, string.format("(o.y + j + 1u) * %s + o.x + 1u",
            u(content.SIDE)), "bl")
    end)
    c:comment("The ring block: its minimum and motion-lowered maximum for phase 2.")
    c:block("if (ring)", function()
        c:line("uint i = 16u;")
        c:line("%s m = params.motion_factor * max(abs(mv[i].x), abs(mv[i].y));", P("float"))
        emit_block_values(c, ctx, {}, string.format("uint(ring_y + 1) * %s + uint(ring_x + 1)",
            u(content.SIDE)))
    end)
end

-- --fetch rows, phase 1b: the invocation's four blocks from the luminance in shared memory.
local function emit_blocks_from_shared(c, ctx)
    local P, R, S = ctx.precise, content.REGION, content.SIDE
    c:comment("Phase 1b: this invocation's four blocks from shared memory: their differences " ..
        "less the motion term of their first pixel, their minimum and motion-lowered maximum.")
    c:block("for (uint q = 0u; q < 4u; q++)", function()
        c:line("uint bx = 2u * p.x + (q & 1u);")
        c:line("uint by = 2u * p.y + (q >> 1u);")
        c:line("uint at = 2u * by * %s + 2u * bx;", u(R))
        c:line("%s l[4];", P("float"))
        c:line("l[0] = lds_lum[at];")
        c:line("l[1] = lds_lum[at + 1u];")
        c:line("l[2] = lds_lum[at + %s];", u(R))
        c:line("l[3] = lds_lum[at + %s];", u(R + 1))
        c:line("uint i = 0u;")
        c:line("uint s = (by + 1u) * %s + bx + 1u;", u(S))
        c:line("%s m = lds_max[s];", P("float"))
        emit_block_values(c, ctx, { index = "q" }, "s")
    end)
end

-- --fetch strips and columns: o, the first of the invocation's column of 4 blocks. G
-- invocations per texel, consecutive in t (the shared-memory maxima fold consecutive
-- entries); texels in Morton order. strips: the texel's half columns of blocks fastest, then
-- its two halves of rows. columns: its 2 x half pixel columns fastest (neighbours t and
-- t ^ 1 share a column of 8 blocks, h = t & 1 its upper or lower 4), then rows of 16 pixels.
local function emit_column_origin(c, ctx)
    local half = math.min(ctx.T, content.REGION) // 2
    local G = half * half // 4
    local columns = ctx.cfg.fetch == "columns"
    c:comment(columns and string.format("--fetch columns: invocation t holds the column of 4 blocks " ..
        "at o; the %d of a texel are consecutive in t, pixel columns fastest, so one load " ..
        "instruction's lanes read adjacent pixels of a row.", G) or string.format("--fetch strips: " ..
        "invocation t holds the column of 4 blocks at o: the %d of a texel are consecutive in t, " ..
        "columns fastest, so one load instruction's lanes read every other pixel of a row (with " ..
        "2x2 blocks, every fourth).", G))
    if G == 256 then
        c:line(columns and "$uint2 o = $uint2((t & 63u) >> 1u, 8u * (t >> 6u) + 4u * (t & 1u));" or
            "$uint2 o = $uint2(t & 31u, 4u * (t >> 5u));")
        return
    end
    c:line("$uint2 tp0 = dmap_morton_xy(t >> %s);", u(tile.log2(G)))
    c:line("uint w = t & %s;", u(G - 1))
    if columns then
        local cols = 2 * half
        local group = cols == G and "" or string.format(" + 8u * (w >> %s)", u(tile.log2(cols)))
        c:line("$uint2 o = $uint2(tp0.x * %s + ((w & %s) >> 1u), tp0.y * %s%s + 4u * (w & 1u));",
            u(half), u(cols - 1), u(half), group)
    else
        c:line("$uint2 o = $uint2(tp0.x * %s + (w & %s), 4u * (tp0.y * %s + (w >> %s)));", u(half),
            u(half - 1), u(half // 4), u(tile.log2(half)))
    end
end

-- Phases 1-3 for the region at (region_x, region_y): every block's d, widened by its
-- neighbours, in d[0..3] (0 for blocks outside the image).
local function emit_blocks(c, ctx)
    local B, S = content.BLOCKS, content.SIDE
    local batch = ctx.cfg.batch
    local rows = ctx.cfg.fetch == "rows"
    local batches = batch == 4 and "one batch" or string.format("%d batches, the ring block in the last",
        4 // batch)
    local columns = ctx.cfg.fetch == "columns"
    if columns then
        c:comment(string.format("Phase 1: the 2x2-pixel blocks: this invocation's four in a column at " ..
            "o (q = 0..3), read as one pixel column of 16 rows and traded in halves with the " ..
            "neighbour (--fetch columns), and for t < %d one of the ring of blocks around the " ..
            "region's %dx%d, whose minimum and maximum phase 2 needs. All motion vectors go out " ..
            "before any is used, then all colours: a load's latency is paid once.", 4 * B, B, B))
    elseif rows then
        c:comment(string.format("Phase 1: the luminance of the region's pixels, to shared memory " ..
            "(--fetch rows): invocation t reads column t %% 64, rows t / 64 + 4 k, so a subgroup's " ..
            "lanes read adjacent pixels of a row; and for t < %d one of the ring of blocks around " ..
            "the region's %dx%d, whose minimum and maximum phase 2 needs. The loads go out in %s " ..
            "(--batch %d), all of a batch's motion vectors before any is used, then all its " ..
            "colours: a load's latency is paid once per batch, not once per pixel.", 4 * B, B, B,
            batches, batch))
    else
        c:comment(string.format("Phase 1: the 2x2-pixel blocks: this invocation's four %s " ..
            "(q = 0..3), and for t < %d one of the ring of blocks around the region's " ..
            "%dx%d, whose minimum and maximum phase 2 needs. The loads go out in %s (--batch %d), " ..
            "all of a batch's motion vectors before any is used, then all its colours: a load's " ..
            "latency is paid once per batch, not once per block.",
            ctx.cfg.fetch == "strips" and "in a column at o" or "at 2 * morton(t)", 4 * B, B, B,
            batches, batch))
    end
    if columns or ctx.cfg.fetch == "strips" then
        emit_column_origin(c, ctx)
    else
        c:line("$uint2 p = dmap_morton_xy(t);")
    end
    c:line("uint side = t >> 5u;")
    c:line("int ring_k = int(t & 31u);")
    c:line("int ring_x = side < 2u ? ring_k : (side == 2u ? -1 : %d);", B)
    c:line("int ring_y = side < 2u ? (side == 0u ? -1 : %d) : ring_k;", B)
    c:line("%s d[4];", ctx.precise("$float4"))
    c:line("float own_lo[4];")
    c:line("float own_hi[4];")
    local last = ctx.cfg.ring == "last"
    local fence = ctx.cfg.fence and (batch < 4 or last)
    local fence_line = function()
        c:comment("--fence: the next batch's loads wait here, so the compiler cannot issue them " ..
            "early and hold their registers.")
        c:line(ctx.dialect.barrier())
    end
    if columns then
        emit_columns(c, ctx)
    elseif batch == 4 then
        emit_batch(c, ctx, "0u", 4, last and "false" or nil, "0u")
    else
        c:block(string.format("for (uint batch = 0u; batch < %s; batch++)", u(4 // batch)), function()
            emit_batch(c, ctx, string.format("batch * %s", u(batch)), batch,
                last and "false" or string.format("batch == %s", u(4 // batch - 1)),
                string.format("batch * %s", u(4 * batch)))
            if fence then fence_line() end
        end)
    end
    if last then
        if fence and batch == 4 then fence_line() end
        emit_ring_batch(c, ctx)
    end
    -- Phase 2's barrier; with --fence and no ring batch after the loop, the loop's last one.
    if not (fence and batch < 4 and not last) then c:line(ctx.dialect.barrier()) end
    if rows then
        c:blank()
        emit_blocks_from_shared(c, ctx)
        c:line(ctx.dialect.barrier())
    end
    c:blank()
    c:comment("Phase 2: widen each block by how far its 4 neighbours' minimum lies below its own " ..
        "and their maximum above (FidelityFX's guard against burn-in); blocks outside the image " ..
        "count as 0. A neighbour among the invocation's own blocks comes from registers, the " ..
        string.format("others from shared memory: %d reads instead of 40.",
            (ctx.cfg.fetch == "strips" or columns) and 20 or 16))
    c:line("$float4 zero = $float4(0.0f, 0.0f, 0.0f, 0.0f);")
    -- Block q's neighbours up, left, down, right: the index of an own block, false for one
    -- in shared memory at that offset from the block's slot.
    local own = { [0] = { false, false, 2, 1 }, [1] = { false, 0, 3, false }, [2] = { 0, false, false, 3 },
        [3] = { 1, 2, false, false } }
    if ctx.cfg.fetch == "strips" or columns then
        own = { [0] = { false, false, 1, false }, [1] = { 0, false, 2, false }, [2] = { 1, false, 3, false },
            [3] = { 2, false, false, false } }
    end
    local offset = { " - " .. u(S), " - 1u", " + " .. u(S), " + 1u" }
    local arg = function(array, regs, q, k)
        if own[q][k] then return string.format("%s[%d]", regs, own[q][k]) end
        return string.format("%s[s%s]", array, offset[k])
    end
    for q = 0, 3 do
        c:block("", function()
            local x, y = own_block(ctx, q)
            c:line("uint bx = %s;", x)
            c:line("uint by = %s;", y)
            c:line("uint s = (by + 1u) * %s + bx + 1u;", u(S))
            c:line("float nmin = min(min(min(%s, %s), %s),", arg("lds_min", "own_lo", q, 1),
                arg("lds_min", "own_lo", q, 2), arg("lds_min", "own_lo", q, 3))
            c:line("    %s);", arg("lds_min", "own_lo", q, 4))
            c:line("float nmax = max(max(max(%s, %s), %s),", arg("lds_max", "own_hi", q, 1),
                arg("lds_max", "own_hi", q, 2), arg("lds_max", "own_hi", q, 3))
            c:line("    %s);", arg("lds_max", "own_hi", q, 4))
            c:line("float dmin = max(0.0f, own_lo[%d] - nmin);", q)
            c:line("float dmax = max(0.0f, nmax - own_hi[%d]);", q)
            c:line("%s w = (d[%d] + dmin) + dmax;", ctx.precise("$float4"), q)
            c:line("bool inside = region_x + int(2u * bx) <= last_x;")
            c:line("inside = inside && region_y + int(2u * by) <= last_y;")
            c:line("d[%d] = inside ? max(zero, w) : zero;", q)
        end)
    end
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
            local e = tile.texel_index(s.spacing)
            -- Fold 16 with several holders stores entry e at (e % 16) * 17 + e / 16, so the
            -- holders read consecutive entries at once (entries 16 apart would share banks).
            local spread = s.fold == 16 and s.count > 16
            if spread then e = string.format("(%s & 15u) * 17u + (%s >> 4u)", e, e) end
            local write = string.format("%s[%s] = v;", array, e)
            c:line(cond and ("if (" .. cond .. ") " .. write) or write)
            c:line(D.barrier())
            local at = function(i)
                if spread then return string.format("%s[%s + t]", array, u(17 * i)) end
                return string.format("%s[%s * t%s]", array, u(s.fold), i == 0 and "" or (" + " .. u(i)))
            end
            c:block(string.format("if (t < %s)", u(s.count // s.fold)), function()
                max4(c, at(0), at(1), at(2), at(3))
                if s.fold == 16 then
                    c:line("$float4 part = v;")
                    for i = 4, 12, 4 do
                        max4(c, at(i), at(i + 1), at(i + 2), at(i + 3))
                        c:line("part = max(part, v);")
                    end
                    c:line("v = part;")
                end
            end)
            spacing, count = 1, s.count // s.fold
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
        if s.last then how = how .. " in one pass" end
        parts[#parts + 1] = s.last and string.format("levels %d-%d by %s", s.level, s.last, how)
            or string.format("level %d by %s", s.level, how)
    end
    return table.concat(parts, ", ")
end

-- Shared memory: the exchange arrays the steps use, then the blocks' minima and maxima, and
-- with --fetch rows the region's luminance.
function content.shared(steps, fetch)
    local out = {}
    -- The exchange arrays, ping-pong, each sized for its largest step (fold 16 with several
    -- holders: 16 rows of 17, the last one short).
    local size = { [0] = 0, [1] = 0 }
    for _, s in ipairs(steps) do
        if s.kind == "shared" then
            local n = (s.fold == 16 and s.count > 16) and 15 * 17 + s.count // 16 or s.count
            size[s.buffer] = math.max(size[s.buffer], n)
        end
    end
    for b = 0, 1 do
        if size[b] > 0 then
            out[#out + 1] = { type = "float4", name = b == 0 and "lds_a" or "lds_b", count = size[b] }
        end
    end
    out[#out + 1] = { type = "float", name = "lds_min", count = content.SIDE * content.SIDE }
    out[#out + 1] = { type = "float", name = "lds_max", count = content.SIDE * content.SIDE }
    if fetch == "rows" then
        out[#out + 1] = { type = "float", name = "lds_lum", count = content.REGION * content.REGION }
    end
    return out
end

return content
