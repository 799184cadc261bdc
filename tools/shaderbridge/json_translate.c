/* SPDX-License-Identifier: MIT */
/*
 * `reflect`'s "vulkan_bindings": the Vulkan descriptor set, binding and
 * descriptor type each resource of a DXBC shader gets when it is translated
 * (issue #4 item 5; the default scheme is in translate.h's header comment);
 * for a PICA200 SHBIN (DVLE 0) also the input and output locations its
 * vertex attributes and output map get (issue #6 item 5).
 * Reflection is about the input, so a shader the translator cannot handle
 * still reflects: the translation's error takes the place of the list.
 */
#include "cli.h"

#include <string.h>

#include "shaderbridge/translate.h"

/* Index = enum sb_ir_resource_class: the register letter(s) and a word for the class. */
static const struct {
    const char *prefix;
    const char *name;
} resource_classes[] = {
    { "cb", "cbv" },     /* SB_IR_RESOURCE_CBV */
    { "t", "srv" },      /* SB_IR_RESOURCE_SRV */
    { "s", "sampler" },  /* SB_IR_RESOURCE_SAMPLER */
    { "u", "uav" },      /* SB_IR_RESOURCE_UAV */
};

/* Index = VkDescriptorType value (the core types 0-10 that a translation may use). */
static const char *const descriptor_types[] = {
    "VK_DESCRIPTOR_TYPE_SAMPLER",                /* 0 */
    "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", /* 1 */
    "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE",          /* 2 */
    "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",          /* 3 */
    "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER",   /* 4 */
    "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",   /* 5 */
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER",         /* 6 */
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",         /* 7 */
    "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC", /* 8 */
    "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC", /* 9 */
    "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT",       /* 10 */
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define UNBOUNDED 0xFFFFFFFFu

/* "t3", "t[3..5]", "t[3..]" (unbounded), with "space1:" in front for SM5.1 spaces other than 0. */
static void register_text(const struct sb_translated_binding *b, char *buf, size_t size)
{
    const char *prefix = b->resource_class < COUNT_OF(resource_classes)
                             ? resource_classes[b->resource_class].prefix : "?";
    char space[24] = "";
    if (b->space)
        snprintf(space, sizeof(space), "space%u:", b->space);
    if (b->count == 1)
        snprintf(buf, size, "%s%s%u", space, prefix, b->lower_bound);
    else if (b->count == UNBOUNDED)
        snprintf(buf, size, "%s%s[%u..]", space, prefix, b->lower_bound);
    else
        snprintf(buf, size, "%s%s[%u..%u]", space, prefix, b->lower_bound,
                 b->lower_bound + (b->count ? b->count - 1 : 0));
}

static json_object *binding_json(const struct sb_translated_binding *b)
{
    json_object *o = json_object_new_object();
    char reg[64];
    register_text(b, reg, sizeof(reg));
    cli_json_add_str(o, "register", reg);
    cli_json_add_str(o, "class", b->resource_class < COUNT_OF(resource_classes)
                                     ? resource_classes[b->resource_class].name : "unknown");
    cli_json_add(o, "name", cli_json_string_or_null(b->name));
    cli_json_add_u64(o, "space", b->space);
    cli_json_add_u64(o, "lower_bound", b->lower_bound);
    if (b->count == UNBOUNDED)
        cli_json_add_str(o, "count", "unbounded");
    else
        cli_json_add_u64(o, "count", b->count);
    cli_json_add_u64(o, "set", b->set);
    cli_json_add_u64(o, "binding", b->binding);
    cli_json_add_str(o, "descriptor_type", b->descriptor_type < COUNT_OF(descriptor_types)
                                               ? descriptor_types[b->descriptor_type]
                                               : "unknown");
    if (b->has_counter)
        cli_json_add_u64(o, "counter_binding", b->counter_binding);
    return o;
}

static json_object *interface_json(const struct sb_translated_interface *v, uint32_t count)
{
    static const char *const types[] = { [SB_IR_TYPE_FLOAT] = "float", [SB_IR_TYPE_INT] = "int",
                                         [SB_IR_TYPE_UINT] = "uint" };
    json_object *list = json_object_new_array();
    for (uint32_t i = 0; i < count; i++) {
        json_object *o = json_object_new_object();
        cli_json_add_u64(o, "location", v[i].location);
        cli_json_add_u64(o, "component", v[i].component);
        cli_json_add_u64(o, "components", v[i].component_count);
        cli_json_add_str(o, "type", v[i].component_type < COUNT_OF(types) && types[v[i].component_type]
                                        ? types[v[i].component_type] : "unknown");
        cli_json_add(o, "semantic", cli_json_string_or_null(v[i].semantic));
        cli_json_add_u64(o, "semantic_index", v[i].semantic_index);
        json_object_array_add(list, o);
    }
    return list;
}

/* Index = enum sb_target_binding_kind. */
static const char *const target_kinds[] = {
    "uniform_buffer", "storage_buffer", "sampled_image", "storage_image", "sampler",
    "combined_image_sampler", "stage_input", "stage_output",
};

static json_object *target_bindings_json(const struct sb_translation *translation)
{
    json_object *list = json_object_new_array();
    for (uint32_t i = 0; i < translation->target_binding_count; i++) {
        const struct sb_target_binding *b = &translation->target_bindings[i];
        json_object *o = json_object_new_object();
        cli_json_add_str(o, "kind", (unsigned)b->kind < COUNT_OF(target_kinds) ? target_kinds[b->kind]
                                                                                 : "unknown");
        bool stage_variable = b->kind == SB_TARGET_BINDING_STAGE_INPUT || b->kind == SB_TARGET_BINDING_STAGE_OUTPUT;
        if (stage_variable) {
            cli_json_add_u64(o, "location", b->location);
        } else {
            cli_json_add_u64(o, "set", b->set);
            cli_json_add_u64(o, "binding", b->binding);
        }
        cli_json_add_str(o, "name", b->name);
        cli_json_add_str(o, "slot", b->slot);
        cli_json_add_u64(o, "slot_index", b->slot_index);
        json_object_array_add(list, o);
    }
    return list;
}

json_object *cli_json_vulkan_bindings(const struct sb_dxbc *dxbc, const uint8_t *bytes,
                                      size_t size, const struct sb_translate_options *options)
{
    bool shbin = !dxbc && size >= 4 && !memcmp(bytes, "DVLB", 4);
    /* DXBC with a shader, or DXIL (its resources and descriptor-heap views, translate.h). */
    if (!shbin && (!dxbc || (!dxbc->is_dxil &&
                             !sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X')) &&
                             !sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R')))))
        return NULL;
    struct sb_translation *translation = NULL;
    struct sb_error error = { .code = SB_SUCCESS, .instr = UINT32_MAX };
    enum sb_result result = sb_translate(bytes, size, options, &translation, &error);
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "target_env", sb_target_env_name(options->target_env));
    if (options->target != SB_TRANSLATE_TARGET_SPIRV) {
        cli_json_add_str(o, "target", sb_translate_target_name(options->target));
        if (options->target_version) /* else the target's default (translate.h) */
            cli_json_add_u64(o, "target_version", options->target_version);
    }
    if (result != SB_SUCCESS) {
        cli_json_add(o, "error", cli_json_error(result, &error));
        sb_translation_destroy(translation);
        return o;
    }
    json_object *list = json_object_new_array();
    for (uint32_t i = 0; i < translation->binding_count; i++)
        json_object_array_add(list, binding_json(&translation->bindings[i]));
    cli_json_add(o, "bindings", list);
    if (shbin) { /* PICA200 (DVLE 0): where the attributes and the output map land */
        cli_json_add(o, "inputs", interface_json(translation->inputs, translation->input_count));
        cli_json_add(o, "outputs", interface_json(translation->outputs, translation->output_count));
    }
    if (options->target != SB_TRANSLATE_TARGET_SPIRV)
        cli_json_add(o, "target_bindings", target_bindings_json(translation));
    sb_translation_destroy(translation);
    return o;
}
