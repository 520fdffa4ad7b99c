-- spd_hierarchy.lua: how a chain continues past the tiles with --tail hierarchy (the only
-- tail when --tile T < 64, a choice at 64), in the same dispatch: a hierarchy of counters.
--
-- Stage 0 is the tiles: every workgroup reduces its T x T tile by M = log2(T) levels. Stage s
-- reduces blocks of T x T results of stage s-1 (level s*M -> (s+1)*M) with the same pass
-- code. Each stage-(s-1) unit publishes its result in the hand-off buffer, then increments
-- its block's counter (release fence -> atomic -> acquire fence, as the 64x64 tail does);
-- the last to arrive in a block runs that block's stage s. A loop over regions in the last
-- workgroup (the 64x64 shape) would leave a workgroup of 1..16 invocations with up to
-- 8192x8192 texels to reduce at 16384x16384; the hierarchy keeps every stage's work spread
-- over as many workgroups as it has blocks.
--
-- Units per axis of stage s (s >= 0) are grid_{s+1} = ceil(size / T^(s+1)); per slice the
-- hand-off buffer holds stage 0's results, then stage 1's, ..., and the counter buffer one
-- counter per unit of stage 1, then of stage 2, ... (runtime/levels.c and the C header
-- compute the same sizes).
local tile = require("templates.lib.tile")
local u = tile.u

local hierarchy = {}

-- Stages the shader has: enough for --mips levels, M per stage.
function hierarchy.stages(ctx)
    local m = ctx.shape.levels
    return (ctx.cfg.mips + m - 1) // m
end

-- "a.x * a.y + b.x * b.y" over grid_first..grid_last.
local function units(first, last)
    local terms = {}
    for k = first, last do terms[#terms + 1] = string.format("grid%d.x * grid%d.y", k, k) end
    return table.concat(terms, " + ")
end

-- The grids and buffer offsets every hand-off uses; emitted before the tile loop, which
-- publishes each tile's result.
function hierarchy.emit_layout(c, ctx)
    local m, cfg = ctx.shape.levels, ctx.cfg
    local stages = hierarchy.stages(ctx)
    c:comment("Units per axis of each stage: stage s has grid{s+1} (tiles, then blocks of " ..
        string.format("%dx%d tiles, ...). Per slice the hand-off buffer holds each stage's ", ctx.shape.tile,
            ctx.shape.tile) .. "results in turn, the counter buffer one counter per unit of stages 1, 2, ...")
    for k = 1, stages do
        local span = (1 << (k * m)) - 1
        c:line("$uint2 grid%d = (src_size + $uint2(%s, %s)) >> %s;", k, u(span), u(span), u(k * m))
    end
    c:line("uint results0 = %s;", cfg.array and string.format("slice * (%s)", units(1, stages - 1)) or "0u")
    for s = 1, stages - 2 do
        c:line("uint results%d = results%d + grid%d.x * grid%d.y;", s, s - 1, s, s)
    end
    c:line("uint counters1 = %s;", cfg.array and string.format("slice * (%s)", units(2, stages)) or "0u")
    for s = 2, stages - 1 do
        c:line("uint counters%d = counters%d + grid%d.x * grid%d.y;", s, s - 1, s, s)
    end
end

-- The election every hand-off runs: invocation 0 publishes this unit's value (e.publish,
-- optional), release fence, counts itself (or e.count units) in e.counter; only the unit that arrives last of e.arrivals
-- goes on, after an acquire fence, and resets the counter for the next dispatch.
function hierarchy.elect(c, ctx, e)
    local D = ctx.dialect
    c:block("if (t == 0u)", function()
        if e.publish then c:line(e.publish) end
        c:comment(e.release)
        c:line(D.device_fence())
        c:line("uint arrived;")
        if e.count then
            c:line(D.atomic_add("arrived", e.counter, e.count))
            c:line("lds_is_last = arrived + %s == %s ? 1u : 0u;", e.count, e.arrivals)
        else
            c:line(D.atomic_add("arrived", e.counter, "1u"))
            c:line("lds_is_last = arrived == %s - 1u ? 1u : 0u;", e.arrivals)
        end
    end)
    c:line(D.barrier())
    c:line("if (%s == 0u) return;", D.uniform_read("lds_is_last"))
    c:comment(e.acquire)
    c:line(D.device_fence())
    c:comment(e.reset)
    c:line("if (t == 0u) %s", D.atomic_store(e.counter, "0u"))
end

