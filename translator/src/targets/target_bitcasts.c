/* SPDX-License-Identifier: MIT */
/*
 * sb_target_split_bitcasts (targets_private.h): the SPIRV-Cross of Debian 12 drops every
 * OpBitcast between 64-bit and 32-bit components (`double d = (uvec2_value);`, which no
 * compiler takes), and the back end builds every D3D double from two 32-bit register
 * lanes with exactly such bitcasts. Before SPIRV-Cross reads the module, a copy has each
 * of them spelled with GLSL.std.450's PackDouble2x32 / UnpackDouble2x32 (which take and
 * give a uint 2-vector), which every target writes correctly:
 *   double  <- 2 x 32      PackDouble2x32(bitcast<uvec2>(a))
 *   2 x 32  <- double      bitcast<T>(UnpackDouble2x32(a))
 *   dvec2   <- 4 x 32      (Pack(a.xy), Pack(a.zw))
 *   4 x 32  <- dvec2       (Unpack(a.x), Unpack(a.y)).xyzw
 * (the bitcast to or from uvec2 left out where the type already is one). The module is
 * parsed by SPIRV-Tools (type and result ids of every instruction); one it cannot parse,
 * or without the types a rewrite needs, is handed on unchanged.
 */
#include "targets_private.h"

#include <stdlib.h>
#include <string.h>

#include <GLSL.std.450.h>
/* libspirv.h defines (not declares) a non-static const kDefaultMaxIdBound when read as C;
 * spirv/spirv_tools.c defines it already, so this file's copy gets a name of its own. */
#define kDefaultMaxIdBound sb_target_bitcasts_default_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

/* What the rewrite needs to know of each id (indexed by id, below the module's bound). */
struct id_facts {
    uint32_t type;       /* the type of a result id */
    uint32_t component;  /* a vector type: its component type; a scalar type: itself */
    uint8_t count;       /* components of a scalar or vector type; 0 for other ids */
    uint8_t width;       /* bits of a scalar or vector type's component */
    bool is_float;
};

struct scan {
    const uint32_t *words; /* the module */
    struct id_facts *ids;
    uint32_t bound;
    uint32_t glsl;        /* the GLSL.std.450 import, or 0 */
    uint32_t uint32;      /* the 32-bit unsigned integer type, or 0 */
    size_t bitcasts;      /* bitcasts between 64- and 32-bit components */
    size_t memory_model;  /* word index of OpMemoryModel */
};

static bool crossing(const struct scan *s, uint32_t to, uint32_t from)
{
    if (to >= s->bound || from >= s->bound)
        return false;
    const struct id_facts *a = &s->ids[to], *b = &s->ids[from];
    return a->count && b->count && a->width != b->width && (a->width == 64 || b->width == 64);
}

static spv_result_t scan_instruction(void *user, const spv_parsed_instruction_t *in)
{
    struct scan *s = user;
    const uint32_t *w = in->words;
    if (in->result_id >= s->bound || in->type_id >= s->bound)
        return SPV_ERROR_INVALID_BINARY;
    if (in->result_id && in->type_id)
        s->ids[in->result_id].type = in->type_id;
    struct id_facts *f = in->result_id ? &s->ids[in->result_id] : NULL;
    switch (in->opcode) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        f->component = in->result_id;
        f->count = 1;
        f->width = (uint8_t)(w[2] <= 64 ? w[2] : 0);
        f->is_float = in->opcode == SpvOpTypeFloat;
        if (in->opcode == SpvOpTypeInt && w[2] == 32 && w[3] == 0)
            s->uint32 = in->result_id;
        break;
    case SpvOpTypeVector:
        if (w[2] < s->bound && s->ids[w[2]].count == 1 && w[3] <= 4) {
            f->component = w[2];
            f->count = (uint8_t)w[3];
            f->width = s->ids[w[2]].width;
            f->is_float = s->ids[w[2]].is_float;
        }
        break;
    case SpvOpExtInstImport:
        if (in->num_words >= 3 && in->num_words * 4u - 8u >= sizeof("GLSL.std.450") &&
            !memcmp(&w[2], "GLSL.std.450", sizeof("GLSL.std.450")))
            s->glsl = in->result_id;
        break;
    case SpvOpMemoryModel:
        s->memory_model = (size_t)(w - s->words);
        break;
    case SpvOpBitcast:
        if (in->num_words == 4 && w[3] < s->bound && crossing(s, w[1], s->ids[w[3]].type))
            s->bitcasts++;
        break;
    default: break;
    }
    return SPV_SUCCESS;
}

