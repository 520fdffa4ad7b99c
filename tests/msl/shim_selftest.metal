// Self-test of the <metal_stdlib> shim: a mini single-pass downsampler (SPD) kernel
// written the way real MSL is, touching every feature the shim models. It must pass
// tests/msl/check-msl.sh; shim_negative.metal is the same kernel with one mistake.
// (It is a syntax/type check subject, not a correct SPD.)
#include <metal_stdlib>
using namespace metal;

struct SpdParams {
    uint mips;
    uint num_work_groups;
    uint2 work_group_offset;
    float2 inv_input_size;
    uint slice_count;
    uint flags;
};

// Program-scope data lives in the constant address space.
constant float kWeights[4] = {0.25f, 0.25f, 0.25f, 0.25f};
constant float4 kOne = float4(1.0f);
constexpr sampler kLinearClamp(coord::normalized, filter::linear, address::clamp_to_edge);

// 64 threads -> 8x8 tile, with bit tricks (cf. AMD SPD's ARmpRed8x8).
static uint2 remap_8x8(uint a)
{
    uint x = insert_bits(extract_bits(a, 2u, 3u), a, 0u, 1u);
    uint y = insert_bits(extract_bits(a, 3u, 3u), extract_bits(a, 1u, 2u), 0u, 2u);
    return uint2(x, y);
}

static float4 spd_reduce4(float4 v0, float4 v1, float4 v2, float4 v3)
{
    return (v0 + v1 + v2 + v3) * 0.25f;
}

// Reduce a 2x2 quad with quad shuffles (SPD's subgroup path).
static float4 spd_reduce_quad(float4 v)
{
    float4 v1 = quad_shuffle_xor(v, 1);
    float4 v2 = quad_shuffle_xor(v, 2);
    float4 v3 = quad_shuffle_xor(v, 3);
    return spd_reduce4(v, v1, v2, v3);
}

static half4 to_half(float4 v)
{
    return half4(v);
}

static float luminance(thread const float4& c)
{
    return dot(c.rgb, float3(0.2126f, 0.7152f, 0.0722f));
}

