/* SPDX-License-Identifier: MIT */
/*
 * One FUNCTION_BLOCK instruction record -> struct sb_bc_instruction
 * (../shared/docs/dxil.md §2.10 relative operands and forward references,
 * §2.12 the record layouts DXC writes).
 *
 * Operands are turned into absolute value ids here: with module VERSION 1 an
 * operand is stored as (current value id - operand id), unsigned, so a
 * forward reference wraps around; where the record cannot infer an operand's
 * type, a type id follows only for forward references. A forward reference
 * is remembered (bc_add_fixup) with the type the record implies, and checked
 * when the function ends, once every value is known.
 *
 * The result type is worked out per opcode, because value numbering depends
 * on it: an instruction without a value (store, br, a call of a void
 * function) takes no id, and every later relative operand shifts with that.
 */
#include "bitcode_private.h"

#include "arena.h"

enum {
    INST_BINOP = 2, INST_CAST = 3, INST_EXTRACTELT = 6, INST_INSERTELT = 7,
    INST_SHUFFLEVEC = 8, INST_RET = 10, INST_BR = 11, INST_SWITCH = 12,
    INST_UNREACHABLE = 15, INST_PHI = 16, INST_ALLOCA = 19, INST_LOAD = 20,
    INST_EXTRACTVAL = 26, INST_INSERTVAL = 27, INST_CMP2 = 28, INST_VSELECT = 29,
    INST_CALL = 34, INST_ATOMICRMW = 38, INST_GEP = 43, INST_STORE = 44, INST_CMPXCHG = 46,
};

enum {
    CALL_EXPLICIT_TYPE = 1u << 15,
    CALL_FAST_MATH = 1u << 17,
    ALLOCA_EXPLICIT_TYPE = 1u << 6,
    SWITCH_RANGES_MAGIC = 0x4B5,
};

/* Reads operands of the current record left to right. */
struct ops {
    struct sb_bc_reader *r;
    const char *record;
    uint32_t next;
    uint32_t this_id; /* the id this instruction's value would get */
    uint32_t *ids;    /* value operands collected so far */
    uint32_t id_count;
};

/* The operand readers below are inlined: decode_* call them once per operand, and the
 * calls cost as much as what they do (value() was 1.7% of a DXIL translation). */
#define OPS_INLINE static inline __attribute__((always_inline))

OPS_INLINE bool take(struct ops *o, uint64_t *value, const char *field)
{
    *value = 0;
    if (o->next >= o->r->bs.op_count)
        return bc_fail(o->r, SB_ERROR_BC_BAD_RECORD, "%s: operand %u (%s) missing", o->record,
                       o->next, field);
    *value = o->r->bs.ops[o->next++];
    return true;
}

static bool take_type(struct ops *o, uint32_t *type, const char *field)
{
    uint64_t v = 0;
    if (!take(o, &v, field) || !bc_check_type(o->r, v, o->record))
        return false;
    *type = (uint32_t)v;
    return true;
}

static bool take_u32(struct ops *o, uint32_t *value, const char *field)
{
    /* Set on every path, failures included, so no caller can read an unset field. */
    *value = 0;
    uint64_t v = 0;
    if (!take(o, &v, field))
        return false;
    if (v > UINT32_MAX)
        return bc_fail(o->r, SB_ERROR_BC_BAD_RECORD, "%s: %s = %llu exceeds 32 bits", o->record,
                       field, (unsigned long long)v);
    *value = (uint32_t)v;
    return true;
}

OPS_INLINE uint32_t absolute(const struct ops *o, uint64_t encoded)
{
    if (o->r->module->version == 0)
        return (uint32_t)encoded;
    return o->this_id - (uint32_t)encoded;
}

OPS_INLINE bool keep(struct ops *o, uint32_t id)
{
    o->ids[o->id_count++] = id;
    return true;
}

/* The next operand as an absolute value id. */
OPS_INLINE bool take_id(struct ops *o, uint32_t *id, const char *field)
{
    uint64_t encoded = 0;
    *id = 0;
    if (!take(o, &encoded, field))
        return false;
    if (encoded > UINT32_MAX)
        return bc_fail(o->r, SB_ERROR_BC_BAD_REFERENCE, "%s: %s = %llu exceeds 32 bits",
                       o->record, field, (unsigned long long)encoded);
    *id = absolute(o, encoded);
    return true;
}

