/* fft_plan.c: running a four-step FFT plan (spdrt_fft.h): its passes' pipelines, the
 * scratch buffer between them, one command buffer with a barrier between the passes, and
 * the plan file spdgen writes (NAME.fftplan). Bluestein's plans (N with a prime factor above
 * 13, M = bluestein_m beyond one dispatch) have three passes over M = M1 x M2 points, two
 * scratch buffers, and one chirp and kernel spectrum that every pass binds (2 and 3). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_internal.h"

#define MAX_PASSES 3
#define FOUR_STEP_PASSES 2
#define BLUESTEIN_PASSES 3

struct spdrt_fft_plan {
    spdrt_fft_config whole;
    uint32_t count;
    spdrt_fft_pipeline *pipes[MAX_PASSES];
    spdrt_fft_pass passes[MAX_PASSES]; /* spirv pointers cleared: not kept */
    spdrt_buffer chirp, spectrum;      /* Bluestein's tables */
};

/* The passes make the transform: N1 x N2 = N (Bluestein: M, and pass 3 is pass 1's shape). */
static int passes_fit(const spdrt_fft_config *whole, const spdrt_fft_pass *passes, uint32_t count)
{
    uint64_t total = whole->bluestein_m ? whole->bluestein_m : whole->n;
    if ((uint64_t)passes[0].n * passes[1].n != total || passes[0].ffts_per_transform != passes[1].n ||
        passes[1].ffts_per_transform != passes[0].n)
        return 0;
    return count == FOUR_STEP_PASSES ||
           (passes[2].n == passes[0].n && passes[2].ffts_per_transform == passes[0].ffts_per_transform);
}

spdrt_result spdrt_fft_plan_create(spdrt_context *ctx, const spdrt_fft_config *whole,
                                   const spdrt_fft_pass *passes, uint32_t count, spdrt_fft_plan **out)
{
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!out || !whole || !passes)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_plan_create: whole, passes and out are required");
    *out = NULL;
    uint32_t want = whole->bluestein_m ? BLUESTEIN_PASSES : FOUR_STEP_PASSES;
    if (count != want)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a %s plan has %u passes, not %u",
                            whole->bluestein_m ? "Bluestein" : "four-step", want, count);
    if (whole->real || whole->native || whole->strided || whole->lut)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "a four-step plan is complex, natural-order rows only");
    if (whole->bluestein_m && (whole->n < 2 || whole->bluestein_m < 2 * whole->n - 1 ||
                               (whole->bluestein_m & (whole->bluestein_m - 1))))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "Bluestein's M = %u is not the power of two >= 2N - 1 "
                            "for N = %u", whole->bluestein_m, whole->n);
    if (!passes_fit(whole, passes, count))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "the passes (%u x %u points) do not make %s = %u",
                            passes[0].n, passes[1].n, whole->bluestein_m ? "M" : "N",
                            whole->bluestein_m ? whole->bluestein_m : whole->n);
    spdrt_fft_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    plan->whole = *whole;
    plan->count = count;
    for (uint32_t p = 0; p < count; p++) {
        spdrt_fft_config c = *whole;
        c.n = passes[p].n;
        c.wg = passes[p].wg;
        c.subgroup = passes[p].subgroup;
        c.columns = passes[p].columns;
        c.shared_bytes = passes[p].shared_bytes;
        c.strided = 1; /* column FFTs */
        c.bluestein_m = 0;
        /* Bluestein's passes bind the plan's tables (2, 3); a four-step plan's none. */
        spdrt_result res = spdrt__fft_pipeline_create(ctx, passes[p].spirv, passes[p].spirv_words, &c,
                                                      whole->bluestein_m ? 4 : 2, &plan->pipes[p]);
        if (res != SPDRT_OK) {
            spdrt_fft_plan_destroy(ctx, plan);
            return res;
        }
        plan->passes[p] = passes[p];
        plan->passes[p].spirv = NULL;
    }
    if (whole->bluestein_m) {
        spdrt_result res = spdrt__fft_tables_create(ctx, whole->n, whole->bluestein_m, whole->inverse,
                                                    &plan->chirp, &plan->spectrum);
        if (res != SPDRT_OK) {
            spdrt_fft_plan_destroy(ctx, plan);
            return res;
        }
    }
    *out = plan;
    return SPDRT_OK;
}

