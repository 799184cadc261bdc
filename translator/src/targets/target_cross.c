/* SPDX-License-Identifier: MIT */
/*
 * sb_target_write (targets_private.h): the finished SPIR-V module through SPIRV-Cross's
 * C API into GLSL, ESSL, MSL or HLSL text, then its binding report (target_report.c).
 *
 * Before compiling, each resource variable is named after the D3D register it came from
 * (t3, cb0, u1_counter) so the text reads like the shader it was (SPIRV-Cross renames
 * one that collides, and the report reads the final name back), and:
 *   ESSL: ES has no separate textures and samplers, so SPIRV-Cross combines each pair the
 *         code samples with (a texture only loaded from gets a dummy sampler); ES has no
 *         descriptor sets either and binds each kind in its own namespace, so uniform
 *         buffers, storage buffers, images and texture units are numbered from 0 each;
 *   HLSL: each resource is put back at its D3D register and space (UAV counters, which
 *         D3D has none of, keep SPIR-V's binding as their register).
 * For GLSL and ESSL the module SPIRV-Cross reads has its 64/32-bit bitcasts spelled out
 * first (target_bitcasts.c: this SPIRV-Cross drops them; HLSL refuses such a module). A SPIRV-Cross failure (it throws inside; the C API catches) becomes
 * SB_ERROR_TARGET_CROSS with its message; the context is always destroyed.
 */
#include "targets_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* Each target's language versions: the default and the ones SPIRV-Cross can write. */
static const uint32_t glsl_versions[] = { 450, 330, 400, 410, 420, 430, 440, 460 };
static const uint32_t essl_versions[] = { 310, 300, 320 };
static const uint32_t hlsl_models[] = { 50, 30, 40, 41, 51, 60, 61, 62, 63, 64, 65, 66, 67 };
#define MSL_DEFAULT 20100u /* 2.1 */
#define MSL_LOWEST 10000u  /* 1.0 */
#define MSL_HIGHEST 30199u /* 3.1.x */
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The version to use (the default for 0); false when the target cannot have it. */
static bool pick_version(enum sb_translate_target target, uint32_t asked, uint32_t *version)
{
    const uint32_t *list = NULL;
    size_t count = 0;
    switch (target) {
    case SB_TRANSLATE_TARGET_GLSL: list = glsl_versions; count = COUNT_OF(glsl_versions); break;
    case SB_TRANSLATE_TARGET_ESSL: list = essl_versions; count = COUNT_OF(essl_versions); break;
    case SB_TRANSLATE_TARGET_HLSL: list = hlsl_models; count = COUNT_OF(hlsl_models); break;
    case SB_TRANSLATE_TARGET_MSL:
        *version = asked ? asked : MSL_DEFAULT;
        return *version >= MSL_LOWEST && *version <= MSL_HIGHEST;
    default: return false;
    }
    *version = asked ? asked : list[0];
    for (size_t i = 0; i < count; i++)
        if (list[i] == *version)
            return true;
    return false;
}

/* SPIRV-Cross's errors are read back from the context; nothing goes to stderr. */
static void ignore_error(void *userdata, const char *message)
{
    (void)userdata;
    (void)message;
}

static enum sb_result cross_failure(spvc_context context, struct sb_error *error, const char *step)
{
    const char *message = context ? spvc_context_get_last_error_string(context) : NULL;
    return sb_error_set(error, SB_ERROR_TARGET_CROSS, 0, SB_ERROR_NO_INSTR, "SPIRV-Cross %s: %s",
                        step, message && message[0] ? message : "failed");
}

