/* engine_hiz.c: a Hi-Z pyramid of an application's depth buffer, on the application's own
 * device (engine_app.h), from the contract header alone: no libspdrt. The Makefile writes it:
 *   spdgen --spd --op max --format r32f --edge conservative --target spirv --name hiz \
 *       --embed-spirv -o hiz.spv --emit-header hiz.h
 * Level 0 is a D32 depth image sampled through its depth aspect; levels 1..N live in an R32F
 * image of their own (depth formats cannot be storage images). engine_check.h then reads
 * every level back and compares it with its footprint in the depth buffer. */
#include "engine_app.h"
#include "engine_check.h"
#include "hiz.h"

#define W 333u /* odd sides: the edge rule matters */
#define H 200u
#define COMPUTE VK_SHADER_STAGE_COMPUTE_BIT

static VkImageMemoryBarrier image_barrier(VkImage image, VkImageAspectFlags aspect, uint32_t mips,
                                          VkAccessFlags src, VkImageLayout from, VkAccessFlags dst,
                                          VkImageLayout to)
{
    return (VkImageMemoryBarrier){.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src, .dstAccessMask = dst, .oldLayout = from, .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = image,
        .subresourceRange = {aspect, 0, mips, 0, 1}};
}

/* Everything the example creates on the application's device. */
typedef struct {
    uint32_t mips;
    VkImage zbuf, pyramid;
    VkImageView views[HIZ_MAX_MIPS + 1]; /* [0] the depth aspect, [k] the pyramid's level k */
    VkBuffer counters, handoff, upload, readback;
    VkDeviceMemory mem[6];
    float *depth, *back;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
} hiz;

/* The depth buffer (its depth pass is an upload here), the pyramid and a view per level, the
 * counter and hand-off buffers the header sizes, and staging. */
static void create_resources(app *a, hiz *h)
{
    h->zbuf = app_image(a, VK_FORMAT_D32_SFLOAT, W, H, 1, VK_IMAGE_USAGE_SAMPLED_BIT |
                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                        VK_IMAGE_USAGE_TRANSFER_DST_BIT, &h->mem[0]);
    h->pyramid = app_image(a, VK_FORMAT_R32_SFLOAT, SIDE(W, 1), SIDE(H, 1), h->mips,
                           VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                           &h->mem[1]);
    h->counters = app_buffer(a, HIZ_COUNTER_BYTES(1), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, &h->mem[2], NULL);
    h->handoff = app_buffer(a, HIZ_LEVEL6_BYTES(W, H, 1), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            &h->mem[3], NULL);
    h->upload = app_buffer(a, W * H * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &h->mem[4],
                           (void **)&h->depth);
    h->readback = app_buffer(a, W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &h->mem[5],
                             (void **)&h->back);
    for (uint32_t i = 0; i < W * H; i++) h->depth[i] = (float)(i * 2654435761u >> 8) / 16777216.0f;
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                 .image = h->zbuf, .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                 .format = VK_FORMAT_D32_SFLOAT,
                                 .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
    CHECK(vkCreateImageView(a->device, &vci, NULL, &h->views[0]));
    vci.image = h->pyramid, vci.format = VK_FORMAT_R32_SFLOAT;
    vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    for (uint32_t k = 1; k <= h->mips; k++) {
        vci.subresourceRange.baseMipLevel = k - 1; /* level k is the pyramid's mip k - 1 */
        CHECK(vkCreateImageView(a->device, &vci, NULL, &h->views[k]));
    }
}

/* The contract's layout, push constants, and the pipeline from the embedded module. */
static void create_pipeline(app *a, hiz *h)
{
    VkDescriptorSetLayoutBinding b[4] = {
        {.binding = HIZ_BINDING_SOURCE, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
         .descriptorCount = 1, .stageFlags = COMPUTE},
        {.binding = HIZ_BINDING_MIPS, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
         .descriptorCount = HIZ_MAX_MIPS, .stageFlags = COMPUTE},
        {.binding = HIZ_BINDING_COUNTERS, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .descriptorCount = 1, .stageFlags = COMPUTE},
        {.binding = HIZ_BINDING_LEVEL6, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .descriptorCount = 1, .stageFlags = COMPUTE}};
    VkDescriptorSetLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 4,
        .pBindings = b};
    CHECK(vkCreateDescriptorSetLayout(a->device, &lci, NULL, &h->set_layout));
    VkPushConstantRange push = {COMPUTE, 0, sizeof(HizPushConstants)};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = 1, .pSetLayouts = &h->set_layout,
                                       .pushConstantRangeCount = 1, .pPushConstantRanges = &push};
    CHECK(vkCreatePipelineLayout(a->device, &plci, NULL, &h->layout));
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = sizeof hiz_spirv, .pCode = hiz_spirv};
    CHECK(vkCreateShaderModule(a->device, &smci, NULL, &h->module));
    VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = COMPUTE,
                  .module = h->module, .pName = "main"},
        .layout = h->layout, .basePipelineIndex = -1};
    CHECK(vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &cpci, NULL, &h->pipeline));
}

/* One set. Every element of the levels array must be valid: those past the last level repeat
 * it (the shader writes none of them). */
