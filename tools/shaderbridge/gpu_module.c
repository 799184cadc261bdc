/* SPDX-License-Identifier: MIT */
/*
 * The module and binding map of `validate --spirv FILE.spv [--bindings MAP.json]`
 * (gpu_module.h). The map is what `reflect --json` prints under "vulkan_bindings"
 * (json_translate.c), so a module compiled against that listing, or that listing
 * edited where another compiler chose differently, round-trips without a new format.
 * Every entry is read strictly (a missing field or a value outside uint32 is an
 * error naming the entry), since a silently defaulted binding would make a
 * disagreement look like a shader bug.
 */
#include "gpu_module.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"

/* SPIR-V files may be stored in either byte order; the magic says which. */
#define SPIRV_MAGIC 0x07230203u

static bool load_words(const char *name, struct cli_gpu_module *m)
{
    struct cli_file file;
    if (!cli_file_load(name, &file))
        return false;
    struct sb_error error = { 0 };
    bool ok = false;
    if (file.size % 4 || file.size < 20) {
        sb_error_set(&error, file.size % 4 ? SB_ERROR_BAD_SIZE : SB_ERROR_TRUNCATED, file.size, SB_ERROR_NO_INSTR,
                     "a SPIR-V module of %zu bytes: %s", file.size,
                     file.size % 4 ? "not whole 32-bit words" : "shorter than its 20-byte header");
    } else if (!(m->words = malloc(file.size))) {
        sb_error_set(&error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory reading the module");
    } else {
        const uint8_t *b = file.bytes;
        bool big = ((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]) == SPIRV_MAGIC;
        m->word_count = file.size / 4;
        for (size_t i = 0; i < m->word_count; i++, b += 4)
            m->words[i] = big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
                              : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
        ok = true; /* the rest of the header is sb_validate's to check, with offsets */
    }
    if (!ok)
        cli_report_error(name, &error);
    cli_file_free(&file);
    return ok;
}

static bool u32_field(json_object *entry, const char *key, bool required, uint32_t *out, uint32_t index,
                      struct sb_error *error)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(entry, key, &v) || !v) {
        if (!required)
            return true;
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR, "binding map entry %u has no \"%s\"", index,
                     key);
        return false;
    }
    int64_t n = json_object_get_int64(v);
    if (!json_object_is_type(v, json_type_int) || n < 0 || n > (int64_t)UINT32_MAX) {
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                     "binding map entry %u: \"%s\" is %.40s, not an integer 0-4294967295", index, key,
                     json_object_to_json_string(v));
        return false;
    }
    *out = (uint32_t)n;
    return true;
}

/* One entry of the list (json_translate.c's binding_json). */
static bool read_entry(json_object *entry, uint32_t index, struct sb_binding_override *o, struct sb_error *error)
{
    static const char *const classes[] = { "cbv", "srv", "sampler", "uav" }; /* = enum sb_ir_resource_class */
    json_object *c = NULL;
    if (!json_object_is_type(entry, json_type_object)) {
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR, "binding map entry %u is not an object", index);
        return false;
    }
    const char *name = json_object_object_get_ex(entry, "class", &c) && json_object_is_type(c, json_type_string)
                           ? json_object_get_string(c) : NULL;
    uint32_t k = 0;
    while (name && k < sizeof(classes) / sizeof(classes[0]) && strcmp(name, classes[k]))
        k++;
    if (!name || k == sizeof(classes) / sizeof(classes[0])) {
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                     "binding map entry %u: \"class\" must be \"cbv\", \"srv\", \"sampler\" or \"uav\"", index);
        return false;
    }
    memset(o, 0, sizeof(*o));
    o->resource_class = (enum sb_ir_resource_class)k;
    return u32_field(entry, "space", true, &o->space, index, error) &&
           u32_field(entry, "lower_bound", true, &o->register_index, index, error) &&
           u32_field(entry, "set", true, &o->set, index, error) &&
           u32_field(entry, "binding", true, &o->binding, index, error) &&
           u32_field(entry, "counter_binding", false, &o->counter_binding, index, error);
}

