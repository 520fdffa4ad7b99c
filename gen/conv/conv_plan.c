/* conv_plan.c: the --conv job: five shaders (the kernel spectrum's two, the image's three),
 * six with --spectrum resampled (the kernel spectrum resampled to the image's frequencies),
 * the plan file libspdrt's spdrt_conv_load runs (NAME.convplan), and the contract of the job
 * as a whole for the header. */
#include <stdio.h>
#include <string.h>

#include "conv.h"
#include "header.h"
#include "job.h"
#include "text.h"

int sg_conv_plan(const sg_run *run, sg_job *job)
{
    const sg_conv_params *c = run->params;
    for (int i = 0; i < SG_CONV_SHADERS; i++)
        if (i != SG_CONV_RESAMPLE || c->spectrum == SG_CONV_SPECTRUM_RESAMPLED)
            sg_job_add_shader(job, sg_conv_roles[i], i);
    return 0;
}

static char axis_name(const sg_conv_params *c, int second)
{
    return (c->first_axis == SG_CONV_AXIS_X) != second ? 'x' : 'y';
}

void sg_conv_job_contract(const sg_run *run, const sg_job *job, sg_contract *out)
{
    const sg_conv_params *c = run->params;
    long subgroup = 0;
    for (int i = 0; i < job->count; i++)
        if (job->shaders[i].gen.contract.subgroup > subgroup) subgroup = job->shaders[i].gen.contract.subgroup;
    snprintf(out->title, sizeof out->title, "an FFT convolution");
    snprintf(out->doc, sizeof out->doc,
             "Images up to %ldx%ld, PSFs up to %ldx%ld. When the PSF changes: spectrum1 (the PSF buffer to the zk buffer), a barrier, "
             "spectrum2 (zk to the kernel spectrum s)%s. Per image: pass1 (the image to z), pass2 "
             "(z and %s to y: forward FFT along %c, product, inverse), pass3 (y and the source image "
             "to the output), a barrier between each. Every shader takes the same push constants. "
             "Buffers hold complex values of COMPLEX_BYTES each; the padded image is PADDED_WIDTH x "
             "PADDED_HEIGHT, pass 1 and pass 3 run along %c.", c->image[0], c->image[1], c->psf[0], c->psf[1],
             c->spectrum == SG_CONV_SPECTRUM_RESAMPLED ? ", a barrier, resample (s to r, again whenever "
             "psf_scale changes)" : "", c->spectrum == SG_CONV_SPECTRUM_RESAMPLED ? "r" : "s",
             axis_name(c, 1), axis_name(c, 0));
    sg_contract_add(out, "IMAGE_WIDTH", c->image[0], "the largest image");
    sg_contract_add(out, "IMAGE_HEIGHT", c->image[1], NULL);
    sg_contract_add(out, "PSF_WIDTH", c->psf[0], "the largest PSF");
    sg_contract_add(out, "PSF_HEIGHT", c->psf[1], NULL);
    sg_contract_add(out, "CHANNELS", c->channels, NULL);
    sg_contract_add(out, "PADDED_WIDTH", c->padded[0], NULL);
    sg_contract_add(out, "PADDED_HEIGHT", c->padded[1], NULL);
    sg_contract_add(out, "FIRST_AXIS_Y", c->first_axis == SG_CONV_AXIS_Y,
                    "1: pass 1 and pass 3 run along y (columns), and the line count of their grids is "
                    "the width");
    sg_contract_add(out, "MIRROR", c->padding == SG_CONV_PAD_MIRROR, "1: --padding mirror");
    sg_contract_add(out, "RESAMPLED", c->spectrum == SG_CONV_SPECTRUM_RESAMPLED,
                    "1: the kernel spectrum is SPECTRUM_WIDTH x SPECTRUM_HEIGHT, resampled bilinearly to r");
    sg_contract_add(out, "SPECTRUM_WIDTH", c->first_axis == SG_CONV_AXIS_X ? c->q1 : c->q2, NULL);
    sg_contract_add(out, "SPECTRUM_HEIGHT", c->first_axis == SG_CONV_AXIS_X ? c->q2 : c->q1, NULL);
    sg_contract_add(out, "COMPLEX_BYTES", c->storage == SG_CONV_F16 ? 4 : 8,
                    "a complex value of the buffers: two floats, or two IEEE halves in a uint");
    sg_contract_add(out, "Z_VALUES", sg_conv_z_values(c), "complex values of the z buffer");
    sg_contract_add(out, "Y_VALUES", sg_conv_y_values(c), "complex values of the y buffer");
    sg_contract_add(out, "S_VALUES", sg_conv_s_values(c), "complex values of the kernel spectrum");
    sg_contract_add(out, "ZK_VALUES", sg_conv_zk_values(c), "complex values of the zk buffer");
    sg_contract_add(out, "R_VALUES", sg_conv_r_values(c),
                    "complex values of the resampled spectrum r (0: exact, pass 2 reads s)");
    sg_contract_add(out, "SUBGROUP_SIZE", subgroup, "the largest a shader's shuffles need");
}

