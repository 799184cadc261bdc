/* SPDX-License-Identifier: MIT */
/*
 * PointSize for point-list draws. Vulkan rasterises a point at the size the
 * last pre-rasterisation stage writes to PointSize, and when that stage is
 * the vertex shader it must write it (without VK_KHR_maintenance5 the size is
 * otherwise undefined, and the validation layer reports the pipeline). D3D
 * has no point size — points are one pixel — so translated vertex shaders
 * never write it. sb_rt_draw_points therefore draws with a copy of the vertex
 * module that adds, following the module's logical layout:
 *   - the new variable to the Vertex OpEntryPoint's interface,
 *   - OpDecorate %var BuiltIn PointSize at the start of the annotations,
 *   - (OpTypeFloat 32 when the module has none,) OpTypePointer Output %float,
 *     OpConstant %float 1.0 and the Output OpVariable after the other globals,
 *   - OpStore %var %one at the top of the entry function's first block (after
 *     its OpVariables), so every path through the shader writes it.
 * Duplicate pointer types and constants are valid SPIR-V, so no existing id
 * has to be looked up except a 32-bit float type.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_draw_private.h"

enum {
    OP_LINE = 8, OP_TYPE_FLOAT = 22, OP_TYPE_POINTER = 32, OP_CONSTANT = 43, OP_FUNCTION = 54,
    OP_VARIABLE = 59, OP_STORE = 62, OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_LABEL = 248,
    OP_NO_LINE = 317, OP_ENTRY_POINT = 15,
    DECORATION_BUILTIN = 11, BUILTIN_POINT_SIZE = 1, STORAGE_OUTPUT = 3, MODEL_VERTEX = 0,
};

/* Opcodes of the sections before the annotations (capabilities ... debug names). */
static bool before_annotations(uint32_t op)
{
    static const uint16_t ops[] = { 0, 2, 3, 4, 5, 6, 7, 10, 11, 14, 15, 16, 17, 330, 331 };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (ops[i] == op)
            return true;
    return false;
}

/* Where the additions go (word indices into the module). */
struct scan {
    size_t entry;            /* the Vertex OpEntryPoint */
    uint32_t function;       /* its function id */
    size_t annotations;      /* first instruction after the debug section */
    size_t functions;        /* first OpFunction */
    size_t body;             /* first instruction of the entry function that is not an OpVariable / line */
    uint32_t float_type;     /* an OpTypeFloat 32, or 0 */
    bool has_point_size;
};

static void scan_instruction(const uint32_t *w, size_t i, struct scan *s, int *entry_state)
{
    uint32_t length = w[i] >> 16, op = w[i] & 0xffffu;
    if (!s->annotations && !before_annotations(op))
        s->annotations = i;
    if (op == OP_ENTRY_POINT && length >= 3 && w[i + 1] == MODEL_VERTEX && !s->entry) {
        s->entry = i;
        s->function = w[i + 2];
    } else if (op == OP_DECORATE && length >= 4 && w[i + 2] == DECORATION_BUILTIN &&
               w[i + 3] == BUILTIN_POINT_SIZE) {
        s->has_point_size = true;
    } else if (op == OP_MEMBER_DECORATE && length >= 5 && w[i + 3] == DECORATION_BUILTIN &&
               w[i + 4] == BUILTIN_POINT_SIZE) {
        s->has_point_size = true;
    } else if (op == OP_TYPE_FLOAT && length == 3 && w[i + 2] == 32 && !s->float_type) {
        s->float_type = w[i + 1];
    }
    /* entry_state: 0 outside the entry function, 1 in it before its first label, 2 after it. */
    if (op == OP_FUNCTION && length >= 3) {
        if (!s->functions)
            s->functions = i;
        *entry_state = s->entry && w[i + 2] == s->function && !s->body ? 1 : 0;
    } else if (*entry_state == 1 && op == OP_LABEL) {
        *entry_state = 2;
    } else if (*entry_state == 2 && op != OP_VARIABLE && op != OP_LINE && op != OP_NO_LINE) {
        s->body = i;
        *entry_state = 0;
    }
}