/* The list inside any of the three accepted shapes, or NULL (error set). */
static json_object *binding_list(json_object *root, struct sb_error *error)
{
    json_object *inner = NULL;
    if (json_object_is_type(root, json_type_object) && json_object_object_get_ex(root, "vulkan_bindings", &inner))
        root = inner;
    if (json_object_is_type(root, json_type_object)) {
        if (json_object_object_get_ex(root, "error", &inner)) {
            sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                         "the binding map holds reflect's translation error, not bindings");
            return NULL;
        }
        if (!json_object_object_get_ex(root, "bindings", &inner))
            inner = NULL;
        root = inner;
    }
    if (!root || !json_object_is_type(root, json_type_array)) {
        sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                     "no binding list: want reflect --json output, its \"vulkan_bindings\" or its \"bindings\" "
                     "array");
        return NULL;
    }
    return root;
}

static bool load_bindings(const char *name, struct cli_gpu_module *m)
{
    struct cli_file file;
    if (!cli_file_load(name, &file))
        return false;
    struct sb_error error = { 0 };
    json_tokener *tok = json_tokener_new();
    json_object *root = NULL;
    if (!tok) {
        sb_error_set(&error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory reading the map");
    } else if (file.size > INT32_MAX) {
        sb_error_set(&error, SB_ERROR_BAD_SIZE, 0, SB_ERROR_NO_INSTR, "a binding map of %zu bytes", file.size);
    } else {
        root = json_tokener_parse_ex(tok, (const char *)file.bytes, (int)file.size);
        enum json_tokener_error e = json_tokener_get_error(tok);
        size_t end = json_tokener_get_parse_end(tok);
        while (root && end < file.size && strchr(" \t\r\n", file.bytes[end]) && file.bytes[end])
            end++;
        if (!root || e != json_tokener_success || end < file.size) {
            sb_error_set(&error, SB_ERROR_BAD_VALUE, end, SB_ERROR_NO_INSTR, "not JSON: %s",
                         root ? "text after the value" : e == json_tokener_continue ? "the text ends inside a value"
                                                                            : json_tokener_error_desc(e));
            json_object_put(root);
            root = NULL;
        }
    }
    json_object *list = root ? binding_list(root, &error) : NULL;
    size_t count = list ? json_object_array_length(list) : 0;
    bool ok = list != NULL;
    if (ok && count > 4096) {
        sb_error_set(&error, SB_ERROR_BAD_COUNT, 0, SB_ERROR_NO_INSTR, "%zu bindings (at most 4096)", count);
        ok = false;
    }
    if (ok && !(m->bindings = calloc(count ? count : 1, sizeof(*m->bindings)))) {
        sb_error_set(&error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory reading the map");
        ok = false;
    }
    for (size_t i = 0; ok && i < count; i++)
        ok = read_entry(json_object_array_get_idx(list, i), (uint32_t)i, &m->bindings[i], &error);
    if (ok)
        m->binding_count = (uint32_t)count;
    else
        cli_report_error(name, &error);
    json_object_put(root);
    if (tok)
        json_tokener_free(tok);
    cli_file_free(&file);
    return ok;
}

bool cli_gpu_module_load(const char *spirv, const char *bindings, struct cli_gpu_module *out)
{
    memset(out, 0, sizeof(*out));
    out->spirv_name = spirv;
    out->bindings_name = bindings;
    if (load_words(spirv, out) && (!bindings || load_bindings(bindings, out)))
        return true;
    cli_gpu_module_free(out);
    return false;
}

void cli_gpu_module_apply(const struct cli_gpu_module *m, struct sb_validate_options *options)
{
    if (!m || !m->words)
        return;
    options->gpu_spirv = m->words;
    options->gpu_spirv_words = m->word_count;
    options->gpu_bindings = m->bindings;
    options->gpu_binding_count = m->binding_count;
}

enum sb_result cli_gpu_module_check(const struct cli_gpu_module *m, const struct sb_rt_program *program,
                                    const struct sb_validate_options *options)
{
    struct sb_error error = { 0 };
    enum sb_result r = m ? sb_validate_gpu_module_check(program, options, &error) : SB_SUCCESS;
    if (r == SB_SUCCESS)
        return r;
    /* The library names the map's entries "binding map ..."; everything else is the module's. */
    bool map = m->bindings_name && !strncmp(error.message, "binding map", 11);
    cli_report_error(map ? m->bindings_name : m->spirv_name, &error);
    return r;
}

void cli_gpu_module_free(struct cli_gpu_module *m)
{
    free(m->words);
    free(m->bindings);
    m->words = NULL;
    m->bindings = NULL;
    m->word_count = 0;
    m->binding_count = 0;
}
