-- glsl.lua: how GLSL 4.50 for Vulkan spells what the templates need.
--
-- Every dialect module (glsl, hlsl, msl) provides the same fields; templates/spd.lua is
-- their only user and the list below is the whole interface:
--   language, entry_name, types        names for the header comment and $type tokens
--   half_suffix                        suffix of an fp16 literal (--half; types.half*)
--   half_cast_intrinsics               true where min/max of halves return float (hlsl)
--   binding_label(ctx, b), params_label  how the contract comment names a resource
--   preamble(ctx), declarations(ctx)   text before the helper functions
--   entry_open(ctx), entry_prologue(ctx)  the entry point's signature and the lines that
--                                      define t (index in workgroup), group (uint3) and,
--                                      when ctx.uses_lane, lane (index in subgroup)
--   load_source(ctx, x, y)             level 0 at (x, y) as the value type
--   store_mip(ctx, level, coord, v)    statement writing v to level `level` at coord
--   shuffle(v, lane, ctx), quad_broadcast(v, i, ctx)   subgroup exchange expressions
--   barrier()                          workgroup execution + shared-memory barrier
--   device_fence()                     device-scope memory fence on buffer memory
--   atomic_add(result, target, value), atomic_reset(target)   counter statements
local glsl = {
    language = "GLSL 4.50 for Vulkan",
    entry_name = "main",
    types = { float = "float", float2 = "vec2", float4 = "vec4", uint = "uint", uint2 = "uvec2",
              uint3 = "uvec3",
              -- --half (GL_EXT_shader_explicit_arithmetic_types_float16)
              half = "float16_t", half2 = "f16vec2", half4 = "f16vec4" },
    half_suffix = "hf", -- 0.25hf: a float16_t literal
    params_label = "push constants",
}

-- The format qualifier of the mips (GLSL spells them as spdgen does, all of them).
local function image_format(ctx) return ctx.cfg.format end

-- The swizzle that takes n channels of a 4-component fetch.
local SWIZZLE = { ".r", ".rg", nil, "" }

function glsl.binding_label(ctx, b) return string.format("set 0 binding %d", b.binding) end

