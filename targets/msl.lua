-- msl.lua: how the Metal Shading Language (3.2) spells what the templates need.
-- The hooks are listed in targets/README.md. Metal passes resources and thread positions as
-- kernel arguments and declares threadgroup memory inside the kernel; only the parameter
-- struct sits at file scope. Arguments are numbered per kind in binding order: textures
-- [[texture(0)]], ... (an array takes one per element), samplers [[sampler(0)]], ..., and
-- buffers [[buffer(0)]], ..., where the parameter block is always [[buffer(2)]], so a host
-- binds it at one index for every kernel.
local msl = {
    language = "Metal Shading Language 3.2",
    types = { float = "float", float2 = "float2", float4 = "float4", uint = "uint", uint2 = "uint2",
              uint3 = "uint3", half = "half", half2 = "half2", half4 = "half4" },
    half_suffix = "h", -- 0.25h: a half literal
    -- MSL has no such qualifier: templates write precise computations one operation per
    -- statement, and exactness needs Metal's fast math off (MTLMathModeSafe).
    precise = "",
}

local PARAMS_BUFFER = 2
local SWIZZLE = { ".r", ".rg", nil, "" }

-- The argument index of resource r: the next free one of its kind, in binding order.
local function index_of(r, m)
    local next = { texture = 0, sampler = 0, buffer = 0 }
    local function kind(x)
        if x.kind == "sampler" then return "sampler", 1 end
        if x.kind == "storage_buffer" then return "buffer", 1 end
        return "texture", x.count or 1
    end
    for _, other in ipairs(m.resources) do
        local k, count = kind(other)
        if k == "buffer" and next.buffer == PARAMS_BUFFER then next.buffer = next.buffer + 1 end
        if other == r then return string.format("[[%s(%d)]]", k, next[k]) end
        next[k] = next[k] + count
    end
    error("msl: resource " .. r.name .. " is not in the interface")
end

function msl.entry_name(kernel) return kernel .. "_main" end
function msl.binding_label(r, m) return index_of(r, m) end
function msl.params_label(m) return string.format("[[buffer(%d)]]", PARAMS_BUFFER) end

function msl.preamble(m)
    return "#include <metal_stdlib>\nusing namespace metal;"
end

function msl.storage_buffer(r, m)
    local element = r.atomic and "atomic_uint" or msl.types[r.element]
    -- coherent(device) (MSL 3.2): reads see what other threadgroups wrote in this dispatch.
    -- Before 3.2 Metal has no device-scope coherence.
    local space = r.coherent and "coherent(device) device" or "device"
    if r.access == "read" then space = space .. " const" end
    return { argument = string.format("%s %s* %s %s", space, element, r.name, index_of(r, m)) }
end

-- r.half: a half texture, whose loads return 16 bits (widened by msl.image_load).
function msl.sampled_image(r, m)
    return { argument = string.format("%s<%s, access::%s> %s %s", r.array and "texture2d_array" or "texture2d",
        r.half and "half" or r.scalar, r.filtered and "sample" or "read", r.name, index_of(r, m)) }
end

function msl.storage_image_array(r, m)
    return { argument = string.format("array<%s<%s, access::write>, %d> %s %s",
        r.array and "texture2d_array" or "texture2d", r.scalar, r.count, r.name, index_of(r, m)) }
end

function msl.sampler(r, m) return { argument = string.format("sampler %s %s", r.name, index_of(r, m)) } end

function msl.push_constants(p, m)
    local lines = { string.format("struct %s {", p.block) }
    for _, f in ipairs(p.fields) do lines[#lines + 1] = string.format("    %s %s;", msl.types[f.type], f.name) end
    lines[#lines + 1] = "};"
    return { file = table.concat(lines, "\n"),
             argument = string.format("constant %s& %s %s", p.block, p.name, msl.params_label(m)) }
end

function msl.shared_array(a, m)
    local count = a.count and string.format("[%d]", a.count) or ""
    return { body = string.format("threadgroup %s %s%s;", msl.types[a.type], a.name, count) }
end

local BUILTINS = {
    t = "uint t [[thread_index_in_threadgroup]]",
    group = "uint3 group [[threadgroup_position_in_grid]]",
    lane = "uint lane [[thread_index_in_simdgroup]]",
}
function msl.builtin(b, m) return { argument = BUILTINS[b] } end

function msl.entry_open(m, arguments)
    return string.format("[[max_total_threads_per_threadgroup(%d)]]\nkernel void %s(\n    ",
        m.local_size[1] * m.local_size[2] * m.local_size[3], msl.entry_name(m.kernel)) ..
        table.concat(arguments, ",\n    ") .. ")\n{"
end

-- The emitted lines as MSL writes them: the templates' subset is MSL's own.
function msl.finish(lines, m) return lines end

-- ---- statements and expressions ----------------------------------------------------------

function msl.inout(type, name) return "thread " .. type .. " &" .. name end
function msl.barrier() return "threadgroup_barrier(mem_flags::mem_threadgroup);" end
function msl.uniform_read(name) return name end
function msl.device_fence()
    return "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);"
end
function msl.atomic_add(result, target, value)
    return string.format("%s = atomic_fetch_add_explicit(&%s, %s, memory_order_relaxed);", result, target, value)
end
function msl.atomic_min(target, value)
    return string.format("atomic_fetch_min_explicit(&%s, %s, memory_order_relaxed);", target, value)
end
function msl.atomic_store(target, value)
    return string.format("atomic_store_explicit(&%s, %s, memory_order_relaxed);", target, value)
end

function msl.shuffle(v, lane, type) return string.format("simd_shuffle(%s, ushort(%s))", v, lane) end
function msl.shuffle_xor(v, mask, type) return string.format("simd_shuffle_xor(%s, ushort(%du))", v, mask) end
function msl.quad_broadcast(v, i, type) return string.format("quad_broadcast(%s, ushort(%d))", v, i) end
function msl.quad_swap(v, mask, type) return string.format("quad_shuffle_xor(%s, ushort(%d))", v, mask) end

function msl.image_load(img, x, y, layer, channels)
    local args = layer and string.format("uint2(%s, %s), %s", x, y, layer) or string.format("uint2(%s, %s)", x, y)
    local load = string.format("%s.read(%s)%s", img.name, args, SWIZZLE[channels])
    return img.half and string.format("float%s(%s)", channels > 1 and channels or "", load) or load
end

function msl.image_sample(img, smp, uv, layer, channels)
    local where = layer and (uv .. ", " .. layer) or uv
    return string.format("%s.sample(%s, %s, level(0.0f))%s", img.name, smp.name, where, SWIZZLE[channels])
end

function msl.image_store(img, index, coord, layer, v, type)
    local channels = tonumber(type:match("(%d)$")) or 1
    local uint = type:match("^uint") ~= nil
    -- write() takes four components; the texture keeps the ones its format has.
    local widen = uint and "uint4(%s)" or ({ "float4(%s)", "float4(%s, 0.0f, 1.0f)", nil, "%s" })[channels]
    -- fp16: MSL vector constructors take vectors of their own element type only.
    if type:match("^half") and channels > 1 then v = string.format("float%d(%s)", channels, v) end
    local where = layer and (coord .. ", " .. layer) or coord
    return string.format("%s[%d].write(%s, %s);", img.name, index, string.format(widen, v), where)
end

function msl.unpack_half2(u) return string.format("float2(as_type<half2>(%s))", u) end
function msl.pack_half2(v) return string.format("as_type<uint>(half2(%s))", v) end

return msl