static enum sb_result set_options(spvc_compiler compiler, enum sb_translate_target target,
                                  uint32_t version)
{
    spvc_compiler_options options = NULL;
    if (spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    spvc_result r = SPVC_SUCCESS;
    switch (target) {
    case SB_TRANSLATE_TARGET_GLSL:
    case SB_TRANSLATE_TARGET_ESSL: {
        bool es = target == SB_TRANSLATE_TARGET_ESSL;
        r = spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, version);
        if (r == SPVC_SUCCESS)
            r = spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, es);
        if (r == SPVC_SUCCESS)
            r = spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, !es);
        break;
    }
    case SB_TRANSLATE_TARGET_MSL:
        r = spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_VERSION, version);
        break;
    case SB_TRANSLATE_TARGET_HLSL:
        r = spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, version);
        break;
    default: break;
    }
    if (r == SPVC_SUCCESS)
        r = spvc_compiler_install_compiler_options(compiler, options);
    return r == SPVC_SUCCESS ? SB_SUCCESS : SB_ERROR_TARGET_CROSS;
}

/* The resource lists that hold descriptors, in the order ESSL numbers them. */
static const spvc_resource_type descriptor_lists[] = {
    SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
    SPVC_RESOURCE_TYPE_STORAGE_IMAGE,  SPVC_RESOURCE_TYPE_SEPARATE_IMAGE,
    SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS,
};

/* Work shared by the steps of one sb_target_write. */
struct cross_state {
    spvc_context context;
    spvc_compiler compiler;
    struct sb_translation *pub;
    enum sb_translate_target target;
    struct sb_target_origin *origins;
    uint32_t origin_count, origin_capacity;
};

static bool add_origin(struct cross_state *s, spvc_variable_id id, uint32_t set, uint32_t binding)
{
    if (s->origin_count == s->origin_capacity) {
        uint32_t grown = s->origin_capacity ? s->origin_capacity * 2 : 16;
        struct sb_target_origin *bigger = realloc(s->origins, grown * sizeof(*bigger));
        if (!bigger)
            return false;
        s->origins = bigger;
        s->origin_capacity = grown;
    }
    s->origins[s->origin_count++] = (struct sb_target_origin){ .id = id, .set = set, .binding = binding };
    return true;
}

static void name_variable(struct cross_state *s, const spvc_reflected_resource *r,
                          const struct sb_translated_binding *b, bool is_counter)
{
    /* Only the variable: block types may be shared by several registers. */
    char name[64];
    sb_target_register_name(b, is_counter, name, sizeof(name));
    spvc_compiler_set_name(s->compiler, r->id, name);
}

static void map_hlsl_register(struct cross_state *s, uint32_t set, uint32_t binding,
                              const struct sb_translated_binding *b)
{
    spvc_hlsl_resource_binding map;
    spvc_hlsl_resource_binding_init(&map);
    map.stage = spvc_compiler_get_execution_model(s->compiler);
    map.desc_set = set;
    map.binding = binding;
    /* Whichever register class SPIRV-Cross gives the variable, its number is D3D's. */
    spvc_hlsl_resource_binding_mapping reg = { .register_space = b->space,
                                               .register_binding = b->lower_bound };
    map.cbv = map.uav = map.srv = map.sampler = reg;
    spvc_compiler_hlsl_add_resource_binding(s->compiler, &map);
}

/* Whether a descriptor variable is an array of unknown size (an unbounded SM5.1 range). */
static bool is_runtime_array(spvc_compiler compiler, const spvc_reflected_resource *r)
{
    spvc_type type = spvc_compiler_get_type_handle(compiler, r->type_id);
    for (unsigned d = 0; type && d < spvc_type_get_num_array_dimensions(type); d++)
        if (spvc_type_array_dimension_is_literal(type, d) && spvc_type_get_array_dimension(type, d) == 0)
            return true;
    return false;
}

/* Names every descriptor variable, records where it came from, maps HLSL registers.
 * SB_ERROR_INVALID_ARGUMENT: MSL with an unbounded range (below). */
