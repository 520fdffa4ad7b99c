/* fft_plan.c: the --fft job. One shader, or for N longer than one dispatch holds the two
 * passes of a four-step plan, whose manifest (NAME.fftplan) libspdrt's spdrt_fft_plan_load
 * runs, and whose contract header describes the plan as a whole and each pass. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fft.h"
#include "header.h"
#include "job.h"
#include "text.h"

int sg_fft_plan(const sg_run *run, sg_job *job)
{
    const sg_fft_params *f = run->params;
    if (!f->passes) {
        sg_job_add_shader(job, "", 0);
        return 0;
    }
    sg_job_add_shader(job, "pass1", 0);
    sg_job_add_shader(job, "pass2", 1);
    if (f->passes == 3) sg_job_add_shader(job, "pass3", 2);
    return 0;
}

static double scale_of(const sg_fft_params *f)
{
    if (f->norm == SG_FFT_NORM_UNITARY) return 1.0 / sqrt((double)f->n);
    if (f->norm == SG_FFT_NORM_INVERSE && f->direction == SG_FFT_INVERSE) return 1.0 / (double)f->n;
    return 1.0;
}

void sg_fft_job_contract(const sg_run *run, const sg_job *job, sg_contract *out)
{
    const sg_fft_params *f = run->params;
    long subgroup = 0;
    for (int i = 0; i < job->count; i++)
        if (job->shaders[i].gen.contract.subgroup > subgroup) subgroup = job->shaders[i].gen.contract.subgroup;
    if (f->bluestein_m) {
        snprintf(out->title, sizeof out->title, "a three-pass Bluestein FFT plan, N = %ld, M = %ld = %ld x %ld",
                 f->n, f->bluestein_m, f->pass_n[0], f->pass_n[1]);
        snprintf(out->doc, sizeof out->doc,
                 "Pass 1 reads the input rows (count transforms, in_stride apart) and writes scratch 1 "
                 "(M fp32 complex values per transform); pass 2 reads scratch 1 and writes scratch 2; "
                 "pass 3 reads scratch 2 and writes the output rows (out_stride apart) in natural "
                 "order; a barrier between passes. Every pass uses set 0 binding 0 (src), 1 (dst), 2 "
                 "(the chirp, N float2) and 3 (the kernel's spectrum, M float2: "
                 "spdrt_fft_bluestein_tables) and 16 bytes of push constants; pass p runs "
                 "FFT_PASSp_COUNT(transforms) FFTs, the push constant count, in "
                 "FFT_PASSp_GRID_X(FFT_PASSp_COUNT(transforms)) workgroups.");
    } else {
        snprintf(out->title, sizeof out->title, "a four-step FFT plan, N = %ld = %ld x %ld", f->n,
                 f->pass_n[0], f->pass_n[1]);
        snprintf(out->doc, sizeof out->doc,
                 "Pass 1 reads the input rows (count transforms, in_stride apart) and writes the "
                 "scratch (N fp32 complex values per transform); after a barrier pass 2 reads the "
                 "scratch and writes the output rows (out_stride apart) in natural order. Both use "
                 "set 0 binding 0 (src) and 1 (dst) and 16 bytes of push constants; pass p runs "
                 "FFT_PASSp_COUNT(transforms) FFTs, the push constant count, in "
                 "FFT_PASSp_GRID_X(FFT_PASSp_COUNT(transforms)) workgroups.");
    }
    sg_contract_add(out, "N", f->n, NULL);
    sg_contract_add(out, "PASSES", job->count, NULL);
    sg_contract_add(out, "INVERSE", f->direction == SG_FFT_INVERSE, NULL);
    sg_contract_add_float(out, "SCALE", scale_of(f), "applied by the last pass");
    sg_contract_add(out, "F16", f->storage == SG_FFT_STORAGE_F16,
                    "input and output as IEEE halves; the scratch is fp32");
    sg_contract_add(out, "SUBGROUP_SIZE", subgroup, "the largest a pass's shuffles need");
    if (f->bluestein_m)
        sg_contract_add(out, "BLUESTEIN_M", f->bluestein_m,
                        "Bluestein's convolution length: the tables' sizes are N and BLUESTEIN_M");
}

/* FFT_SCRATCH_BYTES and each pass's FFT count per transform. */
static void plan_helpers(sg_text *t, const sg_run *run, const sg_job *job, const char *P)
{
    const sg_fft_params *f = run->params;
    long total = f->bluestein_m ? f->bluestein_m : f->n;
    if (f->bluestein_m)
        sg_text_printf(t, "\n/* Bindings 2 and 3 of every pass hold Bluestein's tables: libspdrt's\n"
                          " * spdrt_fft_bluestein_tables(%ld, %ld, %d, chirp, spectrum) computes them in double\n"
                          " * (docs/fft.md). */\n", f->n, f->bluestein_m, f->direction == SG_FFT_INVERSE);
    sg_text_printf(t, "\n/* The scratch between the passes%s, and each pass's FFTs (its push constant count)\n"
                      " * for `transforms` transforms. */\n", f->bluestein_m ? " (each of two)" : "");
    sg_text_printf(t, "#define %sSCRATCH_BYTES(transforms) ((uint64_t)(transforms) * %ldu * 8u)\n", P, total);
    for (int i = 0; i < job->count; i++)
        sg_text_printf(t, "#define %sPASS%d_COUNT(transforms) ((transforms) * %ldu)\n", P, i + 1,
                       total / f->pass_n[i]);
}

