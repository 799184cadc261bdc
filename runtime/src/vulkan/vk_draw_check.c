/* SPDX-License-Identifier: MIT */
/*
 * Argument checks of sb_rt_draw_points (runtime.h), done before any Vulkan
 * object exists so that a wrong description is a structured error and never
 * undefined behaviour on the device: the stages are translations of the
 * right kind that the device can run (hull and domain shaders together, with
 * tessellationShader); the framebuffer fits the device; a list topology has
 * whole primitives, a patch list the tessellation stages and whole patches of
 * the hull shader's size; each
 * vertex stream has a vertex format the runtime allows, feeds a distinct
 * location and matches the component type of the input it feeds (Vulkan
 * leaves a mismatch undefined), and every input the vertex shader reads has
 * a stream; colour targets have distinct locations and formats whose type
 * matches the pixel shader's output there (the write mask is left 0 for a
 * location the shader does not write, so its loaded texels stay as they
 * were instead of becoming undefined); UAVs outside compute need the
 * device's stores-and-atomics features.
 */
#include <stdlib.h>

#include "vk_draw_private.h"

static const uint32_t stage_kinds[SB_VK_DRAW_STAGES] = { SB_IR_STAGE_VERTEX, SB_IR_STAGE_HULL, SB_IR_STAGE_DOMAIN,
                                                         SB_IR_STAGE_GEOMETRY, SB_IR_STAGE_PIXEL };

/* The vertex formats streams may use: one row per format, with the IR type it feeds. */
static const struct {
    enum sb_rt_format format;
    uint32_t type;
} vertex_formats[] = {
    { SB_RT_FORMAT_R32_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R32_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R32_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R32G32_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R32G32_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R32G32_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R32G32B32A32_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R32G32B32A32_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R32G32B32A32_SINT, SB_IR_TYPE_INT },
};

/* The colour-target formats, with the IR type of the output that may write them. */
static const struct {
    enum sb_rt_format format;
    uint32_t type;
} target_formats[] = {
    { SB_RT_FORMAT_R32G32B32A32_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R32G32B32A32_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R32G32B32A32_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R8G8B8A8_UNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R16G16B16A16_FLOAT, SB_IR_TYPE_FLOAT },
    /* Packed and narrow formats: D3D's render-target formats (whether the device can render
     * to each is its format properties' answer, below). */
    { SB_RT_FORMAT_R32_FLOAT, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R32_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R32_SINT, SB_IR_TYPE_INT }, { SB_RT_FORMAT_R32G32_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R32G32_UINT, SB_IR_TYPE_UINT }, { SB_RT_FORMAT_R32G32_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_B8G8R8A8_UNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R10G10B10A2_UNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R10G10B10A2_UINT, SB_IR_TYPE_UINT }, { SB_RT_FORMAT_R11G11B10_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R8_UNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R8_SNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R8_UINT, SB_IR_TYPE_UINT }, { SB_RT_FORMAT_R8_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R8G8_UNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R8G8_SNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R8G8_UINT, SB_IR_TYPE_UINT }, { SB_RT_FORMAT_R8G8_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R8G8B8A8_SNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R8G8B8A8_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R8G8B8A8_SINT, SB_IR_TYPE_INT }, { SB_RT_FORMAT_R16_UNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R16_SNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R16_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R16_SINT, SB_IR_TYPE_INT }, { SB_RT_FORMAT_R16_FLOAT, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R16G16_UNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R16G16_SNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R16G16_UINT, SB_IR_TYPE_UINT }, { SB_RT_FORMAT_R16G16_SINT, SB_IR_TYPE_INT },
    { SB_RT_FORMAT_R16G16_FLOAT, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R16G16B16A16_UNORM, SB_IR_TYPE_FLOAT },
    { SB_RT_FORMAT_R16G16B16A16_SNORM, SB_IR_TYPE_FLOAT }, { SB_RT_FORMAT_R16G16B16A16_UINT, SB_IR_TYPE_UINT },
    { SB_RT_FORMAT_R16G16B16A16_SINT, SB_IR_TYPE_INT },
};

static const char *type_name(uint32_t type)
{
    return type == SB_IR_TYPE_FLOAT ? "float" : type == SB_IR_TYPE_UINT ? "uint" : type == SB_IR_TYPE_INT ? "int"
                                                                                                         : "other";
}

