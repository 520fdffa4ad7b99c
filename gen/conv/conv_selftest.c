/* conv_selftest.c: placeholder until runtime/conv lands. */
#include <stdio.h>

#include "conv.h"
#include "job.h"

int sg_conv_selftest(const sg_run *run, const sg_job *job)
{
    (void)run;
    (void)job;
    fprintf(stderr, "spdgen: error: --selftest: not yet\n");
    return SG_EXIT_FAILURE;
}