function glsl.preamble(ctx)
    local lines = { "#version 450" }
    lines[#lines + 1] = "#extension GL_EXT_samplerless_texture_functions : require"
    if ctx.uses_lane then
        lines[#lines + 1] = "#extension GL_KHR_shader_subgroup_basic : require"
        lines[#lines + 1] = "#extension GL_KHR_shader_subgroup_shuffle : require"
    end
    local quad = false
    for _, s in ipairs(ctx.steps) do quad = quad or s.kind == "quad" end
    if quad then lines[#lines + 1] = "#extension GL_KHR_shader_subgroup_quad : require" end
    if ctx.cfg.half then
        -- fp16 values in registers and shared memory; in the level-6 storage buffer they need
        -- 16-bit storage, and shuffles/quad broadcasts of them the extended subgroup types.
        lines[#lines + 1] = "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require"
        if ctx.cfg.mips > 6 then lines[#lines + 1] = "#extension GL_EXT_shader_16bit_storage : require" end
        if ctx.uses_lane or quad then
            lines[#lines + 1] = "#extension GL_EXT_shader_subgroup_extended_types_float16 : require"
        end
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = string.format("layout(local_size_x = %d, local_size_y = 1, local_size_z = 1) in;", ctx.shape.wg)
    return table.concat(lines, "\n")
end

function glsl.declarations(ctx)
    local cfg = ctx.cfg
    local dim = cfg.array and "2DArray" or "2D"
    local value = ctx.value_type
    local u = ctx.uint and "u" or ""
    local lines = {
        string.format("layout(set = 0, binding = 0) uniform %stexture%s src_level0;", u, dim),
        string.format("layout(set = 0, binding = 1, %s) uniform writeonly %simage%s dst_mips[%d];",
            image_format(ctx), u, dim, cfg.mips),
    }
    if cfg.sampler_linear then
        lines[#lines + 1] = "layout(set = 0, binding = 4) uniform sampler src_sampler;"
    end
    if ctx.handoff then
        lines[#lines + 1] = "layout(set = 0, binding = 2, std430) buffer SpdCounters { uint counters[]; };"
        -- coherent: the last workgroup reads values other workgroups wrote in this dispatch.
        lines[#lines + 1] = string.format(
            "layout(set = 0, binding = 3, std430) coherent buffer %s { %s %s[]; };", ctx.handoff.block, value,
            ctx.handoff.name)
    end
    lines[#lines + 1] = "layout(push_constant) uniform SpdParams {"
    for _, f in ipairs(ctx.params) do lines[#lines + 1] = string.format("    %s %s;", glsl.types[f.type], f.name) end
    lines[#lines + 1] = "} params;"
    lines[#lines + 1] = ""
    for _, a in ipairs(ctx.shared) do
        lines[#lines + 1] = string.format("shared %s %s[%d];", value, a.name, a.count)
    end
    if ctx.handoff then lines[#lines + 1] = "shared uint lds_is_last;" end
    return table.concat(lines, "\n")
end

function glsl.entry_open(ctx) return "void main() {" end

function glsl.entry_prologue(ctx)
    local lines = { "uint t = gl_LocalInvocationIndex;", "uvec3 group = gl_WorkGroupID;" }
    if ctx.uses_lane then lines[#lines + 1] = "uint lane = gl_SubgroupInvocationID;" end
    return lines
end

function glsl.load_source(ctx, x, y)
    local coord = ctx.cfg.array and string.format("ivec3(%s, %s, slice)", x, y)
        or string.format("ivec2(%s, %s)", x, y)
    return string.format("texelFetch(src_level0, %s, 0)%s", coord, SWIZZLE[ctx.source_channels])
end

-- A bilinear fetch of level 0 at uv (--sampler linear: texel units, or normalized, --sampler-coords).
function glsl.sample_source(ctx, uv)
    local where = ctx.cfg.array and string.format("sampler2DArray(src_level0, src_sampler), vec3(%s, float(slice))", uv)
        or string.format("sampler2D(src_level0, src_sampler), %s", uv)
    return string.format("textureLod(%s, 0.0f)%s", where, SWIZZLE[ctx.source_channels])
end

function glsl.store_mip(ctx, level, coord, v)
    local c = ctx.cfg.array and string.format("ivec3(%s, slice)", coord) or string.format("ivec2(%s)", coord)
    -- imageStore takes four components; the format keeps the ones it has.
    local widen = ctx.uint and "uvec4(%s)" or ({ "vec4(%s)", "vec4(%s, 0.0f, 1.0f)", nil, "%s" })[ctx.channels]
    return string.format("imageStore(dst_mips[%d], %s, %s);", level - 1, c, string.format(widen, v))
end

function glsl.shuffle(v, lane) return string.format("subgroupShuffle(%s, %s)", v, lane) end
function glsl.quad_broadcast(v, i) return string.format("subgroupQuadBroadcast(%s, %du)", v, i) end
function glsl.barrier() return "barrier();" end
-- memoryBarrierBuffer(): OpMemoryBarrier at device scope on uniform (buffer) memory, with
-- acquire-release semantics: a release fence before the counter, an acquire fence after.
function glsl.device_fence() return "memoryBarrierBuffer();" end
function glsl.atomic_add(result, target, value)
    return string.format("%s = atomicAdd(%s, %s);", result, target, value)
end
function glsl.atomic_reset(target) return string.format("atomicExchange(%s, 0u);", target) end

-- ---- FFT (templates/fft.lua) ------------------------------------------------------------
-- ctx for these: invocations (the local size: W, or C x W with columns in lanes), subgroup,
-- elements = { src, dst } (each "float2", "uint" = a complex as two halves, or "float" =
-- real rows), lut (bool), slots (shared complex slots, 0 = none), push_constants (the
-- contract's list of { name }). The invocation index is named t.
glsl.types.float2 = "vec2"
local FFT_ELEMENT = { float2 = "vec2", uint = "uint", float = "float" }

function glsl.fft_preamble(ctx)
    local lines = { "#version 450" }
    if ctx.subgroup >= 4 then
        lines[#lines + 1] = "#extension GL_KHR_shader_subgroup_basic : require"
        lines[#lines + 1] = ctx.subgroup == 4 and "#extension GL_KHR_shader_subgroup_quad : require"
            or "#extension GL_KHR_shader_subgroup_shuffle : require"
    end
    lines[#lines + 1] = ""
    lines[#lines + 1] = string.format("layout(local_size_x = %d, local_size_y = 1, local_size_z = 1) in;", ctx.invocations)
    return table.concat(lines, "\n")
end

function glsl.fft_declarations(ctx)
    local lines = {
        string.format("layout(set = 0, binding = 0, std430) readonly buffer FftSource { %s src[]; };",
            FFT_ELEMENT[ctx.elements.src]),
        string.format("layout(set = 0, binding = 1, std430) writeonly buffer FftDestination { %s dst[]; };",
            FFT_ELEMENT[ctx.elements.dst]),
    }
    if ctx.lut then
        lines[#lines + 1] = "layout(set = 0, binding = 2, std430) readonly buffer FftTwiddles { vec2 twiddle_lut[]; };"
    end
    lines[#lines + 1] = "layout(push_constant) uniform FftParams {"
    for _, p in ipairs(ctx.push_constants) do lines[#lines + 1] = "    uint " .. p.name .. ";" end
    lines[#lines + 1] = "} params;"
    if ctx.slots > 0 then lines[#lines + 1] = "" end
    for _, a in ipairs(ctx.exchange_arrays) do
        lines[#lines + 1] = string.format("shared %s %s[%d];", glsl.types[a.type], a.name, ctx.slots)
    end
    return table.concat(lines, "\n")
end

function glsl.fft_binding_label(b) return string.format("set 0 binding %d", b.binding) end
function glsl.fft_entry_open(ctx) return "void main() {" end
function glsl.fft_entry_prologue(ctx)
    return { "uint t = gl_LocalInvocationIndex;", "uvec3 group = gl_WorkGroupID;" }
end
-- The value of lane (this lane XOR mask); mask a uint literal. Quad swaps for --subgroup 4.
function glsl.shuffle_xor(v, mask) return string.format("subgroupShuffleXor(%s, %s)", v, mask) end
function glsl.quad_swap(v, mask)
    return string.format(mask == 1 and "subgroupQuadSwapHorizontal(%s)" or "subgroupQuadSwapVertical(%s)", v)
end
-- A complex stored as two halves in a uint (x in the low 16 bits).
function glsl.unpack_half2(u) return string.format("unpackHalf2x16(%s)", u) end
function glsl.pack_half2(v) return string.format("packHalf2x16(%s)", v) end

return glsl
