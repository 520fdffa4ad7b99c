-- kernel.lua: --dmap, a density map (VK_EXT_fragment_density_map, R8G8_UNORM) or a
-- shading-rate attachment (VK_KHR_fragment_shading_rate, R8_UINT) for a render size,
-- written once for every target; --dmap resolve is templates/dmap/resolve.lua.
--
-- One map texel covers TEXEL x TEXEL pixels. Its rate comes from foveation (rings around a
-- fixed or per-view gaze point), from the content of the previous frame (content.lua,
-- after FidelityFX Variable Shading), or from both (hooks.lua combines them); then each
-- axis is capped at --max-rate and the rate clamped to the set the device supports, given
-- as a mask (rates.lua). Rates are codes (lw << 3) | lh of log2 width and height; the CPU
-- reference of every rule is runtime/dmap/dmap_ref.c.
local emit = require("templates.lib.emit")
local interface = require("templates.lib.interface")
local tile = require("templates.lib.tile")
local push = require("templates.dmap.push")
local rates = require("templates.dmap.rates")
local hooks = require("templates.dmap.hooks")
local content = require("templates.dmap.content")
local resolve = require("templates.dmap.resolve")

local dmap = {}
local u, log2 = tile.u, tile.log2

-- Foveation-only shaders: one invocation per texel, 8x8 texels per workgroup.
local FOVEATION_SIDE = 8

local function make_context(cfg, D)
    local ctx = { cfg = cfg, dialect = D, kind = cfg.dmap, T = cfg.texel, array = cfg.views > 1 }
    -- A declaration of `type` whose computation is exact (no contraction), in this target.
    ctx.precise = function(type) return D.precise ~= "" and (D.precise .. " " .. type) or type end
    ctx.max_log2 = log2(cfg.max_rate)
    ctx.layer = ctx.array and "view" or nil
    if cfg.content then
        -- --fetch columns: --subgroup is the neighbours' shuffles; the maxima stay in shared
        -- memory, whose steps fold an invocation's column of blocks as --fetch strips does.
        ctx.steps = content.steps(ctx.T, cfg.fetch == "columns" and 0 or cfg.subgroup)
        ctx.strategy = content.describe(ctx.steps)
        ctx.big = ctx.T > content.REGION
        for _, s in ipairs(ctx.steps) do ctx.uses_lane = ctx.uses_lane or s.kind == "shuffle" end
    end
    ctx.map = { kind = "storage_image_array", binding = 0, name = "dst_map", count = 1,
                format = ctx.kind == "fdm" and "rg8" or "r8ui", array = ctx.array,
                scalar = ctx.kind == "fdm" and "float" or "uint", access = "write" }
    -- --inputs f16: the loads may return 16 bits (exact for 16-bit float images), half the data.
    local half = cfg.content and cfg.inputs == "f16"
    ctx.colour = { kind = "sampled_image", binding = 1, name = "src_colour", array = ctx.array, scalar = "float",
        half = half }
    ctx.motion = { kind = "sampled_image", binding = 2, name = "src_motion", array = ctx.array, scalar = "float",
        half = half }
    ctx.axes = { kind = "storage_buffer", binding = 3, name = "rate_axes", block = "DmapAxes", element = "uint",
                 access = "read_write", atomic = true }
    return ctx
end