void sg_fft_header(sg_text *t, const sg_run *run, const sg_job *job, const char *P, const char *fn)
{
    const sg_fft_params *f = run->params;
    if (job->count > 1) {
        plan_helpers(t, run, job, P);
        return;
    }
    if (f->rader_root) {
        sg_text_printf(t, "\n/* Binding 2 holds Rader's kernel spectrum: libspdrt's spdrt_fft_rader_tables(%ld, %ld, %d,\n"
                          " * spectrum) computes it in double (docs/fft.md). */\n", f->n, f->rader_root,
                       f->direction == SG_FFT_INVERSE);
        return;
    }
    if (f->path == SG_FFT_PATH_BLUESTEIN) {
        sg_text_printf(t, "\n/* Bindings 2 and 3 hold Bluestein's tables: libspdrt's spdrt_fft_bluestein_tables(%ld, %ld,\n"
                          " * %d, chirp, spectrum) computes them in double (docs/fft.md). */\n", f->n, f->bluestein_m,
                       f->direction == SG_FFT_INVERSE);
        return;
    }
    if (f->path != SG_FFT_PATH_POW2) return; /* natural order only: no native index */
    sg_text_printf(t, "\n/* --order native: frequency f is stored at element %snative_index(f), and element j\n"
                      " * holds frequency %snative_index(j) (bit reversal over log2(N) bits, an involution). */\n"
                      "static inline uint32_t %snative_index(uint32_t k)\n{\n"
                      "    uint32_t r = 0;\n"
                      "    for (uint32_t bit = 1; bit < %ldu; bit <<= 1, k >>= 1) r = (r << 1) | (k & 1u);\n"
                      "    return r;\n}\n", fn, fn, fn, f->n);
    if (f->twiddles == SG_FFT_TWIDDLES_LUT)
        sg_text_printf(t, "\n/* Fills the twiddle table (binding 2): table[2k], table[2k+1] = cos, -sin of 2 pi k / N,\n"
                          " * computed in double. Needs <math.h>. */\n"
                          "static inline void %sfill_twiddles(float table[%ld])\n{\n"
                          "    for (uint32_t k = 0; k < %ldu; k++) {\n"
                          "        double a = 6.283185307179586476925 * (double)k / %ld.0;\n"
                          "        table[2 * k] = (float)cos(a);\n"
                          "        table[2 * k + 1] = (float)-sin(a);\n"
                          "    }\n}\n", fn, f->n, f->n / 2, f->n);
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The plan file: "key value" lines, one line per pass: wg is the pass's local size (C x W
 * with its columns in lanes), subgroup the size its shuffles need (0: none), ept its
 * elements per invocation. */
char *sg_fft_manifest(const sg_run *run, const sg_job *job)
{
    const sg_fft_params *f = run->params;
    sg_text t = {0};
    long total = f->bluestein_m ? f->bluestein_m : f->n;
    if (f->bluestein_m)
        sg_text_printf(&t, "# spdgen %s (%s): Bluestein's chirp-z for N = %ld as a plan of three passes over\n"
                           "# M = %ld = %ld x %ld points, run by libspdrt's spdrt_fft_plan_load. Generated;\n"
                           "# regenerate with:\n", SPDGEN_VERSION, sg_revision, f->n, f->bluestein_m,
                       f->pass_n[0], f->pass_n[1]);
    else
        sg_text_printf(&t, "# spdgen %s (%s): a four-step FFT plan of N = %ld = %ld x %ld, run by\n"
                           "# libspdrt's spdrt_fft_plan_load. Generated; regenerate with:\n",
                       SPDGEN_VERSION, sg_revision, f->n, f->pass_n[0], f->pass_n[1]);
    sg_text_command(&t, "#   ", "#       ", run->command);
    sg_text_printf(&t, "spdgen-fft-plan 1\nn %ld\ndirection %s\nnorm %s\nstorage %s\npasses %d\n", f->n,
                   sg_fft_directions[f->direction], sg_fft_norms[f->norm], sg_fft_storages[f->storage],
                   job->count);
    if (f->bluestein_m) sg_text_printf(&t, "bluestein %ld\n", f->bluestein_m);
    for (int p = 0; p < job->count; p++) {
        const sg_contract *c = &job->shaders[p].gen.contract;
        sg_text_printf(&t, "pass %d file %s n %ld wg %ld subgroup %ld columns %lld shared %ld ffts %ld "
                           "ept %ld\n", p + 1, file_name(job->shaders[p].path), f->pass_n[p],
                       c->workgroup[0], c->subgroup, sg_contract_int(c, "COLUMNS_PER_WORKGROUP", 1),
                       c->shared_bytes, total / f->pass_n[p], f->pass_ept[p]);
    }
    return sg_text_take(&t);
}
