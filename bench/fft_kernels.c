/* fft_kernels.c: spdgen --fft shaders for the FFT benchmark, their pipelines bound to the
 * benchmark's own buffers, and the recorded dispatches (fft_bench.h).
 *
 * The runtime's spdrt_fft_run and spdrt_fft_plan_run allocate, upload and read back on
 * every call, which is right for a check and wrong for timing: here each variant's
 * pipelines (spdrt_fft_pipeline_create, the contract's layout, subgroup size and full
 * subgroups) are bound once to buffers that live through the whole run, and the dispatches
 * are recorded into the harness's command buffer exactly as the runtime records them
 * (runtime/fft/fft_run.c, runtime/fft/fft_plan.c): the contract's push constants and grid,
 * and for a plan a compute-to-compute barrier between its passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fft_bench.h"
#include "fft/fft_internal.h"

/* ---- spdgen -------------------------------------------------------------------------- */

/* `#define NAME value` of a contract header, or -1. */
static long header_define(const char *path, const char *name) {
    FILE *f = fopen(path, "r");
    char line[512], key[128];
    long value = -1, v;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#define %127s %ld", key, &v) == 2 && !strcmp(key, name))
            value = v;
    fclose(f);
    return value;
}

static spdrt_fft_config base_config(const fft_request *r) {
    spdrt_fft_config c;
    memset(&c, 0, sizeof c);
    c.n = r->n;
    c.real = r->real;
    c.strided = r->strided;
    c.lut = r->lut;
    c.norm = SPDRT_FFT_NORM_INVERSE; /* forward: no scaling */
    return c;
}

static int read_single(const fft_request *r, const char *spv, const char *header,
                       fft_shader *out, char *err, size_t err_size) {
    long wg = header_define(header, "FFT_WORKGROUP_SIZE_X");
    long ept = header_define(header, "FFT_ELEMENTS_PER_INVOCATION");
    long columns = header_define(header, "FFT_COLUMNS_PER_WORKGROUP");
    long shared = header_define(header, "FFT_SHARED_MEMORY_BYTES");
    long subgroup = header_define(header, "FFT_SUBGROUP_SIZE");
    if (wg < 1 || ept < 1 || columns < 1 || shared < 0 || subgroup < 0) {
        snprintf(err, err_size, "the contract header %s lacks the workgroup, elements, columns, "
                 "shared memory or subgroup size", header);
        return -1;
    }
    out->passes = 1;
    out->config[0] = base_config(r);
    out->config[0].wg = (uint32_t)wg;
    out->config[0].subgroup = (uint32_t)subgroup;
    out->config[0].columns = (uint32_t)columns;
    out->config[0].shared_bytes = (uint32_t)shared;
    out->ept[0] = (uint32_t)ept;
    /* Bluestein's lengths: the pipeline computes and binds its two tables (bindings 2 and
     * 3, runtime/fft/fft_run.c) when the configuration names M. */
    if (header_define(header, "FFT_BLUESTEIN_M") > 0)
        out->config[0].bluestein_m = (uint32_t)header_define(header, "FFT_BLUESTEIN_M");
    /* Rader's: the kernel spectrum (binding 2) when it names the root. */
    if (header_define(header, "FFT_RADER_ROOT") > 0)
        out->config[0].rader_root = (uint32_t)header_define(header, "FFT_RADER_ROOT");
    out->rows_in_turn = header_define(header, "FFT_ROWS_IN_TURN") == 1;
    out->ffts_per_transform[0] = 1;
    out->whole = out->config[0];
    out->spirv[0] = bench_read_spirv(spv, &out->words[0], err, err_size);
    return out->spirv[0] ? 0 : -1;
}

/* The plan file (runtime/fft/fft_plan.c reads the same lines): "pass P file F n N wg W
 * subgroup S columns C shared B ffts K ept E" (W the local size), plus the whole
 * transform's keys. */
