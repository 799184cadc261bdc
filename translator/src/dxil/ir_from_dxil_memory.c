/* SPDX-License-Identifier: MIT */
/*
 * Memory through LLVM pointers (../shared/docs/dxil.md §3.1, §7.5): the
 * groupshared globals (addrspace 3), the thread-local arrays (alloca, and the
 * static variables dxc leaves as initialised globals in addrspace 0) and the
 * constant arrays (initialised constant globals in addrspace 0), with the GEP,
 * load and store instructions that reach them. Each becomes what the SM4
 * front end declares for the same HLSL:
 *
 *   groupshared global  -> dcl_tgsm_raw g#, bytes    (LD_RAW / STORE_RAW, byte offsets)
 *   alloca              -> dcl_indexableTemp x#[n], 1 (MOV x#[i].x, element index)
 *   static global       -> the same, filled with its initializer before the body
 *   constant global     -> immediate constant buffer  (MOV from icb[i].x, one DWORD per vector)
 *
 * Every type is laid out in DWORDs (DXIL's data layout puts 32-bit scalars at
 * 4-byte steps with no padding), so an array of vectors, of structs or a
 * nested array is one flat run of DWORDs and any GEP path is a sum of
 * index * stride terms. A pointer is (memory object, constant offset,
 * dynamic offset in a temp) in the object's unit: bytes for g#, DWORDs for x#
 * and the ICB. 16- and 64-bit memory, pointers that are phis or selects, and
 * globals without an initializer refuse with the construct named.
 */
#include <stdlib.h>

#include "ir_from_dxil_private.h"

enum memory_space { SPACE_GROUP_SHARED, SPACE_LOCAL, SPACE_CONSTANT };

static const char *const space_names[3] = { "groupshared", "local", "constant" };

struct memory_object {
    uint32_t value;            /**< the global's or the alloca's value id */
    enum memory_space space;
    uint32_t id;               /**< g# or x# id; CONSTANT: the ICB vector of its first DWORD */
    uint32_t dwords;
    uint32_t *initial;         /**< a static variable's x#: its initial DWORDs (malloc'd) */
    bool used_here;            /**< a static variable the function being lowered reaches */
};

/** Where a pointer value points: object + constant + (dynamic temp lane x), in units. */
struct pointer {
    uint32_t object;           /**< DXIL_FRONT_NONE: not a known pointer */
    uint32_t constant;
    uint32_t dynamic;          /**< temp, or DXIL_FRONT_NONE */
};

/* The program's memory objects, ICB and type sizes outlive each function; `pointers` and
 * `uses` are the function being lowered's (a hull shader lowers two). */
struct dxil_memory {
    struct memory_object *objects;
    uint32_t object_count, object_capacity;
    struct pointer *pointers;  /**< per function-local value; NULL between functions */
    uint32_t group_shared_count, local_count;
    uint32_t *icb;             /**< 4 DWORDs per vector */
    uint32_t icb_vectors, icb_capacity;
    uint32_t *uses;            /**< per function-local value: operands naming it (lazily) */
    uint32_t *type_dwords;     /**< per module type: its DWORDs once laid out, 0 before */
};

/* Deepest array/struct nesting laid out; dxc's types are a few levels deep. */
#define MAX_TYPE_DEPTH 16

