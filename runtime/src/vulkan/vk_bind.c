/* SPDX-License-Identifier: MIT */
/*
 * Resources of one dispatch: each binding the translation reports
 * (translate.h: set, binding, descriptor type, register range, counter) is
 * matched with the caller's sb_rt_resource by (class, space, lower_bound + i),
 * backed by the Vulkan object its descriptor type needs (uniform / storage
 * buffer, texel buffer with a view of the resource's format, sampled or
 * storage image, sampler, plus a one-uint storage buffer per UAV counter),
 * written into descriptor sets, and after the run copied back when it is a
 * UAV. The descriptor types are the translator's (sb_spv_descriptor_type),
 * so the layout matches the module's variables exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_private.h"

static const char *class_prefix(uint32_t resource_class)
{
    static const char *const prefixes[4] = { "cb", "t", "s", "u" };
    return resource_class < 4 ? prefixes[resource_class] : "?";
}

static struct sb_rt_resource *find(struct sb_rt_resource *resources, uint32_t count, uint32_t resource_class,
                                   uint32_t space, uint64_t reg)
{
    for (uint32_t i = 0; i < count; i++)
        if (resources[i].resource_class == resource_class && resources[i].space == space &&
            resources[i].register_index == reg)
            return &resources[i];
    return NULL;
}

static enum sb_result missing(const struct sb_translated_binding *b, uint64_t reg, struct sb_error *error)
{
    return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "the shader uses %s%llu (space %u) but no resource was "
                      "given for it", class_prefix(b->resource_class), (unsigned long long)reg, b->space);
}

/* Descriptors of one binding: its count, or for an unbounded range the registers given in a row. */
static enum sb_result binding_count(const struct sb_translated_binding *b, struct sb_rt_resource *resources,
                                    uint32_t count, uint32_t *out, struct sb_error *error)
{
    uint32_t n = b->count ? b->count : 1;
    if (n == UINT32_MAX) {
        n = 0;
        while (n < SB_VK_MAX_UNBOUNDED &&
               find(resources, count, b->resource_class, b->space, (uint64_t)b->lower_bound + n))
            n++;
        if (n == 0)
            return missing(b, b->lower_bound, error);
    }
    if (n > SB_VK_MAX_UNBOUNDED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s%u (space %u) is a range of %u descriptors; the "
                          "runtime binds at most %u", class_prefix(b->resource_class), b->lower_bound, b->space,
                          n, SB_VK_MAX_UNBOUNDED);
    *out = n;
    return SB_SUCCESS;
}

enum sb_result sb_vk_bind_resolve(struct sb_vk_run *run, struct sb_rt_resource *resources, uint32_t count,
                                  struct sb_error *error)
{
    const struct sb_translation *t = run->t;
    run->binding_counts = calloc(t->binding_count ? t->binding_count : 1, sizeof(uint32_t));
    if (!run->binding_counts)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_dispatch: out of memory");
    uint64_t total = 0;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        enum sb_result res = binding_count(&t->bindings[i], resources, count, &run->binding_counts[i], error);
        if (res != SB_SUCCESS)
            return res;
        total += run->binding_counts[i];
    }
    run->slots = calloc(total ? total : 1, sizeof(*run->slots));
    if (!run->slots)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_dispatch: out of memory");
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        for (uint32_t e = 0; e < run->binding_counts[i]; e++) {
            uint64_t reg = (uint64_t)b->lower_bound + e;
            struct sb_rt_resource *r = find(resources, count, b->resource_class, b->space, reg);
            if (!r)
                return missing(b, reg, error);
            run->slots[run->slot_count++] = (struct sb_vk_slot){ .binding = b, .element = e, .resource = r };
        }
    }
    return SB_SUCCESS;
}

/* A cbuffer, raw or structured buffer: its bytes, padded to what the descriptor type reads. */
static enum sb_result create_plain(struct sb_vk_run *run, struct sb_vk_slot *s, bool uniform,
                                   struct sb_error *error)
{
    const VkPhysicalDeviceLimits *limits = &run->c->properties.limits;
    const struct sb_rt_resource *r = s->resource;
    VkDeviceSize align = uniform ? 16 : 4, size = r->size > align ? r->size : align;
    size = (size + align - 1) & ~(align - 1);
    VkDeviceSize max = uniform ? limits->maxUniformBufferRange : limits->maxStorageBufferRange;
    /* A cbuffer past the device's range keeps its first bytes visible; D3D caps cbuffers at 64 KiB. */
    if (!uniform && size > max)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%s%u (space %u) has %zu bytes; %.60s binds at most "
                          "%llu", class_prefix(r->resource_class), r->register_index, r->space, r->size,
                          run->c->device_name, (unsigned long long)max);
    s->range = size < max ? size : max;
    return sb_vk_buffer_create(run->c, size,
                               uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               r->data, r->size, &s->buffer, error);
}

