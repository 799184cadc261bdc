/* SPDX-License-Identifier: MIT */
/*
 * The binding report of a text target (sb_translation::target_bindings): after
 * SPIRV-Cross wrote the text, its reflection says which variables it declared, under
 * which names, and (MSL) which argument indices it chose; the slot strings spell them
 * as the text does. Resources come first (uniform buffers, storage buffers, textures,
 * storage images, samplers, combined samplers), then stage inputs and outputs.
 */
#include "targets_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One entry while the report is gathered: `name` is borrowed from the compiler, or NULL
 * for an unnamed variable, whose name is then `fallback_name` (kept inside the entry, so
 * never pointed at: the array moves as it grows). */
struct entry {
    struct sb_target_binding out;
    const char *name;
    char fallback_name[24];
    char slot[64];
};

static const char *entry_name(const struct entry *e)
{
    return e->name ? e->name : e->fallback_name;
}

struct gather {
    spvc_compiler compiler;
    enum sb_translate_target target;
    SpvExecutionModel model;
    uint32_t hlsl_model; /* shader model x 10 */
    const struct sb_target_origin *origins;
    uint32_t origin_count;
    const struct sb_translation *pub;
    struct entry *entries;
    size_t count, capacity;
};

static const struct sb_target_origin *find_origin(const struct gather *g, spvc_variable_id id)
{
    for (uint32_t i = 0; i < g->origin_count; i++)
        if (g->origins[i].id == id)
            return &g->origins[i];
    return NULL;
}

static struct entry *add_entry(struct gather *g, const spvc_reflected_resource *r,
                               enum sb_target_binding_kind kind)
{
    if (g->count == g->capacity) {
        size_t grown = g->capacity ? g->capacity * 2 : 16;
        struct entry *bigger = realloc(g->entries, grown * sizeof(*bigger));
        if (!bigger)
            return NULL;
        g->entries = bigger;
        g->capacity = grown;
    }
    struct entry *e = &g->entries[g->count++];
    memset(e, 0, sizeof(*e));
    e->out.kind = kind;
    /* SPIRV-Cross writes an unnamed variable as _ID. */
    const char *name = spvc_compiler_get_name(g->compiler, r->id);
    if (name && name[0])
        e->name = name;
    else
        snprintf(e->fallback_name, sizeof(e->fallback_name), "_%u", (unsigned)r->id);
    return e;
}

/* HLSL's register class for a resource, by SPIRV-Cross's rule: read-only storage
 * buffers are SRVs, writable ones UAVs. */
static char hlsl_register_class(const struct gather *g, const spvc_reflected_resource *r,
                                enum sb_target_binding_kind kind)
{
    switch (kind) {
    case SB_TARGET_BINDING_UNIFORM_BUFFER: return 'b';
    case SB_TARGET_BINDING_STORAGE_IMAGE: return 'u';
    case SB_TARGET_BINDING_SAMPLER: return 's';
    case SB_TARGET_BINDING_STORAGE_BUFFER: {
        const SpvDecoration *decorations = NULL;
        size_t count = 0;
        if (spvc_compiler_get_buffer_block_decorations(g->compiler, r->id, &decorations, &count) ==
            SPVC_SUCCESS)
            for (size_t i = 0; i < count; i++)
                if (decorations[i] == SpvDecorationNonWritable)
                    return 't';
        return 'u';
    }
    default: return 't';
    }
}