static int read_plan(const fft_request *r, const char *dir, const char *path, fft_shader *out,
                     char *err, size_t err_size) {
    FILE *f = fopen(path, "r");
    char line[1024], word[64], value[512];
    int version = 0, seen = 0, forward = 1, f32 = 1;
    if (!f) {
        snprintf(err, err_size, "cannot open %s", path);
        return -1;
    }
    out->plan = 1;
    out->whole = base_config(r);
    while (fgets(line, sizeof line, f)) {
        unsigned p, n, wg, sg, cols, shared, ffts, ept;
        char file[256], full[BENCH_PATH_MAX + 300];
        if (line[0] == '#' || sscanf(line, "%63s %511s", word, value) != 2)
            continue;
        if (!strcmp(word, "spdgen-fft-plan"))
            version = atoi(value);
        else if (!strcmp(word, "direction"))
            forward = !strcmp(value, "forward");
        else if (!strcmp(word, "storage"))
            f32 = !strcmp(value, "f32");
        else if (!strcmp(word, "bluestein")) {
            /* Three passes with Bluestein's tables bound: spdrt_fft_plan_run runs them; this
             * harness times plans of two passes only. */
            snprintf(err, err_size, "Bluestein's plan of three passes (M = %s): not timed by "
                     "fft_bench yet (spdgen --fft %u --selftest checks it)", value, r->n);
            fclose(f);
            return -1;
        } else if (!strcmp(word, "pass")) {
            if (sscanf(line, "pass %u file %255s n %u wg %u subgroup %u columns %u shared %u "
                       "ffts %u ept %u", &p, file, &n, &wg, &sg, &cols, &shared, &ffts, &ept) != 9 ||
                p < 1 || p > 2 || out->spirv[p - 1] || wg == 0 || ept == 0 || n % ept) {
                snprintf(err, err_size, "%s: malformed pass line: %.200s", path, line);
                fclose(f);
                return -1;
            }
            spdrt_fft_config *c = &out->config[p - 1];
            *c = out->whole;
            c->n = n, c->wg = wg, c->subgroup = sg, c->columns = cols, c->shared_bytes = shared;
            c->strided = 1; /* column FFTs, as spdrt_fft_plan_create builds them */
            out->ept[p - 1] = ept;
            out->ffts_per_transform[p - 1] = ffts;
            snprintf(full, sizeof full, "%s/%s", dir, file);
            out->spirv[p - 1] = bench_read_spirv(full, &out->words[p - 1], err, err_size);
            if (!out->spirv[p - 1]) {
                fclose(f);
                return -1;
            }
            seen++;
        }
    }
    fclose(f);
    out->passes = 2;
    if (version != 1 || seen != 2 || !forward || !f32 ||
        (uint64_t)out->config[0].n * out->config[1].n != r->n) {
        snprintf(err, err_size, "%s is not a forward fp32 version-1 plan of two passes making "
                 "N = %u", path, r->n);
        return -1;
    }
    return 0;
}

int fft_generate(bench_spdgen *g, const fft_request *r, const char *name, fft_shader *out,
                 char *command, size_t command_size, char *err, size_t err_size) {
    char n[16], ept[16], wg[16], sub[16], max_wg[16], rows[16], prefetch[16];
    char *spv = out->files[0], *header = out->files[1];
    char *argv[40];
    int a = 0, i, status;
    size_t used = strlen(command);
    memset(out, 0, sizeof *out);
    snprintf(spv, sizeof out->files[0], "%s/%s.spv", g->tmpdir, name);
    snprintf(header, sizeof out->files[1], "%s/%s.h", g->tmpdir, name);
    snprintf(out->files[2], sizeof out->files[2], "%s/%s.pass1.spv", g->tmpdir, name);
    snprintf(out->files[3], sizeof out->files[3], "%s/%s.pass2.spv", g->tmpdir, name);
    snprintf(out->files[4], sizeof out->files[4], "%s/%s.fftplan", g->tmpdir, name);
    for (i = 0; i < 5; i++)
        remove(out->files[i]);
    snprintf(n, sizeof n, "%u", r->n);
    snprintf(ept, sizeof ept, "%u", r->ept);
    snprintf(wg, sizeof wg, "%u", r->wg);
    snprintf(sub, sizeof sub, "%u", r->subgroup);
    snprintf(max_wg, sizeof max_wg, "%u", r->max_wg);
    snprintf(rows, sizeof rows, "%u", r->rows_per_wg);
    snprintf(prefetch, sizeof prefetch, "%u", r->prefetch_rows);
    argv[a++] = g->path, argv[a++] = "--fft", argv[a++] = n;
    if (r->ept)
        argv[a++] = "--ept", argv[a++] = ept;
    if (r->wg)
        argv[a++] = "--wg", argv[a++] = wg;
    if (r->max_wg)
        argv[a++] = "--max-wg", argv[a++] = max_wg;
    argv[a++] = "--subgroup", argv[a++] = sub;
    if (r->strided)
        argv[a++] = "--stride";
    if (r->real)
        argv[a++] = "--real";
    if (r->rows_per_wg)
        argv[a++] = "--rows-per-wg", argv[a++] = rows;
    if (r->prefetch_rows)
        argv[a++] = "--prefetch-rows", argv[a++] = prefetch;
    if (r->lut)
        argv[a++] = "--twiddles", argv[a++] = "lut";
    else if (r->twiddles)
        argv[a++] = "--twiddles", argv[a++] = (char *)r->twiddles; /* execv does not write */
    if (r->paired)
        argv[a++] = "--shared-layout", argv[a++] = "paired";
    if (r->column_layout)
        argv[a++] = "--column-layout", argv[a++] = (char *)r->column_layout;
    if (r->columns_per_wg)
        argv[a++] = "--columns-per-wg", argv[a++] = (char *)r->columns_per_wg;
    /* The report's command: the arguments so far, spdgen's path shown as "spdgen". */
    for (i = 0; i < a; i++)
        used += (size_t)snprintf(command + used, used < command_size ? command_size - used : 0,
                                 "%s%s", i ? " " : "", i ? argv[i] : "spdgen");
    argv[a++] = "--target", argv[a++] = "spirv", argv[a++] = "-o", argv[a++] = spv;
    argv[a++] = "--name", argv[a++] = "fft"; /* the FFT_ names read_single reads */
    argv[a++] = "--emit-header", argv[a++] = header;
    argv[a] = NULL;
    *err = '\0';
    status = bench_run_program(argv, NULL, err, err_size);
    if (status != 0) {
        if (status > 0)
            snprintf(err, err_size, "spdgen exited with status %d (its message is above)",
                     status);
        fft_shader_free(out);
        return -1;
    }
    if (access(out->files[4], R_OK) == 0) {
        snprintf(out->plan_path, sizeof out->plan_path, "%s", out->files[4]);
        status = read_plan(r, g->tmpdir, out->files[4], out, err, err_size);
    } else {
        status = read_single(r, spv, header, out, err, err_size);
    }
    if (status != 0)
        fft_shader_free(out);
    return status;
}

