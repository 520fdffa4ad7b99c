/* fft_wgsl.c: the --fft rules of --target wgsl. The workgroups the defaults pick stay
 * within the device's invocations (--max-wg follows --wg-invocations), the power-of-two
 * plan's exchanges within its workgroup storage (the templates read cfg.wg_storage; mixed
 * radix and Bluestein do not yet, so sg_wgsl_check_contract refuses theirs over the limit),
 * and shuffles need the subgroups feature. --storage f16 packs halves into u32 and needs no
 * feature. */
#include <stdio.h>

#include "fft.h"
#include "wgsl.h"

int sg_fft_wgsl_check(sg_run *run)
{
    sg_fft_params *f = run->params;
    long limit = run->common.wg_invocations;
    if (!sg_is_wgsl(run)) return 0;
    if (!sg_given(run, FFT_OPT_MAX_WG)) {
        f->max_wg = 1;
        while (f->max_wg * 2 <= limit) f->max_wg *= 2;
    } else if (f->max_wg > limit) {
        return sg_usage_error("--max-wg %ld: more than the WebGPU limit "
                              "maxComputeInvocationsPerWorkgroup of %ld (--wg-invocations; WebGPU's "
                              "default is %d)", f->max_wg, limit, SG_WGSL_DEFAULT_INVOCATIONS);
    }
    if (f->subgroup) {
        char what[64];
        snprintf(what, sizeof what, "--subgroup %ld", f->subgroup);
        return sg_wgsl_need(run, SG_WGSL_SUBGROUPS, what);
    }
    return 0;
}
