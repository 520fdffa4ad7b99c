/* tools.h: the files and programs the benchmark uses: its own SPIR-V next to the
 * executable, and the spdgen binary, run once per SPD variant it measures. */
#ifndef BENCH_TOOLS_H
#define BENCH_TOOLS_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_PATH_MAX 4096

/* The directory holding the running executable (from /proc/self/exe, else argv[0]). */
int bench_exe_dir(const char *argv0, char *out, size_t size);

/* Reads a SPIR-V file; NULL with err set on failure. Free with free(). */
uint32_t *bench_read_spirv(const char *path, size_t *words, char *err, size_t err_size);

typedef struct {
    char path[BENCH_PATH_MAX];    /* the spdgen binary */
    char tmpdir[BENCH_PATH_MAX];  /* a private directory it writes into */
    char version[128];            /* its --version line */
} bench_spdgen;

/* Finds spdgen: `explicit_path` if given, else $SPDGEN_BUILD/spdgen, else
 * <exe_dir>/../spdgen (build/spdgen from build/bench/), else <exe_dir>/spdgen; asks it for
 * its version. 0, or -1 with err naming every place tried. */
int bench_spdgen_open(bench_spdgen *g, const char *explicit_path, const char *exe_dir,
                      char *err, size_t err_size);
void bench_spdgen_close(bench_spdgen *g);

/* Runs argv (argv[0] = the program's path; NULL-terminated), its stdout to `stdout_path` if
 * given. Returns its exit status, or -1 with err set when it could not run or was killed. */
int bench_run_program(char *const *argv, const char *stdout_path, char *err, size_t err_size);
/* The same with its stderr to `stderr_path` instead (a message the caller reads back). */
int bench_run_program_quiet(char *const *argv, const char *stderr_path, char *err,
                            size_t err_size);

/* The spdgen options of one SPD shader, beyond op, format, size and levels. */
typedef struct {
    uint32_t subgroup;    /* --subgroup S */
    uint32_t tile, wg;    /* --tile T --wg N (tile 0: spdgen's 64x64 default) */
    int hierarchy;        /* --tail hierarchy */
    int sampler_linear;   /* --sampler linear */
    int normalized;       /* --sampler-coords normalized (power-of-two sizes) */
    int half;             /* --half */
    uint32_t fetch_ahead; /* --fetch-ahead N, given with --sampler linear */
    const char *extra;    /* the flags, space-separated (spd_bench --variants; "" = none:
                             spdgen's defaults), instead of the fields above; or NULL */
} bench_spd_options;

/* Runs `spdgen --spd --op OP --format F --max-size M --mips L --target spirv` with the
 * options `o` and returns the module (free with free()). `command` receives the arguments,
 * for the report. spdgen's own messages go to stderr. 0, or -1 with err set. */
int bench_spdgen_spd(bench_spdgen *g, const char *op, const char *format,
                     const bench_spd_options *o, const char *max_size, uint32_t mips,
                     uint32_t **words, size_t *count, char *command, size_t command_size,
                     char *err, size_t err_size);

#endif
