/* options.c: parsing spd_bench's command line; the defaults are the benchmark. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "options.h"

static const uint32_t default_sizes[][2] = {
    {1920, 1080}, {2560, 1440}, {3840, 2160}, {2048, 2048},
    {4096, 4096}, {8192, 8192}, {16384, 16384},
};
/* --quick: small enough for lavapipe on two cores (about 30 s); odd levels (1080 -> 135 ->
 * 67, 1500 -> 375) and, at 2900x1500, levels read back by rows (sample.h). */
static const uint32_t quick_sizes[][2] = {{1920, 1080}, {2900, 1500}};

static const struct { const char *name; spdrt_format format; } format_names[] = {
    {"rgba8", SPDRT_RGBA8}, {"rgba16f", SPDRT_RGBA16F}, {"r32f", SPDRT_R32F},
    {"rgba32f", SPDRT_RGBA32F},
};

static void help(void) {
    printf("usage: spd_bench [options]\n\n"
           "Times spdgen's SPD against a compute-copy floor and two baselines (a blit chain,\n"
           "one compute dispatch per level) on the Vulkan device, checks every run against the\n"
           "CPU reference, prints a markdown table. Exit 0 only if every check passed.\n\n"
           "  --sizes LIST      WxH or N (NxN), comma-separated (default: 1920x1080, 2560x1440,\n"
           "                    3840x2160, 2048, 4096, 8192, 16384)\n"
           "  --formats LIST    rgba8, rgba16f, r32f, rgba32f (default: rgba8,rgba16f,r32f)\n"
           "  --ops LIST        mean, max (default: both)\n"
           "  --subgroups LIST  spdgen --subgroup values (default: 0, 4 and the device's size)\n"
           "  --variants LIST   instead of the planned variants, these: spdgen flags, each\n"
           "                    with @K for K tiles per workgroup (default: libspdrt's),\n"
           "                    ';'-separated, e.g. \"--subgroup 4@1;--tail hierarchy@8\";\n"
           "                    spdgen's default row and the peers are timed as well\n"
           "  --reps N          timed repetitions, each with cold caches; median reported\n"
           "                    (default 31)\n"
           "  --warmup N        untimed repetitions first (default 5)\n"
           "  --b2b N           also time N runs back to back, no scrub, barrier between;\n"
           "                    reported per run (default 20; 0 = off)\n"
           "  --scrub-mib N     compute pass over an N MiB buffer before each repetition to\n"
           "                    evict the caches (default 256; 0 = off: warm caches)\n"
           "  --scrub-mode M    read (default: leaves clean lines) or write (dirty lines, whose\n"
           "                    write-back the timed work then pays)\n"
           "  --heat-ms N       GPU work before each measurement so clocks are up (default 200;\n"
           "                    0 = off); 5x as long once at start\n"
           "  --tiles           the tile sweep instead: every spdgen --tile T / --wg N on\n"
           "                    256x256, 1920x1080 and 4096x4096 (or --sizes), the first\n"
           "                    --formats (default rgba16f) and --ops (default mean), the\n"
           "                    device's subgroup size; every run checked; --quick: 256x256\n"
           "  --phases          where the time goes instead: each SPD variant (texel loads,\n"
           "                    --sampler linear, --tile 32) run with mip_count 1, 2, ..\n"
           "                    (the shader stops after that level) against the SPD-shaped\n"
           "                    floor of the same bytes; 256x256, 1920x1080, 4096x4096 and\n"
           "                    16384x16384 (or --sizes), first --formats (default rgba16f)\n"
           "                    and --ops (default mean); full chains checked\n"
           "  --quick           smoke run: sizes 1920x1080 and 2900x1500, 5 reps, 1 warm-up,\n"
           "                    3 back to back, 8 MiB scrub, 10 ms heat (explicit options win)\n"
           BENCH_HELP_COMMON);
}

static int add_size(const char *t, void *user) {
    bench_options *o = user;
    uint32_t w, h;
    if (o->size_count == BENCH_MAX_SIZES || bench_parse_size(t, 65536, 1, &w, &h))
        return -1;
    if (w == 1 && h == 1)
        return -1;
    o->sizes[o->size_count][0] = w;
    o->sizes[o->size_count++][1] = h;
    return 0;
}

