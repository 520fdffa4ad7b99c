/* dmap_check.c: the --dmap parameters once every flag is known: defaults that depend on the
 * mode, then every combination the shader cannot honour, each a one-line error. */
#include "dmap.h"
#include "validate.h"

#define usage_error sg_usage_error

/* Flags that mean nothing for the mode given. */
static int check_mode_flags(sg_run *run)
{
    const sg_dmap_params *d = run->params;
    const char *mode = sg_dmap_modes[d->mode];
    static const int map_only[] = {DMAP_OPT_TEXEL, DMAP_OPT_FOVEATION, DMAP_OPT_CONTENT,
                                   DMAP_OPT_COMBINE, DMAP_OPT_MAX_RATE, DMAP_OPT_SUBGROUP,
                                   DMAP_OPT_BATCH, DMAP_OPT_FETCH, DMAP_OPT_FENCE,
                                   DMAP_OPT_RING, DMAP_OPT_INPUTS, DMAP_OPT_RATE_MAP};
    static const char *const map_names[] = {"--texel", "--foveation", "--content", "--combine",
                                            "--max-rate", "--subgroup", "--batch", "--fetch",
                                            "--fence", "--ring", "--inputs", "--rate-map"};
    if (d->mode == SG_DMAP_RESOLVE) {
        for (unsigned i = 0; i < sizeof map_only / sizeof *map_only; i++)
            if (sg_given(run, map_only[i]))
                return usage_error("%s: not with --dmap resolve (it reads the bins' transforms, not "
                                   "rates)", map_names[i]);
        return 0;
    }
    if (sg_given(run, DMAP_OPT_FORMAT) || sg_given(run, DMAP_OPT_FILTER))
        return usage_error("--%s: only with --dmap resolve (got --dmap %s)",
                           sg_given(run, DMAP_OPT_FORMAT) ? "format" : "filter", mode);
    return 0;
}

/* The texel size each kind of map allows: turnip reads density maps at 2^5..2^10 pixels;
 * shading-rate attachments come in 8, 16 or 32 (maxFragmentShadingRateAttachmentTexelSize). */
static int check_texel(sg_run *run)
{
    sg_dmap_params *d = run->params;
    int fdm = d->mode == SG_DMAP_FDM;
    if (!sg_given(run, DMAP_OPT_TEXEL)) d->texel = fdm ? 32 : 16;
    if (fdm && d->texel < 32)
        return usage_error("--texel %ld: --dmap fdm takes 32..1024 (a density map is read at 2^5..2^10 "
                           "pixels per texel)", d->texel);
    if (!fdm && d->texel > 32)
        return usage_error("--texel %ld: --dmap fsr takes 8, 16 or 32 (the attachment texel sizes "
                           "devices offer)", d->texel);
    return 0;
}

