/* output.c: a run's files written as one set (output.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

/* The temporaries that exist right now, for the signal handler. */
static char *volatile live_temps[SG_MAX_OUTPUTS];

static void remove_temps_and_die(int sig)
{
    for (int i = 0; i < SG_MAX_OUTPUTS; i++)
        if (live_temps[i]) unlink(live_temps[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void track(int i, char *temp)
{
    static int installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temps_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        installed = 1;
    }
    live_temps[i] = temp;
}

static int fail(const char *path, const char *reason)
{
    fprintf(stderr, "spdgen: error: cannot write %s: %s\n", path, reason);
    return -1;
}

void sg_output_init(sg_outputs *o) { memset(o, 0, sizeof *o); }

/* `path` with every symbolic link on its last component followed (a dangling link names
 * the file to create). Returns a malloc'd path, or NULL with errno set. */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) { free(cur); return NULL; }
        link[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash) {
            next = strdup(link);
        } else {
            next = malloc((size_t)(slash - cur) + 2 + strlen(link));
            if (next) sprintf(next, "%.*s/%s", (int)(slash - cur), cur, link);
        }
        free(cur);
        cur = next;
    }
    if (cur) { free(cur); errno = ELOOP; }
    return NULL;
}

/* The identity of target, for sg_output.same (NULL: out of memory, or its directory does
 * not resolve, which the write then reports). */
static char *identity(const char *target, const struct stat *st)
{
    char *id = NULL;
    if (st) {
        if (asprintf(&id, "%llu:%llu", (unsigned long long)st->st_dev, (unsigned long long)st->st_ino) < 0)
            id = NULL;
        return id;
    }
    const char *slash = strrchr(target, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - target) + 1 : 1, slash ? target : ".");
    if (!realpath(dir, real) || asprintf(&id, "%s/%s", real, slash ? slash + 1 : target) < 0) id = NULL;
    return id;
}

int sg_output_add(sg_outputs *o, const char *path, const void *data, size_t size)
{
    if (o->count >= SG_MAX_OUTPUTS) return fail(path, "too many outputs");
    sg_output *f = &o->file[o->count];
    memset(f, 0, sizeof *f);
    f->path = path;
    f->data = data;
    f->size = size;
    for (int i = 0; i < o->count; i++)
        if (strcmp(o->file[i].path, path) == 0) return fail(path, "named twice in one run");
    if (strcmp(path, "-") == 0) {
        o->count++;
        return 0;
    }
    if (!(f->target = follow_links(path))) return fail(path, strerror(errno));
    struct stat st;
    int exists = stat(f->target, &st) == 0, stat_errno = errno;
    /* Two names of one file (./x and x, a link and its file) would leave only the last; a
     * device or FIFO (/dev/null for both) is written through and may be named twice. */
    f->same = exists && !S_ISREG(st.st_mode) ? NULL : identity(f->target, exists ? &st : NULL);
    for (int i = 0; f->same && i < o->count; i++)
        if (o->file[i].same && strcmp(o->file[i].same, f->same) == 0) {
            char why[PATH_MAX + 64];
            snprintf(why, sizeof why, "names the same file as %s (named twice in one run)", o->file[i].path);
            free(f->target);
            free(f->same);
            return fail(path, why);
        }
    if (exists) {
        if (S_ISDIR(st.st_mode)) goto refuse_dir;
        if (!S_ISREG(st.st_mode)) {
            f->in_place = 1;
        } else {
            /* root may write anything: a file without write permission is still refused. */
            if (access(f->target, W_OK) != 0 || (st.st_mode & 0222) == 0) {
                free(f->target);
                free(f->same);
                return fail(path, "the file is read-only");
            }
            f->keep_mode = 1;
            f->mode = st.st_mode & 07777;
            f->uid = st.st_uid;
            f->gid = st.st_gid;
        }
    } else if (stat_errno != ENOENT) {
        int e = stat_errno;
        free(f->target);
        free(f->same);
        return fail(path, strerror(e));
    }
    o->count++;
    return 0;
refuse_dir:
    free(f->target);
    free(f->same);
    return fail(path, "is a directory");
}

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

/* TARGET.spdgen-XXXXXX, with the file name part shortened to stay within NAME_MAX. */
static char *temp_name(const char *target)
{
    static const char suffix[] = ".spdgen-XXXXXX";
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    size_t name_len = strlen(target) - dir_len;
    size_t room = NAME_MAX - (sizeof suffix - 1);
    if (name_len > room) name_len = room;
    char *temp = malloc(dir_len + name_len + sizeof suffix);
    if (temp) sprintf(temp, "%.*s%.*s%s", (int)dir_len, target, (int)name_len, target + dir_len, suffix);
    return temp;
}

