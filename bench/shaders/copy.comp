#version 450
// The floor: a plain copy between two device-local storage buffers, one vec4 per invocation,
// 256 invocations per workgroup. Whatever an SPD moves, it cannot beat a copy of the same
// bytes. The grid may be 2D (one row of workgroups is limited to maxComputeWorkGroupCount[0]),
// so the element index is linearized over it; the tail is bounds-checked.
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform Params {
    uint count;  // vec4 elements in this chunk
} params;

void main() {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint i = group * 256u + gl_LocalInvocationID.x;
    if (i < params.count)
        dst[i] = src[i];
}
