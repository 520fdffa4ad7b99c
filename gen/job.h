/* job.h: what one spdgen run makes. A job is one or more shaders (a four-step FFT plan
 * has two) and the files that go with them: a manifest for a job of several, the C
 * contract header, the depfile. Every job, whatever the kernel, goes through the same loop
 * (job.c): generate -> validate -> selftest, or stage every output -> commit them. */
#ifndef SPDGEN_JOB_H
#define SPDGEN_JOB_H

#include <limits.h>
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#include "cli.h"
#include "contract.h"
#include "lua_host.h"
#include "validate.h"

#define SG_JOB_MAX_SHADERS 8

typedef struct sg_job_shader {
    char role[24];       /* "" for a job of one shader; else "pass1", ...: NAME.role.EXT */
    int index;           /* the kernel's number for it (0, 1, ...) */
    sg_generated gen;    /* in the target language, with its contract */
    sg_generated twin;   /* --target msl: the GLSL twin that was validated */
    sv_spirv module;     /* the validated SPIR-V (of the twin for MSL) */
    char path[PATH_MAX]; /* where it is written */
} sg_job_shader;

typedef struct sg_job {
    sg_job_shader shaders[SG_JOB_MAX_SHADERS];
    int count;
} sg_job;

/* For a kernel's plan: appends a shader named `role` ("" for the only one). */
sg_job_shader *sg_job_add_shader(sg_job *job, const char *role, int index);

/* Runs the whole job of a parsed run. Returns the exit code. */
int sg_job_run(const sg_run *run);

/* The contract that describes the whole job: its only shader's, or the kernel's
 * job_contract for several. */
const sg_contract *sg_job_contract(const sg_run *run, const sg_job *job, sg_contract *scratch);

#endif