/* A value whose type the record implies (`type`, SB_BC_NONE when it does not). */
OPS_INLINE bool value(struct ops *o, uint32_t type, const char *field)
{
    uint32_t id;
    if (!take_id(o, &id, field))
        return false;
    if (id >= o->this_id && !bc_add_fixup(o->r, id, type))
        return false;
    return keep(o, id);
}

/* A value followed by its type when it is a forward reference; `*type` receives it. */
OPS_INLINE bool value_and_type(struct ops *o, uint32_t *type, const char *field)
{
    uint32_t id;
    if (!take_id(o, &id, field))
        return false;
    if (id < o->this_id) {
        *type = bc_value_type(o->r, id);
        return keep(o, id);
    }
    if (!take_type(o, type, field) || !bc_add_fixup(o->r, id, *type))
        return false;
    return keep(o, id);
}

static const struct sb_bc_type *type_of(const struct ops *o, uint32_t id)
{
    return &o->r->module->types[id];
}

static bool need_kind(struct ops *o, uint32_t type, enum sb_bc_type_kind kind, const char *what)
{
    if (type_of(o, type)->kind == kind)
        return true;
    return bc_fail(o->r, SB_ERROR_BC_BAD_TYPE, "%s: %s has type %u of the wrong kind", o->record,
                   what, type);
}

static bool found(struct ops *o, uint32_t type, const char *what)
{
    if (type != SB_BC_NONE)
        return true;
    return bc_fail(o->r, SB_ERROR_BC_BAD_TYPE, "%s: the type table has no %s", o->record, what);
}

/* The type reached from aggregate `type` by literal or constant index `index`. */
static bool step_into(struct ops *o, uint32_t *type, uint64_t index)
{
    const struct sb_bc_type *t = type_of(o, *type);
    if (t->kind == SB_BC_TYPE_STRUCT && index < t->member_count) {
        *type = t->members[index];
        return true;
    }
    if ((t->kind == SB_BC_TYPE_ARRAY || t->kind == SB_BC_TYPE_VECTOR)) {
        *type = t->element;
        return true;
    }
    return bc_fail(o->r, SB_ERROR_BC_BAD_TYPE, "%s: index %llu does not select inside type %u",
                   o->record, (unsigned long long)index, *type);
}

static bool decode_binop_cast(struct ops *o, struct sb_bc_instruction *inst)
{
    uint32_t type;
    if (!value_and_type(o, &type, "operand"))
        return false;
    if (inst->opcode == SB_BC_OP_CAST) {
        if (!take_type(o, &inst->type, "destination type") || !take_u32(o, &inst->op, "cast opcode"))
            return false;
        return true;
    }
    inst->type = type;
    if (!value(o, type, "rhs") || !take_u32(o, &inst->op, "binop opcode"))
        return false;
    return o->next == o->r->bs.op_count || take_u32(o, &inst->flags, "flags");
}

static bool decode_gep(struct ops *o, struct sb_bc_instruction *inst)
{
    uint64_t inbounds = 0;
    uint32_t base_type;
    if (!take(o, &inbounds, "inbounds") || !take_type(o, &inst->aux_type, "source element type") ||
        !value_and_type(o, &base_type, "base") || !need_kind(o, base_type, SB_BC_TYPE_POINTER, "base"))
        return false;
    inst->flags = inbounds != 0;
    uint32_t walked = inst->aux_type;
    for (uint32_t k = 0; o->next < o->r->bs.op_count; k++) {
        uint32_t index_type;
        if (!value_and_type(o, &index_type, "index"))
            return false;
        if (k == 0)
            continue; /* the first index steps over the pointer */
        uint64_t literal = 0;
        if (type_of(o, walked)->kind == SB_BC_TYPE_STRUCT) {
            const struct sb_bc_constant *c =
                sb_bc_constant_get(o->r->module, o->r->function, o->ids[o->id_count - 1]);
            /* The writer stores a zero index as a NULL constant, not as INTEGER 0. */
            if (!c || (c->kind != SB_BC_CONST_INTEGER && c->kind != SB_BC_CONST_NULL))
                return bc_fail(o->r, SB_ERROR_BC_BAD_RECORD,
                               "%s: struct index %u is not an integer constant", o->record, k);
            literal = c->kind == SB_BC_CONST_INTEGER ? c->bits : 0;
        }
        if (!step_into(o, &walked, literal))
            return false;
    }
    inst->type = bc_find_pointer(o->r, walked, type_of(o, base_type)->address_space);
    return found(o, inst->type, "pointer type for the GEP result");
}

