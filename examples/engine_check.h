/* engine_check.h: what examples/engine_hiz.c adds to prove itself, no part of an engine's
 * code: the pyramid copied back to the host, and every texel compared with the largest depth
 * of its footprint in level 0 (with --edge conservative the last row and column of a level
 * reach the image's edge). */
#ifndef ENGINE_CHECK_H
#define ENGINE_CHECK_H

#include <vulkan/vulkan.h>

#define SIDE(s, k) ((s) >> (k) ? (s) >> (k) : 1u) /* of level k */

/* Records the copies of levels 1..mips (the pyramid's mips 0..mips-1, in TRANSFER_SRC_OPTIMAL)
 * into `readback`, one after the other, and makes them visible to the host. */
static void check_copy_back(VkCommandBuffer cmd, VkImage pyramid, VkBuffer readback, uint32_t w,
                            uint32_t h, uint32_t mips)
{
    VkDeviceSize offset = 0;
    for (uint32_t k = 1; k <= mips; offset += 4ull * SIDE(w, k) * SIDE(h, k), k++) {
        VkBufferImageCopy level = {.bufferOffset = offset,
                                   .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, k - 1, 0, 1},
                                   .imageExtent = {SIDE(w, k), SIDE(h, k), 1}};
        vkCmdCopyImageToBuffer(cmd, pyramid, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1,
                               &level);
    }
    VkMemoryBarrier host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &host, 0, NULL, 0, NULL);
}

/* The texels of the levels read back that differ from their footprint's largest depth. */
static unsigned check_pyramid(const float *depth, const float *back, uint32_t w, uint32_t h,
                              uint32_t mips)
{
    unsigned wrong = 0;
    for (uint32_t k = 1; k <= mips; back += SIDE(w, k) * SIDE(h, k), k++) {
        uint32_t lw = SIDE(w, k), lh = SIDE(h, k);
        for (uint32_t y = 0; y < lh; y++)
            for (uint32_t x = 0; x < lw; x++) {
                float m = 0.0f;
                for (uint32_t j = y << k; j < (y + 1 == lh ? h : (y + 1) << k); j++)
                    for (uint32_t i = x << k; i < (x + 1 == lw ? w : (x + 1) << k); i++)
                        m = depth[j * w + i] > m ? depth[j * w + i] : m;
                wrong += back[y * lw + x] != m;
            }
    }
    return wrong;
}

#endif