void spdrt_fft_plan_destroy(spdrt_context *ctx, spdrt_fft_plan *plan)
{
    if (!plan) return;
    for (uint32_t p = 0; p < MAX_PASSES; p++) spdrt_fft_pipeline_destroy(ctx, plan->pipes[p]);
    if (ctx && !ctx->hung) {
        spdrt__buffer_destroy(ctx, &plan->chirp);
        spdrt__buffer_destroy(ctx, &plan->spectrum);
    }
    free(plan);
}

const spdrt_fft_config *spdrt_fft_plan_config(const spdrt_fft_plan *plan) { return &plan->whole; }

/* ---- the plan file ------------------------------------------------------------------------ */

/* A pass line, "pass P file F n N wg W subgroup S columns C shared B ffts K ept E" (W the local
 * size; ept, for tools, is not needed here but must be a number): into *ps and *p; -1 if any
 * word is missing, out of place or not a whole number. */
static int pass_line(char **w, int count, uint32_t *p, char file[256], spdrt_fft_pass *ps)
{
    static const char *const keys[] = {"n", "wg", "subgroup", "columns", "shared", "ffts", "ept"};
    uint32_t v[7];
    if (count != 18 || strcmp(w[0], "pass") || spdrt__plan_u32(w[1], p) || strcmp(w[2], "file") ||
        strlen(w[3]) >= 256)
        return -1;
    for (int k = 0; k < 7; k++)
        if (strcmp(w[4 + 2 * k], keys[k]) || spdrt__plan_u32(w[5 + 2 * k], &v[k])) return -1;
    snprintf(file, 256, "%s", w[3]);
    ps->n = v[0], ps->wg = v[1], ps->subgroup = v[2], ps->columns = v[3], ps->shared_bytes = v[4];
    ps->ffts_per_transform = v[5];
    return 0;
}

/* Lines "key value" and pass lines (pass_line); "bluestein M" in Bluestein's plans, whose
 * passes are three. Comment lines start with "#". Any other line, an unknown key, a key given
 * twice, a value out of its set or a number with anything else in it fails the load, naming
 * the line: a damaged plan never runs. */