/* The rewritten module as it grows. */
struct out {
    uint32_t *words;
    size_t count, capacity;
    uint32_t next_id;
    bool failed;
};

static void put(struct out *o, const uint32_t *words, size_t count)
{
    if (o->failed)
        return;
    if (o->count + count > o->capacity) {
        size_t grown = (o->count + count) * 2;
        uint32_t *bigger = realloc(o->words, grown * sizeof(*bigger));
        if (!bigger) {
            o->failed = true;
            return;
        }
        o->words = bigger;
        o->capacity = grown;
    }
    memcpy(o->words + o->count, words, count * sizeof(*words));
    o->count += count;
}

static uint32_t emit(struct out *o, uint32_t opcode, uint32_t type, uint32_t result, const uint32_t *operands,
                     uint32_t operand_count)
{
    uint32_t head[3] = { ((3 + operand_count) << 16) | opcode, type, result ? result : o->next_id++ };
    put(o, head, 3);
    put(o, operands, operand_count);
    return head[2];
}

/* A vector type of `count` components of `component`, or 0 when the module has none. */
static uint32_t vector_type(const struct scan *s, uint32_t component, uint32_t count)
{
    for (uint32_t id = 1; id < s->bound; id++)
        if (s->ids[id].count == count && s->ids[id].component == component && id != component)
            return id;
    return 0;
}

/* `value` (a 2-vector of 32-bit components) as a uint 2-vector. */
static uint32_t as_uvec2(struct out *o, const struct scan *s, uint32_t uvec2, uint32_t value)
{
    uint32_t type = s->ids[value].type;
    return type == uvec2 ? value : emit(o, SpvOpBitcast, uvec2, 0, &value, 1);
}

/* Writes the replacement of `X = OpBitcast T A`; false when the module lacks a type it needs. */
static bool rewrite(struct out *o, const struct scan *s, uint32_t type, uint32_t result, uint32_t value)
{
    const struct id_facts *to = &s->ids[type], *from = &s->ids[s->ids[value].type];
    uint32_t uvec2 = s->uint32 ? vector_type(s, s->uint32, 2) : 0;
    if (!uvec2)
        return false;
    if (to->width == 64 && to->count == 1 && from->count == 2) { /* double <- 2 x 32 */
        uint32_t ops[3] = { s->glsl, GLSLstd450PackDouble2x32, as_uvec2(o, s, uvec2, value) };
        emit(o, SpvOpExtInst, type, result, ops, 3);
        return true;
    }
    if (from->width == 64 && from->count == 1 && to->count == 2) { /* 2 x 32 <- double */
        uint32_t ops[3] = { s->glsl, GLSLstd450UnpackDouble2x32, value };
        if (type == uvec2) {
            emit(o, SpvOpExtInst, type, result, ops, 3);
        } else {
            uint32_t unpacked = emit(o, SpvOpExtInst, uvec2, 0, ops, 3);
            emit(o, SpvOpBitcast, type, result, &unpacked, 1);
        }
        return true;
    }
    if (to->width == 64 && to->count == 2 && from->count == 4) { /* dvec2 <- 4 x 32 */
        uint32_t half_type = vector_type(s, from->component, 2);
        if (!half_type)
            return false;
        uint32_t halves[2];
        for (uint32_t h = 0; h < 2; h++) {
            uint32_t shuffle[4] = { value, value, 2 * h, 2 * h + 1 };
            uint32_t half = emit(o, SpvOpVectorShuffle, half_type, 0, shuffle, 4);
            uint32_t ops[3] = { s->glsl, GLSLstd450PackDouble2x32,
                                half_type == uvec2 ? half : emit(o, SpvOpBitcast, uvec2, 0, &half, 1) };
            halves[h] = emit(o, SpvOpExtInst, to->component, 0, ops, 3);
        }
        emit(o, SpvOpCompositeConstruct, type, result, halves, 2);
        return true;
    }
    if (from->width == 64 && from->count == 2 && to->count == 4) { /* 4 x 32 <- dvec2 */
        uint32_t half_type = vector_type(s, to->component, 2);
        if (!half_type)
            return false;
        uint32_t halves[2];
        for (uint32_t h = 0; h < 2; h++) {
            uint32_t extract[2] = { value, h };
            uint32_t lane = emit(o, SpvOpCompositeExtract, from->component, 0, extract, 2);
            uint32_t ops[3] = { s->glsl, GLSLstd450UnpackDouble2x32, lane };
            uint32_t unpacked = emit(o, SpvOpExtInst, uvec2, 0, ops, 3);
            halves[h] = half_type == uvec2 ? unpacked : emit(o, SpvOpBitcast, half_type, 0, &unpacked, 1);
        }
        uint32_t shuffle[6] = { halves[0], halves[1], 0, 1, 2, 3 };
        emit(o, SpvOpVectorShuffle, type, result, shuffle, 6);
        return true;
    }
    return false;
}

