/* main.c: spdgen's driver. argv -> run (cli.c) -> job (job.c). It knows no kernel: those
 * are in the registry (kernels.c). Exit 0 on success, 1 when generation, validation or a
 * selftest fails, 2 for usage errors. */
#include "cli.h"
#include "job.h"

int main(int argc, char **argv)
{
    sg_run run;
    int rc = sg_cli_parse(argc, argv, &run);
    if (rc == 0) rc = sg_job_run(&run);
    sg_run_free(&run);
    return rc < 0 ? SG_EXIT_OK : rc; /* -1: --help or --version was printed */
}
