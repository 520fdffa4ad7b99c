-- hlsl.lua: how HLSL (Shader Model 6, for DXC and glslang) spells what the templates need.
-- The interface is listed in targets/glsl.lua. Resources carry both Vulkan bindings
-- ([[vk::binding]]) and D3D registers.
local hlsl = {
    language = "HLSL (SM 6.0, Vulkan bindings for DXC/glslang -spirv, D3D registers)",
    entry_name = "main",
    types = { float = "float", float2 = "float2", float4 = "float4", uint = "uint", uint2 = "uint2",
              uint3 = "uint3",
              -- --half: real fp16 with DXC -enable-16bit-types (glslang: EShMsgHlslEnable16BitTypes)
              half = "half", half2 = "half2", half4 = "half4" },
    half_suffix = "h", -- 0.25h: a half literal
    -- glslang 12's HLSL intrinsics (min, max, wave and quad reads) have no half overloads:
    -- they compute in float, so --half results are converted back to half explicitly.
    half_cast_intrinsics = true,
    params_label = "push constants",
}

-- Storage element types; unorm makes the store convert to the 8-bit normalized format.
local ELEMENT = {
    r16f = "float", rg16f = "float2", rgba16f = "float4", r32f = "float", rg32f = "float2",
    rgba32f = "float4", rgba8 = "unorm float4", r32ui = "uint",
}
local SWIZZLE = { ".r", ".rg", nil, "" }

-- D3D registers: t0 for the source, u0..u(mips-1) for the mips, then the two buffers.
local function register_of(ctx, b)
    if b.binding == 0 then return "t0" end
    if b.binding == 4 then return "s0" end
    if b.binding == 1 then return "u0" end
    return "u" .. (ctx.cfg.mips + b.binding - 2)
end

function hlsl.binding_label(ctx, b)
    return string.format("binding %d / %s", b.binding, register_of(ctx, b))
end

function hlsl.preamble(ctx)
    local text = string.format("// Entry point: main, [numthreads(%d, 1, 1)].", ctx.shape.wg)
    if ctx.cfg.half then
        text = text .. "\n// --half: compile with 16-bit types (DXC -enable-16bit-types). glslang 12 has no " ..
            "half\n// overloads of min, max, WaveReadLaneAt and QuadReadLaneAt: their results are " ..
            "converted\n// back to half explicitly (exact: min/max return an operand, and a half " ..
            "converts to\n// float and back unchanged)."
    end
    return text
end

-- A lane exchange of v: halves go through float (glslang 12 has no half wave intrinsics).
local function exchange(ctx, call, v, arg)
    if not (ctx and ctx.cfg.half) then return string.format("%s(%s, %s)", call, v, arg) end
    return string.format("%s(%s(%s(%s), %s))", ctx.value_type, call,
        (ctx.value_type:gsub("half", "float")), v, arg)
end

