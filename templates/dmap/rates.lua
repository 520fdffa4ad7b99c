-- rates.lua: the rate arithmetic of --dmap as helper functions: foveation rings, the clamp
-- to the supported set, and the map texel a rate is stored as. Pure functions (every input
-- an argument), so every target can declare them at file scope. Integer arithmetic only:
-- the maps are bit-exact on any device.
local rates = {}

-- The ring a texel centre falls in, and its rate. Distances are in pixels with each axis
-- weighted by aspect / 256, squared in 32-bit integers: |dx| < 2^15 (centres and gazes stay
-- below 16384 + 512), times 256, shifted back by 8, squared: below 2^30 per axis.
function rates.emit_foveation(c)
    c:comment("Foveation: the ring (radius 0..3 in pixels, or outside) around the gaze (x | y << " ..
        "16) that the texel centre falls in, and that ring's rate from `rings`.")
    local head = "uint dmap_ring_rate(uint cx, uint cy, uint gaze, uint r01, uint r23, uint aspect, uint rings)"
    c:block(head, function()
        c:line("uint gx = min(gaze & 65535u, 16384u);")
        c:line("uint gy = min(gaze >> 16u, 16384u);")
        c:line("uint dx = cx > gx ? cx - gx : gx - cx;")
        c:line("uint dy = cy > gy ? cy - gy : gy - cy;")
        c:line("uint sx = (dx * min(aspect & 65535u, 256u)) >> 8u;")
        c:line("uint sy = (dy * min(aspect >> 16u, 256u)) >> 8u;")
        c:line("uint d2 = sx * sx + sy * sy;")
        c:line("uint ring = 4u;")
        c:comment("Outermost first, so the innermost ring that holds the point wins.")
        for k = 3, 0, -1 do
            local word = k < 2 and "r01" or "r23"
            local r = k % 2 == 0 and (word .. " & 65535u") or (word .. " >> 16u")
            c:line("uint r%d = min(%s, 32768u);", k, r)
            c:line("if (d2 < r%d * r%d) ring = %du;", k, k, k)
        end
        c:line("return (rings >> (6u * ring)) & 63u;")
    end)
end

-- The largest supported rate that fits inside `rate` on both axes: first each axis capped
-- at --max-rate, then among the rates of `mask` (bit lw * 5 + lh; 1x1 always) the largest
-- area, then the squarer, then the wider. The device never has to clamp what it reads.
function rates.emit_limit(c, max_log2)
    c:comment(string.format("The supported rate: each axis at most %d pixels (--max-rate), then " ..
        "the largest area in `mask` that fits, the squarer on a tie, then the wider.", 1 << max_log2))
    c:block("uint dmap_limit(uint rate, uint mask)", function()
        c:line("uint lw = min(rate >> 3u, %du);", max_log2)
        c:line("uint lh = min(rate & 7u, %du);", max_log2)
        c:line("uint best = 0u;")
        c:line("uint best_score = 0u;")
        c:block(string.format("for (uint a = 0u; a <= %du; a++)", max_log2), function()
            c:block(string.format("for (uint b = 0u; b <= %du; b++)", max_log2), function()
                c:line("bool supported = (((mask | 1u) >> (a * 5u + b)) & 1u) != 0u;")
                c:line("uint skew = a > b ? a - b : b - a;")
                c:line("uint score = ((a + b) << 4u) | ((7u - skew) << 1u) | (a > b ? 1u : 0u);")
                c:block("if (supported && a <= lw && b <= lh && score > best_score)", function()
                    c:line("best_score = score;")
                    c:line("best = (a << 3u) | b;")
                end)
            end)
        end)
        c:line("return best;")
    end)
end

-- Stores `rate` at (tx, ty): FDM R8G8_UNORM densities floor(255 / area) = 255 >> log2, so
-- the driver's 1 / density floors back to the area; FSR R8_UINT (lw << 2) | lh.
function rates.emit_store(c, D, map, layer, kind)
    if kind == "fdm" then
        c:line("$float2 bytes = $float2(float(255u >> (rate >> 3u)), float(255u >> (rate & 7u)));")
        c:line(D.image_store(map, 0, "$uint2(tx, ty)", layer, "bytes / 255.0f", "float2"))
    else
        c:line("uint texel = ((rate >> 3u) << 2u) | (rate & 7u);")
        c:line(D.image_store(map, 0, "$uint2(tx, ty)", layer, "texel", "uint"))
    end
end

return rates
