/* run_info.c: see run_info.h. */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "report_cells.h"
#include "run_info.h"

void bench_run_info_fill(bench_run_info *ri, spdrt_context *ctx, const bench_common_options *c,
                         const char *prog) {
    const spdrt_device_info *d = spdrt_device(ctx);
    const bench_timing_options *t = &c->timing;
    VkPhysicalDeviceProperties props;
    time_t now = time(NULL);
    struct tm tm;
    vkGetPhysicalDeviceProperties(ctx->physical, &props);
    snprintf(ri->device, sizeof ri->device, "%s", d->name);
    snprintf(ri->driver, sizeof ri->driver, "%s", d->driver);
    snprintf(ri->api_version, sizeof ri->api_version, "%u.%u.%u",
             VK_API_VERSION_MAJOR(d->api_version), VK_API_VERSION_MINOR(d->api_version),
             VK_API_VERSION_PATCH(d->api_version));
    gmtime_r(&now, &tm);
    strftime(ri->date, sizeof ri->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    ri->vendor_id = d->vendor_id;
    ri->device_id = d->device_id;
    ri->subgroup_size = d->subgroup_size;
    ri->timestamp_period_ns = d->timestamp_period_ns;
    ri->cpu_device = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    ri->warmup = t->warmup;
    ri->reps = t->reps;
    ri->b2b_runs = t->b2b;
    ri->scrub_bytes = t->scrub_bytes;
    ri->scrub_write = t->scrub_write;
    ri->heat_ms = t->heat_ms;
    ri->quick = c->quick;
    ri->validation = c->validation;
    fprintf(stderr, "%s: %s (%s), Vulkan %s, subgroup %u%s\n", prog, ri->device, ri->driver,
            ri->api_version, ri->subgroup_size,
            ri->cpu_device ? "; a CPU implementation: smoke run, not GPU figures" : "");
}

void bench_run_info_gpu_config(const bench_run_info *ri, bench_gpu_config *gc) {
    memset(gc, 0, sizeof *gc);
    gc->warmup = ri->warmup, gc->reps = ri->reps, gc->b2b = ri->b2b_runs;
    gc->scrub_bytes = ri->scrub_bytes, gc->scrub_write = ri->scrub_write;
    gc->heat_ms = ri->heat_ms;
}

void bench_run_info_heat(bench_run_info *ri, const bench_gpu *gpu, const char *prog) {
    ri->heat_passes = gpu->heat_passes;
    ri->heat_pass_us = gpu->heat_pass_us;
    ri->heat_bytes = gpu->scrub.size;
    if (ri->heat_ms > 0)
        fprintf(stderr, "%s: heat: %u read passes over %llu MiB per measurement "
                "(%.1f us each, %.1f GB/s read, with the GPU busy)\n", prog, ri->heat_passes,
                (unsigned long long)(ri->heat_bytes >> 20), ri->heat_pass_us,
                bench_gbps(ri->heat_bytes, ri->heat_pass_us));
}

void bench_run_info_method(const bench_run_info *ri, FILE *out) {
    fprintf(out, "each measured thing is one command buffer, one submit. ");
    if (ri->heat_ms > 0 && ri->heat_passes)
        fprintf(out, "It starts with %u read passes over a %llu MiB buffer (~%.0f ms of GPU "
                "work: clocks up; one pass %.1f us, %.1f GB/s) and then runs ", ri->heat_passes,
                (unsigned long long)(ri->heat_bytes >> 20), ri->heat_ms, ri->heat_pass_us,
                bench_gbps(ri->heat_bytes, ri->heat_pass_us));
    else
        fprintf(out, "No heat-up (`--heat-ms 0`). It runs ");
    fprintf(out, "%u untimed and %u timed repetitions", ri->warmup, ri->reps);
    if (ri->scrub_bytes)
        fprintf(out, ", each after a compute %s pass over a %llu MiB buffer (cold caches) and "
                "a full barrier", ri->scrub_write ? "write" : "read",
                (unsigned long long)(ri->scrub_bytes >> 20));
    else
        fprintf(out, ", each after a full barrier (no scrub: warm caches)");
    fprintf(out, ", with GPU timestamps around the work alone; **us = median of the "
            "repetitions**.");
    if (ri->b2b_runs)
        fprintf(out, " **b2b us** = %u runs back to back (a barrier after each, no scrub), "
                "total / %u.", ri->b2b_runs, ri->b2b_runs);
}

void bench_run_info_json(const bench_run_info *ri, const char *benchmark,
                         const char *extra_settings, FILE *out) {
    fprintf(out, "{\n  \"benchmark\": \"%s\",\n  \"date\": ", benchmark);
    bench_json_string(out, ri->date);
    fprintf(out, ",\n  \"device\": {\"name\": ");
    bench_json_string(out, ri->device);
    fprintf(out, ", \"driver\": ");
    bench_json_string(out, ri->driver);
    fprintf(out, ", \"vulkan_api\": ");
    bench_json_string(out, ri->api_version);
    fprintf(out, ", \"vendor_id\": %u, \"device_id\": %u, \"subgroup_size\": %u, "
            "\"timestamp_period_ns\": %.6g, \"cpu_implementation\": %s},\n", ri->vendor_id,
            ri->device_id, ri->subgroup_size, ri->timestamp_period_ns,
            ri->cpu_device ? "true" : "false");
    fprintf(out, "  \"smoke_run\": %s,\n  \"spdgen\": ", ri->cpu_device ? "true" : "false");
    bench_json_string(out, ri->spdgen_version);
    fprintf(out, ",\n  \"settings\": {\"warmup\": %u, \"reps\": %u, \"b2b_runs\": %u, "
            "\"scrub_bytes\": %llu, \"scrub_mode\": \"%s\", \"heat_ms\": %.0f, "
            "\"heat_passes\": %u, \"heat_pass_us\": %.3f, \"heat_bytes\": %llu, "
            "%s\"quick\": %s, \"validation\": %s},\n", ri->warmup, ri->reps, ri->b2b_runs,
            (unsigned long long)ri->scrub_bytes, ri->scrub_write ? "write" : "read",
            ri->heat_ms, ri->heat_passes, ri->heat_pass_us, (unsigned long long)ri->heat_bytes,
            extra_settings ? extra_settings : "", ri->quick ? "true" : "false",
            ri->validation ? "true" : "false");
}
