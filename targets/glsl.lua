-- glsl.lua: how GLSL 4.50 for Vulkan spells what the templates need.
--
-- Every target module provides the same hooks, listed once in targets/README.md; the
-- templates compose them (templates/lib/interface.lua) and know no language. Resources,
-- the push-constant block and shared memory sit at file scope, set 0, binding = the
-- contract's binding; builtins are locals of main().
local glsl = {
    language = "GLSL 4.50 for Vulkan",
    types = { float = "float", float2 = "vec2", float4 = "vec4", uint = "uint", uint2 = "uvec2",
              uint3 = "uvec3",
              -- fp16 (GL_EXT_shader_explicit_arithmetic_types_float16)
              half = "float16_t", half2 = "f16vec2", half4 = "f16vec4" },
    half_suffix = "hf", -- 0.25hf: a float16_t literal
    -- Qualifies a declaration whose computation must not be contracted into fused
    -- multiply-adds or reordered (SPIR-V NoContraction), so its floats are exact everywhere.
    precise = "precise",
}

-- The swizzle that takes n channels of a 4-component fetch.
local SWIZZLE = { ".r", ".rg", nil, "" }

function glsl.entry_name(kernel) return "main" end
function glsl.binding_label(r, m) return string.format("set 0 binding %d", r.binding) end
function glsl.params_label(m) return "push constants" end

local function has_kind(m, kind)
    for _, r in ipairs(m.resources) do if r.kind == kind then return true end end
    return false
end

-- fp16 values in a storage buffer need 16-bit storage.
local function half_storage(m)
    for _, r in ipairs(m.resources) do
        if r.kind == "storage_buffer" and r.element:match("^half") then return true end
    end
    return false
end