static enum sb_result scan_module(const uint32_t *w, size_t n, struct scan *s, struct sb_error *error)
{
    memset(s, 0, sizeof(*s));
    if (n < 5 || w[0] != 0x07230203u)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "the vertex module is not SPIR-V");
    int entry_state = 0;
    for (size_t i = 5; i < n;) {
        uint32_t length = w[i] >> 16;
        if (length == 0 || length > n - i)
            return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "the vertex module has a malformed "
                              "instruction at word %zu", i);
        scan_instruction(w, i, s, &entry_state);
        i += length;
    }
    if (!s->has_point_size && (!s->entry || !s->annotations || !s->functions || !s->body ||
                               s->entry > s->annotations || s->annotations > s->functions ||
                               s->functions > s->body))
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "the vertex module has no Vertex entry point "
                          "with a body where PointSize could be written");
    return SB_SUCCESS;
}

struct emitter {
    uint32_t *out;
    size_t n;
};

static void emit(struct emitter *e, uint32_t word)
{
    e->out[e->n++] = word;
}

static void copy(struct emitter *e, const uint32_t *w, size_t from, size_t to)
{
    memcpy(e->out + e->n, w + from, (to - from) * sizeof(uint32_t));
    e->n += to - from;
}

static void emit_op(struct emitter *e, uint32_t op, uint32_t count, const uint32_t *operands)
{
    emit(e, (count + 1) << 16 | op);
    for (uint32_t i = 0; i < count; i++)
        emit(e, operands[i]);
}

enum sb_result sb_vk_add_point_size(const uint32_t *words, size_t word_count, uint32_t **out,
                                    size_t *out_count, struct sb_error *error)
{
    *out = NULL;
    *out_count = 0;
    struct scan s;
    enum sb_result res = scan_module(words, word_count, &s, error);
    if (res != SB_SUCCESS || s.has_point_size)
        return res;
    uint32_t bound = words[3];
    uint32_t float_type = s.float_type ? s.float_type : bound + 3;
    uint32_t pointer = bound, var = bound + 1, one = bound + 2;
    if (bound > UINT32_MAX - 4 || (words[s.entry] >> 16) >= 0xffffu)
        return sb_vk_fail(error, SB_ERROR_INVALID_ARGUMENT, "the vertex module has no room for PointSize");
    /* interface id + OpDecorate + [OpTypeFloat] + pointer, constant, variable + OpStore */
    size_t extra = 1 + 4 + (s.float_type ? 0 : 3) + 4 + 4 + 4 + 3;
    struct emitter e = { malloc((word_count + extra) * sizeof(uint32_t)), 0 };
    if (!e.out)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, "sb_rt_draw_points: out of memory");
    size_t entry_end = s.entry + (words[s.entry] >> 16);
    copy(&e, words, 0, s.entry);
    e.out[3] = bound + (s.float_type ? 3 : 4);
    emit(&e, words[s.entry] + (1u << 16));
    copy(&e, words, s.entry + 1, entry_end);
    emit(&e, var);
    copy(&e, words, entry_end, s.annotations);
    emit_op(&e, OP_DECORATE, 3, (const uint32_t[]){ var, DECORATION_BUILTIN, BUILTIN_POINT_SIZE });
    copy(&e, words, s.annotations, s.functions);
    if (!s.float_type)
        emit_op(&e, OP_TYPE_FLOAT, 2, (const uint32_t[]){ float_type, 32 });
    emit_op(&e, OP_TYPE_POINTER, 3, (const uint32_t[]){ pointer, STORAGE_OUTPUT, float_type });
    emit_op(&e, OP_CONSTANT, 3, (const uint32_t[]){ float_type, one, 0x3f800000u });
    emit_op(&e, OP_VARIABLE, 3, (const uint32_t[]){ pointer, var, STORAGE_OUTPUT });
    copy(&e, words, s.functions, s.body);
    emit_op(&e, OP_STORE, 2, (const uint32_t[]){ var, one });
    copy(&e, words, s.body, word_count);
    *out = e.out;
    *out_count = e.n;
    return SB_SUCCESS;
}