static int check_rates(sg_run *run)
{
    sg_dmap_params *d = run->params;
    int fdm = d->mode == SG_DMAP_FDM;
    if (!sg_given(run, DMAP_OPT_MAX_RATE)) d->max_rate = fdm ? 16 : 4;
    if (!fdm && d->max_rate > 4)
        return usage_error("--max-rate %ld: --dmap fsr rates are 1, 2 or 4 pixels per axis", d->max_rate);
    if (d->foveation == SG_DMAP_FOVEATION_OFF && !d->content)
        return usage_error("--foveation off: nothing decides the rates; give --foveation fixed or gaze, "
                           "--content, or both");
    if (sg_given(run, DMAP_OPT_COMBINE) && !(d->content && d->foveation != SG_DMAP_FOVEATION_OFF))
        return usage_error("--combine %s: only with both foveation and --content",
                           sg_dmap_combines[d->combine]);
    if (sg_given(run, DMAP_OPT_SUBGROUP) && !d->content)
        return usage_error("--subgroup %ld: only with --content (foveation alone exchanges nothing "
                           "between invocations)", d->subgroup);
    if (sg_given(run, DMAP_OPT_BATCH) && !d->content)
        return usage_error("--batch %ld: only with --content (foveation alone reads no image)", d->batch);
    if (sg_given(run, DMAP_OPT_FETCH) && !d->content)
        return usage_error("--fetch %s: only with --content (foveation alone reads no image)",
                           sg_dmap_fetches[d->fetch]);
    /* Not given: columns where it applies (faster than blocks in every configuration timed,
     * docs/dmap.md), else blocks. */
    if (d->content && !sg_given(run, DMAP_OPT_FETCH) && d->subgroup >= 8 && d->texel >= 16 &&
        d->batch == 4 && d->ring == SG_DMAP_RING_JOINED && !d->fence)
        d->fetch = SG_DMAP_FETCH_COLUMNS;
    if (d->content && d->fetch == SG_DMAP_FETCH_STRIPS && d->subgroup != 0)
        return usage_error("--fetch strips: only with --subgroup 0 (the subgroup exchanges pair "
                           "invocations in Morton order)");
    if (d->content && d->fetch == SG_DMAP_FETCH_COLUMNS && d->subgroup < 8)
        return usage_error("--fetch columns: only with --subgroup 8 or more (neighbouring invocations "
                           "trade their columns' halves by shuffles), not %ld", d->subgroup);
    if (d->content && d->fetch == SG_DMAP_FETCH_COLUMNS && d->texel < 16)
        return usage_error("--fetch columns: only with --texel 16 or more (an invocation loads a column "
                           "of 16 rows, taller than a texel of %ld pixels)", d->texel);
    if (d->content && d->fetch == SG_DMAP_FETCH_COLUMNS && (d->batch != 4 || d->ring == SG_DMAP_RING_LAST))
        return usage_error("--fetch columns: only with --batch 4 and --ring joined (a column's 16 rows "
                           "and the ring block load in one batch)");
    if (d->fence && !d->content)
        return usage_error("--fence: only with --content (foveation alone reads no image)");
    if (sg_given(run, DMAP_OPT_RING) && !d->content)
        return usage_error("--ring %s: only with --content (foveation alone reads no image)",
                           sg_dmap_rings[d->ring]);
    if (sg_given(run, DMAP_OPT_INPUTS) && !d->content)
        return usage_error("--inputs %s: only with --content (foveation alone reads no image)",
                           sg_dmap_inputs[d->inputs]);
    if (d->content && d->inputs == SG_DMAP_INPUTS_F16 && sg_run_lang(run) == SV_LANG_HLSL)
        return usage_error("--inputs f16: not with HLSL (its 16-bit texture type, min16float4, is one "
                           "glslang cannot validate)");
    if (d->fence && d->batch == 4 && d->ring != SG_DMAP_RING_LAST)
        return usage_error("--fence: only with --batch 1 or 2 or --ring last (--batch 4 loads in one "
                           "batch)");
    return 0;
}

/* --size belongs to --selftest: 1280x720 by default, one layer per view. */
static int check_selftest(sg_run *run)
{
    sg_dmap_params *d = run->params;
    int given = sg_given(run, DMAP_OPT_SIZE);
    if (!run->common.selftest) return given ? usage_error("--size: only meaningful with --selftest") : 0;
    if (d->mode == SG_DMAP_RESOLVE)
        return usage_error("--selftest: not with --dmap resolve (tests/dmap/resolve.t checks it on the "
                           "device; --selftest serves fdm and fsr)");
    if (!given) {
        d->size[0] = 1280;
        d->size[1] = 720;
    }
    if (d->size[2] && d->size[2] != d->views)
        return usage_error("--size %ldx%ldx%ld: the layers are --views (%ld)", d->size[0], d->size[1],
                           d->size[2], d->views);
    d->size[2] = d->views;
    return 0;
}

int sg_dmap_check(sg_run *run)
{
    int rc = check_mode_flags(run);
    if (!rc && ((sg_dmap_params *)run->params)->mode != SG_DMAP_RESOLVE) {
        rc = check_texel(run);
        if (!rc) rc = check_rates(run);
    }
    if (!rc) rc = sg_dmap_wgsl_check(run);
    if (!rc) rc = check_selftest(run);
    return rc;
}
