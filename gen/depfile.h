/* depfile.h: the gcc -M style depfile of a job: spdgen itself (the embedded templates are
 * part of it), every template override a shader read, and the override directories a
 * lookup searched without finding a file, so adding an override later reruns the rule. */
#ifndef SPDGEN_DEPFILE_H
#define SPDGEN_DEPFILE_H

struct sg_job;

/* "target: dep...\n" plus an empty rule per dependency (a deleted template must not break
 * the build). Returns a malloc'd string, or NULL when out of memory. */
char *sg_depfile_text(const char *target, const char *const *deps, int count);
char *sg_depfile_for_job(const char *target, const struct sg_job *job);

#endif
