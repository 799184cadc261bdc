/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V reader behind vk_spirv_reflect.h. One pass records what each id
 * is (type, constant, variable) and how it is decorated; a second pass over
 * the variables turns Input/Output variables into interface entries (outer
 * per-vertex arrays of GS/TCS/TES inputs and TCS outputs become
 * `array_size`; inner arrays of locations are expanded one location per
 * element) and built-ins (also those inside gl_PerVertex-style blocks), and
 * resource variables into bindings. Only what the tests need is read.
 */
#include "vk_spirv_reflect.h"

#include <spirv/unified1/spirv.h>

#include "vk_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 65536
#define MAX_MEMBER_BUILTINS 16

struct id_info {
    uint32_t op;                /* defining opcode */
    uint32_t a, b, c;           /* see record() */
    uint32_t set, binding, location, component, builtin;
    bool has_binding, has_location, has_builtin, patch, block, buffer_block;
    uint32_t member_builtins[MAX_MEMBER_BUILTINS];
    uint32_t member_builtin_count;
    char name[24];
};

struct reader {
    const uint32_t *w;
    size_t count;
    uint32_t bound;
    struct id_info *ids;
    uint32_t model;
    uint32_t entry_id;
    const char *entry_name;
    size_t entry_name_max;
};

static struct id_info *id(struct reader *r, uint32_t i)
{
    static struct id_info dummy;
    if (i < r->bound)
        return &r->ids[i];
    memset(&dummy, 0, sizeof(dummy));
    return &dummy;
}

static void decorate(struct reader *r, const uint32_t *w, uint32_t len)
{
    struct id_info *d = id(r, w[1]);
    uint32_t v = len >= 4 ? w[3] : 0;
    switch (w[2]) {
    case SpvDecorationBinding: d->binding = v; d->has_binding = true; break;
    case SpvDecorationDescriptorSet: d->set = v; break;
    case SpvDecorationLocation: d->location = v; d->has_location = true; break;
    case SpvDecorationComponent: d->component = v; break;
    case SpvDecorationBuiltIn: d->builtin = v; d->has_builtin = true; break;
    case SpvDecorationPatch: d->patch = true; break;
    case SpvDecorationBlock: d->block = true; break;
    case SpvDecorationBufferBlock: d->buffer_block = true; break;
    default: break;
    }
}

/* a/b/c per opcode: Int (width, signed), Vector (component type, count), Array (element,
 * length id), RuntimeArray (element), Pointer (storage class, pointee), Image (-, Dim,
 * Sampled), Constant (value), Variable (pointer type, storage class). */
static void record(struct reader *r, uint32_t op, const uint32_t *w, uint32_t len)
{
    if (op == SpvOpEntryPoint && len >= 4 && !r->entry_id) {
        r->model = w[1];
        r->entry_id = w[2];
        r->entry_name = (const char *)&w[3];
        r->entry_name_max = (len - 3) * 4;
        return;
    }
    if (op == SpvOpName && len >= 3) {
        snprintf(id(r, w[1])->name, sizeof(r->ids[0].name), "%s", (const char *)&w[2]);
        return;
    }
    if (op == SpvOpDecorate && len >= 3) {
        decorate(r, w, len);
        return;
    }
    if (op == SpvOpMemberDecorate && len >= 5 && w[3] == SpvDecorationBuiltIn) {
        struct id_info *s = id(r, w[1]);
        if (s->member_builtin_count < MAX_MEMBER_BUILTINS)
            s->member_builtins[s->member_builtin_count++] = w[4];
        return;
    }
    uint32_t result = 0;
    uint32_t a = 0, b = 0, c = 0;
    switch (op) {
    case SpvOpTypeInt: result = w[1]; a = w[2]; b = len >= 4 ? w[3] : 0; break;
    case SpvOpTypeFloat: case SpvOpTypeBool: case SpvOpTypeSampler: case SpvOpTypeStruct:
    case SpvOpTypeSampledImage:
        result = w[1]; break;
    case SpvOpTypeVector: case SpvOpTypeArray: case SpvOpTypePointer:
        result = w[1]; a = w[2]; b = len >= 4 ? w[3] : 0; break;
    case SpvOpTypeRuntimeArray: result = w[1]; a = w[2]; break;
    case SpvOpTypeImage: result = w[1]; b = len >= 4 ? w[3] : 0; c = len >= 8 ? w[7] : 0; break;
    case SpvOpConstant: result = len >= 3 ? w[2] : 0; a = len >= 4 ? w[3] : 0; break;
    case SpvOpVariable: result = len >= 3 ? w[2] : 0; a = w[1]; b = len >= 4 ? w[3] : 0; break;
    default: return;
    }
    struct id_info *d = id(r, result);
    d->op = op;
    d->a = a;
    d->b = b;
    d->c = c;
}

