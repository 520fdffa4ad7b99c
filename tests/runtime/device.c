/* tests/runtime/device.c: TAP test of libspdrt's context on the local Vulkan device, with the
 * validation layer on: creation, device facts, device choice through SPDGEN_DEVICE, the
 * mip count of the contract and the argument checks of spdrt_spd_run that need no shader.
 * The SPD runs themselves are tested with generated shaders elsewhere. */
#define _POSIX_C_SOURCE 200112L  /* setenv */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spdrt.h"

#include "tap.h"

static int pow2(uint32_t v) {
    return v && !(v & (v - 1));
}

/* The contract: min(mips_bound, floor(log2(max(w, h)))), with the log by its definition:
 * the largest k with 2^k <= max(w, h). */
static uint32_t expected_mips(uint32_t w, uint32_t h, uint32_t bound) {
    uint64_t m = w > h ? w : h;
    uint32_t k = 0;
    if (m == 0)
        return 0;
    while ((2ull << k) <= m)
        k++;
    return k < bound ? k : bound;
}

static void test_mip_count(void) {
    static const uint32_t sizes[] = {0, 1, 2, 3, 4, 63, 64, 65, 127, 128, 1000, 4095, 4096,
                                     4097, 65535, 65536, 0xffffffffu};
    static const uint32_t bounds[] = {0, 1, 6, 12, 13, 32};
    size_t a, b, c, bad = 0, n = 0;
    for (a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
        for (b = 0; b < sizeof sizes / sizeof sizes[0]; b++)
            for (c = 0; c < sizeof bounds / sizeof bounds[0]; c++, n++) {
                uint32_t got = spdrt_spd_mip_count(sizes[a], sizes[b], bounds[c]);
                uint32_t want = expected_mips(sizes[a], sizes[b], bounds[c]);
                if (got != want && bad++ < 5)
                    printf("# mip_count(%u, %u, %u) = %u, want %u\n", sizes[a], sizes[b],
                           bounds[c], got, want);
            }
    ok(bad == 0, "spdrt_spd_mip_count on %zu cases = min(bound, floor(log2(max(w, h))))", n);
}

/* Creates a context (validated too) choosing the device through SPDGEN_DEVICE (NULL:
 * unset). */
static spdrt_result create_with_env(const char *value, spdrt_context **ctx, char *err,
                                    size_t size) {
    spdrt_options o = {1, NULL, 0};
    if (value)
        setenv("SPDGEN_DEVICE", value, 1);
    else
        unsetenv("SPDGEN_DEVICE");
    return spdrt_create(&o, ctx, err, size);
}

static void test_device_choice(const spdrt_device_info *info) {
    char err[1024], name[8], saved[256] = "";
    const char *old = getenv("SPDGEN_DEVICE");
    spdrt_context *other = (spdrt_context *)&err;  /* must be reset to NULL on failure */
    spdrt_options by_option = {1, "no-such-device-xyz", 0};
    spdrt_result r;
    size_t i;
    int had = old != NULL;
    if (had)
        snprintf(saved, sizeof saved, "%s", old);

    r = create_with_env("no-such-device-xyz", &other, err, sizeof err);
    ok(r == SPDRT_ERROR_NO_DEVICE && other == NULL && strstr(err, "no-such-device-xyz") &&
           strstr(err, "SPDGEN_DEVICE"),
       "SPDGEN_DEVICE=no-such-device-xyz: SPDRT_ERROR_NO_DEVICE naming the value (%s)", err);
    if (other)
        spdrt_destroy(other);

    r = create_with_env("999", &other, err, sizeof err);
    ok(r == SPDRT_ERROR_NO_DEVICE && other == NULL && strstr(err, "999"),
       "SPDGEN_DEVICE=999 (no such index): SPDRT_ERROR_NO_DEVICE (%s)", err);
    if (other)
        spdrt_destroy(other);

    unsetenv("SPDGEN_DEVICE");
    err[0] = '\0';
    r = spdrt_create(&by_option, NULL, err, sizeof err);
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(err, "out"), "spdrt_create without out: SPDRT_ERROR_ARGUMENT (%s)", err);
    r = spdrt_create(&by_option, &other, err, sizeof err);
    ok(r == SPDRT_ERROR_NO_DEVICE && other == NULL && strstr(err, "no-such-device-xyz"),
       "options.device = no-such-device-xyz: SPDRT_ERROR_NO_DEVICE naming the value");
    if (other)
        spdrt_destroy(other);

    /* The chosen device's own name, first letters in swapped case, picks it again. */
    for (i = 0; i + 1 < sizeof name && info->name[i]; i++) {
        int ch = (unsigned char)info->name[i];
        name[i] = (char)(isupper(ch) ? tolower(ch) : toupper(ch));
    }
    name[i] = '\0';
    r = create_with_env(name, &other, err, sizeof err);
    ok(r == SPDRT_OK && other && strcmp(spdrt_device(other)->name, info->name) == 0 &&
           spdrt_validation_messages(other) == 0,
       "SPDGEN_DEVICE=%s (name substring, any case) picks \"%s\"", name, info->name);
    if (other)
        spdrt_destroy(other);

    r = create_with_env("0", &other, err, sizeof err);
    ok(r == SPDRT_OK && other != NULL && spdrt_validation_messages(other) == 0,
       "SPDGEN_DEVICE=0 (an index) creates a context");
    if (other)
        spdrt_destroy(other);

    if (had)
        setenv("SPDGEN_DEVICE", saved, 1);
    else
        unsetenv("SPDGEN_DEVICE");
}