static bool decode_aggregate_value(struct ops *o, struct sb_bc_instruction *inst)
{
    uint32_t type, inserted;
    if (!value_and_type(o, &type, "aggregate"))
        return false;
    if (inst->opcode == SB_BC_OP_INSERTVAL && !value_and_type(o, &inserted, "inserted value"))
        return false;
    inst->index_count = o->r->bs.op_count - o->next;
    if (!inst->index_count)
        return bc_fail(o->r, SB_ERROR_BC_BAD_RECORD, "%s: no index", o->record);
    uint32_t *indices = bc_copy_ops32(o->r, o->next, inst->index_count, o->record);
    if (!indices)
        return false;
    inst->indices = indices;
    o->next = o->r->bs.op_count;
    uint32_t walked = type;
    for (uint32_t k = 0; k < inst->index_count; k++) {
        const struct sb_bc_type *t = type_of(o, walked);
        if (t->kind == SB_BC_TYPE_ARRAY && indices[k] >= t->count)
            return bc_fail(o->r, SB_ERROR_BC_BAD_RECORD, "%s: index %u past the array's %llu",
                           o->record, indices[k], (unsigned long long)t->count);
        if (t->kind == SB_BC_TYPE_VECTOR || !step_into(o, &walked, indices[k]))
            return o->r->bs.failed ? false
                                   : bc_fail(o->r, SB_ERROR_BC_BAD_TYPE,
                                             "%s: index into a vector", o->record);
    }
    inst->type = inst->opcode == SB_BC_OP_EXTRACTVAL ? walked : type;
    return true;
}

static bool decode_select_cmp(struct ops *o, struct sb_bc_instruction *inst)
{
    uint32_t type, cond_type;
    if (!value_and_type(o, &type, "lhs") || !value(o, type, "rhs"))
        return false;
    if (inst->opcode == SB_BC_OP_VSELECT) {
        if (!value_and_type(o, &cond_type, "condition"))
            return false;
        /* Stored as {condition, true, false}. */
        uint32_t t = o->ids[0], f = o->ids[1];
        o->ids[0] = o->ids[2];
        o->ids[1] = t;
        o->ids[2] = f;
        inst->type = type;
        return true;
    }
    if (!take_u32(o, &inst->op, "predicate"))
        return false;
    if (o->next < o->r->bs.op_count && !take_u32(o, &inst->flags, "fast-math flags"))
        return false;
    const struct sb_bc_type *t = type_of(o, type);
    uint32_t bool_type = bc_find_integer(o->r, 1);
    if (t->kind == SB_BC_TYPE_VECTOR && bool_type != SB_BC_NONE)
        bool_type = bc_find_vector(o->r, bool_type, t->count);
    inst->type = bool_type;
    return found(o, bool_type, "i1 type for the compare result");
}

