/* SPDX-License-Identifier: MIT */
/*
 * The Vega engine's layout for a VBC (../shared/docs/vbc.md §6, §7), built from the
 * file's header and reflection: set 0 holds the five global binding tables
 * (arrays of the header's sizes, baked into the SPIR-V), set 1 the uniform
 * as a dynamic uniform buffer, and one push-constant range carries the
 * slots' u16 table indices.
 *
 * The engine relies on descriptor indexing: an UPDATE_AFTER_BIND pool and
 * layout, with PARTIALLY_BOUND | UPDATE_UNUSED_WHILE_PENDING bindings. The
 * pool / layout flag is what makes tables of 8192 samplers legal at all (they
 * are then counted against the much larger update-after-bind limits); it is
 * set where the device has the update-after-bind feature of all five
 * descriptor types (real descriptor indexing), and the tables are otherwise
 * held to the core per-stage limits. Lavapipe 22.3 has none of the features
 * but reports update-after-bind limits of 65536, and crashes when a pipeline
 * or a bound set goes past its core limits (32 samplers per stage), so there
 * the engine's default tables are SB_ERROR_RUN_UNSUPPORTED and only files
 * written with smaller tables (vslc -T) run. The per-binding flags each need
 * their own feature and are set only where the device has it. Without
 * PARTIALLY_BOUND every element of a statically used table must be valid,
 * which vk_vbc_resource.c guarantees by writing a default resource into every
 * element of every table.
 */
#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

static const VkDescriptorType table_types[SB_VBC_TABLE_COUNT] = {
    [SB_VBC_TABLE_SAMPLERS] = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    [SB_VBC_TABLE_IMAGES] = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    [SB_VBC_TABLE_BUFFERS] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    [SB_VBC_TABLE_ROTEXELS] = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    [SB_VBC_TABLE_RWTEXELS] = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
};

/* The per-stage descriptor limits that bound the tables, for one kind of layout. */
struct table_limits {
    uint32_t samplers, sampled_images, storage_images, storage_buffers, resources;
};

static void read_limits(const struct sb_vk_vbc *v, struct table_limits *out)
{
    const VkPhysicalDeviceLimits *l = &v->c->properties.limits;
    *out = (struct table_limits){ l->maxPerStageDescriptorSamplers, l->maxPerStageDescriptorSampledImages,
                                  l->maxPerStageDescriptorStorageImages, l->maxPerStageDescriptorStorageBuffers,
                                  l->maxPerStageResources };
    if (!v->update_after_bind)
        return;
    VkPhysicalDeviceVulkan12Properties p12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12 };
    vkGetPhysicalDeviceProperties2(v->c->physical, &p2);
    *out = (struct table_limits){ p12.maxPerStageDescriptorUpdateAfterBindSamplers,
                                  p12.maxPerStageDescriptorUpdateAfterBindSampledImages,
                                  p12.maxPerStageDescriptorUpdateAfterBindStorageImages,
                                  p12.maxPerStageDescriptorUpdateAfterBindStorageBuffers,
                                  p12.maxPerStageUpdateAfterBindResources };
}

/* The header's table sizes against the device (every table is visible to both stages). */
static enum sb_result check_limits(const struct sb_vk_vbc *v, struct sb_error *error)
{
    const uint16_t *t = v->vbc->header.table_sizes;
    struct table_limits l;
    read_limits(v, &l);
    const struct {
        const char *what;
        uint64_t need, limit;
    } rows[] = {
        { "samplers", t[SB_VBC_TABLE_SAMPLERS], l.samplers },
        { "sampled images", (uint64_t)t[SB_VBC_TABLE_SAMPLERS] + t[SB_VBC_TABLE_ROTEXELS], l.sampled_images },
        { "storage images", (uint64_t)t[SB_VBC_TABLE_IMAGES] + t[SB_VBC_TABLE_RWTEXELS], l.storage_images },
        { "storage buffers", t[SB_VBC_TABLE_BUFFERS], l.storage_buffers },
        { "resources", (uint64_t)t[0] + t[1] + t[2] + t[3] + t[4] + v->d->target_count + 1, l.resources },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].need > rows[i].limit)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the VBC's tables need %llu %s per stage; "
                              "%.60s allows %llu%s", (unsigned long long)rows[i].need, rows[i].what,
                              v->c->device_name, (unsigned long long)rows[i].limit,
                              v->update_after_bind ? " (update-after-bind limit)" : "");
    return SB_SUCCESS;
}

