-- hlsl.lua: how HLSL (Shader Model 6, for DXC and glslang) spells what the templates need.
-- The hooks are listed in targets/README.md. Resources carry both a Vulkan binding
-- ([[vk::binding(b, 0)]]) and a D3D register, assigned in binding order: read-only
-- resources t0, t1, ..., writable ones u0, u1, ... (an array takes one per element),
-- samplers s0, s1, ...
local hlsl = {
    language = "HLSL (Shader Model 6.0)",
    types = { float = "float", float2 = "float2", float4 = "float4", uint = "uint", uint2 = "uint2",
              uint3 = "uint3",
              -- real fp16 with DXC -enable-16bit-types (glslang: EShMsgHlslEnable16BitTypes)
              half = "half", half2 = "half2", half4 = "half4" },
    half_suffix = "h", -- 0.25h: a half literal
    -- glslang 12's HLSL intrinsics (min, max, wave and quad reads) have no half overloads:
    -- they compute in float, so results of halves are converted back to half explicitly.
    half_cast_intrinsics = true,
    -- No fused multiply-add or reordering in the qualified computation (NoContraction).
    precise = "precise",
}

-- Storage element types; unorm makes the store convert to the 8-bit normalized format.
local ELEMENT = {
    r16f = "float", rg16f = "float2", rgba16f = "float4", r32f = "float", rg32f = "float2",
    rgba32f = "float4", rgba8 = "unorm float4", r32ui = "uint",
    rg8 = "unorm float2", r8ui = "uint",
}
local SWIZZLE = { ".r", ".rg", nil, "" }

-- The register class of a resource and how many registers it takes.
local function class_of(r)
    if r.kind == "sampler" then return "s", 1 end
    if r.kind == "sampled_image" or (r.kind == "storage_buffer" and r.access == "read") then return "t", 1 end
    return "u", r.count or 1
end

-- D3D register of resource r: the next free one of its class, in binding order.
local function register_of(r, m)
    local next = { t = 0, u = 0, s = 0 }
    for _, other in ipairs(m.resources) do
        local class, count = class_of(other)
        if other == r then return class .. next[class] end
        next[class] = next[class] + count
    end
    error("hlsl: resource " .. r.name .. " is not in the interface")
end

function hlsl.entry_name(kernel) return "main" end
function hlsl.binding_label(r, m) return string.format("binding %d / %s", r.binding, register_of(r, m)) end
function hlsl.params_label(m) return "push constants" end

function hlsl.preamble(m)
    local text = string.format("// Entry point: main, [numthreads(%d, %d, %d)].", m.local_size[1],
        m.local_size[2], m.local_size[3])
    if m.features.half then
        text = text .. "\n// --half: compile with 16-bit types (DXC -enable-16bit-types). glslang 12 has no " ..
            "half\n// overloads of min, max, WaveReadLaneAt and QuadReadLaneAt: their results are " ..
            "converted\n// back to half explicitly (exact: min/max return an operand, and a half " ..
            "converts to\n// float and back unchanged)."
    end
    return text
end

local function binding(r, m)
    return string.format("[[vk::binding(%d, 0)]]", r.binding), string.format("register(%s)", register_of(r, m))
end

function hlsl.storage_buffer(r, m)
    local vk, reg = binding(r, m)
    if r.access == "read" then
        return { file = string.format("%s StructuredBuffer<%s> %s : %s;", vk, hlsl.types[r.element], r.name, reg) }
    end
    -- globallycoherent: reads see what other workgroups wrote in this dispatch.
    return { file = string.format("%s %sRWStructuredBuffer<%s> %s : %s;", vk,
        r.coherent and "globallycoherent " or "", hlsl.types[r.element], r.name, reg) }
end

function hlsl.sampled_image(r, m)
    local vk, reg = binding(r, m)
    return { file = string.format("%s %s<%s> %s : %s;", vk, r.array and "Texture2DArray" or "Texture2D",
        r.scalar == "uint" and "uint4" or "float4", r.name, reg) }
end

function hlsl.storage_image_array(r, m)
    local vk, reg = binding(r, m)
    return { file = string.format("%s RW%s<%s> %s[%d] : %s;", vk, r.array and "Texture2DArray" or "Texture2D",
        ELEMENT[r.format], r.name, r.count, reg) }
end

function hlsl.sampler(r, m)
    local vk, reg = binding(r, m)
    return { file = string.format("%s SamplerState %s : %s;", vk, r.name, reg) }
