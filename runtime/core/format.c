/* format.c: the storage formats (spdrt_format), their Vulkan names and the texel
 * conversions. The kernels' uploads and read-backs and the CPU references' quantization all
 * go through here, so they cannot disagree. */
#include <math.h>
#include <string.h>

#include "internal.h"

/* What each format is: its Vulkan name, channels and how one channel is stored. */
typedef enum { CHANNEL_F32, CHANNEL_F16, CHANNEL_UNORM8, CHANNEL_U32 } channel_kind;
static const struct {
    const char *name;
    VkFormat vk;
    uint32_t channels;
    channel_kind kind;
} formats[] = {
    [SPDRT_R32F] = {"r32f", VK_FORMAT_R32_SFLOAT, 1, CHANNEL_F32},
    [SPDRT_RGBA32F] = {"rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT, 4, CHANNEL_F32},
    [SPDRT_RGBA16F] = {"rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, 4, CHANNEL_F16},
    [SPDRT_RGBA8] = {"rgba8", VK_FORMAT_R8G8B8A8_UNORM, 4, CHANNEL_UNORM8},
    [SPDRT_R16F] = {"r16f", VK_FORMAT_R16_SFLOAT, 1, CHANNEL_F16},
    [SPDRT_RG16F] = {"rg16f", VK_FORMAT_R16G16_SFLOAT, 2, CHANNEL_F16},
    [SPDRT_RG32F] = {"rg32f", VK_FORMAT_R32G32_SFLOAT, 2, CHANNEL_F32},
    [SPDRT_R32UI] = {"r32ui", VK_FORMAT_R32_UINT, 1, CHANNEL_U32},
};
static const uint32_t channel_bytes[] = {4, 2, 1, 4};

static int known(spdrt_format format) {
    return (unsigned)format < sizeof formats / sizeof *formats;
}

int spdrt_format_by_name(const char *name, spdrt_format *out) {
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(formats[i].name, name) == 0) {
            *out = (spdrt_format)i;
            return 0;
        }
    return -1;
}

uint32_t spdrt_format_channels(spdrt_format format) {
    return known(format) ? formats[format].channels : 0;
}

VkFormat spdrt__format_vk(spdrt_format format) {
    return known(format) ? formats[format].vk : VK_FORMAT_UNDEFINED;
}

const char *spdrt__format_name(spdrt_format format) {
    return known(format) ? formats[format].name : "?";
}

uint32_t spdrt__format_texel_size(spdrt_format format) {
    return known(format) ? formats[format].channels * channel_bytes[formats[format].kind] : 0;
}

int spdrt__format_is_uint(spdrt_format format) {
    return known(format) && formats[format].kind == CHANNEL_U32;
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

/* UINT32: the integer a float holds (negative -> 0, beyond 2^32 - 1 -> 2^32 - 1). */
static uint32_t float_to_u32(float f) {
    if (!(f > 0.0f))
        return 0;
    if (f >= 4294967295.0f)
        return 0xffffffffu;
    return (uint32_t)f;
}

void spdrt__texel_pack(spdrt_format format, const float rgba[4], void *texel) {
    unsigned char *out = texel;
    uint32_t c;
    if (!known(format))
        return;
    for (c = 0; c < formats[format].channels; c++) {
        switch (formats[format].kind) {
        case CHANNEL_F32:
            memcpy(out + 4 * c, &rgba[c], 4);
            break;
        case CHANNEL_F16: {
            uint16_t h = spdrt__float_to_half(rgba[c]);
            memcpy(out + 2 * c, &h, 2);
            break;
        }
        case CHANNEL_UNORM8:
            out[c] = spdrt__float_to_unorm8(rgba[c]);
            break;
        case CHANNEL_U32: {
            uint32_t u = float_to_u32(rgba[c]);
            memcpy(out + 4 * c, &u, 4);
            break;
        }
        }
    }
}

void spdrt__texel_unpack(spdrt_format format, const void *texel, float rgba[4]) {
    const unsigned char *in = texel;
    uint32_t c;
    /* Vulkan's fill for channels a format lacks: (0, 0, 1). */
    rgba[0] = 0.0f, rgba[1] = 0.0f, rgba[2] = 0.0f, rgba[3] = 1.0f;
    if (!known(format))
        return;
    for (c = 0; c < formats[format].channels; c++) {
        switch (formats[format].kind) {
        case CHANNEL_F32:
            memcpy(&rgba[c], in + 4 * c, 4);
            break;
        case CHANNEL_F16: {
            uint16_t h;
            memcpy(&h, in + 2 * c, 2);
            rgba[c] = spdrt__half_to_float(h);
            break;
        }
        case CHANNEL_UNORM8:
            rgba[c] = (float)in[c] / 255.0f;
            break;
        case CHANNEL_U32: {
            uint32_t u;
            memcpy(&u, in + 4 * c, 4);
            rgba[c] = (float)u;
            break;
        }
        }
    }
}