static enum sb_result create_set0(struct sb_vk_vbc *v, struct sb_error *error)
{
    VkDescriptorSetLayoutBinding bindings[SB_VBC_TABLE_COUNT];
    VkDescriptorBindingFlags flags[SB_VBC_TABLE_COUNT];
    for (uint32_t i = 0; i < SB_VBC_TABLE_COUNT; i++) {
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = table_types[i],
            .descriptorCount = v->vbc->header.table_sizes[i],
            .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
        };
        flags[i] = v->binding_flags;
    }
    VkDescriptorSetLayoutBindingFlagsCreateInfo flag_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
        .bindingCount = SB_VBC_TABLE_COUNT,
        .pBindingFlags = flags,
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .pNext = v->binding_flags ? &flag_info : NULL,
        .flags = v->update_after_bind ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0,
        .bindingCount = SB_VBC_TABLE_COUNT,
        .pBindings = bindings,
    };
    VkResult vr = v->c->vk.vkCreateDescriptorSetLayout(v->c->device, &info, NULL, &v->set_layouts[0]);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateDescriptorSetLayout", vr);
}

static enum sb_result create_set1(struct sb_vk_vbc *v, struct sb_error *error)
{
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_ALL_GRAPHICS,
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    VkResult vr = v->c->vk.vkCreateDescriptorSetLayout(v->c->device, &info, NULL, &v->set_layouts[1]);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateDescriptorSetLayout", vr);
}

enum sb_result sb_vk_vbc_layouts(struct sb_vk_vbc *v, struct sb_error *error)
{
    const VkPhysicalDeviceVulkan12Features *f = &v->c->features12;
    /* Lavapipe 22.3 reports update-after-bind limits without any of the features; binding or
     * compiling tables past its core limits crashes it, so the core limits hold there. */
    v->update_after_bind = v->c->api_version >= VK_API_VERSION_1_2 &&
                           f->descriptorBindingSampledImageUpdateAfterBind &&
                           f->descriptorBindingStorageImageUpdateAfterBind &&
                           f->descriptorBindingStorageBufferUpdateAfterBind &&
                           f->descriptorBindingUniformTexelBufferUpdateAfterBind &&
                           f->descriptorBindingStorageTexelBufferUpdateAfterBind;
    v->binding_flags = (f->descriptorBindingPartiallyBound ? VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT : 0) |
                       (f->descriptorBindingUpdateUnusedWhilePending
                            ? VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT : 0);
    if (!v->update_after_bind)
        v->binding_flags = 0; /* the flags struct is Vulkan 1.2's */
    enum sb_result res = check_limits(v, error);
    if (res == SB_SUCCESS)
        res = create_set0(v, error);
    v->set_count = 1;
    if (res == SB_SUCCESS && v->vbc->has_uniform) {
        res = create_set1(v, error);
        v->set_count = 2;
    }
    if (res != SB_SUCCESS)
        return res;
    VkPushConstantRange range = {
        .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
        .offset = 0,
        .size = v->vbc->push_constant_size,
    };
    if (range.size > v->c->properties.limits.maxPushConstantsSize)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": %u push-constant bytes exceed %.60s's %u",
                          range.size, v->c->device_name, v->c->properties.limits.maxPushConstantsSize);
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = v->set_count,
        .pSetLayouts = v->set_layouts,
        .pushConstantRangeCount = range.size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    VkResult vr = v->c->vk.vkCreatePipelineLayout(v->c->device, &info, NULL, &v->layout);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreatePipelineLayout", vr);
}

enum sb_result sb_vk_vbc_sets(struct sb_vk_vbc *v, struct sb_error *error)
{
    VkDescriptorPoolSize sizes[SB_VBC_TABLE_COUNT + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i < SB_VBC_TABLE_COUNT; i++)
        if (v->vbc->header.table_sizes[i])
            sizes[n++] = (VkDescriptorPoolSize){ table_types[i], v->vbc->header.table_sizes[i] };
    if (v->vbc->has_uniform || n == 0)
        sizes[n++] = (VkDescriptorPoolSize){ VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1 };
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = v->update_after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0,
        .maxSets = v->set_count,
        .poolSizeCount = n,
        .pPoolSizes = sizes,
    };
    VkResult vr = v->c->vk.vkCreateDescriptorPool(v->c->device, &pool, NULL, &v->pool);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateDescriptorPool", vr);
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = v->pool,
        .descriptorSetCount = v->set_count,
        .pSetLayouts = v->set_layouts,
    };
    vr = v->c->vk.vkAllocateDescriptorSets(v->c->device, &alloc, v->sets);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkAllocateDescriptorSets", vr);
}
