-- tiles.lua: where the values the column passes read and write live. A column pass runs C
-- neighbouring columns k1 of one channel per workgroup (columns.lua), so these buffers keep
-- neighbouring columns together, in tiles of T >= C columns (T = max(C, 8): gen/conv/conv.h),
-- tile g = k1 / T of a channel holding:
--   z, zk       pair after pair of lines: the T values Z[k1] of its columns, then their T
--               values Z[-k1] (the two a column pass unpacks a value from), 2T per pair;
--   y, spectrum line after line (y) or frequency after frequency along A2 (the exact kernel
--               spectrum): the tile's T values.
-- A column pass's workgroup then reads and writes rows of a few tiles, each row 64 bytes or
-- more, where rows of the spectrum put its C values of one line a whole line from the next
-- line's; the line passes write and read 64 bytes at a time. Measured: docs/conv.md, "Tiles".
local X = require("templates.fft.expr")
local log2 = require("templates.lib.emit").log2

local tiles = {}

local u = X.u

-- The tiling of buffer `name` (z, zk, y or the exact spectrum): its tile width T (c), tiles
-- per channel (g), rows per tile, values per row (2T for z and zk), and the length N of the
-- lines along A1 (the FFT that writes z or zk, or reads y).
function tiles.of(ctx, name)
    local s, st = ctx.sizes, ctx.strides
    if name == "zk" then
        return { c = s.tile_k, g = s.tiles_k, rows = st.zk_pairs, width = 2 * s.tile_k, n = s.q1 }
    elseif name == "z" then
        return { c = s.tile, g = s.tiles, rows = st.z_pairs, width = 2 * s.tile, n = s.p1 }
    elseif name == "y" then
        return { c = s.tile, g = s.tiles, rows = s.e2, width = s.tile, n = s.p1 }
    end
    return { c = s.tile, g = s.tiles, rows = s.p2, width = s.tile }
end

-- expr / t and expr mod t for a power of two t.
local function div(expr, t)
    return t == 1 and expr or string.format("(%s >> %du)", expr, log2(t))
end
local function mod(expr, t) return t == 1 and "0u" or string.format("(%s & %s)", expr, u(t - 1)) end

-- The line passes' slot function of z (pass 1) or zk (spectrum1): conv_z_slot(c, pair, f),
-- frequency f of channel c's pair spectrum (pure: Metal's helpers see no resources).
function tiles.emit_z_slot(c, ctx, name)
    local t = tiles.of(ctx, name)
    c:comment(string.format("Where %s holds frequency f of a pair's spectrum: in row `pair` of the tile of " ..
        "column k1, k1 / %d, as Z[k1] (the row's first %d values) for f <= %d, or above as Z[-k1] of k1 = %d - " ..
        "f (its next %d): the two a column pass unpacks together. %d pairs a tile, %d tiles a channel.", name,
        t.c, t.c, t.n // 2, t.n, t.c, t.rows, t.g))
    c:block("uint conv_z_slot(uint c, uint pair, uint f)", function()
        c:line("bool minus = f > %s;", u(t.n // 2))
        c:line("uint k1 = minus ? %s - f : f;", u(t.n))
        c:line("return ((c * %s + %s) * %s + pair) * %s + (minus ? %s : 0u) + %s;", u(t.g), div("k1", t.c),
            u(t.rows), u(t.width), u(t.c), mod("k1", t.c))
    end)
    c:blank()
end

-- pass3's slot function of y: conv_y_slot(c, l, k1), line l's half spectrum at k1.
function tiles.emit_y_slot(c, ctx)
    local t = tiles.of(ctx, "y")
    c:comment(string.format("Where line l's half spectrum at k1 lives in y: value k1 %% %d of line l in tile " ..
        "k1 / %d (%d lines a tile, %d tiles a channel).", t.c, t.c, t.rows, t.g))
    c:block("uint conv_y_slot(uint c, uint l, uint k1)", function()
        c:line("return ((c * %s + %s) * %s + l) * %s + %s;", u(t.g), div("k1", t.c), u(t.rows), u(t.c),
            mod("k1", t.c))
    end)
    c:blank()
end

-- A column pass's base in `name` (declared as `base`) of its invocation's column, from ch
-- and col (the workgroup's channel, the invocation's column): row r of the tile is at base +
-- r * width (for z and zk, + T for the Z[-k1] half). Returns the tiling.
function tiles.emit_column_base(c, ctx, name, base)
    local t = tiles.of(ctx, name)
    assert(t.c % ctx.columns == 0, "conv: a tile of " .. name .. " splits a workgroup's columns")
    c:note(string.format("uint %s = (ch * %s + %s) * %s + %s;", base, u(t.g), div("col", t.c),
        u(t.rows * t.width), mod("col", t.c)), "col in its tile of " .. name)
    return t
end

return tiles
