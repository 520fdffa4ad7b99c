#version 450
// The floor: a streaming copy between two device-local storage buffers. Each invocation
// moves ITEMS 16-byte elements, all loads first and then all stores (ITEMS independent
// loads in flight per invocation), coalesced: the 256 invocations of a workgroup cover
// 256 * ITEMS consecutive elements, element j of invocation l at base + l + 256 * j.
//
// Two shapes, one kernel (push constants, counts in 16-byte elements, writes <= reads):
//   copy:   reads = writes = N          (the floor: N*16 bytes read, N*16 written)
//   shaped: reads = R, writes = W < R   (reads R*16 bytes, writes the first W*16 of them:
//                                        an SPD's shape, level 0 read and the mips written)
// Elements read but not written feed a comparison with `never`, a pattern the data does
// not hold, so the loads cannot be removed and nothing is stored for them. uvec4, not vec4:
// the bits are copied as they are (no float canonicalization).
//
// The grid may be 2D (one row of workgroups is limited to maxComputeWorkGroupCount[0]), so
// the workgroup index is linearized over it; every element is bounds-checked.
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define ITEMS 4u

layout(set = 0, binding = 0, std430) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uvec4 dst[]; };
layout(push_constant) uniform Params {
    uint reads;   // elements read in this chunk
    uint writes;  // elements written in this chunk (<= reads)
    uint never;   // a pattern no element holds
} params;

void main() {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint base = group * (256u * ITEMS) + gl_LocalInvocationID.x;
    uvec4 v[ITEMS];
    for (uint j = 0u; j < ITEMS; j++) {
        uint i = base + 256u * j;
        v[j] = i < params.reads ? src[i] : uvec4(0u);
    }
    for (uint j = 0u; j < ITEMS; j++) {
        uint i = base + 256u * j;
        if (i < params.writes)
            dst[i] = v[j];
        else if (i < params.reads && all(equal(v[j], uvec4(params.never))))
            dst[0] = v[j];
    }
}