static int add_format(const char *t, void *user) {
    bench_options *o = user;
    size_t i;
    for (i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (!strcmp(t, format_names[i].name) && o->format_count < 4) {
            o->formats[o->format_count++] = format_names[i].format;
            return 0;
        }
    return -1;
}

static int add_op(const char *t, void *user) {
    bench_options *o = user;
    if (o->op_count == 2)
        return -1;
    if (!strcmp(t, "mean"))
        o->ops[o->op_count++] = SPD_OP_MEAN;
    else if (!strcmp(t, "max"))
        o->ops[o->op_count++] = SPD_OP_MAX;
    else
        return -1;
    return 0;
}

/* "FLAGS[@K]": spdgen flags (starting with --), K tiles per workgroup 1..64. */
static int add_variant(const char *t, void *user) {
    bench_options *o = user;
    const char *at = strrchr(t, '@');
    uint32_t k;
    if (o->variant_count == 16 || strlen(t) >= sizeof o->variants[0] || strncmp(t, "--", 2) ||
        (at && (bench_parse_u32(at + 1, SPDRT_MAX_TILES_PER_WORKGROUP, &k) || k == 0)))
        return -1;
    snprintf(o->variants[o->variant_count++], sizeof o->variants[0], "%s", t);
    return 0;
}

static int add_subgroup(const char *t, void *user) {
    bench_options *o = user;
    uint32_t s;
    if (bench_parse_u32(t, 64, &s) || o->subgroup_count == 6 ||
        (s != 0 && s != 4 && s != 8 && s != 16 && s != 32 && s != 64))
        return -1;
    for (uint32_t i = 0; i < o->subgroup_count; i++)
        if (o->subgroups[i] == s)
            return -1; /* each once: at most the 6 values */
    o->subgroups[o->subgroup_count++] = s;
    return 0;
}

int bench_options_parse(int argc, char **argv, bench_options *o) {
    int i;
    memset(o, 0, sizeof *o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int common = bench_common_option(&o->common, "spd_bench", help, argc, argv, &i);
        if (common != BENCH_ARG_OWN) {
            if (common != BENCH_ARG_TAKEN)
                return common; /* --help, or a usage error */
        } else if (!strcmp(a, "--tiles")) {
            o->tiles = 1;
        } else if (!strcmp(a, "--phases")) {
            o->phases = 1;
        } else if (!val) {
            return bench_usage("spd_bench", a, NULL, BENCH_MISSING_VALUE);
        } else {
            i++;
            if (!strcmp(a, "--sizes")) {
                if (bench_each_item(val, add_size, o))
                    return bench_usage("spd_bench", a, val,
                                       "WxH or N, comma-separated, each side 1..65536");
            } else if (!strcmp(a, "--formats")) {
                if (bench_each_item(val, add_format, o))
                    return bench_usage("spd_bench", a, val,
                                       "rgba8, rgba16f, r32f, rgba32f, comma-separated");
            } else if (!strcmp(a, "--ops")) {
                if (bench_each_item(val, add_op, o))
                    return bench_usage("spd_bench", a, val, "mean and/or max, comma-separated");
            } else if (!strcmp(a, "--variants")) {
                if (bench_each_sep(val, ';', add_variant, o))
                    return bench_usage("spd_bench", a, val,
                                       "spdgen flags starting with --, each with @K (1..64 "
                                       "tiles per workgroup) or not, ';'-separated, at most 16");
            } else if (!strcmp(a, "--subgroups")) {
                if (bench_each_item(val, add_subgroup, o))
                    return bench_usage("spd_bench", a, val,
                                       "0, 4, 8, 16, 32, 64, each at most once, comma-separated");
            } else {
                return bench_usage("spd_bench", a, val, "unknown option");
            }
        }
    }
    if (o->tiles && o->phases)
        return bench_usage("spd_bench", "--phases", NULL, "one of --tiles and --phases");
    if (o->size_count == 0 && o->tiles) {
        static const uint32_t tile_sizes[][2] = {{256, 256}, {1920, 1080}, {4096, 4096}};
        o->size_count = o->common.quick ? 1 : 3;
        memcpy(o->sizes, tile_sizes, o->size_count * sizeof tile_sizes[0]);
    }
    if (o->size_count == 0 && o->phases) {
        static const uint32_t phase_sizes[][2] = {{256, 256}, {1920, 1080}, {4096, 4096},
                                                  {16384, 16384}};
        o->size_count = o->common.quick ? 2 : 4;
        memcpy(o->sizes, phase_sizes, o->size_count * sizeof phase_sizes[0]);
    }
    if (o->format_count == 0 && (o->tiles || o->phases))
        add_format("rgba16f", o);
    if (o->op_count == 0 && (o->tiles || o->phases))
        add_op("mean", o);
    if (o->size_count == 0) {
        const uint32_t(*s)[2] = o->common.quick ? quick_sizes : default_sizes;
        uint32_t n = o->common.quick ? sizeof quick_sizes / sizeof quick_sizes[0]
                                     : sizeof default_sizes / sizeof default_sizes[0];
        for (o->size_count = 0; o->size_count < n; o->size_count++)
            o->sizes[o->size_count][0] = s[o->size_count][0],
            o->sizes[o->size_count][1] = s[o->size_count][1];
    }
    if (o->format_count == 0)
        bench_each_item("rgba8,rgba16f,r32f", add_format, o);
    if (o->op_count == 0)
        bench_each_item("mean,max", add_op, o);
    bench_timing_defaults(&o->common.timing, o->common.quick ? (bench_timing_options){.reps = 5, .warmup = 1, .b2b = 3, .heat_ms = 10, .scrub_bytes = (uint64_t)8 << 20}
                                                      : (bench_timing_options){.reps = 31, .warmup = 5, .b2b = 20, .heat_ms = 200, .scrub_bytes = (uint64_t)256 << 20});
    return 0;
}
