/* dmap_wgsl.c: the --dmap rules of --target wgsl: the map's storage format (a density map's
 * rg8unorm and a shading-rate image's r8uint need texture-formats-tier1; resolve's formats
 * are core), --subgroup's feature, and no 16-bit loads (--inputs f16). WebGPU has no
 * density-map or shading-rate attachment: a WebGPU host reads the map in its own shaders. */
#include <stdio.h>

#include "dmap.h"
#include "wgsl.h"

int sg_dmap_wgsl_check(sg_run *run)
{
    const sg_dmap_params *d = run->params;
    static const char *const map_formats[] = {"rg8", "r8ui"}; /* fdm, fsr */
    static const char *const modes[] = {"--dmap fdm", "--dmap fsr"};
    int rc;
    if (sg_is_wgsl(run) && d->content && d->inputs == SG_DMAP_INPUTS_F16)
        return sg_usage_error("--inputs f16: not with --target wgsl (WebGPU's sampled textures load "
                              "32-bit floats only)");
    if (d->mode == SG_DMAP_RESOLVE)
        rc = sg_wgsl_storage_format(run, "--format", sg_dmap_formats[d->format]);
    else
        rc = sg_wgsl_storage_format(run, modes[d->mode], map_formats[d->mode]);
    if (!rc && d->subgroup) {
        char what[64];
        snprintf(what, sizeof what, "--subgroup %ld", d->subgroup);
        rc = sg_wgsl_need(run, SG_WGSL_SUBGROUPS, what);
    }
    return rc;
}