static struct dxil_memory *memory_state(struct dxil_front *f)
{
    if (f->failed)
        return NULL;
    struct dxil_memory *m = f->memory;
    if (!m) {
        m = calloc(1, sizeof(*m));
        if (m)
            m->type_dwords = calloc(f->module->type_count ? f->module->type_count : 1,
                                    sizeof(*m->type_dwords));
        if (!m || !m->type_dwords) {
            free(m);
            dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        f->memory = m;
    }
    if (!m->pointers) {
        uint32_t values = f->function->value_count ? f->function->value_count : 1;
        m->pointers = malloc((size_t)values * sizeof(*m->pointers));
        if (!m->pointers) {
            dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        for (uint32_t i = 0; i < values; i++)
            m->pointers[i] = (struct pointer){ DXIL_FRONT_NONE, 0, DXIL_FRONT_NONE };
    }
    return m;
}

void dxil_front_memory_free(struct dxil_front *f)
{
    if (!f->memory)
        return;
    for (uint32_t i = 0; i < f->memory->object_count; i++)
        free(f->memory->objects[i].initial);
    free(f->memory->objects);
    free(f->memory->pointers);
    free(f->memory->icb);
    free(f->memory->uses);
    free(f->memory->type_dwords);
    free(f->memory);
    f->memory = NULL;
}

/* `array` with room for `needed` elements of `size` bytes (doubling), or NULL after failing;
 * the caller stores the result back. */
static void *grow(struct dxil_front *f, void *array, uint32_t *capacity, uint32_t needed,
                  size_t size)
{
    if (needed <= *capacity)
        return array;
    uint32_t n = *capacity ? *capacity : 8;
    while (n < needed && n < UINT32_MAX / 2)
        n *= 2;
    void *grown = n >= needed ? realloc(array, (size_t)n * size) : NULL;
    if (!grown) {
        dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    *capacity = n;
    return grown;
}

/* ---- layout ------------------------------------------------------------- */

static uint32_t type_dwords_at(struct dxil_front *f, uint32_t type, unsigned depth);

/* DWORDs a value of `type` takes in memory: 32-bit scalars, arrays, vectors and structs
 * of them. 0 (after failing) for anything else. Nesting recurses at most MAX_TYPE_DEPTH
 * levels, and each type is laid out once (memoised), so a struct of structs of ... costs
 * its member count, not the product of the counts. */
static uint64_t type_dwords_uncached(struct dxil_front *f, uint32_t type, unsigned depth)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (!t || depth > MAX_TYPE_DEPTH) {
        dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a memory type nested too deep");
        return 0;
    }
    switch (t->kind) {
    case SB_BC_TYPE_FLOAT:
        return 1;
    case SB_BC_TYPE_INTEGER:
        if (t->width == 32)
            return 1;
        break;
    case SB_BC_TYPE_ARRAY:
    case SB_BC_TYPE_VECTOR: {
        uint64_t element = type_dwords_at(f, t->element, depth + 1);
        if (element && t->count > 0 && t->count <= (1ull << 32) / element)
            return element * t->count;
        if (element)
            dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "an array of %llu elements",
                            (unsigned long long)t->count);
        return 0;
    }
    case SB_BC_TYPE_STRUCT: {
        uint64_t total = 0;
        for (uint32_t i = 0; i < t->member_count && !f->failed; i++)
            total += type_dwords_at(f, t->members[i], depth + 1);
        if (!f->failed && total > 0 && total < (1ull << 32))
            return total;
        if (!f->failed)
            dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a struct of %llu DWORDs in memory",
                            (unsigned long long)total);
        return 0;
    }
    default:
        break;
    }
    dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                    "memory of type kind %u (%u bits): only 32-bit scalars and arrays, vectors "
                    "and structs of them are translated (16- and 64-bit memory not yet)",
                    (unsigned)t->kind, t->width);
    return 0;
}

static uint32_t type_dwords_at(struct dxil_front *f, uint32_t type, unsigned depth)
{
    uint32_t *known = f->memory && type < f->module->type_count ? &f->memory->type_dwords[type]
                                                                : NULL;
    if (known && *known)
        return *known;
    uint64_t dwords = type_dwords_uncached(f, type, depth);
    if (dwords == 0 || dwords > UINT32_MAX) {
        /* Every caller takes 0 as "failed": never return it without the error set. */
        dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a memory type of %llu DWORDs",
                        (unsigned long long)dwords);
        return 0;
    }
    if (known)
        *known = (uint32_t)dwords;
    return (uint32_t)dwords;
}

static uint32_t type_dwords(struct dxil_front *f, uint32_t type)
{
    return type_dwords_at(f, type, 0);
}

/* Bytes per unit of the object's offsets: g# is byte addressed, x# and the ICB by DWORD. */
static uint32_t unit_of_dword(enum memory_space space)
{
    return space == SPACE_GROUP_SHARED ? 4 : 1;
}

