/* SPDX-License-Identifier: MIT */
/*
 * The argument checks of sb_rt_vbc_draw (runtime.h): everything that can be
 * decided before a Vulkan object exists. The VBC itself was validated by
 * sb_vbc_parse; here it is checked against what this runtime can build (the
 * engine's vertex + fragment pipelines, no subpass inputs) and the draw
 * against the file's reflection — streams against vertex inputs, targets
 * against fragment outputs, the uniform's size, and each bound resource
 * against its slot's binding record — so that a mismatch is a structured
 * error here rather than undefined behaviour or a validation-layer message
 * later. It also gives each bound slot its table element.
 */
#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

static enum sb_result check_shape(const struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_vbc *vbc = v->vbc;
    const uint32_t stages = SB_VBC_STAGE_VERTEX_BIT | SB_VBC_STAGE_FRAGMENT_BIT;
    if (vbc->stage_mask != stages)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the VBC has stage mask 0x%x; only vertex + "
                          "fragment pipelines are supported (the Vega engine's rule)", vbc->stage_mask);
    if (vbc->subpass_input_count)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the VBC reads %u subpass input(s); input "
                          "attachments (set 2) are not supported", vbc->subpass_input_count);
    for (uint32_t i = 0; i < vbc->binding_count; i++)
        if (vbc->bindings[i].binding_type == SB_VBC_BINDING_UNMAPPED)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": slot %u is an Image of rank cube, which "
                              "has no engine binding type", vbc->bindings[i].slot);
    return SB_SUCCESS;
}

static enum sb_result check_sizes(const struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_rt_vbc_draw *d = v->d;
    const VkPhysicalDeviceLimits *limits = &v->c->properties.limits;
    if (d->topology > VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": topology %u is not POINT_LIST .. TRIANGLE_FAN",
                          d->topology);
    if (!d->vertex_count || !d->width || !d->height)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": vertex_count, width and height must be "
                          "non-zero (%u, %u, %u)", d->vertex_count, d->width, d->height);
    if (d->width > limits->maxFramebufferWidth || d->height > limits->maxFramebufferHeight)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": a %ux%u framebuffer exceeds %.60s's limits",
                          d->width, d->height, v->c->device_name);
    if ((d->stream_count && !d->streams) || (d->target_count && !d->targets) ||
        (d->binding_count && !d->bindings))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": streams, targets or bindings is NULL");
    return SB_SUCCESS;
}

/* The vertex input whose location range holds `location`, or NULL. */
static const struct sb_vbc_interface_var *input_at(const struct sb_vbc *vbc, uint32_t location)
{
    for (uint32_t i = 0; i < vbc->vertex_input_count; i++) {
        const struct sb_vbc_interface_var *in = &vbc->vertex_inputs[i];
        if (location >= in->location && location < in->location + in->location_count)
            return in;
    }
    return NULL;
}

static enum sb_result check_stream(struct sb_vk_vbc *v, const struct sb_rt_vertex_stream *s, uint32_t *seen,
                                   struct sb_error *error)
{
    if (s->location >= 32 || (*seen >> s->location & 1u) || !s->data)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": stream at location %u: a location past 31, "
                          "used twice, or NULL data", s->location);
    *seen |= 1u << s->location;
    const struct sb_vbc_interface_var *in = input_at(v->vbc, s->location);
    if (!in)
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": a stream feeds location %u, which no vertex "
                          "input of the VBC consumes", s->location);
    VkFormat format = sb_vk_format(s->format);
    enum sb_vk_vbc_kind kind = sb_vk_vbc_format_kind(s->format);
    if (format == VK_FORMAT_UNDEFINED || kind != sb_vk_vbc_base_kind(in->base_type) ||
        sb_rt_format_channels((enum sb_rt_format)s->format) < in->dims[0])
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": the stream at location %u has format %s; the "
                          "input there is %s with %u components", s->location,
                          sb_rt_format_name((enum sb_rt_format)s->format),
                          sb_vk_vbc_kind_name(sb_vk_vbc_base_kind(in->base_type)), in->dims[0]);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(v->c->physical, format, &props);
    if (!(props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": format %s cannot be a vertex attribute on "
                          "%.60s", sb_rt_format_name((enum sb_rt_format)s->format), v->c->device_name);
    return SB_SUCCESS;
}

static enum sb_result check_streams(struct sb_vk_vbc *v, struct sb_error *error)
{
    uint32_t seen = 0;
    for (uint32_t i = 0; i < v->d->stream_count; i++) {
        enum sb_result res = check_stream(v, &v->d->streams[i], &seen, error);
        if (res != SB_SUCCESS)
            return res;
    }
    uint32_t missing = v->vbc->vertex_location_mask & ~seen;
    if (missing)
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": the VBC's vertex inputs consume locations 0x%x; "
                          "no stream feeds 0x%x", v->vbc->vertex_location_mask, missing);
    return SB_SUCCESS;
}

static enum sb_result check_targets(struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_rt_vbc_draw *d = v->d;
    const struct sb_vbc *vbc = v->vbc;
    if (d->target_count != vbc->fragment_output_count)
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": %u target(s) for the VBC's %u fragment output(s)",
                          d->target_count, vbc->fragment_output_count);
    for (uint32_t i = 0; i < d->target_count; i++) {
        const struct sb_rt_color_target *t = &d->targets[i];
        const struct sb_vbc_interface_var *out = &vbc->fragment_outputs[i];
        enum sb_vk_vbc_kind want = sb_vk_vbc_base_kind(out->base_type);
        if (t->location != out->location || sb_vk_vbc_format_kind(t->format) != want)
            return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": target %u is location %u, format %s; fragment "
                              "output %u is location %u of type %s", i, t->location,
                              sb_rt_format_name((enum sb_rt_format)t->format), i, out->location,
                              sb_vk_vbc_kind_name(want));
        VkFormatProperties props;
        vkGetPhysicalDeviceFormatProperties(v->c->physical, sb_vk_format(t->format), &props);
        if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) ||
            t->location >= v->c->properties.limits.maxColorAttachments || t->location >= SB_VK_MAX_TARGETS)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": %.60s cannot render format %s at location "
                              "%u", v->c->device_name, sb_rt_format_name((enum sb_rt_format)t->format),
                              t->location);
    }
    return SB_SUCCESS;
}

