-- spd_edge.lua: --edge conservative and --edge weighted, the two ways spd.lua's passes treat
-- a level with an odd size (the default, drop, leaves the last odd row/column out and
-- emits nothing from here). The CPU reference (runtime/spd_ref.c, reduce_level) defines
-- both; runtime/spd_passes.h plans the dispatches weighted needs.
--
-- conservative (min, max, minmax; idempotent ops): where level k-1 has an odd width, the
-- last texel of level k also reduces column 2x+2, and likewise for rows, so the last texel
-- of a level covers every level-0 texel to the image's edge. That extra column often lies
-- in the next 64x64 tile, whose values this workgroup never sees, so each pass computes the
-- missing part from its readable source instead: for pass level j (j = 1..6 levels into the
-- pass) the last column's texel covers the source columns E_j = [w_j * 2^j, w - 1] beyond
-- what the 2x2 rule gives it (w: the pass's source width; w_j its level j). E_1 .. E_6 are
-- nested suffixes of the source rows, narrower than 64 texels, so one sweep per source row
-- of the region reduces all six strips (the same per column for the rows strips F_j). The
-- invocation holding a last-column (last-row) texel folds its strip into the value before it
-- is stored and before it is exchanged for the next level, so the fix propagates up the
-- chain by itself; min/max being idempotent, folding texels already included is harmless.
-- The corner texel takes E_j over its own rows and [x * 2^j, w - 1] over F_j, which is its
-- whole 3x3 extension. Only workgroups near the right or bottom edge of an image whose size
-- is not a multiple of 64 run the sweep (a branch uniform per workgroup).
--
-- weighted (mean): nvpro_pyramid's energy-conserving kernel. An odd input of 2n+1 texels
-- gives output i the inputs 2i, 2i+1, 2i+2 with weights (n-i, n, i+1) / (2n+1); even inputs
-- keep (1/2, 1/2), one-texel inputs are copied; separable. Every texel of an odd level
-- depends on its neighbour's texels, so only the first level of a pass (and of the tail's
-- region loop, levels base+7 and base+13), which reads its input directly, applies the
-- weights: it reads 5x5 texels instead of 4x4 when the input has an odd side. The runtime
-- starts a new dispatch wherever another level has an odd input (spd_pass_end).
local edge = {}

local TILE = 64
local STRIP_COLS = 2 * TILE -- a last row's texel may reach into the next tile's columns

-- The shared arrays the sweeps fill: per pass level, one entry per source row of the region
-- (E_j strips) and per source column of the region and the next one (F_j strips).
function edge.shared_arrays(cfg)
    if cfg.edge ~= "conservative" then return {} end
    local levels = math.min(6, cfg.mips)
    return { { name = "lds_edge_cols", count = levels * TILE },
             { name = "lds_edge_rows", count = levels * STRIP_COLS } }
end

-- Helpers at file scope.
function edge.emit_helpers(c, ctx)
    local cfg = ctx.cfg
    if cfg.edge == "conservative" then
        c:comment("Folds b into a (--edge conservative): min and max are idempotent, so the 2x2 " ..
            "reduction of (a, b, a, b) is the reduction of {a, b}.")
        c:block("$value spd_combine($value a, $value b)", function()
            c:line("return spd_reduce(a, b, a, b);")
        end)
        c:blank()
    elseif cfg.edge == "weighted" then
        c:comment("True where an input of this size needs the 3-tap weights: a side of 2n+1 >= 3 texels.")
        c:block("bool spd_odd_input($uint2 size)", function()
            c:line("return (size.x >= 3u && (size.x & 1u) == 1u) || (size.y >= 3u && (size.y & 1u) == 1u);")
        end)
        c:blank()
        c:comment("Weights of taps 2i, 2i+1, 2i+2 for output i of an input n texels long (x, y, z; w " ..
            "unused): nvpro_pyramid's (m-i, m, i+1) / n for odd n = 2m+1, each input then " ..
            "weighs m/n in total and the mean is kept; (1/2, 1/2, 0) for even n; a copy for n = 1. " ..
            "Taps past the edge are clamped and weigh 0 (inputs must be finite).")
        c:block("$float4 spd_tap_weights(uint i, uint n)", function()
            c:line("if (n == 1u) return $float4(1.0f, 0.0f, 0.0f, 0.0f);")
            c:line("if ((n & 1u) == 0u) return $float4(0.5f, 0.5f, 0.0f, 0.0f);")
            c:line("float m = float(n >> 1u);")
            c:line("float size = float(n);")
            c:line("return $float4((m - float(i)) / size, m / size, float(i + 1u) / size, 0.0f);")
        end)
        c:blank()
        c:comment("One output of the separable 3-tap kernel: each row (a * w0 + b * w1) + c * w2, " ..
            "then the three rows with the y weights, in the CPU reference's order.")
        c:block("$value spd_weighted_row($value a, $value b, $value c, $float4 w)", function()
            c:line("return (a * w.x + b * w.y) + c * w.z;")
        end)
        c:blank()
    end
