-- resolve.lua: --dmap resolve, the full-resolution image of a subsampled render. Each bin of
-- a render with a density map was stored at its fragment area somewhere in the subsampled
-- image (turnip's layout, modelled by runtime/dmap); the host passes each bin's framebuffer
-- start, its place in the subsampled image and its area (spdrt_dmap_resolve_bins). Each
-- output pixel finds its bin from the tile grid slid by the view's bin offset, then reads
-- its fragment (nearest) or interpolates between the fragments around it (linear), reading
-- into the 2-pixel aprons the driver filled from the neighbours. The arithmetic is exact
-- (areas are powers of two), so the CPU reference (runtime/dmap/dmap_resolve.c) matches.
local emit = require("templates.lib.emit")
local interface = require("templates.lib.interface")
local tile = require("templates.lib.tile")

local resolve = {}
local u = tile.u

local SIDE = 8 -- pixels per workgroup side

local FIELDS = {
    { "width", "output width in pixels (the framebuffer)" },
    { "height", "output height in pixels" },
    { "tile_width", "the render pass's tile width (tile0)" },
    { "tile_height", "the render pass's tile height" },
    { "stride", "bins per row of the tile grid" },
    { "bins", "bins per view (the grid's width x height)" },
    { "src_width", "the subsampled image's width (linear taps clamp to it)" },
    { "src_height", "the subsampled image's height" },
}

local function contract(cfg, D)
    local push = {}
    for i, f in ipairs(FIELDS) do push[i] = { name = f[1], offset = 4 * (i - 1), doc = f[2] } end
    local array = cfg.views > 1
    return {
        title = "resolve of a subsampled render (VK_EXT_fragment_density_map)",
        entry = D.entry_name("dmap"), workgroup = { SIDE * SIDE, 1, 1 },
        grid = { { arg = "width", per = SIDE }, { arg = "height", per = SIDE }, array and { arg = "views", per = 1 } or {} },
        grid_doc = string.format("%dx%d output pixels per workgroup", SIDE, SIDE),
        subgroup = 0, shared_bytes = 0, push_constant_bytes = 4 * #FIELDS,
        bindings = {
            { binding = 0, macro = "OUTPUT", name = "dst", kind = "storage image", count = 1,
              doc = string.format("the full-resolution image, %s%s; write-only", cfg.format,
                  array and ", a layer per view" or "") },
            { binding = 1, macro = "SUBSAMPLED", name = "src", kind = "sampled image", count = 1,
              doc = "the subsampled render, texel loads" .. (array and ", a layer per view" or "") },
            { binding = 2, macro = "BINS", name = "bins", kind = "storage buffer", count = 1,
              doc = "per view 4 uints (bin offset x, y, 0, 0), then per bin 4 uints: framebuffer " ..
                  "start x | y << 16, subsampled origin x | y << 16, log2 area w | h << 8, 0" },
        },
        push_constants = push,
        values = { { name = "VIEWS", value = cfg.views, doc = "layers; dispatch z" } },
    }
end

local function make_interface(cfg, D)
    local array = cfg.views > 1
    local fields = {}
    for _, f in ipairs(FIELDS) do fields[#fields + 1] = { type = "uint", name = f[1] } end
    return interface.new(D, {
        kernel = "dmap", local_size = { SIDE * SIDE, 1, 1 },
        resources = {
            { kind = "storage_image_array", binding = 0, name = "dst", count = 1, format = cfg.format,
              array = array, scalar = "float", access = "write" },
            { kind = "sampled_image", binding = 1, name = "src", array = array, scalar = "float" },
            { kind = "storage_buffer", binding = 2, name = "bins", block = "DmapBins", element = "uint",
              access = "read" },
        },
        params = { block = "DmapResolveParams", name = "params", fields = fields },
        builtins = { "t", "group" },
    })
end

local function emit_header_comment(c, cfg, D, k, m)
    c:line("// spdgen %s: %s,", cfg.version, k.title)
    c:line("// %s.", D.language)
    c:line("// Generated; regenerate with:")
    c:command(cfg.command)
    c:line("//")
    c:comment(string.format("Each output pixel reads its bin's fragment%s. Contract:",
        cfg.filter == "linear" and "s around it, interpolated bilinearly" or ""))
    for _, b in ipairs(k.bindings) do
        c:comment(string.format("%s %s: %s", m:binding_label(b.binding), b.name, b.doc))
    end
    local names = {}
    for _, f in ipairs(FIELDS) do names[#names + 1] = f[1] end
    c:comment(string.format("%s, DmapResolveParams params (%d bytes): uint %s", m:params_label(),
        k.push_constant_bytes, table.concat(names, ", ")))
    c:comment(string.format("workgroup %dx1x1; %s", k.workgroup[1], k.grid_doc))
    c:blank()
end

-- The texel at (x, y) of the subsampled image (uint expressions).
local function fetch(D, src, layer, x, y)
    return D.image_load(src, x, y, layer, 4)
end

local function emit_main(c, cfg, D, m)
    local array = cfg.views > 1
    local layer = array and "view" or nil
    local src = m.resources[2]
    m:emit_entry_open(c)
    if array then c:line("uint view = group.z;") end
    c:line("uint x = group.x * %s + (t & %s);", u(SIDE), u(SIDE - 1))
    c:line("uint y = group.y * %s + (t >> %s);", u(SIDE), u(tile.log2(SIDE)))
    c:line("if (x >= params.width || y >= params.height) return;")
    c:comment("The bin: the tile grid slid left and up by the view's bin offset.")
    c:line("uint base = %s;", array and "view * (params.bins + 1u) * 4u" or "0u")
    c:line("uint column = (x + bins[base]) / params.tile_width;")
    c:line("uint row = (y + bins[base + 1u]) / params.tile_height;")
    c:line("uint e = base + 4u + min(row * params.stride + column, params.bins - 1u) * 4u;")
    c:line("uint start = bins[e];")
    c:line("uint origin = bins[e + 1u];")
    c:line("uint lw = bins[e + 2u] & 255u;")
    c:line("uint lh = bins[e + 2u] >> 8u;")
    c:comment("Pixels from the bin's start, in its fragments: the subsampled image holds fragment " ..
        "k at origin + k.")
    c:line("uint dx = x - (start & 65535u);")
    c:line("uint dy = y - (start >> 16u);")
    local value
    if cfg.filter == "nearest" then
        c:line("uint sx = min((origin & 65535u) + (dx >> lw), params.src_width - 1u);")
        c:line("uint sy = min((origin >> 16u) + (dy >> lh), params.src_height - 1u);")
        c:line("$float4 value = %s;", fetch(D, src, layer, "sx", "sy"))
        value = "value"
    else
        c:comment("The pixel centre in texel units of the subsampled image (centres at k + 0.5): " ..
            "origin + (d + 0.5) / area - 0.5, exact (areas are powers of two).")
        c:line("float cx = float(origin & 65535u) + (float(dx) + 0.5f) * dmap_inverse(lw) - 0.5f;")
        c:line("float cy = float(origin >> 16u) + (float(dy) + 0.5f) * dmap_inverse(lh) - 0.5f;")
        c:line("float ix = floor(cx);")
        c:line("float iy = floor(cy);")
        c:line("float fx = cx - ix;")
        c:line("float fy = cy - iy;")
        c:comment("The four fragments around it, within the bin or its apron, clamped to the image.")
        c:line("int last_x = int(params.src_width) - 1;")
        c:line("int last_y = int(params.src_height) - 1;")
        c:line("uint x0 = uint(clamp(int(ix), 0, last_x));")
        c:line("uint x1 = uint(clamp(int(ix) + 1, 0, last_x));")
        c:line("uint y0 = uint(clamp(int(iy), 0, last_y));")
        c:line("uint y1 = uint(clamp(int(iy) + 1, 0, last_y));")
        c:line("$float4 v00 = %s;", fetch(D, src, layer, "x0", "y0"))
        c:line("$float4 v10 = %s;", fetch(D, src, layer, "x1", "y0"))
        c:line("$float4 v01 = %s;", fetch(D, src, layer, "x0", "y1"))
        c:line("$float4 v11 = %s;", fetch(D, src, layer, "x1", "y1"))
        c:comment("One operation per statement and `precise`: no fused multiply-add anywhere.")
        local p = D.precise ~= "" and (D.precise .. " ") or ""
        c:line("%s$float4 step_top = (v10 - v00) * fx;", p)
        c:line("%s$float4 top = v00 + step_top;", p)
        c:line("%s$float4 step_bottom = (v11 - v01) * fx;", p)
        c:line("%s$float4 bottom = v01 + step_bottom;", p)
        c:line("%s$float4 step_y = (bottom - top) * fy;", p)
        c:line("%s$float4 value = top + step_y;", p)
        value = "value"
    end
    c:line(D.image_store(m.resources[1], 0, "$uint2(x, y)", layer, value, "float4"))
    c.depth = c.depth - 1
    c:line("}")
end

function resolve.generate(cfg, D)
    local k = contract(cfg, D)
    local m = make_interface(cfg, D)
    local names = {}
    for key, v in pairs(D.types) do names[key] = v end
    local c = emit.new(names)
    emit_header_comment(c, cfg, D, k, m)
    m:emit_preamble(c)
    c:blank()
    m:emit_declarations(c)
    c:blank()
    if cfg.filter == "linear" then
        c:comment("1 / 2^l, exact for the areas a bin may have (at most 16 pixels a side).")
        c:block("float dmap_inverse(uint l)", function()
            c:line("return l == 0u ? 1.0f : (l == 1u ? 0.5f : (l == 2u ? 0.25f : (l == 3u ? 0.125f : 0.0625f)));")
        end)
        c:blank()
    end
    emit_main(c, cfg, D, m)
    return c:text(), k
end

return resolve
