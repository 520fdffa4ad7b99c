/* depfile.c: Make-syntax depfiles (depfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "depfile.h"
#include "job.h"
#include "text.h"

/* Make syntax: spaces, '#' and ':' are escaped with a backslash, '$' doubled (line breaks
 * and tabs have no escape: the command line refuses them, gen/cli.c). */
static void escaped(sg_text *t, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == ':') sg_text_append(t, "\\", 1);
        if (*s == '$') sg_text_append(t, "$", 1);
        sg_text_append(t, s, 1);
    }
}

char *sg_depfile_text(const char *target, const char *const *deps, int count)
{
    sg_text t = {0};
    escaped(&t, target);
    sg_text_append(&t, ":", 1);
    for (int i = 0; i < count; i++) {
        sg_text_append(&t, " ", 1);
        escaped(&t, deps[i]);
    }
    sg_text_append(&t, "\n", 1);
    for (int i = 0; i < count; i++) {
        sg_text_append(&t, "\n", 1);
        escaped(&t, deps[i]);
        sg_text_append(&t, ":\n", 2);
    }
    return sg_text_take(&t);
}

static void add_unique(const char **deps, int *n, int most, const char *dep)
{
    for (int j = 0; j < *n; j++)
        if (strcmp(deps[j], dep) == 0) return;
    if (*n < most) deps[(*n)++] = dep;
}

char *sg_depfile_for_job(const char *target, const sg_job *job)
{
    enum { MOST = 256 };
    const char *deps[MOST];
    int n = 0;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        deps[n++] = self;
    }
    for (int s = 0; s < job->count; s++) {
        const sg_generated *made[2] = {&job->shaders[s].gen, &job->shaders[s].twin};
        for (int g = 0; g < 2; g++)
            for (int i = 0; i < made[g]->dep_count; i++) add_unique(deps, &n, MOST, made[g]->deps[i]);
    }
    return sg_depfile_text(target, deps, n);
}