end

-- Emits the q00..q11 computation of a pass's first level for --edge weighted: with an odd
-- input side, the 5x5 texels from `corner` weighted per output; otherwise `plain(prefix)`,
-- the 2x2 rule, assigning the already declared q's.
function edge.emit_first_level(c, ctx, load, plain)
    c:line("$value q00, q10, q01, q11;")
    c:line("if (spd_odd_input(size_in)) {")
    c.depth = c.depth + 1
    c:comment("--edge weighted, odd input: level-1 texels 2p and 2p+1 (per axis) take input " ..
        "texels 4p .. 4p+4, so read one more row and column (clamped to the edge).")
    c:line("uint x4 = min(corner.x + 4u, edge.x);")
    c:line("uint y4 = min(corner.y + 4u, edge.y);")
    for i = 0, 1 do
        c:line("$float4 wx%d = spd_tap_weights((corner.x >> 1u) + %du, size_in.x);", i, i)
    end
    for i = 0, 1 do
        c:line("$float4 wy%d = spd_tap_weights((corner.y >> 1u) + %du, size_in.y);", i, i)
    end
    for y = 0, 4 do
        for x = 0, 4 do
            c:line("$value s%d%d = %s;", x, y, load("x" .. x, "y" .. y))
        end
    end
    for _, q in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        local rows = {}
        for r = 0, 2 do
            local y = 2 * q[2] + r
            rows[#rows + 1] = string.format("spd_weighted_row(s%d%d, s%d%d, s%d%d, wx%d)",
                2 * q[1], y, 2 * q[1] + 1, y, 2 * q[1] + 2, y, q[1])
        end
        c:line("q%d%d = spd_weighted_row(%s,", q[1], q[2], rows[1])
        c:line("                       %s,", rows[2])
        c:line("                       %s, wy%d);", rows[3], q[2])
    end
    c.depth = c.depth - 1
    c:line("} else {")
    c.depth = c.depth + 1
    plain("")
    c.depth = c.depth - 1
    c:line("}")
end

-- --edge conservative, at the start of a pass: declares the region's strip state and, in
-- workgroups near the right/bottom edge, sweeps the source into lds_edge_cols/rows.
-- pass.origin(TILE) gives the region's corner in the source ("tile * 64u + ");
-- pass.load(x, y) reads the pass's source; levels = pass levels emitted (1..6).
function edge.emit_prepare(c, ctx, pass, levels)
    local D = ctx.dialect
    local origin = pass.origin(TILE):gsub(" %+ $", "")
    if origin == "" then origin = "$uint2(0u, 0u)" end
    c:comment("--edge conservative: the last column (row) of pass level j also covers the source " ..
        "columns (rows) [w_j * 2^j, w - 1] the 2x2 rule leaves out, possibly in the next tile. " ..
        "Workgroups near the right or bottom edge reduce those strips from the source first.")
    c:line("$uint2 edge_size = size_in;")
    c:line("$uint2 edge_origin = %s;", origin)
    c:line("uint edge_rows = min(%du, edge_size.y - edge_origin.y);", TILE)
    c:line("uint edge_cols = min(%du, edge_size.x - edge_origin.x);", STRIP_COLS)
    c:line("bool edge_fix = ((edge_size.x & 63u) != 0u && edge_origin.x + %du > edge_size.x) ||", STRIP_COLS)
    c:line("                ((edge_size.y & 63u) != 0u && edge_origin.y + %du > edge_size.y);", STRIP_COLS)
    c:block("if (edge_fix)", function()
        -- One sweep: the invocation owns the source line `fixed` (a row for E strips, a column
        -- for F strips) and walks it backwards from the edge; strip j starts at
        -- max(1, n >> j) << j and the strips nest, so one walk records all of them.
        local function sweep(cond, index, fixed, fixed_expr, along, array, stride)
            c:block(cond, function()
                c:line("uint %s = %s;", fixed, fixed_expr)
                c:block(string.format("if (%s < edge_size.%s)", fixed, along == "x" and "y" or "x"), function()
                    local function at(v)
                        if along == "x" then return pass.load(v, fixed) end
                        return pass.load(fixed, v)
                    end
                    c:line("uint walk_end = edge_size.%s - 1u;", along)
                    c:line("$value acc = %s;", at("walk_end"))
                    c:block(string.format("for (uint j = 1u; j <= %du; j++)", levels), function()
                        c:line("uint first = max(1u, edge_size.%s >> j) << j;", along)
                        c:line("for (uint i = first; i < walk_end; i++) acc = spd_combine(acc, %s);", at("i"))
                        c:line("walk_end = min(walk_end, first);")
                        c:line("%s[(j - 1u) * %du + %s] = acc;", array, stride, index)
                    end)
                end)
            end)
        end
        c:comment("Invocations 0..63: source row edge_origin.y + t, reduced over each strip E_j of columns.")
        sweep(string.format("if (t < %du)", TILE), "t", "ey", "edge_origin.y + t", "x", "lds_edge_cols", TILE)
        c:comment(string.format("Invocations 64..%d: source column edge_origin.x + t - 64 (this tile " ..
            "and the next), reduced over each strip F_j of rows.", TILE + STRIP_COLS - 1))
        sweep(string.format("if (t >= 64u && t < %du)", TILE + STRIP_COLS), "(t - 64u)", "ex",
            "edge_origin.x + (t - 64u)", "y", "lds_edge_rows", STRIP_COLS)
        c:line(D.barrier())
    end)
