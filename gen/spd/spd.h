/* spd.h: the --spd kernel's parameters, as its option table (spd.c) fills them and its
 * check (spd_check.c) resolves them. Choices are stored as indices into the name lists. */
#ifndef SPDGEN_SPD_H
#define SPDGEN_SPD_H

#include "kernel.h"

enum { SG_SPD_OP_MIN, SG_SPD_OP_MAX, SG_SPD_OP_MEAN, SG_SPD_OP_MINMAX, SG_SPD_OP_SRGB_MEAN, SG_SPD_OP_TEST_ORDER };
enum { SG_SPD_R16F, SG_SPD_RG16F, SG_SPD_RGBA16F, SG_SPD_R32F, SG_SPD_RG32F, SG_SPD_RGBA32F, SG_SPD_RGBA8, SG_SPD_R32UI };
enum { SG_SPD_EDGE_DROP, SG_SPD_EDGE_CONSERVATIVE, SG_SPD_EDGE_WEIGHTED };
enum { SG_SPD_TAIL_LOOP, SG_SPD_TAIL_HIERARCHY };
enum { SG_SPD_LEVEL1_INTERLEAVED, SG_SPD_LEVEL1_BLOCKS };

typedef struct {
    int spd;                /* --spd */
    int op;
    int format;
    long max_size[2];       /* --max-size: the largest source the shader serves */
    long mips;              /* levels of the chain (resolved: the full chain of --max-size) */
    long mips_per_pass;     /* --max-mips-per-pass (resolved: --mips for one pass) */
    long tile;              /* one workgroup reduces a tile x tile tile */
    long wg;
    int tail;
    int level1;
    int sampler_linear;     /* --sampler: 0 load, 1 linear */
    int sampler_normalized; /* --sampler-coords: 0 texel, 1 normalized */
    long fetch_ahead;
    int edge;
    long subgroup;
    int array;
    int half;
    int unfenced;           /* --unfenced-handoff: WGSL passes past the tile, at their risk */
    long size[3];           /* --size for --selftest: width, height, layers (resolved) */
} sg_spd_params;

/* Positions in the option table (spd.c), for sg_given(). */
enum {
    SPD_OPT_SPD, SPD_OPT_OP, SPD_OPT_FORMAT, SPD_OPT_MAX_SIZE, SPD_OPT_MIPS, SPD_OPT_PER_PASS,
    SPD_OPT_TILE, SPD_OPT_WG, SPD_OPT_TAIL, SPD_OPT_LEVEL1, SPD_OPT_SAMPLER,
    SPD_OPT_SAMPLER_COORDS, SPD_OPT_FETCH_AHEAD, SPD_OPT_EDGE, SPD_OPT_SUBGROUP, SPD_OPT_ARRAY,
    SPD_OPT_HALF, SPD_OPT_UNFENCED, SPD_OPT_SIZE
};

extern const char *const sg_spd_ops[], *const sg_spd_formats[], *const sg_spd_edges[],
    *const sg_spd_tails[], *const sg_spd_level1s[];

int sg_spd_check(sg_run *run);
/* The WebGPU rules of --target wgsl (spd_wgsl.c): the shape's defaults within the limits
 * given, then the formats, features and passes WebGPU allows. */
void sg_spd_wgsl_shape(sg_run *run);
int sg_spd_wgsl_passes(sg_run *run);
int sg_spd_wgsl_check(sg_run *run);
/* Whether --level1 interleaved's exchange fits the workgroup storage (always outside WGSL). */
int sg_spd_wgsl_interleaved_fits(const sg_run *run);
/* The workgroup sizes --tile admits, largest first (at most 2); how many. */
int sg_spd_tile_workgroups(long tile, long out[2]);
void sg_spd_header(sg_text *out, const sg_run *run, const struct sg_job *job, const char *prefix,
                   const char *fn);
int sg_spd_selftest(const sg_run *run, const struct sg_job *job);

#endif