static enum sb_result check_stages(struct sb_vk_draw *dr, struct sb_error *error)
{
    for (int s = 0; s < SB_VK_DRAW_STAGES; s++) {
        const struct sb_translation *t = dr->stages[s];
        if (!t) {
            if (s == SB_VK_DRAW_VS)
                return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: draw->vertex is NULL");
            continue;
        }
        if (t->stage != stage_kinds[s] || !t->words || t->word_count < 5)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: the %s translation is not "
                              "a %s shader (stage %u)", sb_vk_draw_stage_name(s), sb_vk_draw_stage_name(s), t->stage);
        enum sb_result res = sb_vk_check_module(dr->c, t->words, t->word_count, t, error);
        if (res == SB_SUCCESS) /* wave ops: per stage (vk_subgroup.c) */
            res = sb_vk_check_subgroups(dr->c, t->words, t->word_count, t, error);
        if (res != SB_SUCCESS)
            return res;
    }
    if (!dr->stages[SB_VK_DRAW_HS] != !dr->stages[SB_VK_DRAW_DS])
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: a hull shader needs a domain shader "
                          "and a domain shader a hull shader");
    if (dr->stages[SB_VK_DRAW_HS] && !dr->c->features.tessellationShader)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no tessellationShader feature",
                          dr->c->device_name);
    const VkPhysicalDeviceLimits *l = &dr->c->properties.limits;
    const struct sb_rt_draw *d = dr->d;
    if (!d->width || !d->height || d->width > l->maxFramebufferWidth || d->height > l->maxFramebufferHeight ||
        d->width > l->maxViewportDimensions[0] || d->height > l->maxViewportDimensions[1])
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: framebuffer %ux%u is empty or "
                          "larger than %.60s allows", d->width, d->height, dr->c->device_name);
    return SB_SUCCESS;
}

/* The list topologies a draw may assemble, with their vertices per primitive. */
static const struct {
    uint32_t topology;
    uint32_t vertices;
} topologies[] = {
    { SB_RT_TOPOLOGY_POINT_LIST, 1 },
    { SB_RT_TOPOLOGY_LINE_LIST, 2 },
    { SB_RT_TOPOLOGY_TRIANGLE_LIST, 3 },
    { SB_RT_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 4 },
    { SB_RT_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 6 },
};

/* Primitives must be whole; a list of lines or triangles needs no geometry stage (the
 * PointSize the runtime adds to a lone vertex stage is ignored off point lists). */
static enum sb_result check_topology(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    const struct sb_translation *hs = dr->stages[SB_VK_DRAW_HS];
    if (hs || d->topology == SB_RT_TOPOLOGY_PATCH_LIST) {
        /* Patches go to the tessellation stages only, each whole. */
        uint32_t points = hs ? hs->patch_control_points : 0;
        if (!hs || d->topology != SB_RT_TOPOLOGY_PATCH_LIST)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: hull and domain shaders draw "
                              "patch lists (topology %u), and only they", SB_RT_TOPOLOGY_PATCH_LIST);
        if (!points || points > dr->c->properties.limits.maxTessellationPatchSize)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the hull shader takes %u control points; %.60s "
                              "takes 1 to %u", points, dr->c->device_name,
                              dr->c->properties.limits.maxTessellationPatchSize);
        if (d->vertex_count % points)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: %u vertices are no whole number "
                              "of patches of %u", d->vertex_count, points);
        return SB_SUCCESS;
    }
    if (d->topology == SB_RT_TOPOLOGY_POINT_LIST)
        return SB_SUCCESS;
    for (size_t i = 0; i < sizeof(topologies) / sizeof(topologies[0]); i++)
        if (topologies[i].topology == d->topology) {
            bool adjacency = d->topology == SB_RT_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
                             d->topology == SB_RT_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
            if (adjacency && !dr->stages[SB_VK_DRAW_GS])
                return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: topology %u (adjacency) "
                                  "needs a geometry shader", d->topology);
            if (d->vertex_count % topologies[i].vertices)
                return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: %u vertices are no "
                                  "whole number of primitives of %u", d->vertex_count, topologies[i].vertices);
            return SB_SUCCESS;
        }
    return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: topology %u is not a point, line or "
                      "triangle list (with or without adjacency)", d->topology);
}

static uint32_t vertex_format_type(uint32_t format)
{
    for (size_t i = 0; i < sizeof(vertex_formats) / sizeof(vertex_formats[0]); i++)
        if ((uint32_t)vertex_formats[i].format == format)
            return vertex_formats[i].type;
    return SB_IR_TYPE_NONE;
}

static enum sb_result check_stream(struct sb_vk_draw *dr, uint32_t i, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    const struct sb_rt_vertex_stream *s = &d->streams[i];
    const VkPhysicalDeviceLimits *l = &dr->c->properties.limits;
    if (vertex_format_type(s->format) == SB_IR_TYPE_NONE)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "vertex stream %u has format %s (%u); streams take "
                          "r32, r32g32 or r32g32b32a32 float / uint / sint", i,
                          sb_rt_format_name((enum sb_rt_format)s->format), s->format);
    if (s->location >= l->maxVertexInputAttributes)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "vertex stream %u has location %u; %.60s has %u",
                          i, s->location, dr->c->device_name, l->maxVertexInputAttributes);
    if (!s->data && d->vertex_count)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "vertex stream %u (location %u) has no data", i,
                          s->location);
    for (uint32_t j = 0; j < i; j++)
        if (d->streams[j].location == s->location)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "vertex streams %u and %u both feed location %u",
                              j, i, s->location);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(dr->c->physical, sb_vk_format(s->format), &props);
    if (!(props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s cannot be a vertex format on %.60s",
                          sb_rt_format_name((enum sb_rt_format)s->format), dr->c->device_name);
    return SB_SUCCESS;
}