/* ---- memory objects ----------------------------------------------------- */

static uint32_t add_object(struct dxil_front *f, struct dxil_memory *m, uint32_t value,
                           enum memory_space space, uint32_t id, uint32_t dwords)
{
    struct memory_object *objects = grow(f, m->objects, &m->object_capacity,
                                         m->object_count + 1, sizeof(*m->objects));
    if (!objects)
        return DXIL_FRONT_NONE;
    m->objects = objects;
    m->objects[m->object_count] = (struct memory_object){ value, space, id, dwords, NULL, false };
    return m->object_count++;
}

/* An initializer's `dwords` 32-bit values at out[0], out[stride], ...: zeroinitializer or
 * undef (zeros), a scalar, a data array, or an aggregate of scalar constants. */
static bool flatten_initializer(struct dxil_front *f, uint32_t initializer, uint32_t dwords,
                                uint32_t *out, uint32_t stride)
{
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, initializer);
    if (!c)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "initializer %u is no constant",
                               initializer);
    for (uint32_t i = 0; i < dwords; i++)
        out[(size_t)i * stride] = 0;
    if (c->kind == SB_BC_CONST_NULL || c->kind == SB_BC_CONST_UNDEF)
        return true;
    if ((c->kind == SB_BC_CONST_INTEGER || c->kind == SB_BC_CONST_FLOAT) && dwords == 1) {
        out[0] = (uint32_t)c->bits;
        return true;
    }
    if ((c->kind != SB_BC_CONST_DATA && c->kind != SB_BC_CONST_AGGREGATE) ||
        c->element_count != dwords)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an array initializer other than a flat list of %u 32-bit "
                               "scalars", dwords);
    for (uint32_t i = 0; i < dwords; i++) {
        if (c->kind == SB_BC_CONST_DATA) {
            out[(size_t)i * stride] = (uint32_t)c->elements[i];
            continue;
        }
        const struct sb_bc_constant *e =
            c->elements[i] <= UINT32_MAX
                ? sb_bc_constant_get(f->module, f->function, (uint32_t)c->elements[i])
                : NULL;
        if (!e || (e->kind != SB_BC_CONST_INTEGER && e->kind != SB_BC_CONST_FLOAT &&
                   e->kind != SB_BC_CONST_NULL && e->kind != SB_BC_CONST_UNDEF))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "element %u of an array initializer is not a scalar", i);
        if (e->kind == SB_BC_CONST_INTEGER || e->kind == SB_BC_CONST_FLOAT)
            out[(size_t)i * stride] = (uint32_t)e->bits;
    }
    return true;
}

/* A constant global's DWORDs appended to the ICB, one per vector in lane x (as fxc lays
 * out a scalar array); *first = its first vector. */
static bool append_icb(struct dxil_front *f, struct dxil_memory *m, uint32_t initializer,
                       uint32_t dwords, uint32_t *first)
{
    if (m->icb_vectors > UINT32_MAX / 4 - dwords)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "constant arrays too large");
    uint32_t *icb = grow(f, m->icb, &m->icb_capacity, (m->icb_vectors + dwords) * 4,
                         sizeof(*m->icb));
    if (!icb)
        return false;
    m->icb = icb;
    uint32_t *out = m->icb + (size_t)m->icb_vectors * 4;
    memset(out, 0, (size_t)dwords * 4 * sizeof(*out));
    if (!flatten_initializer(f, initializer, dwords, out, 4))
        return false;
    *first = m->icb_vectors;
    m->icb_vectors += dwords;
    return true;
}

/* The memory object of module global `value`, declared on first use: groupshared -> g#,
 * constant -> the ICB, a static variable (addrspace 0, initialised, not constant: per
 * thread in HLSL) -> an x# the entry first fills with the initializer. */
