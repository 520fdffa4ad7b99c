/* tests/runtime/mismatch.c: TAP test that libspdrt refuses a SPIR-V module that does not fit
 * the kernel it is given to, naming what differs, instead of handing it to the driver (where
 * an SPD run of a density-map module crashed lavapipe, and one of an FFT module ran on the
 * wrong data and returned SPDRT_OK). Modules from the folder given (mismatch.t writes them):
 * spd.spv (--spd --op mean --format rgba32f), dmap.spv (--dmap fsr --texel 16 --foveation off
 * --content), gaze.spv (--dmap fsr --texel 16 --foveation gaze), fdm.spv (--dmap fdm --texel 32
 * --foveation off --content) and fft.spv (--fft 256).
 * Both ways in: libspdrt's own runs, and the recording API on an application's device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"  /* the context's VkDevice, for the recording API */
#include "spdrt_dmap.h"
#include "spdrt_vk.h"

#include "tap.h"

typedef struct {
    uint32_t *words;
    size_t count;
} module;

static module read_module(const char *dir, const char *name) {
    char path[4096];
    module m = {NULL, 0};
    FILE *f;
    long bytes;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) || (bytes = ftell(f)) <= 0 || bytes % 4 ||
        fseek(f, 0, SEEK_SET)) {
        if (f) fclose(f);
        return m;
    }
    m.words = malloc((size_t)bytes);
    if (m.words && fread(m.words, 1, (size_t)bytes, f) == (size_t)bytes)
        m.count = (size_t)bytes / 4;
    fclose(f);
    return m;
}

/* The word index of the first instruction with opcode `op` whose word `at` is `value`, or 0. */
static size_t find(const module *m, uint32_t op, size_t at, uint32_t value) {
    size_t i, len;
    for (i = 5; i < m->count; i += len) {
        len = m->words[i] >> 16;
        if (!len) break;
        if ((m->words[i] & 0xffffu) == op && at < len && m->words[i + at] == value) return i;
    }
    return 0;
}

static const float *source(void) {
    static float src[64 * 64 * 4];
    size_t i;
    for (i = 0; i < sizeof src / sizeof src[0]; i++)
        src[i] = (float)(i % 17) / 16.0f;
    return src;
}

static spdrt_result spd_run_as(spdrt_context *ctx, const module *m, spdrt_format format) {
    spdrt_spd_params p = {.width = 64, .height = 64, .layers = 1, .mips_bound = 12,
                          .format = format, .dispatches = 1, .sentinel = -1.0f};
    spdrt_spd_levels out;
    spdrt_result r = spdrt_spd_run(ctx, m->words, m->count, &p, source(), &out);
    if (r == SPDRT_OK) spdrt_spd_levels_free(&out);
    return r;
}

static spdrt_result spd_run(spdrt_context *ctx, const module *m) {
    return spd_run_as(ctx, m, SPDRT_RGBA32F);
}

static spdrt_result dmap_run(spdrt_context *ctx, const module *m, const spdrt_dmap_gen_config *c) {
    static float colour[64 * 64 * 4], motion[64 * 64 * 2];
    static uint8_t map[64 * 64 * 2];
    spdrt_dmap_gen_params p;
    spdrt_dmap_gen_defaults(c, 64, 64, &p);
    return spdrt_dmap_gen_run(ctx, m->words, m->count, c, &p, colour, motion, 1, map, NULL);
}

/* A refusal: SPDRT_ERROR_ARGUMENT whose message holds both words. */
static int refused(spdrt_context *ctx, spdrt_result r, const char *a, const char *b) {
    const char *e = spdrt_last_error(ctx);
    return r == SPDRT_ERROR_ARGUMENT && strstr(e, a) && strstr(e, b);
}