-- Hand-off into stage s: publish this unit's result, count arrivals in its block, and let
-- only the block's last unit go on. Into stage 1 the units are the workgroup's tiles, each
-- published in the tile loop, counted together.
local function emit_handoff(c, ctx, s)
    local D, m, t = ctx.dialect, ctx.shape.levels, ctx.shape.tile
    c:block("", function()
        c:line("$uint2 block = unit >> %s;", u(m))
        c:line("$uint2 members = min(grid%d - (block << %s), $uint2(%s, %s));", s, u(m), u(t), u(t))
        c:line("uint counter = counters%d + block.y * grid%d.x + block.x;", s, s + 1)
        if s > 1 then
            c:comment("Invocations may still be reading lds_is_last from the previous hand-off.")
            c:line(D.barrier())
        end
        hierarchy.elect(c, ctx, {
            publish = s > 1 and string.format("handoff[results%d + unit.y * grid%d.x + unit.x] = v;", s - 1, s)
                or nil,
            count = s == 1 and "tile_end - tile_first" or nil,
            release = string.format("Release: make %s visible device-wide before the counter " ..
                "announces %s (FidelityFX SPD issue #13).", s == 1
                    and string.format("this workgroup's level-%d texels", m)
                    or string.format("this level-%d texel", s * m), s == 1 and "them" or "it"),
            counter = "counters[counter]", arrivals = "members.x * members.y",
            acquire = "Acquire: order this block's reads after the counter, which every other unit " ..
                "of the block incremented after its release.",
            reset = "Reset the counter for the next dispatch; nothing else touches it in this one.",
        })
        c:line("unit = block;")
    end)
end

-- Why this tail: below 64 it is the only one; at 64 it was chosen over the loop (--tail).
local function why(ctx)
    local t, wg = ctx.shape.tile, ctx.shape.wg
    if t < 64 then
        return string.format("A loop in one last workgroup was not chosen: with %d invocations it " ..
            "would reduce up to (16384/%d)^2 texels alone.", wg, t)
    end
    return "--tail hierarchy instead of the 64x64 shape's loop, in which the last workgroup " ..
        "reduces up to 4x4 regions of level 6 one after another: the hierarchy reduces them in " ..
        "parallel, faster for large sources (with one region the extra stage only costs)."
end

-- Phases 2 and 3 of --tail hierarchy: emit_pass is spd.lua's pass emitter.
function hierarchy.emit(c, ctx, emit_pass)
    local m, t, cfg = ctx.shape.levels, ctx.shape.tile, ctx.cfg
    local stages = hierarchy.stages(ctx)
    c:blank()
    c:comment(string.format("Phase 2: a hierarchy of counters finishes the chain in this dispatch. " ..
        "Stage s reduces a block of %dx%d results of stage s-1 (level %d*s -> %d*(s+1)) with the " ..
        "same code as phase 1, run by the last unit of the block to finish; each block has a " ..
        "counter per slice. ", t, t, m, m) .. why(ctx))
    c:line("if (mip_count < %s) return;", u(m + 1))
    c:comment(string.format("This workgroup's tiles lie in one %dx%d block of stage 1 (the runtime " ..
        "keeps tiles_per_workgroup a power of two up to %d): the first stands for them all.", t, t, t))
    c:line("$uint2 unit = $uint2(tile_first, tile_row);")
    for s = 1, stages - 1 do
        c:blank()
        if s > 1 then c:line("if (mip_count < %s) return;", u(s * m + 1)) end
        c:comment(string.format("Hand-off to stage %d: only the last unit of each %dx%d block continues.",
            s, t, t))
        emit_handoff(c, ctx, s)
        local last = math.min((s + 1) * m, cfg.mips)
        c:comment(string.format("Stage %d: this block's level-%d texels (from the hand-off buffer) -> %s.",
            s, s * m, last == s * m + 1 and string.format("level %d", last)
                or string.format("levels %d..%d", s * m + 1, last)))
        c:block("", function()
            emit_pass(c, ctx, {
                base = s * m, size = string.format("max($uint2(1u, 1u), src_size >> %s)", u(s * m)), unit = "unit",
                origin = function(n) return n == 1 and "unit + " or string.format("unit * %s + ", u(n)) end,
                load = function(x, y)
                    return string.format("handoff[results%d + %s * grid%d.x + %s]", s - 1, y, s, x)
                end,
            })
        end)
    end
end

-- Contract text: the buffers' sizes per stage.
function hierarchy.buffer_docs(ctx, value_bytes)
    local t = ctx.shape.tile
    return "uint per slice per block of each stage s >= 1 (sum over s = 1.." .. (hierarchy.stages(ctx) - 1) ..
            " of ceil(w/T^(s+1)) x ceil(h/T^(s+1)), T = " .. t .. "), zero before the first dispatch; " ..
            "the shader resets each",
        string.format("%d bytes per result of stages 0..%d per slice (sum over s of ceil(w/T^(s+1)) " ..
            "x ceil(h/T^(s+1)), T = %d): the hand-off between stages", value_bytes,
            hierarchy.stages(ctx) - 2, t)
end

return hierarchy