static uint32_t global_object(struct dxil_front *f, struct dxil_memory *m, uint32_t value,
                              const struct sb_bc_value *v)
{
    for (uint32_t i = 0; i < m->object_count; i++)
        if (m->objects[i].value == value) {
            m->objects[i].used_here = m->objects[i].initial != NULL;
            return i;
        }
    if (v->index >= f->module->global_count) {
        dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "global %u does not exist", v->index);
        return DXIL_FRONT_NONE;
    }
    const struct sb_bc_global *g = &f->module->globals[v->index];
    const char *name = g->name ? g->name : "?";
    uint32_t dwords = type_dwords(f, g->value_type);
    if (!dwords)
        return DXIL_FRONT_NONE;
    if (g->address_space == 3) {
        if (dwords > UINT32_MAX / 4) {
            dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "groupshared '%s' too large", name);
            return DXIL_FRONT_NONE;
        }
        return add_object(f, m, value, SPACE_GROUP_SHARED, m->group_shared_count++, dwords);
    }
    if (g->address_space != 0 || g->initializer == SB_BC_NONE) {
        dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                        "global '%s' in address space %u%s is not translated (groupshared and "
                        "initialised globals of address space 0 are)", name, g->address_space,
                        g->initializer == SB_BC_NONE ? " without an initializer" : "");
        return DXIL_FRONT_NONE;
    }
    uint32_t first = 0;
    if (g->constant)
        return append_icb(f, m, g->initializer, dwords, &first)
                   ? add_object(f, m, value, SPACE_CONSTANT, first, dwords) : DXIL_FRONT_NONE;
    uint32_t *initial = malloc((size_t)dwords * sizeof(*initial));
    if (!initial) {
        dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return DXIL_FRONT_NONE;
    }
    uint32_t object = DXIL_FRONT_NONE;
    if (flatten_initializer(f, g->initializer, dwords, initial, 1))
        object = add_object(f, m, value, SPACE_LOCAL, m->local_count++, dwords);
    if (object == DXIL_FRONT_NONE) {
        free(initial);
    } else {
        m->objects[object].initial = initial;
        m->objects[object].used_here = true;
    }
    return object;
}

/* ---- pointers ----------------------------------------------------------- */

/* Adds index * stride (units) to the pointer: folded when the index is a constant, else
 * accumulated into `*dynamic` (a fresh temp the first time, `result` when given). */
static bool add_term(struct dxil_front *f, struct pointer *p, uint32_t index, uint32_t stride,
                     uint32_t result)
{
    uint64_t constant;
    if (dxil_front_const_int(f, index, &constant)) {
        p->constant += (uint32_t)constant * stride;
        return true;
    }
    struct sb_ir_operand src[3];
    if (!dxil_front_src(f, index, 0, &src[0]))
        return false;
    src[1] = dxil_front_imm(stride);
    uint32_t temp = result != DXIL_FRONT_NONE ? result : dxil_front_new_temp(f);
    struct sb_ir_operand dst[2];
    memset(&dst[0], 0, sizeof(dst[0])); /* IMUL's high word: discarded */
    dst[1] = dxil_front_temp_dst(temp, 0x1);
    bool ok;
    if (p->dynamic == DXIL_FRONT_NONE) {
        ok = dxil_front_emit(f, SB_IR_OP_IMUL, dst, 2, src, 2) != NULL;
    } else {
        src[2] = dxil_front_temp_src(p->dynamic, 0);
        ok = dxil_front_emit(f, SB_IR_OP_IMAD, &dst[1], 1, src, 3) != NULL;
    }
    p->dynamic = temp;
    return ok;
}

/* Walks GEP indices from `type` (the source element type), adding each step's offset:
 * the first index steps over whole `type`s, the others into it. The dynamic term of
 * index `result_at` is written to temp `result`. */