spdrt_result spdrt_fft_plan_load(spdrt_context *ctx, const char *path, spdrt_fft_plan **out)
{
    static const char *const keys[] = {"spdgen-fft-plan", "n", "direction", "norm", "storage", "bluestein",
                                       "passes", NULL};
    static const char *const directions[] = {"forward", "inverse", NULL};
    static const char *const norms[] = {"none", "unitary", "inverse", NULL};
    static const char *const storages[] = {"f32", "f16", NULL};
    static const spdrt_fft_norm norm_values[] = {SPDRT_FFT_NORM_NONE, SPDRT_FFT_NORM_UNITARY,
                                                 SPDRT_FFT_NORM_INVERSE};
    spdrt_fft_config whole;
    spdrt_fft_pass passes[MAX_PASSES];
    uint32_t *code[MAX_PASSES] = {NULL, NULL, NULL};
    char dir[1024];
    uint32_t version = 0, passes_named = 0;
    int passes_seen = 0, number = 0, passes_line = 0, nul_line = 0;
    unsigned seen = 0;
    spdrt_result res = SPDRT_OK;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (!out || !path) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_plan_load: path and out are required");
    *out = NULL;
    char *text = spdrt__plan_text(path, &nul_line), *cursor = text, *line;
    if (!text) return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "cannot open the FFT plan %s", path);
    if (nul_line) {
        free(text);
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: line %d holds a NUL byte", path, nul_line);
    }
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = '\0';
    else dir[0] = '\0';
    memset(&whole, 0, sizeof whole);
    memset(passes, 0, sizeof passes);
    while (res == SPDRT_OK && (line = spdrt__plan_line(&cursor))) {
        char shown[200], *w[20], file[256];
        number++;
        snprintf(shown, sizeof shown, "%s", line);
        int count = spdrt__plan_words(line, w, 19), bad = 0, choice = 0;
        uint32_t p;
        if (count == 0 || w[0][0] == '#') continue;
        if (!strcmp(w[0], "pass")) {
            spdrt_fft_pass read;
            memset(&read, 0, sizeof read);
            if (pass_line(w, count, &p, file, &read) || p < 1 || p > MAX_PASSES || code[p - 1]) {
                res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: line %d: malformed pass line: %s", path,
                                   number, shown);
                break;
            }
            char full[1400];
            snprintf(full, sizeof full, "%s%s", dir, file);
            spdrt_fft_pass *ps = &passes[p - 1];
            *ps = read;
            code[p - 1] = spdrt__read_words(full, &ps->spirv_words);
            if (!code[p - 1]) {
                res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: line %d: cannot read the pass file %s", path,
                                   number, full);
                break;
            }
            ps->spirv = code[p - 1];
            passes_seen++;
            continue;
        }
        int key = spdrt__plan_key(w[0], keys, &seen);
        if (count != 2 || key < 0) bad = 1;
        else if (key == 0) bad = spdrt__plan_u32(w[1], &version) || version != 1;
        else if (key == 1) bad = spdrt__plan_u32(w[1], &whole.n) || whole.n < 2;
        else if (key == 2) choice = spdrt__plan_choice(w[1], directions), whole.inverse = choice == 1;
        else if (key == 3) choice = spdrt__plan_choice(w[1], norms), whole.norm = norm_values[choice < 0 ? 0 : choice];
        else if (key == 4) choice = spdrt__plan_choice(w[1], storages), whole.f16 = choice == 1;
        else if (key == 5) bad = spdrt__plan_u32(w[1], &whole.bluestein_m) || !whole.bluestein_m;
        else bad = spdrt__plan_u32(w[1], &passes_named) || !passes_named, passes_line = number;
        if (bad || choice < 0)
            res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: line %d: not a line of a version-1 FFT plan%s: %s",
                               path, number, key < 0 && spdrt__plan_choice(w[0], keys) >= 0 ? " (a key given twice)" : "",
                               shown);
    }
    free(text);
    int want = whole.bluestein_m ? BLUESTEIN_PASSES : FOUR_STEP_PASSES;
    if (res == SPDRT_OK && passes_line && passes_named != (uint32_t)want)
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s: line %d: passes %u, but a%s plan has %d", path, passes_line,
                           passes_named, whole.bluestein_m ? " Bluestein" : " four-step", want);
    else if (res == SPDRT_OK && (version != 1 || passes_seen != want))
        res = spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "%s is not a version-1 FFT plan with %d pass lines%s", path, want,
                           whole.bluestein_m ? " (Bluestein's)" : "");
    if (res == SPDRT_OK) res = spdrt_fft_plan_create(ctx, &whole, passes, (uint32_t)want, out);
    for (int p = 0; p < MAX_PASSES; p++) free(code[p]);
    return res;
}

/* ---- a run -------------------------------------------------------------------------------- */

