#version 450
#extension GL_EXT_fragment_shading_rate : require
// Records the fragment's shading rate: (log2 w << 2) | log2 h, the attachment's encoding.
layout(location = 0) out uint rate;
void main()
{
    rate = uint(gl_ShadingRateEXT);
}