static enum sb_result check_streams(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    if (d->stream_count && !d->streams)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: stream_count is %u but streams "
                          "is NULL", d->stream_count);
    if (d->stream_count > dr->c->properties.limits.maxVertexInputBindings)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%u vertex streams; %.60s binds at most %u",
                          d->stream_count, dr->c->device_name, dr->c->properties.limits.maxVertexInputBindings);
    for (uint32_t i = 0; i < d->stream_count; i++) {
        enum sb_result res = check_stream(dr, i, error);
        if (res != SB_SUCCESS)
            return res;
    }
    const struct sb_translation *vs = dr->stages[SB_VK_DRAW_VS];
    for (uint32_t i = 0; i < vs->input_count; i++) {
        const struct sb_translated_interface *in = &vs->inputs[i];
        const struct sb_rt_vertex_stream *s = NULL;
        for (uint32_t j = 0; j < d->stream_count && !s; j++)
            if (d->streams[j].location == in->location)
                s = &d->streams[j];
        if (!s)
            return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "the vertex shader reads location %u (%s%u) but no "
                              "vertex stream feeds it", in->location, in->semantic ? in->semantic : "v",
                              in->semantic ? in->semantic_index : in->location);
        if (vertex_format_type(s->format) != in->component_type)
            return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "vertex stream for location %u is %s but the vertex "
                              "shader reads %s there", in->location, type_name(vertex_format_type(s->format)),
                              type_name(in->component_type));
    }
    return SB_SUCCESS;
}

static enum sb_result check_target(struct sb_vk_draw *dr, uint32_t i, struct sb_error *error)
{
    const struct sb_rt_color_target *t = &dr->d->targets[i];
    uint32_t type = SB_IR_TYPE_NONE;
    for (size_t k = 0; k < sizeof(target_formats) / sizeof(target_formats[0]); k++)
        if ((uint32_t)target_formats[k].format == t->format)
            type = target_formats[k].type;
    if (type == SB_IR_TYPE_NONE)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "colour target %u has format %s (%u); targets take "
                          "the uncompressed colour formats of resources.h (no depth, no BC)", i,
                          sb_rt_format_name((enum sb_rt_format)t->format), t->format);
    uint32_t max = dr->c->properties.limits.maxColorAttachments;
    if (max > SB_VK_MAX_TARGETS)
        max = SB_VK_MAX_TARGETS;
    if (t->location >= max)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "colour target %u has location %u; at most %u "
                          "locations", i, t->location, max);
    for (uint32_t j = 0; j < i; j++)
        if (dr->d->targets[j].location == t->location)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "colour targets %u and %u both have location %u",
                              j, i, t->location);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(dr->c->physical, sb_vk_format(t->format), &props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "format %s cannot be a colour attachment on %.60s",
                          sb_rt_format_name((enum sb_rt_format)t->format), dr->c->device_name);
    const struct sb_translation *ps = dr->stages[SB_VK_DRAW_PS];
    dr->write_masks[i] = 0;
    for (uint32_t k = 0; ps && k < ps->output_count; k++) {
        if (ps->outputs[k].location != t->location)
            continue;
        if (ps->outputs[k].component_type != type)
            return sb_vk_fail(error, SB_ERROR_RUN_BINDING, "colour target %u (location %u) is %s but the pixel "
                              "shader writes %s there", i, t->location,
                              sb_rt_format_name((enum sb_rt_format)t->format),
                              type_name(ps->outputs[k].component_type));
        dr->write_masks[i] = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                             VK_COLOR_COMPONENT_A_BIT;
    }
    return SB_SUCCESS;
}

/* A target of a multisampled draw: an R32G32B32A32 format (its read-back words are its channels)
 * that the device has as a sampled colour attachment of that many samples. */