/*
 * A typed buffer: `width` elements of the resource's format behind a buffer view. A raw or
 * structured register the translator made a texel buffer (the binding's view_format, a
 * device with few storage buffers) views its bytes as R32_UINT DWORDs instead.
 */
static enum sb_result create_texel(struct sb_vk_run *run, struct sb_vk_slot *s, bool storage,
                                   struct sb_error *error)
{
    struct sb_rt_context *c = run->c;
    const struct sb_rt_resource *r = s->resource;
    bool dwords = s->binding->view_format != 0;
    VkFormat format = dwords ? (VkFormat)s->binding->view_format : sb_vk_format(r->format);
    uint32_t texel = dwords ? 4u : sb_rt_format_size((enum sb_rt_format)r->format);
    const char *prefix = class_prefix(r->resource_class);
    if (format == VK_FORMAT_UNDEFINED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "typed buffer %s%u (space %u) has format %u, which "
                          "the runtime does not know", prefix, r->register_index, r->space, r->format);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(c->physical, format, &props);
    VkFormatFeatureFlags need = storage ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                        : VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
    if ((props.bufferFeatures & need) != need)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s cannot be a %s texel buffer on %.60s",
                          dwords ? "R32_UINT" : sb_rt_format_name((enum sb_rt_format)r->format),
                          storage ? "storage" : "uniform", c->device_name);
    uint64_t elements = dwords ? (r->size + 3) / 4 : r->width ? r->width : r->size / texel;
    if (elements == 0)
        elements = 1;
    if (elements > c->properties.limits.maxTexelBufferElements)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "typed buffer %s%u has %llu elements; %.60s allows "
                          "%u", prefix, r->register_index, (unsigned long long)elements, c->device_name,
                          c->properties.limits.maxTexelBufferElements);
    s->range = elements * texel;
    enum sb_result res = sb_vk_buffer_create(c, s->range, storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                                                  : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                                             r->data, r->size, &s->buffer, error);
    if (res != SB_SUCCESS)
        return res;
    VkBufferViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
        .buffer = s->buffer.buffer,
        .format = format,
        .offset = 0,
        .range = s->range,
    };
    VkResult vr = c->vk.vkCreateBufferView(c->device, &view, NULL, &s->buffer.view);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateBufferView", vr);
}

static enum sb_result create_slot(struct sb_vk_run *run, struct sb_vk_slot *s, struct sb_error *error)
{
    enum sb_result res;
    switch ((VkDescriptorType)s->binding->descriptor_type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: res = create_plain(run, s, true, error); break;
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: res = create_plain(run, s, false, error); break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: res = create_texel(run, s, false, error); break;
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: res = create_texel(run, s, true, error); break;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        run->has_images = true;
        res = sb_vk_image_create(run->c, s->resource,
                                 s->binding->descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &s->image, error);
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLER: res = sb_vk_sampler_create(run->c, s->resource, &s->sampler, error); break;
    default:
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "descriptor type %u of %s%u is not supported",
                          s->binding->descriptor_type, class_prefix(s->binding->resource_class),
                          s->resource->register_index);
    }
    if (res == SB_SUCCESS && s->binding->has_counter)
        res = sb_vk_buffer_create(run->c, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &s->resource->counter,
                                  sizeof(s->resource->counter), &s->counter, error);
    return res;
}

enum sb_result sb_vk_bind_create(struct sb_vk_run *run, struct sb_error *error)
{
    for (uint32_t i = 0; i < run->slot_count; i++) {
        enum sb_result res = create_slot(run, &run->slots[i], error);
        if (res != SB_SUCCESS)
            return res;
    }
    return SB_SUCCESS;
}

/* The descriptor info of one slot, filled into the arrays the write points at. */
static void describe(const struct sb_vk_slot *s, VkWriteDescriptorSet *w, VkDescriptorBufferInfo *buffer,
                     VkDescriptorImageInfo *image)
{
    switch ((VkDescriptorType)w->descriptorType) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        *buffer = (VkDescriptorBufferInfo){ s->buffer.buffer, 0, s->range };
        w->pBufferInfo = buffer;
        break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        w->pTexelBufferView = &s->buffer.view;
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
        *image = (VkDescriptorImageInfo){ s->sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED };
        w->pImageInfo = image;
        break;
    default:
        *image = (VkDescriptorImageInfo){ VK_NULL_HANDLE, s->image.view, s->image.layout };
        w->pImageInfo = image;
        break;
    }
}

