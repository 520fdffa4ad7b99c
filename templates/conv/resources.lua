-- resources.lua: what each shader of the convolution binds, its parameter block and the
-- buffers' layouts, as data for templates/lib/interface.lua and for the contract. One place
-- says where every value lives, so the loads and stores of the passes and the contract's
-- comments cannot disagree.
--
-- Buffers of complex values (float2, or with --storage f16 one uint of two IEEE halves); the
-- column passes' data sits in tiles of their C columns (tiles.lua says where each value is):
--   zk  the PSF after spectrum1: pair p of PSF lines, Z[k1] and Z[-k1] in spectrum2's tiles
--   s   the kernel spectrum: exact, row j2 (the bit-reversed position of frequency k2 along A2,
--       the order pass 2 holds it in; natural order where P2 is not a power of two) of pass
--       2's tiles; resampled, the whole Q1 x Q2 spectrum in natural order, (c * Q2 + k2) * Q1
--       + k1
--   r   resampled only: s sampled at the padded image's frequencies (the resample shader,
--       again whenever psf_scale changes), in pass 2's register order (resample.lua)
--   z   the image after pass 1: pair p = lines 2p and 2p + 1, Z[k1] and Z[-k1] in pass 2's tiles
--   y   after pass 2: line l's half spectrum along A1, row l of pass 2's tiles
local resources = {}

-- The parameter block every shader of the job declares (the runtime pushes one block).
resources.PUSH = {
    { "width", "uint", "the image's width in pixels (at most the --image width)" },
    { "height", "uint", "the image's height in pixels" },
    { "psf_width", "uint", "the PSF's width (spectrum shaders; at most --psf)" },
    { "psf_height", "uint", "the PSF's height" },
    { "intensity", "float", "pass 3 with composite: out = src + intensity * (conv - src)" },
    { "composite", "uint", "pass 3: 0 writes the convolution, 1 the composite" },
    { "sharpen", "float", "pass 2: t of the lerp from the PSF to a delta, in the spectrum" },
    { "psf_scale", "float", "resample: the PSF drawn this many times larger" },
}

function resources.push_fields()
    local out = {}
    for _, f in ipairs(resources.PUSH) do out[#out + 1] = { type = f[2], name = f[1] } end
    return out
end

function resources.push_contract()
    local out = {}
    for i, f in ipairs(resources.PUSH) do
        out[#out + 1] = { name = f[1], offset = 4 * (i - 1),
            doc = f[2] == "float" and (f[3] .. " (a float: store its bits)") or f[3] }
    end
    return out
end

-- The buffers' strides, from the sizes spdgen resolved (cfg.sizes).
function resources.layout(cfg)
    local s = cfg.sizes
    return {
        z_pairs = (s.e2 + 1) // 2, zk_pairs = (s.k2 + 1) // 2,
    }
end

-- The element type of a buffer of complex values.
function resources.complex_element(cfg) return cfg.storage == "f16" and "uint" or "float2" end

local function complex_doc(cfg)
    return cfg.storage == "f16" and "complex values, each a uint of two IEEE halves (x low)"
        or "complex values, each a float2"
end

-- The resources of one role: { kind, binding, name, ..., macro, doc } in binding order.
function resources.of(cfg)
    local role, cx = cfg.role, resources.complex_element(cfg)
    local complex = complex_doc(cfg)
    local function buffer(binding, name, access, doc, element)
        return { kind = "storage_buffer", binding = binding, name = name, access = access,
                 block = "Conv" .. name:sub(1, 1):upper() .. name:sub(2), element = element or cx,
                 macro = (role .. "_" .. name):upper(), doc = doc }
    end
    local function source(binding)
        if cfg.input == "buffer" then
            return buffer(binding, "src", "read", string.format("the image: %d floats per pixel, " ..
                "pixel (x, y) at (y * width + x) * %d", cfg.channels, cfg.channels), "float")
        end
        return { kind = "sampled_image", binding = binding, name = "src", scalar = "float",
                 macro = (role .. "_SRC"):upper(), doc = "the image, read by texel loads (any float format)" }
    end
    if role == "spectrum1" then
        return {
            buffer(0, "psf", "read", string.format("the PSF: %d floats per pixel, (y * psf_width + x) " ..
                "* %d, centred at (psf_width / 2, psf_height / 2)", cfg.channels, cfg.channels), "float"),
            buffer(1, "zk", "write", "the PSF along the first axis: " .. complex),
        }
    elseif role == "spectrum2" then
        return {
            buffer(0, "zk", "read", "spectrum1's output: " .. complex),
            buffer(1, "spectrum", "write", "the kernel spectrum: " .. complex),
        }
    elseif role == "pass1" then
        return { source(0), buffer(1, "z", "write", "the image along the first axis: " .. complex) }
    elseif role == "resample" then
        return {
            buffer(0, "spectrum", "read", "the kernel spectrum at the PSF's padded size (spectrum2's " ..
                "output): " .. complex),
            buffer(1, "r", "write", "the kernel spectrum at the padded image's frequencies: " .. complex),
        }
    elseif role == "pass2" then
        return {
            buffer(0, "z", "read", "pass 1's output: " .. complex),
            buffer(1, "y", "write", "the convolved lines' half spectra along the first axis: " .. complex),
            buffer(2, "spectrum", "read", cfg.spectrum == "exact" and "the kernel spectrum (spectrum2's output)"
                or "the kernel spectrum resampled to the image's frequencies (resample's output r)"),
        }
    end
    local out
    if cfg.output == "buffer" then
        out = buffer(2, "dst", "write", string.format("the result: %d floats per pixel, " ..
            "(y * width + x) * %d", cfg.channels, cfg.channels), "float")
    else
        out = { kind = "storage_image_array", binding = 2, name = "dst", count = 1, format = cfg.format,
                scalar = "float", access = "write", macro = "PASS3_DST",
                doc = "the result, " .. cfg.format .. "; channels past the convolved ones copy the source's" }
    end
    return { buffer(0, "y", "read", "pass 2's output: " .. complex), source(1), out }
end

-- The contract's bindings for the resources.
function resources.bindings(list)
    local out = {}
    for _, r in ipairs(list) do
        out[#out + 1] = { binding = r.binding, macro = r.macro, name = r.name,
            kind = r.kind:gsub("_array", ""):gsub("_", " "), count = r.count, doc = r.doc }
    end
    return out
end

return resources