/* Copies the module with every crossing bitcast rewritten; the import added if missing. */
static bool copy_module(const uint32_t *words, size_t count, struct scan *s, struct out *o)
{
    o->next_id = s->bound;
    if (!s->glsl)
        s->glsl = o->next_id++;
    put(o, words, 5);
    for (size_t at = 5; at < count && !o->failed;) {
        uint32_t length = words[at] >> 16, opcode = words[at] & 0xffffu;
        if (length == 0 || at + length > count)
            return false;
        if (at == s->memory_model && s->glsl >= s->bound) {
            static const char name[16] = "GLSL.std.450";
            uint32_t import[6] = { (6u << 16) | SpvOpExtInstImport, s->glsl };
            memcpy(&import[2], name, sizeof(name));
            put(o, import, 6);
        }
        const uint32_t *w = &words[at];
        bool replaced = opcode == SpvOpBitcast && length == 4 && w[3] < s->bound &&
                        crossing(s, w[1], s->ids[w[3]].type);
        if (replaced) {
            size_t mark = o->count;
            uint32_t mark_id = o->next_id;
            if (!rewrite(o, s, w[1], w[2], w[3])) {
                o->count = mark; /* left as it was */
                o->next_id = mark_id;
                replaced = false;
            }
        }
        if (!replaced)
            put(o, w, length);
        at += length;
    }
    if (o->failed)
        return false;
    o->words[3] = o->next_id; /* the new bound */
    return true;
}

static bool declares_float64(const uint32_t *words, size_t count)
{
    for (size_t at = 5; at < count;) {
        uint32_t length = words[at] >> 16, opcode = words[at] & 0xffffu;
        if (opcode != SpvOpCapability || length < 2 || at + length > count)
            return false; /* capabilities come first */
        if (words[at + 1] == SpvCapabilityFloat64)
            return true;
        at += length;
    }
    return false;
}

bool sb_target_split_bitcasts(const uint32_t *words, size_t count, uint32_t **out_words, size_t *out_count)
{
    *out_words = NULL;
    *out_count = 0;
    /* Only modules with doubles have such bitcasts: the common case costs one short loop. */
    if (count < 5 || words[3] == 0 || words[3] > (1u << 22) || !declares_float64(words, count))
        return false;
    struct scan s = { .words = words, .bound = words[3] };
    s.ids = calloc(s.bound, sizeof(*s.ids));
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    bool parsed = s.ids && context &&
                  spvBinaryParse(context, &s, words, count, NULL, scan_instruction, NULL) == SPV_SUCCESS;
    struct out o = { 0 };
    bool changed = parsed && s.bitcasts && s.memory_model && copy_module(words, count, &s, &o);
    spvContextDestroy(context);
    free(s.ids);
    if (!changed) {
        free(o.words);
        return false;
    }
    *out_words = o.words;
    *out_count = o.count;
    return true;
}