static bool walk_indices(struct dxil_front *f, struct pointer *p, uint32_t type,
                         const uint32_t *indices, uint32_t count, uint32_t unit, uint32_t result,
                         uint32_t result_at)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct sb_bc_type *t = dxil_front_type(f, type);
        if (!t)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "GEP over type %u", type);
        if (i > 0 && t->kind == SB_BC_TYPE_STRUCT) {
            uint64_t member;
            if (!dxil_front_const_int(f, indices[i], &member) || member >= t->member_count)
                return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                       "GEP into a struct without a constant member index");
            for (uint32_t k = 0; k < member; k++)
                p->constant += type_dwords(f, t->members[k]) * unit;
            type = t->members[member];
            continue;
        }
        if (i > 0) {
            if (t->kind != SB_BC_TYPE_ARRAY && t->kind != SB_BC_TYPE_VECTOR)
                return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "GEP index into a scalar");
            type = t->element;
        }
        uint32_t dwords = type_dwords(f, type);
        if (!dwords || !add_term(f, p, indices[i], dwords * unit,
                                 i == result_at ? result : DXIL_FRONT_NONE))
            return false;
    }
    return !f->failed;
}

static uint32_t local_index(const struct dxil_front *f, uint32_t value)
{
    const struct sb_bc_function *fn = f->function;
    return value >= fn->first_value && value - fn->first_value < fn->value_count
               ? value - fn->first_value : DXIL_FRONT_NONE;
}

/* Where pointer value `value` points: a GEP/alloca result, a global, or a constant GEP
 * expression over a global (which the bitcode reader keeps as one constant). */
static bool resolve(struct dxil_front *f, uint32_t value, struct pointer *out)
{
    struct dxil_memory *m = memory_state(f);
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    if (!m || !v)
        return m ? dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "value %u does not exist",
                                   value) : false;
    if (v->kind == SB_BC_VALUE_INSTRUCTION) {
        *out = m->pointers[local_index(f, value)];
        if (out->object == DXIL_FRONT_NONE)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "a pointer that is no GEP, alloca or global (a phi or select "
                                   "of pointers) is not translated");
        return true;
    }
    if (v->kind == SB_BC_VALUE_GLOBAL) {
        *out = (struct pointer){ global_object(f, m, value, v), 0, DXIL_FRONT_NONE };
        return out->object != DXIL_FRONT_NONE;
    }
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
    if (!c || c->kind != SB_BC_CONST_GEP || c->element_count < 1 || c->elements[0] > UINT32_MAX)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a pointer of value kind %u (constant kind %d) is not translated",
                               (unsigned)v->kind, c ? (int)c->kind : -1);
    uint32_t base = (uint32_t)c->elements[0];
    const struct sb_bc_value *b = sb_bc_value_get(f->module, f->function, base);
    if (!b || b->kind != SB_BC_VALUE_GLOBAL)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a constant GEP whose base is not a global");
    uint32_t indices[8];
    uint32_t count = c->element_count - 1;
    if (count > 8)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a constant GEP of %u indices",
                               count);
    for (uint32_t i = 0; i < count; i++)
        indices[i] = c->elements[1 + i] <= UINT32_MAX ? (uint32_t)c->elements[1 + i] : SB_BC_NONE;
    *out = (struct pointer){ global_object(f, m, base, b), 0, DXIL_FRONT_NONE };
    if (out->object == DXIL_FRONT_NONE)
        return false;
    uint32_t type = c->aux_type != SB_BC_NONE ? c->aux_type
                                              : f->module->globals[b->index].value_type;
    uint32_t unit = unit_of_dword(m->objects[out->object].space);
    if (!walk_indices(f, out, type, indices, count, unit, DXIL_FRONT_NONE, DXIL_FRONT_NONE))
        return false;
    if (out->dynamic != DXIL_FRONT_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a constant GEP with a variable index");
    return true;
}

