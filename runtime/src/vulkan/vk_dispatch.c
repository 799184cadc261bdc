/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_dispatch (runtime.h): one translated compute shader run on the
 * context's device. The phases follow sb_rt_timing: the pipeline (set
 * layouts built from the translation's binding report, the pipeline layout,
 * shader module and compute pipeline), the upload (vk_bind.c creates and
 * fills every resource; images go through one staged submission), the run
 * (bind, dispatch, barriers and image read-back copies in one submission
 * waited on with a fence) and the read-back into the caller's resources.
 * Every object is destroyed on every path, except after a timed-out wait,
 * when the device may still use them (vk_submit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

/* One descriptor-set-layout binding per translated binding, plus one per counter. */
static enum sb_result create_set_layout(struct sb_vk_run *run, uint32_t set, struct sb_error *error)
{
    const struct sb_translation *t = run->t;
    VkShaderStageFlags stages = run->stage_flags ? run->stage_flags : VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutBinding *entries = calloc(t->binding_count * 2 + 1, sizeof(*entries));
    if (!entries)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_dispatch: out of memory");
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        if (b->set != set)
            continue;
        entries[n++] = (VkDescriptorSetLayoutBinding){
            .binding = b->binding,
            .descriptorType = (VkDescriptorType)b->descriptor_type,
            .descriptorCount = run->binding_counts[i],
            .stageFlags = stages,
        };
        if (b->has_counter)
            entries[n++] = (VkDescriptorSetLayoutBinding){
                .binding = b->counter_binding,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .descriptorCount = run->binding_counts[i],
                .stageFlags = stages,
            };
    }
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = entries,
    };
    VkResult vr = run->c->vk.vkCreateDescriptorSetLayout(run->c->device, &info, NULL, &run->set_layouts[set]);
    free(entries);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateDescriptorSetLayout", vr);
}

/*
 * The per-stage descriptor limits: every binding is visible to every stage of the run, so
 * each stage counts them all. A layout past a limit is invalid usage, and lavapipe 22.3
 * crashes running such a pipeline rather than failing, so it is refused here by name.
 */
static enum sb_result check_stage_limits(const struct sb_vk_run *run, struct sb_error *error)
{
    const VkPhysicalDeviceLimits *l = &run->c->properties.limits;
    const struct sb_translation *t = run->t;
    uint64_t used[8] = { 0 }; /* by VkDescriptorType 0..7 */
    for (uint32_t i = 0; i < t->binding_count; i++) {
        used[t->bindings[i].descriptor_type & 7u] += run->binding_counts[i];
        if (t->bindings[i].has_counter)
            used[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER] += run->binding_counts[i];
    }
    const struct { const char *what, *limit_name; uint64_t count; uint32_t limit; } rows[] = {
        { "samplers", "maxPerStageDescriptorSamplers", used[VK_DESCRIPTOR_TYPE_SAMPLER],
          l->maxPerStageDescriptorSamplers },
        { "sampled images and uniform texel buffers", "maxPerStageDescriptorSampledImages",
          used[VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE] + used[VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER],
          l->maxPerStageDescriptorSampledImages },
        { "storage images and storage texel buffers", "maxPerStageDescriptorStorageImages",
          used[VK_DESCRIPTOR_TYPE_STORAGE_IMAGE] + used[VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER],
          l->maxPerStageDescriptorStorageImages },
        { "uniform buffers", "maxPerStageDescriptorUniformBuffers", used[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER],
          l->maxPerStageDescriptorUniformBuffers },
        { "storage buffers", "maxPerStageDescriptorStorageBuffers", used[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER],
          l->maxPerStageDescriptorStorageBuffers },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].count > rows[i].limit)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the run binds %llu %s in one stage; the device's "
                              "%s is %u", (unsigned long long)rows[i].count, rows[i].what, rows[i].limit_name,
                              rows[i].limit);
    return SB_SUCCESS;
}

enum sb_result sb_vk_layouts_create(struct sb_vk_run *run, struct sb_error *error)
{
    struct sb_rt_context *c = run->c;
    const struct sb_translation *t = run->t;
    enum sb_result limits = check_stage_limits(run, error);
    if (limits != SB_SUCCESS)
        return limits;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        uint32_t set = t->bindings[i].set;
        if (set >= SB_VK_MAX_SETS || set >= c->properties.limits.maxBoundDescriptorSets)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "binding set %u (register space %u) is beyond "
                              "the %u descriptor sets the runtime binds", set, t->bindings[i].space,
                              c->properties.limits.maxBoundDescriptorSets < SB_VK_MAX_SETS
                                  ? c->properties.limits.maxBoundDescriptorSets : SB_VK_MAX_SETS);
        if (set + 1 > run->set_count)
            run->set_count = set + 1;
    }
    for (uint32_t set = 0; set < run->set_count; set++) {
        enum sb_result res = create_set_layout(run, set, error);
        if (res != SB_SUCCESS)
            return res;
    }
    VkPipelineLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = run->set_count,
        .pSetLayouts = run->set_layouts,
    };
    VkResult vr = c->vk.vkCreatePipelineLayout(c->device, &layout, NULL, &run->layout);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreatePipelineLayout", vr);
}

static enum sb_result create_pipeline(struct sb_vk_run *run, struct sb_error *error)
{
    struct sb_rt_context *c = run->c;
    const struct sb_translation *t = run->t;
    enum sb_result res = sb_vk_layouts_create(run, error);
    if (res != SB_SUCCESS)
        return res;
    res = sb_vk_shader_module(c, t->words, t->word_count, &run->module, error);
    return res == SB_SUCCESS ? sb_vk_compute_pipeline_waves(c, t, run->module, run->layout, &run->pipeline, error)
                             : res;
}