int fft_valid_pairs(bench_spdgen *g, uint32_t n, uint32_t (*pairs)[2], uint32_t max, char *err,
                    size_t err_size) {
    char num[16], path[BENCH_PATH_MAX + 32], spv[BENCH_PATH_MAX + 32], text[2048];
    char *argv[12], *p;
    uint32_t count = 0, e, w;
    FILE *f;
    size_t got;
    int status;
    snprintf(num, sizeof num, "%u", n);
    snprintf(path, sizeof path, "%s/pairs.txt", g->tmpdir);
    snprintf(spv, sizeof spv, "%s/pairs.spv", g->tmpdir);
    /* 2 x 1 makes 2 points, never N >= 3: spdgen refuses it and lists the pairs that do. */
    argv[0] = g->path, argv[1] = "--fft", argv[2] = num, argv[3] = "--ept", argv[4] = "2";
    argv[5] = "--wg", argv[6] = "1", argv[7] = "--target", argv[8] = "spirv", argv[9] = "-o";
    argv[10] = spv, argv[11] = NULL;
    *err = '\0';
    status = bench_run_program_quiet(argv, path, err, err_size);
    remove(spv);
    f = fopen(path, "r");
    got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[got] = '\0';
    if (f)
        fclose(f);
    remove(path);
    if (status < 0)
        return -1;
    p = strstr(text, "; use ");
    if (status != 2 || !p) {
        snprintf(err, err_size, "spdgen --fft %u --ept 2 --wg 1 listed no pairs (exit %d): %.200s",
                 n, status, text);
        return -1;
    }
    for (p += 6; p && count < max && sscanf(p, "--ept %u --wg %u", &e, &w) == 2;) {
        pairs[count][0] = e, pairs[count][1] = w;
        count++;
        p = strstr(p + 1, "--ept "); /* the next pair, in this list or the next one (Rader's) */
    }
    return (int)count;
}

void fft_shader_free(fft_shader *s) {
    int i;
    for (i = 0; i < 2; i++)
        free(s->spirv[i]);
    for (i = 0; i < 5; i++)
        if (s->files[i][0])
            remove(s->files[i]);
    memset(s, 0, sizeof *s);
}

/* "E x W" of one shader, and its FFTs per workgroup: columns in lanes (the local size is
 * C x W) or in registers, or rows. */
static void pass_shape(const fft_shader *s, int p, char *out, size_t size) {
    const spdrt_fft_config *c = &s->config[p];
    /* Bluestein: E x W = M; Rader: N - 1 */
    uint32_t len = c->bluestein_m ? c->bluestein_m : c->rader_root ? c->n - 1 : c->n;
    uint32_t w = len / s->ept[p], lanes = c->wg / w;
    char per_wg[64] = "", m[32] = "";
    /* Mixed radix: rows side by side, each on W consecutive invocations. */
    if (lanes > 1 && !c->strided && !s->plan)
        snprintf(per_wg, sizeof per_wg, " x %u rows side by side", lanes);
    else if (lanes > 1)
        snprintf(per_wg, sizeof per_wg, " x %u columns in lanes", lanes);
    else if (c->columns > 1)
        snprintf(per_wg, sizeof per_wg, ", %u %s per workgroup", c->columns,
                 c->strided ? "columns in registers" : s->rows_in_turn ? "rows in turn" : "rows in registers");
    if (c->bluestein_m)
        snprintf(m, sizeof m, " (Bluestein, M = %u)", c->bluestein_m);
    else if (c->rader_root)
        snprintf(m, sizeof m, " (Rader, L = %u)", c->n - 1);
    snprintf(out, size, "E %u x W %u%s%s", s->ept[p], w, per_wg, m);
}

