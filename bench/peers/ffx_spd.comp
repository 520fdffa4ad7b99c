// bench/peers/ffx_spd.comp: FidelityFX SPD 2.0 as spd_bench times it beside spdgen's shaders.
//
// Not part of spdgen. This file is the integration AMD's sample writes for each engine (the
// callbacks ffx_spd.h asks for), spelled for the benchmark's image: a 2D image with every
// level, texel loads (its exact path), a fp32 mean (SpdReduce4), wave operations (quad
// shuffles) on. ffx_a.h and ffx_spd.h themselves are not in this repository:
// bench/peers/README.md says where to get them and how `make bench-peers` compiles this.
//
//   -DFFX_FORMAT=rgba16f|rgba8|r32f   the levels' storage format
//   -DA_HALF                          FidelityFX's packed fp16 path (SpdDownsampleH)
//
// Bindings (kernels.c, bench_ffx_kernel): 0 = levels base .. base+12 (element k is level
// base+k; past the last level the last one repeats, never written), 1 = level base+6 again,
// coherent (the last workgroup reads it after the others wrote it), 2 = the atomic counter.
// Push constants as FidelityFX's: mips (levels written after base), workgroups, offset.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_quad : require

layout(local_size_x = 256) in;

layout(push_constant) uniform SpdConstants {
    uint mips;
    uint numWorkGroups;
    ivec2 workGroupOffset;
} spdConstants;

layout(set = 0, binding = 0, FFX_FORMAT) uniform image2D levels[13];
layout(set = 0, binding = 1, FFX_FORMAT) coherent uniform image2D level6;
layout(std430, set = 0, binding = 2) coherent buffer SpdCounter { uint counter[]; } spdCounter;

#define A_GPU
#define A_GLSL
#include "ffx_a.h"

shared AU1 spdCounterValue;

void SpdIncreaseAtomicCounter(AU1 slice) {
    spdCounterValue = atomicAdd(spdCounter.counter[slice], 1);
}
AU1 SpdGetAtomicCounter() { return spdCounterValue; }
void SpdResetAtomicCounter(AU1 slice) { spdCounter.counter[slice] = 0; }

#ifndef A_HALF
shared AF1 spdIntermediateR[16][16];
shared AF1 spdIntermediateG[16][16];
shared AF1 spdIntermediateB[16][16];
shared AF1 spdIntermediateA[16][16];

AF4 SpdLoadSourceImage(ASU2 p, AU1 slice) { return imageLoad(levels[0], p); }
AF4 SpdLoad(ASU2 p, AU1 slice) { return imageLoad(level6, p); }
void SpdStore(ASU2 p, AF4 value, AU1 mip, AU1 slice) {
    if (mip == 5) {
        imageStore(level6, p, value);
        return;
    }
    imageStore(levels[mip + 1], p, value);
}
AF4 SpdLoadIntermediate(AU1 x, AU1 y) {
    return AF4(spdIntermediateR[x][y], spdIntermediateG[x][y], spdIntermediateB[x][y],
               spdIntermediateA[x][y]);
}
void SpdStoreIntermediate(AU1 x, AU1 y, AF4 value) {
    spdIntermediateR[x][y] = value.x;
    spdIntermediateG[x][y] = value.y;
    spdIntermediateB[x][y] = value.z;
    spdIntermediateA[x][y] = value.w;
}
AF4 SpdReduce4(AF4 v0, AF4 v1, AF4 v2, AF4 v3) { return (v0 + v1 + v2 + v3) * 0.25; }
#else
#define SPD_PACKED_ONLY
shared AH2 spdIntermediateRG[16][16];
shared AH2 spdIntermediateBA[16][16];

AH4 SpdLoadSourceImageH(ASU2 p, AU1 slice) { return AH4(imageLoad(levels[0], p)); }
AH4 SpdLoadH(ASU2 p, AU1 slice) { return AH4(imageLoad(level6, p)); }
void SpdStoreH(ASU2 p, AH4 value, AU1 mip, AU1 slice) {
    if (mip == 5) {
        imageStore(level6, p, AF4(value));
        return;
    }
    imageStore(levels[mip + 1], p, AF4(value));
}
AH4 SpdLoadIntermediateH(AU1 x, AU1 y) {
    return AH4(spdIntermediateRG[x][y].x, spdIntermediateRG[x][y].y, spdIntermediateBA[x][y].x,
               spdIntermediateBA[x][y].y);
}
void SpdStoreIntermediateH(AU1 x, AU1 y, AH4 value) {
    spdIntermediateRG[x][y] = value.xy;
    spdIntermediateBA[x][y] = value.zw;
}
AH4 SpdReduce4H(AH4 v0, AH4 v1, AH4 v2, AH4 v3) { return (v0 + v1 + v2 + v3) * AH1(0.25); }
#endif

#include "ffx_spd.h"

void main() {
#ifndef A_HALF
    SpdDownsample(AU2(gl_WorkGroupID.xy), AU1(gl_LocalInvocationIndex), AU1(spdConstants.mips),
                  AU1(spdConstants.numWorkGroups), 0u, AU2(spdConstants.workGroupOffset));
#else
    SpdDownsampleH(AU2(gl_WorkGroupID.xy), AU1(gl_LocalInvocationIndex), AU1(spdConstants.mips),
                   AU1(spdConstants.numWorkGroups), 0u, AU2(spdConstants.workGroupOffset));
#endif
}
