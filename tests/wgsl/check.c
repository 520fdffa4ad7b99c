/* tests/wgsl/check.c: the CPU side of tests/wgsl/run.t. The WebGPU side (run.mjs) runs the
 * WGSL shaders through Dawn; this program makes their inputs and judges their outputs with
 * libspdrt's references and bounds, exactly as the Vulkan tests do:
 *   SPD (tests/spd/run.h): source data from spd_test_source, every texel of every level
 *     against spd_ref_run_edge (the passes re-reading their stored source level) within
 *     spd_ref_bound_level, no sentinel left;
 *   FFT (tests/fft/matrix.c): random data in [-1, 1] from fft_random, the output against
 *     spdrt_fft_reference within SPDRT_FFT_BOUND_REL_L2 and SPDRT_FFT_BOUND_MAX_REL
 *     (Bluestein: SPDRT_FFT_BOUND_BLUESTEIN_REL_L2);
 *   --dmap (tests/dmap/gen.c): the map bit for bit against spdrt_dmap_gen_reference.
 * Files are raw little-endian float32 (--dmap: the uniform's uint32 words, the map's bytes).
 *   check spd-source OP FORMAT W H SEED FILE [FLAG...]  writes W x H RGBA floats per slice
 *   check spd OP FORMAT W H SEED MIPS PER_PASS OUT [FLAG...]  OUT: levels 1..MIPS, RGBA
 *                                                 floats, slice after slice; FLAG: layers=L
 *                                                 (--array), half, linear (their bounds)
 *   check fft-source N COUNT SEED FILE [FLAG...]  writes COUNT FFTs' input (spdrt_fft.h's
 *                                                 layouts, packed strides)
 *   check fft N COUNT SEED OUT [FLAG...]          --norm inverse; FLAG: real, inverse,
 *                                                 stride, native (bit-reversed order),
 *                                                 bluestein, rader, f16 (their bars)
 *   check fft-tables N M DIRECTION FILE           a Bluestein shader's chirp and spectrum
 *   check fft-rader-table N G DIRECTION FILE      a Rader shader's spectrum (root G)
 *   check dmap-params KIND TEXEL FOVEATION MAX_RATE W H FILE   a --dmap fdm|fsr uniform
 *   check dmap KIND TEXEL FOVEATION MAX_RATE W H MAP    the map against the reference, bit
 *                                                 for bit (spdrt_dmap_gen_reference)
 * Prints one line (what was compared, and the error); exit 0 within the bounds, 1 not, 2
 * for bad arguments. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spdrt.h"
#include "spdrt_dmap.h"
#include "spdrt_fft.h"
#include "spdrt_spd.h"
#include "spd/common.h"

#define SENTINEL (-1234.5f)

static int write_floats(const char *path, const float *data, size_t count)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, sizeof *data, count, f) == count;
    if (f && fclose(f) != 0) ok = 0;
    return ok ? 0 : 1;
}

static float *read_floats(const char *path, size_t count)
{
    FILE *f = fopen(path, "rb");
    float *data = malloc(count * sizeof *data);
    if (!f || !data || fread(data, sizeof *data, count, f) != count) {
        free(data);
        data = NULL;
    }
    if (f) fclose(f);
    return data;
}

/* The SPD's flags after the fixed arguments: layers=L (--array), half (--half), linear
 * (--sampler linear): the slices, and the bounds spd_ref_bound_level gives them. */
static int spd_flags(int argc, char **argv, int first, uint32_t *layers, int *half, int *linear)
{
    for (int i = first; i < argc; i++) {
        if (strncmp(argv[i], "layers=", 7) == 0 && atoi(argv[i] + 7) > 0) *layers = (uint32_t)atoi(argv[i] + 7);
        else if (strcmp(argv[i], "half") == 0) *half = 1;
        else if (strcmp(argv[i], "linear") == 0) *linear = 1;
        else return -1;
    }
    return 0;
}