static enum sb_result create_pool(struct sb_vk_run *run, struct sb_error *error)
{
    uint32_t per_type[VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT + 1] = { 0 };
    for (uint32_t i = 0; i < run->slot_count; i++) {
        const struct sb_translated_binding *b = run->slots[i].binding;
        if (b->descriptor_type <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
            per_type[b->descriptor_type]++;
        if (b->has_counter)
            per_type[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER]++;
    }
    VkDescriptorPoolSize sizes[VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT + 1];
    uint32_t n = 0;
    for (uint32_t type = 0; type <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT; type++)
        if (per_type[type])
            sizes[n++] = (VkDescriptorPoolSize){ (VkDescriptorType)type, per_type[type] };
    if (n == 0)
        sizes[n++] = (VkDescriptorPoolSize){ VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = run->set_count,
        .poolSizeCount = n,
        .pPoolSizes = sizes,
    };
    VkResult vr = run->c->vk.vkCreateDescriptorPool(run->c->device, &info, NULL, &run->pool);
    if (vr != VK_SUCCESS)
        return sb_vk_fail_call(error, "vkCreateDescriptorPool", vr);
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = run->pool,
        .descriptorSetCount = run->set_count,
        .pSetLayouts = run->set_layouts,
    };
    vr = run->c->vk.vkAllocateDescriptorSets(run->c->device, &alloc, run->sets);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkAllocateDescriptorSets", vr);
}

enum sb_result sb_vk_bind_write(struct sb_vk_run *run, struct sb_error *error)
{
    if (run->set_count == 0)
        return SB_SUCCESS;
    enum sb_result res = create_pool(run, error);
    if (res != SB_SUCCESS || run->slot_count == 0)
        return res;
    /* At most two writes a slot: the descriptor and its counter. */
    size_t n = (size_t)run->slot_count * 2;
    VkWriteDescriptorSet *writes = calloc(n, sizeof(*writes));
    VkDescriptorBufferInfo *buffers = calloc(n, sizeof(*buffers));
    VkDescriptorImageInfo *images = calloc(n, sizeof(*images));
    if (!writes || !buffers || !images) {
        free(writes);
        free(buffers);
        free(images);
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_dispatch: out of memory");
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < run->slot_count; i++) {
        const struct sb_vk_slot *s = &run->slots[i];
        VkWriteDescriptorSet *w = &writes[count];
        *w = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = run->sets[s->binding->set],
            .dstBinding = s->binding->binding,
            .dstArrayElement = s->element,
            .descriptorCount = 1,
            .descriptorType = (VkDescriptorType)s->binding->descriptor_type,
        };
        describe(s, w, &buffers[count], &images[count]);
        count++;
        if (s->binding->has_counter) {
            buffers[count] = (VkDescriptorBufferInfo){ s->counter.buffer, 0, 4 };
            writes[count] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = run->sets[s->binding->set],
                .dstBinding = s->binding->counter_binding,
                .dstArrayElement = s->element,
                .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .pBufferInfo = &buffers[count],
            };
            count++;
        }
    }
    run->c->vk.vkUpdateDescriptorSets(run->c->device, count, writes, 0, NULL);
    free(writes);
    free(buffers);
    free(images);
    return SB_SUCCESS;
}

enum sb_result sb_vk_bind_readback(struct sb_vk_run *run, struct sb_error *error)
{
    for (uint32_t i = 0; i < run->slot_count; i++) {
        struct sb_vk_slot *s = &run->slots[i];
        struct sb_rt_resource *r = s->resource;
        if (r->resource_class != SB_IR_RESOURCE_UAV)
            continue;
        struct sb_vk_buffer *from = s->image.image ? &s->image.staging : &s->buffer;
        enum sb_result res = sb_vk_buffer_invalidate(run->c, from, error);
        if (res == SB_SUCCESS && s->counter.mapped)
            res = sb_vk_buffer_invalidate(run->c, &s->counter, error);
        if (res != SB_SUCCESS)
            return res;
        if (r->data && from->mapped)
            memcpy(r->data, from->mapped, r->size < from->size ? r->size : (size_t)from->size);
        if (s->counter.mapped)
            memcpy(&r->counter, s->counter.mapped, sizeof(r->counter));
    }
    return SB_SUCCESS;
}

void sb_vk_bind_release(struct sb_vk_run *run)
{
    for (uint32_t i = 0; i < run->slot_count; i++) {
        struct sb_vk_slot *s = &run->slots[i];
        sb_vk_buffer_destroy(run->c, &s->buffer);
        sb_vk_buffer_destroy(run->c, &s->counter);
        sb_vk_image_destroy(run->c, &s->image);
        if (s->sampler)
            run->c->vk.vkDestroySampler(run->c->device, s->sampler, NULL);
        s->sampler = VK_NULL_HANDLE;
    }
    free(run->slots);
    free(run->binding_counts);
    run->slots = NULL;
    run->binding_counts = NULL;
    run->slot_count = 0;
}