function hlsl.declarations(ctx)
    local cfg = ctx.cfg
    local dim = cfg.array and "Texture2DArray" or "Texture2D"
    local value = ctx.value_type
    local lines = {
        string.format("[[vk::binding(0, 0)]] %s<%s> src_level0 : register(t0);", dim,
            ctx.uint and "uint4" or "float4"),
        string.format("[[vk::binding(1, 0)]] RW%s<%s> dst_mips[%d] : register(u0);", dim, ELEMENT[cfg.format], cfg.mips),
    }
    if cfg.sampler_linear then
        lines[#lines + 1] = "[[vk::binding(4, 0)]] SamplerState src_sampler : register(s0);"
    end
    if ctx.handoff then
        lines[#lines + 1] = string.format("[[vk::binding(2, 0)]] RWStructuredBuffer<uint> counters : register(%s);",
            register_of(ctx, { binding = 2 }))
        -- globallycoherent: the last workgroup reads values other workgroups wrote.
        lines[#lines + 1] = string.format(
            "[[vk::binding(3, 0)]] globallycoherent RWStructuredBuffer<%s> %s : register(%s);",
            value, ctx.handoff.name, register_of(ctx, { binding = 3 }))
    end
    lines[#lines + 1] = "struct SpdParams {"
    for _, f in ipairs(ctx.params) do lines[#lines + 1] = string.format("    %s %s;", hlsl.types[f.type], f.name) end
    lines[#lines + 1] = "};"
    -- ConstantBuffer<T>: glslang ignores [[vk::push_constant]] on a plain global struct.
    lines[#lines + 1] = "[[vk::push_constant]] ConstantBuffer<SpdParams> params;"
    lines[#lines + 1] = ""
    for _, a in ipairs(ctx.shared) do
        lines[#lines + 1] = string.format("groupshared %s %s[%d];", value, a.name, a.count)
    end
    if ctx.handoff then lines[#lines + 1] = "groupshared uint lds_is_last;" end
    return table.concat(lines, "\n")
end

function hlsl.entry_open(ctx)
    return string.format("[numthreads(%d, 1, 1)]\nvoid main(uint t : SV_GroupIndex, uint3 group : SV_GroupID) {",
        ctx.shape.wg)
end

function hlsl.entry_prologue(ctx)
    return ctx.uses_lane and { "uint lane = WaveGetLaneIndex();" } or {}
end

function hlsl.load_source(ctx, x, y)
    local coord = ctx.cfg.array and string.format("int4(%s, %s, slice, 0)", x, y)
        or string.format("int3(%s, %s, 0)", x, y)
    return string.format("src_level0.Load(%s)%s", coord, SWIZZLE[ctx.source_channels])
end

-- A bilinear fetch of level 0 at uv (--sampler linear: texel units, or normalized, --sampler-coords).
function hlsl.sample_source(ctx, uv)
    local where = ctx.cfg.array and string.format("float3(%s, float(slice))", uv) or uv
    return string.format("src_level0.SampleLevel(src_sampler, %s, 0)%s", where, SWIZZLE[ctx.source_channels])
end

function hlsl.store_mip(ctx, level, coord, v)
    local c = ctx.cfg.array and string.format("uint3(%s, slice)", coord) or coord
    return string.format("dst_mips[%d][%s] = %s;", level - 1, c, v)
end

function hlsl.shuffle(v, lane, ctx) return exchange(ctx, "WaveReadLaneAt", v, lane) end
function hlsl.quad_broadcast(v, i, ctx) return exchange(ctx, "QuadReadLaneAt", v, string.format("%du", i)) end
function hlsl.barrier() return "GroupMemoryBarrierWithGroupSync();" end
-- DeviceMemoryBarrier(): a device-scope fence on UAV memory, without a group sync.
function hlsl.device_fence() return "DeviceMemoryBarrier();" end
function hlsl.atomic_add(result, target, value)
    return string.format("InterlockedAdd(%s, %s, %s);", target, value, result)
end
function hlsl.atomic_reset(target)
    return string.format("{ uint previous; InterlockedExchange(%s, 0u, previous); }", target)
end

-- ---- FFT (templates/fft.lua); the ctx fields are listed in targets/glsl.lua ---------------
hlsl.types.float2 = "float2"

function hlsl.fft_preamble(ctx)
    return string.format("// Entry point: main, [numthreads(%d, 1, 1)].", ctx.invocations)
end

function hlsl.fft_declarations(ctx)
    local lines = {
        string.format("[[vk::binding(0, 0)]] StructuredBuffer<%s> src : register(t0);", ctx.elements.src),
        string.format("[[vk::binding(1, 0)]] RWStructuredBuffer<%s> dst : register(u0);", ctx.elements.dst),
    }
    if ctx.lut then
        lines[#lines + 1] = "[[vk::binding(2, 0)]] StructuredBuffer<float2> twiddle_lut : register(t1);"
    end
    lines[#lines + 1] = "struct FftParams {"
    for _, p in ipairs(ctx.push_constants) do lines[#lines + 1] = "    uint " .. p.name .. ";" end
    lines[#lines + 1] = "};"
    -- ConstantBuffer<T>: glslang ignores [[vk::push_constant]] on a plain global struct.
    lines[#lines + 1] = "[[vk::push_constant]] ConstantBuffer<FftParams> params;"
    if ctx.slots > 0 then lines[#lines + 1] = "" end
    for _, a in ipairs(ctx.exchange_arrays) do
        lines[#lines + 1] = string.format("groupshared %s %s[%d];", hlsl.types[a.type], a.name, ctx.slots)
    end
    return table.concat(lines, "\n")
end

function hlsl.fft_entry_open(ctx)
    return string.format("[numthreads(%d, 1, 1)]\nvoid main(uint t : SV_GroupIndex, uint3 group : SV_GroupID) {", ctx.invocations)
end
function hlsl.fft_entry_prologue(ctx) return {} end
local FFT_REGISTERS = { [0] = "t0", [1] = "u0", [2] = "t1" }
function hlsl.fft_binding_label(b) return string.format("binding %d / %s", b.binding, FFT_REGISTERS[b.binding]) end
function hlsl.shuffle_xor(v, mask) return string.format("WaveReadLaneAt(%s, WaveGetLaneIndex() ^ %s)", v, mask) end
function hlsl.quad_swap(v, mask)
    return string.format(mask == 1 and "QuadReadAcrossX(%s)" or "QuadReadAcrossY(%s)", v)
end
function hlsl.unpack_half2(u) return string.format("float2(f16tof32(%s), f16tof32((%s) >> 16))", u, u) end
function hlsl.pack_half2(v)
    return string.format("(f32tof16((%s).x) | (f32tof16((%s).y) << 16))", v, v)
end

return hlsl