static int spd(int argc, char **argv)
{
    spd_op op;
    spdrt_format format;
    int source_only = strcmp(argv[1], "spd-source") == 0;
    uint32_t layers = 1;
    int half = 0, linear = 0;
    if (argc < (source_only ? 8 : 10) || spd_ref_op_by_name(argv[2], &op) != 0 ||
        spdrt_format_by_name(argv[3], &format) != 0 ||
        spd_flags(argc, argv, source_only ? 8 : 10, &layers, &half, &linear) != 0)
        return 2;
    uint32_t w = (uint32_t)atoi(argv[4]), h = (uint32_t)atoi(argv[5]);
    uint32_t seed = (uint32_t)atoi(argv[6]);
    float *source = spd_test_source((size_t)w * h * layers * 4, seed, format == SPDRT_R32UI);
    if (!source) return 2;
    if (source_only) {
        int rc = write_floats(argv[7], source, (size_t)w * h * layers * 4);
        free(source);
        return rc;
    }
    uint32_t mips = (uint32_t)atoi(argv[7]), per_pass = (uint32_t)atoi(argv[8]);
    spdrt_spd_levels ref = {0};
    if (spd_ref_run_edge(op, SPDRT_EDGE_DROP, format, w, h, layers, mips, per_pass, source, &ref) != 0)
        return 2;
    size_t total = 0;
    for (uint32_t k = 1; k <= mips; k++) total += (size_t)ref.width[k] * ref.height[k] * layers * 4;
    float *all = read_floats(argv[9], total);
    if (!all) {
        printf("no output to compare (%s)\n", argv[9]);
        return 1;
    }
    spdrt_spd_levels gpu = ref;
    size_t at = 0;
    for (uint32_t k = 1; k <= mips; k++) {
        gpu.level[k] = all + at;
        at += (size_t)ref.width[k] * ref.height[k] * layers * 4;
    }
    spd_ref_comparison c = {0};
    double bound = 0;
    for (uint32_t k = 1; k <= mips; k++) {
        bound = spd_ref_bound_level(op, format, half, linear, k);
        spd_ref_compare_level(&gpu, &ref, k, spdrt_format_channels(format), bound, NULL, SENTINEL,
                              &c);
    }
    char within[64];
    snprintf(within, sizeof within, bound == 0 ? "bit-exact" : "within %.3g", bound);
    printf("%u levels x %u slices %s, max error %.3g, %zu mismatches, %zu sentinels%s%s\n", mips,
           layers, within, c.max_error, c.mismatches, c.sentinels, c.mismatches ? "; first: " : "",
           c.mismatches ? c.first : "");
    free(all);
    free(source);
    spdrt_spd_levels_free(&ref);
    return c.mismatches == 0 && c.sentinels == 0 ? 0 : 1;
}

/* The FFT's flags after the fixed arguments: real, inverse, stride, native, bluestein, rader, f16
 * (the layouts, order and direction of spdrt_fft.h's contract; bluestein, rader: such a
 * shader's error bar; f16: halves in the buffers, the input rounded to half by the
 * reference, the f16 bars). */
static int fft_flags(int argc, char **argv, int first, spdrt_fft_config *config)
{
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "real") == 0) config->real = 1;
        else if (strcmp(argv[i], "inverse") == 0) config->inverse = 1;
        else if (strcmp(argv[i], "stride") == 0) config->strided = 1;
        else if (strcmp(argv[i], "bluestein") == 0) config->bluestein_m = 1;
        else if (strcmp(argv[i], "rader") == 0) config->rader_root = 1;
        else if (strcmp(argv[i], "f16") == 0) config->f16 = 1;
        else if (strcmp(argv[i], "native") == 0) config->native = 1;
        else return -1;
    }
    return 0;
}

/* A Bluestein shader's tables for run.mjs (bindings 2 and 3): chirp then spectrum. */
static int fft_tables(int argc, char **argv)
{
    if (argc != 6) return 2;
    uint32_t n = (uint32_t)atoi(argv[2]), m = (uint32_t)atoi(argv[3]);
    int inverse = strcmp(argv[4], "inverse") == 0;
    float *tables = malloc(((size_t)n + m) * 2 * sizeof *tables);
    if (!tables || spdrt_fft_bluestein_tables(n, m, inverse, tables, tables + 2 * (size_t)n) != 0) {
        free(tables);
        return 2;
    }
    int rc = write_floats(argv[5], tables, ((size_t)n + m) * 2);
    free(tables);
    return rc;
}

