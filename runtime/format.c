/* format.c: the four storage formats an SPD shader writes, their Vulkan names and the
 * texel conversions. The GPU upload/readback (spd_run.c) and the CPU reference's
 * quantization (spd_ref.c) both go through here, so they cannot disagree. */
#include <math.h>
#include <string.h>

#include "internal.h"

uint32_t spdrt_format_channels(spdrt_format format) {
    return format == SPDRT_R32F ? 1 : 4;
}

VkFormat spdrt__format_vk(spdrt_format format) {
    switch (format) {
    case SPDRT_R32F: return VK_FORMAT_R32_SFLOAT;
    case SPDRT_RGBA32F: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case SPDRT_RGBA16F: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case SPDRT_RGBA8: return VK_FORMAT_R8G8B8A8_UNORM;
    }
    return VK_FORMAT_UNDEFINED;
}

const char *spdrt__format_name(spdrt_format format) {
    switch (format) {
    case SPDRT_R32F: return "r32f";
    case SPDRT_RGBA32F: return "rgba32f";
    case SPDRT_RGBA16F: return "rgba16f";
    case SPDRT_RGBA8: return "rgba8";
    }
    return "?";
}

uint32_t spdrt__format_texel_size(spdrt_format format) {
    switch (format) {
    case SPDRT_R32F: return 4;
    case SPDRT_RGBA32F: return 16;
    case SPDRT_RGBA16F: return 8;
    case SPDRT_RGBA8: return 4;
    }
    return 0;
}

/* IEEE binary32 -> binary16, round to nearest even. Rounding is done on the integer
 * mantissa so no double rounding can creep in; a carry out of the mantissa correctly
 * bumps the exponent (and turns 65520 and above into infinity). */
uint16_t spdrt__float_to_half(float f) {
    uint32_t x, man, exp, h, rem, halfway;
    uint16_t sign;
    int e, shift;
    memcpy(&x, &f, sizeof x);
    sign = (uint16_t)((x >> 16) & 0x8000u);
    exp = (x >> 23) & 0xffu;
    man = x & 0x7fffffu;
    if (exp == 0xffu)  /* inf stays inf; NaN stays a (quiet) NaN */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {  /* half subnormal (or zero): value = m * 2^-24 after the shift */
        if (e < -10)  /* below 2^-25 (float subnormals included): rounds to zero */
            return sign;
        man |= 0x800000u;  /* the implicit leading one */
        shift = 14 - e;
        h = man >> shift;
        rem = man & ((1u << shift) - 1u);
        halfway = 1u << (shift - 1);
    } else {
        h = ((uint32_t)e << 10) | (man >> 13);
        rem = man & 0x1fffu;
        halfway = 0x1000u;
    }
    if (rem > halfway || (rem == halfway && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

float spdrt__half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    float f;
    if (exp == 0) {  /* zero or subnormal: exact in float */
        f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        x = sign | 0x7f800000u | (man << 13);
    else
        x = sign | ((exp + 112u) << 23) | (man << 13);
    memcpy(&f, &x, sizeof f);
    return f;
}

/* UNORM8: clamp to [0, 1] (NaN -> 0, as Vulkan converts it), then round(v * 255), computed
 * in double so v * 255 is exact before rounding. */
uint8_t spdrt__float_to_unorm8(float f) {
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint8_t)floor((double)f * 255.0 + 0.5);
}

void spdrt__texel_pack(spdrt_format format, const float rgba[4], void *texel) {
    int c;
    switch (format) {
    case SPDRT_R32F:
        memcpy(texel, rgba, sizeof(float));
        break;
    case SPDRT_RGBA32F:
        memcpy(texel, rgba, 4 * sizeof(float));
        break;
    case SPDRT_RGBA16F: {
        uint16_t h[4];
        for (c = 0; c < 4; c++)
            h[c] = spdrt__float_to_half(rgba[c]);
        memcpy(texel, h, sizeof h);
        break;
    }
    case SPDRT_RGBA8: {
        uint8_t *b = texel;
        for (c = 0; c < 4; c++)
            b[c] = spdrt__float_to_unorm8(rgba[c]);
        break;
    }
    }
}

void spdrt__texel_unpack(spdrt_format format, const void *texel, float rgba[4]) {
    int c;
    switch (format) {
    case SPDRT_R32F:
        memcpy(rgba, texel, sizeof(float));
        rgba[1] = 0.0f, rgba[2] = 0.0f, rgba[3] = 1.0f;  /* Vulkan's fill for absent channels */
        break;
    case SPDRT_RGBA32F:
        memcpy(rgba, texel, 4 * sizeof(float));
        break;
    case SPDRT_RGBA16F: {
        uint16_t h[4];
        memcpy(h, texel, sizeof h);
        for (c = 0; c < 4; c++)
            rgba[c] = spdrt__half_to_float(h[c]);
        break;
    }
    case SPDRT_RGBA8: {
        const uint8_t *b = texel;
        for (c = 0; c < 4; c++)
            rgba[c] = (float)b[c] / 255.0f;
        break;
    }
    }
}
