/* output.c: atomic writes (temporary + rename) and depfiles. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int sg_output_stage(sg_outputs *o, const char *path, const void *data, size_t size)
{
    if (o->count >= SG_MAX_OUTPUTS) return -1;
    int i = o->count;
    o->path[i] = path;
    o->temp[i] = NULL;
    o->data[i] = data;
    o->size[i] = size;
    if (strcmp(path, "-") == 0) {
        o->count++;
        return 0;
    }
    size_t len = strlen(path) + sizeof ".spdgen-XXXXXX";
    char *temp = malloc(len);
    if (!temp) {
        fprintf(stderr, "spdgen: error: out of memory\n");
        return -1;
    }
    snprintf(temp, len, "%s.spdgen-XXXXXX", path);
    int fd = mkstemp(temp);
    if (fd < 0) {
        fprintf(stderr, "spdgen: error: cannot write %s: %s\n", path, strerror(errno));
        free(temp);
        return -1;
    }
    /* mkstemp creates 0600; outputs get the usual permissions (umask applies). */
    mode_t mask = umask(0);
    umask(mask);
    int failed = write_all(fd, data, size) || fchmod(fd, 0666 & ~mask);
    failed |= close(fd);
    if (failed) {
        fprintf(stderr, "spdgen: error: cannot write %s: %s\n", path, strerror(errno));
        unlink(temp);
        free(temp);
        return -1;
    }
    o->temp[i] = temp;
    o->count++;
    return 0;
}

int sg_output_commit(sg_outputs *o)
{
    int rc = 0;
    for (int i = 0; i < o->count; i++) {
        if (!o->temp[i]) {
            if (fwrite(o->data[i], 1, o->size[i], stdout) != o->size[i] || fflush(stdout)) {
                fprintf(stderr, "spdgen: error: cannot write to stdout: %s\n", strerror(errno));
                rc = -1;
            }
            continue;
        }
        if (rename(o->temp[i], o->path[i]) != 0) {
            fprintf(stderr, "spdgen: error: cannot write %s: %s\n", o->path[i], strerror(errno));
            unlink(o->temp[i]);
            rc = -1;
        }
        free(o->temp[i]);
        o->temp[i] = NULL;
    }
    o->count = 0;
    return rc;
}

void sg_output_abort(sg_outputs *o)
{
    for (int i = 0; i < o->count; i++) {
        if (o->temp[i]) {
            unlink(o->temp[i]);
            free(o->temp[i]);
            o->temp[i] = NULL;
        }
    }
    o->count = 0;
}

/* Make syntax: spaces are escaped with a backslash, '$' doubled. */
static size_t escape_into(char *dst, const char *src)
{
    size_t n = 0;
    for (; *src; src++) {
        if (*src == ' ' || *src == '#') { if (dst) dst[n] = '\\'; n++; }
        if (*src == '$') { if (dst) dst[n] = '$'; n++; }
        if (dst) dst[n] = *src;
        n++;
    }
    return n;
}

char *sg_depfile_text(const char *target, const char *const *deps, int count)
{
    size_t size = escape_into(NULL, target) + 3;
    for (int i = 0; i < count; i++) size += 2 * escape_into(NULL, deps[i]) + 8;
    char *text = malloc(size + 1);
    if (!text) return NULL;
    size_t n = escape_into(text, target);
    text[n++] = ':';
    for (int i = 0; i < count; i++) {
        text[n++] = ' ';
        n += escape_into(text + n, deps[i]);
    }
    text[n++] = '\n';
    for (int i = 0; i < count; i++) {
        text[n++] = '\n';
        n += escape_into(text + n, deps[i]);
        text[n++] = ':';
        text[n++] = '\n';
    }
    text[n] = '\0';
    return text;
}
