-- push.lua: the --dmap push-constant block, listed once for the shader's declaration, its
-- opening comment and the contract (--emit-header, libspdrt). Only the fields a
-- configuration reads are in its block, in this order; every field is 32 bits, so the block
-- has one layout in every language (no vectors to align).
local push = {}

local RATE = "rate codes (lw << 3) | lh, lw and lh the log2 of the fragment's width and height"

-- name, type, what it holds, and the configurations that have it.
local FIELDS = {
    { "width", "uint", "render width in pixels (the map is ceil(width / TEXEL) texels wide)" },
    { "height", "uint", "render height in pixels" },
    { "rate_mask", "uint", "the rates the device supports: bit lw * 5 + lh (1x1 is always " ..
      "allowed); the shader writes no other rate, taking the largest supported one that fits" },
    { "ring_rates", "uint", "the rate of each foveation ring, 6 bits each from bit 0: inside " ..
      "radius 0, 1, 2, 3, then outside; " .. RATE, foveation = true },
    { "radii01", "uint", "foveation radii 0 and 1 in pixels (low and high 16 bits)", foveation = true },
    { "radii23", "uint", "foveation radii 2 and 3 in pixels (low and high 16 bits)", foveation = true },
    { "aspect", "uint", "distance weights of x and y in 1/256 (low and high 16 bits, at most " ..
      "256): 256, 144 measures an ellipse 16:9 wide", foveation = true },
    { "cutoff", "float", "content: the luminance variance below which a tile may shade 2x2 (and " ..
      "1x2, 2x1 per axis), as FidelityFX's VarianceCutoff", content = true },
    { "cutoff4", "float", "content: the variance below which a tile may shade 4x4; 0 disables " ..
      "4x4", content = true },
    { "motion_factor", "float", "content: variance removed per pixel of motion (the larger of " ..
      "|x| and |y| of the motion vector)", content = true },
}

-- The fields of cfg's block: { name, type, doc } in order.
function push.fields(cfg)
    local out = {}
    local foveated, content = cfg.foveation ~= "off", cfg.content
    for _, f in ipairs(FIELDS) do
        if (not f.foveation or foveated) and (not f.content or content) then
            out[#out + 1] = { name = f[1], type = f[2], doc = f[3] }
        end
    end
    if cfg.foveation == "gaze" then
        for v = 0, cfg.views - 1 do
            out[#out + 1] = { name = "gaze" .. v, type = "uint",
                doc = string.format("the gaze of view %d in pixels: x | y << 16", v) }
        end
    end
    return out
end

-- The contract's entries: one 32-bit field each, consecutive.
function push.contract(cfg)
    local out = {}
    for i, f in ipairs(push.fields(cfg)) do
        local doc = f.type == "float" and (f.doc .. " (a float: store its bits)") or f.doc
        out[#out + 1] = { name = f.name, offset = 4 * (i - 1), doc = doc }
    end
    return out
end

return push
