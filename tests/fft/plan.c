/* tests/fft/plan.c: four-step FFT plans (N longer than one dispatch) on the local Vulkan
 * device. For each configuration spdgen writes the two pass shaders as SPIR-V (from GLSL or
 * HLSL) and the plan file; libspdrt loads the plan file as an engine would
 * (spdrt_fft_plan_load), runs it under the validation layer on random data in [-1, 1] and
 * the output is compared with the double reference: relative L2 <= 4e-7 and
 * max|err| / max|ref| <= 2e-6 (f16: 1e-3, 2e-3), with the errors in every TAP line. Forward
 * then inverse must return the input within 1e-6.
 * `bluestein`: Bluestein's plans of three passes (N with a prime factor above 31 whose M is
 * beyond one dispatch) instead, against spdrt_fft_reference (for these N Bluestein's chirp-z
 * in double over the radix-2 double FFT, checked against the direct sum by
 * tests/fft/ref_any.t) with Bluestein's bar, relative L2 <= 1.5e-6, and the same max bar.
 * usage: plan glsl|hlsl... | plan bluestein   prints TAP. */
#include "common.h"
#include "plan_damage.h"
#include "tap.h"

static spdrt_context *ctx;

/* Generates the plan into a fresh directory and loads it; NULL after a failed TAP line. */
static spdrt_fft_plan *load(const char *lang, const char *flags, char *dir, size_t dir_size)
{
    const char *build = getenv("SPDGEN_BUILD");
    char cmd[1024], path[512];
    spdrt_fft_plan *plan = NULL;
    snprintf(dir, dir_size, "/tmp/fft_multipass_%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p %s && '%s/spdgen' %s --target spirv --spirv-from %s -o %s/fft.spv",
             dir, build ? build : "build", flags, lang, dir);
    snprintf(path, sizeof path, "%s/fft.fftplan", dir);
    if (system(cmd) != 0) {
        ok(0, "%s %s: spdgen failed", lang, flags);
        return NULL;
    }
    if (spdrt_fft_plan_load(ctx, path, &plan) != SPDRT_OK) {
        ok(0, "%s %s: plan loads (%s)", lang, flags, spdrt_last_error(ctx));
        return NULL;
    }
    return plan;
}