static bool decode_terminator(struct ops *o, struct sb_bc_instruction *inst, uint32_t *blocks,
                              uint32_t block_count)
{
    struct sb_bc_reader *r = o->r;
    uint32_t n = r->bs.op_count;
    if (inst->opcode == SB_BC_OP_RET) {
        uint32_t type;
        while (o->next < n)
            if (!value_and_type(o, &type, "return value"))
                return false;
        return true;
    }
    if (inst->opcode == SB_BC_OP_BR) {
        if (n != 1 && n != 3)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: %u operands (1 or 3 expected)",
                           o->record, n);
        if (!take_u32(o, &blocks[0], "target") ||
            (n == 3 && (!take_u32(o, &blocks[1], "false target") ||
                        !value(o, bc_find_integer(o->r, 1), "condition"))))
            return false;
        inst->block_count = n == 3 ? 2 : 1;
    } else if (inst->opcode == SB_BC_OP_SWITCH) {
        uint32_t cond_type;
        if (!take_type(o, &cond_type, "condition type"))
            return false;
        if ((r->bs.ops[0] >> 16) == SWITCH_RANGES_MAGIC)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: the case-range form is not supported",
                           o->record);
        if (!value(o, cond_type, "condition") || !take_u32(o, &blocks[0], "default"))
            return false;
        if ((n - o->next) % 2)
            return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: an odd number of case operands",
                           o->record);
        for (inst->block_count = 1; o->next < n; inst->block_count++) {
            uint32_t case_value;
            if (!take_u32(o, &case_value, "case value") ||
                !take_u32(o, &blocks[inst->block_count], "case target"))
                return false;
            if (case_value >= bc_value_count(r))
                return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE, "%s: case value %u undefined",
                               o->record, case_value);
            keep(o, case_value);
        }
    }
    for (uint32_t i = 0; i < inst->block_count; i++)
        if (blocks[i] >= block_count)
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE, "%s: basic block %u, the function has %u",
                           o->record, blocks[i], block_count);
    return true;
}

static bool decode_phi(struct ops *o, struct sb_bc_instruction *inst, uint32_t *blocks,
                       uint32_t block_count)
{
    struct sb_bc_reader *r = o->r;
    if (!take_type(o, &inst->type, "type"))
        return false;
    if ((r->bs.op_count - 1) % 2)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: an odd number of incoming operands",
                       o->record);
    while (o->next < r->bs.op_count) {
        uint64_t v = r->bs.ops[o->next++];
        /* Signed VBR: forward references are common in phis. */
        uint64_t delta = (v & 1) ? (uint64_t)0 - (v >> 1) : v >> 1;
        uint32_t id = r->module->version ? o->this_id - (uint32_t)delta : (uint32_t)v;
        if (id >= o->this_id && !bc_add_fixup(r, id, inst->type))
            return false;
        keep(o, id);
        if (!take_u32(o, &blocks[inst->block_count], "incoming block"))
            return false;
        if (blocks[inst->block_count++] >= block_count)
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE, "%s: basic block %u, the function has %u",
                           o->record, blocks[inst->block_count - 1], block_count);
    }
    return true;
}

static bool decode_memory(struct ops *o, struct sb_bc_instruction *inst)
{
    struct sb_bc_reader *r = o->r;
    uint32_t ptr_type, val_type;
    if (inst->opcode == SB_BC_OP_ALLOCA) {
        uint32_t size_type, size_id, alignrec;
        if (!take_type(o, &inst->aux_type, "allocated type") ||
            !take_type(o, &size_type, "size type") || !take_u32(o, &size_id, "size") ||
            !take_u32(o, &alignrec, "alignment"))
            return false;
        if (size_id >= bc_value_count(r))
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE, "%s: size value %u undefined", o->record,
                           size_id);
        keep(o, size_id);
        inst->flags = alignrec;
        inst->align = alignrec & 31;
        inst->type = (alignrec & ALLOCA_EXPLICIT_TYPE)
                         ? bc_find_pointer(o->r, inst->aux_type, 0) : inst->aux_type;
        return found(o, inst->type, "pointer type for the alloca");
    }
    if (!value_and_type(o, &ptr_type, "pointer") || !need_kind(o, ptr_type, SB_BC_TYPE_POINTER, "pointer"))
        return false;
    uint32_t pointee = type_of(o, ptr_type)->element;
    if (inst->opcode == SB_BC_OP_LOAD) {
        inst->type = pointee;
        if (r->bs.op_count - o->next == 3 && !take_type(o, &inst->type, "loaded type"))
            return false;
        return take_u32(o, &inst->align, "alignment") && take_u32(o, &inst->flags, "volatile");
    }
    if (inst->opcode == SB_BC_OP_STORE)
        return value_and_type(o, &val_type, "stored value") &&
               take_u32(o, &inst->align, "alignment") && take_u32(o, &inst->flags, "volatile");
    uint32_t ordering, scope, failure = 0, weak = 0;
    if (inst->opcode == SB_BC_OP_CMPXCHG) {
        if (!value_and_type(o, &val_type, "compare value") || !value(o, val_type, "new value"))
            return false;
        inst->type = bc_find_pair_struct(o->r, val_type, bc_find_integer(o->r, 1));
        if (!found(o, inst->type, "{T, i1} type for the cmpxchg result"))
            return false;
    } else {
        if (!value(o, pointee, "value") || !take_u32(o, &inst->op, "operation"))
            return false;
        inst->type = pointee;
    }
    if (!take_u32(o, &inst->flags, "volatile") || !take_u32(o, &ordering, "ordering") ||
        !take_u32(o, &scope, "synch scope"))
        return false;
    if (inst->opcode == SB_BC_OP_CMPXCHG && o->next < r->bs.op_count &&
        (!take_u32(o, &failure, "failure ordering") ||
         (o->next < r->bs.op_count && !take_u32(o, &weak, "weak"))))
        return false;
    inst->ordering = (ordering & 0xff) | (scope & 0xff) << 8 | (failure & 0xff) << 16 | (weak & 1) << 24;
    return true;
}