/* A Rader shader's table for run.mjs (binding 2): its kernel spectrum, for the root G the
 * shader names. */
static int fft_rader_table(int argc, char **argv)
{
    if (argc != 6) return 2;
    uint32_t n = (uint32_t)atoi(argv[2]), g = (uint32_t)atoi(argv[3]);
    int inverse = strcmp(argv[4], "inverse") == 0;
    float *table = malloc((size_t)(n - 1) * 2 * sizeof *table);
    if (!table || n < 3 || spdrt_fft_rader_tables(n, g, inverse, table) != 0) {
        free(table);
        return 2;
    }
    int rc = write_floats(argv[5], table, (size_t)(n - 1) * 2);
    free(table);
    return rc;
}

static int fft(int argc, char **argv)
{
    if (strcmp(argv[1], "fft-tables") == 0) return fft_tables(argc, argv);
    if (strcmp(argv[1], "fft-rader-table") == 0) return fft_rader_table(argc, argv);
    int source_only = strcmp(argv[1], "fft-source") == 0;
    spdrt_fft_config config = {.n = (uint32_t)atoi(argv[2]), .norm = SPDRT_FFT_NORM_INVERSE};
    if (argc < 6 || fft_flags(argc, argv, 6, &config) != 0) return 2;
    spdrt_fft_params params = {.count = (uint32_t)atoi(argv[3])};
    uint32_t seed = (uint32_t)atoi(argv[4]);
    /* Packed strides: the input and output sizes the contract gives for count FFTs. */
    size_t in_floats = spdrt_fft_input_floats(&config, &params);
    size_t out_floats = spdrt_fft_output_floats(&config, &params);
    float *in = malloc(in_floats * sizeof *in);
    double *ref = malloc(out_floats * sizeof *ref);
    if (!in || !ref || config.n < 2) return 2;
    spdrt_random_floats(in, in_floats, seed, -1.0f, 1.0f);
    if (source_only) {
        int rc = write_floats(argv[5], in, in_floats);
        free(in);
        free(ref);
        return rc;
    }
    float *out = read_floats(argv[5], out_floats);
    if (!out) {
        printf("no output to compare (%s)\n", argv[5]);
        return 1;
    }
    if (spdrt_fft_reference(&config, &params, in, ref) != 0) return 2;
    /* As tests/fft/matrix.c and tests/fft/mixed.c: real rows (the --real inverse's output) as
     * reals, the rest as complex values; Bluestein shaders and f16 storage within their own
     * bars. */
    spdrt_fft_error e = {0};
    spdrt_fft_compare(out, ref, out_floats, !(config.real && config.inverse), &e);
    double l2 = config.f16 ? SPDRT_FFT_BOUND_F16_REL_L2
                : config.bluestein_m || config.rader_root ? SPDRT_FFT_BOUND_BLUESTEIN_REL_L2
                : SPDRT_FFT_BOUND_REL_L2;
    double max = config.f16 ? SPDRT_FFT_BOUND_F16_MAX_REL : SPDRT_FFT_BOUND_MAX_REL;
    int passed = e.non_finite == 0 && e.rel_l2 <= l2 && e.max_rel <= max;
    printf("%u FFTs of %u points%s: rel L2 %.3g (bound %.3g), max rel %.3g (bound %.3g), %zu "
           "non-finite\n", params.count, config.n, config.f16 ? " (f16 storage)" : "", e.rel_l2, l2,
           e.max_rel, max, e.non_finite);
    free(in);
    free(ref);
    free(out);
    return passed ? 0 : 1;
}

/* --dmap fdm|fsr with foveation alone (no --content), one view: the configuration from KIND
 * TEXEL FOVEATION MAX_RATE, spdrt_dmap_gen_defaults' parameters with the gaze off-centre. */