static bool set_pointer(struct dxil_front *f, uint32_t value, struct pointer p)
{
    struct dxil_memory *m = memory_state(f);
    uint32_t i = local_index(f, value);
    if (!m)
        return false;
    if (i == DXIL_FRONT_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a pointer result without a value");
    m->pointers[i] = p;
    return true;
}

/* alloca T -> x#[dwords of T], 1 component. */
static bool alloca_array(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct dxil_memory *m = memory_state(f);
    uint64_t size = 0;
    if (!m)
        return false;
    if (in->operand_count < 1 || !dxil_front_const_int(f, in->operands[0], &size) || size != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an alloca of a variable or non-1 element count");
    uint32_t dwords = type_dwords(f, in->aux_type);
    if (!dwords)
        return false;
    uint32_t object = add_object(f, m, in->value, SPACE_LOCAL, m->local_count++, dwords);
    return object != DXIL_FRONT_NONE &&
           set_pointer(f, in->value, (struct pointer){ object, 0, DXIL_FRONT_NONE });
}

/* getelementptr base, i0, i1, ...: the base pointer plus each index's offset; a dynamic
 * offset ends in the GEP's own temp (written by the last variable index's term). */
static bool gep(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct pointer p;
    if (in->operand_count < 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a GEP without a base");
    if (!resolve(f, in->operands[0], &p))
        return false;
    uint32_t last_dynamic = DXIL_FRONT_NONE;
    for (uint32_t i = 1; i < in->operand_count; i++) {
        uint64_t ignored;
        if (!dxil_front_const_int(f, in->operands[i], &ignored))
            last_dynamic = i - 1;
    }
    uint32_t result = DXIL_FRONT_NONE;
    if (last_dynamic != DXIL_FRONT_NONE &&
        (result = dxil_front_value_temp(f, in->value)) == DXIL_FRONT_NONE)
        return false;
    uint32_t type = in->aux_type;
    if (type == SB_BC_NONE) {
        const struct sb_bc_value *base = sb_bc_value_get(f->module, f->function, in->operands[0]);
        const struct sb_bc_type *t = base ? dxil_front_type(f, base->type) : NULL;
        if (!t || t->kind != SB_BC_TYPE_POINTER)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a GEP base that is no pointer");
        type = t->element;
    }
    uint32_t unit = unit_of_dword(f->memory->objects[p.object].space);
    if (!walk_indices(f, &p, type, in->operands + 1, in->operand_count - 1, unit, result,
                      last_dynamic))
        return false;
    return set_pointer(f, in->value, p);
}

/* ---- accesses ----------------------------------------------------------- */

/* The g# operand (all four lanes, as the raw loads and stores of u# take it). */
static struct sb_ir_operand group_shared_operand(uint32_t id)
{
    struct sb_ir_operand op = dxil_front_temp_src(0, 0);
    op.file = SB_IR_FILE_GROUP_SHARED;
    op.index[0].offset = id;
    for (unsigned i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)i;
    return op;
}

/* The byte address of a groupshared pointer: an immediate, the dynamic temp, or their sum. */
static bool byte_address(struct dxil_front *f, const struct pointer *p, struct sb_ir_operand *out)
{
    if (p->dynamic == DXIL_FRONT_NONE) {
        *out = dxil_front_imm(p->constant);
        return true;
    }
    *out = dxil_front_temp_src(p->dynamic, 0);
    if (p->constant == 0)
        return true;
    uint32_t sum = dxil_front_new_temp(f);
    struct sb_ir_operand dst = dxil_front_temp_dst(sum, 0x1), src[2] = { *out,
                                                                         dxil_front_imm(p->constant) };
    *out = dxil_front_temp_src(sum, 0);
    return dxil_front_emit(f, SB_IR_OP_IADD, &dst, 1, src, 2) != NULL;
}

/* x#[dynamic + constant].x or icb[dynamic + constant].x, lane x. */
static bool element_operand(struct dxil_front *f, const struct memory_object *o,
                            const struct pointer *p, struct sb_ir_operand *out)
{
    *out = dxil_front_temp_src(0, 0);
    uint32_t slot = 0;
    if (o->space == SPACE_LOCAL) {
        out->file = SB_IR_FILE_INDEXABLE_TEMP;
        out->index_count = 2;
        out->index[0].offset = o->id;
        slot = 1;
    } else {
        out->file = SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER;
    }
    out->index[slot].offset = (o->space == SPACE_CONSTANT ? o->id : 0) + p->constant;
    if (p->dynamic != DXIL_FRONT_NONE) {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative)
            return false;
        *relative = dxil_front_temp_src(p->dynamic, 0);
        out->index[slot].relative = relative;
    }
    return true;
}

/* A load's or store's value must be one 32-bit lane. */
static bool scalar_access(struct dxil_front *f, uint32_t type, const char *what)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (t && ((t->kind == SB_BC_TYPE_INTEGER && t->width == 32) || t->kind == SB_BC_TYPE_FLOAT))
        return true;
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "a %s of a type other than a 32-bit scalar", what);
}