static enum sb_result check_multisampled_target(struct sb_vk_draw *dr, uint32_t i, struct sb_error *error)
{
    const struct sb_rt_color_target *t = &dr->d->targets[i];
    uint32_t samples = dr->d->samples;
    if (t->format != SB_RT_FORMAT_R32G32B32A32_FLOAT && t->format != SB_RT_FORMAT_R32G32B32A32_UINT &&
        t->format != SB_RT_FORMAT_R32G32B32A32_SINT)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "colour target %u of a %u-sample draw has format %s; "
                          "multisampled targets are r32g32b32a32 float / uint / sint", i, samples,
                          sb_rt_format_name((enum sb_rt_format)t->format));
    VkImageFormatProperties limits;
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(
        dr->c->physical, sb_vk_format(t->format), VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
            VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &limits);
    if (vr != VK_SUCCESS && vr != VK_ERROR_FORMAT_NOT_SUPPORTED)
        return sb_vk_fail_call(error, "vkGetPhysicalDeviceImageFormatProperties", vr);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED || !(limits.sampleCounts & samples))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no %u-sample colour attachments of format %s "
                          "(its sample counts 0x%x)", dr->c->device_name, samples,
                          sb_rt_format_name((enum sb_rt_format)t->format), vr == VK_SUCCESS ? limits.sampleCounts : 0);
    return SB_SUCCESS;
}

static enum sb_result check_targets(struct sb_vk_draw *dr, struct sb_error *error)
{
    const struct sb_rt_draw *d = dr->d;
    if (d->target_count && !d->targets)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: target_count is %u but targets "
                          "is NULL", d->target_count);
    dr->write_masks = calloc(d->target_count ? d->target_count : 1, sizeof(*dr->write_masks));
    if (!dr->write_masks)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
    for (uint32_t i = 0; i < d->target_count; i++) {
        enum sb_result res = check_target(dr, i, error);
        if (res == SB_SUCCESS && d->samples > 1)
            res = check_multisampled_target(dr, i, error);
        if (res != SB_SUCCESS)
            return res;
    }
    if (d->samples > 1 && (d->samples > 64 || (d->samples & (d->samples - 1))))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_draw_points: %u samples; Vulkan images have 1, "
                          "2, 4, 8, 16, 32 or 64", d->samples);
    if (d->samples > 1 && sb_vk_draw_has_ds(d))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "sb_rt_draw_points: %u samples with a depth or stencil "
                          "attachment (multisampled draws have colour targets only)", d->samples);
    if (d->stencil) {
        VkFormatProperties props;
        vkGetPhysicalDeviceFormatProperties(dr->c->physical, sb_vk_draw_ds_format(d), &props);
        if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no %s stencil attachments",
                              dr->c->device_name, d->depth ? "D32_SFLOAT_S8_UINT" : "S8_UINT");
    }
    if (d->depth) {
        /* D32_SFLOAT copies only define values in [0, 1] (without VK_EXT_depth_range_unrestricted). */
        for (size_t i = 0; i < (size_t)d->width * d->height; i++)
            if (!(d->depth[i] >= 0.0f && d->depth[i] <= 1.0f))
                return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "depth texel %zu (%u, %u) is %g, outside "
                                  "[0, 1]", i, (unsigned)(i % d->width), (unsigned)(i / d->width),
                                  (double)d->depth[i]);
        VkFormatProperties props;
        vkGetPhysicalDeviceFormatProperties(dr->c->physical, VK_FORMAT_D32_SFLOAT, &props);
        if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no D32_SFLOAT depth attachments",
                              dr->c->device_name);
    }
    return SB_SUCCESS;
}

static bool is_storage(uint32_t descriptor_type)
{
    return descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
           descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
           descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

/* UAVs outside compute: Vulkan makes stores and atomics there optional features. */
static enum sb_result check_storage_features(struct sb_vk_draw *dr, struct sb_error *error)
{
    for (int s = 0; s < SB_VK_DRAW_STAGES; s++) {
        const struct sb_translation *t = dr->stages[s];
        bool enabled = s == SB_VK_DRAW_PS ? dr->c->features.fragmentStoresAndAtomics
                                          : dr->c->features.vertexPipelineStoresAndAtomics;
        for (uint32_t i = 0; t && !enabled && i < t->binding_count; i++)
            if (t->bindings[i].resource_class == SB_IR_RESOURCE_UAV && is_storage(t->bindings[i].descriptor_type))
                return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the %s shader uses u%u but %.60s has no %s",
                                  sb_vk_draw_stage_name(s), t->bindings[i].lower_bound, dr->c->device_name,
                                  s == SB_VK_DRAW_PS ? "fragmentStoresAndAtomics"
                                                     : "vertexPipelineStoresAndAtomics");
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_draw_check(struct sb_vk_draw *dr, struct sb_error *error)
{
    if (!dr->c->graphics_queue)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, "%.60s has no queue that both computes and draws",
                          dr->c->device_name);
    enum sb_result res = check_stages(dr, error);
    if (res == SB_SUCCESS)
        res = check_topology(dr, error);
    if (res == SB_SUCCESS)
        res = check_streams(dr, error);
    if (res == SB_SUCCESS)
        res = check_targets(dr, error);
    if (res == SB_SUCCESS)
        res = check_storage_features(dr, error);
    return res;
}