static int dmap_setup(char **argv, spdrt_dmap_gen_config *c, spdrt_dmap_gen_params *p,
                      uint32_t *w, uint32_t *h)
{
    static const char *const fov[] = {"off", "fixed", "gaze"};
    *c = (spdrt_dmap_gen_config){.views = 1};
    if (strcmp(argv[2], "fsr") == 0) c->kind = SPDRT_DMAP_FSR;
    else if (strcmp(argv[2], "fdm") == 0) c->kind = SPDRT_DMAP_FDM;
    else return -1;
    c->texel = (uint32_t)atoi(argv[3]);
    c->foveation = SPDRT_DMAP_FOVEATION_OFF;
    for (int i = 0; i < 3; i++)
        if (strcmp(argv[4], fov[i]) == 0) c->foveation = (spdrt_dmap_foveation)i;
    c->max_rate = (uint32_t)atoi(argv[5]);
    *w = (uint32_t)atoi(argv[6]);
    *h = (uint32_t)atoi(argv[7]);
    if (c->texel == 0 || c->foveation == SPDRT_DMAP_FOVEATION_OFF || *w == 0 || *h == 0) return -1;
    spdrt_dmap_gen_defaults(c, *w, *h, p);
    p->gaze[0][0] = *w / 3;
    p->gaze[0][1] = *h / 4;
    return 0;
}

/* check dmap-params ... FILE: the uniform's words; check dmap ... MAP: the map's texels as
 * stored (fdm: 2 density bytes, fsr: one byte), bit for bit against spdrt_dmap_gen_reference,
 * as tests/dmap/gen.c compares them. */
static int dmap(int argc, char **argv)
{
    spdrt_dmap_gen_config c;
    spdrt_dmap_gen_params p;
    uint32_t w, h;
    if (argc != 9 || dmap_setup(argv, &c, &p, &w, &h) != 0) return 2;
    if (strcmp(argv[1], "dmap-params") == 0) {
        uint32_t words[16];
        uint32_t n = spdrt_dmap_gen_push(&c, &p, words);
        FILE *f = fopen(argv[8], "wb");
        int ok = f && fwrite(words, sizeof *words, n, f) == n;
        if (f && fclose(f) != 0) ok = 0;
        return ok ? 0 : 1;
    }
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, w, h);
    size_t bytes = (size_t)e.width * e.height * spdrt_dmap_gen_texel_bytes(&c);
    uint8_t *ref = malloc(bytes), *got = malloc(bytes);
    FILE *f = fopen(argv[8], "rb");
    int read = f && got && fread(got, 1, bytes, f) == bytes;
    if (f) fclose(f);
    if (!ref || spdrt_dmap_gen_reference(&c, &p, NULL, NULL, ref) != 0) return 2;
    if (!read) {
        printf("no map to compare (%s)\n", argv[8]);
        return 1;
    }
    size_t mismatches = 0, first = 0;
    for (size_t i = 0; i < bytes; i++)
        if (got[i] != ref[i] && mismatches++ == 0) first = i;
    printf("%ux%u map texels bit for bit: %zu of %zu bytes differ", e.width, e.height, mismatches,
           bytes);
    if (mismatches) printf(" (first: byte %zu, %u, the reference %u)", first, got[first], ref[first]);
    printf("\n");
    free(ref);
    free(got);
    return mismatches == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    int rc = 2;
    if (argc > 1 && strncmp(argv[1], "spd", 3) == 0) rc = spd(argc, argv);
    if (argc > 1 && strncmp(argv[1], "fft", 3) == 0) rc = fft(argc, argv);
    if (argc > 1 && strncmp(argv[1], "dmap", 4) == 0) rc = dmap(argc, argv);
    if (rc == 2)
        fprintf(stderr, "usage: check spd-source|spd|fft-source|fft|fft-tables|fft-rader-table|dmap-params|dmap ... "
                        "(tests/wgsl/check.c)\n");
    return rc;
}
