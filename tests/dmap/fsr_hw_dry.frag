#version 450
// The dry run on devices without VK_KHR_fragment_shading_rate: every pixel is its own
// fragment, 1x1, which the harness must read back as 0 everywhere.
layout(location = 0) out uint rate;
void main()
{
    rate = 0u;
}