static uint32_t descriptor_type(struct reader *r, uint32_t sc, uint32_t type)
{
    while (id(r, type)->op == SpvOpTypeArray || id(r, type)->op == SpvOpTypeRuntimeArray)
        type = id(r, type)->a;
    const struct id_info *t = id(r, type);
    if (sc == SpvStorageClassStorageBuffer || (sc == SpvStorageClassUniform && t->buffer_block))
        return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (sc == SpvStorageClassUniform)
        return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (t->op == SpvOpTypeSampler)
        return VK_DESCRIPTOR_TYPE_SAMPLER;
    if (t->op == SpvOpTypeSampledImage)
        return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    if (t->op == SpvOpTypeImage && t->b == SpvDimBuffer)
        return t->c == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                         : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    if (t->op == SpvOpTypeImage)
        return t->c == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    return 0xFFFFFFFFu;
}

/* "cb0_0" -> CBV 0, "u12" -> UAV 12, "t3" -> SRV 3, "s1" -> sampler 1. */
static void register_of(const char *name, uint32_t *cls, uint32_t *reg)
{
    static const struct {
        const char *prefix;
        uint32_t cls;
    } prefixes[] = { { "cb", 0 }, { "t", 1 }, { "s", 2 }, { "u", 3 } };
    *cls = 0xFF;
    *reg = 0;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        size_t n = strlen(prefixes[i].prefix);
        if (strncmp(name, prefixes[i].prefix, n) == 0 && name[n] >= '0' && name[n] <= '9') {
            *cls = prefixes[i].cls;
            *reg = (uint32_t)strtoul(name + n, NULL, 10);
            return;
        }
    }
}

static uint32_t array_length(struct reader *r, uint32_t type)
{
    const struct id_info *len = id(r, id(r, type)->b);
    return len->op == SpvOpConstant ? len->a : 1;
}

static void add_builtins(struct reader *r, uint32_t pointee, const struct id_info *var,
                         uint32_t *list, uint32_t *count)
{
    while (id(r, pointee)->op == SpvOpTypeArray || id(r, pointee)->op == SpvOpTypeRuntimeArray)
        pointee = id(r, pointee)->a;
    const struct id_info *s = id(r, pointee);
    if (var->has_builtin && *count < VKR_MAX_BUILTINS)
        list[(*count)++] = var->builtin;
    for (uint32_t i = 0; i < s->member_builtin_count && *count < VKR_MAX_BUILTINS; i++)
        list[(*count)++] = s->member_builtins[i];
}

/* Interface entries of one Input/Output variable (one per location it covers). */
static void add_interface(struct reader *r, const struct id_info *var, uint32_t pointee,
                          bool per_vertex, struct sb_translated_interface *list, uint32_t *count)
{
    uint32_t outer = 0, elements = 1, type = pointee;
    if (per_vertex && id(r, type)->op == SpvOpTypeArray) {
        outer = array_length(r, type);
        type = id(r, type)->a;
    }
    if (id(r, type)->op == SpvOpTypeArray) {
        elements = array_length(r, type);
        type = id(r, type)->a;
    }
    uint32_t components = 1;
    if (id(r, type)->op == SpvOpTypeVector) {
        components = id(r, type)->b;
        type = id(r, type)->a;
    }
    const struct id_info *scalar = id(r, type);
    uint32_t ir_type = scalar->op == SpvOpTypeFloat ? SB_IR_TYPE_FLOAT
                       : scalar->b                  ? SB_IR_TYPE_INT
                                                    : SB_IR_TYPE_UINT;
    for (uint32_t e = 0; e < elements && *count < VKR_MAX_VARS; e++)
        list[(*count)++] = (struct sb_translated_interface){
            .location = var->location + e, .component = var->component,
            .component_count = components, .component_type = ir_type,
            .array_size = outer, .patch = var->patch,
        };
}

