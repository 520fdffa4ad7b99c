/* dmap.h: the --dmap kernel's parameters, as its option table (dmap.c) fills them and its
 * check (dmap_check.c) resolves them. Choices are stored as indices into the name lists. */
#ifndef SPDGEN_DMAP_H
#define SPDGEN_DMAP_H

#include "kernel.h"

enum { SG_DMAP_FDM, SG_DMAP_FSR, SG_DMAP_RESOLVE };
enum { SG_DMAP_FOVEATION_OFF, SG_DMAP_FOVEATION_FIXED, SG_DMAP_FOVEATION_GAZE };
enum { SG_DMAP_COMBINE_FINER, SG_DMAP_COMBINE_COARSER };
enum { SG_DMAP_RGBA16F, SG_DMAP_RGBA32F, SG_DMAP_RGBA8 };
enum { SG_DMAP_NEAREST, SG_DMAP_LINEAR };
enum { SG_DMAP_FETCH_BLOCKS, SG_DMAP_FETCH_ROWS, SG_DMAP_FETCH_STRIPS, SG_DMAP_FETCH_COLUMNS };
enum { SG_DMAP_RING_JOINED, SG_DMAP_RING_LAST };
enum { SG_DMAP_INPUTS_F32, SG_DMAP_INPUTS_F16 };

typedef struct {
    int mode;           /* --dmap MODE */
    long texel;         /* --texel T: pixels per map texel side */
    int foveation;      /* --foveation */
    int content;        /* --content */
    int combine;        /* --combine */
    long views;         /* --views N: map layers */
    long max_rate;      /* --max-rate R: pixels per axis */
    long subgroup;      /* --subgroup S */
    long batch;         /* --batch B: blocks whose loads go out together */
    int fetch;          /* --fetch: which pixels an invocation reads */
    int fence;          /* --fence: a workgroup barrier after each load batch */
    int ring;           /* --ring: the ring block's loads with the first batch's or last */
    int inputs;         /* --inputs: the colour and motion images' precision */
    int rate_map;       /* --rate-map: per-column and per-row finest rates too */
    int format;         /* --format (resolve) */
    int filter;         /* --filter (resolve) */
    long size[3];       /* --size for --selftest (resolved) */
} sg_dmap_params;

/* Positions in the option table (dmap.c), for sg_given(). */
enum {
    DMAP_OPT_DMAP, DMAP_OPT_TEXEL, DMAP_OPT_FOVEATION, DMAP_OPT_CONTENT, DMAP_OPT_COMBINE,
    DMAP_OPT_VIEWS, DMAP_OPT_MAX_RATE, DMAP_OPT_SUBGROUP, DMAP_OPT_BATCH, DMAP_OPT_FETCH, DMAP_OPT_FENCE, DMAP_OPT_RING,
    DMAP_OPT_INPUTS, DMAP_OPT_RATE_MAP, DMAP_OPT_FORMAT, DMAP_OPT_FILTER, DMAP_OPT_SIZE
};

extern const char *const sg_dmap_modes[], *const sg_dmap_foveations[], *const sg_dmap_combines[],
    *const sg_dmap_formats[], *const sg_dmap_filters[], *const sg_dmap_fetches[], *const sg_dmap_rings[],
    *const sg_dmap_inputs[];

int sg_dmap_check(sg_run *run);
/* The WebGPU rules of --target wgsl (dmap_wgsl.c). */
int sg_dmap_wgsl_check(sg_run *run);
int sg_dmap_selftest(const sg_run *run, const struct sg_job *job);

#endif
