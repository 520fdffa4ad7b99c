/* sample.c: the read-back plan (see sample.h) and the copy that executes it. */
#include <stdlib.h>
#include <string.h>

#include "sample.h"

#define PAIRS_PER_LEVEL 64u

static uint32_t pow2_at_least(uint32_t v) {
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

int bench_sample_plan(bench_sample *s, spdrt_format format, uint32_t levels,
                      const uint32_t *w, const uint32_t *h, uint64_t full_texels) {
    uint32_t k, y, n, p1, p;
    uint64_t offset = 0;
    memset(s, 0, sizeof *s);
    s->format = format;
    s->levels = levels;
    s->texel = spdrt__format_texel_size(format);
    memcpy(s->w, w, (levels + 1) * sizeof *w);
    memcpy(s->h, h, (levels + 1) * sizeof *h);
    p1 = pow2_at_least((h[1 <= levels ? 1 : 0] + PAIRS_PER_LEVEL - 1) / PAIRS_PER_LEVEL);
    if (p1 < 2)
        p1 = 2;
    for (k = 1; k <= levels; k++) {
        int full = (uint64_t)w[k] * h[k] <= full_texels;
        p = p1 >> (k - 1) >= 2 ? p1 >> (k - 1) : 2;
        s->rows[k] = malloc((size_t)h[k] * sizeof(uint32_t));
        if (!s->rows[k]) {
            bench_sample_free(s);
            return -1;
        }
        for (n = 0, y = 0; y < h[k]; y++)
            if (full || y % p < 2 || y + 3 >= h[k])
                s->rows[k][n++] = y;
        s->row_count[k] = n;
        s->offset[k] = offset;
        offset += (uint64_t)n * w[k] * s->texel;
    }
    s->size = offset;
    s->data = malloc(offset ? (size_t)offset : 1);
    if (!s->data) {
        bench_sample_free(s);
        return -1;
    }
    return 0;
}

const unsigned char *bench_sample_row(const bench_sample *s, uint32_t k, uint32_t y) {
    uint32_t lo = 0, hi;
    if (k == 0 || k > s->levels)
        return NULL;
    hi = s->row_count[k];
    while (lo < hi) { /* first index with rows[i] >= y */
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->rows[k][mid] < y)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->row_count[k] || s->rows[k][lo] != y)
        return NULL;
    return s->data + s->offset[k] + (uint64_t)lo * s->w[k] * s->texel;
}

void bench_sample_free(bench_sample *s) {
    uint32_t k;
    for (k = 0; k < BENCH_MAX_LEVELS; k++)
        free(s->rows[k]);
    free(s->data);
    memset(s, 0, sizeof *s);
}

typedef struct {
    bench_workload *wl;
    const bench_sample *s;
    VkBuffer dst;
    VkBufferImageCopy *regions;
} readback;

static void record_readback(VkCommandBuffer cb, void *user) {
    readback *rb = user;
    const bench_sample *s = rb->s;
    uint32_t k, i, n = 0;
    for (k = 1; k <= s->levels; k++) {
        int full = s->row_count[k] == s->h[k];
        for (i = 0; i < (full ? 1 : s->row_count[k]); i++) {
            VkBufferImageCopy *c = &rb->regions[n++];
            memset(c, 0, sizeof *c);
            c->bufferOffset = s->offset[k] + (uint64_t)i * s->w[k] * s->texel;
            c->imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
            c->imageSubresource.mipLevel = k;
            c->imageSubresource.layerCount = 1;
            c->imageOffset.y = full ? 0 : (int32_t)s->rows[k][i];
            c->imageExtent.width = s->w[k];
            c->imageExtent.height = full ? s->h[k] : 1;
            c->imageExtent.depth = 1;
        }
    }
    bench_image_layout(cb, rb->wl, 1, s->levels, VK_IMAGE_LAYOUT_GENERAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cb, rb->wl->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           rb->dst, n, rb->regions);
    bench_image_layout(cb, rb->wl, 1, s->levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_IMAGE_LAYOUT_GENERAL);
}

spdrt_result bench_sample_read(bench_workload *wl, bench_sample *s) {
    spdrt_context *ctx = wl->ctx;
    spdrt_buffer staging;
    readback rb;
    uint32_t k, regions = 0;
    spdrt_result res;
    if (bench_sample_plan(s, wl->format, wl->levels, wl->w, wl->h, BENCH_FULL_TEXELS) != 0)
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory planning a read-back");
    for (k = 1; k <= s->levels; k++)
        regions += s->row_count[k];
    rb.wl = wl;
    rb.s = s;
    rb.regions = calloc(regions, sizeof *rb.regions);
    if (!rb.regions) {
        bench_sample_free(s);
        return spdrt__error(ctx, SPDRT_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    res = spdrt__buffer_create(ctx, s->size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &staging);
    if (res == SPDRT_OK) {
        rb.dst = staging.buffer;
        res = bench_submit(ctx, record_readback, &rb);
        if (res == SPDRT_OK)
            memcpy(s->data, staging.map, s->size);
        if (!ctx->hung)
            spdrt__buffer_destroy(ctx, &staging);
    }
    free(rb.regions);
    if (res != SPDRT_OK)
        bench_sample_free(s);
    return res;
}