static enum sb_result prepare_resources(struct cross_state *s)
{
    spvc_resources resources = NULL;
    if (spvc_compiler_create_shader_resources(s->compiler, &resources) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t k = 0; k < COUNT_OF(descriptor_lists); k++) {
        const spvc_reflected_resource *list = NULL;
        size_t count = 0;
        if (spvc_resources_get_resource_list_for_type(resources, descriptor_lists[k], &list, &count) !=
            SPVC_SUCCESS)
            return SB_ERROR_TARGET_CROSS;
        for (size_t i = 0; i < count; i++) {
            uint32_t set = spvc_compiler_get_decoration(s->compiler, list[i].id, SpvDecorationDescriptorSet);
            uint32_t binding = spvc_compiler_get_decoration(s->compiler, list[i].id, SpvDecorationBinding);
            if (!add_origin(s, list[i].id, set, binding))
                return SB_ERROR_OUT_OF_MEMORY;
            /* This SPIRV-Cross asserts (aborts the process) numbering the argument slots of a
             * descriptor array without a size for MSL: refused before it gets there. */
            if (s->target == SB_TRANSLATE_TARGET_MSL && is_runtime_array(s->compiler, &list[i]))
                return SB_ERROR_INVALID_ARGUMENT;
            bool is_counter = false;
            const struct sb_translated_binding *b = sb_target_find_binding(s->pub, set, binding, &is_counter);
            if (!b)
                continue;
            name_variable(s, &list[i], b, is_counter);
            if (s->target == SB_TRANSLATE_TARGET_HLSL && !is_counter)
                map_hlsl_register(s, set, binding, b);
        }
    }
    return SB_SUCCESS;
}

/* ESSL: textures and samplers combined, named TEXTURE_SAMPLER, and every kind of
 * descriptor numbered from 0 in its own namespace (see the top of the file). */
