/* conv.h: the --conv kernel's parameters, as its option table (conv.c) fills them and its
 * check (conv_check.c) resolves them: the image and PSF sizes, the padded sizes along the
 * two axes in the order the passes run, and each shader's FFT shape. */
#ifndef SPDGEN_CONV_H
#define SPDGEN_CONV_H

#include "fft/fft_radix.h"
#include "kernel.h"

enum { SG_CONV_PAD_ZERO, SG_CONV_PAD_MIRROR };
enum { SG_CONV_SPECTRUM_RESAMPLED, SG_CONV_SPECTRUM_EXACT };
enum { SG_CONV_AXIS_AUTO, SG_CONV_AXIS_X, SG_CONV_AXIS_Y };
enum { SG_CONV_IO_IMAGE, SG_CONV_IO_BUFFER };
enum { SG_CONV_RGBA16F, SG_CONV_RGBA32F };
enum { SG_CONV_F32, SG_CONV_F16 };
enum { SG_CONV_PAD_TO_POW2, SG_CONV_PAD_TO_SMOOTH };

/* --pad-to smooth: the padded sides are even with no prime factor above this (radices 2..7:
 * the cheapest butterflies per point of the mixed-radix FFTs). */
#define SG_CONV_SMOOTH_LARGEST 7

/* The job's shaders, in the order they run: the kernel spectrum (two), its resampling to
 * the image's spectrum (--spectrum resampled only), then the image. */
enum { SG_CONV_SPECTRUM1, SG_CONV_SPECTRUM2, SG_CONV_RESAMPLE, SG_CONV_PASS1, SG_CONV_PASS2,
       SG_CONV_PASS3, SG_CONV_SHADERS };

/* Smallest padded length: the smallest FFT whose plan every layout here supports. */
#define SG_CONV_MIN_FFT 8
/* The column passes' tiles (templates/conv/tiles.lua) hold at least this many columns: 64
 * bytes of a line, which the line passes write and read whole. Measured against 4, 16 and 32
 * in one call (docs/conv.md, "Tiles"). */
#define SG_CONV_TILE_COLUMNS 8
/* Most complex values one invocation holds (elements x channels). */
#define SG_CONV_MAX_REGISTERS 64

/* One shader's FFT: n points, E per invocation x W invocations; lanes: columns per
 * workgroup in lanes (the column passes), 0 for the line passes, which hold every channel
 * in registers (channel_bits of the register index). A length that is not a power of two
 * runs the mixed-radix stages of templates/fft/ (stages: their radices and rounds); the
 * line passes then hold each channel's E values in a register set of its own. */
typedef struct {
    long n, ept, wg, lanes;
    long groups_per_channel; /* column passes: workgroups per channel */
    long merge;              /* the resample: pass 2's workgroups one of its workgroups spans */
    sg_fft_stages stages;    /* n not a power of two */
} sg_conv_shape;

typedef struct {
    int conv;               /* --conv */
    long image[2];          /* --image WxH: the largest image the shaders serve */
    long psf[2];            /* --psf KWxKH: the largest PSF */
    long channels;          /* --channels */
    int padding;            /* --padding */
    int spectrum;           /* --spectrum */
    int first_axis;         /* --first-axis (resolved: x or y) */
    int input, output;      /* --input, --output */
    int format;             /* --format of an output image */
    int storage;            /* --storage of the spectra between passes */
    long padded[2];         /* --padded WxH (resolved: the padded image, x and y) */
    int pad_to;             /* --pad-to */
    long ept;               /* --ept (0: each pass's default) */
    long pass2_ept;         /* --pass2-ept (0: --ept's) */
    long max_wg;            /* --max-wg */
    long subgroup;          /* --subgroup */
    long columns;           /* --columns-per-wg (0: the default) */
    long size[2];           /* --size: the --selftest image (resolved) */

    /* Derived, along A1 (the first pass's axis) and A2. */
    long e1, e2;            /* the largest image */
    long k1, k2;            /* the largest PSF */
    long p1, p2;            /* the padded image */
    long q1, q2;            /* the kernel spectrum's size (the padded image with --spectrum exact) */
    long channel_bits;      /* log2 of the channels rounded up to a power of two */
    sg_conv_shape shapes[SG_CONV_SHADERS];
} sg_conv_params;

/* Positions in the option table (conv.c), for sg_given(). */
enum {
    CONV_OPT_CONV, CONV_OPT_IMAGE, CONV_OPT_PSF, CONV_OPT_CHANNELS, CONV_OPT_PADDING,
    CONV_OPT_SPECTRUM, CONV_OPT_FIRST_AXIS, CONV_OPT_INPUT, CONV_OPT_OUTPUT, CONV_OPT_FORMAT,
    CONV_OPT_STORAGE, CONV_OPT_PADDED, CONV_OPT_PAD_TO, CONV_OPT_EPT, CONV_OPT_PASS2_EPT, CONV_OPT_MAX_WG, CONV_OPT_SUBGROUP,
    CONV_OPT_COLUMNS, CONV_OPT_SIZE
};

extern const char *const sg_conv_paddings[], *const sg_conv_spectra[], *const sg_conv_axes[],
    *const sg_conv_io[], *const sg_conv_formats[], *const sg_conv_storages[], *const sg_conv_pad_to[];
extern const char *const sg_conv_roles[SG_CONV_SHADERS];

int sg_conv_check(sg_run *run);
int sg_conv_plan(const sg_run *run, struct sg_job *job);
void sg_conv_job_contract(const sg_run *run, const struct sg_job *job, struct sg_contract *out);
char *sg_conv_manifest(const sg_run *run, const struct sg_job *job);
void sg_conv_header(sg_text *out, const sg_run *run, const struct sg_job *job, const char *prefix,
                    const char *fn);
int sg_conv_selftest(const sg_run *run, const struct sg_job *job);

/* The column passes' tiles (templates/conv/tiles.lua): their width in columns (a multiple
 * of the pass's columns per workgroup) and how many a channel has, for shader SG_CONV_PASS2
 * (z, y, the exact spectrum) or SG_CONV_SPECTRUM2 (zk). */
long sg_conv_tile(const sg_conv_params *c, int shader);
long sg_conv_tiles(const sg_conv_params *c, int shader);
/* Buffer sizes, in complex values: the first pass's output (z), the column pass's (y), the
 * kernel spectrum (s), the PSF's first pass (zk) and the resampled spectrum pass 2 reads (r,
 * --spectrum resampled; 0 for exact, where pass 2 reads s). */
long sg_conv_z_values(const sg_conv_params *c);
long sg_conv_y_values(const sg_conv_params *c);
long sg_conv_s_values(const sg_conv_params *c);
long sg_conv_zk_values(const sg_conv_params *c);
long sg_conv_r_values(const sg_conv_params *c);

#endif