static void write_descriptors(app *a, hiz *h)
{
    VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, HIZ_MAX_MIPS}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .maxSets = 1, .poolSizeCount = 3, .pPoolSizes = sizes};
    CHECK(vkCreateDescriptorPool(a->device, &dpci, NULL, &h->pool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = h->pool, .descriptorSetCount = 1,
                                        .pSetLayouts = &h->set_layout};
    CHECK(vkAllocateDescriptorSets(a->device, &dsai, &h->set));
    VkDescriptorImageInfo src = {.imageView = h->views[0],
                                 .imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
    VkDescriptorImageInfo dst[HIZ_MAX_MIPS];
    for (uint32_t i = 0; i < HIZ_MAX_MIPS; i++)
        dst[i] = (VkDescriptorImageInfo){.imageView = h->views[i < h->mips ? i + 1 : h->mips],
                                         .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorBufferInfo bufs[2] = {{h->counters, 0, VK_WHOLE_SIZE},
                                      {h->handoff, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[4];
    const uint32_t binding[4] = {HIZ_BINDING_SOURCE, HIZ_BINDING_MIPS, HIZ_BINDING_COUNTERS,
                                 HIZ_BINDING_LEVEL6};
    for (int i = 0; i < 4; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = h->set, .dstBinding = binding[i],
            .descriptorCount = i == 1 ? HIZ_MAX_MIPS : 1,
            .descriptorType = i == 0   ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                              : i == 1 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                       : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pImageInfo = i == 0 ? &src : dst, .pBufferInfo = &bufs[i < 2 ? 0 : i - 2]};
    vkUpdateDescriptorSets(a->device, 4, w, 0, NULL);
}

/* The frame: the depth pass's result, the counters zeroed once (the shader keeps them so),
 * the barriers into the dispatch, the dispatch, and the pyramid out to the host. */
static void record_frame(VkCommandBuffer cmd, const hiz *h)
{
    VkImageMemoryBarrier ib[2] = {
        image_barrier(h->zbuf, VK_IMAGE_ASPECT_DEPTH_BIT, 1, 0, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL),
        image_barrier(h->pyramid, VK_IMAGE_ASPECT_COLOR_BIT, h->mips, 0,
                      VK_IMAGE_LAYOUT_UNDEFINED, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_IMAGE_LAYOUT_GENERAL)};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 0, NULL, 0, NULL, 1, ib);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
                              .imageExtent = {W, H, 1}};
    vkCmdCopyBufferToImage(cmd, h->upload, h->zbuf, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                           &copy);
    vkCmdFillBuffer(cmd, h->counters, 0, VK_WHOLE_SIZE, 0);
    ib[0] = image_barrier(h->zbuf, VK_IMAGE_ASPECT_DEPTH_BIT, 1, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_SHADER_READ_BIT,
                          VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    VkMemoryBarrier fill = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &fill, 0, NULL, 2, ib);
    HizPushConstants pc = {.src_width = W, .src_height = H, .mip_count = h->mips};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h->layout, 0, 1, &h->set, 0,
                            NULL);
    vkCmdPushConstants(cmd, h->layout, COMPUTE, 0, sizeof pc, &pc);
    vkCmdDispatch(cmd, HIZ_GRID_X(W), HIZ_GRID_Y(H), 1);
    ib[1] = image_barrier(h->pyramid, VK_IMAGE_ASPECT_COLOR_BIT, h->mips,
                          VK_ACCESS_SHADER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                          VK_ACCESS_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib[1]);
    check_copy_back(cmd, h->pyramid, h->readback, W, H, h->mips);
}

static void destroy(app *a, hiz *h)
{
    vkDestroyPipeline(a->device, h->pipeline, NULL);
    vkDestroyShaderModule(a->device, h->module, NULL);
    vkDestroyPipelineLayout(a->device, h->layout, NULL);
    vkDestroyDescriptorPool(a->device, h->pool, NULL);
    vkDestroyDescriptorSetLayout(a->device, h->set_layout, NULL);
    for (uint32_t k = 0; k <= h->mips; k++) vkDestroyImageView(a->device, h->views[k], NULL);
    vkDestroyImage(a->device, h->zbuf, NULL), vkDestroyImage(a->device, h->pyramid, NULL);
    vkDestroyBuffer(a->device, h->counters, NULL), vkDestroyBuffer(a->device, h->handoff, NULL);
    vkDestroyBuffer(a->device, h->upload, NULL), vkDestroyBuffer(a->device, h->readback, NULL);
    for (int i = 0; i < 6; i++) vkFreeMemory(a->device, h->mem[i], NULL);
}

int main(void)
{
    app a;
    app_create(&a);
    hiz h = {.mips = hiz_mip_count(W, H)};
    create_resources(&a, &h);
    create_pipeline(&a, &h);
    write_descriptors(&a, &h);
    VkCommandBuffer cmd = app_begin(&a);
    record_frame(cmd, &h);
    app_submit_and_wait(&a, cmd);

    unsigned wrong = check_pyramid(h.depth, h.back, W, H, h.mips);
    printf("engine_hiz: %u levels of a %ux%u depth buffer, %u wrong texels\n", h.mips, W, H,
           wrong);
    destroy(&a, &h);
    unsigned messages = app_destroy(&a);
    printf("engine_hiz: %u validation messages\n", messages);
    return wrong || messages;
}
