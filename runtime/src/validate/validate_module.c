/* SPDX-License-Identifier: MIT */
/*
 * A caller's SPIR-V module on the GPU side of sb_validate
 * (sb_validate_options::gpu_spirv, validate.h): the interpreter still runs the
 * program, the device runs the module, so `validate` judges any compiler's output
 * (or a deliberately broken one, tests/validate/test_validate_mutants.c) by the same
 * inputs and the same comparison.
 *
 * Why the module is read here before any device sees it: the words come from a
 * file, and a driver given a module with a bad header, an unterminated string or a
 * resource at a binding the pipeline layout lacks may crash rather than fail. So the
 * header and every instruction's length are checked word by word, the entry point is
 * found by stage, SPIRV-Tools validates the module for the Vulkan version its SPIR-V
 * version implies, and every descriptor the module declares must be one the layout
 * (the translation's bindings, moved by gpu_bindings) will have.
 *
 * The result is a copy of the program whose translation is a copy of the program's
 * own with the module's words, entry point and the moved bindings: the harnesses need
 * nothing else (the stage interface and descriptor types are the translation's,
 * which the module must share: validate.h).
 */
#include "validate_private.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

struct sb_validate_module {
    struct sb_rt_program program;          /* the caller's, with `translation` below */
    struct sb_translation translation;     /* the program's, with the module's words */
    struct sb_translated_binding *bindings; /* owned: the translation's, moved */
    char *entry_point;                      /* owned copy of the chosen name */
};

/* Execution model a program of `stage` needs, or -1 when a caller's module cannot stand in. */
static int32_t execution_model(enum sb_ir_stage stage)
{
    switch (stage) {
    case SB_IR_STAGE_COMPUTE: return SpvExecutionModelGLCompute;
    case SB_IR_STAGE_VERTEX: return SpvExecutionModelVertex;
    case SB_IR_STAGE_PIXEL: return SpvExecutionModelFragment;
    default: return -1;
    }
}

static const char *model_name(int32_t model)
{
    return model == SpvExecutionModelGLCompute ? "GLCompute"
           : model == SpvExecutionModelVertex  ? "Vertex"
                                               : "Fragment";
}

/* A descriptor the module declares: variable `id` at set/binding, once both are decorated. */
struct resource_var {
    uint32_t id;
    uint32_t set, binding;
    uint8_t decorated;       /* bit 0: DescriptorSet seen, bit 1: Binding seen */
    bool resource;           /* an OpVariable of a descriptor storage class */
    uint64_t offset;         /* byte offset of its OpVariable, for the message */
};

/* What one pass over the module found. */
struct module_scan {
    uint32_t entry_count;    /* entry points of the wanted model (matching the name if given) */
    size_t entry_word;       /* the first one's OpEntryPoint */
    struct resource_var *vars;
    uint32_t var_count, var_capacity;
};

static struct resource_var *var_for(struct module_scan *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->var_count; i++)
        if (s->vars[i].id == id)
            return &s->vars[i];
    if (s->var_count == s->var_capacity) {
        uint32_t capacity = s->var_capacity ? s->var_capacity * 2 : 16;
        struct resource_var *grown = realloc(s->vars, capacity * sizeof(*grown));
        if (!grown)
            return NULL;
        s->vars = grown;
        s->var_capacity = capacity;
    }
    struct resource_var *v = &s->vars[s->var_count++];
    memset(v, 0, sizeof(*v));
    v->id = id;
    return v;
}

/* Length in words of the NUL-terminated literal string starting at words[at] inside an
 * instruction ending before words[end], or 0 when no NUL comes before the end. */
static size_t string_words(const uint32_t *words, size_t at, size_t end)
{
    for (size_t i = at; i < end; i++) {
        uint32_t w = words[i];
        for (int b = 0; b < 4; b++)
            if (((w >> (8 * b)) & 0xffu) == 0)
                return i - at + 1;
    }
    return 0;
}

static bool string_equals(const uint32_t *words, size_t at, size_t count, const char *name)
{
    size_t length = strlen(name);
    if (length + 1 > count * 4)
        return false;
    for (size_t k = 0; k <= length; k++)
        if (((words[at + k / 4] >> (8 * (k % 4))) & 0xffu) != (uint8_t)name[k])
            return false;
    return true;
}

