/* SPDX-License-Identifier: MIT */
/*
 * Pipeline for one translated shader (vk_pipeline_build.h). The partner
 * stages are derived from the translation's own interface report, so a
 * report that disagrees with the SPIR-V shows up as a validation-layer
 * interface error, which is what the corpus test is meant to catch.
 *
 * Facts the report does not carry (the GS input primitive, the tessellation
 * modes the translated stage already declares) are read from the module's
 * OpExecutionMode instructions; a partner then declares only the modes its
 * neighbour left out, since Vulkan wants them in at least one of the two
 * tessellation stages and identical where both give them.
 */
#include "vk_pipeline_build.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <string.h>

#include "vk_partner.h"

#define MAX_VARS 64
#define MAX_LAYOUT_BINDINGS 512

/* Operand-less execution modes of the translated module, as a bit set. */
static uint64_t execution_modes(const struct sb_translation *t)
{
    uint64_t modes = 0;
    for (size_t i = 5; i < t->word_count;) {
        uint32_t count = t->words[i] >> 16, op = t->words[i] & 0xffff;
        if (count == 0 || i + count > t->word_count)
            break;
        if (op == SpvOpExecutionMode && count >= 3 && t->words[i + 2] < 64)
            modes |= 1ull << t->words[i + 2];
        if (op == SpvOpFunction)
            break;
        i += count;
    }
    return modes;
}

static bool has(uint64_t modes, SpvExecutionMode m) { return (modes >> m) & 1; }

static bool has_builtin(const uint32_t *list, uint32_t count, SpvBuiltIn b)
{
    for (uint32_t i = 0; i < count; i++)
        if (list[i] == (uint32_t)b)
            return true;
    return false;
}

/* The translation's interface as partner variables; per-vertex arrays kept or dropped. */
static uint32_t to_vars(const struct sb_translated_interface *in, uint32_t count, bool keep_arrays,
                        struct vkp_var *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < count && n < MAX_VARS; i++) {
        out[n++] = (struct vkp_var){
            .location = in[i].location,
            .component = in[i].component,
            .count = in[i].component_count ? in[i].component_count : 4,
            .type = in[i].component_type == SB_IR_TYPE_FLOAT || in[i].component_type == SB_IR_TYPE_INT
                        ? in[i].component_type
                        : VKP_UINT,
            .array_size = keep_arrays ? in[i].array_size : 0,
            .patch = in[i].patch,
        };
    }
    return n;
}

/* Vertex formats by [type - 1][count - 1]. */
static const VkFormat vertex_formats[3][4] = {
    { VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
      VK_FORMAT_R32G32B32A32_SFLOAT },
    { VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
      VK_FORMAT_R32G32B32A32_SINT },
    { VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT,
      VK_FORMAT_R32G32B32A32_UINT },
};

static uint32_t type_row(uint32_t ir_type)
{
    return ir_type == SB_IR_TYPE_FLOAT ? 0 : ir_type == SB_IR_TYPE_INT ? 1 : 2;
}

/* One attribute per location, wide enough for every variable there. */
static uint32_t vertex_attributes(const struct sb_translation *t, struct vkh_vertex_attribute *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->input_count; i++) {
        const struct sb_translated_interface *v = &t->inputs[i];
        uint32_t end = v->component + (v->component_count ? v->component_count : 4);
        if (end > 4)
            end = 4;
        uint32_t j = 0;
        while (j < n && out[j].location != v->location)
            j++;
        uint32_t have = 0;
        if (j == n) {
            if (n == 32)
                continue;
            n++;
        } else {
            for (uint32_t c = 0; c < 4; c++)
                if (out[j].format == vertex_formats[type_row(v->component_type)][c])
                    have = c + 1;
        }
        out[j].location = v->location;
        out[j].format = vertex_formats[type_row(v->component_type)][(end > have ? end : have) - 1];
    }
    return n;
}

/* One attachment per output location: the output's type, wide enough for every
 * component written there (3 becomes 4: RGB32 formats are rarely renderable). */
static void color_targets(const struct sb_translation *t, struct vkh_graphics_desc *d)
{
    static const VkFormat formats[3][4] = {
        { VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
          VK_FORMAT_R32G32B32A32_SFLOAT },
        { VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32A32_SINT,
          VK_FORMAT_R32G32B32A32_SINT },
        { VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32A32_UINT,
          VK_FORMAT_R32G32B32A32_UINT },
    };
    uint32_t width[8] = { 0 };
    for (uint32_t i = 0; i < t->output_count; i++) {
        const struct sb_translated_interface *o = &t->outputs[i];
        if (o->location >= 8)
            continue;
        uint32_t end = o->component + (o->component_count ? o->component_count : 4);
        if (end > width[o->location])
            width[o->location] = end > 4 ? 4 : end;
        d->color_formats[o->location] = formats[type_row(o->component_type)][width[o->location] - 1];
        if (o->location + 1 > d->color_count)
            d->color_count = o->location + 1;
    }
    d->depth = has_builtin(t->builtin_outputs, t->builtin_output_count, SpvBuiltInFragDepth);
    d->stencil = has_builtin(t->builtin_outputs, t->builtin_output_count,
                             SpvBuiltInFragStencilRefEXT);
}

