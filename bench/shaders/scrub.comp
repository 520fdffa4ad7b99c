#version 450
// The harness's scrub and heat: one pass over a large device-local buffer (bench/gpu.h).
// Each invocation touches ITEMS 16-byte elements, coalesced as in copy.comp.
//   mode 0, read:  loads every element and stores nothing (the loads feed a comparison with
//                  `never`, a pattern the buffer does not hold). It leaves the caches full
//                  of CLEAN lines of this buffer: the next timed work evicts them for free.
//   mode 1, write: stores every element. It leaves the caches full of DIRTY lines, whose
//                  write-back the next timed work pays for (kept to show that difference).
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define ITEMS 4u

layout(set = 0, binding = 0, std430) buffer Buf { uvec4 data[]; };
layout(push_constant) uniform Params {
    uint count;  // elements in this chunk
    uint mode;   // 0 read, 1 write
    uint seed;   // written values (write mode)
    uint never;  // a pattern the buffer does not hold (read mode)
} params;

void main() {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint base = group * (256u * ITEMS) + gl_LocalInvocationID.x;
    if (params.mode == 0u) {
        uvec4 acc = uvec4(0u);
        for (uint j = 0u; j < ITEMS; j++) {
            uint i = base + 256u * j;
            if (i < params.count)
                acc += data[i];
        }
        if (all(equal(acc, uvec4(params.never))))
            data[base % params.count] = acc;
    } else {
        for (uint j = 0u; j < ITEMS; j++) {
            uint i = base + 256u * j;
            if (i < params.count)
                data[i] = uvec4(params.seed + i);
        }
    }
}
