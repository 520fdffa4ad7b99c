/* fsr_hw.c: the real-hardware check of spdgen --dmap fsr. For each attachment texel size
 * (8, 16, 32) the device allows: spdgen makes the generator (foveation and content); libspdrt
 * runs it (checked against the CPU reference) with the device's own supported rates as the
 * mask; then a full-screen pass uses the map as its VK_KHR_fragment_shading_rate attachment
 * (pipeline rate 1x1, combiners KEEP then REPLACE) and a fragment shader records
 * gl_ShadingRateEXT per pixel. Every pixel's recorded rate must be its map texel's.
 *
 * Without attachment shading rates (lavapipe) it renders the same pass without them (every
 * pixel must record 1x1: the harness itself works) and skips the rate checks with a message.
 *
 *   fsr_hw            prints TAP; the shaders (fsr_hw*.spv) lie next to the program
 * The generator comes from $SPDGEN_BUILD/spdgen; SPDGEN_DEVICE picks the device (a name
 * substring) for both this program and libspdrt. */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spdgen_spirv.h"
#include "spdrt_dmap.h"
#include "tap.h"
#include "fsr_hw_vulkan.h"

#define WIDTH 1000u
#define HEIGHT 600u

static VkShaderModule module_of(hw *h, const uint32_t *code, size_t words)
{
    VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, words * 4, code};
    VkShaderModule m = VK_NULL_HANDLE;
    vkCreateShaderModule(h->device, &ci, NULL, &m);
    return m;
}

/* The render pass: colour (R32_UINT, cleared to all ones, then read by a copy) and, with
 * `texel`, the shading-rate attachment of texel x texel pixels. */
static VkRenderPass make_render_pass(hw *h, uint32_t texel)
{
    VkAttachmentDescription2 a[2];
    memset(a, 0, sizeof a);
    a[0].sType = a[1].sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
    a[0].format = VK_FORMAT_R32_UINT;
    a[0].samples = a[1].samples = VK_SAMPLE_COUNT_1_BIT;
    a[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a[0].stencilLoadOp = a[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a[0].stencilStoreOp = a[1].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    a[1].format = VK_FORMAT_R8_UINT;
    a[1].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    a[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a[1].initialLayout = a[1].finalLayout = VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR;
    VkAttachmentReference2 colour = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 0,
                                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0};
    VkAttachmentReference2 rate = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, NULL, 1,
                                   VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR, 0};
    VkFragmentShadingRateAttachmentInfoKHR fsr = {VK_STRUCTURE_TYPE_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR, NULL,
                                                 &rate, {texel, texel}};
    VkSubpassDescription2 sub;
    memset(&sub, 0, sizeof sub);
    sub.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
    sub.pNext = texel ? &fsr : NULL;
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sub.colorAttachmentCount = 1;
    sub.pColorAttachments = &colour;
    VkSubpassDependency2 deps[2];
    memset(deps, 0, sizeof deps);
    deps[0].sType = deps[1].sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2;
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo2 rp;
    memset(&rp, 0, sizeof rp);
    rp.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2;
    rp.attachmentCount = texel ? 2 : 1;
    rp.pAttachments = a;
    rp.subpassCount = 1;
    rp.pSubpasses = &sub;
    rp.dependencyCount = 2;
    rp.pDependencies = deps;
    VkRenderPass pass = VK_NULL_HANDLE;
    vkCreateRenderPass2(h->device, &rp, NULL, &pass);
    return pass;
}

/* The full-screen pipeline; with rates: pipeline 1x1, KEEP the primitive's, REPLACE with the
 * attachment's. */
static VkPipeline make_pipeline(hw *h, VkRenderPass pass, VkPipelineLayout layout, VkShaderModule vert,
                                VkShaderModule frag, int rates)
{
    VkPipelineShaderStageCreateInfo st[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT, vert, "main", NULL},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_FRAGMENT_BIT, frag, "main",
         NULL}};
    VkPipelineVertexInputStateCreateInfo vi = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, NULL, 0, 0,
                                               NULL, 0, NULL};
    VkPipelineInputAssemblyStateCreateInfo ia = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0,
                                                 VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_FALSE};
    VkViewport viewport = {0, 0, (float)WIDTH, (float)HEIGHT, 0, 1};
    VkRect2D scissor = {{0, 0}, {WIDTH, HEIGHT}};
    VkPipelineViewportStateCreateInfo vp = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, NULL, 0, 1,
                                            &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo rs;
    memset(&rs, 0, sizeof rs);
    rs.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms;
    memset(&ms, 0, sizeof ms);
    ms.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend;
    memset(&blend, 0, sizeof blend);
    blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
    VkPipelineColorBlendStateCreateInfo cb;
    memset(&cb, 0, sizeof cb);
    cb.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    VkPipelineFragmentShadingRateStateCreateInfoKHR fsr = {
        VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR, NULL, {1, 1},
        {VK_FRAGMENT_SHADING_RATE_COMBINER_OP_KEEP_KHR, VK_FRAGMENT_SHADING_RATE_COMBINER_OP_REPLACE_KHR}};
    VkGraphicsPipelineCreateInfo gp;
    memset(&gp, 0, sizeof gp);
    gp.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    gp.pNext = rates ? &fsr : NULL;
    gp.stageCount = 2;
    gp.pStages = st;
    gp.pVertexInputState = &vi;
    gp.pInputAssemblyState = &ia;
    gp.pViewportState = &vp;
    gp.pRasterizationState = &rs;
    gp.pMultisampleState = &ms;
    gp.pColorBlendState = &cb;
    gp.layout = layout;
    gp.renderPass = pass;
    VkPipeline p = VK_NULL_HANDLE;
    vkCreateGraphicsPipelines(h->device, VK_NULL_HANDLE, 1, &gp, NULL, &p);
    return p;
}

