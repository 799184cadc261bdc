/* SPDX-License-Identifier: MIT */
/*
 * The memory behind a VBC draw's descriptors (../shared/docs/vbc.md §6, §7): one
 * object per bound slot (image + sampler, storage image, storage buffer or
 * texel buffer, built with the compute path's helpers in vk_image.c and
 * vk_buffer.c), one default object per declared table, the uniform buffer
 * and the push-constant words.
 *
 * Every element of every table is written: the bound slots' elements with
 * their objects, all the others with the table's default (zeros, shaped like
 * the table's first binding record, or a 2D / float4 / 16-byte resource when
 * the VBC declares none), so the set is valid on devices without
 * PARTIALLY_BOUND, lavapipe (which reads every descriptor of a bound set, used
 * or not) never meets an empty one, and a shader that reads an element nobody
 * bound reads zeros on every device. Writable objects (Image, RWBuffer, RWTexels)
 * are copied back into the caller's resources after the draw.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

static enum sb_result create_texel_buffer(struct sb_rt_context *c, const struct sb_rt_resource *r, bool storage,
                                          struct sb_vk_buffer *out, struct sb_error *error)
{
    VkFormat format = sb_vk_format(r->format);
    uint32_t texel = sb_rt_format_size((enum sb_rt_format)r->format);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(c->physical, format, &props);
    VkFormatFeatureFlags need = storage ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                        : VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
    if (format == VK_FORMAT_UNDEFINED || (props.bufferFeatures & need) != need)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": format %s cannot be a %s texel buffer on %.60s",
                          sb_rt_format_name((enum sb_rt_format)r->format), storage ? "storage" : "uniform",
                          c->device_name);
    uint64_t elements = r->width ? r->width : 1;
    if (elements > c->properties.limits.maxTexelBufferElements)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": a texel buffer of %llu elements exceeds "
                          "%.60s's %u", (unsigned long long)elements, c->device_name,
                          c->properties.limits.maxTexelBufferElements);
    enum sb_result res = sb_vk_buffer_create(c, elements * texel, storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                                                          : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                                             r->data, r->data ? r->size : 0, out, error);
    if (res != SB_SUCCESS)
        return res;
    VkBufferViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
        .buffer = out->buffer,
        .format = format,
        .range = elements * texel,
    };
    VkResult vr = c->vk.vkCreateBufferView(c->device, &view, NULL, &out->view);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateBufferView", vr);
}

static enum sb_result create_storage_buffer(struct sb_rt_context *c, const struct sb_rt_resource *r,
                                            struct sb_vk_buffer *out, struct sb_error *error)
{
    VkDeviceSize size = r->size > 4 ? (r->size + 3) & ~(VkDeviceSize)3 : 4;
    if (size > c->properties.limits.maxStorageBufferRange)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": a buffer of %zu bytes exceeds %.60s's storage "
                          "buffer range", r->size, c->device_name);
    return sb_vk_buffer_create(c, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, r->data, r->data ? r->size : 0, out,
                               error);
}

/* The object of one table element: the resource `r` made into the table's descriptor kind. */
static enum sb_result create_object(struct sb_rt_context *c, enum sb_vbc_binding_table table,
                                    enum sb_vbc_base_type base, struct sb_rt_resource *r,
                                    struct sb_vk_vbc_object *o, struct sb_error *error)
{
    o->resource = r;
    o->writable = base == SB_VBC_BASE_TYPE_IMAGE || base == SB_VBC_BASE_TYPE_RW_BUFFER ||
                  base == SB_VBC_BASE_TYPE_RW_TEXELS;
    switch (table) {
    case SB_VBC_TABLE_SAMPLERS: {
        enum sb_result res = sb_vk_image_create(c, r, false, &o->image, error);
        return res == SB_SUCCESS ? sb_vk_sampler_create(c, r, &o->sampler, error) : res;
    }
    case SB_VBC_TABLE_IMAGES: return sb_vk_image_create(c, r, true, &o->image, error);
    case SB_VBC_TABLE_BUFFERS: return create_storage_buffer(c, r, &o->buffer, error);
    case SB_VBC_TABLE_ROTEXELS: return create_texel_buffer(c, r, false, &o->buffer, error);
    case SB_VBC_TABLE_RWTEXELS: return create_texel_buffer(c, r, true, &o->buffer, error);
    default: return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": unknown table %u", table);
    }
}