static enum sb_result check_uniform(const struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_rt_vbc_draw *d = v->d;
    size_t want = v->vbc->has_uniform ? v->vbc->uniform.size : 0;
    if (d->uniform_size != want || (want && !d->uniform))
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": %zu uniform byte(s)%s given; the VBC's uniform "
                          "struct has %zu", d->uniform_size, want && !d->uniform ? " (NULL)" : "", want);
    if (want && SB_VK_VBC_UNIFORM_RANGE > v->c->properties.limits.maxUniformBufferRange)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": %.60s cannot bind the engine's %u-byte "
                          "uniform range", v->c->device_name, SB_VK_VBC_UNIFORM_RANGE);
    return SB_SUCCESS;
}

/* A bound resource against its binding record (runtime.h, struct sb_rt_vbc_binding). */
static enum sb_result check_resource(const struct sb_vbc_binding *b, const struct sb_rt_resource *r,
                                     struct sb_error *error)
{
    const char *type = sb_vbc_binding_type_name(b->binding_type);
    uint32_t declared = b->is_buffer ? SB_RT_FORMAT_UNDEFINED : sb_vk_vbc_texel_format(&b->format);
    bool exact = b->base_type == SB_VBC_BASE_TYPE_IMAGE || b->base_type == SB_VBC_BASE_TYPE_RW_TEXELS;
    if (b->is_buffer)
        return SB_SUCCESS;
    if (b->rank != SB_VBC_TEXEL_RANK_BUFFER && r->dimension != sb_vk_vbc_rank_dimension(b->rank))
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": slot %u (%s) needs a resource of dimension %u; "
                          "the bound one has %u", b->slot, type, sb_vk_vbc_rank_dimension(b->rank), r->dimension);
    if (exact && declared == SB_RT_FORMAT_UNDEFINED)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": slot %u (%s) has texel format %s, which the "
                          "runtime's formats cannot hold", b->slot, type,
                          sb_vbc_texel_format_name(&b->format) ? sb_vbc_texel_format_name(&b->format) : "?");
    if (exact ? r->format != declared
              : sb_vk_vbc_format_kind(r->format) != sb_vk_vbc_texel_kind(b->format.type))
        return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": slot %u (%s, texel format %s) cannot take a "
                          "resource of format %s", b->slot, type,
                          sb_vbc_texel_format_name(&b->format) ? sb_vbc_texel_format_name(&b->format) : "?",
                          sb_rt_format_name((enum sb_rt_format)r->format));
    return SB_SUCCESS;
}

/* Matches the caller's bindings to the binding records. */
static enum sb_result match_bindings(struct sb_vk_vbc *v, struct sb_error *error)
{
    const struct sb_vbc *vbc = v->vbc;
    for (uint32_t i = 0; i < vbc->binding_count; i++)
        v->slots[i].record = &vbc->bindings[i];
    for (uint32_t j = 0; j < v->d->binding_count; j++) {
        const struct sb_rt_vbc_binding *bound = &v->d->bindings[j];
        if (!bound->resource)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": binding %u (slot %u) has no resource", j,
                              bound->slot);
        uint32_t i = 0;
        while (i < vbc->binding_count && vbc->bindings[i].slot != bound->slot)
            i++;
        if (i == vbc->binding_count)
            return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": slot %u is bound but the VBC declares no "
                              "binding there", bound->slot);
        if (v->slots[i].bound)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, NAME ": slot %u is bound twice", bound->slot);
        v->slots[i].bound = bound;
    }
    return SB_SUCCESS;
}

static enum sb_result check_bindings(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = match_bindings(v, error);
    uint32_t taken[SB_VBC_TABLE_COUNT] = { 0 };
    for (uint32_t i = 0; i < v->vbc->binding_count && res == SB_SUCCESS; i++) {
        struct sb_vk_vbc_slot *s = &v->slots[i];
        const struct sb_vbc_binding *b = s->record;
        if (!s->bound) {
            if (b->stage_mask)
                return sb_vk_fail(error, SB_ERROR_RUN_BINDING, NAME ": the VBC's %s uses slot %u (%s) but the "
                                  "draw binds nothing there", b->stage_mask & SB_VBC_STAGE_VERTEX_BIT ? "vertex "
                                  "stage" : "fragment stage", b->slot, sb_vbc_binding_type_name(b->binding_type));
            continue;
        }
        res = check_resource(b, s->bound->resource, error);
        uint32_t size = v->vbc->header.table_sizes[b->table];
        if (res == SB_SUCCESS && taken[b->table] >= size)
            return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the %s table has %u element(s), fewer "
                              "than the draw binds", sb_vbc_binding_table_name(b->table), size);
        s->element = size - 1 - taken[b->table]++;
    }
    return res;
}

enum sb_result sb_vk_vbc_check(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = check_shape(v, error);
    if (res == SB_SUCCESS)
        res = check_sizes(v, error);
    if (res == SB_SUCCESS)
        res = check_streams(v, error);
    if (res == SB_SUCCESS)
        res = check_targets(v, error);
    if (res == SB_SUCCESS)
        res = check_uniform(v, error);
    if (res == SB_SUCCESS)
        res = check_bindings(v, error);
    return res;
}
