// Runs MSL through the <metal_stdlib> shim on the CPU with the default single-thread
// runtime, and checks that the implementations are real: textures read and write host
// memory level by level, atomics update a plain uint buffer, half converts correctly,
// constructors and conversions produce the MSL values. Used by tests/msl/shim.t:
//   clang++ -std=c++17 -I tests/msl -Wno-unknown-attributes -flax-vector-conversions=none \
//     -Xclang -fnative-half-type -Xclang -fnative-half-arguments-and-returns \
//     tests/msl/shim_runtime_test.cpp && ./a.out
// Standard headers must come before <metal_stdlib> (its keywords are macros).
#include <cstdio>
#include <vector>

#include <metal_stdlib>
using namespace metal;

// ---- MSL code under test ---------------------------------------------------------------
struct Params {
    uint slice;
    float scale;
};

kernel void downsample(texture2d_array<float, access::read> src [[texture(0)]],
                       texture2d_array<half, access::write> dst [[texture(1)]],
                       device atomic_uint* counters [[buffer(0)]],
                       constant Params& params [[buffer(1)]],
                       uint2 pos [[thread_position_in_grid]])
{
    float4 sum = src.read(pos * 2u, params.slice) + src.read(pos * 2u + uint2(1, 0), params.slice) +
                 src.read(pos * 2u + uint2(0, 1), params.slice) + src.read(pos * 2u + uint2(1, 1), params.slice);
    dst.write(half4(sum * 0.25f * params.scale), pos, params.slice, 1);
    dst.write(half4(1.0h), uint2(1000, 0), params.slice); // out of bounds: ignored
    atomic_fetch_add_explicit(&counters[0], 1u, memory_order_relaxed);
    atomic_fetch_max_explicit(&counters[1], pos.x + 10u, memory_order_relaxed);
    atomic_fetch_min_explicit(&counters[2], pos.y + 5u, memory_order_relaxed);
    atomic_fetch_sub_explicit(&counters[3], 2u, memory_order_relaxed);
}

// ---- checks ---------------------------------------------------------------------------
static int failures = 0;
static void check(bool ok, const char* what)
{
    if (!ok) {
        ++failures;
        std::printf("FAIL: %s\n", what);
    }
}
static bool eq4(float4 a, float4 b) { return all(abs(a - b) < float4(1e-3f)); }