static void resource_slot(const struct gather *g, const spvc_reflected_resource *r, struct entry *e)
{
    uint32_t binding = spvc_compiler_get_decoration(g->compiler, r->id, SpvDecorationBinding);
    uint32_t set = spvc_compiler_get_decoration(g->compiler, r->id, SpvDecorationDescriptorSet);
    switch (g->target) {
    case SB_TRANSLATE_TARGET_GLSL:
        snprintf(e->slot, sizeof(e->slot), "set = %u, binding = %u", set, binding);
        e->out.slot_index = binding;
        break;
    case SB_TRANSLATE_TARGET_ESSL:
        snprintf(e->slot, sizeof(e->slot), "binding = %u", binding);
        e->out.slot_index = binding;
        break;
    case SB_TRANSLATE_TARGET_MSL: {
        static const char *const kinds[] = {
            [SB_TARGET_BINDING_UNIFORM_BUFFER] = "buffer", [SB_TARGET_BINDING_STORAGE_BUFFER] = "buffer",
            [SB_TARGET_BINDING_SAMPLED_IMAGE] = "texture", [SB_TARGET_BINDING_STORAGE_IMAGE] = "texture",
            [SB_TARGET_BINDING_SAMPLER] = "sampler", [SB_TARGET_BINDING_COMBINED_IMAGE_SAMPLER] = "texture",
        };
        uint32_t index = spvc_compiler_msl_get_automatic_resource_binding(g->compiler, r->id);
        snprintf(e->slot, sizeof(e->slot), "[[%s(%u)]]", kinds[e->out.kind], index);
        e->out.slot_index = index;
        break;
    }
    case SB_TRANSLATE_TARGET_HLSL: {
        /* target_cross.c put each D3D register back; UAV counters keep their binding. */
        bool is_counter = false;
        const struct sb_translated_binding *b =
            sb_target_find_binding(g->pub, e->out.set, e->out.binding, &is_counter);
        uint32_t index = b && !is_counter ? b->lower_bound : e->out.binding;
        uint32_t space = b && !is_counter ? b->space : e->out.set;
        char letter = hlsl_register_class(g, r, e->out.kind);
        /* Register spaces exist from SM5.1; SPIRV-Cross leaves them out below it. */
        if (g->hlsl_model >= 51)
            snprintf(e->slot, sizeof(e->slot), "register(%c%u, space%u)", letter, index, space);
        else
            snprintf(e->slot, sizeof(e->slot), "register(%c%u)", letter, index);
        e->out.slot_index = index;
        break;
    }
    default: break;
    }
}

static enum sb_result add_resources(struct gather *g, spvc_resources resources,
                                    spvc_resource_type type, enum sb_target_binding_kind kind)
{
    const spvc_reflected_resource *list = NULL;
    size_t count = 0;
    if (spvc_resources_get_resource_list_for_type(resources, type, &list, &count) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t i = 0; i < count; i++) {
        struct entry *e = add_entry(g, &list[i], kind);
        if (!e)
            return SB_ERROR_OUT_OF_MEMORY;
        const struct sb_target_origin *origin = find_origin(g, list[i].id);
        e->out.set = origin ? origin->set
                            : spvc_compiler_get_decoration(g->compiler, list[i].id, SpvDecorationDescriptorSet);
        e->out.binding = origin ? origin->binding
                                : spvc_compiler_get_decoration(g->compiler, list[i].id, SpvDecorationBinding);
        resource_slot(g, &list[i], e);
    }
    return SB_SUCCESS;
}

/* The attribute or semantic a stage variable at `location` gets in the text. */
static void interface_slot(const struct gather *g, bool input, uint32_t location, uint32_t component,
                           struct entry *e)
{
    bool vertex_input = input && g->model == SpvExecutionModelVertex;
    bool pixel_output = !input && g->model == SpvExecutionModelFragment;
    e->out.slot_index = location;
    switch (g->target) {
    case SB_TRANSLATE_TARGET_MSL:
        if (vertex_input)
            snprintf(e->slot, sizeof(e->slot), "[[attribute(%u)]]", location);
        else if (pixel_output)
            snprintf(e->slot, sizeof(e->slot), "[[color(%u)]]", location);
        else if (component)
            snprintf(e->slot, sizeof(e->slot), "[[user(locn%u_%u)]]", location, component);
        else
            snprintf(e->slot, sizeof(e->slot), "[[user(locn%u)]]", location);
        break;
    case SB_TRANSLATE_TARGET_HLSL:
        snprintf(e->slot, sizeof(e->slot), "%s%u", pixel_output ? "SV_Target" : "TEXCOORD", location);
        break;
    default:
        if (component)
            snprintf(e->slot, sizeof(e->slot), "location = %u, component = %u", location, component);
        else
            snprintf(e->slot, sizeof(e->slot), "location = %u", location);
        break;
    }
}