static enum sb_result prepare_essl(struct cross_state *s)
{
    spvc_variable_id dummy = 0;
    if (spvc_compiler_build_dummy_sampler_for_combined_images(s->compiler, &dummy) != SPVC_SUCCESS ||
        spvc_compiler_build_combined_image_samplers(s->compiler) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    const spvc_combined_image_sampler *combined = NULL;
    size_t combined_count = 0;
    if (spvc_compiler_get_combined_image_samplers(s->compiler, &combined, &combined_count) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t i = 0; i < combined_count; i++) {
        const char *texture = spvc_compiler_get_name(s->compiler, combined[i].image_id);
        const char *sampler = dummy && combined[i].sampler_id == dummy
                                  ? "" : spvc_compiler_get_name(s->compiler, combined[i].sampler_id);
        char name[160];
        snprintf(name, sizeof(name), "%s%s%s", texture && texture[0] ? texture : "texture",
                 sampler && sampler[0] ? "_" : "", sampler ? sampler : "");
        spvc_compiler_set_name(s->compiler, combined[i].combined_id, name);
        uint32_t set = spvc_compiler_get_decoration(s->compiler, combined[i].image_id, SpvDecorationDescriptorSet);
        uint32_t binding = spvc_compiler_get_decoration(s->compiler, combined[i].image_id, SpvDecorationBinding);
        if (!add_origin(s, combined[i].combined_id, set, binding))
            return SB_ERROR_OUT_OF_MEMORY;
        spvc_compiler_set_decoration(s->compiler, combined[i].combined_id, SpvDecorationBinding, (unsigned)i);
    }
    static const spvc_resource_type renumbered[] = {
        SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
        SPVC_RESOURCE_TYPE_STORAGE_IMAGE,
    };
    spvc_resources resources = NULL;
    if (spvc_compiler_create_shader_resources(s->compiler, &resources) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t k = 0; k < COUNT_OF(renumbered); k++) {
        const spvc_reflected_resource *list = NULL;
        size_t count = 0;
        if (spvc_resources_get_resource_list_for_type(resources, renumbered[k], &list, &count) != SPVC_SUCCESS)
            return SB_ERROR_TARGET_CROSS;
        for (size_t i = 0; i < count; i++)
            spvc_compiler_set_decoration(s->compiler, list[i].id, SpvDecorationBinding, (unsigned)i);
    }
    return SB_SUCCESS;
}

/*
 * GLSL and ESSL: what SPIRV-Cross leaves to the caller.
 *  - glslang takes constant_id up to 2047 only, and ours are 4000 (sample count) and
 *    4096 + ... (class linkage): the text uses SpecId - SB_TARGET_GLSL_SPEC_ID_SHIFT
 *    (translate.h), one rule for all of them.
 *  - A vertex or tessellation stage that writes gl_Layer / gl_ViewportIndex needs
 *    GL_ARB_shader_viewport_layer_array, which this SPIRV-Cross does not request; nor
 *    does it request GL_EXT_geometry_shader for an ES 3.0/3.1 pixel shader reading
 *    gl_Layer or gl_PrimitiveID (core from ES 3.2).
 */
static enum sb_result prepare_glsl(struct cross_state *s, uint32_t version)
{
    const spvc_specialization_constant *constants = NULL;
    size_t count = 0;
    if (spvc_compiler_get_specialization_constants(s->compiler, &constants, &count) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    for (size_t i = 0; i < count; i++)
        if (constants[i].constant_id >= SB_TARGET_GLSL_SPEC_ID_SHIFT)
            spvc_compiler_set_decoration(s->compiler, constants[i].id, SpvDecorationSpecId,
                                         constants[i].constant_id - SB_TARGET_GLSL_SPEC_ID_SHIFT);
    const SpvCapability *caps = NULL;
    size_t cap_count = 0;
    if (spvc_compiler_get_declared_capabilities(s->compiler, &caps, &cap_count) != SPVC_SUCCESS)
        return SB_ERROR_TARGET_CROSS;
    SpvExecutionModel model = spvc_compiler_get_execution_model(s->compiler);
    for (size_t i = 0; i < cap_count; i++)
        if (caps[i] == SpvCapabilityShaderViewportIndexLayerEXT && model != SpvExecutionModelGeometry &&
            spvc_compiler_require_extension(s->compiler, "GL_ARB_shader_viewport_layer_array") != SPVC_SUCCESS)
            return SB_ERROR_TARGET_CROSS;
    if (s->target == SB_TRANSLATE_TARGET_ESSL && version < 320 && model == SpvExecutionModelFragment) {
        spvc_compiler_update_active_builtins(s->compiler);
        if ((spvc_compiler_has_active_builtin(s->compiler, SpvBuiltInLayer, SpvStorageClassInput) ||
             spvc_compiler_has_active_builtin(s->compiler, SpvBuiltInPrimitiveId, SpvStorageClassInput)) &&
            spvc_compiler_require_extension(s->compiler, "GL_EXT_geometry_shader") != SPVC_SUCCESS)
            return SB_ERROR_TARGET_CROSS;
    }
    return SB_SUCCESS;
}

/* Copies SPIRV-Cross's text (owned by its context) into the translation. */
static enum sb_result keep_text(struct sb_translation *pub, const char *source)
{
    size_t size = strlen(source);
    char *text = malloc(size + 1);
    if (!text)
        return SB_ERROR_OUT_OF_MEMORY;
    memcpy(text, source, size + 1);
    pub->text = text;
    pub->text_size = size;
    return SB_SUCCESS;
}

static enum sb_result write_text(struct cross_state *s, uint32_t version, struct sb_error *error)
{
    static const spvc_backend backends[] = {
        [SB_TRANSLATE_TARGET_GLSL] = SPVC_BACKEND_GLSL, [SB_TRANSLATE_TARGET_ESSL] = SPVC_BACKEND_GLSL,
        [SB_TRANSLATE_TARGET_MSL] = SPVC_BACKEND_MSL,   [SB_TRANSLATE_TARGET_HLSL] = SPVC_BACKEND_HLSL,
    };
    /* GLSL and ESSL get the bitcasts spelled out; MSL writes them itself (as_type); HLSL
     * would need asdouble / asuint, which this SPIRV-Cross writes for neither form, so a
     * module with them is refused rather than written wrong. SPIRV-Cross copies the words
     * it parses: the rewritten copy is freed at once. */
    uint32_t *split = NULL;
    size_t split_count = 0;
    bool rewritten = s->target != SB_TRANSLATE_TARGET_MSL &&
                     sb_target_split_bitcasts(s->pub->words, s->pub->word_count, &split, &split_count);
    if (rewritten && s->target == SB_TRANSLATE_TARGET_HLSL) {
        free(split);
        return sb_error_set(error, SB_ERROR_TARGET_CROSS, 0, SB_ERROR_NO_INSTR,
                            "SPIRV-Cross cannot write the module: this version drops the bitcasts "
                            "between doubles and 32-bit lanes in HLSL (asdouble / asuint)");
    }
    spvc_parsed_ir ir = NULL;
    spvc_result parsed = spvc_context_parse_spirv(s->context, rewritten ? split : s->pub->words,
                                                  rewritten ? split_count : s->pub->word_count, &ir);
    free(split);
    if (parsed != SPVC_SUCCESS)
        return cross_failure(s->context, error, "cannot parse the module");
    if (spvc_context_create_compiler(s->context, backends[s->target], ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                     &s->compiler) != SPVC_SUCCESS ||
        set_options(s->compiler, s->target, version) != SB_SUCCESS)
        return cross_failure(s->context, error, "cannot be set up");
    enum sb_result r = prepare_resources(s);
    if (r == SB_SUCCESS && s->target == SB_TRANSLATE_TARGET_ESSL)
        r = prepare_essl(s);
    if (r == SB_SUCCESS && (s->target == SB_TRANSLATE_TARGET_GLSL || s->target == SB_TRANSLATE_TARGET_ESSL))
        r = prepare_glsl(s, version);
    if (r == SB_ERROR_OUT_OF_MEMORY)
        return sb_error_set(error, r, 0, SB_ERROR_NO_INSTR, "out of memory");
    if (r == SB_ERROR_INVALID_ARGUMENT)
        return sb_error_set(error, SB_ERROR_TARGET_CROSS, 0, SB_ERROR_NO_INSTR,
                            "SPIRV-Cross cannot write an unbounded descriptor array (an SM5.1 range "
                            "such as t0[]) in MSL: translate with an unbounded descriptor count "
                            "(--unbounded-descriptors N)");
    if (r != SB_SUCCESS)
        return cross_failure(s->context, error, "cannot map the resources");
    const char *source = NULL;
    if (spvc_compiler_compile(s->compiler, &source) != SPVC_SUCCESS || !source)
        return cross_failure(s->context, error, "cannot write the module");
    if (keep_text(s->pub, source) != SB_SUCCESS)
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    uint32_t hlsl_model = s->target == SB_TRANSLATE_TARGET_HLSL ? version : 0;
    r = sb_target_report(s->compiler, s->target, hlsl_model, s->origins, s->origin_count, s->pub);
    if (r == SB_ERROR_OUT_OF_MEMORY)
        return sb_error_set(error, r, 0, SB_ERROR_NO_INSTR, "out of memory");
    if (r != SB_SUCCESS)
        return cross_failure(s->context, error, "reflection failed");
    return SB_SUCCESS;
}

enum sb_result sb_target_write(struct sb_translation *pub, const struct sb_translate_options *options,
                               struct sb_error *error)
{
    uint32_t version = 0;
    if (!pick_version(options->target, options->target_version, &version))
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "%s cannot be version %u", sb_translate_target_name(options->target),
                            options->target_version);
    struct cross_state s = { .pub = pub, .target = options->target };
    if (spvc_context_create(&s.context) != SPVC_SUCCESS)
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR,
                            "cannot create a SPIRV-Cross context");
    spvc_context_set_error_callback(s.context, ignore_error, NULL);
    enum sb_result r = write_text(&s, version, error);
    spvc_context_destroy(s.context);
    free(s.origins);
    if (r != SB_SUCCESS) {
        free((void *)pub->text);
        pub->text = NULL;
        pub->text_size = 0;
        free((void *)pub->target_bindings);
        pub->target_bindings = NULL;
        pub->target_binding_count = 0;
    }
    return r;
}
