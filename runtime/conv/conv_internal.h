/* conv_internal.h: what the --conv runtime's files (conv_load.c, conv_run.c) and the
 * benchmark share; not installed. */
#ifndef SPDRT_CONV_INTERNAL_H
#define SPDRT_CONV_INTERNAL_H

#include "core/internal.h"
#include "spdrt_conv.h"
#include "spdrt_vk.h"

#define CONV_PUSH_BYTES 32u
/* The shaders in the order they run; CONV_RESAMPLE only in a resampled job. */
enum { CONV_SPECTRUM1, CONV_SPECTRUM2, CONV_RESAMPLE, CONV_PASS1, CONV_PASS2, CONV_PASS3, CONV_SHADERS };

/* One shader of the plan. */
typedef struct {
    uint32_t wg, subgroup, shared, n, columns, groups_per_channel;
    spdrt_pipeline pipe;
} conv_shader;

/* The push constants every shader takes, in the contract's order. */
typedef struct {
    uint32_t width, height, psf_width, psf_height;
    float intensity;
    uint32_t composite;
    float sharpen, psf_scale;
} conv_push;

struct spdrt_conv {
    spdrt_conv_info info;
    uint32_t e1_max, e2_max, k2_max, p1, q1;   /* along the passes' axes */
    uint64_t values[5];                        /* complex values of z, y, s, zk, r */
    uint32_t s_tile;                           /* the exact spectrum's tiles: columns each */
    conv_shader shaders[CONV_SHADERS];
    spdrt_buffer z, y, s, zk;                  /* device-local */
    spdrt_buffer r;                            /* resampled: s at the image's frequencies */
    float resampled_scale;                     /* the psf_scale r was last resampled (or
                                                  recorded to be) for; 0: r is stale */
    float scale;                               /* the psf_scale of the last run or record
                                                  (1 at first): spdrt_conv_set_kernel's */
    spdrt_buffer psf;                          /* host-visible, the plan's largest PSF */
    uint32_t psf_width, psf_height;            /* of the PSF set last (0: none yet) */
    int bound;                                 /* an input and output are bound */
};

/* conv_parse.c: the shaders' role names in the plan, in the order they run (NULL after). */
extern const char *const spdrt__conv_roles[CONV_SHADERS + 1];
/* The plan's text (cut into words in place) into conv's info, sizes, buffers and shaders
 * (their module files into files): 0, or -1 with " (line N: ...)" or why not in why. */
int spdrt__conv_parse_plan(spdrt_conv *conv, char *text, char files[CONV_SHADERS][256], char *why, size_t why_size);

/* The images or buffers of one run: the input and output, their host copies. */
typedef struct {
    spdrt_image in_image, out_image;
    VkImageView in_view, out_view;
    spdrt_buffer in_buffer, out_buffer;        /* --input / --output buffer */
    spdrt_buffer upload, readback;
    VkQueryPool timestamps;                    /* 4 queries: around each pass */
} conv_run_resources;

/* Records the resample for push->psf_scale (nothing for an exact job) between barriers: after
 * earlier work reading r and spectrum2's writes of s, before later reads of r. Marks r
 * resampled for that scale. */
void spdrt__conv_record_resample(VkCommandBuffer cb, spdrt_conv *conv, const conv_push *push);
/* Whether r must be resampled before a run with push->psf_scale. */
int spdrt__conv_stale(const spdrt_conv *conv, const conv_push *push);

/* Records the three passes (push constants `push`) with the barriers between them
 * (conv_record.c): first a barrier from the compute shaders and `before` (the input's last
 * write, the output's last use) to the passes, last one from pass 3's writes to `after`
 * (none when after->stage is 0). Timestamps 0..3 around the passes where `pool` is given. */
void spdrt__conv_record_passes(VkCommandBuffer cb, const spdrt_conv *conv, const conv_push *push,
                        const spdrt_vk_use *before, const spdrt_vk_use *after, VkQueryPool pool);
void spdrt__conv_dispatch(VkCommandBuffer cb, const conv_shader *s, const conv_push *push, uint32_t groups);
conv_push spdrt__conv_push_of(const spdrt_conv *conv, const spdrt_conv_params *p);
/* A run's parameters against the plan, and a PSF set; `what` names the caller. */
spdrt_result spdrt__conv_check_params(spdrt_context *ctx, const spdrt_conv *conv, const spdrt_conv_params *p,
                               const char *what);
/* The bindings of a run's own images or buffers (spdrt_conv_bind's targets). */
void spdrt__conv_run_targets(const spdrt_conv *conv, const conv_run_resources *rs, spdrt_conv_targets *t);
/* The run's images or buffers for a width x height image (the input staging filled from
 * `input` when given). */
spdrt_result spdrt__conv_run_create(spdrt_context *ctx, const spdrt_conv *conv, uint32_t width, uint32_t height,
                             const float *input, conv_run_resources *rs);
void spdrt__conv_run_release(spdrt_context *ctx, conv_run_resources *rs);
/* The input uploaded, the output and the spectra between the passes filled with NaN, all
 * visible to the passes (the input image in SHADER_READ_ONLY_OPTIMAL, the output in
 * GENERAL). */
void spdrt__conv_record_setup(VkCommandBuffer cb, const spdrt_conv *conv, const conv_run_resources *rs,
                       uint32_t width, uint32_t height);
/* The passes' output copied to rs->readback, visible to the host (an output image is left in
 * TRANSFER_SRC_OPTIMAL). */
void spdrt__conv_record_readback(VkCommandBuffer cb, const spdrt_conv *conv, const conv_run_resources *rs,
                          uint32_t width, uint32_t height);
/* rs->readback as host floats (spdrt_conv_output_floats a pixel). */
void spdrt__conv_unpack_output(const spdrt_conv *conv, const conv_run_resources *rs, size_t pixels,
                        float *output);

/* A run kept on the device, so that a benchmark can record it many times into one command
 * buffer (bench/gpu.h's harness) through spdrt_conv_record / spdrt_conv_record_pass: the
 * input uploaded once, the output and the spectra between the passes NaN-filled once, the
 * run's images bound. One job of a conv at a time (the bindings are the conv's). conv_job.c. */
typedef struct {
    spdrt_context *ctx;
    spdrt_conv *conv;
    conv_run_resources rs;
    spdrt_conv_params params;
    int alone;                                 /* 0: the three passes with their barriers;
                                                  1..3: that pass alone; 4: the resample
                                                  with its barriers */
} conv_job;

spdrt_result spdrt__conv_job_prepare(spdrt_context *ctx, spdrt_conv *conv, const spdrt_conv_params *p,
                              const float *input, conv_job *job);
/* What one repetition runs: a bench_record_fn (user = the job). Each pass alone reads what
 * the pass before it left, so it must follow one whole record. */
void spdrt__conv_job_record(VkCommandBuffer cb, void *user);
/* The output the last record left, read back (the output image back in GENERAL after, so
 * records may follow). */
spdrt_result spdrt__conv_job_read(conv_job *job, float *output);
void spdrt__conv_job_release(conv_job *job);
/* Workgroups of a line pass for `lines` lines, and of a column pass. */
uint32_t spdrt__conv_line_groups(uint32_t lines);
uint32_t spdrt__conv_column_groups(const spdrt_conv *conv, int shader);
/* The lines along the second axis of an image (or PSF) of width x height. */
uint32_t spdrt__conv_lines(const spdrt_conv *conv, uint32_t width, uint32_t height);
/* Bytes of one complex value of the buffers. */
uint32_t spdrt__conv_complex_bytes(const spdrt_conv *conv);

#endif