/* Staging -> image copies of every texture, in one submission. */
static enum sb_result upload_images(struct sb_vk_run *run, struct sb_error *error)
{
    if (!run->has_images)
        return SB_SUCCESS;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(run->c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    for (uint32_t i = 0; i < run->slot_count; i++)
        if (run->slots[i].image.image)
            sb_vk_image_record_upload(run->c, cmd, &run->slots[i].image, run->slots[i].resource);
    return sb_vk_command_submit(run->c, cmd, error);
}

static void memory_barrier(struct sb_rt_context *c, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                           VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst)
{
    VkMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst };
    c->vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, NULL, 0, NULL);
}

static enum sb_result run_dispatch(struct sb_vk_run *run, const uint32_t groups[3], struct sb_error *error)
{
    struct sb_rt_context *c = run->c;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, run->pipeline);
    if (run->set_count)
        c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, run->layout, 0, run->set_count,
                                      run->sets, 0, NULL);
    c->vk.vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
    for (uint32_t i = 0; i < run->slot_count; i++)
        if (run->slots[i].image.image && run->slots[i].resource->resource_class == SB_IR_RESOURCE_UAV)
            sb_vk_image_record_readback(c, cmd, &run->slots[i].image, run->slots[i].resource);
    memory_barrier(c, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_HOST_READ_BIT);
    return sb_vk_command_submit(c, cmd, error);
}

void sb_vk_run_release(struct sb_vk_run *run)
{
    struct sb_rt_context *c = run->c;
    if (c->lost)
        return; /* the device may still be using them: leaked on purpose (vk_submit.c) */
    sb_vk_bind_release(run);
    if (run->pool)
        c->vk.vkDestroyDescriptorPool(c->device, run->pool, NULL);
    if (run->pipeline)
        c->vk.vkDestroyPipeline(c->device, run->pipeline, NULL);
    if (run->module)
        c->vk.vkDestroyShaderModule(c->device, run->module, NULL);
    if (run->layout)
        c->vk.vkDestroyPipelineLayout(c->device, run->layout, NULL);
    for (uint32_t i = 0; i < SB_VK_MAX_SETS; i++)
        if (run->set_layouts[i])
            c->vk.vkDestroyDescriptorSetLayout(c->device, run->set_layouts[i], NULL);
}

static enum sb_result check_arguments(struct sb_rt_context *c, const struct sb_translation *t,
                                      const struct sb_rt_resource *resources, uint32_t resource_count,
                                      const uint32_t groups[3], struct sb_error *error)
{
    if (!c || !c->has_device || c->lost)
        return sb_vk_fail(error, SB_ERROR_NO_DEVICE, "sb_rt_dispatch: the context has no Vulkan device%s",
                          c && c->lost ? " left (an earlier dispatch did not finish)" : " (CPU-only mode)");
    if (!t || !groups || (resource_count && !resources))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_dispatch: translation, group_count or "
                          "resources is NULL");
    if (t->stage != SB_IR_STAGE_COMPUTE || !t->words || t->word_count < 5)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_dispatch: the translation is not a compute "
                          "shader (stage %u)", t->stage);
    const uint32_t *max = c->properties.limits.maxComputeWorkGroupCount;
    for (int i = 0; i < 3; i++)
        if (groups[i] > max[i])
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_dispatch: group_count[%d] = %u exceeds "
                              "the device's %u", i, groups[i], max[i]);
    enum sb_result r = sb_vk_check_module(c, t->words, t->word_count, t, error);
    return r == SB_SUCCESS ? sb_vk_check_subgroups(c, t->words, t->word_count, t, error) : r;
}

enum sb_result sb_rt_dispatch(struct sb_rt_context *context, const struct sb_translation *translation,
                              struct sb_rt_resource *resources, uint32_t resource_count,
                              const uint32_t group_count[3], struct sb_rt_timing *timing,
                              struct sb_error *error)
{
    struct sb_rt_timing local = { 0 };
    struct sb_rt_timing *tm = timing ? timing : &local;
    memset(tm, 0, sizeof(*tm));
    enum sb_result res = check_arguments(context, translation, resources, resource_count, group_count, error);
    if (res != SB_SUCCESS)
        return res;
    struct sb_vk_run run = { .c = context, .t = translation };
    uint64_t start = sb_vk_now_ns();
    res = sb_vk_bind_resolve(&run, resources, resource_count, error);
    if (res == SB_SUCCESS)
        res = create_pipeline(&run, error);
    uint64_t mark = sb_vk_now_ns();
    tm->pipeline_ns = mark - start;
    if (res == SB_SUCCESS)
        res = sb_vk_bind_create(&run, error);
    if (res == SB_SUCCESS)
        res = sb_vk_bind_write(&run, error);
    if (res == SB_SUCCESS)
        res = upload_images(&run, error);
    start = sb_vk_now_ns();
    tm->upload_ns = start - mark;
    if (res == SB_SUCCESS)
        res = run_dispatch(&run, group_count, error);
    mark = sb_vk_now_ns();
    tm->run_ns = mark - start;
    if (res == SB_SUCCESS)
        res = sb_vk_bind_readback(&run, error);
    tm->readback_ns = sb_vk_now_ns() - mark;
    sb_vk_run_release(&run);
    return res;
}