int main(int argc, char **argv) {
    spdrt_options o = {1, NULL, 0};
    spdrt_context *ctx = NULL;
    char err[512];
    module spd, dmap, gaze, fdm, fft, bad;
    spdrt_dmap_gen_config content = {SPDRT_DMAP_FSR, 16, 1, SPDRT_DMAP_FOVEATION_OFF, 1, 0, 4,
                                     0, 0};
    spdrt_dmap_gen_config plain = content;
    spdrt_fft_config fc = {.n = 256, .wg = 64};
    spdrt_fft_pipeline *fp = NULL;
    spdrt_result r;
    size_t at;
    plain.content = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: mismatch DIR (mismatch.t writes the modules)\n");
        return 2;
    }
    spd = read_module(argv[1], "spd.spv");
    dmap = read_module(argv[1], "dmap.spv");
    gaze = read_module(argv[1], "gaze.spv");
    fdm = read_module(argv[1], "fdm.spv");
    fft = read_module(argv[1], "fft.spv");
    if (!ok(spd.count && dmap.count && gaze.count && fdm.count && fft.count,
            "the five modules read"))
        return tap_plan();
    if (!ok(spdrt_create(&o, &ctx, err, sizeof err) == SPDRT_OK, "spdrt_create (%s)", err))
        return tap_plan();

    ok(spd_run(ctx, &spd) == SPDRT_OK, "control: the SPD module runs as an SPD (%s)",
       spdrt_last_error(ctx));
    ok(dmap_run(ctx, &dmap, &content) == SPDRT_OK,
       "control: the density-map module runs as a density map (%s)", spdrt_last_error(ctx));

    r = spd_run(ctx, &dmap);
    ok(refused(ctx, r, "binding 2", "layout"),
       "a density-map module as an SPD: refused, naming the binding (%s)", spdrt_last_error(ctx));
    r = spd_run(ctx, &fft);
    ok(refused(ctx, r, "binding 0", "storage buffer"),
       "an FFT module as an SPD: refused, naming the binding (%s)", spdrt_last_error(ctx));
    r = spdrt_fft_pipeline_create(ctx, spd.words, spd.count, &fc, &fp);
    ok(refused(ctx, r, "binding", "layout") && fp == NULL,
       "an SPD module as an FFT: refused (%s)", spdrt_last_error(ctx));
    if (fp) spdrt_fft_pipeline_destroy(ctx, fp);
    r = dmap_run(ctx, &spd, &content);
    ok(refused(ctx, r, "binding", "layout"), "an SPD module as a density map: refused (%s)",
       spdrt_last_error(ctx));
    r = dmap_run(ctx, &dmap, &plain);
    ok(refused(ctx, r, "sampled image at binding", "bindings 0..0"),
       "a --content module run without --content: refused (%s)", spdrt_last_error(ctx));
    r = dmap_run(ctx, &gaze, &plain);
    ok(refused(ctx, r, "push constants take 32 bytes", "has 12"),
       "a --foveation gaze module run as --foveation off: its push constants refused (%s)",
       spdrt_last_error(ctx));

    /* The same kernel, another storage format. */
    r = spd_run_as(ctx, &spd, SPDRT_R32F);
    ok(refused(ctx, r, "rgba32f in the shader", "r32f in the run"),
       "an rgba32f SPD module run on r32f levels: refused, naming both formats (%s)",
       spdrt_last_error(ctx));
    {
        spdrt_dmap_gen_config fsr_config = content;
        fsr_config.texel = 32;
        r = dmap_run(ctx, &fdm, &fsr_config);
        ok(refused(ctx, r, "rg8 in the shader", "r8ui in the run"),
           "a density-map (rg8) module run as a shading-rate attachment (r8ui): refused (%s)",
           spdrt_last_error(ctx));
    }

    /* The recording API (spdrt_vk.h), on the context's device as an application's. */
    {
        spdrt_spd_kernel_info si;
        spdrt_fft_kernel_info fi;
        spdrt_spd_kernel *sk = NULL;
        spdrt_fft_kernel *fk = NULL;
        memset(&si, 0, sizeof si);
        si.device = ctx->device;
        si.spirv = fft.words;
        si.spirv_words = fft.count;
        si.shader.mips_bound = 12;
        si.shader.format = SPDRT_RGBA32F;
        r = spdrt_spd_kernel_create(&si, &sk, err, sizeof err);
        ok(r == SPDRT_ERROR_ARGUMENT && !sk && strstr(err, "binding 0") && strstr(err, "layout"),
           "spdrt_spd_kernel_create with an FFT module: refused, naming the binding (%s)", err);
        spdrt_spd_kernel_destroy(sk);
        memset(&fi, 0, sizeof fi);
        fi.device = ctx->device;
        fi.spirv = spd.words;
        fi.spirv_words = spd.count;
        fi.config = fc;
        r = spdrt_fft_kernel_create(&fi, &fk, err, sizeof err);
        ok(r == SPDRT_ERROR_ARGUMENT && !fk && strstr(err, "binding") && strstr(err, "layout"),
           "spdrt_fft_kernel_create with an SPD module: refused (%s)", err);
        spdrt_fft_kernel_destroy(fk);
    }

    /* Damaged copies of the SPD module. */
    bad.count = spd.count;
    bad.words = malloc(spd.count * 4);
    memcpy(bad.words, spd.words, spd.count * 4);
    at = find(&bad, 15, 3, 0x6e69616du);   /* OpEntryPoint ... "main" */
    if (at) bad.words[at + 3] = 0x6e69616eu;   /* "nain" */
    r = spd_run(ctx, &bad);
    ok(at && refused(ctx, r, "entry point", "main"), "no entry point \"main\": refused (%s)",
       spdrt_last_error(ctx));

    memcpy(bad.words, spd.words, spd.count * 4);
    bad.words[5] = (bad.words[5] & 0xffffu) | ((uint32_t)(spd.count + 1) << 16);
    r = spd_run(ctx, &bad);
    ok(refused(ctx, r, "damaged", "past its end"),
       "an instruction running past the module's end: refused (%s)", spdrt_last_error(ctx));

    memcpy(bad.words, spd.words, spd.count * 4);
    at = find(&bad, 71, 2, 34);             /* the first OpDecorate ... DescriptorSet */
    if (at) bad.words[at + 3] = 1;
    r = spd_run(ctx, &bad);
    ok(at && refused(ctx, r, "descriptor set 1", "set 0 only"),
       "a descriptor in set 1: refused (%s)", spdrt_last_error(ctx));

    ok(spdrt_validation_messages(ctx) == 0, "no validation messages (%u)",
       spdrt_validation_messages(ctx));
    free(bad.words);
    free(spd.words), free(dmap.words), free(gaze.words), free(fdm.words), free(fft.words);
    spdrt_destroy(ctx);
    return tap_plan();
}
