/* tools.c: locating files next to the executable, reading SPIR-V, running spdgen. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools.h"

extern char **environ;

int bench_exe_dir(const char *argv0, char *out, size_t size) {
    char path[BENCH_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    char *slash;
    if (n > 0) {
        path[n] = '\0';
    } else if (argv0 && strlen(argv0) < sizeof path) {
        snprintf(path, sizeof path, "%s", argv0);
    } else {
        return -1;
    }
    slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == path)
        snprintf(out, size, "/");
    else {
        *slash = '\0';
        snprintf(out, size, "%s", path);
    }
    return 0;
}

uint32_t *bench_read_spirv(const char *path, size_t *words, char *err, size_t err_size) {
    FILE *f = fopen(path, "rb");
    long size;
    uint32_t *code = NULL;
    *words = 0;
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (size < 20 || size % 4) {
        snprintf(err, err_size, "%s is not a SPIR-V module (%ld bytes)", path, size);
        fclose(f);
        return NULL;
    }
    code = malloc((size_t)size);
    if (!code || fread(code, 1, (size_t)size, f) != (size_t)size) {
        snprintf(err, err_size, "cannot read %s", path);
        free(code);
        code = NULL;
    } else {
        *words = (size_t)size / 4;
    }
    fclose(f);
    return code;
}

/* Runs argv (argv[0] = the program path), stdout to `stdout_path` and stderr to
 * `stderr_path` if given. Returns the exit status, or -1 with err set. */
static int run2(char *const *argv, const char *stdout_path, const char *stderr_path,
                char *err, size_t err_size) {
    posix_spawn_file_actions_t actions;
    pid_t pid;
    int status, rc;
    posix_spawn_file_actions_init(&actions);
    if (stdout_path)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (stderr_path)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
    rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        snprintf(err, err_size, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, err_size, "waiting for %s: %s", argv[0], strerror(errno));
            return -1;
        }
    if (!WIFEXITED(status)) {
        snprintf(err, err_size, "%s was killed by signal %d", argv[0],
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return -1;
    }
    return WEXITSTATUS(status);
}

static int run(char *const *argv, const char *stdout_path, char *err, size_t err_size) {
    return run2(argv, stdout_path, NULL, err, err_size);
}

int bench_run_program(char *const *argv, const char *stdout_path, char *err, size_t err_size) {
    return run(argv, stdout_path, err, err_size);
}

int bench_run_program_quiet(char *const *argv, const char *stderr_path, char *err,
                            size_t err_size) {
    return run2(argv, NULL, stderr_path, err, err_size);
}

static int executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int bench_spdgen_open(bench_spdgen *g, const char *explicit_path, const char *exe_dir,
                      char *err, size_t err_size) {
    char candidates[3][BENCH_PATH_MAX], tried[3 * BENCH_PATH_MAX + 16] = "";
    const char *build = getenv("SPDGEN_BUILD");
    char version_path[BENCH_PATH_MAX + 16];
    char *argv[3];
    FILE *f;
    int n = 0, i;
    memset(g, 0, sizeof *g);
    if (explicit_path) {
        snprintf(candidates[n++], BENCH_PATH_MAX, "%s", explicit_path);
    } else {
        if (build && *build)
            snprintf(candidates[n++], BENCH_PATH_MAX, "%s/spdgen", build);
        snprintf(candidates[n++], BENCH_PATH_MAX, "%s/../spdgen", exe_dir);
        snprintf(candidates[n++], BENCH_PATH_MAX, "%s/spdgen", exe_dir);
    }
    for (i = 0; i < n; i++) {
        if (executable(candidates[i]))
            break;
        snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s", i ? ", " : "",
                 candidates[i]);
    }
    if (i == n) {
        snprintf(err, err_size, "no spdgen binary found (tried %s); build it with make, or "
                 "pass --spdgen PATH", tried);
        return -1;
    }
    snprintf(g->path, sizeof g->path, "%s", candidates[i]);
    snprintf(g->tmpdir, sizeof g->tmpdir, "%s", "/tmp/spd_bench.XXXXXX");
    if (!mkdtemp(g->tmpdir)) {
        snprintf(err, err_size, "cannot create a temporary directory: %s", strerror(errno));
        g->tmpdir[0] = '\0';
        return -1;
    }
    snprintf(version_path, sizeof version_path, "%s/version", g->tmpdir);
    argv[0] = g->path, argv[1] = "--version", argv[2] = NULL;
    *err = '\0';
    if (run(argv, version_path, err, err_size) != 0) {
        if (!*err)
            snprintf(err, err_size, "%s --version failed", g->path);
        bench_spdgen_close(g);
        return -1;
    }
    f = fopen(version_path, "r");
    if (f) {
        if (fgets(g->version, sizeof g->version, f))
            g->version[strcspn(g->version, "\r\n")] = '\0';
        fclose(f);
    }
    remove(version_path);
    return 0;
}