/* spdrt_spd_run's checks that come before any shader is needed. */
static void test_run_arguments(spdrt_context *ctx) {
    /* A SPIR-V header and nothing else: enough for the paths that never build it. */
    static const uint32_t header[5] = {0x07230203u, 0x00010300u, 0, 1, 0};
    static const uint32_t junk[5] = {0xdeadbeefu, 0, 0, 1, 0};
    float src[2 * 2 * 2 * 4] = {0};
    spdrt_spd_params p = {.width = 1, .height = 1, .layers = 1, .mips_bound = 12,
                          .format = SPDRT_RGBA32F, .dispatches = 1, .sentinel = -1.0f};
    spdrt_spd_levels out;
    spdrt_result r;

    r = spdrt_spd_run(ctx, header, 5, &p, src, &out);
    ok(r == SPDRT_OK && out.mip_count == 0 && out.width[0] == 1 && out.height[0] == 1 &&
           out.layers == 1 && out.level[1] == NULL && out.gpu_ms < 0,
       "1x1 source: nothing to do, SPDRT_OK with an empty result");
    spdrt_spd_levels_free(&out);

    p.width = p.height = 2, p.layers = 2;
    r = spdrt_spd_run(ctx, header, 5, &p, src, &out);
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "layers"),
       "2 layers for a non-array shader: SPDRT_ERROR_ARGUMENT (%s)", spdrt_last_error(ctx));

    p.layers = 1, p.dispatches = 0;
    r = spdrt_spd_run(ctx, header, 5, &p, src, &out);
    ok(r == SPDRT_ERROR_ARGUMENT, "0 dispatches: SPDRT_ERROR_ARGUMENT");

    p.dispatches = 1;
    r = spdrt_spd_run(ctx, junk, 5, &p, src, &out);
    ok(r == SPDRT_ERROR_ARGUMENT && strstr(spdrt_last_error(ctx), "SPIR-V") &&
           out.level[1] == NULL,
       "not SPIR-V: SPDRT_ERROR_ARGUMENT (%s)", spdrt_last_error(ctx));

    p.subgroup = 3;
    r = spdrt_spd_run(ctx, header, 5, &p, src, &out);
    ok(r == SPDRT_ERROR_ARGUMENT, "subgroup 3 (not a power of two): SPDRT_ERROR_ARGUMENT");

    p.subgroup = 4096;
    r = spdrt_spd_run(ctx, header, 5, &p, src, &out);
    ok(r == SPDRT_ERROR_UNSUPPORTED && strstr(spdrt_last_error(ctx), "4096"),
       "subgroup 4096: SPDRT_ERROR_UNSUPPORTED (%s)", spdrt_last_error(ctx));
}

int main(void) {
    spdrt_options o = {1, NULL, 0};
    spdrt_context *ctx = NULL;
    const spdrt_device_info *info;
    char err[1024] = "";
    spdrt_result r = spdrt_create(&o, &ctx, err, sizeof err);
    if (r == SPDRT_ERROR_NO_DEVICE) {
        printf("1..0 # SKIP no Vulkan device: %s\n", err);
        return 0;
    }
    if (!ok(r == SPDRT_OK && ctx, "spdrt_create with validation")) {
        printf("# %s\n", err);
        printf("1..%d\n", tap_tests);
        return 1;
    }
    info = spdrt_device(ctx);
    printf("# device: %s, driver %s, subgroup %u (%u..%u, size control %s), shared %u, "
           "timestamp %g ns\n", info->name, info->driver, info->subgroup_size,
           info->min_subgroup_size, info->max_subgroup_size,
           info->subgroup_size_control ? "yes" : "no", info->max_shared_memory,
           info->timestamp_period_ns);
    ok(info->name[0] && info->driver[0], "device and driver have names");
    ok(info->api_version >= ((1u << 22) | (1u << 12)), "device supports Vulkan 1.1 or later");
    ok(pow2(info->subgroup_size), "subgroup size %u is a power of two", info->subgroup_size);
    ok(pow2(info->min_subgroup_size) && pow2(info->max_subgroup_size) &&
           info->min_subgroup_size <= info->subgroup_size &&
           info->subgroup_size <= info->max_subgroup_size &&
           (info->subgroup_size_control ||
            info->min_subgroup_size == info->max_subgroup_size),
       "subgroup range %u..%u holds the default size", info->min_subgroup_size,
       info->max_subgroup_size);
    ok(info->max_shared_memory >= 16384, "shared memory %u >= 16384 (Vulkan's minimum)",
       info->max_shared_memory);
    ok(info->timestamp_period_ns >= 0, "timestamp period is not negative");
    ok(spdrt_last_error(ctx) != NULL && spdrt_last_error(NULL) != NULL,
       "spdrt_last_error always gives a string");
    test_mip_count();
    test_run_arguments(ctx);
    test_device_choice(info);
    ok(spdrt_validation_messages(ctx) == 0, "no validation messages (%u)",
       spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}