static const uint32_t stage_of_model[6] = {
    SB_IR_STAGE_VERTEX, SB_IR_STAGE_HULL, SB_IR_STAGE_DOMAIN,
    SB_IR_STAGE_GEOMETRY, SB_IR_STAGE_PIXEL, SB_IR_STAGE_COMPUTE,
};

static void variables(struct reader *r, struct vkr_storage *s, struct sb_translation *t)
{
    for (uint32_t i = 1; i < r->bound; i++) {
        const struct id_info *v = &r->ids[i];
        if (v->op != SpvOpVariable)
            continue;
        uint32_t sc = v->b, pointee = id(r, v->a)->b;
        bool input = sc == SpvStorageClassInput, output = sc == SpvStorageClassOutput;
        if (input || output) {
            bool builtin = v->has_builtin || id(r, pointee)->member_builtin_count ||
                           (id(r, pointee)->op == SpvOpTypeArray &&
                            id(r, id(r, pointee)->a)->member_builtin_count);
            bool per_vertex = !v->patch && ((input && (t->stage == SB_IR_STAGE_GEOMETRY ||
                                                        t->stage == SB_IR_STAGE_HULL ||
                                                        t->stage == SB_IR_STAGE_DOMAIN)) ||
                                            (output && t->stage == SB_IR_STAGE_HULL));
            if (builtin && input)
                add_builtins(r, pointee, v, s->builtin_inputs, &t->builtin_input_count);
            else if (builtin)
                add_builtins(r, pointee, v, s->builtin_outputs, &t->builtin_output_count);
            else if (v->has_location && input)
                add_interface(r, v, pointee, per_vertex, s->inputs, &t->input_count);
            else if (v->has_location)
                add_interface(r, v, pointee, per_vertex, s->outputs, &t->output_count);
            if (input && per_vertex && !builtin && id(r, pointee)->op == SpvOpTypeArray &&
                !t->patch_control_points)
                t->patch_control_points = array_length(r, pointee);
            continue;
        }
        if (!v->has_binding || t->binding_count == VKR_MAX_BINDINGS)
            continue;
        struct sb_translated_binding *b = &s->bindings[t->binding_count++];
        memset(b, 0, sizeof(*b));
        register_of(v->name, &b->resource_class, &b->lower_bound);
        b->count = id(r, pointee)->op == SpvOpTypeArray ? array_length(r, pointee) : 1;
        b->set = v->set;
        b->binding = v->binding;
        b->descriptor_type = descriptor_type(r, sc, pointee);
    }
}

bool vkr_translation_from_spirv(const uint32_t *words, size_t count, struct vkr_storage *s,
                                struct sb_translation *t)
{
    memset(t, 0, sizeof(*t));
    if (count < 5 || words[0] != SpvMagicNumber || words[3] > MAX_IDS)
        return false;
    struct reader r = { .w = words, .count = count, .bound = words[3] };
    r.ids = calloc(r.bound, sizeof(*r.ids));
    if (!r.ids)
        return false;
    for (size_t i = 5; i < count;) {
        uint32_t len = words[i] >> 16;
        if (len == 0 || i + len > count)
            break;
        record(&r, words[i] & 0xffff, &words[i], len);
        i += len;
    }
    bool ok = r.entry_id != 0 && r.model < 6;
    if (ok) {
        t->stage = stage_of_model[r.model];
        t->words = words;
        t->word_count = count;
        snprintf(s->entry, sizeof(s->entry), "%.*s", (int)r.entry_name_max, r.entry_name);
        t->entry_point = s->entry;
        t->bindings = s->bindings;
        t->inputs = s->inputs;
        t->outputs = s->outputs;
        t->builtin_inputs = s->builtin_inputs;
        t->builtin_outputs = s->builtin_outputs;
        variables(&r, s, t);
    }
    free(r.ids);
    return ok;
}