/* Tessellation modes the partner must add for its translated neighbour. */
static void tess_modes(const struct sb_translation *t, uint64_t modes, struct vkp_stage_desc *p)
{
    if (!has(modes, SpvExecutionModeTriangles) && !has(modes, SpvExecutionModeQuads) &&
        !has(modes, SpvExecutionModeIsolines)) {
        static const SpvExecutionMode by_domain[4] = { SpvExecutionModeTriangles,
                                                       SpvExecutionModeIsolines,
                                                       SpvExecutionModeTriangles,
                                                       SpvExecutionModeQuads };
        p->modes[p->mode_count++] = by_domain[t->tess_domain < 4 ? t->tess_domain : 0];
    }
    if (!has(modes, SpvExecutionModeSpacingEqual) &&
        !has(modes, SpvExecutionModeSpacingFractionalEven) &&
        !has(modes, SpvExecutionModeSpacingFractionalOdd))
        p->modes[p->mode_count++] = SpvExecutionModeSpacingEqual;
    if (!has(modes, SpvExecutionModeVertexOrderCw) && !has(modes, SpvExecutionModeVertexOrderCcw))
        p->modes[p->mode_count++] = SpvExecutionModeVertexOrderCw;
}

struct build {
    struct vkh *h;
    struct vkpb_outcome *out;
    VkShaderModule modules[5]; /* vs tcs tes gs fs */
};

static bool fail(struct build *b, VkResult r, const char *what)
{
    b->out->result = r;
    snprintf(b->out->failure, sizeof(b->out->failure), "%s: %s", what, vkh_result_name(r));
    return false;
}

static bool partner(struct build *b, int slot, const struct vkp_stage_desc *desc)
{
    struct vkp_module m;
    if (!vkp_build(desc, &m)) {
        snprintf(b->out->failure, sizeof(b->out->failure), "partner stage: %s", m.error);
        return false;
    }
    VkResult r = vkh_shader_module(b->h, m.words, m.word_count, &b->modules[slot]);
    vkp_free(&m);
    return r == VK_SUCCESS || fail(b, r, "vkCreateShaderModule (partner)");
}

/* A fragment partner reading what the last pre-rasterisation stage writes. */
static bool fragment_partner(struct build *b, const struct sb_translation *t)
{
    struct vkp_var vars[MAX_VARS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->output_count && n < MAX_VARS; i++)
        if (!t->outputs[i].patch && t->outputs[i].array_size == 0)
            n += to_vars(&t->outputs[i], 1, false, &vars[n]);
    struct vkp_stage_desc d = { .stage = VKP_FRAGMENT, .input_count = n, .inputs = vars };
    return partner(b, 4, &d);
}

static bool vertex_partner(struct build *b, const struct sb_translated_interface *next_inputs,
                           uint32_t count)
{
    struct vkp_var vars[MAX_VARS];
    uint32_t n = to_vars(next_inputs, count, false, vars);
    struct vkp_stage_desc d = { .stage = VKP_VERTEX, .output_count = n, .outputs = vars };
    return partner(b, 0, &d);
}

static VkPrimitiveTopology gs_topology(uint64_t modes)
{
    if (has(modes, SpvExecutionModeInputPoints))
        return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    if (has(modes, SpvExecutionModeInputLines))
        return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    if (has(modes, SpvExecutionModeInputLinesAdjacency))
        return VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
    if (has(modes, SpvExecutionModeInputTrianglesAdjacency))
        return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
    return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
}

/* Fills the graphics description's stages around the translated module. */
static bool stages(struct build *b, const struct sb_translation *t, VkShaderModule module,
                   struct vkh_graphics_desc *d, struct vkh_vertex_attribute *attrs)
{
    uint64_t modes = execution_modes(t);
    struct vkp_var vars[MAX_VARS];
    d->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    switch (t->stage) {
    case SB_IR_STAGE_VERTEX:
        b->modules[0] = module;
        d->attribute_count = vertex_attributes(t, attrs);
        d->attributes = attrs;
        return fragment_partner(b, t);
    case SB_IR_STAGE_PIXEL:
        b->modules[4] = module;
        color_targets(t, d);
        return vertex_partner(b, t->inputs, t->input_count);
    case SB_IR_STAGE_GEOMETRY:
        b->modules[3] = module;
        d->topology = gs_topology(modes);
        return vertex_partner(b, t->inputs, t->input_count) && fragment_partner(b, t);
    case SB_IR_STAGE_HULL: {
        b->modules[1] = module;
        d->topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
        d->patch_control_points = t->patch_control_points ? t->patch_control_points : 1;
        struct vkp_stage_desc tes = { .stage = VKP_TESS_EVAL, .inputs = vars };
        tes.input_count = to_vars(t->outputs, t->output_count, true, vars);
        tess_modes(t, modes, &tes);
        /* the generated TES writes only Position: an empty PS completes the pipeline */
        struct vkp_stage_desc fs = { .stage = VKP_FRAGMENT };
        return vertex_partner(b, t->inputs, t->input_count) && partner(b, 2, &tes) &&
               partner(b, 4, &fs);
    }
    case SB_IR_STAGE_DOMAIN: {
        b->modules[2] = module;
        d->topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
        d->patch_control_points = 1;
        struct vkp_stage_desc tcs = { .stage = VKP_TESS_CONTROL, .outputs = vars };
        tcs.output_count = to_vars(t->inputs, t->input_count, true, vars);
        tcs.output_vertices = t->patch_control_points ? t->patch_control_points : 1;
        tess_modes(t, modes, &tcs);
        return vertex_partner(b, NULL, 0) && partner(b, 1, &tcs) && fragment_partner(b, t);
    }
    default:
        snprintf(b->out->failure, sizeof(b->out->failure), "unknown stage %u", t->stage);
        return false;
    }
}

