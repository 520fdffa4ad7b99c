-- wgsl.lua: how WGSL (WebGPU) spells what the templates need.
--
-- The hooks are listed in targets/README.md. Declarations are written in WGSL here; the
-- statements the templates write in their C-like subset are rewritten as WGSL by `finish`
-- (targets/wgsl_parse.lua reads them, targets/wgsl_write.lua writes them), so `types` names
-- the abstract types themselves and wgsl_write spells them.
--
-- Bindings: group 0 holds the contract's bindings at their numbers; WebGPU binds no arrays
-- of textures, so an array of several storage textures binds element i at group 1, binding
-- i (name_i in the shader); the parameter block is a uniform buffer at group 0, binding 8
-- (gen/wgsl.h's SG_WGSL_PARAMS_BINDING and SG_WGSL_ARRAY_GROUP say the same to the C
-- header).
local parse = require("targets.wgsl_parse")
local write = require("targets.wgsl_write")
local T = require("targets.wgsl_types")

local PARAMS_BINDING = 8
local ARRAY_GROUP = 1

local wgsl = {
    language = "WGSL for WebGPU",
    types = {},
    half_suffix = "h", -- 0.25h: an f16 literal
    -- WGSL has no such qualifier; an implementation may reassociate and fuse (the WGSL
    -- specification, "Reassociation and Fusion"), so exactness is within the tests' bounds.
    precise = "",
    -- WebGPU cannot require a subgroup size (nor full subgroups): the host checks the adapter.
    subgroup_requirement = "WebGPU: use it only where adapter.info.subgroupMinSize >= %d",
}
for _, kind in ipairs({ "float", "half", "uint", "int", "bool" }) do
    wgsl.types[kind] = kind
    for n = 2, 4 do wgsl.types[kind .. n] = kind .. n end
end

-- WebGPU's names of the storage formats (the WebGPU specification's texture formats).
local FORMAT = {
    r16f = "r16float", rg16f = "rg16float", rgba16f = "rgba16float", r32f = "r32float",
    rg32f = "rg32float", rgba32f = "rgba32float", rgba8 = "rgba8unorm", r32ui = "r32uint",
    rg8 = "rg8unorm", r8ui = "r8uint",
}
local SWIZZLE = { ".r", ".rg", nil, "" }

local function sampled(r) return r.scalar == "uint" and "u32" or "f32" end

-- The name of element `index` of a storage-texture array: its own binding, or the array's
-- name where it has one element.
local function element_name(r, index) return r.count > 1 and (r.name .. "_" .. index) or r.name end

function wgsl.entry_name(kernel) return "main" end

function wgsl.binding_label(r, m)
    if r.kind == "storage_image_array" and r.count > 1 then
        return string.format("@group(%d) @binding(0..%d)", ARRAY_GROUP, r.count - 1)
    end
    return string.format("@group(0) @binding(%d)", r.binding)
end
function wgsl.params_label(m) return string.format("@group(0) @binding(%d), uniform", PARAMS_BINDING) end

