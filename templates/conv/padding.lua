-- padding.lua: where a position of the padded image reads the image. Zero padding reads
-- nothing past the image (the linear convolution); mirror padding extends the image
-- symmetrically: the first half of the padding mirrors the far edge, the second half the
-- near edge (positions p - padded < 0), each as deep as the PSF reaches when the padded size
-- is at least image + PSF - 1. Nothing is stored: the loads compute it.
local padding = {}

-- The helper function of mirror padding (pure: Metal's helpers see no resources).
function padding.emit_helper(c)
    c:comment("The image index position p of the padded line reads, mirror padding: p itself " ..
        "inside the image (p < extent); past it, the far edge mirrored up to the middle of the " ..
        "padding and the near edge mirrored beyond (p - padded < 0), with period 2 x extent, so " ..
        "any depth is an image index (..., 1, 0 | 0, 1, ..., e - 1 | e - 1, e - 2, ...).")
    c:block("uint conv_mirror(uint p, uint extent, uint padded)", function()
        c:line("uint period = 2u * extent;")
        c:line("uint split = extent + (padded - extent + 1u) / 2u;")
        c:line("uint m = p < split ? p % period : (period - (padded - p) % period) % period;")
        c:line("return m < extent ? m : period - 1u - m;")
    end)
    c:blank()
end

-- Declares `name` (a uint in range, safe to read) and returns the condition that the value
-- is the image's (nil: always), for position expression `pos` of a line of `padded` values
-- whose image part is `extent` long.
function padding.source(c, cfg, pos, extent, padded, name)
    if cfg.padding == "mirror" then
        c:line("uint %s = conv_mirror(%s, %s, %du);", name, pos, extent, padded)
        return nil
    end
    c:line("bool %s_in = %s < %s;", name, pos, extent)
    c:line("uint %s = %s_in ? %s : 0u;", name, name, pos)
    return name .. "_in"
end

-- Where position `pos` of a line reads: the PSF's (psf, placed as psf_source says) or the
-- image's (as source says). Returns the condition that the value is there (nil: always).
function padding.line_source(c, cfg, psf, pos, extent, padded, name)
    if psf then return padding.psf_source(c, pos, extent, padded, name) end
    return padding.source(c, cfg, pos, extent, padded, name)
end

-- The PSF placed with its centre (extent / 2) at the middle of its padded line of `padded`
-- values: declares `name`, the PSF index position `pos` reads, and returns the condition
-- that it lies inside the PSF.
function padding.psf_source(c, pos, extent, padded, name)
    local mid = string.format("%du", padded // 2)
    c:line("uint shifted = %s + (%s >> 1u);", pos, extent)
    c:line("bool %s_in = shifted >= %s && shifted - %s < %s;", name, mid, mid, extent)
    c:line("uint %s = %s_in ? shifted - %s : 0u;", name, name, mid)
    return name .. "_in"
end

return padding