static VkShaderStageFlags stage_bit(uint32_t stage)
{
    static const VkShaderStageFlags bits[6] = {
        VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT, VK_SHADER_STAGE_GEOMETRY_BIT,
        VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
        VK_SHADER_STAGE_COMPUTE_BIT,
    };
    return stage < 6 ? bits[stage] : VK_SHADER_STAGE_ALL;
}

uint32_t vkpb_layout_bindings(const struct sb_translation *t, struct vkh_binding *out,
                              uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->binding_count && n + 2 <= max; i++) {
        const struct sb_translated_binding *tb = &t->bindings[i];
        out[n++] = (struct vkh_binding){ tb->set, tb->binding, (VkDescriptorType)tb->descriptor_type,
                                         tb->count };
        /* Append/consume counters: storage buffers, as many as the UAV range has. */
        if (tb->has_counter)
            out[n++] = (struct vkh_binding){ tb->set, tb->counter_binding,
                                             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, tb->count };
    }
    return n;
}

bool vkpb_build(struct vkh *h, const struct sb_translation *t, struct vkpb_outcome *out)
{
    memset(out, 0, sizeof(*out));
    struct build b = { .h = h, .out = out };
    static struct vkh_binding bindings[MAX_LAYOUT_BINDINGS];
    uint32_t binding_count = vkpb_layout_bindings(t, bindings, MAX_LAYOUT_BINDINGS);
    for (uint32_t i = 0; i < binding_count; i++)
        if (bindings[i].set >= h->properties.limits.maxBoundDescriptorSets ||
            bindings[i].set >= 8) {
            snprintf(out->failure, sizeof(out->failure),
                     "descriptor set %u (register space) is beyond the device's "
                     "maxBoundDescriptorSets %u", bindings[i].set,
                     h->properties.limits.maxBoundDescriptorSets);
            out->result = VK_ERROR_FEATURE_NOT_PRESENT;
            return false;
        }
    struct vkh_layout layout;
    VkResult r = vkh_layout_create(h, bindings, binding_count, stage_bit(t->stage), &layout);
    if (r != VK_SUCCESS)
        return fail(&b, r, "descriptor set / pipeline layout");
    VkShaderModule module = VK_NULL_HANDLE;
    bool ok = true;
    r = vkh_shader_module(h, t->words, t->word_count, &module);
    if (r != VK_SUCCESS)
        ok = fail(&b, r, "vkCreateShaderModule");
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkRenderPass pass = VK_NULL_HANDLE;
    const char *entry = t->entry_point ? t->entry_point : "main";
    if (ok && t->stage == SB_IR_STAGE_COMPUTE) {
        r = vkh_compute_pipeline(h, module, entry, layout.pipeline, &pipeline);
        if (r != VK_SUCCESS)
            ok = fail(&b, r, "vkCreateComputePipelines");
    } else if (ok) {
        struct vkh_graphics_desc d = { .layout = layout.pipeline };
        struct vkh_vertex_attribute attrs[32];
        ok = stages(&b, t, module, &d, attrs);
        if (ok) {
            d.vs = b.modules[0];
            d.tcs = b.modules[1];
            d.tes = b.modules[2];
            d.gs = b.modules[3];
            d.fs = b.modules[4];
            for (int i = 0; i < 5; i++)
                d.entry[i] = b.modules[i] == module ? entry : "main";
            r = vkh_graphics_pipeline(h, &d, &pipeline, &pass);
            if (r != VK_SUCCESS)
                ok = fail(&b, r, "vkCreateGraphicsPipelines");
        }
    }
    if (pipeline)
        vkDestroyPipeline(h->device, pipeline, NULL);
    if (pass)
        vkDestroyRenderPass(h->device, pass, NULL);
    for (int i = 0; i < 5; i++)
        if (b.modules[i] && b.modules[i] != module)
            vkDestroyShaderModule(h->device, b.modules[i], NULL);
    if (module)
        vkDestroyShaderModule(h->device, module, NULL);
    vkh_layout_destroy(h, &layout);
    return ok;
}