local function make_interface(ctx)
    local cfg = ctx.cfg
    local resources = { ctx.map }
    if cfg.content then
        resources[#resources + 1] = ctx.colour
        resources[#resources + 1] = ctx.motion
    end
    if cfg.rate_map then resources[#resources + 1] = ctx.axes end
    local fields = {}
    for _, f in ipairs(push.fields(cfg)) do fields[#fields + 1] = { type = f.type, name = f.name } end
    local quad = false
    for _, s in ipairs(ctx.steps or {}) do quad = quad or s.kind == "quad" end
    local wg = cfg.content and content.SHAPE.wg or FOVEATION_SIDE * FOVEATION_SIDE
    return interface.new(ctx.dialect, {
        kernel = "dmap", local_size = { wg, 1, 1 }, resources = resources,
        params = { block = "DmapParams", name = "params", fields = fields },
        shared = cfg.content and content.shared(ctx.steps, cfg.fetch) or {},
        builtins = ctx.uses_lane and { "t", "group", "lane" } or { "t", "group" },
        features = { shuffle = ctx.uses_lane, quad = quad, shuffle_xor = cfg.content and cfg.fetch == "columns" },
    })
end

local function make_contract(ctx)
    local cfg, T = ctx.cfg, ctx.T
    local views = ctx.array and { arg = "views", per = 1 } or {}
    local grid, grid_doc
    if not cfg.content then
        local per = FOVEATION_SIDE
        grid = { { arg = "map_width", per = per }, { arg = "map_height", per = per }, views }
        grid_doc = string.format("%dx%d map texels per workgroup; map_width = ceil(width / %d)",
            per, per, T)
    elseif ctx.big then
        grid = { { arg = "map_width", per = 1 }, { arg = "map_height", per = 1 }, views }
        grid_doc = string.format("one map texel per workgroup (its %dx%d pixels in 64x64 regions); " ..
            "map_width = ceil(width / %d)", T, T, T)
    else
        grid = { { arg = "width", per = content.REGION }, { arg = "height", per = content.REGION }, views }
        grid_doc = string.format("a 64x64-pixel region (%dx%d map texels) per workgroup",
            content.REGION // T, content.REGION // T)
    end
    local map_doc = ctx.kind == "fdm" and "the density map, R8G8_UNORM: floor(255 / area) per axis"
        or "the fragment shading rate attachment, R8_UINT: (log2 w << 2) | log2 h"
    local bindings = { { binding = 0, macro = "MAP", name = "dst_map", kind = "storage image", count = 1,
        doc = map_doc .. (ctx.array and ", one layer per view" or "") .. "; write-only" } }
    if cfg.content then
        bindings[2] = { binding = 1, macro = "COLOUR", name = "src_colour", kind = "sampled image", count = 1,
            doc = "the previous frame's colour (RGB read; " .. (ctx.colour.half and
                "RGBA16F: 16-bit loads" or "RGBA16F typical") .. "), texel loads" ..
                (ctx.array and ", one layer per view" or "") }
        bindings[3] = { binding = 2, macro = "MOTION", name = "src_motion", kind = "sampled image", count = 1,
            doc = "motion vectors in pixels (RG read; " .. (ctx.motion.half and "RG16F: 16-bit loads"
                or "RG16F typical") .. "): pixel p came from p - motion" }
    end
    if cfg.rate_map then
        bindings[#bindings + 1] = { binding = 3, macro = "RATE_AXES", name = "rate_axes", kind = "storage buffer",
            count = 1, doc = "--rate-map: per view map_width + map_height uints, each column's then each " ..
                "row's finest log2 rate along that axis; fill with 0xffffffff before the dispatch" }
    end
    local push_entries = push.contract(cfg)
    local values = {
        { name = "TEXEL", value = T, doc = "pixels per map texel side" },
        { name = "MAX_RATE_LOG2", value = ctx.max_log2, doc = "the largest log2 rate per axis written" },
        { name = "VIEWS", value = cfg.views, doc = "map layers (multiview views); dispatch z" },
    }
    if cfg.content then
        values[#values + 1] = { name = "REGION", value = content.REGION, doc = "pixels per workgroup region side" }
    end
    return {
        title = ctx.kind == "fdm" and "fragment density map (VK_EXT_fragment_density_map)"
            or "fragment shading rate attachment (VK_KHR_fragment_shading_rate)",
        entry = ctx.dialect.entry_name("dmap"),
        workgroup = { cfg.content and content.SHAPE.wg or FOVEATION_SIDE * FOVEATION_SIDE, 1, 1 },
        grid = grid, grid_doc = grid_doc,
        subgroup = cfg.content and cfg.subgroup or 0,
        shared_bytes = 0, -- set after the interface is known
        push_constant_bytes = 4 * #push_entries,
        bindings = bindings, push_constants = push_entries, values = values,
    }
end

local function shared_bytes(ctx)
    local bytes = 0
    for _, a in ipairs(ctx.interface.shared) do
        bytes = bytes + (a.type == "float4" and 16 or 4) * (a.count or 1)
    end
    return bytes
end

-- A comment line starting with `head`, its text wrapped at 96 columns under the text's start.
local function hanging(c, head, text)
    local pad = "//" .. string.rep(" ", #head - 2)
    local line = head
    for word in text:gmatch("%S+") do
        if #line + 1 + #word > 96 and #line > #head then
            c:line(line)
            line = pad .. word
        else
            line = line .. (#line > #head and " " or "") .. word
        end
    end
    c:line(line)
end

local function emit_header_comment(c, ctx)
    local cfg, k = ctx.cfg, ctx.contract
    c:line("// spdgen %s: %s,", cfg.version, k.title)
    c:line("// %s.", ctx.dialect.language)
    c:line("// Generated; regenerate with:")
    c:command(cfg.command)
    c:line("//")
    local sources = {}
    if cfg.foveation ~= "off" then
        sources[#sources + 1] = cfg.foveation == "gaze" and "foveation rings around each view's gaze"
            or "foveation rings around the image centre"
    end
    if cfg.content then sources[#sources + 1] = "the previous frame's content (after FidelityFX Variable Shading)" end
    c:comment(string.format("Rates: one per %dx%d-pixel texel from %s%s; each axis at most %d, " ..
        "then the largest rate the device supports (rate_mask) that fits.", ctx.T, ctx.T,
        table.concat(sources, " and "), #sources > 1 and string.format(", per axis the %s of the two",
            cfg.combine) or "", 1 << ctx.max_log2))
    c:line("// Contract:")
    for _, b in ipairs(k.bindings) do
        hanging(c, string.format("//   %s %s: ", ctx.interface:binding_label(b.binding), b.name), b.doc)
    end
    local names = {}
    for _, p in ipairs(push.fields(cfg)) do names[#names + 1] = p.type .. " " .. p.name end
    hanging(c, string.format("//   %s, DmapParams params (%d bytes): ", ctx.interface:params_label(),
        k.push_constant_bytes), table.concat(names, ", "))
    hanging(c, "//   ", string.format("workgroup %dx1x1; %s; shared memory %d bytes%s", k.workgroup[1],
        k.grid_doc, k.shared_bytes, (ctx.uses_lane or cfg.fetch == "columns") and string.format("; full " ..
            "subgroups of at least %d invocations, lane = t %% size", cfg.subgroup) or ""))
    if cfg.content then
        c:comment("Strategy: " .. ctx.strategy .. ".")
    end
    c:blank()
end

local function emit_helpers(c, ctx)
    local cfg = ctx.cfg
    if cfg.foveation ~= "off" then
        rates.emit_foveation(c)
        c:blank()
    end
    if cfg.content then
        hooks.content_rate(c)
        c:blank()
        content.emit_morton(c)
        c:blank()
    end
    if cfg.content and cfg.foveation ~= "off" then
        hooks.combine(c, cfg.combine)
        c:blank()
    end
    rates.emit_limit(c, ctx.max_log2)
    c:blank()
end

-- The gaze of this view (x | y << 16), or the image centre.
local function gaze_lines(c, ctx)
    local cfg = ctx.cfg
    if cfg.foveation == "fixed" then
        c:line("uint gaze = (params.width / 2u) | ((params.height / 2u) << 16u);")
        return
    end
    c:line("uint gaze = params.gaze0;")
    for v = 1, cfg.views - 1 do c:line("if (view == %du) gaze = params.gaze%d;", v, v) end
end

-- A call whose arguments wrap at 100 columns, continuation lines under the first argument.
local function call(c, head, args, tail)
    local indent = 4 * c.depth
    local line, pad = head, string.rep(" ", #head)
    for i, a in ipairs(args) do
        local piece = a .. (i == #args and tail or ",")
        if i > 1 and indent + #line + 1 + #piece > 100 then
            c:line(line)
            line = pad .. piece
        else
            line = line .. (i > 1 and " " or "") .. piece
        end
    end
    c:line(line)
end

-- The rate of texel (tx, ty) from `content_rate` (an expression, or nil) and foveation,
-- limited and stored.
local function emit_decide(c, ctx, content_rate)
    local cfg, D, T = ctx.cfg, ctx.dialect, ctx.T
    local parts = {}
    if cfg.foveation ~= "off" then
        call(c, "uint fov = dmap_ring_rate(", { string.format("tx * %s + %s", u(T), u(T // 2)),
            string.format("ty * %s + %s", u(T), u(T // 2)), "gaze", "params.radii01", "params.radii23",
            "params.aspect", "params.ring_rates" }, ");")
        parts[#parts + 1] = "fov"
    end
    if content_rate then
        c:line("uint content = %s;", content_rate)
        parts[#parts + 1] = "content"
    end
    local rate = #parts == 2 and "dmap_combine(fov, content)" or parts[1]
    c:line("uint rate = dmap_limit(%s, params.rate_mask);", rate)
    rates.emit_store(c, D, ctx.map, ctx.layer, ctx.kind)
    if cfg.rate_map then
        c:comment("Metal's rate map is separable: each column takes its finest width, each row its " ..
            "finest height.")
        c:line("uint axes = %s;", ctx.array and "view * (map_w + map_h)" or "0u")
        c:line(D.atomic_min("rate_axes[axes + tx]", "rate >> 3u"))
        c:line(D.atomic_min("rate_axes[axes + map_w + ty]", "rate & 7u"))
    end
end

local function emit_main(c, ctx)
    local cfg = ctx.cfg
    ctx.interface:emit_entry_open(c)
    if ctx.array then c:line("uint view = group.z;") end
    if not ctx.big or cfg.rate_map then
        c:comment("The map's extent: ceil(size / texel).")
        c:line("uint map_w = (params.width + %s) / %s;", u(ctx.T - 1), u(ctx.T))
        c:line("uint map_h = (params.height + %s) / %s;", u(ctx.T - 1), u(ctx.T))
    end
    if cfg.foveation ~= "off" then gaze_lines(c, ctx) end
    if not cfg.content then
        c:comment("One texel per invocation.")
        c:line("uint tx = group.x * %s + (t & %s);", u(FOVEATION_SIDE), u(FOVEATION_SIDE - 1))
        c:line("uint ty = group.y * %s + (t >> %s);", u(FOVEATION_SIDE), u(log2(FOVEATION_SIDE)))
        c:line("if (tx >= map_w || ty >= map_h) return;")
        emit_decide(c, ctx, nil)
    else
        c:line("int last_x = int(params.width) - 1;")
        c:line("int last_y = int(params.height) - 1;")
        if ctx.big then
            local n = ctx.T // content.REGION
            c:comment(string.format("This workgroup's texel spans %dx%d regions of 64x64 pixels: each in " ..
                "turn, keeping the running maximum in invocation 0.", n, n))
            c:line("uint tx = group.x;")
            c:line("uint ty = group.y;")
            c:line("$float4 acc = $float4(0.0f, 0.0f, 0.0f, 0.0f);")
            c:block(string.format("for (uint ry = 0u; ry < %s; ry++)", u(n)), function()
                c:block(string.format("for (uint rx = 0u; rx < %s; rx++)", u(n)), function()
                    c:line("int region_x = int(tx * %s + rx * %s);", u(ctx.T), u(content.REGION))
                    c:line("int region_y = int(ty * %s + ry * %s);", u(ctx.T), u(content.REGION))
                    c:line("if (region_x > last_x || region_y > last_y) continue;")
                    content.emit_region(c, ctx)
                    c:line("acc = max(acc, v);")
                    c:comment("The next region reuses the shared arrays.")
                    c:line(ctx.dialect.barrier())
                end)
            end)
            c:blank()
            c:comment("Phase 4: the texel's rate.")
            c:block("if (t == 0u)", function()
                emit_decide(c, ctx, "dmap_content_rate(acc, params.cutoff, params.cutoff4)")
            end)
        else
            local per = content.REGION // ctx.T
            c:line("int region_x = int(group.x * %s);", u(content.REGION))
            c:line("int region_y = int(group.y * %s);", u(content.REGION))
            c:blank()
            local holder, index = content.emit_region(c, ctx)
            c:blank()
            c:comment(string.format("Phase 4: the holders of the region's %d texels decide their rates.", per * per))
            local cond = holder or "true"
            c:block(string.format("if (%s)", cond), function()
                c:line("$uint2 tp = dmap_morton_xy(%s);", index)
                c:line("uint tx = group.x * %s + tp.x;", u(per))
                c:line("uint ty = group.y * %s + tp.y;", u(per))
                c:block("if (tx < map_w && ty < map_h)", function()
                    emit_decide(c, ctx, "dmap_content_rate(v, params.cutoff, params.cutoff4)")
                end)
            end)
        end
    end
    c.depth = c.depth - 1
    c:line("}")
end

function dmap.generate(cfg, dialect)
    if cfg.dmap == "resolve" then return resolve.generate(cfg, dialect) end
    local ctx = make_context(cfg, dialect)
    ctx.contract = make_contract(ctx)
    ctx.interface = make_interface(ctx)
    ctx.contract.shared_bytes = shared_bytes(ctx)
    local names = {}
    for k, v in pairs(dialect.types) do names[k] = v end
    local c = emit.new(names)
    emit_header_comment(c, ctx)
    ctx.interface:emit_preamble(c)
    c:blank()
    ctx.interface:emit_declarations(c)
    c:blank()
    emit_helpers(c, ctx)
    emit_main(c, ctx)
    return c:text(), ctx.contract
end

return dmap