void sg_conv_header(sg_text *t, const sg_run *run, const sg_job *job, const char *P, const char *fn)
{
    (void)job;
    (void)fn;
    const sg_conv_params *c = run->params;
    sg_text_printf(t, "\n/* The line count of pass 1's and pass 3's grids (their push constants width and height\n"
                      " * give the image): the image's %s. */\n", c->first_axis == SG_CONV_AXIS_X ? "height" : "width");
    sg_text_printf(t, "#define %sLINES(width, height) (%s)\n", P, c->first_axis == SG_CONV_AXIS_X ? "height" : "width");
    sg_text_printf(t, "#define %sPSF_LINES(psf_width, psf_height) (%s)\n", P,
                   c->first_axis == SG_CONV_AXIS_X ? "psf_height" : "psf_width");
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The plan file: "key value" lines, then one line per shader in the order they run: its
 * file (relative to the plan file), local size, the subgroup size its shuffles need, shared
 * memory, FFT length, columns per workgroup (0: a line pass) and workgroups per channel. */
char *sg_conv_manifest(const sg_run *run, const sg_job *job)
{
    const sg_conv_params *c = run->params;
    sg_text t = {0};
    sg_text_printf(&t, "# spdgen %s (%s): an FFT convolution (images up to %ldx%ld, PSFs up to %ldx%ld),\n"
                       "# run by libspdrt's spdrt_conv_load. Generated; regenerate with:\n",
                   SPDGEN_VERSION, sg_revision, c->image[0], c->image[1], c->psf[0], c->psf[1]);
    sg_text_command(&t, "#   ", "#       ", run->command);
    sg_text_printf(&t, "spdgen-conv-plan 2\nimage %ld %ld\npsf %ld %ld\nchannels %ld\npadding %s\n"
                       "spectrum %s\nfirst-axis %c\ninput %s\noutput %s\nformat %s\nstorage %s\n"
                       "padded %ld %ld\nspectrum-size %ld %ld\nbuffers %ld %ld %ld %ld %ld\n",
                   c->image[0], c->image[1], c->psf[0], c->psf[1], c->channels,
                   sg_conv_paddings[c->padding], sg_conv_spectra[c->spectrum], axis_name(c, 0),
                   sg_conv_io[c->input], sg_conv_io[c->output],
                   c->output == SG_CONV_IO_IMAGE ? sg_conv_formats[c->format] : "none",
                   sg_conv_storages[c->storage], c->padded[0], c->padded[1],
                   c->first_axis == SG_CONV_AXIS_X ? c->q1 : c->q2,
                   c->first_axis == SG_CONV_AXIS_X ? c->q2 : c->q1, sg_conv_z_values(c),
                   sg_conv_y_values(c), sg_conv_s_values(c), sg_conv_zk_values(c), sg_conv_r_values(c));
    /* Where the exact kernel spectrum's values are (spdrt_conv_spectrum_at): in pass 2's tiles,
     * this many columns wide. */
    sg_text_printf(&t, "spectrum-tiles %ld\n", sg_conv_tile(c, SG_CONV_PASS2));
    for (int i = 0; i < job->count; i++) {
        const sg_contract *k = &job->shaders[i].gen.contract;
        const sg_conv_shape *s = &c->shapes[job->shaders[i].index];
        sg_text_printf(&t, "shader %s file %s wg %ld subgroup %ld shared %ld n %ld columns %ld groups %ld\n",
                       job->shaders[i].role, file_name(job->shaders[i].path), k->workgroup[0], k->subgroup,
                       k->shared_bytes, s->n, s->lanes, s->groups_per_channel);
    }
    return sg_text_take(&t);
}