/* The header: 5 words, the magic in host order, SPIR-V 1.0-1.6. */
static enum sb_result check_header(const uint32_t *words, size_t count, struct sb_error *error)
{
    if (!words || count < 5)
        return sb_error_set(error, SB_ERROR_TRUNCATED, 0, SB_ERROR_NO_INSTR,
                            "SPIR-V module: %zu words, fewer than the 5 of a SPIR-V header", words ? count : 0);
    if (words[0] != SpvMagicNumber)
        return sb_error_set(error, SB_ERROR_BAD_MAGIC, 0, SB_ERROR_NO_INSTR,
                            "SPIR-V module: magic 0x%08x, not SPIR-V's 0x%08x%s", words[0], SpvMagicNumber,
                            words[0] == 0x03022307u ? " (a module of the other byte order)" : "");
    uint32_t major = words[1] >> 16 & 0xffu, minor = words[1] >> 8 & 0xffu;
    if (major != 1 || minor > 6)
        return sb_error_set(error, SB_ERROR_BAD_VERSION, 4, SB_ERROR_NO_INSTR,
                            "SPIR-V module: SPIR-V version %u.%u (0x%08x); Vulkan takes 1.0 to 1.6", major, minor,
                            words[1]);
    return SB_SUCCESS;
}

/* One OpEntryPoint at words[i] (length n): counted when its model and name fit. */
static enum sb_result scan_entry_point(const uint32_t *words, size_t i, size_t n, int32_t model, const char *name,
                                       uint32_t index, struct module_scan *s, struct sb_error *error)
{
    if (n < 4)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, i * 4, index,
                            "SPIR-V module: OpEntryPoint of %zu words, fewer than the 4 it needs", n);
    size_t name_words = string_words(words, i + 3, i + n);
    if (!name_words)
        return sb_error_set(error, SB_ERROR_BAD_STRING, (i + 3) * 4, index,
                            "SPIR-V module: the entry point name runs past its instruction's %zu words", n);
    if (words[i + 1] != (uint32_t)model || (name && !string_equals(words, i + 3, name_words, name)))
        return SB_SUCCESS;
    if (!s->entry_count++)
        s->entry_word = i;
    return SB_SUCCESS;
}

/* Every instruction's length checked; entry points of `model`, and descriptor variables. */
static enum sb_result scan_module(const uint32_t *words, size_t count, int32_t model, const char *name,
                                  struct module_scan *s, struct sb_error *error)
{
    uint32_t index = 0;
    for (size_t i = 5; i < count; index++) {
        uint32_t op = words[i] & 0xffffu;
        size_t n = words[i] >> 16;
        if (n == 0)
            return sb_error_set(error, SB_ERROR_BAD_SIZE, i * 4, index,
                                "SPIR-V module: instruction %u (opcode %u) claims 0 words", index, op);
        if (n > count - i)
            return sb_error_set(error, SB_ERROR_TRUNCATED, i * 4, index,
                                "SPIR-V module: instruction %u (opcode %u) of %zu words runs past the module's end "
                                "at word %zu", index, op, n, count);
        enum sb_result r = SB_SUCCESS;
        struct resource_var *v = NULL;
        if (op == SpvOpEntryPoint) {
            r = scan_entry_point(words, i, n, model, name, index, s, error);
        } else if (op == SpvOpDecorate && n >= 4 &&
                   (words[i + 2] == SpvDecorationDescriptorSet || words[i + 2] == SpvDecorationBinding)) {
            if (!(v = var_for(s, words[i + 1])))
                return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory reading gpu_spirv");
            if (words[i + 2] == SpvDecorationDescriptorSet)
                v->set = words[i + 3];
            else
                v->binding = words[i + 3];
            v->decorated |= words[i + 2] == SpvDecorationDescriptorSet ? 1u : 2u;
        } else if (op == SpvOpVariable && n >= 4 &&
                   (words[i + 3] == SpvStorageClassUniformConstant || words[i + 3] == SpvStorageClassUniform ||
                    words[i + 3] == SpvStorageClassStorageBuffer)) {
            if (!(v = var_for(s, words[i + 2])))
                return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory reading gpu_spirv");
            v->resource = true;
            v->offset = i * 4;
        }
        if (r != SB_SUCCESS)
            return r;
        i += n;
    }
    if (s->entry_count == 1)
        return SB_SUCCESS;
    char named[80] = "";
    if (name)
        snprintf(named, sizeof(named), " named '%.60s'", name);
    if (!s->entry_count)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "SPIR-V module: no %s entry point%s, which the program's stage needs", model_name(model),
                            named);
    return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                        "SPIR-V module: %u %s entry points%s; name one (sb_validate_options::gpu_entry_point)",
                        s->entry_count, model_name(model), named);
}

