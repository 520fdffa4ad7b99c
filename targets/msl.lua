-- msl.lua: how the Metal Shading Language (3.2) spells what the templates need.
-- The interface is listed in targets/glsl.lua. Metal passes resources and thread positions
-- as kernel arguments, and threadgroup memory is declared inside the kernel.
local msl = {
    language = "Metal Shading Language 3.2",
    entry_name = "spd_main",
    types = { float = "float", float2 = "float2", float4 = "float4", uint = "uint", uint2 = "uint2",
              uint3 = "uint3", half = "half", half2 = "half2", half4 = "half4" },
    half_suffix = "h", -- 0.25h: a half literal
    params_label = "[[buffer(2)]]",
}

local LABELS = { [0] = "[[texture(0)]]", [1] = "[[texture(1)]]", [2] = "[[buffer(0)]]", [3] = "[[buffer(1)]]",
                 [4] = "[[sampler(0)]]" }
local SWIZZLE = { ".r", ".rg", nil, "" }

function msl.binding_label(ctx, b) return LABELS[b.binding] end

function msl.preamble(ctx)
    return "#include <metal_stdlib>\nusing namespace metal;"
end

function msl.declarations(ctx)
    local lines = { "struct SpdParams {" }
    for _, f in ipairs(ctx.params) do lines[#lines + 1] = string.format("    %s %s;", msl.types[f.type], f.name) end
    lines[#lines + 1] = "};"
    return table.concat(lines, "\n")
end

function msl.entry_open(ctx)
    local cfg = ctx.cfg
    local tex = cfg.array and "texture2d_array" or "texture2d"
    local scalar = ctx.uint and "uint" or "float"
    local args = {
        string.format("%s<%s, access::%s> src_level0 [[texture(0)]]", tex, scalar,
            cfg.sampler_linear and "sample" or "read"),
        string.format("array<%s<%s, access::write>, %d> dst_mips [[texture(1)]]", tex, scalar, cfg.mips),
    }
    if ctx.handoff then
        args[#args + 1] = "device atomic_uint* counters [[buffer(0)]]"
        -- coherent(device) (MSL 3.2): the last threadgroup reads values other threadgroups
        -- wrote in this dispatch. Before 3.2 Metal has no device-scope coherence.
        args[#args + 1] = string.format("coherent(device) device %s* %s [[buffer(1)]]", ctx.value_type,
            ctx.handoff.name)
    end
    if cfg.sampler_linear then args[#args + 1] = "sampler src_sampler [[sampler(0)]]" end
    args[#args + 1] = "constant SpdParams& params [[buffer(2)]]"
    args[#args + 1] = "uint t [[thread_index_in_threadgroup]]"
    args[#args + 1] = "uint3 group [[threadgroup_position_in_grid]]"
    if ctx.uses_lane then args[#args + 1] = "uint lane [[thread_index_in_simdgroup]]" end
    return string.format("[[max_total_threads_per_threadgroup(%d)]]\nkernel void spd_main(\n    ", ctx.shape.wg) ..
        table.concat(args, ",\n    ") .. ")\n{"
end

function msl.entry_prologue(ctx)
    local lines = {}
    for _, a in ipairs(ctx.shared) do
        lines[#lines + 1] = string.format("threadgroup %s %s[%d];", ctx.value_type, a.name, a.count)
    end
    if ctx.handoff then lines[#lines + 1] = "threadgroup uint lds_is_last;" end
    return lines
end

function msl.load_source(ctx, x, y)
    local args = ctx.cfg.array and string.format("uint2(%s, %s), slice", x, y) or string.format("uint2(%s, %s)", x, y)
    return string.format("src_level0.read(%s)%s", args, SWIZZLE[ctx.source_channels])
end

-- A bilinear fetch of level 0 at uv (--sampler linear: texel units, or normalized, --sampler-coords).
function msl.sample_source(ctx, uv)
    local where = ctx.cfg.array and (uv .. ", slice") or uv
    return string.format("src_level0.sample(src_sampler, %s, level(0.0f))%s", where, SWIZZLE[ctx.source_channels])
end

function msl.store_mip(ctx, level, coord, v)
    -- write() takes four components; the texture keeps the ones its format has.
    local widen = ctx.uint and "uint4(%s)" or ({ "float4(%s)", "float4(%s, 0.0f, 1.0f)", nil, "%s" })[ctx.channels]
    -- --half: MSL vector constructors take vectors of their own element type only.
    if ctx.cfg.half and ctx.channels > 1 then v = string.format("float%d(%s)", ctx.channels, v) end
    local value = string.format(widen, v)
    local where = ctx.cfg.array and (coord .. ", slice") or coord
    return string.format("dst_mips[%d].write(%s, %s);", level - 1, value, where)
end

function msl.shuffle(v, lane) return string.format("simd_shuffle(%s, ushort(%s))", v, lane) end
function msl.quad_broadcast(v, i) return string.format("quad_broadcast(%s, ushort(%d))", v, i) end
function msl.barrier() return "threadgroup_barrier(mem_flags::mem_threadgroup);" end
function msl.device_fence()
    return "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);"
end
function msl.atomic_add(result, target, value)
    return string.format("%s = atomic_fetch_add_explicit(&%s, %s, memory_order_relaxed);", result, target, value)
end
function msl.atomic_reset(target)
    return string.format("atomic_store_explicit(&%s, 0u, memory_order_relaxed);", target)
end

-- ---- FFT (templates/fft.lua); the ctx fields are listed in targets/glsl.lua ---------------
-- Buffers: src [[buffer(0)]], dst [[buffer(1)]], params [[buffer(2)]], twiddle_lut
-- [[buffer(3)]]; threadgroup arrays are declared in the kernel.
msl.types.float2 = "float2"
msl.fft_entry_name = "fft_main"

function msl.fft_preamble(ctx) return "#include <metal_stdlib>\nusing namespace metal;" end

function msl.fft_declarations(ctx)
    local lines = { "struct FftParams {" }
    for _, p in ipairs(ctx.push_constants) do lines[#lines + 1] = "    uint " .. p.name .. ";" end
    lines[#lines + 1] = "};"
    return table.concat(lines, "\n")
end

function msl.fft_entry_open(ctx)
    local args = {
        string.format("device const %s* src [[buffer(0)]]", ctx.elements.src),
        string.format("device %s* dst [[buffer(1)]]", ctx.elements.dst),
        "constant FftParams& params [[buffer(2)]]",
    }
    if ctx.lut then args[#args + 1] = "device const float2* twiddle_lut [[buffer(3)]]" end
    args[#args + 1] = "uint t [[thread_index_in_threadgroup]]"
    args[#args + 1] = "uint3 group [[threadgroup_position_in_grid]]"
    return string.format("[[max_total_threads_per_threadgroup(%d)]]\nkernel void fft_main(\n    ", ctx.invocations) ..
        table.concat(args, ",\n    ") .. ")\n{"
end

local FFT_BUFFERS = { [0] = 0, [1] = 1, [2] = 3 }
function msl.fft_binding_label(b) return string.format("[[buffer(%d)]]", FFT_BUFFERS[b.binding]) end

function msl.fft_entry_prologue(ctx)
    local lines = {}
    for _, a in ipairs(ctx.exchange_arrays) do
        lines[#lines + 1] = string.format("threadgroup %s %s[%d];", msl.types[a.type], a.name, ctx.slots)
    end
    return lines
end
function msl.shuffle_xor(v, mask) return string.format("simd_shuffle_xor(%s, ushort(%s))", v, mask) end
function msl.quad_swap(v, mask) return string.format("quad_shuffle_xor(%s, ushort(%d))", v, mask) end
function msl.unpack_half2(u) return string.format("float2(as_type<half2>(%s))", u) end
function msl.pack_half2(v) return string.format("as_type<uint>(half2(%s))", v) end

return msl