/* One full-screen pass; map (NULL: no rates) is the attachment of texel x texel pixels.
 * rates: WIDTH x HEIGHT recorded values. Returns 0, or -1 after a diagnostic. */
static int render(hw *h, const uint32_t *vert, size_t vw, const uint32_t *frag, size_t fw, const uint8_t *map,
                  uint32_t texel, uint32_t *rates)
{
    const uint32_t mw = texel ? (WIDTH + texel - 1) / texel : 1, mh = texel ? (HEIGHT + texel - 1) / texel : 1;
    hw_image colour = {0}, attachment = {0};
    hw_buffer staging = {0}, readback = {0};
    VkShaderModule vs = module_of(h, vert, vw), fs = module_of(h, frag, fw);
    VkRenderPass pass = make_render_pass(h, map ? texel : 0);
    VkPipelineLayoutCreateInfo li = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 0, NULL, 0, NULL};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    vkCreatePipelineLayout(h->device, &li, NULL, &layout);
    VkPipeline pipe = pass ? make_pipeline(h, pass, layout, vs, fs, map != NULL) : VK_NULL_HANDLE;
    VkFramebuffer fb = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    int rc = -1;
    if (!vs || !fs || !pass || !pipe) {
        printf("# could not build the pass and pipeline\n");
        goto done;
    }
    if (hw_image_make(h, VK_FORMAT_R32_UINT, WIDTH, HEIGHT,
                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &colour) ||
        hw_buffer_make(h, (VkDeviceSize)WIDTH * HEIGHT * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback) ||
        (map && (hw_image_make(h, VK_FORMAT_R8_UINT, mw, mh,
                               VK_IMAGE_USAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR |
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                               &attachment) ||
                 hw_buffer_make(h, (VkDeviceSize)mw * mh, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging)))) {
        printf("# could not create the images\n");
        goto done;
    }
    VkImageView views[2] = {colour.view, attachment.view};
    VkFramebufferCreateInfo fi = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, pass, map ? 2u : 1u, views,
                                  WIDTH, HEIGHT, 1};
    vkCreateFramebuffer(h->device, &fi, NULL, &fb);
    if (map) memcpy(staging.map, map, (size_t)mw * mh);
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, h->pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb;
    vkAllocateCommandBuffers(h->device, &ai, &cb);
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    vkBeginCommandBuffer(cb, &bi);
    if (map) {
        VkBufferImageCopy copy = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {mw, mh, 1}};
        hw_barrier(cb, attachment.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdCopyBufferToImage(cb, staging.buffer, attachment.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        /* ALL_COMMANDS covers the shading-rate attachment stage: validation layers of the 1.3.239
         * era check that stage's bit (shared with the NV extension's) against the NV feature. */
        hw_barrier(cb, attachment.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                   VK_ACCESS_FRAGMENT_SHADING_RATE_ATTACHMENT_READ_BIT_KHR);
    }
    VkClearValue clear[2];
    memset(clear, 0, sizeof clear);
    clear[0].color.uint32[0] = 0xffffffffu; /* a pixel never shaded shows */
    VkRenderPassBeginInfo rb = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, pass, fb, {{0, 0}, {WIDTH, HEIGHT}},
                                map ? 2u : 1u, clear};
    vkCmdBeginRenderPass(cb, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
    VkBufferImageCopy back = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {WIDTH, HEIGHT, 1}};
    vkCmdCopyImageToBuffer(cb, colour.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &back);
    VkMemoryBarrier host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0,
                         NULL);
    vkEndCommandBuffer(cb);
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
    vkCreateFence(h->device, &fci, NULL, &fence);
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cb, 0, NULL};
    if (vkQueueSubmit(h->queue, 1, &si, fence) != VK_SUCCESS ||
        vkWaitForFences(h->device, 1, &fence, VK_TRUE, 60ull * 1000000000ull) != VK_SUCCESS) {
        printf("# the pass did not complete\n");
        goto done;
    }
    memcpy(rates, readback.map, (size_t)WIDTH * HEIGHT * 4);
    vkFreeCommandBuffers(h->device, h->pool, 1, &cb);
    rc = 0;