static const char *class_letter(enum sb_ir_resource_class c)
{
    static const char *const letters[] = { "cb", "t", "s", "u" };
    return (uint32_t)c < sizeof(letters) / sizeof(letters[0]) ? letters[c] : "?";
}

/* The translation's bindings with gpu_bindings applied, each moved register found once. */
static enum sb_result move_bindings(struct sb_translated_binding *b, uint32_t count,
                                    const struct sb_binding_override *moves, uint32_t move_count,
                                    struct sb_error *error)
{
    bool *moved = calloc(count ? count : 1, sizeof(*moved));
    if (!moved)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory moving bindings");
    enum sb_result r = SB_SUCCESS;
    for (uint32_t m = 0; m < move_count && r == SB_SUCCESS; m++) {
        const struct sb_binding_override *o = &moves[m];
        uint32_t k = 0;
        while (k < count && !(b[k].resource_class == o->resource_class && b[k].space == o->space &&
                              b[k].lower_bound == o->register_index))
            k++;
        if (k == count)
            r = sb_error_set(error, SB_ERROR_RUN_BINDING, 0, SB_ERROR_NO_INSTR,
                             "binding map entry %u: %s%u in space %u is no register the program declares", m,
                             class_letter(o->resource_class), o->register_index, o->space);
        else if (moved[k])
            r = sb_error_set(error, SB_ERROR_RUN_BINDING, 0, SB_ERROR_NO_INSTR,
                             "binding map entry %u: %s%u in space %u is moved twice", m,
                             class_letter(o->resource_class), o->register_index, o->space);
        else {
            moved[k] = true;
            b[k].set = o->set;
            b[k].binding = o->binding;
            if (b[k].has_counter)
                b[k].counter_binding = o->counter_binding;
        }
    }
    free(moved);
    /* Two registers (or a register and a counter) at one slot would make an invalid set
     * layout: refuse it by name. Slot 2k is b[k]'s binding, 2k + 1 its counter's. */
    for (uint32_t x = 0; x < count * 2 && r == SB_SUCCESS; x++)
        for (uint32_t y = x + 1; y < count * 2 && r == SB_SUCCESS; y++) {
            const struct sb_translated_binding *bx = &b[x / 2], *by = &b[y / 2];
            if (((x & 1) && !bx->has_counter) || ((y & 1) && !by->has_counter) || bx->set != by->set)
                continue;
            uint32_t slot_x = x & 1 ? bx->counter_binding : bx->binding;
            uint32_t slot_y = y & 1 ? by->counter_binding : by->binding;
            if (slot_x == slot_y)
                r = sb_error_set(error, SB_ERROR_RUN_BINDING, 0, SB_ERROR_NO_INSTR,
                                 "binding map: %s%u%s (space %u) and %s%u%s (space %u) share set %u binding %u",
                                 class_letter(bx->resource_class), bx->lower_bound, x & 1 ? "'s counter" : "",
                                 bx->space, class_letter(by->resource_class), by->lower_bound,
                                 y & 1 ? "'s counter" : "", by->space, bx->set, slot_x);
        }
    return r;
}

/* Every descriptor the module declares must be one the pipeline layout will have. */
static enum sb_result check_descriptors(const struct module_scan *s, const struct sb_translated_binding *b,
                                        uint32_t count, struct sb_error *error)
{
    for (uint32_t v = 0; v < s->var_count; v++) {
        const struct resource_var *var = &s->vars[v];
        if (!var->resource || var->decorated != 3)
            continue;
        bool found = false;
        for (uint32_t k = 0; k < count && !found; k++)
            found = b[k].set == var->set &&
                    (b[k].binding == var->binding || (b[k].has_counter && b[k].counter_binding == var->binding));
        if (!found)
            return sb_error_set(error, SB_ERROR_RUN_BINDING, var->offset, SB_ERROR_NO_INSTR,
                                "SPIR-V module: variable %%%u at set %u binding %u is no binding of the program's "
                                "registers (the default scheme, or the binding map)", var->id, var->set, var->binding);
    }
    return SB_SUCCESS;
}