kernel void spd_main(texture2d_array<float, access::read> src [[texture(0)]],
                     array<texture2d_array<float, access::write>, 12> dst_mips [[texture(1)]],
                     device atomic_uint* counters [[buffer(0)]],
                     coherent(device) device float4* level6 [[buffer(1)]],
                     constant SpdParams& params [[buffer(2)]],
                     const device float* bias_values [[buffer(3)]],
                     device atomic_int* stats [[buffer(4)]],
                     texture2d_array<float, access::read_write> mip6 [[texture(13)]],
                     texture2d_array<float> src_sampled [[texture(14)]],
                     texture2d<half, access::write> preview [[texture(15)]],
                     uint local_index [[thread_index_in_threadgroup]],
                     uint3 group_id [[threadgroup_position_in_grid]],
                     uint3 local_pos [[thread_position_in_threadgroup]],
                     uint3 global_pos [[thread_position_in_grid]],
                     uint3 group_size [[threads_per_threadgroup]],
                     uint3 group_count [[threadgroups_per_grid]],
                     ushort lane [[thread_index_in_simdgroup]],
                     ushort simd_group [[simdgroup_index_in_threadgroup]],
                     ushort simd_width [[threads_per_simdgroup]])
{
    threadgroup float4 lds[64];
    threadgroup atomic_uint tg_counter;
    threadgroup uint is_last;
    threadgroup uint only_thread0_writes; // shared memory: not "sometimes uninitialized"

    if (local_index == 0)
        only_thread0_writes = group_count.x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (only_thread0_writes == 0)
        return;

    const uint slice = group_id.z;
    const uint2 tile = group_id.xy + params.work_group_offset;
    const uint2 sub = remap_8x8(local_index);
    const uint2 base = tile * 64u + sub * 2u;

    if (local_index == 0) {
        atomic_store_explicit(&tg_counter, 0u, memory_order_relaxed);
        is_last = 0;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    // ---- mip 1: each thread reduces a 2x2 block of the source --------------------
    float4 v0 = src.read(base, slice);
    float4 v1 = src.read(base + uint2(1, 0), slice);
    float4 v2 = src.read(base + uint2(0u, 1u), slice, 0);
    float4 v3 = src.read(uint2(base.x + 1, base.y + 1), slice, 0u);
    float4 m1 = spd_reduce4(v0, v1, v2, v3);
    m1.rgb = max(m1.rgb, float3(0.0f));
    m1.a = clamp(m1.a, 0.0f, 1.0f);
    dst_mips[0].write(m1, tile * 32u + sub, slice);

    // ---- mip 2: quad shuffles ------------------------------------------------------
    float4 m2 = spd_reduce_quad(m1);
    if ((local_index & 3u) == 0) {
        dst_mips[1].write(m2, (tile * 32u + sub) / 2u, slice, 0);
        lds[local_index / 4u] = m2;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);

    // ---- mip 3: through threadgroup memory -----------------------------------------
    if (local_index < 4) {
        const uint i = local_index * 4u;
        float4 m3 = spd_reduce4(lds[i], lds[i + 1], lds[i + 2], lds[i + 3]);
        dst_mips[2].write(m3, tile * 8u + uint2(local_index & 1u, local_index >> 1), slice);
        lds[16 + local_index] = m3;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_texture);

    // ---- SIMD-group functions ---------------------------------------------------------
    float4 sum = simd_sum(m1) / float(simd_width);
    float4 hi = simd_max(m1);
    float lo = simd_min(m1.x);
    float4 sh = simd_shuffle(m1, ushort(lane ^ 1));
    float4 sx = simd_shuffle_xor(m1, ushort(1));
    float up = simd_shuffle_up(m1.x, 1);
    half dn = simd_shuffle_down(half(m1.y), ushort(2));
    int first = simd_broadcast(int(local_index), 0);
    uint qb = quad_broadcast(local_index, 0);
    float4 qs = quad_shuffle(m1, ushort(local_index & 3u));
    half2 qx = quad_shuffle_xor(half2(m1.xy), 2);
    uint ored = simd_or(local_index);
    bool everyone = simd_all(m1.x >= 0.0f);
    uint2 ids = simd_shuffle(uint2(local_index, simd_group), ushort(0));
    int4 iq = quad_broadcast(int4(sub.x, sub.y, -1, 1), ushort(1)) + simd_max(int4(1));
    simdgroup_barrier(mem_flags::mem_none);
    atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_seq_cst, thread_scope_threadgroup);
    atomic_thread_fence(mem_flags::mem_none, memory_order_relaxed, thread_scope_simdgroup);

    // ---- math on floats, halves, integers, booleans ---------------------------------
    float4 acc = sum + hi + sh + sx + qs + float4(lo, up, float(dn), 0.0f);
    acc += float4(float2(qx), float(first), float(qb + ored));
    acc += float4(float2(ids), float2(iq.xy + iq.zw));
    acc = fma(acc, kOne, float4(bias_values[local_index % 4u]));
    acc = mix(acc, float4(kWeights[0]), 0.5f);
    acc.xy = floor(acc.xy) + ceil(acc.zw) * fract(acc.yx);
    acc.z = sqrt(abs(acc.z)) + rsqrt(1.0f + fabs(acc.w));
    acc.w = exp2(log2(1.0f + saturate(acc.w))) + pow(2.0f, 0.5f);
    float c;
    float s = sincos(acc.x, c);
    acc += float4(precise::sin(s), fast::cos(c), fast::sqrt(c * c), precise::exp(0.0f));
    acc = select(acc, float4(0.0f), isnan(acc) || isinf(acc));
    bool4 positive = acc > float4(0.0f);
    if (!all(positive) && any(acc < kOne))
        acc = clamp(acc, float4(-1.0f), float4(1.0f));
    acc.x += length(acc.xyz) + distance(acc.xy, acc.zw) + luminance(acc);
    acc.yzw = normalize(acc.yzw + 1.0f);

    half4 h = to_half(acc) * 0.5h + half4(1.0h, 0.0h, half(acc.z), 1.0h);
    h = min(h, half4(HALF_MAX));
    float4 back = float4(h);
    half hs = dot(h.xy, h.zw);
    float hf = float(hs) + static_cast<float>(h.w);
    acc.w += hf;

    uint bits = as_type<uint>(acc.x);
    float from_bits = as_type<float>(bits & 0x7fffffffu);
    uint2 packed = as_type<uint2>(h);
    int2 signed_pos = int2(global_pos.xy) - int2(group_size.xy);
    uint2 upos = uint2(max(signed_pos, int2(0)));
    ushort2 small = ushort2(upos & 0xffffu);
    uchar4 bytes = uchar4(uint4(clamp(back * 255.0f, 0.0f, 255.0f)));
    short3 sv = short3(1, -2, 3);
    uint pc = popcount(bits) + clz(bits | 1u) + ctz(bits | 0x80000000u) + reverse_bits(local_index);
    uint mixed = select(pc, 0u, local_pos.x > 7u) + max(local_index, 3u) + min(group_count.x, 2u);
    long wide = long(mixed) * 3;
    bool2 b2 = bool2(true, local_index > 3);
    if (b2.y && all(bool3(sv > short3(-5))))
        acc.w += 1.0f;

    // ---- device-scope hand-off (SPD's "last threadgroup continues") -----------------
    if (local_index == 0) {
        level6[slice * 64u + (tile.y * 8u + tile.x) % 64u] = lds[16];
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        uint prev = atomic_fetch_add_explicit(&counters[slice], 1u, memory_order_relaxed);
        is_last = (prev == params.num_work_groups - 1) ? 1u : 0u;
        atomic_fetch_add_explicit(&tg_counter, 1, memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
    if (is_last == 0)
        return;
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst);

    // ---- the last group reduces level 6 -----------------------------------------------
    float4 l6 = level6[slice * 64u + local_index];
    float4 l7 = spd_reduce_quad(l6);
    if (local_index < 64 && params.mips > 6) {
        mip6.write(l7, uint2(local_index % 8u, local_index / 8u), slice);
        mip6.fence();
        float4 again = mip6.read(uint2(local_index % 8u, local_index / 8u), slice);
        dst_mips[6].write(again + acc * 0.0f, uint2(local_index % 8u, local_index / 8u) / 2u, slice);
    }

    // ---- atomics: every operation, device and threadgroup ---------------------------
    uint seen = atomic_load_explicit(&counters[slice], memory_order_relaxed);
    atomic_fetch_sub_explicit(&counters[slice], 1u, memory_order_relaxed);
    atomic_fetch_min_explicit(&tg_counter, seen, memory_order_relaxed);
    atomic_fetch_max_explicit(&tg_counter, seen, memory_order_relaxed);
    atomic_fetch_and_explicit(&tg_counter, 0xffu, memory_order_relaxed);
    atomic_fetch_or_explicit(&tg_counter, 1u, memory_order_relaxed);
    atomic_fetch_xor_explicit(&tg_counter, 2u, memory_order_relaxed);
    uint old = atomic_exchange_explicit(&counters[slice], 0u, memory_order_relaxed);
    uint expected = old;
    bool swapped = atomic_compare_exchange_weak_explicit(&tg_counter, &expected, 7u,
                                                         memory_order_relaxed, memory_order_relaxed);
    atomic_fetch_add_explicit(stats, int(wide), memory_order_relaxed);
    atomic_fetch_min_explicit(stats + 1, -1, memory_order_relaxed);

    // ---- texture queries, sampling, a half texture ------------------------------------
    uint w = dst_mips[5].get_width() + dst_mips[5].get_height(1) + src.get_array_size();
    uint levels = src.get_num_mip_levels();
    float2 uv = (float2(base) + 0.5f) * params.inv_input_size;
    float4 smp = src_sampled.sample(kLinearClamp, uv, slice, level(0.0f));
    smp += src_sampled.sample(kLinearClamp, uv, slice);
    preview.write(half4(smp) + half4(half(w + levels), half(swapped), half(from_bits), 0.0h),
                  ushort2(small), ushort(0));
    preview.write(half4(float4(bytes)) + half4(packed.x & 1u, everyone, 0, 1), upos);
}