done:
    if (fence) vkDestroyFence(h->device, fence, NULL);
    if (fb) vkDestroyFramebuffer(h->device, fb, NULL);
    if (pipe) vkDestroyPipeline(h->device, pipe, NULL);
    if (layout) vkDestroyPipelineLayout(h->device, layout, NULL);
    if (pass) vkDestroyRenderPass(h->device, pass, NULL);
    if (vs) vkDestroyShaderModule(h->device, vs, NULL);
    if (fs) vkDestroyShaderModule(h->device, fs, NULL);
    hw_image_free(h, &colour);
    hw_image_free(h, &attachment);
    hw_buffer_free(h, &staging);
    hw_buffer_free(h, &readback);
    return rc;
}

/* spdgen --dmap fsr --texel T --foveation gaze --content, as SPIR-V. */
static uint32_t *generator(uint32_t texel, size_t *words)
{
    char args[128];
    snprintf(args, sizeof args, "--dmap fsr --texel %u --foveation gaze --content", texel);
    return spdgen_spirv(args, words);
}

/* The map for texel size T: generated on libspdrt's device with the device's rates as the
 * mask, checked against the CPU reference. */
static uint8_t *make_map(spdrt_context *ctx, uint32_t texel, uint32_t mask)
{
    spdrt_dmap_gen_config c = {SPDRT_DMAP_FSR, texel, 1, SPDRT_DMAP_FOVEATION_GAZE, 1, 0, 4, 0, 0};
    spdrt_dmap_gen_params p;
    spdrt_dmap_gen_defaults(&c, WIDTH, HEIGHT, &p);
    p.rate_mask = mask;
    p.gaze[0][0] = WIDTH / 3;
    spdrt_dmap_extent e = spdrt_dmap_gen_extent(&c, WIDTH, HEIGHT);
    size_t words, texels = (size_t)e.width * e.height;
    float *colour = malloc((size_t)WIDTH * HEIGHT * 4 * sizeof *colour);
    float *motion = malloc((size_t)WIDTH * HEIGHT * 2 * sizeof *motion);
    uint8_t *gpu = malloc(texels), *ref = malloc(texels);
    uint32_t *spirv = generator(texel, &words);
    int good = spirv && colour && motion && gpu && ref;
    if (good) spdrt_dmap_scene(WIDTH, HEIGHT, 1, 5, colour, motion);
    good = good && spdrt_dmap_gen_run(ctx, spirv, words, &c, &p, colour, motion, 1, gpu, NULL) == SPDRT_OK;
    good = good && spdrt_dmap_gen_reference(&c, &p, colour, motion, ref) == 0 && memcmp(gpu, ref, texels) == 0;
    ok(good, "--texel %u: the generated attachment (%ux%u) equals the CPU reference on %s", texel, e.width,
       e.height, spdrt_device(ctx)->name);
    free(spirv);
    free(colour);
    free(motion);
    free(ref);
    if (!good) {
        free(gpu);
        return NULL;
    }
    return gpu;
}

