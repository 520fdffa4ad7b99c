/* statistics.c: what the driver says about each compiled pipeline (registers per invocation,
 * shared memory, instruction counts: whatever VK_KHR_pipeline_executable_properties reports),
 * for the benchmarks' reports. Occupancy follows from the registers, and occupancy is what a
 * timestamp alone cannot show.
 *
 * Opt-in (spdrt_options.capture_statistics): capturing may change how a driver caches
 * pipelines. Where the device lacks the extension nothing is captured and
 * spdrt_take_statistics returns an empty string. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void spdrt__statistics_chain(spdrt_context *ctx, int wanted, int has_ext,
                             VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *f,
                             void **next) {
    memset(f, 0, sizeof *f);
    ctx->statistics_wanted = wanted && has_ext;
    if (!ctx->statistics_wanted)
        return;
    f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    f->pNext = *next;
    *next = f;
}

void spdrt__statistics_enable(spdrt_context *ctx,
                              VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *f,
                              const void **next, const char **exts, uint32_t *count) {
    if (!ctx->statistics_wanted || !f->pipelineExecutableInfo)
        return;
    memset(f, 0, sizeof *f);
    f->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    f->pipelineExecutableInfo = VK_TRUE;
    f->pNext = (void *)*next;
    *next = f;
    exts[(*count)++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    ctx->statistics_enabled = 1;
}

VkPipelineCreateFlags spdrt__statistics_flags(const spdrt_context *ctx) {
    return ctx->statistics_enabled ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
}

/* Appends "name=value" for each statistic of each executable (a compute pipeline has one)
 * to ctx->statistics, pipelines separated by " | ". */
void spdrt__statistics_record(spdrt_context *ctx, VkPipeline pipeline) {
    PFN_vkGetPipelineExecutablePropertiesKHR get_props;
    PFN_vkGetPipelineExecutableStatisticsKHR get_stats;
    VkPipelineInfoKHR pi;
    VkPipelineExecutableStatisticKHR stats[32];
    uint32_t n_exec = 0, e, n_stats, i;
    size_t used = strlen(ctx->statistics);
    if (!ctx->statistics_enabled)
        return;
    get_props = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(
        ctx->device, "vkGetPipelineExecutablePropertiesKHR");
    get_stats = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(
        ctx->device, "vkGetPipelineExecutableStatisticsKHR");
    if (!get_props || !get_stats)
        return;
    memset(&pi, 0, sizeof pi);
    pi.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR;
    pi.pipeline = pipeline;
    if (get_props(ctx->device, &pi, &n_exec, NULL) != VK_SUCCESS)
        return;
    if (used && used + 3 < sizeof ctx->statistics)
        used += (size_t)snprintf(ctx->statistics + used, sizeof ctx->statistics - used, " | ");
    for (e = 0; e < n_exec; e++) {
        VkPipelineExecutableInfoKHR ei;
        memset(&ei, 0, sizeof ei);
        ei.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR;
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        memset(stats, 0, sizeof stats);
        for (i = 0; i < 32; i++)
            stats[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
        n_stats = 32;
        if (get_stats(ctx->device, &ei, &n_stats, stats) < 0)
            continue;
        for (i = 0; i < n_stats && used < sizeof ctx->statistics; i++) {
            const VkPipelineExecutableStatisticKHR *s = &stats[i];
            const char *sep = (e || i) ? "; " : "";
            int w;
            switch (s->format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                w = snprintf(ctx->statistics + used, sizeof ctx->statistics - used, "%s%s=%s",
                             sep, s->name, s->value.b32 ? "true" : "false");
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                w = snprintf(ctx->statistics + used, sizeof ctx->statistics - used, "%s%s=%lld",
                             sep, s->name, (long long)s->value.i64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                w = snprintf(ctx->statistics + used, sizeof ctx->statistics - used, "%s%s=%llu",
                             sep, s->name, (unsigned long long)s->value.u64);
                break;
            default:
                w = snprintf(ctx->statistics + used, sizeof ctx->statistics - used, "%s%s=%g",
                             sep, s->name, s->value.f64);
                break;
            }
            if (w < 0)
                break;
            used += (size_t)w;
        }
    }
    if (used >= sizeof ctx->statistics)
        ctx->statistics[sizeof ctx->statistics - 1] = '\0';
}

void spdrt_take_statistics(spdrt_context *ctx, char *out, size_t size) {
    if (size)
        snprintf(out, size, "%s", ctx->statistics);
    ctx->statistics[0] = '\0';
}