end

function hlsl.push_constants(p, m)
    local lines = { string.format("struct %s {", p.block) }
    for _, f in ipairs(p.fields) do lines[#lines + 1] = string.format("    %s %s;", hlsl.types[f.type], f.name) end
    lines[#lines + 1] = "};"
    -- ConstantBuffer<T>: glslang ignores [[vk::push_constant]] on a plain global struct.
    lines[#lines + 1] = string.format("[[vk::push_constant]] ConstantBuffer<%s> %s;", p.block, p.name)
    return { file = table.concat(lines, "\n") }
end

function hlsl.shared_array(a, m)
    local count = a.count and string.format("[%d]", a.count) or ""
    return { file = string.format("groupshared %s %s%s;", hlsl.types[a.type], a.name, count) }
end

local BUILTINS = {
    t = { argument = "uint t : SV_GroupIndex" },
    group = { argument = "uint3 group : SV_GroupID" },
    lane = { body = "uint lane = WaveGetLaneIndex();" },
}
function hlsl.builtin(b, m) return BUILTINS[b] end

function hlsl.entry_open(m, arguments)
    return string.format("[numthreads(%d, %d, %d)]\nvoid main(%s) {", m.local_size[1], m.local_size[2],
        m.local_size[3], table.concat(arguments, ", "))
end

-- The emitted lines as HLSL writes them: the templates' subset is HLSL's own.
function hlsl.finish(lines, m) return lines end

-- ---- statements and expressions ----------------------------------------------------------

function hlsl.inout(type, name) return "inout " .. type .. " " .. name end
function hlsl.barrier() return "GroupMemoryBarrierWithGroupSync();" end
function hlsl.uniform_read(name) return name end
-- DeviceMemoryBarrier(): a device-scope fence on UAV memory, without a group sync.
function hlsl.device_fence() return "DeviceMemoryBarrier();" end
function hlsl.atomic_add(result, target, value)
    return string.format("InterlockedAdd(%s, %s, %s);", target, value, result)
end
function hlsl.atomic_min(target, value) return string.format("InterlockedMin(%s, %s);", target, value) end
function hlsl.atomic_store(target, value)
    return string.format("{ uint previous; InterlockedExchange(%s, %s, previous); }", target, value)
end

-- A lane exchange of v: halves go through float (glslang 12 has no half wave intrinsics).
local function exchange(call, v, arg, type)
    if not type:match("^half") then return string.format("%s(%s, %s)", call, v, arg) end
    return string.format("%s(%s(%s(%s), %s))", hlsl.types[type], call, hlsl.types[type:gsub("half", "float")],
        v, arg)
end

function hlsl.shuffle(v, lane, type) return exchange("WaveReadLaneAt", v, lane, type) end
function hlsl.shuffle_xor(v, mask, type)
    return exchange("WaveReadLaneAt", v, string.format("WaveGetLaneIndex() ^ %du", mask), type)
end
function hlsl.quad_broadcast(v, i, type) return exchange("QuadReadLaneAt", v, string.format("%du", i), type) end
function hlsl.quad_swap(v, mask, type)
    return string.format(mask == 1 and "QuadReadAcrossX(%s)" or "QuadReadAcrossY(%s)", v)
end

function hlsl.image_load(img, x, y, layer, channels)
    local coord = layer and string.format("int4(%s, %s, %s, 0)", x, y, layer) or string.format("int3(%s, %s, 0)", x, y)
    return string.format("%s.Load(%s)%s", img.name, coord, SWIZZLE[channels])
end

function hlsl.image_sample(img, smp, uv, layer, channels)
    local where = layer and string.format("float3(%s, float(%s))", uv, layer) or uv
    return string.format("%s.SampleLevel(%s, %s, 0)%s", img.name, smp.name, where, SWIZZLE[channels])
end

function hlsl.image_store(img, index, coord, layer, v, type)
    local c = layer and string.format("uint3(%s, %s)", coord, layer) or coord
    return string.format("%s[%d][%s] = %s;", img.name, index, c, v)
end

function hlsl.unpack_half2(u) return string.format("float2(f16tof32(%s), f16tof32((%s) >> 16))", u, u) end
function hlsl.pack_half2(v)
    return string.format("(f32tof16((%s).x) | (f32tof16((%s).y) << 16))", v, v)
end

return hlsl