function wgsl.preamble(m)
    local f = m.features
    local lines = {}
    if f.half then lines[#lines + 1] = "enable f16;" end
    if f.shuffle or f.shuffle_xor or f.quad then
        lines[#lines + 1] = "enable subgroups;"
        -- The templates keep their exchanges within full subgroups (the contract states the
        -- size they need), as they do in every target; WGSL's analysis cannot see that.
        lines[#lines + 1] = "diagnostic(off, subgroup_uniformity);"
    end
    for _, r in ipairs(m.resources) do
        if r.binding >= PARAMS_BINDING then
            error("wgsl: binding " .. r.binding .. " (" .. r.name .. ") is the parameter block's")
        end
    end
    return table.concat(lines, "\n")
end

function wgsl.storage_buffer(r, m)
    local element = r.atomic and "atomic<u32>" or T.spell(r.element)
    -- WGSL has no write-only storage buffers; read_write serves both.
    local access = r.access == "read" and "read" or "read_write"
    return { file = string.format("@group(0) @binding(%d) var<storage, %s> %s: array<%s>;", r.binding,
        access, r.name, element) }
end

function wgsl.sampled_image(r, m)
    return { file = string.format("@group(0) @binding(%d) var %s: texture_2d%s<%s>;", r.binding, r.name,
        r.array and "_array" or "", sampled(r)) }
end

function wgsl.storage_image_array(r, m)
    local format = FORMAT[r.format] or error("wgsl: no WebGPU storage format for " .. tostring(r.format))
    local type = string.format("texture_storage_2d%s<%s, write>", r.array and "_array" or "", format)
    if r.count == 1 then
        return { file = string.format("@group(0) @binding(%d) var %s: %s;", r.binding, r.name, type) }
    end
    local lines = {}
    for i = 0, r.count - 1 do
        lines[#lines + 1] = string.format("@group(%d) @binding(%d) var %s: %s;", ARRAY_GROUP, i,
            element_name(r, i), type)
    end
    return { file = table.concat(lines, "\n") }
end

function wgsl.sampler(r, m)
    return { file = string.format("@group(0) @binding(%d) var %s: sampler;", r.binding, r.name) }
end

function wgsl.push_constants(p, m)
    local lines = { string.format("struct %s {", p.block) }
    for _, f in ipairs(p.fields) do lines[#lines + 1] = string.format("    %s: %s,", f.name, T.spell(f.type)) end
    lines[#lines + 1] = "}"
    lines[#lines + 1] = string.format("@group(0) @binding(%d) var<uniform> %s: %s;", PARAMS_BINDING, p.name, p.block)
    return { file = table.concat(lines, "\n") }
end

function wgsl.shared_array(a, m)
    local type = a.count and string.format("array<%s, %d>", T.spell(a.type), a.count) or T.spell(a.type)
    return { file = string.format("var<workgroup> %s: %s;", a.name, type) }
end

local BUILTINS = {
    t = "@builtin(local_invocation_index) t: u32",
    group = "@builtin(workgroup_id) group: vec3<u32>",
    lane = "@builtin(subgroup_invocation_id) lane: u32",
}
function wgsl.builtin(b, m) return { argument = BUILTINS[b] } end

function wgsl.entry_open(m, arguments)
    return string.format("@compute @workgroup_size(%d, %d, %d)\nfn main(%s) {", m.local_size[1],
        m.local_size[2], m.local_size[3], table.concat(arguments, ", "))
end

-- The names and types the interface declares, for wgsl_write's type checks.
local function globals_of(m)
    local g = { t = "uint", group = "uint3", lane = "uint" }
    for _, r in ipairs(m.resources) do
        if r.kind == "storage_buffer" then
            g[r.name] = { array = r.atomic and { atomic = true } or r.element, count = 0 }
        elseif r.kind == "sampled_image" then
            g[r.name] = { texture = r.scalar }
        elseif r.kind == "storage_image_array" then
            for i = 0, r.count - 1 do g[element_name(r, i)] = { texture = r.scalar, storage = true } end
        elseif r.kind == "sampler" then
            g[r.name] = { sampler = true }
        end
    end
    local fields = {}
    for _, f in ipairs(m.params.fields) do fields[f.name] = f.type end
    g[m.params.name] = { struct = m.params.block, fields = fields }
    for _, a in ipairs(m.shared) do
        g[a.name] = a.count and { array = a.type, count = a.count } or a.type
    end
    return g
end

-- The emitted lines as WGSL: comments and WGSL declarations as they are, the subset
-- rewritten (targets/wgsl_parse.lua, targets/wgsl_write.lua).
function wgsl.finish(lines, m)
    local tree = parse.read(lines, wgsl.types)
    return write.lines(lines, tree, globals_of(m))
end

-- ---- statements and expressions ----------------------------------------------------------

-- WGSL has no in-out parameters: the subset's `inout` (read by targets/wgsl_parse.lua) is
-- written as a pointer to the caller's var (targets/wgsl_write.lua).
function wgsl.inout(type, name) return "inout " .. type .. " " .. name end
function wgsl.barrier() return "workgroupBarrier();" end
-- WGSL's barriers are workgroup-scoped and its atomics relaxed: no device-scope fence
-- exists (the WGSL specification, "Memory Model"). Only --unfenced-handoff emits a hand-off.
function wgsl.device_fence()
    return "// WGSL has no device-scope fence: this hand-off is unfenced (--unfenced-handoff)."
end
function wgsl.uniform_read(name) return string.format("workgroupUniformLoad(&%s)", name) end
function wgsl.atomic_add(result, target, value)
    return string.format("%s = atomicAdd(&%s, %s);", result, target, value)
end
function wgsl.atomic_store(target, value) return string.format("atomicStore(&%s, %s);", target, value) end
function wgsl.atomic_min(target, value) return string.format("atomicMin(&%s, %s);", target, value) end

function wgsl.shuffle(v, lane, type) return string.format("subgroupShuffle(%s, %s)", v, lane) end
function wgsl.shuffle_xor(v, mask, type) return string.format("subgroupShuffleXor(%s, %du)", v, mask) end
function wgsl.quad_broadcast(v, i, type) return string.format("quadBroadcast(%s, %du)", v, i) end
function wgsl.quad_swap(v, mask, type)
    return string.format(mask == 1 and "quadSwapX(%s)" or "quadSwapY(%s)", v)
end

function wgsl.image_load(img, x, y, layer, channels)
    local coord = string.format("int2(%s, %s)", x, y)
    local args = layer and string.format("%s, %s, 0", coord, layer) or (coord .. ", 0")
    return string.format("textureLoad(%s, %s)%s", img.name, args, SWIZZLE[channels])
end

function wgsl.image_sample(img, smp, uv, layer, channels)
    local where = layer and string.format("%s, %s", uv, layer) or uv
    return string.format("textureSampleLevel(%s, %s, %s, 0.0f)%s", img.name, smp.name, where, SWIZZLE[channels])
end

function wgsl.image_store(img, index, coord, layer, v, type)
    local channels = tonumber(type:match("(%d)$")) or 1
    local uint = type:match("^uint") ~= nil
    -- textureStore takes four components; the format keeps the ones it has.
    local widen = uint and "uint4(%s)" or ({ "float4(%s)", "float4(%s, 0.0f, 1.0f)", nil, "float4(%s)" })[channels]
    local where = layer and (coord .. ", " .. layer) or coord
    return string.format("textureStore(%s, %s, %s);", element_name(img, index), where, string.format(widen, v))
end

function wgsl.unpack_half2(u) return string.format("unpack2x16float(%s)", u) end
function wgsl.pack_half2(v) return string.format("pack2x16float(%s)", v) end

return wgsl