end

-- --edge conservative: folds the strips into `var`, the value of texel `coord` (a variable)
-- of pass level j, when it is its level's last column or row. Texels outside the level get
-- garbage, which nothing reads.
function edge.emit_fix(c, ctx, j, coord, var)
    c:block("if (edge_fix)", function()
        c:line("$uint2 edge_local = %s - (edge_origin >> %du);", coord, j)
        c:block(string.format("if (%s.x == size_out.x - 1u && (size_out.x << %du) < edge_size.x)", coord, j), function()
            c:line("uint rows_end = min((edge_local.y + 1u) << %du, edge_rows);", j)
            c:line("for (uint r = edge_local.y << %du; r < rows_end; r++) %s = spd_combine(%s, lds_edge_cols[%du + r]);",
                j, var, var, (j - 1) * TILE)
        end)
        c:block(string.format("if (%s.y == size_out.y - 1u && (size_out.y << %du) < edge_size.y)", coord, j), function()
            c:comment("The last column's texel here is the corner: its columns run to the edge.")
            c:line("uint cols_end = %s.x == size_out.x - 1u ? edge_cols : min((edge_local.x + 1u) << %du, edge_cols);",
                coord, j)
            c:line("for (uint i = edge_local.x << %du; i < cols_end; i++) %s = spd_combine(%s, lds_edge_rows[%du + i]);",
                j, var, var, (j - 1) * STRIP_COLS)
        end)
    end)
end

-- One line for the emitted file's opening comment.
function edge.describe(cfg)
    if cfg.edge == "conservative" then
        return "Edges: conservative. Where a level has an odd width (height), its last column (row) " ..
            "also reduces the input's last column (row), up to 3x3 at the corner, so every texel " ..
            "bounds all level-0 texels of its footprint (for occlusion culling). Workgroups near " ..
            "the right/bottom edge fold the strips the 2x2 rule leaves out, read from the pass's " ..
            "source, into their last texels; one dispatch as with drop."
    elseif cfg.edge == "weighted" then
        return "Edges: weighted. An input level with an odd side 2n+1 >= 3 is reduced with " ..
            "nvpro_pyramid's 3-tap weights (output i: inputs 2i, 2i+1, 2i+2 weighted " ..
            "(n-i, n, i+1) / (2n+1)); even sides keep the 2x2 mean; every level keeps the " ..
            "mean of level 0. Only a dispatch's levels 1, 7 and 13 read their input directly " ..
            "and apply the weights, so the host starts a new dispatch at every other level " ..
            "with an odd input: spd_pass_end() in the contract header (--emit-header) plans " ..
            "them; push src_size = that dispatch's source level and mip_count = its levels. " ..
            "Power-of-two sources take one dispatch."
    end
    return nil
end

return edge