static int stage(sg_output *f, int i)
{
    char *temp = temp_name(f->target);
    if (!temp) return fail(f->path, "out of memory");
    int fd = mkstemp(temp);
    if (fd < 0) {
        int e = errno;
        free(temp);
        return fail(f->path, strerror(e));
    }
    f->temp = temp;
    track(i, temp);
    mode_t mask = umask(0);
    umask(mask);
    int failed = write_all(fd, f->data, f->size) ||
                 fchmod(fd, f->keep_mode ? (mode_t)f->mode : 0666 & ~mask);
    /* Keep the owner where the caller may set it (root); otherwise the file becomes the
     * caller's, as any editor's save would make it. */
    if (!failed && f->keep_mode && geteuid() == 0 && fchown(fd, f->uid, f->gid) != 0) failed = 1;
    failed |= close(fd) != 0;
    return failed ? fail(f->path, strerror(errno)) : 0;
}

static int write_in_place(const sg_output *f)
{
    int fd = open(f->target, O_WRONLY | O_TRUNC);
    if (fd < 0) return fail(f->path, strerror(errno));
    int failed = write_all(fd, f->data, f->size);
    failed |= close(fd) != 0;
    return failed ? fail(f->path, strerror(errno)) : 0;
}

/* Locks every destination directory (sorted by device and inode, so two runs take them in
 * the same order). Returns how many fds were opened into fds. */
static int lock_dirs(const sg_outputs *o, int *fds)
{
    struct { dev_t dev; ino_t ino; int fd; } dirs[SG_MAX_OUTPUTS];
    int n = 0;
    for (int i = 0; i < o->count; i++) {
        if (!o->file[i].temp) continue;
        char dir[PATH_MAX];
        const char *t = o->file[i].target, *slash = strrchr(t, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - t) + 1 : 1, slash ? t : ".");
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            if (fd >= 0) close(fd);
            continue; /* unlockable: the rename still reports any real problem */
        }
        int seen = 0;
        for (int j = 0; j < n; j++) seen |= dirs[j].dev == st.st_dev && dirs[j].ino == st.st_ino;
        if (seen) {
            close(fd);
            continue;
        }
        int k = n++;
        while (k > 0 && (dirs[k - 1].dev > st.st_dev ||
                         (dirs[k - 1].dev == st.st_dev && dirs[k - 1].ino > st.st_ino))) {
            dirs[k] = dirs[k - 1];
            k--;
        }
        dirs[k].dev = st.st_dev;
        dirs[k].ino = st.st_ino;
        dirs[k].fd = fd;
    }
    for (int j = 0; j < n; j++) {
        while (flock(dirs[j].fd, LOCK_EX) != 0 && errno == EINTR) {}
        fds[j] = dirs[j].fd;
    }
    return n;
}

int sg_output_commit(sg_outputs *o)
{
    for (int i = 0; i < o->count; i++)
        if (o->file[i].target && !o->file[i].in_place && stage(&o->file[i], i)) return -1;
    /* What cannot be staged (devices, FIFOs, stdout) goes first: if it fails, the staged
     * files are removed and nothing is written. */
    for (int i = 0; i < o->count; i++)
        if (o->file[i].in_place && write_in_place(&o->file[i])) return -1;
    for (int i = 0; i < o->count; i++) {
        const sg_output *f = &o->file[i];
        if (f->target) continue;
        if (fwrite(f->data, 1, f->size, stdout) != f->size || fflush(stdout) != 0)
            return fail("stdout", strerror(errno));
    }
    int fds[SG_MAX_OUTPUTS], locked = lock_dirs(o, fds), rc = 0;
    for (int i = 0; i < o->count && rc == 0; i++) {
        sg_output *f = &o->file[i];
        if (!f->temp) continue;
        if (rename(f->temp, f->target) != 0) {
            rc = fail(f->path, strerror(errno));
            break;
        }
        live_temps[i] = NULL;
        free(f->temp);
        f->temp = NULL;
    }
    for (int j = 0; j < locked; j++) close(fds[j]);
    return rc;
}

void sg_output_abort(sg_outputs *o)
{
    for (int i = 0; i < o->count; i++) {
        if (o->file[i].temp) unlink(o->file[i].temp);
        live_temps[i] = NULL;
        free(o->file[i].temp);
        free(o->file[i].target);
        free(o->file[i].same);
    }
    memset(o, 0, sizeof *o);
}