static enum sb_result add_interface(struct gather *g, spvc_resources resources, bool input)
{
    const spvc_reflected_resource *list = NULL;
    size_t count = 0;
    spvc_resource_type type = input ? SPVC_RESOURCE_TYPE_STAGE_INPUT : SPVC_RESOURCE_TYPE_STAGE_OUTPUT;
    if (spvc_resources_get_resource_list_for_type(resources, type, &list, &count) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t i = 0; i < count; i++) {
        if (spvc_compiler_has_decoration(g->compiler, list[i].id, SpvDecorationBuiltIn) ||
            !spvc_compiler_has_decoration(g->compiler, list[i].id, SpvDecorationLocation))
            continue;
        struct entry *e = add_entry(g, &list[i], input ? SB_TARGET_BINDING_STAGE_INPUT
                                                        : SB_TARGET_BINDING_STAGE_OUTPUT);
        if (!e)
            return SB_ERROR_OUT_OF_MEMORY;
        e->out.location = spvc_compiler_get_decoration(g->compiler, list[i].id, SpvDecorationLocation);
        interface_slot(g, input, e->out.location,
                       spvc_compiler_get_decoration(g->compiler, list[i].id, SpvDecorationComponent), e);
    }
    return SB_SUCCESS;
}

/* Copies the gathered entries and their strings into one block the translation owns. */
static enum sb_result publish(struct gather *g, struct sb_translation *pub)
{
    size_t bytes = g->count * sizeof(struct sb_target_binding);
    for (size_t i = 0; i < g->count; i++)
        bytes += strlen(entry_name(&g->entries[i])) + 1 + strlen(g->entries[i].slot) + 1;
    struct sb_target_binding *out = malloc(bytes ? bytes : 1);
    if (!out)
        return SB_ERROR_OUT_OF_MEMORY;
    char *at = (char *)(out + g->count);
    for (size_t i = 0; i < g->count; i++) {
        out[i] = g->entries[i].out;
        size_t n = strlen(entry_name(&g->entries[i])) + 1;
        memcpy(at, entry_name(&g->entries[i]), n);
        out[i].name = at;
        at += n;
        n = strlen(g->entries[i].slot) + 1;
        memcpy(at, g->entries[i].slot, n);
        out[i].slot = at;
        at += n;
    }
    pub->target_bindings = out;
    pub->target_binding_count = (uint32_t)g->count;
    return SB_SUCCESS;
}

enum sb_result sb_target_report(spvc_compiler compiler, enum sb_translate_target target,
                                uint32_t hlsl_model, const struct sb_target_origin *origins,
                                uint32_t origin_count, struct sb_translation *pub)
{
    static const struct {
        spvc_resource_type type;
        enum sb_target_binding_kind kind;
    } resource_lists[] = {
        { SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, SB_TARGET_BINDING_UNIFORM_BUFFER },
        { SPVC_RESOURCE_TYPE_STORAGE_BUFFER, SB_TARGET_BINDING_STORAGE_BUFFER },
        { SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, SB_TARGET_BINDING_SAMPLED_IMAGE },
        { SPVC_RESOURCE_TYPE_STORAGE_IMAGE, SB_TARGET_BINDING_STORAGE_IMAGE },
        { SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, SB_TARGET_BINDING_SAMPLER },
        { SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, SB_TARGET_BINDING_COMBINED_IMAGE_SAMPLER },
    };
    struct gather g = { .compiler = compiler, .target = target, .hlsl_model = hlsl_model,
                        .model = spvc_compiler_get_execution_model(compiler), .origins = origins,
                        .origin_count = origin_count, .pub = pub };
    /* ESSL declares combined samplers only: its separate textures and samplers are not
     * in the text. */
    bool combined_only = target == SB_TRANSLATE_TARGET_ESSL;
    spvc_resources resources = NULL;
    enum sb_result r = spvc_compiler_create_shader_resources(compiler, &resources) == SPVC_SUCCESS
                           ? SB_SUCCESS : SB_ERROR_TARGET_CROSS;
    for (size_t i = 0; r == SB_SUCCESS && i < sizeof(resource_lists) / sizeof(resource_lists[0]); i++) {
        bool separate = resource_lists[i].type == SPVC_RESOURCE_TYPE_SEPARATE_IMAGE ||
                        resource_lists[i].type == SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS;
        if (!(combined_only && separate))
            r = add_resources(&g, resources, resource_lists[i].type, resource_lists[i].kind);
    }
    if (r == SB_SUCCESS)
        r = add_interface(&g, resources, true);
    if (r == SB_SUCCESS)
        r = add_interface(&g, resources, false);
    if (r == SB_SUCCESS)
        r = publish(&g, pub);
    free(g.entries);
    return r;
}