void bench_spdgen_close(bench_spdgen *g) {
    if (g->tmpdir[0])
        rmdir(g->tmpdir);
    memset(g, 0, sizeof *g);
}

int bench_spdgen_spd(bench_spdgen *g, const char *op, const char *format,
                     const bench_spd_options *o, const char *max_size, uint32_t mips,
                     uint32_t **words, size_t *count, char *command, size_t command_size,
                     char *err, size_t err_size) {
    char sub[16], levels[16], out[BENCH_PATH_MAX + 16], max[32], tiles[16], wgs[16], ahead[16];
    char extra[256], *tok, *save = NULL;
    char *argv[48] = {g->path, "--spd", "--op", (char *)op, "--format", (char *)format,
                      "--subgroup", sub, "--max-size", max, "--mips", levels,
                      "--target", "spirv", "-o", out, NULL};
    int status, i, next = 14;
    size_t used = 0;
    snprintf(extra, sizeof extra, "%s", o->extra ? o->extra : "");
    if (o->extra) { /* flags as given, the subgroup among them or spdgen's default */
        memmove(argv + 6, argv + 8, 6 * sizeof argv[0]);
        next = 12;
    }
    snprintf(sub, sizeof sub, "%u", o->subgroup);
    snprintf(levels, sizeof levels, "%u", mips);
    snprintf(max, sizeof max, "%s", max_size);
    snprintf(out, sizeof out, "%s/spd.spv", g->tmpdir);
    /* Options before -o, so the report's command shows them. */
    if (o->tile) {
        snprintf(tiles, sizeof tiles, "%u", o->tile);
        snprintf(wgs, sizeof wgs, "%u", o->wg);
        argv[next++] = "--tile", argv[next++] = tiles, argv[next++] = "--wg", argv[next++] = wgs;
    }
    /* Named either way at 64x64 tiles, since spdgen's default depends on the size. */
    if (o->hierarchy)
        argv[next++] = "--tail", argv[next++] = "hierarchy";
    else if ((!o->tile || o->tile == 64) && !o->extra)
        argv[next++] = "--tail", argv[next++] = "loop";
    if (o->sampler_linear)
        argv[next++] = "--sampler", argv[next++] = "linear";
    if (o->normalized)
        argv[next++] = "--sampler-coords", argv[next++] = "normalized";
    if (o->sampler_linear) { /* named even at 0: the hierarchy's default is 2 */
        snprintf(ahead, sizeof ahead, "%u", o->fetch_ahead);
        argv[next++] = "--fetch-ahead", argv[next++] = ahead;
    }
    if (o->half)
        argv[next++] = "--half";
    for (tok = strtok_r(extra, " ", &save); tok && next < 44; tok = strtok_r(NULL, " ", &save))
        argv[next++] = tok;
    argv[next++] = "-o", argv[next++] = out, argv[next] = NULL;
    /* The arguments without the binary's path and the output, as the report shows them. */
    command[0] = '\0';
    for (i = 0; argv[i] && strcmp(argv[i], "-o"); i++)
        used += (size_t)snprintf(command + used, used < command_size ? command_size - used : 0,
                                 "%s%s", i ? " " : "", i ? argv[i] : "spdgen");
    *err = '\0';
    status = run(argv, NULL, err, err_size);
    if (status != 0) {
        if (status > 0)
            snprintf(err, err_size, "spdgen exited with status %d (its message is above): %s",
                     status, command);
        remove(out);
        return -1;
    }
    *words = bench_read_spirv(out, count, err, err_size);
    remove(out);
    return *words ? 0 : -1;
}