static bool load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct pointer p;
    if (in->operand_count < 1 || !scalar_access(f, in->type, "load") ||
        !resolve(f, in->operands[0], &p))
        return f->failed ? false : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a load without a pointer");
    const struct memory_object *o = &f->memory->objects[p.object];
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1), src[2];
    if (o->space == SPACE_GROUP_SHARED) {
        src[1] = group_shared_operand(o->id);
        return byte_address(f, &p, &src[0]) &&
               dxil_front_emit(f, SB_IR_OP_LD_RAW, &dst, 1, src, 2) != NULL;
    }
    return element_operand(f, o, &p, &src[0]) &&
           dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, src, 1) != NULL;
}

static bool store(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct pointer p;
    if (in->operand_count < 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store without a value");
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, in->operands[1]);
    if (!v || !scalar_access(f, v->type, "store") || !resolve(f, in->operands[0], &p))
        return f->failed ? false : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store of no value");
    const struct memory_object *o = &f->memory->objects[p.object];
    struct sb_ir_operand dst, src[2];
    if (o->space == SPACE_CONSTANT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a constant array");
    if (o->space == SPACE_GROUP_SHARED) {
        dst = group_shared_operand(o->id);
        dst.mask = 0x1;
        return byte_address(f, &p, &src[0]) && dxil_front_src(f, in->operands[1], 0, &src[1]) &&
               dxil_front_emit(f, SB_IR_OP_STORE_RAW, &dst, 1, src, 2) != NULL;
    }
    if (!element_operand(f, o, &p, &dst) || !dxil_front_src(f, in->operands[1], 0, &src[0]))
        return false;
    dst.mask = 0x1;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, src, 1) != NULL;
}

bool dxil_front_group_shared_address(struct dxil_front *f, uint32_t pointer,
                                     struct sb_ir_operand *memory, struct sb_ir_operand *address)
{
    struct pointer p;
    if (!resolve(f, pointer, &p))
        return false;
    const struct memory_object *o = &f->memory->objects[p.object];
    if (o->space != SPACE_GROUP_SHARED)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an atomic on %s memory (only groupshared atomics exist in the IR)",
                               space_names[o->space]);
    *memory = group_shared_operand(o->id);
    memory->mask = 0x1;
    return byte_address(f, &p, address);
}

/* A bitcast between pointer types points where its operand points (dxc writes it to hand
 * an alloca to llvm.lifetime.start/end, which are no-ops here): the record is copied when
 * the operand has one. A load or store through it still checks its own 32-bit type. Any
 * other use of a cast whose operand is no known pointer finds none and refuses there. */
static bool pointer_cast(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct dxil_memory *m = memory_state(f);
    if (!m)
        return false;
    if (in->op != 11 /* bitcast */)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "pointer cast %u", in->op);
    uint32_t from = in->operand_count ? local_index(f, in->operands[0]) : DXIL_FRONT_NONE;
    if (from == DXIL_FRONT_NONE || m->pointers[from].object == DXIL_FRONT_NONE)
        return true;
    return set_pointer(f, in->value, m->pointers[from]);
}

bool dxil_front_is_pointer_cast(const struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_bc_type *t = dxil_front_type(f, in->type);
    return in->opcode == SB_BC_OP_CAST && t && t->kind == SB_BC_TYPE_POINTER;
}

bool dxil_front_memory_instruction(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    switch (in->opcode) {
    case SB_BC_OP_ALLOCA: return alloca_array(f, in);
    case SB_BC_OP_GEP: return gep(f, in);
    case SB_BC_OP_LOAD: return load(f, in);
    case SB_BC_OP_STORE: return store(f, in);
    case SB_BC_OP_CAST: return pointer_cast(f, in);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "not a memory instruction");
    }
}

