-- spd_half.lua: --half, packed fp16 math for the 16-bit float formats (r16f, rg16f, rgba16f).
--
-- The formats store halves, so computing in halves from the level-0 fetch on loses little:
-- min/max of halves are exact (bit-identical to the fp32 chain), and each mean level adds
-- the rounding of a 4-term fp16 sum (README "--half" derives the bound). What changes is
-- only the value type (registers, subgroup exchanges, shared memory, the level-6 hand-off,
-- which then carries halves: half the bytes) and how float literals are spelled; the
-- algorithm in spd.lua stays the same. The dialects spell the types (types.half, half2,
-- half4) and the literal suffix (half_suffix); cli.c allows --half only with the 16-bit
-- float formats, so srgb-mean (rgba8) and r32ui never get here.
local spd_half = {}

-- The value type of `channels` channels (an abstract type name): halves with --half, else
-- floats.
function spd_half.value_type(cfg, channels)
    local prefix = cfg.half and "half" or "float"
    return prefix .. (channels == 1 and "" or tostring(channels))
end

-- An op's body with its float literals (0.25f) spelled as fp16 literals: in the fp16
-- dialects a float literal would promote the expression to fp32 (GLSL refuses the implicit
-- narrowing back).
function spd_half.body(cfg, dialect, body)
    if not cfg.half then return body end
    body = body:gsub("(%d+%.%d+)f", "%1" .. dialect.half_suffix)
    -- A dialect whose min/max return float for halves (hlsl.lua says why) converts back.
    return dialect.half_cast_intrinsics and ("$value(" .. body .. ")") or body
end

-- A level-0 value (a texel fetch or bilinear sample returns fp32) as the value type.
function spd_half.from_source(cfg, expr)
    return cfg.half and ("$value(" .. expr .. ")") or expr
end

-- Bytes of one value: the level-6 hand-off per tile, shared-memory entries.
function spd_half.value_bytes(cfg, channels)
    return (cfg.half and 2 or 4) * channels
end

-- The opening comment's line about the arithmetic, or nil without --half.
function spd_half.describe(cfg)
    if not cfg.half then return nil end
    return "Arithmetic: fp16 (--half) from the level-0 fetch on: registers, subgroup " ..
        "exchanges, shared memory and the level-6 hand-off hold halves. min/max are exact; " ..
        "mean adds at most 1.25 x 2^-11 x M per level (M: a power of two >= max |level 0|) " ..
        "to the fp32 chain, and overflows to Inf where a 2x2 block sums past 65504. NaN " ..
        "inputs give unspecified results (min/max may return either operand)."
end

return spd_half