/* Every pixel's recorded rate against its texel; mismatching tiles are counted. */
static void check_rates(const uint8_t *map, uint32_t texel, const uint32_t *rates)
{
    const uint32_t mw = (WIDTH + texel - 1) / texel, mh = (HEIGHT + texel - 1) / texel;
    unsigned bad_tiles = 0, seen[16] = {0}, kinds = 0;
    for (uint32_t ty = 0; ty < mh; ty++)
        for (uint32_t tx = 0; tx < mw; tx++) {
            int bad = 0;
            uint8_t want = map[ty * mw + tx];
            for (uint32_t y = ty * texel; y < (ty + 1) * texel && y < HEIGHT; y++)
                for (uint32_t x = tx * texel; x < (tx + 1) * texel && x < WIDTH; x++)
                    bad |= rates[y * WIDTH + x] != want;
            if (bad && !bad_tiles)
                printf("# tile (%u, %u): generated %u, recorded %u at its first pixel\n", tx, ty, want,
                       rates[ty * texel * WIDTH + tx * texel]);
            bad_tiles += bad;
            seen[want & 15]++;
        }
    for (int k = 0; k < 16; k++) kinds += seen[k] != 0;
    ok(bad_tiles == 0, "--texel %u: every pixel of all %u tiles shades at its tile's generated rate (%u rates)",
       texel, mw * mh, kinds);
}

int main(int argc, char **argv)
{
    (void)argc;
    char dir[1024], path[1200], why[256];
    snprintf(dir, sizeof dir, "%s", argv[0]);
    char *here = dirname(dir);
    size_t vw, fw, dw;
    snprintf(path, sizeof path, "%s/fsr_hw.vert.spv", here);
    uint32_t *vert = read_spirv(path, &vw);
    snprintf(path, sizeof path, "%s/fsr_hw.frag.spv", here);
    uint32_t *frag = read_spirv(path, &fw);
    snprintf(path, sizeof path, "%s/fsr_hw_dry.frag.spv", here);
    uint32_t *dry = read_spirv(path, &dw);
    hw h;
    if (!vert || !frag || !dry) {
        printf("1..0 # SKIP the shaders fsr_hw*.spv are not next to the program\n");
        return 1;
    }
    if (hw_open(&h, why, sizeof why)) {
        printf("1..0 # SKIP %s\n", why);
        return 0;
    }
    uint32_t *rates = malloc((size_t)WIDTH * HEIGHT * 4);
    /* The harness itself: without rates every pixel is its own fragment. */
    int drawn = render(&h, vert, vw, dry, dw, NULL, 0, rates) == 0;
    unsigned not_one = 0;
    for (size_t i = 0; drawn && i < (size_t)WIDTH * HEIGHT; i++) not_one += rates[i] != 0;
    ok(drawn && not_one == 0, "%s: a full-screen pass without rates records 1x1 at every pixel", h.name);
    if (!h.fsr) {
        printf("ok %d # SKIP %s has no VK_KHR_fragment_shading_rate attachment rates\n", ++tap_tests, h.name);
    } else {
        printf("# %s: attachment texels %ux%u..%ux%u, rates of 1 sample: mask 0x%x\n", h.name, h.min_texel.width,
               h.min_texel.height, h.max_texel.width, h.max_texel.height, h.rate_mask);
        spdrt_context *ctx = NULL;
        spdrt_options options = {0};
        if (spdrt_create(&options, &ctx, why, sizeof why) != SPDRT_OK) {
            ok(0, "libspdrt opens a device to run the generator (%s)", why);
        } else {
            for (uint32_t texel = 8; texel <= 32; texel *= 2) {
                if (texel < h.min_texel.width || texel > h.max_texel.width || texel < h.min_texel.height ||
                    texel > h.max_texel.height) {
                    printf("ok %d # SKIP --texel %u: %s takes %u..%u\n", ++tap_tests, texel, h.name,
                           h.min_texel.width, h.max_texel.width);
                    continue;
                }
                uint8_t *map = make_map(ctx, texel, h.rate_mask);
                if (!map) continue;
                if (render(&h, vert, vw, frag, fw, map, texel, rates) == 0) check_rates(map, texel, rates);
                else ok(0, "--texel %u: the pass with the attachment ran", texel);
                free(map);
            }
            spdrt_destroy(ctx);
        }
    }
    if (h.validation) ok(h.messages == 0, "the validation layer reported nothing (%u messages)", h.messages);
    else printf("ok %d # SKIP no validation layer here\n", ++tap_tests);
    hw_close(&h);
    free(rates);
    free(vert);
    free(frag);
    free(dry);
    return tap_plan();
}
