// app.cpp: the outside C++ program of tests/package/install.t: every installed header in a
// C++ translation unit, libspdrt's C API and the generated contract header.
#include <spdgen/spd_ref.h>
#include <spdgen/spdrt.h>
#include <spdgen/spdrt_fft.h>
#include <spdgen/spdrt_spd.h>

#include <cstdio>
#include <vector>

#include "hiz.h"

int main()
{
    spdrt_fft_config fft = {};
    spdrt_fft_params params = {};
    fft.n = 1024;
    fft.wg = 64;
    params.count = 3;
    std::vector<uint32_t> spirv(hiz_spirv, hiz_spirv + HIZ_SPIRV_WORDS);
    std::printf("c++ %zu %u %u %d\n", spdrt_fft_input_floats(&fft, &params),
                spdrt_spd_mip_count(1920, 1080, 12), hiz_mip_count(1920, 1080),
                spirv.front() == 0x07230203u);
    return 0;
}