static bool decode_call(struct ops *o, struct sb_bc_instruction *inst)
{
    struct sb_bc_reader *r = o->r;
    uint64_t fast_math;
    uint32_t callee_type;
    if (!take_u32(o, &inst->paramattr, "attributes") || !take_u32(o, &inst->flags, "ccinfo"))
        return false;
    if ((inst->flags & CALL_FAST_MATH) && !take(o, &fast_math, "fast-math flags"))
        return false;
    if ((inst->flags & CALL_EXPLICIT_TYPE) && !take_type(o, &inst->aux_type, "function type"))
        return false;
    if (!value_and_type(o, &callee_type, "callee"))
        return false;
    if (!(inst->flags & CALL_EXPLICIT_TYPE)) {
        if (!need_kind(o, callee_type, SB_BC_TYPE_POINTER, "callee"))
            return false;
        inst->aux_type = type_of(o, callee_type)->element;
    }
    if (!need_kind(o, inst->aux_type, SB_BC_TYPE_FUNCTION, "function type"))
        return false;
    const struct sb_bc_type *fn = type_of(o, inst->aux_type);
    for (uint32_t i = 0; i < fn->member_count; i++)
        if (!value(o, fn->members[i], "argument"))
            return false;
    uint32_t extra_type;
    while (fn->vararg && o->next < r->bs.op_count)
        if (!value_and_type(o, &extra_type, "variadic argument"))
            return false;
    if (o->next != r->bs.op_count)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "%s: %u operands after the %u arguments",
                       o->record, r->bs.op_count - o->next, fn->member_count);
    inst->type = fn->element;
    return true;
}

static bool decode_vector(struct ops *o, struct sb_bc_instruction *inst)
{
    uint32_t vec_type, other_type;
    if (!value_and_type(o, &vec_type, "vector") || !need_kind(o, vec_type, SB_BC_TYPE_VECTOR, "vector"))
        return false;
    const struct sb_bc_type *vec = type_of(o, vec_type);
    if (inst->opcode == SB_BC_OP_EXTRACTELT) {
        inst->type = vec->element;
        return value_and_type(o, &other_type, "index");
    }
    if (inst->opcode == SB_BC_OP_INSERTELT) {
        inst->type = vec_type;
        return value(o, vec->element, "element") && value_and_type(o, &other_type, "index");
    }
    uint32_t mask_type;
    if (!value(o, vec_type, "second vector") || !value_and_type(o, &mask_type, "mask") ||
        !need_kind(o, mask_type, SB_BC_TYPE_VECTOR, "mask"))
        return false;
    inst->type = bc_find_vector(o->r, vec->element, type_of(o, mask_type)->count);
    return found(o, inst->type, "vector type for the shuffle result");
}