spdrt_result spdrt_fft_plan_run(spdrt_context *ctx, spdrt_fft_plan *plan, const spdrt_fft_params *params,
                                const float *input, float *output, double *gpu_ms)
{
    spdrt__fft_resources rs;
    VkCommandBuffer cb;
    spdrt_result res;
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    const VkAccessFlags shader_rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    if (!ctx) return SPDRT_ERROR_ARGUMENT;
    if (gpu_ms) *gpu_ms = -1.0;
    if (!plan || !params || !input || !output || params->count == 0)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_plan_run: plan, params (count >= 1), input and output are required");
    if (!spdrt__fft_strides_fit(&plan->whole, params))
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "spdrt_fft_plan_run: in_stride %u and out_stride %u must be 0 "
                            "or at least a row (%u)", params->in_stride, params->out_stride, plan->whole.n);
    if (ctx->hung) return spdrt__error(ctx, SPDRT_ERROR_VULKAN, "an earlier submission never finished; the context is unusable");
    const spdrt_fft_config *w = &plan->whole;
    uint32_t push[MAX_PASSES][4], groups[MAX_PASSES], in_stride, out_stride;
    spdrt_fft_strides(w, params, &in_stride, &out_stride);
    for (uint32_t p = 0; p < plan->count; p++) {
        uint32_t ffts = params->count * plan->passes[p].ffts_per_transform;
        uint32_t cols = plan->passes[p].columns;
        groups[p] = (ffts + cols - 1) / cols;
        if (groups[p] > ctx->limits.maxComputeWorkGroupCount[0])
            return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "pass %u needs %u workgroups; the device allows %u", p + 1,
                                groups[p], ctx->limits.maxComputeWorkGroupCount[0]);
        /* Pass 1 reads the input rows (in_stride); the last pass writes the output rows. */
        push[p][0] = ffts;
        push[p][1] = p == 0 ? in_stride : 0;
        push[p][2] = p + 1 == plan->count ? out_stride : 0;
        push[p][3] = 0;
    }
    size_t in_floats = spdrt_fft_input_floats(w, params), out_floats = spdrt_fft_output_floats(w, params);
    size_t scalar = w->f16 ? 2 : 4;
    VkDeviceSize scratch_bytes = (VkDeviceSize)params->count * (w->bluestein_m ? w->bluestein_m : w->n) * 8;
    memset(&rs, 0, sizeof rs);
    res = spdrt__fft_resources_create(ctx, in_floats * scalar, scratch_bytes,
                                      out_floats * scalar, &rs);
    if (res == SPDRT_OK && plan->count > 2)
        res = spdrt__buffer_create(ctx, scratch_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &rs.scratch2);
    if (res != SPDRT_OK) goto done;
    spdrt__fft_upload(&rs, w->f16, input, in_floats);
    /* src -> scratch -> (scratch2 ->) dst. */
    const spdrt_buffer *chain[MAX_PASSES + 1] = {&rs.src, &rs.scratch, &rs.scratch2, &rs.dst};
    chain[plan->count] = &rs.dst;
    for (uint32_t p = 0; p < plan->count; p++)
        spdrt__fft_bind_tables(ctx, plan->pipes[p], chain[p], chain[p + 1], &plan->chirp, &plan->spectrum);
    res = spdrt__commands_begin(ctx, &cb);
    if (res != SPDRT_OK) goto done;
    VkBufferCopy copy;
    memset(&copy, 0, sizeof copy);
    if (rs.timestamps) vkCmdResetQueryPool(cb, rs.timestamps, 0, 2);
    copy.size = in_floats * scalar;
    vkCmdCopyBuffer(cb, rs.upload.buffer, rs.src.buffer, 1, &copy);
    vkCmdFillBuffer(cb, rs.scratch.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu); /* NaN: unwritten values show */
    if (rs.scratch2.buffer) vkCmdFillBuffer(cb, rs.scratch2.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    vkCmdFillBuffer(cb, rs.dst.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, compute, shader_rw);
    if (rs.timestamps) vkCmdWriteTimestamp(cb, compute, rs.timestamps, 0);
    for (uint32_t p = 0; p < plan->count; p++) {
        const spdrt_fft_pipeline *fp = plan->pipes[p];
        /* The scratch the pass before wrote is what this one reads. */
        if (p > 0)
            spdrt__memory_barrier(cb, compute, VK_ACCESS_SHADER_WRITE_BIT, compute, shader_rw);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.layout, 0, 1,
                                &fp->pipe.sets[0], 0, NULL);
        vkCmdPushConstants(cb, fp->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, FFT_PUSH_BYTES, push[p]);
        vkCmdDispatch(cb, groups[p], 1, 1);
    }
    if (rs.timestamps) vkCmdWriteTimestamp(cb, compute, rs.timestamps, 1);
    spdrt__memory_barrier(cb, compute, VK_ACCESS_SHADER_WRITE_BIT, transfer,
                          VK_ACCESS_TRANSFER_READ_BIT);
    copy.size = out_floats * scalar;
    vkCmdCopyBuffer(cb, rs.dst.buffer, rs.readback.buffer, 1, &copy);
    spdrt__memory_barrier(cb, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_HOST_READ_BIT);
    res = spdrt__commands_submit(ctx, cb);
    if (res != SPDRT_OK) goto done;
    spdrt__fft_download(&rs, w->f16, output, out_floats);
    if (gpu_ms) spdrt__timestamps_ms(ctx, rs.timestamps, gpu_ms); /* -1 when it fails */
done:
    spdrt__fft_resources_release(ctx, &rs);
    return res;
}