function glsl.preamble(m)
    local f = m.features
    local lines = { "#version 450" }
    local function ext(name) lines[#lines + 1] = "#extension " .. name .. " : require" end
    -- texelFetch on a texture2D without a sampler.
    if has_kind(m, "sampled_image") then ext("GL_EXT_samplerless_texture_functions") end
    local subgroup = f.shuffle or f.shuffle_xor or f.quad
    if subgroup then ext("GL_KHR_shader_subgroup_basic") end
    if f.shuffle or f.shuffle_xor then ext("GL_KHR_shader_subgroup_shuffle") end
    if f.quad then ext("GL_KHR_shader_subgroup_quad") end
    if f.half then
        ext("GL_EXT_shader_explicit_arithmetic_types_float16")
        if half_storage(m) then ext("GL_EXT_shader_16bit_storage") end
        -- Shuffles and quad operations of fp16 values.
        if subgroup then ext("GL_EXT_shader_subgroup_extended_types_float16") end
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = string.format("layout(local_size_x = %d, local_size_y = %d, local_size_z = %d) in;",
        m.local_size[1], m.local_size[2], m.local_size[3])
    return table.concat(lines, "\n")
end

local ACCESS = { read = "readonly ", write = "writeonly ", read_write = "" }

function glsl.storage_buffer(r, m)
    -- coherent: reads see what other workgroups wrote in this dispatch (after their
    -- release and this invocation's acquire).
    return { file = string.format("layout(set = 0, binding = %d, std430) %s%sbuffer %s { %s %s[]; };",
        r.binding, r.coherent and "coherent " or "", ACCESS[r.access], r.block, glsl.types[r.element], r.name) }
end

-- r.half: mediump, so the loads may return 16 bits (RelaxedPrecision in SPIR-V).
function glsl.sampled_image(r, m)
    return { file = string.format("layout(set = 0, binding = %d) uniform %s%stexture%s %s;", r.binding,
        r.half and "mediump " or "", r.scalar == "uint" and "u" or "", r.array and "2DArray" or "2D", r.name) }
end

function glsl.storage_image_array(r, m)
    return { file = string.format("layout(set = 0, binding = %d, %s) uniform writeonly %simage%s %s[%d];",
        r.binding, r.format, r.scalar == "uint" and "u" or "", r.array and "2DArray" or "2D", r.name, r.count) }
end

function glsl.sampler(r, m)
    return { file = string.format("layout(set = 0, binding = %d) uniform sampler %s;", r.binding, r.name) }
end

function glsl.push_constants(p, m)
    local lines = { string.format("layout(push_constant) uniform %s {", p.block) }
    for _, f in ipairs(p.fields) do lines[#lines + 1] = string.format("    %s %s;", glsl.types[f.type], f.name) end
    lines[#lines + 1] = string.format("} %s;", p.name)
    return { file = table.concat(lines, "\n") }
end

function glsl.shared_array(a, m)
    local count = a.count and string.format("[%d]", a.count) or ""
    return { file = string.format("shared %s %s%s;", glsl.types[a.type], a.name, count) }
end

local BUILTINS = {
    t = "uint t = gl_LocalInvocationIndex;",
    group = "uvec3 group = gl_WorkGroupID;",
    lane = "uint lane = gl_SubgroupInvocationID;",
}
function glsl.builtin(b, m) return { body = BUILTINS[b] } end

function glsl.entry_open(m, arguments) return "void main() {" end

-- The emitted lines as GLSL writes them: the templates' subset is GLSL's own.
function glsl.finish(lines, m) return lines end

-- ---- statements and expressions ----------------------------------------------------------

function glsl.inout(type, name) return "inout " .. type .. " " .. name end
function glsl.barrier() return "barrier();" end
function glsl.uniform_read(name) return name end
-- memoryBarrierBuffer(): OpMemoryBarrier at device scope on uniform (buffer) memory, with
-- acquire-release semantics: a release fence before the counter, an acquire fence after.
function glsl.device_fence() return "memoryBarrierBuffer();" end
function glsl.atomic_add(result, target, value)
    return string.format("%s = atomicAdd(%s, %s);", result, target, value)
end
function glsl.atomic_store(target, value) return string.format("atomicExchange(%s, %s);", target, value) end
function glsl.atomic_min(target, value) return string.format("atomicMin(%s, %s);", target, value) end

function glsl.shuffle(v, lane, type) return string.format("subgroupShuffle(%s, %s)", v, lane) end
function glsl.shuffle_xor(v, mask, type) return string.format("subgroupShuffleXor(%s, %du)", v, mask) end
function glsl.quad_broadcast(v, i, type) return string.format("subgroupQuadBroadcast(%s, %du)", v, i) end
function glsl.quad_swap(v, mask, type)
    return string.format(mask == 1 and "subgroupQuadSwapHorizontal(%s)" or "subgroupQuadSwapVertical(%s)", v)
end

function glsl.image_load(img, x, y, layer, channels)
    local coord = layer and string.format("ivec3(%s, %s, %s)", x, y, layer) or string.format("ivec2(%s, %s)", x, y)
    return string.format("texelFetch(%s, %s, 0)%s", img.name, coord, SWIZZLE[channels])
end

function glsl.image_sample(img, smp, uv, layer, channels)
    local where = layer and string.format("sampler2DArray(%s, %s), vec3(%s, float(%s))", img.name, smp.name, uv, layer)
        or string.format("sampler2D(%s, %s), %s", img.name, smp.name, uv)
    return string.format("textureLod(%s, 0.0f)%s", where, SWIZZLE[channels])
end

-- Channels and scalar kind of an abstract type name.
local function shape_of(type)
    return tonumber(type:match("(%d)$")) or 1, type:match("^uint") and "uint" or "float"
end

function glsl.image_store(img, index, coord, layer, v, type)
    local c = layer and string.format("ivec3(%s, %s)", coord, layer) or string.format("ivec2(%s)", coord)
    -- imageStore takes four components; the format keeps the ones it has.
    local channels, scalar = shape_of(type)
    local widen = scalar == "uint" and "uvec4(%s)" or ({ "vec4(%s)", "vec4(%s, 0.0f, 1.0f)", nil, "%s" })[channels]
    return string.format("imageStore(%s[%d], %s, %s);", img.name, index, c, string.format(widen, v))
end

-- A complex stored as two halves in a uint (x in the low 16 bits).
function glsl.unpack_half2(u) return string.format("unpackHalf2x16(%s)", u) end
function glsl.pack_half2(v) return string.format("packHalf2x16(%s)", v) end

return glsl