static const char *record_name(uint32_t code)
{
    switch (code) {
    case INST_BINOP: return "BINOP";
    case INST_CAST: return "CAST";
    case INST_GEP: return "GEP";
    case INST_EXTRACTVAL: return "EXTRACTVAL";
    case INST_INSERTVAL: return "INSERTVAL";
    case INST_VSELECT: return "VSELECT";
    case INST_CMP2: return "CMP2";
    case INST_RET: return "RET";
    case INST_BR: return "BR";
    case INST_SWITCH: return "SWITCH";
    case INST_UNREACHABLE: return "UNREACHABLE";
    case INST_PHI: return "PHI";
    case INST_ALLOCA: return "ALLOCA";
    case INST_LOAD: return "LOAD";
    case INST_STORE: return "STORE";
    case INST_CALL: return "CALL";
    case INST_ATOMICRMW: return "ATOMICRMW";
    case INST_CMPXCHG: return "CMPXCHG";
    case INST_EXTRACTELT: return "EXTRACTELT";
    case INST_INSERTELT: return "INSERTELT";
    case INST_SHUFFLEVEC: return "SHUFFLEVEC";
    default: return NULL;
    }
}

bool bc_decode_instruction(struct sb_bc_reader *r, struct sb_bc_instruction *inst,
                           uint32_t block_count)
{
    const char *name = record_name(r->bs.code);
    if (!name)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD,
                       "FUNCTION_BLOCK record code %u is not an instruction DXIL uses", r->bs.code);
    uint32_t n = r->bs.op_count;
    /* Each operand yields at most one value id or block index. */
    uint32_t *ids = n ? sb_arena_alloc_uninit(r->arena, n, sizeof(*ids)) : NULL;
    uint32_t *blocks = n ? sb_arena_alloc_uninit(r->arena, n, sizeof(*blocks)) : NULL;
    if (n && (!ids || !blocks))
        return bc_fail(r, SB_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    /* Field by field, not compound literals: gcc 12 zeroes these small structs with
     * `rep stos` (a template copy too, seeing through the template), whose start-up
     * cost made them 1.3% of a DXIL translation's time (perf). A new field of either
     * struct fails the assertion until it is set here. */
    _Static_assert(sizeof(struct sb_bc_instruction) == 88 && sizeof(struct ops) == 40,
                   "every field of both structs is set below");
    struct ops o;
    o.r = r;
    o.record = name;
    o.next = 0;
    o.this_id = bc_value_count(r);
    o.ids = ids;
    o.id_count = 0;
    inst->opcode = (enum sb_bc_opcode)r->bs.code;
    inst->type = SB_BC_NONE;
    inst->value = SB_BC_NONE;
    inst->op = 0;
    inst->flags = 0;
    inst->align = 0;
    inst->ordering = 0;
    inst->aux_type = SB_BC_NONE;
    inst->paramattr = 0;
    inst->operand_count = 0;
    inst->operands = NULL;
    inst->block_count = 0;
    inst->blocks = NULL;
    inst->index_count = 0;
    inst->indices = NULL;
    inst->offset = r->bs.base_offset + r->bs.entry_bit / 8;
    bool ok;
    switch (r->bs.code) {
    case INST_BINOP:
    case INST_CAST: ok = decode_binop_cast(&o, inst); break;
    case INST_GEP: ok = decode_gep(&o, inst); break;
    case INST_EXTRACTVAL:
    case INST_INSERTVAL: ok = decode_aggregate_value(&o, inst); break;
    case INST_VSELECT:
    case INST_CMP2: ok = decode_select_cmp(&o, inst); break;
    case INST_RET:
    case INST_BR:
    case INST_SWITCH: ok = decode_terminator(&o, inst, blocks, block_count); break;
    case INST_UNREACHABLE: ok = true; break;
    case INST_PHI: ok = decode_phi(&o, inst, blocks, block_count); break;
    case INST_CALL: ok = decode_call(&o, inst); break;
    case INST_EXTRACTELT:
    case INST_INSERTELT:
    case INST_SHUFFLEVEC: ok = decode_vector(&o, inst); break;
    default: ok = decode_memory(&o, inst); break;
    }
    if (!ok)
        return false;
    inst->operand_count = o.id_count;
    inst->operands = o.id_count ? ids : NULL;
    inst->blocks = inst->block_count ? blocks : NULL;
    if (inst->type != SB_BC_NONE && r->module->types[inst->type].kind == SB_BC_TYPE_VOID)
        inst->type = SB_BC_NONE;
    return true;
}