/* ---- report check ------------------------------------------------------ */

static bool same_var(const struct sb_translated_interface *a, const struct sb_translated_interface *b)
{
    return a->location == b->location && a->component == b->component &&
           a->component_count == b->component_count && a->component_type == b->component_type &&
           a->array_size == b->array_size && a->patch == b->patch;
}

/* Every entry of `want` is in `have` (and the counts agree). */
static bool vars_match(const char *what, const struct sb_translated_interface *want,
                       uint32_t want_count, const struct sb_translated_interface *have,
                       uint32_t have_count, char *why, size_t why_size)
{
    for (uint32_t i = 0; i < want_count; i++) {
        bool found = false;
        for (uint32_t j = 0; j < have_count && !found; j++)
            found = same_var(&want[i], &have[j]);
        if (!found) {
            snprintf(why, why_size, "module %s location %u component %u (%u x type %u, "
                     "array %u, patch %d) is not reported as such", what, want[i].location,
                     want[i].component, want[i].component_count, want[i].component_type,
                     want[i].array_size, want[i].patch);
            return false;
        }
    }
    if (want_count != have_count) {
        snprintf(why, why_size, "module has %u %s entries, translation reports %u", want_count,
                 what, have_count);
        return false;
    }
    return true;
}

static bool builtins_match(const char *what, const uint32_t *want, uint32_t want_count,
                           const uint32_t *have, uint32_t have_count, char *why, size_t why_size)
{
    for (int pass = 0; pass < 2; pass++) {
        const uint32_t *a = pass ? have : want, *b = pass ? want : have;
        uint32_t an = pass ? have_count : want_count, bn = pass ? want_count : have_count;
        for (uint32_t i = 0; i < an; i++) {
            bool found = false;
            for (uint32_t j = 0; j < bn && !found; j++)
                found = a[i] == b[j];
            if (!found) {
                snprintf(why, why_size, "built-in %s %u is %s", what, a[i],
                         pass ? "reported but not in the module" : "in the module but not reported");
                return false;
            }
        }
    }
    return true;
}

static bool bindings_match(const struct sb_translation *module, const struct sb_translation *t,
                           char *why, size_t why_size)
{
    for (uint32_t i = 0; i < module->binding_count; i++) {
        const struct sb_translated_binding *m = &module->bindings[i];
        bool found = false;
        for (uint32_t j = 0; j < t->binding_count && !found; j++) {
            const struct sb_translated_binding *r = &t->bindings[j];
            found = (r->set == m->set && r->binding == m->binding &&
                     r->descriptor_type == m->descriptor_type) ||
                    (r->has_counter && r->set == m->set && r->counter_binding == m->binding);
        }
        if (!found) {
            snprintf(why, why_size, "module binding set %u binding %u (descriptor type %u) "
                     "is not reported", m->set, m->binding, m->descriptor_type);
            return false;
        }
    }
    return true;
}

bool vkr_check_report(const struct sb_translation *t, char *why, size_t why_size)
{
    static struct vkr_storage s;
    struct sb_translation module;
    if (!vkr_translation_from_spirv(t->words, t->word_count, &s, &module)) {
        snprintf(why, why_size, "the module cannot be read back");
        return false;
    }
    if (module.stage != t->stage) {
        snprintf(why, why_size, "stage %u, module's entry point is stage %u", t->stage,
                 module.stage);
        return false;
    }
    return bindings_match(&module, t, why, why_size) &&
           vars_match("Input", module.inputs, module.input_count, t->inputs, t->input_count, why,
                      why_size) &&
           vars_match("Output", module.outputs, module.output_count, t->outputs, t->output_count,
                      why, why_size) &&
           builtins_match("input", module.builtin_inputs, module.builtin_input_count,
                          t->builtin_inputs, t->builtin_input_count, why, why_size) &&
           builtins_match("output", module.builtin_outputs, module.builtin_output_count,
                          t->builtin_outputs, t->builtin_output_count, why, why_size);
}