/* ---- declarations ------------------------------------------------------- */

/* The initial values of the static variables the function reached, moved in front of its
 * body (they run first; each function, a hull shader's phases too, starts from them). */
static bool initialise_statics(struct dxil_front *f, struct dxil_memory *m)
{
    uint32_t body = f->code_count;
    for (uint32_t i = 0; i < m->object_count; i++) {
        struct memory_object *o = &m->objects[i];
        if (!o->used_here)
            continue;
        o->used_here = false;
        for (uint32_t k = 0; o->initial && k < o->dwords; k++) {
            struct pointer p = { i, k, DXIL_FRONT_NONE };
            struct sb_ir_operand dst, src = dxil_front_imm(o->initial[k]);
            if (!element_operand(f, o, &p, &dst))
                return false;
            dst.mask = 0x1;
            if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
                return false;
        }
    }
    uint32_t count = f->code_count - body;
    if (count == 0 || body == 0)
        return true;
    struct sb_ir_instruction *moved = malloc((size_t)count * sizeof(*moved));
    if (!moved)
        return dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(moved, f->code + body, (size_t)count * sizeof(*moved));
    memmove(f->code + count, f->code, (size_t)body * sizeof(*moved));
    memcpy(f->code, moved, (size_t)count * sizeof(*moved));
    free(moved);
    return true;
}

bool dxil_front_memory_end_function(struct dxil_front *f)
{
    struct dxil_memory *m = f->memory;
    if (!m || f->failed)
        return !f->failed;
    free(m->pointers);
    free(m->uses);
    m->pointers = NULL;
    m->uses = NULL;
    return initialise_statics(f, m);
}

bool dxil_front_declare_memory(struct dxil_front *f)
{
    struct dxil_memory *m = f->memory;
    if (!m || f->failed)
        return !f->failed;
    struct sb_ir_program *p = f->program;
    struct sb_ir_group_shared *g = dxil_front_alloc(f, m->group_shared_count, sizeof(*g));
    struct sb_ir_indexable_temp *x = dxil_front_alloc(f, m->local_count, sizeof(*x));
    uint32_t *icb = dxil_front_alloc(f, (size_t)m->icb_vectors * 4, sizeof(*icb));
    if (!g || !x || !icb)
        return false;
    for (uint32_t i = 0; i < m->object_count; i++) {
        const struct memory_object *o = &m->objects[i];
        if (o->space == SPACE_GROUP_SHARED)
            g[o->id] = (struct sb_ir_group_shared){ .id = o->id, .structured = false, .stride = 4,
                                                    .count = o->dwords };
        else if (o->space == SPACE_LOCAL)
            x[o->id] = (struct sb_ir_indexable_temp){ .id = o->id, .count = o->dwords,
                                                      .components = 1 };
    }
    if (m->icb_vectors)
        memcpy(icb, m->icb, (size_t)m->icb_vectors * 4 * sizeof(*icb));
    p->group_shared_count = m->group_shared_count;
    p->group_shared = g;
    p->indexable_temp_count = m->local_count;
    p->indexable_temps = x;
    p->icb_vector_count = m->icb_vectors;
    p->icb = m->icb_vectors ? icb : NULL;
    return true;
}

/* ---- uses --------------------------------------------------------------- */

bool dxil_front_value_used(struct dxil_front *f, uint32_t value)
{
    struct dxil_memory *m = memory_state(f);
    uint32_t index = local_index(f, value);
    if (!m || index == DXIL_FRONT_NONE)
        return true;
    if (!m->uses) {
        const struct sb_bc_function *fn = f->function;
        m->uses = calloc(fn->value_count ? fn->value_count : 1, sizeof(*m->uses));
        if (!m->uses)
            return dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            const struct sb_bc_instruction *in = &fn->instructions[i];
            for (uint32_t k = 0; k < in->operand_count; k++) {
                uint32_t used = local_index(f, in->operands[k]);
                if (used != DXIL_FRONT_NONE && m->uses[used] < UINT32_MAX)
                    m->uses[used]++;
            }
        }
    }
    return m->uses[index] != 0;
}