int main()
{
    // A 4x4 float texture array with 2 slices and 3 levels, texel (x, y) of slice s = (x, y, s, 1).
    __msl::texture_storage<float> src_mem;
    src_mem.width = 4;
    src_mem.height = 4;
    src_mem.array_size = 2;
    src_mem.mip_levels = 3;
    std::vector<float4> src_texels(src_mem.texel_count());
    check(src_texels.size() == (16 + 4 + 1) * 2, "texel_count covers every level and slice");
    src_mem.texels = src_texels.data();
    for (uint s = 0; s < 2; ++s)
        for (uint y = 0; y < 4; ++y)
            for (uint x = 0; x < 4; ++x)
                *src_mem.at(x, y, s, 0) = float4(float(x), float(y), float(s), 1.0f);

    __msl::texture_storage<half> dst_mem;
    dst_mem.width = 4;
    dst_mem.height = 4;
    dst_mem.array_size = 2;
    dst_mem.mip_levels = 3;
    std::vector<half4> dst_texels(dst_mem.texel_count(), half4(0.0h));
    dst_mem.texels = dst_texels.data();

    texture2d_array<float, access::read> src;
    src.__storage = &src_mem;
    texture2d_array<half, access::write> dst;
    dst.__storage = &dst_mem;

    uint counter_mem[4] = {0, 0, 100, 50};
    device atomic_uint* counters = reinterpret_cast<device atomic_uint*>(counter_mem);
    Params params = {1, 2.0f};

    // The "dispatch": every thread of a 2x2 grid, one after another.
    for (uint y = 0; y < 2; ++y)
        for (uint x = 0; x < 2; ++x)
            downsample(src, dst, counters, params, uint2(x, y));

    // Level 1 of slice 1, texel (1, 0): mean of (2..3, 0..1) = (2.5, 0.5, 1, 1), times 2.
    check(eq4(float4(*dst_mem.at(1, 0, 1, 1)), float4(5.0f, 1.0f, 2.0f, 2.0f)), "texture read/write per level and slice");
    check(eq4(float4(*dst_mem.at(1, 0, 0, 1)), float4(0.0f)), "other slice untouched");
    check(counter_mem[0] == 4 && counter_mem[1] == 11 && counter_mem[2] == 5 && counter_mem[3] == 42,
          "atomics on a uint buffer viewed as device atomic_uint*");
    check(src.get_width() == 4 && src.get_width(1) == 2 && src.get_height(2) == 1 &&
              src.get_array_size() == 2 && src.get_num_mip_levels() == 3 && src.get_width(3) == 0,
          "texture queries");
    check(eq4(src.read(uint2(9, 0), 0), float4(0.0f)) && eq4(src.read(uint2(0, 0), 5), float4(0.0f)) &&
              eq4(src.read(uint2(0, 0), 0, 7), float4(0.0f)),
          "out-of-bounds reads return zero");

    // Sampling: bilinear halfway between texel 0 (x = 0) and texel 1 (x = 1) of row 0.
    texture2d_array<float> sampled;
    sampled.__storage = &src_mem;
    constexpr sampler lin(filter::linear, coord::pixel, address::clamp_to_edge);
    check(eq4(sampled.sample(lin, float2(1.0f, 0.5f), 0, level(0.0f)), float4(0.5f, 0.0f, 0.0f, 1.0f)),
          "bilinear sample");

    // half.
    half h = half(1.5f) + 0.25h;
    check(float(h) == 1.75f && sizeof(h + h) == 2, "half arithmetic stays half");
    check(float(half(65504.0f)) == 65504.0f && float(half(1e-8f)) == 0.0f && float(half(1e-7f)) == 0x1p-23f && float(half(0.1f)) > 0.0999f &&
              float(half(0.1f)) < 0.1001f && float(half(-2.0f)) == -2.0f,
          "float <-> half conversions");
    check(isinf(half(1e6f)) && isnan(half(NAN)), "half infinity and NaN");

    // Constructors and conversions.
    float4 v = float4(float2(1.0f, 2.0f), 3, 4.0);
    check(v.x == 1 && v.y == 2 && v.z == 3 && v.w == 4, "float4(float2, scalar, scalar)");
    check(all(int2(float2(1.7f, -1.7f)) == int2(1, -1)), "int2(float2) truncates");
    check(all(float2(int2(3, -4)) == float2(3.0f, -4.0f)), "float2(int2) converts values");
    check(all(uint2(5u) == uint2(5, 5)) && all(float3() == float3(0.0f)), "splat and zero");
    check(as_type<uint>(1.0f) == 0x3f800000u && as_type<float>(0x40000000u) == 2.0f, "as_type");
    bool4 m = float4(1, 2, 3, 4) > float4(2.0f);
    check(!m.x && !m.y && m.z && m.w && any(m) && !all(m), "comparison mask to bool4");

    // Math.
    check(eq4(select(float4(1.0f), float4(2.0f), m), float4(1, 1, 2, 2)), "select");
    check(fract(-0.25f) == 0.75f && clamp(5.0f, 0.0f, 1.0f) == 1.0f && mix(2.0f, 4.0f, 0.25f) == 2.5f,
          "fract clamp mix");
    check(eq4(clamp(float4(-1, 0.5f, 2, 3), 0.0f, 1.0f), float4(0, 0.5f, 1, 1)), "clamp(vector, scalar, scalar)");
    check(popcount(0xF0F0u) == 8u && clz(1u) == 31u && ctz(8u) == 3u && reverse_bits(1u) == 0x80000000u,
          "bit counting");
    check(extract_bits(0xF0, 4u, 4u) == -1 && extract_bits(0xF0u, 4u, 4u) == 15u &&
              insert_bits(0u, 0xFu, 8u, 4u) == 0xF00u,
          "extract_bits / insert_bits");
    check(mulhi(0x80000000u, 4u) == 2u && abs(-3) == 3 && min(2u, 3u) == 2u, "integer functions");
    check(dot(float3(1, 2, 3), float3(4, 5, 6)) == 32.0f && length(float2(3, 4)) == 5.0f, "geometry");
    float c;
    float s = sincos(0.0f, c);
    check(s == 0.0f && c == 1.0f, "sincos");

    // Single-thread SIMD semantics.
    check(simd_shuffle(7, 3) == 7 && simd_sum(5.0f) == 5.0f && quad_broadcast(float2(1, 2), 2).y == 2.0f &&
              simd_prefix_exclusive_sum(3u) == 0u && simd_is_first() && simd_all(true),
          "single-thread SIMD-group functions");

    if (failures == 0)
        std::printf("all shim runtime checks passed\n");
    return failures == 0 ? 0 : 1;
}