void fft_shader_shape(const fft_shader *s, char *out, size_t size) {
    char first[96], second[96];
    pass_shape(s, 0, first, sizeof first);
    if (s->plan) {
        pass_shape(s, 1, second, sizeof second);
        snprintf(out, size, "plan %u x %u: %s, then %s; S %u", s->config[0].n, s->config[1].n,
                 first, second, s->config[0].subgroup);
        return;
    }
    snprintf(out, size, "%s, S %u", first, s->config[0].subgroup);
}

/* ---- pipelines and dispatches -------------------------------------------------------- */

static spdrt_result add_dispatch(fft_kernel *k, const spdrt_fft_config *c, const uint32_t *spirv,
                                 size_t words, const spdrt_buffer *src, const spdrt_buffer *dst,
                                 const uint32_t push[4]) {
    spdrt_context *ctx = k->ctx;
    uint32_t i = k->count, groups = (push[0] + c->columns - 1) / c->columns;
    spdrt_result res;
    if (i >= 2)
        return spdrt__error(ctx, SPDRT_ERROR_ARGUMENT, "fft_bench: more than two dispatches");
    if (groups > ctx->limits.maxComputeWorkGroupCount[0])
        return spdrt__error(ctx, SPDRT_ERROR_UNSUPPORTED, "%u workgroups exceed the device's "
                            "%u per dispatch", groups, ctx->limits.maxComputeWorkGroupCount[0]);
    res = spdrt_fft_pipeline_create(ctx, spirv, words, c, &k->pipe[i]);
    if (res != SPDRT_OK)
        return res;
    spdrt__fft_bind(ctx, k->pipe[i], src, dst);
    memcpy(k->push[i], push, sizeof k->push[i]);
    k->groups[i] = groups;
    k->count++;
    return SPDRT_OK;
}

spdrt_result fft_kernel_add(fft_kernel *k, const fft_shader *s, const spdrt_buffer *src,
                            const spdrt_buffer *scratch, const spdrt_buffer *dst, uint32_t count,
                            uint32_t in_stride, uint32_t out_stride) {
    spdrt_fft_params params;
    uint32_t ins, outs, p;
    memset(&params, 0, sizeof params);
    params.count = count, params.in_stride = in_stride, params.out_stride = out_stride;
    spdrt_fft_strides(&s->whole, &params, &ins, &outs);
    if (!s->plan) {
        uint32_t push[4] = {count, ins, outs, 0};
        return add_dispatch(k, &s->config[0], s->spirv[0], s->words[0], src, dst, push);
    }
    /* runtime/fft/fft_plan.c: pass 1 reads the rows into the scratch, pass 2 writes the rows. */
    for (p = 0; p < 2; p++) {
        uint64_t ffts = (uint64_t)count * s->ffts_per_transform[p];
        uint32_t push[4] = {(uint32_t)ffts, p == 0 ? ins : 0, p == 1 ? outs : 0, 0};
        spdrt_result res;
        if (ffts > 0xffffffffu)
            return spdrt__error(k->ctx, SPDRT_ERROR_UNSUPPORTED, "pass %u: %llu FFTs", p + 1,
                                (unsigned long long)ffts);
        res = add_dispatch(k, &s->config[p], s->spirv[p], s->words[p], p == 0 ? src : scratch,
                           p == 0 ? scratch : dst, push);
        if (res != SPDRT_OK)
            return res;
    }
    return SPDRT_OK;
}

void fft_kernel_record(VkCommandBuffer cb, void *user) {
    const fft_kernel *k = user;
    uint32_t i;
    for (i = 0; i < k->count; i++) {
        const spdrt_fft_pipeline *fp = k->pipe[i];
        if (k->alone && k->alone != i + 1)
            continue;
        /* What the previous dispatch wrote is what this one reads. */
        if (i > 0 && !k->alone)
            spdrt__memory_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fp->pipe.layout, 0, 1,
                                &fp->pipe.sets[0], 0, NULL);
        vkCmdPushConstants(cb, fp->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, FFT_PUSH_BYTES,
                           k->push[i]);
        vkCmdDispatch(cb, k->groups[i], 1, 1);
    }
}

void fft_kernel_destroy(fft_kernel *k) {
    uint32_t i;
    for (i = 0; i < 2; i++)
        if (k->pipe[i])
            spdrt_fft_pipeline_destroy(k->ctx, k->pipe[i]); /* frees only, if the device hung */
    memset(k->pipe, 0, sizeof k->pipe);
    k->count = 0;
}
