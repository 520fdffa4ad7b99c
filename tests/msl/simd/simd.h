// Stand-in for Apple's <simd/simd.h>, which MSL generators (SPIRV-Cross) include after
// <metal_stdlib>. In MSL it adds nothing the shim does not already provide.
#pragma once
#include <metal_stdlib>