/* A zero resource shaped like binding record `b` (one texel, or a 16-byte / one-element buffer). */
static enum sb_result default_resource(const struct sb_vbc_binding *b, struct sb_rt_resource *r,
                                       struct sb_error *error)
{
    memset(r, 0, sizeof(*r));
    r->width = r->height = r->depth = r->layers = r->mip_levels = r->sample_count = 1;
    r->sampler.address[0] = r->sampler.address[1] = r->sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    if (b->is_buffer) {
        r->size = b->buffer_stride > 16 ? b->buffer_stride : 16;
        return SB_SUCCESS;
    }
    r->dimension = sb_vk_vbc_rank_dimension(b->rank);
    if (b->rank == SB_VBC_TEXEL_RANK_CUBE)
        r->layers = 6;
    bool exact = b->base_type == SB_VBC_BASE_TYPE_IMAGE || b->base_type == SB_VBC_BASE_TYPE_RW_TEXELS;
    r->format = exact ? sb_vk_vbc_texel_format(&b->format) : sb_vk_vbc_kind_format(sb_vk_vbc_texel_kind(b->format.type));
    if (r->format == SB_RT_FORMAT_UNDEFINED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the %s table's texel format %s has no runtime "
                          "format", sb_vbc_binding_table_name(b->table),
                          sb_vbc_texel_format_name(&b->format) ? sb_vbc_texel_format_name(&b->format) : "?");
    return SB_SUCCESS;
}

/* A table nobody declares still needs valid elements: lavapipe reads every descriptor of a bound set. */
static const struct sb_vbc_binding generic_records[SB_VBC_TABLE_COUNT] = {
    [SB_VBC_TABLE_SAMPLERS] = { .base_type = SB_VBC_BASE_TYPE_SAMPLER, .rank = SB_VBC_TEXEL_RANK_2D,
                                .format = { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4 }, .table = SB_VBC_TABLE_SAMPLERS },
    [SB_VBC_TABLE_IMAGES] = { .base_type = SB_VBC_BASE_TYPE_IMAGE, .rank = SB_VBC_TEXEL_RANK_2D,
                              .format = { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4 }, .table = SB_VBC_TABLE_IMAGES },
    [SB_VBC_TABLE_BUFFERS] = { .base_type = SB_VBC_BASE_TYPE_RW_BUFFER, .is_buffer = true, .buffer_stride = 16,
                               .table = SB_VBC_TABLE_BUFFERS },
    [SB_VBC_TABLE_ROTEXELS] = { .base_type = SB_VBC_BASE_TYPE_RO_TEXELS, .rank = SB_VBC_TEXEL_RANK_BUFFER,
                                .format = { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4 }, .table = SB_VBC_TABLE_ROTEXELS },
    [SB_VBC_TABLE_RWTEXELS] = { .base_type = SB_VBC_BASE_TYPE_RW_TEXELS, .rank = SB_VBC_TEXEL_RANK_BUFFER,
                                .format = { SB_VBC_TEXEL_TYPE_FLOAT, 4, 4 }, .table = SB_VBC_TABLE_RWTEXELS },
};

static enum sb_result create_defaults(struct sb_vk_vbc *v, struct sb_error *error)
{
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++) {
        if (!v->vbc->header.table_sizes[t])
            continue;
        const struct sb_vbc_binding *first = &generic_records[t];
        for (uint32_t i = 0; i < v->vbc->binding_count; i++)
            if (v->vbc->bindings[i].table == t) {
                first = &v->vbc->bindings[i];
                break;
            }
        enum sb_result res = default_resource(first, &v->default_resource[t], error);
        if (res == SB_SUCCESS)
            res = create_object(v->c, (enum sb_vbc_binding_table)t, first->base_type, &v->default_resource[t],
                                &v->defaults[t], error);
        v->defaults[t].writable = false;
        if (res != SB_SUCCESS)
            return res;
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_vbc_resources_create(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = create_defaults(v, error);
    for (uint32_t i = 0; i < v->vbc->binding_count && res == SB_SUCCESS; i++) {
        struct sb_vk_vbc_slot *s = &v->slots[i];
        if (!s->bound)
            continue;
        res = create_object(v->c, s->record->table, s->record->base_type, s->bound->resource, &s->object, error);
        v->push[s->record->slot / 2] |= s->element << (16 * (s->record->slot % 2));
    }
    if (res == SB_SUCCESS && v->vbc->has_uniform)
        res = sb_vk_buffer_create(v->c, SB_VK_VBC_UNIFORM_RANGE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, v->d->uniform,
                                  v->d->uniform_size, &v->uniform, error);
    return res;
}

/* The descriptor of one object into slot `i` of the info arrays of its table's write. */
static void describe(enum sb_vbc_binding_table table, const struct sb_vk_vbc_object *o, uint32_t i,
                     VkDescriptorImageInfo *images, VkDescriptorBufferInfo *buffers, VkBufferView *views)
{
    switch (table) {
    case SB_VBC_TABLE_SAMPLERS: images[i] = (VkDescriptorImageInfo){ o->sampler, o->image.view, o->image.layout }; break;
    case SB_VBC_TABLE_IMAGES: images[i] = (VkDescriptorImageInfo){ VK_NULL_HANDLE, o->image.view, o->image.layout }; break;
    case SB_VBC_TABLE_BUFFERS: buffers[i] = (VkDescriptorBufferInfo){ o->buffer.buffer, 0, VK_WHOLE_SIZE }; break;
    default: views[i] = o->buffer.view; break;
    }
}

static enum sb_result write_table(struct sb_vk_vbc *v, uint32_t t, struct sb_error *error)
{
    static const VkDescriptorType types[SB_VBC_TABLE_COUNT] = {
        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
        VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    };
    uint32_t size = v->vbc->header.table_sizes[t];
    VkDescriptorImageInfo *images = calloc(size, sizeof(*images));
    VkDescriptorBufferInfo *buffers = calloc(size, sizeof(*buffers));
    VkBufferView *views = calloc(size, sizeof(*views));
    if (!images || !buffers || !views) {
        free(images);
        free(buffers);
        free(views);
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, NAME ": out of memory");
    }
    for (uint32_t e = 0; e < size; e++)
        describe((enum sb_vbc_binding_table)t, &v->defaults[t], e, images, buffers, views);
    for (uint32_t i = 0; i < v->vbc->binding_count; i++)
        if (v->slots[i].bound && v->slots[i].record->table == t)
            describe((enum sb_vbc_binding_table)t, &v->slots[i].object, v->slots[i].element, images, buffers,
                     views);
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = v->sets[0],
        .dstBinding = t,
        .descriptorCount = size,
        .descriptorType = types[t],
        .pImageInfo = images,
        .pBufferInfo = buffers,
        .pTexelBufferView = views,
    };
    v->c->vk.vkUpdateDescriptorSets(v->c->device, 1, &w, 0, NULL);
    free(images);
    free(buffers);
    free(views);
    return SB_SUCCESS;
}

