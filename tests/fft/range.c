/* tests/fft/range.c: TAP test that an FFT run whose buffer would pass the device's
 * maxStorageBufferRange is refused, naming the limit. libspdrt binds each storage buffer
 * whole, and a descriptor past that range is invalid: lavapipe (128 MiB) ran such a batch and
 * returned SPDRT_OK, where a driver that enforces its range reads and writes out of bounds. */
#include "common.h"

#include "tap.h"

int main(void) {
    spdrt_options options = {1, NULL, 0};
    spdrt_context *ctx = NULL;
    spdrt_fft_pipeline *fp = NULL;
    spdrt_fft_config cfg;
    spdrt_fft_params p;
    fft_case c = {.n = 4096, .ept = 16, .wg = 256};
    char err[512];
    uint32_t *spirv;
    size_t words, row = 4096 * 2 * sizeof(float);
    uint64_t range;
    float *in, *out;
    spdrt_result r;

    if (!ok(spdrt_create(&options, &ctx, err, sizeof err) == SPDRT_OK, "spdrt_create (%s)", err))
        return tap_plan();
    range = spdrt_device(ctx)->max_storage_buffer_range;
    ok(range >= 134217728u, "maxStorageBufferRange %llu is at least Vulkan's 2^27",
       (unsigned long long)range);
    spirv = fft_generate(&c, "glsl", &cfg, &words);
    if (!ok(spirv && spdrt_fft_pipeline_create(ctx, spirv, words, &cfg, &fp) == SPDRT_OK,
            "the N = 4096 pipeline (%s)", spdrt_last_error(ctx))) {
        spdrt_destroy(ctx);
        return tap_plan();
    }
    /* One row past the range: the host arrays stay untouched (calloc), the run refuses. */
    memset(&p, 0, sizeof p);
    p.count = (uint32_t)(range / row + 1);
    in = calloc((size_t)p.count * row / sizeof(float), sizeof(float));
    out = calloc((size_t)p.count * row / sizeof(float), sizeof(float));
    r = in && out ? spdrt_fft_run(ctx, fp, &p, in, out, NULL) : SPDRT_ERROR_OUT_OF_MEMORY;
    ok(r == SPDRT_ERROR_UNSUPPORTED && (strstr(spdrt_last_error(ctx), "maxStorageBufferRange") ||
                                        strstr(spdrt_last_error(ctx), "largest allocation")),
       "%u rows (%llu bytes, past the range): SPDRT_ERROR_UNSUPPORTED naming the limit (%s)",
       p.count, (unsigned long long)p.count * row, spdrt_last_error(ctx));
    free(in), free(out);
    spdrt_fft_pipeline_destroy(ctx, fp);
    free(spirv);
    ok(spdrt_validation_messages(ctx) == 0, "no validation messages (%u)",
       spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}
