/* fft_selftest.c: spdgen --fft ... --selftest [--batch B] [--seed N].
 *
 * The check the test suite makes, for one user's exact configuration on the user's own
 * device: --batch FFTs of random data in [-1, 1], two dispatches back to back (the output
 * is filled with NaN first, so a value never written fails), compared with the double
 * reference (runtime/fft/fft_ref.c) against the stated bars (spdrt_fft.h): relative L2 error
 * <= 4e-7 and max|err| / max|ref| <= 2e-6, or 1e-3 and 2e-3 with --storage f16. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft.h"
#include "job.h"
#include "spdrt_fft.h"

static int norm_of(const sg_fft_params *f)
{
    return f->norm == SG_FFT_NORM_NONE ? SPDRT_FFT_NORM_NONE
         : f->norm == SG_FFT_NORM_UNITARY ? SPDRT_FFT_NORM_UNITARY : SPDRT_FFT_NORM_INVERSE;
}

/* The runtime's description of one shader, from its contract. */
static void runtime_config(const sg_fft_params *f, const sg_contract *c, spdrt_fft_config *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->n = (uint32_t)f->n;
    rc->wg = (uint32_t)c->workgroup[0]; /* W, or C x W with the columns in lanes */
    rc->subgroup = (uint32_t)c->subgroup;
    rc->columns = (uint32_t)sg_contract_int(c, "COLUMNS_PER_WORKGROUP", 1);
    rc->shared_bytes = (uint32_t)c->shared_bytes;
    rc->inverse = f->direction == SG_FFT_INVERSE;
    rc->native = f->order == SG_FFT_ORDER_NATIVE;
    rc->real = f->real;
    rc->strided = f->strided;
    rc->f16 = f->storage == SG_FFT_STORAGE_F16;
    rc->lut = f->twiddles == SG_FFT_TWIDDLES_LUT;
    rc->norm = norm_of(f);
    rc->bluestein_m = (uint32_t)f->bluestein_m;
    rc->rader_root = (uint32_t)f->rader_root;
}

/* Runs the check with a pipeline (one shader) or a plan (four-step) already built for ctx,
 * prints the errors against the bars and returns the exit code. */
static int check(const sg_run *run, spdrt_context *ctx, const spdrt_fft_config *rc,
                 spdrt_fft_pipeline *pipe, spdrt_fft_plan *plan)
{
    const spdrt_device_info *dev = spdrt_device(ctx);
    const sg_fft_params *f = run->params;
    unsigned seed = (unsigned)run->common.seed;
    spdrt_fft_params p = {.count = (uint32_t)f->batch, .dispatches = 2};
    size_t in_n = spdrt_fft_input_floats(rc, &p), out_n = spdrt_fft_output_floats(rc, &p);
    float *in = malloc(in_n * sizeof *in), *out = malloc(out_n * sizeof *out);
    double *ref = malloc(out_n * sizeof *ref);
    spdrt_fft_error e;
    int rc_exit = SG_EXIT_FAILURE;

    printf("  %u %s of N = %ld%s, seed %u, on %s (%s), subgroup size %u\n", p.count,
           rc->real ? "pairs of real rows" : rc->strided ? "columns" : "rows", (long)rc->n,
           !plan ? "" : f->passes == 3 ? " (three passes)" : " (two passes)", seed, dev->name,
           dev->driver, dev->subgroup_size);
    if (!in || !out || !ref) {
        fprintf(stderr, "spdgen: error: --selftest: out of memory\n");
        goto done;
    }
    spdrt_random_floats(in, in_n, seed, -1.0f, 1.0f); /* the same seed, the same data */
    spdrt_result res = plan ? spdrt_fft_plan_run(ctx, plan, &p, in, out, NULL)
                            : spdrt_fft_run(ctx, pipe, &p, in, out, NULL);
    if (res != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(ctx));
        goto done;
    }
    if (spdrt_fft_reference(rc, &p, in, ref) != 0) {
        fprintf(stderr, "spdgen: error: --selftest: the reference ran out of memory\n");
        goto done;
    }
    spdrt_fft_compare(out, ref, out_n, !(rc->real && rc->inverse), &e);
    double l2_bound = rc->f16 ? SPDRT_FFT_BOUND_F16_REL_L2
                    : rc->bluestein_m || rc->rader_root ? SPDRT_FFT_BOUND_BLUESTEIN_REL_L2 : SPDRT_FFT_BOUND_REL_L2;
    double max_bound = rc->f16 ? SPDRT_FFT_BOUND_F16_MAX_REL : SPDRT_FFT_BOUND_MAX_REL;
    printf("relative L2 error    %.3g (bound %g)\n", e.rel_l2, l2_bound);
    printf("max|err| / max|ref|  %.3g (bound %g)\n", e.max_rel, max_bound);
    if (e.non_finite) printf("values never written %zu\n", e.non_finite);
    if (e.non_finite == 0 && e.rel_l2 <= l2_bound && e.max_rel <= max_bound) {
        printf("selftest passed\n");
        rc_exit = SG_EXIT_OK;
    } else {
        printf("selftest FAILED\n");
    }