enum sb_result sb_vk_vbc_resources_write(struct sb_vk_vbc *v, struct sb_error *error)
{
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++) {
        if (!v->vbc->header.table_sizes[t])
            continue;
        enum sb_result res = write_table(v, t, error);
        if (res != SB_SUCCESS)
            return res;
    }
    if (v->vbc->has_uniform) {
        VkDescriptorBufferInfo info = { v->uniform.buffer, 0, SB_VK_VBC_UNIFORM_RANGE };
        VkWriteDescriptorSet w = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = v->sets[1],
            .dstBinding = 0,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
            .pBufferInfo = &info,
        };
        v->c->vk.vkUpdateDescriptorSets(v->c->device, 1, &w, 0, NULL);
    }
    return SB_SUCCESS;
}

/* Calls `fn` on every object that exists: the tables' defaults, then the bound slots'. */
static void each_object(struct sb_vk_vbc *v, void (*fn)(struct sb_vk_vbc *, struct sb_vk_vbc_object *, void *),
                        void *arg)
{
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++)
        fn(v, &v->defaults[t], arg);
    for (uint32_t i = 0; i < SB_VBC_MAX_BINDINGS; i++)
        fn(v, &v->slots[i].object, arg);
}

static void record_upload(struct sb_vk_vbc *v, struct sb_vk_vbc_object *o, void *cmd)
{
    if (o->image.image)
        sb_vk_image_record_upload(v->c, *(VkCommandBuffer *)cmd, &o->image, o->resource);
}

static void record_readback(struct sb_vk_vbc *v, struct sb_vk_vbc_object *o, void *cmd)
{
    if (o->image.image && o->writable)
        sb_vk_image_record_readback(v->c, *(VkCommandBuffer *)cmd, &o->image, o->resource);
}

void sb_vk_vbc_resources_record_upload(struct sb_vk_vbc *v, VkCommandBuffer cmd)
{
    each_object(v, record_upload, &cmd);
}

void sb_vk_vbc_resources_record_readback(struct sb_vk_vbc *v, VkCommandBuffer cmd)
{
    each_object(v, record_readback, &cmd);
}

enum sb_result sb_vk_vbc_resources_readback(struct sb_vk_vbc *v, struct sb_error *error)
{
    for (uint32_t i = 0; i < v->vbc->binding_count; i++) {
        struct sb_vk_vbc_object *o = &v->slots[i].object;
        if (!v->slots[i].bound || !o->writable)
            continue;
        struct sb_vk_buffer *from = o->image.image ? &o->image.staging : &o->buffer;
        enum sb_result res = sb_vk_buffer_invalidate(v->c, from, error);
        if (res != SB_SUCCESS)
            return res;
        if (o->resource->data && from->mapped)
            memcpy(o->resource->data, from->mapped,
                   o->resource->size < from->size ? o->resource->size : (size_t)from->size);
    }
    return SB_SUCCESS;
}

static void release_object(struct sb_vk_vbc *v, struct sb_vk_vbc_object *o, void *unused)
{
    (void)unused;
    sb_vk_image_destroy(v->c, &o->image);
    sb_vk_buffer_destroy(v->c, &o->buffer);
    if (o->sampler)
        v->c->vk.vkDestroySampler(v->c->device, o->sampler, NULL);
    o->sampler = VK_NULL_HANDLE;
}

void sb_vk_vbc_resources_release(struct sb_vk_vbc *v)
{
    each_object(v, release_object, NULL);
    sb_vk_buffer_destroy(v->c, &v->uniform);
}
