/* spd_wgsl.c: the --spd rules of --target wgsl. The shape's defaults fit the WebGPU limits
 * given (--wg-invocations, --wg-storage, --storage-textures); a pass writes one level per
 * storage texture; and since WGSL has no device-scope fence, a pass never continues past
 * its tile (no last-workgroup hand-off) unless --unfenced-handoff accepts the risk
 * (docs/wgsl.md says what the WGSL specification and the WebGPU port of FidelityFX SPD say
 * about it). Formats, fp16, subgroups and filtering need the features WebGPU names. */
#include <stdio.h>

#include "spd.h"
#include "wgsl.h"

#define usage_error sg_usage_error

static long log2_of(long n)
{
    long k = 0;
    while (n > 1) {
        n >>= 1;
        k++;
    }
    return k;
}

void sg_spd_wgsl_shape(sg_run *run)
{
    sg_spd_params *s = run->params;
    long sizes[2];
    if (!sg_is_wgsl(run) || sg_given(run, SPD_OPT_TILE)) return;
    /* The largest tile with a workgroup within the device's invocations. */
    while (s->tile > 2) {
        int n = sg_spd_tile_workgroups(s->tile, sizes);
        if (sizes[n - 1] <= run->common.wg_invocations) break;
        s->tile /= 2;
    }
}

int sg_spd_wgsl_passes(sg_run *run)
{
    sg_spd_params *s = run->params;
    long textures = run->common.storage_textures, per_tile = log2_of(s->tile);
    if (!sg_is_wgsl(run)) {
        if (s->unfenced)
            return usage_error("--unfenced-handoff: only for --target wgsl (the other targets "
                               "have a device-scope fence)");
        return 0;
    }
    if (!sg_given(run, SPD_OPT_PER_PASS)) {
        long k = s->mips < textures ? s->mips : textures;
        if (!s->unfenced && k > per_tile) k = per_tile;
        s->mips_per_pass = k;
    }
    if (s->mips_per_pass > textures)
        return usage_error("--max-mips-per-pass %ld: a pass binds one storage texture per level, more "
                           "than the WebGPU limit maxStorageTexturesPerShaderStage of %ld "
                           "(--storage-textures; WebGPU's default is %d)", s->mips_per_pass, textures,
                           SG_WGSL_DEFAULT_STORAGE_TEXTURES);
    if (s->mips_per_pass > per_tile && !s->unfenced)
        return usage_error("--max-mips-per-pass %ld: a pass past level %ld (log2 --tile %ld) needs its "
                           "last workgroup to read what the others wrote in the same dispatch, and "
                           "WGSL has no device-scope fence to order that (its barriers are "
                           "workgroup-scoped); use --max-mips-per-pass %ld or less, or accept the risk "
                           "with --unfenced-handoff (docs/wgsl.md)", s->mips_per_pass, per_tile,
                           s->tile, per_tile);
    /* check_mips refused this for a --max-mips-per-pass given; here the passes are WebGPU's. */
    if (s->op == SG_SPD_OP_MINMAX && s->mips_per_pass < s->mips)
        return usage_error("--op minmax: WGSL passes hold %ld levels (at most log2 --tile %ld, and "
                           "one storage texture per level: maxStorageTexturesPerShaderStage %ld), "
                           "and a later pass would read the stored (min, max) pairs as depth; use "
                           "--mips %ld or less", s->mips_per_pass, s->tile, textures,
                           s->mips_per_pass);
    if (s->unfenced && s->mips_per_pass <= per_tile)
        return usage_error("--unfenced-handoff: passes of %ld levels stay within the %ldx%ld tile and "
                           "hand nothing off; it needs --max-mips-per-pass above %ld (and "
                           "--storage-textures as many)", s->mips_per_pass, s->tile, s->tile, per_tile);
    return 0;
}

static long channels_of(int format)
{
    static const long channels[] = {1, 2, 4, 1, 2, 4, 4, 1}; /* in sg_spd_formats' order */
    return channels[format];
}

int sg_spd_wgsl_interleaved_fits(const sg_run *run)
{
    const sg_spd_params *s = run->params;
    if (!sg_is_wgsl(run)) return 1;
    /* The exchange arrays at most: 4 values per invocation for level 2, one for level 3, a
     * quarter for level 4, and the hand-off flag (what templates/spd declares without
     * shuffles; the contract is checked again after generation). */
    long value = channels_of(s->format) * (s->half ? 2 : 4);
    return value * (4 * s->wg + s->wg + s->wg / 4) + 4 <= run->common.wg_storage;
}

int sg_spd_wgsl_check(sg_run *run)
{
    const sg_spd_params *s = run->params;
    char what[64];
    int rc = sg_wgsl_storage_format(run, "--format", sg_spd_formats[s->format]);
    if (!rc && s->half) rc = sg_wgsl_need(run, SG_WGSL_SHADER_F16, "--half");
    if (!rc && s->subgroup) {
        snprintf(what, sizeof what, "--subgroup %ld", s->subgroup);
        rc = sg_wgsl_need(run, SG_WGSL_SUBGROUPS, what);
    }
    int wide = s->format == SG_SPD_R32F || s->format == SG_SPD_RG32F || s->format == SG_SPD_RGBA32F;
    if (!rc && s->sampler_linear && wide) {
        snprintf(what, sizeof what, "--sampler linear --format %s", sg_spd_formats[s->format]);
        rc = sg_wgsl_need(run, SG_WGSL_FLOAT32_FILTERABLE, what);
    }
    return rc;
}
