-- hooks.lua: the two decisions an engine may want to make its own, as SPD's spd_reduce is
-- its customization point. Copy this file to DIR/templates/dmap/hooks.lua and pass
-- --template-dir DIR to change them; the emitted shader then says it was made with an
-- override, and --selftest (whose CPU reference knows only these rules) fails where the
-- rates differ. Rates are codes (lw << 3) | lh of log2 widths and heights.
local hooks = {}

-- The content-adaptive rate of a tile from the maxima over its 2x2 blocks of d.x (the
-- horizontal luminance difference), d.y (vertical) and d.z (the block's range), after the
-- motion term and the neighbours' widening. FidelityFX Variable Shading's decision, with a
-- 4x4 tier of our own in front of it (cutoff4 = 0 turns it off).
function hooks.content_rate(c)
    c:comment("Content: FidelityFX's decision (1x1, 1x2, 2x1, 2x2 by the variance cutoff), with " ..
        "4x4 where even the 2x2 ranges stay below cutoff4.")
    c:block("uint dmap_content_rate($float4 d, float cutoff, float cutoff4)", function()
        c:line("if (d.z < cutoff4) return 18u;")
        c:line("if (d.z < cutoff) return 9u;")
        c:comment("Differences along x: one pixel wide, two high where y varies little.")
        c:line("if (d.x > d.y) return d.y > cutoff ? 0u : 1u;")
        c:line("return d.x > cutoff ? 0u : 8u;")
    end)
end

-- Foveation and content together: per axis the finer (the area never exceeds either's),
-- or with --combine coarser the coarser (FidelityFX's SHADING_RATE_2D_MAX).
function hooks.combine(c, how)
    local pick = how == "coarser" and "max" or "min"
    c:comment(string.format("Foveation and content together: per axis the %s of the two.",
        how == "coarser" and "coarser" or "finer"))
    c:block("uint dmap_combine(uint a, uint b)", function()
        c:line("return (%s(a >> 3u, b >> 3u) << 3u) | %s(a & 7u, b & 7u);", pick, pick)
    end)
end

return hooks