/* The Vulkan environment whose SPIR-V version range holds the module's version. */
static enum sb_target_env env_for(uint32_t version_word)
{
    uint32_t minor = version_word >> 8 & 0xffu;
    return minor == 0 ? SB_TARGET_VULKAN_1_0
           : minor <= 3 ? SB_TARGET_VULKAN_1_1
           : minor <= 5 ? SB_TARGET_VULKAN_1_2
                        : SB_TARGET_VULKAN_1_3;
}

static enum sb_result build(struct sb_validate_module *m, const struct sb_rt_program *program,
                            const struct sb_validate_options *o, struct sb_error *error)
{
    const struct sb_translation *t = program->translation;
    int32_t model = execution_model(program->stage);
    if (model < 0 || !t)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED,
                                "SPIR-V module: a module stands in for compute, vertex and pixel programs only "
                                "(geometry, hull and domain validation run instrumented copies of ours)");
    enum sb_result r = check_header(o->gpu_spirv, o->gpu_spirv_words, error);
    struct module_scan scan = { 0 };
    if (r == SB_SUCCESS)
        r = scan_module(o->gpu_spirv, o->gpu_spirv_words, model, o->gpu_entry_point, &scan, error);
    if (r == SB_SUCCESS)
        r = sb_spirv_validate(o->gpu_spirv, o->gpu_spirv_words, env_for(o->gpu_spirv[1]), error);
    if (r == SB_SUCCESS) {
        m->bindings = malloc((t->binding_count ? t->binding_count : 1) * sizeof(*m->bindings));
        if (!m->bindings)
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory moving bindings");
        else if (t->binding_count)
            memcpy(m->bindings, t->bindings, t->binding_count * sizeof(*m->bindings));
    }
    if (r == SB_SUCCESS && o->gpu_binding_count && !o->gpu_bindings)
        r = sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "gpu_binding_count without gpu_bindings");
    if (r == SB_SUCCESS)
        r = move_bindings(m->bindings, t->binding_count, o->gpu_bindings, o->gpu_binding_count, error);
    if (r == SB_SUCCESS)
        r = check_descriptors(&scan, m->bindings, t->binding_count, error);
    if (r == SB_SUCCESS) {
        const uint32_t *w = o->gpu_spirv;
        size_t at = scan.entry_word + 3, n = w[scan.entry_word] >> 16;
        size_t bytes = string_words(w, at, scan.entry_word + n) * 4;
        if (!(m->entry_point = malloc(bytes)))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory reading gpu_spirv");
        else /* SPIR-V packs a string's first byte in a word's lowest 8 bits; the NUL is inside */
            for (size_t k = 0; k < bytes; k++)
                m->entry_point[k] = (char)(w[at + k / 4] >> (8 * (k % 4)) & 0xffu);
    }
    free(scan.vars);
    if (r != SB_SUCCESS)
        return r;
    m->translation = *t;
    m->translation.words = o->gpu_spirv;
    m->translation.word_count = o->gpu_spirv_words;
    m->translation.entry_point = m->entry_point;
    m->translation.bindings = m->bindings;
    /* Our capabilities' origins say nothing of another translator's module. */
    m->translation.capability_origin_count = 0;
    m->translation.capability_origins = NULL;
    m->program = *program;
    m->program.translation = &m->translation;
    return SB_SUCCESS;
}

enum sb_result sb_validate_module_create(const struct sb_rt_program *program, const struct sb_validate_options *o,
                                         struct sb_validate_module **out, struct sb_error *error)
{
    *out = NULL;
    if (!o || (!o->gpu_spirv && !o->gpu_spirv_words))
        return SB_SUCCESS;
    struct sb_validate_module *m = calloc(1, sizeof(*m));
    if (!m)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory reading gpu_spirv");
    enum sb_result r = build(m, program, o, error);
    if (r != SB_SUCCESS) {
        sb_validate_module_destroy(m);
        return r;
    }
    *out = m;
    return SB_SUCCESS;
}

const struct sb_rt_program *sb_validate_module_program(const struct sb_validate_module *module)
{
    return &module->program;
}

void sb_validate_module_destroy(struct sb_validate_module *module)
{
    if (!module)
        return;
    free(module->bindings);
    free(module->entry_point);
    free(module);
}

enum sb_result sb_validate_gpu_module_check(const struct sb_rt_program *program,
                                            const struct sb_validate_options *options, struct sb_error *error)
{
    if (!program)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_validate_gpu_module_check: no program");
    struct sb_validate_module *module = NULL;
    enum sb_result r = sb_validate_module_create(program, options, &module, error);
    sb_validate_module_destroy(module);
    return r;
}