done:
    free(in);
    free(out);
    free(ref);
    return rc_exit;
}

/* A context on the machine's device, after the opening lines. */
static spdrt_context *open_device(const sg_run *run)
{
    char err[512];
    spdrt_context *ctx;
    spdrt_options options = {0};
    if (spdrt_create(&options, &ctx, err, sizeof err) != SPDRT_OK) {
        fprintf(stderr, "spdgen: error: --selftest: no usable Vulkan device: %s\n", err);
        return NULL;
    }
    printf("spdgen selftest: %s\n", run->command);
    if (sg_run_twin_of(run))
        printf("  %s cannot run here: running its GLSL twin (the same algorithm and plan)\n", sg_run_twin_of(run));
    return ctx;
}

static int selftest_one(const sg_run *run, const sg_job_shader *s)
{
    spdrt_fft_config rc;
    spdrt_fft_pipeline *pipe = NULL;
    int rc_exit = SG_EXIT_FAILURE;
    runtime_config(run->params, &s->gen.contract, &rc);
    spdrt_context *ctx = open_device(run);
    if (!ctx) return SG_EXIT_FAILURE;
    if (spdrt_fft_pipeline_create(ctx, s->module.words, s->module.count, &rc, &pipe) != SPDRT_OK)
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(ctx));
    else
        rc_exit = check(run, ctx, &rc, pipe, NULL);
    spdrt_fft_pipeline_destroy(ctx, pipe);
    spdrt_destroy(ctx);
    return rc_exit;
}

static int selftest_plan(const sg_run *run, const sg_job *job)
{
    const sg_fft_params *f = run->params;
    spdrt_fft_config whole;
    spdrt_fft_pass rp[SG_FFT_MAX_PASSES];
    spdrt_fft_plan *plan = NULL;
    int rc_exit = SG_EXIT_FAILURE;
    memset(&whole, 0, sizeof whole);
    whole.n = (uint32_t)f->n;
    whole.subgroup = (uint32_t)f->subgroup;
    whole.inverse = f->direction == SG_FFT_INVERSE;
    whole.f16 = f->storage == SG_FFT_STORAGE_F16;
    whole.norm = norm_of(f);
    whole.bluestein_m = (uint32_t)f->bluestein_m;
    long total = f->bluestein_m ? f->bluestein_m : f->n;
    for (int p = 0; p < job->count; p++) {
        const sg_contract *c = &job->shaders[p].gen.contract;
        rp[p].spirv = job->shaders[p].module.words;
        rp[p].spirv_words = job->shaders[p].module.count;
        rp[p].n = (uint32_t)f->pass_n[p];
        rp[p].wg = (uint32_t)c->workgroup[0];
        rp[p].subgroup = (uint32_t)c->subgroup;
        rp[p].columns = (uint32_t)sg_contract_int(c, "COLUMNS_PER_WORKGROUP", 1);
        rp[p].shared_bytes = (uint32_t)c->shared_bytes;
        rp[p].ffts_per_transform = (uint32_t)(total / f->pass_n[p]);
    }
    spdrt_context *ctx = open_device(run);
    if (!ctx) return SG_EXIT_FAILURE;
    if (spdrt_fft_plan_create(ctx, &whole, rp, (uint32_t)job->count, &plan) != SPDRT_OK)
        fprintf(stderr, "spdgen: error: --selftest: %s\n", spdrt_last_error(ctx));
    else
        rc_exit = check(run, ctx, &whole, NULL, plan);
    spdrt_fft_plan_destroy(ctx, plan);
    spdrt_destroy(ctx);
    return rc_exit;
}

int sg_fft_selftest(const sg_run *run, const sg_job *job)
{
    return job->count > 1 ? selftest_plan(run, job) : selftest_one(run, &job->shaders[0]);
}