static void cleanup(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

static void accuracy(const char *lang, const char *flags, uint32_t count)
{
    char dir[256];
    spdrt_fft_plan *plan = load(lang, flags, dir, sizeof dir);
    if (!plan) return;
    const spdrt_fft_config *cfg = spdrt_fft_plan_config(plan);
    spdrt_fft_params p = {.count = count};
    size_t in_n = spdrt_fft_input_floats(cfg, &p), out_n = spdrt_fft_output_floats(cfg, &p);
    float *in = malloc(in_n * sizeof *in), *out = malloc(out_n * sizeof *out);
    double *ref = malloc(out_n * sizeof *ref);
    uint32_t before = spdrt_validation_messages(ctx);
    spdrt_fft_error e = {0};
    int ran = 0;
    if (in && out && ref) {
        fft_random(in, in_n, cfg->n + count);
        if (spdrt_fft_plan_run(ctx, plan, &p, in, out, NULL) == SPDRT_OK && spdrt_fft_reference(cfg, &p, in, ref) == 0) {
            spdrt_fft_compare(out, ref, out_n, 1, &e);
            ran = 1;
        } else {
            printf("# %s\n", spdrt_last_error(ctx));
        }
    }
    double l2_bound = cfg->f16 ? FFT_BOUND_F16_REL_L2
                    : cfg->bluestein_m ? SPDRT_FFT_BOUND_BLUESTEIN_REL_L2 : FFT_BOUND_REL_L2;
    double max_bound = cfg->f16 ? FFT_BOUND_F16_MAX_REL : FFT_BOUND_MAX_REL;
    uint32_t messages = spdrt_validation_messages(ctx) - before;
    ok(ran && e.non_finite == 0 && e.rel_l2 <= l2_bound && e.max_rel <= max_bound && messages == 0,
       "%s %s x %u (%s passes): rel L2 %.2e (<= %.1e), max %.2e (<= %.0e)%s%s", lang, flags, count,
       cfg->bluestein_m ? "three" : "two", e.rel_l2, l2_bound, e.max_rel, max_bound,
       e.non_finite ? ", VALUES NEVER WRITTEN" : "", messages ? ", VALIDATION MESSAGES" : "");
    spdrt_fft_plan_destroy(ctx, plan);
    cleanup(dir);
    free(in);
    free(out);
    free(ref);
}

static void roundtrip(const char *lang, const char *flags)
{
    char fwd_flags[512], inv_flags[512], dir1[256], dir2[256];
    snprintf(fwd_flags, sizeof fwd_flags, "%s --direction forward", flags);
    snprintf(inv_flags, sizeof inv_flags, "%s --direction inverse", flags);
    spdrt_fft_plan *fwd = load(lang, fwd_flags, dir1, sizeof dir1);
    if (!fwd) return;
    spdrt_fft_params p = {.count = 1};
    const spdrt_fft_config *cfg = spdrt_fft_plan_config(fwd);
    size_t n = spdrt_fft_input_floats(cfg, &p);
    float *in = malloc(n * sizeof *in), *mid = malloc(n * sizeof *mid), *back = malloc(n * sizeof *back);
    double *ref = malloc(n * sizeof *ref);
    spdrt_fft_error e = {0};
    int ran = 0;
    if (in && mid && back && ref && spdrt_fft_plan_run(ctx, fwd, &p, (fft_random(in, n, 99), in), mid, NULL) == SPDRT_OK) {
        spdrt_fft_plan_destroy(ctx, fwd);
        fwd = NULL;
        cleanup(dir1);
        spdrt_fft_plan *inv = load(lang, inv_flags, dir2, sizeof dir2);
        if (inv && spdrt_fft_plan_run(ctx, inv, &p, mid, back, NULL) == SPDRT_OK) {
            for (size_t i = 0; i < n; i++) ref[i] = in[i];
            spdrt_fft_compare(back, ref, n, 1, &e);
            ran = 1;
        }
        spdrt_fft_plan_destroy(ctx, inv);
        cleanup(dir2);
    }
    ok(ran && e.non_finite == 0 && e.rel_l2 <= 1e-6,
       "%s %s: forward then inverse returns the input, rel L2 %.2e (<= 1e-6), max %.2e", lang, flags, e.rel_l2,
       e.max_rel);
    if (fwd) {
        spdrt_fft_plan_destroy(ctx, fwd);
        cleanup(dir1);
    }
    free(in);
    free(mid);
    free(back);
    free(ref);
}

/* Bluestein beyond one dispatch: M = 32768 (8209, the first prime past one dispatch's 8192,
 * and 10007) and M = 262144 (65537), forward, inverse with each norm and the round trip,
 * GLSL and HLSL, halves; M split by a small --max-wg (M = 2048 as 64 x 32 for 1009, which
 * --prime auto would run as Rader's 1008 points in one dispatch). */
static void bluestein_plans(void)
{
    accuracy("glsl", "--fft 8209", 3);
    accuracy("glsl", "--fft 10007 --direction inverse", 1);
    accuracy("glsl", "--fft 10007 --direction inverse --norm unitary", 1);
    accuracy("glsl", "--fft 1009 --max-wg 64 --norm none --prime bluestein", 2); /* not Rader's 1008 */
    accuracy("glsl", "--fft 65537", 1);
    roundtrip("glsl", "--fft 8209");
    accuracy("hlsl", "--fft 8209 --direction inverse --norm none", 1);
    accuracy("glsl", "--fft 8209 --storage f16", 1);
    roundtrip("hlsl", "--fft 10007");
}

/* The four-step plans: each language's list, then single cases in either. */
/* A NUL byte anywhere fails the load, naming its line (it would hide what follows it); a
 * comment of any length stays a comment (read in pieces, its tail once ran as a key). */
static void nul_and_long_lines(const char *text, size_t len, const char *copy)
{
    const char *at = strstr(text, "\npasses ");
    FILE *f = at ? fopen(copy, "wb") : NULL;
    if (f) {
        fwrite(text, 1, (size_t)(at + 1 - text), f);
        fwrite("\0", 1, 1, f);
        fwrite(at + 1, 1, len - (size_t)(at + 1 - text), f);
        fclose(f);
    }
    spdrt_fft_plan *plan = NULL;
    spdrt_result r = f ? spdrt_fft_plan_load(ctx, copy, &plan) : SPDRT_OK;
    ok(f && r != SPDRT_OK && strstr(spdrt_last_error(ctx), "line "), "a plan with a NUL byte fails to load, "
       "naming the line: %s", r != SPDRT_OK ? spdrt_last_error(ctx) : "loaded");
    if (plan) spdrt_fft_plan_destroy(ctx, plan);
    char comment[1400];
    memset(comment, 'x', sizeof comment);
    comment[0] = '#';
    snprintf(comment + 1023, sizeof comment - 1023, "direction inverse\n");
    f = fopen(copy, "w");
    if (f) { /* after the plan's own direction line, so a tail read as a key would win */
        fputs(text, f);
        fputs(comment, f);
        fclose(f);
    }
    plan = NULL;
    r = f ? spdrt_fft_plan_load(ctx, copy, &plan) : SPDRT_ERROR_ARGUMENT;
    ok(r == SPDRT_OK && plan && !spdrt_fft_plan_config(plan)->inverse,
       "a comment line of 1040 characters stays a comment: %s", r == SPDRT_OK ? "loaded" : spdrt_last_error(ctx));
    if (plan) spdrt_fft_plan_destroy(ctx, plan);
}

/* A damaged plan file never loads: each copy of a good plan with one line changed (or added)
 * fails with the line's number in the message; the copy left alone loads. */
static void damaged_plans(void)
{
    static const plan_damage DAMAGE[] = {
        {"storage ", "storage f61", "a storage outside f32 | f16", NULL},
        {"direction ", "direction sideways", "a direction outside forward | inverse", NULL},
        {"norm ", "norm unitry", "a misspelt norm", NULL},
        {"n ", "n 32768x", "a number with a tail", NULL},
        {"spdgen-fft-plan ", "spdgen-fft-plan 2", "another version", NULL},
        {"passes ", "passes 2\nfrobnicate 1", "an unknown key", NULL},
        {"passes ", "passes 2\ndir'", "a stray line (a path broken across lines)", NULL},
        {"passes ", "passes 3", "a pass count the pass lines do not have", NULL},
        {"direction ", "direction forward\ndirection inverse", "a key given twice", NULL},
        {"pass 2 ", NULL, "a pass line with a word after it", " junk"},
        {"pass 1 ", NULL, "a pass line whose last number has a tail", "x"},
        {"pass 1 ", NULL, "a pass line whose last number passes 32 bits", "0000000000"},
    };
    const size_t count = sizeof DAMAGE / sizeof *DAMAGE;
    char dir[256], path[600], copy[600], text[8192];
    spdrt_fft_plan *plan = load("glsl", "--fft 32768", dir, sizeof dir);
    if (!plan) return;
    spdrt_fft_plan_destroy(ctx, plan);
    snprintf(path, sizeof path, "%s/fft.fftplan", dir);
    snprintf(copy, sizeof copy, "%s/copy.fftplan", dir);
    size_t len = plan_read(path, text, sizeof text);
    for (size_t i = 0; i <= count; i++) { /* i == count: the copy unchanged */
        if (!len || plan_write_damaged(text, i < count ? &DAMAGE[i] : NULL, copy)) {
            ok(0, "damaged plan %zu: written", i);
            continue;
        }
        plan = NULL;
        spdrt_result r = spdrt_fft_plan_load(ctx, copy, &plan);
        const char *msg = spdrt_last_error(ctx);
        if (i == count)
            ok(r == SPDRT_OK, "the plan copied unchanged loads");
        else
            ok(r != SPDRT_OK && strstr(msg, "line "), "a plan with %s fails to load, naming the line: %s",
               DAMAGE[i].why, r != SPDRT_OK ? msg : "loaded");
        if (plan) spdrt_fft_plan_destroy(ctx, plan);
    }
    nul_and_long_lines(text, len, copy);
    cleanup(dir);
}

static void four_step_plans(int argc, char **argv)
{
    damaged_plans();
    for (int i = 1; i < argc; i++) {
        const char *lang = argv[i];
        accuracy(lang, "--fft 65536 --subgroup 8", 2);
        accuracy(lang, "--fft 65536 --subgroup 4 --direction inverse --norm unitary", 1);
        accuracy(lang, "--fft 262144 --subgroup 8", 1);
        accuracy(lang, "--fft 32768 --max-wg 256 --direction inverse", 1);
        roundtrip(lang, "--fft 131072 --subgroup 8");
    }
    accuracy("glsl", "--fft 65536 --storage f16", 1);
    accuracy("hlsl", "--fft 1048576 --subgroup 8", 1);
    /* The passes' columns sit in lanes by default (16 per workgroup here); shuffles across
     * 2 column lanes; 2^20 from GLSL too; the register layout kept reachable. */
    accuracy("glsl", "--fft 32768", 3);
    accuracy("hlsl", "--fft 65536 --columns-per-wg 2 --subgroup 8 --direction inverse", 1);
    accuracy("glsl", "--fft 1048576", 1);
    accuracy("glsl", "--fft 32768 --column-layout registers", 2);
    accuracy("hlsl", "--fft 131072 --max-wg 64 --column-layout lanes --subgroup 4", 1); /* 2 columns, quads */
    /* The scratch between the passes: in tiles of pass 2's columns (4 by default, above; 16
     * and 8 here, pass 1 with fewer or more columns than pass 2), and in rows where pass 1's
     * runs would be short (2 x 4 < 16 values: gen/fft_cli.c plan_scratch_tile). */
    accuracy("glsl", "--fft 32768 --columns-per-wg 4,16", 2);
    accuracy("hlsl", "--fft 65536 --columns-per-wg 16,8 --subgroup 8", 1);
    accuracy("glsl", "--fft 262144 --columns-per-wg 2,4 --direction inverse", 1);
    /* Mixed-radix plans: 18000 = 144 x 125, and short passes with more columns per workgroup
     * (at least 64 invocations where 16 columns allow): 8704 = 128 x 68 (16 columns in the
     * 68-point pass; 4352 = 68 x 64 is one dispatch since exchanges by component), 12167 =
     * 529 x 23 (16 in the 23-point pass, W = 1). */
    accuracy("glsl", "--fft 18000", 1);
    accuracy("glsl", "--fft 8704", 1);
    accuracy("hlsl", "--fft 12167 --direction inverse", 1);
    roundtrip("glsl", "--fft 12167");
}

int main(int argc, char **argv)
{
    char err[512];
    spdrt_options options = {.validation = 1};
    int bluestein = argc == 2 && strcmp(argv[1], "bluestein") == 0;
    for (int i = 1; i < argc && !bluestein; i++)
        if (strcmp(argv[i], "glsl") && strcmp(argv[i], "hlsl")) argc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: plan glsl|hlsl... | plan bluestein\n");
        return 2;
    }
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        printf("1..0 # SKIP no Vulkan device with validation: %s\n", err);
        return 0;
    }
    if (bluestein) bluestein_plans();
    else four_step_plans(argc, argv);
    ok(spdrt_validation_messages(ctx) == 0, "no validation messages (%u)", spdrt_validation_messages(ctx));
    spdrt_destroy(ctx);
    return tap_plan();
}
