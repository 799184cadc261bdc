/* SPDX-License-Identifier: MIT */
/*
 * SM4/5 operands -> IR operands (translator/IR.md §Operands,
 * ../shared/docs/sm4-tokens.md §5, §6): register file, indices (with relative parts),
 * write mask or swizzle, modifiers, immediates. Every register is checked
 * against what the program declared (temps, indexable temps, resources,
 * group-shared memory) so the back ends can trust an IR program without
 * re-validating it; a decoded but meaningless operand is an
 * SB_ERROR_TRANSLATE_INVALID, never a crash. sb_ir_take_operands() also
 * checks each operand against the kind its IR op slot takes (a value, a
 * texture, a sampler, ...), for ir_from_sm4_ops.c. The failure reports sit in
 * small out-of-line functions so the per-operand path stays lean.
 * sb_ir_take_token_operands() is the same conversion for the fused path
 * (ir_from_sm4_fused.c), read straight from the token stream; it shares the
 * file table and the declaration checks, and declines every form or failure
 * it does not handle exactly as the decoder and sb_ir_convert_operand() would.
 * A plain operand token it has converted once is kept with what it made of
 * it (struct sb_ir_operand_forms, one per thread), so that its repeats, in
 * this program or the next, only read their indices or immediates and run the
 * declaration check.
 */
#include <string.h>

#include "ir_from_sm4_private.h"
#include "sm4_private.h"

/* What an operand of a file may do. */
enum {
    ACC_READ = 1u << 0,   /* a source value */
    ACC_WRITE = 1u << 1,  /* a destination value */
};

/* One row per SM4 operand type (§5.3): its IR file, index counts before and
 * from SM5.1, access, and which indices may be relative (bit i = index i).
 * Before SM5.1 the register number of t#, s#, u# and cb# is relative only in
 * class-linkage code (`t[r0.w + 0]`); SM5.1 indexes inside a range instead. */
struct file_row {
    uint8_t file;
    uint8_t dims_min, dims_max;       /* SM4.0 - 5.0 */
    uint8_t dims51_min, dims51_max;   /* SM5.1 */
    uint8_t access;
    uint8_t relative;                 /* SM4.0 - 5.0 */
    uint8_t relative51;
};

#define R_ ACC_READ
#define W_ ACC_WRITE
static const struct file_row file_rows[SB_SM4_OPERAND_TYPE_COUNT] = {
    [SB_SM4_OPERAND_TEMP] = { SB_IR_FILE_TEMP, 1, 1, 1, 1, R_ | W_, 0, 0 },
    [SB_SM4_OPERAND_INPUT] = { SB_IR_FILE_INPUT, 1, 2, 1, 2, R_, 3, 3 },
    [SB_SM4_OPERAND_OUTPUT] = { SB_IR_FILE_OUTPUT, 1, 1, 1, 1, R_ | W_, 1, 1 },
    [SB_SM4_OPERAND_INDEXABLE_TEMP] = { SB_IR_FILE_INDEXABLE_TEMP, 2, 2, 2, 2, R_ | W_, 2, 2 },
    [SB_SM4_OPERAND_IMMEDIATE32] = { SB_IR_FILE_IMMEDIATE, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_IMMEDIATE64] = { SB_IR_FILE_IMMEDIATE, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_SAMPLER] = { SB_IR_FILE_SAMPLER, 1, 1, 2, 2, 0, 1, 2 },
    [SB_SM4_OPERAND_RESOURCE] = { SB_IR_FILE_RESOURCE, 1, 1, 2, 2, 0, 1, 2 },
    [SB_SM4_OPERAND_CONSTANT_BUFFER] = { SB_IR_FILE_CONSTANT_BUFFER, 2, 2, 3, 3, R_, 3, 6 },
    [SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER] =
        { SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER, 1, 1, 1, 1, R_, 1, 1 },
    [SB_SM4_OPERAND_LABEL] = { SB_IR_FILE_LABEL, 1, 1, 1, 1, 0, 0, 0 },
    [SB_SM4_OPERAND_INPUT_PRIMITIVEID] = { SB_IR_FILE_PRIMITIVE_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_DEPTH] = { SB_IR_FILE_DEPTH, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_NULL] = { SB_IR_FILE_NULL, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_RASTERIZER] = { SB_IR_FILE_RASTERIZER, 0, 0, 0, 0, 0, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_COVERAGE_MASK] = { SB_IR_FILE_COVERAGE_OUT, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_STREAM] = { SB_IR_FILE_STREAM, 1, 1, 1, 1, 0, 0, 0 },
    [SB_SM4_OPERAND_FUNCTION_BODY] = { SB_IR_FILE_FUNCTION_BODY, 1, 1, 1, 1, 0, 0, 0 },
    [SB_SM4_OPERAND_FUNCTION_TABLE] = { SB_IR_FILE_FUNCTION_TABLE, 1, 1, 1, 1, 0, 0, 0 },
    [SB_SM4_OPERAND_INTERFACE] = { SB_IR_FILE_INTERFACE, 2, 2, 2, 2, 0, 2, 2 },
    [SB_SM4_OPERAND_FUNCTION_INPUT] = { SB_IR_FILE_COUNT, 0, 0, 0, 0, 0, 0, 0 },
    [SB_SM4_OPERAND_FUNCTION_OUTPUT] = { SB_IR_FILE_COUNT, 0, 0, 0, 0, 0, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_CONTROL_POINT_ID] =
        { SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_FORK_INSTANCE_ID] =
        { SB_IR_FILE_FORK_INSTANCE_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_JOIN_INSTANCE_ID] =
        { SB_IR_FILE_JOIN_INSTANCE_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_CONTROL_POINT] =
        { SB_IR_FILE_INPUT_CONTROL_POINT, 2, 2, 2, 2, R_, 3, 3 },
    [SB_SM4_OPERAND_OUTPUT_CONTROL_POINT] =
        { SB_IR_FILE_OUTPUT_CONTROL_POINT, 2, 2, 2, 2, R_, 3, 3 },
    [SB_SM4_OPERAND_INPUT_PATCH_CONSTANT] =
        { SB_IR_FILE_INPUT_PATCH_CONSTANT, 1, 1, 1, 1, R_, 1, 1 },
    [SB_SM4_OPERAND_INPUT_DOMAIN_POINT] = { SB_IR_FILE_DOMAIN_POINT, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_THIS_POINTER] = { SB_IR_FILE_THIS_POINTER, 1, 1, 1, 1, R_, 1, 1 },
    [SB_SM4_OPERAND_UAV] = { SB_IR_FILE_UAV, 1, 1, 2, 2, 0, 1, 2 },
    [SB_SM4_OPERAND_THREAD_GROUP_SHARED_MEMORY] =
        { SB_IR_FILE_GROUP_SHARED, 1, 1, 1, 1, 0, 0, 0 },
    [SB_SM4_OPERAND_INPUT_THREAD_ID] = { SB_IR_FILE_THREAD_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_THREAD_GROUP_ID] =
        { SB_IR_FILE_THREAD_GROUP_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP] =
        { SB_IR_FILE_THREAD_ID_IN_GROUP, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_COVERAGE_MASK] = { SB_IR_FILE_COVERAGE_IN, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_THREAD_ID_IN_GROUP_FLATTENED] =
        { SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_INPUT_GS_INSTANCE_ID] = { SB_IR_FILE_GS_INSTANCE_ID, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_DEPTH_GREATER_EQUAL] =
        { SB_IR_FILE_DEPTH_GREATER_EQUAL, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_DEPTH_LESS_EQUAL] =
        { SB_IR_FILE_DEPTH_LESS_EQUAL, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_CYCLE_COUNTER] = { SB_IR_FILE_CYCLE_COUNTER, 0, 0, 0, 0, R_, 0, 0 },
    [SB_SM4_OPERAND_OUTPUT_STENCIL_REF] = { SB_IR_FILE_STENCIL_REF, 0, 0, 0, 0, W_, 0, 0 },
    [SB_SM4_OPERAND_INNER_COVERAGE] = { SB_IR_FILE_INNER_COVERAGE, 0, 0, 0, 0, R_, 0, 0 },
};
#undef R_
#undef W_

uint32_t sb_ir_file_from_sm4(uint32_t sm4_type)
{
    if (sm4_type >= SB_SM4_OPERAND_TYPE_COUNT)
        return SB_IR_FILE_COUNT;
    return file_rows[sm4_type].file;
}

/* The resource class a file's declarations live in; UINT32_MAX for none. */
static uint32_t class_of_file(uint32_t file)
{
    switch (file) {
    case SB_IR_FILE_CONSTANT_BUFFER: return SB_IR_RESOURCE_CBV;
    case SB_IR_FILE_RESOURCE: return SB_IR_RESOURCE_SRV;
    case SB_IR_FILE_SAMPLER: return SB_IR_RESOURCE_SAMPLER;
    case SB_IR_FILE_UAV: return SB_IR_RESOURCE_UAV;
    default: return UINT32_MAX;
    }
}

const struct sb_ir_resource *sb_ir_find_resource(const struct sb_ir_sm4_context *ctx,
                                                 uint32_t resource_class, uint32_t id)
{
    const struct sb_ir_resource *r = ctx->resources.data;
    for (uint32_t i = 0; i < ctx->resources.count; i++)
        if (r[i].resource_class == resource_class && r[i].id == id)
            return &r[i];
    return NULL;
}

static const char *const class_prefix[] = { "cb", "t", "s", "u" };

/*
 * The failures of the per-operand checks, each out of line: with the
 * formatting calls inside sb_ir_convert_operand() its every call paid for
 * the register saves they need, though only bad input ever reaches them.
 */

/* An index convert_index() cannot take. */
static SB_IR_NOINLINE bool fail_index(struct sb_ir_sm4_context *ctx, const struct sb_sm4_index *in)
{
    if (in->representation > SB_SM4_INDEX_IMMEDIATE64_RELATIVE)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "index representation %u is unknown",
                          in->representation);
    return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED,
                      "64-bit register index 0x%llx does not fit 32 bits",
                      (unsigned long long)in->value);
}

/* The first of the operand-shape rules (checked in this order) that `in` breaks. */
static SB_IR_NOINLINE bool fail_shape(struct sb_ir_sm4_context *ctx,
                                      const struct sb_sm4_operand *in)
{
    if (in->type >= SB_SM4_OPERAND_TYPE_COUNT)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "operand type %u is unknown", in->type);
    const struct file_row *row = &file_rows[in->type];
    if (row->file == SB_IR_FILE_COUNT)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED,
                          "operand type %u (function input/output parameter) is not supported",
                          in->type);
    uint32_t lo = ctx->is_sm51 ? row->dims51_min : row->dims_min;
    uint32_t hi = ctx->is_sm51 ? row->dims51_max : row->dims_max;
    if (in->index_dimension < lo || in->index_dimension > hi)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "operand type %u has %u indices; it takes %u to %u", in->type,
                          in->index_dimension, lo, hi);
    if (in->component_count == 3)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "operand with N components (value 3)");
    return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "operand modifier %u is unknown",
                      in->modifier);
}

/* r# beyond the temps the function can see. */
static SB_IR_NOINLINE bool fail_temp(struct sb_ir_sm4_context *ctx, uint32_t first, uint32_t limit)
{
    return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                      "r%u used, but only %u temp registers are declared", first, limit);
}

/* Temp registers visible to the function being filled. */
static uint32_t temp_limit(struct sb_ir_sm4_context *ctx)
{
    struct sb_ir_function_builder *fn = sb_ir_current_function(ctx);
    if (fn->section == SB_IR_SECTION_SUBROUTINE)
        return fn->temp_count > ctx->max_temps ? fn->temp_count : ctx->max_temps;
    return fn->temp_count;
}

/* Checks the register an operand names against the declarations. Inlined into
 * sb_ir_convert_operand(); the fused path calls it through check_declared_call(). */
static inline SB_SM4_ALWAYS_INLINE bool check_declared(struct sb_ir_sm4_context *ctx, struct sb_ir_operand *out)
{
    uint32_t file = out->file;
    uint32_t first = out->index_count ? out->index[0].offset : 0;
    if (file == SB_IR_FILE_TEMP) {
        uint32_t limit = temp_limit(ctx);
        return first < limit || fail_temp(ctx, first, limit);
    }
    if (file == SB_IR_FILE_INDEXABLE_TEMP) {
        const struct sb_ir_indexable_temp *x = ctx->indexable_temps.data;
        for (uint32_t i = 0; i < ctx->indexable_temps.count; i++) {
            if (x[i].id != first)
                continue;
            if (!out->index[1].relative && out->index[1].offset >= x[i].count)
                return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                  "x%u[%u] is beyond its %u declared elements", first,
                                  out->index[1].offset, x[i].count);
            return true;
        }
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "x%u used but not declared", first);
    }
    if (file == SB_IR_FILE_GROUP_SHARED) {
        const struct sb_ir_group_shared *g = ctx->group_shared.data;
        for (uint32_t i = 0; i < ctx->group_shared.count; i++)
            if (g[i].id == first)
                return true;
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "g%u used but not declared", first);
    }
    if (file == SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER && !ctx->icb_used) {
        ctx->icb_used = true;
        ctx->icb_use_offset = ctx->inst ? ctx->inst->offset : 0;
        ctx->icb_use_instr = ctx->inst ? ctx->inst->index : UINT32_MAX;
        return true;
    }
    uint32_t cls = class_of_file(file);
    /* SM5.0 class linkage picks t#/s#/cb#/u# through `this` data (IR.md §Class linkage):
     * which registers it reaches is only known at run time. */
    if (cls == UINT32_MAX || (out->index_count && out->index[0].relative))
        return true;
    const struct sb_ir_resource *res = sb_ir_find_resource(ctx, cls, first);
    if (!res)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "%s%u used but not declared",
                          class_prefix[cls], first);
    if (ctx->is_sm51) {
        /* IR index 1 counts from the range's first register (ir.h). */
        out->index[1].offset -= res->lower_bound;
    }
    return true;
}

static bool convert_relative(struct sb_ir_sm4_context *ctx, const struct sb_sm4_index *in,
                             bool may_be_relative, struct sb_ir_index *out);

/* Fills an IR index from an SM4 one; relative parts become nested sources. */
static bool convert_index(struct sb_ir_sm4_context *ctx, const struct sb_sm4_index *in,
                          bool may_be_relative, struct sb_ir_index *out)
{
    if (in->representation > SB_SM4_INDEX_IMMEDIATE64_RELATIVE || in->value > UINT32_MAX)
        return fail_index(ctx, in);
    out->offset = (uint32_t)in->value;
    out->relative = NULL;
    if (!in->relative)
        return true;
    return convert_relative(ctx, in, may_be_relative, out);
}

/* The register part of a relative index, as a nested source. Out of line: rare, and
 * its recursion kept convert_index()'s common path from being inlined. */
static SB_IR_NOINLINE bool convert_relative(struct sb_ir_sm4_context *ctx,
                                            const struct sb_sm4_index *in, bool may_be_relative,
                                            struct sb_ir_index *out)
{
    if (!may_be_relative)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "this index of the operand cannot be relative");
    struct sb_ir_operand *rel = sb_ir_alloc_uninit(ctx, 1, sizeof(*rel));
    if (!rel || !sb_ir_convert_operand(ctx, in->relative, false, false, rel))
        return false;
    if (rel->file == SB_IR_FILE_IMMEDIATE)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "a relative index is an immediate");
    out->relative = rel;
    return true;
}

/* Immediate lanes: scalars replicate, a single double fills both pairs. */
static void convert_immediate(const struct sb_sm4_operand *in, struct sb_ir_operand *out)
{
    uint32_t n = in->immediate_count > 4 ? 4 : in->immediate_count;
    if (n == 1) {
        for (int i = 0; i < 4; i++)
            out->imm[i] = in->immediate[0];
    } else if (n == 2) {
        out->imm[0] = out->imm[2] = in->immediate[0];
        out->imm[1] = out->imm[3] = in->immediate[1];
    } else {
        for (uint32_t i = 0; i < n; i++)
            out->imm[i] = in->immediate[i];
    }
}

/* Mask of a destination, swizzle of a source (§5.2). Component count 3 was
 * rejected by the caller. */
static void convert_components(const struct sb_sm4_operand *in, bool is_dst, bool pairs,
                               struct sb_ir_operand *out)
{
    static const uint8_t identity[4] = { 0, 1, 2, 3 };
    static const uint8_t replicate_x[4] = { 0, 0, 0, 0 };
    if (in->component_count == 4 && in->selection != SB_SM4_SELECT_MASK) {
        memcpy(out->swizzle, in->swizzle, 4);
        out->mask = 0xf;
    } else if (in->component_count == 4) {
        memcpy(out->swizzle, identity, 4);
        out->mask = (uint8_t)(in->mask & 0xfu);
    } else if (in->component_count == 1) {
        memcpy(out->swizzle, replicate_x, 4);
        out->mask = 1;
    } else {
        memcpy(out->swizzle, identity, 4);
        out->mask = 0;
    }
    if (is_dst && in->type == SB_SM4_OPERAND_NULL)
        out->mask = 0;
    if (pairs && !is_dst) {
        /* Pair k of a double source starts at the lane swizzle[2k] (rounded down). */
        uint8_t a = (uint8_t)(out->swizzle[0] & 2u), b = (uint8_t)(out->swizzle[2] & 2u);
        out->swizzle[0] = out->swizzle[2] = a;
        out->swizzle[1] = out->swizzle[3] = b;
    }
}

/* SB_IR_MOD_* of each SM4 source modifier (enum sb_sm4_modifier order). */
static const uint8_t modifier_bits[SB_SM4_MODIFIER_ABS_NEG + 1] = {
    [SB_SM4_MODIFIER_NONE] = 0,
    [SB_SM4_MODIFIER_NEG] = SB_IR_MOD_NEG,
    [SB_SM4_MODIFIER_ABS] = SB_IR_MOD_ABS,
    [SB_SM4_MODIFIER_ABS_NEG] = SB_IR_MOD_ABS | SB_IR_MOD_NEG,
};

bool sb_ir_convert_operand(struct sb_ir_sm4_context *ctx, const struct sb_sm4_operand *in,
                           bool is_dst, bool pairs, struct sb_ir_operand *out)
{
    if (ctx->failed)
        return false;
    if (in->type >= SB_SM4_OPERAND_TYPE_COUNT)
        return fail_shape(ctx, in);
    const struct file_row *row = &file_rows[in->type];
    uint32_t lo = ctx->is_sm51 ? row->dims51_min : row->dims_min;
    uint32_t hi = ctx->is_sm51 ? row->dims51_max : row->dims_max;
    if (row->file == SB_IR_FILE_COUNT || in->index_dimension < lo || in->index_dimension > hi ||
        in->component_count == 3 || in->modifier > SB_SM4_MODIFIER_ABS_NEG)
        return fail_shape(ctx, in);
    *out = (struct sb_ir_operand){ .file = row->file, .index_count = in->index_dimension };
    uint8_t relative = ctx->is_sm51 ? row->relative51 : row->relative;
    for (uint32_t i = 0; i < in->index_dimension; i++)
        if (!convert_index(ctx, &in->index[i], (relative >> i) & 1u, &out->index[i]))
            return false;
    convert_components(in, is_dst, pairs, out);
    if (in->type == SB_SM4_OPERAND_IMMEDIATE32 || in->type == SB_SM4_OPERAND_IMMEDIATE64)
        convert_immediate(in, out);
    out->modifiers = modifier_bits[in->modifier]; /* in range: checked above */
    out->non_uniform = in->non_uniform;
    out->min_precision = (uint8_t)in->min_precision;
    return check_declared(ctx, out);
}

/* Does a converted operand fit a slot kind? `access` is its SM4 type's ACC_* bits: a value
 * slot is judged by those (finer than the file), every other kind as the validator does. */
static inline bool kind_accepts(uint32_t kind, bool is_dst, uint32_t op, uint32_t access, uint32_t file)
{
    if (kind == SB_IR_KIND_VALUE)
        return (access & (is_dst ? ACC_WRITE : ACC_READ)) != 0;
    return sb_ir_kind_fits(kind, file, is_dst, op);
}

/* Converts one operand for slot `slot` of `info` and checks its kind. */
static inline bool take_operand(struct sb_ir_sm4_context *ctx, const struct sb_ir_op_info *info,
                                uint32_t op, bool is_dst, uint32_t slot,
                                const struct sb_sm4_operand *in, struct sb_ir_operand *out)
{
    uint32_t type = is_dst ? info->dst_type[slot] : info->src_type[slot];
    uint32_t kind = is_dst ? info->dst_kind[slot] : info->src_kind[slot];
    if (!sb_ir_convert_operand(ctx, in, is_dst, type == SB_IR_TYPE_DOUBLE, out))
        return false;
    /* The conversion accepted the type, so its row exists. */
    if (!kind_accepts(kind, is_dst, op, file_rows[in->type].access, out->file))
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "%s %u of %s cannot be operand type %u", is_dst ? "destination" : "source",
                          slot, info->name, in->type);
    if (!is_dst && out->file == SB_IR_FILE_IMMEDIATE && kind != SB_IR_KIND_VALUE)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "an immediate where %s takes a register",
                          info->name);
    return true;
}

bool sb_ir_take_operands(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst,
                         const struct sb_ir_op_info *info, uint32_t op, uint32_t first_src,
                         uint32_t count, struct sb_ir_operand *out)
{
    /* Destinations then sources: errors name the first bad operand in token order. */
    for (uint32_t i = 0; i < count; i++) {
        bool is_dst = i < inst->dst_count;
        uint32_t slot = is_dst ? i : i - inst->dst_count;
        const struct sb_sm4_operand *in = &inst->operands[is_dst ? i : first_src + slot];
        if (!take_operand(ctx, info, op, is_dst, slot, in, &out[i]))
            return false;
    }
    return true;
}

/*
 * Swizzle and mask from operand token bits [11:2] as convert_components() derives them
 * from the decoded fields: `encoded` is bits [1:0] (0, 1 or 2), `selection` bits [3:2].
 */
static inline void token_components(uint32_t token, uint32_t encoded, uint32_t selection,
                                    struct sb_ir_operand *out)
{
    uint32_t bits = (token >> 4) & 0xffu;
    uint8_t *swizzle = out->swizzle;
    if (encoded == 2 && selection == SB_SM4_SELECT_SWIZZLE) {
        swizzle[0] = (uint8_t)(bits & 3u);
        swizzle[1] = (uint8_t)((bits >> 2) & 3u);
        swizzle[2] = (uint8_t)((bits >> 4) & 3u);
        swizzle[3] = (uint8_t)(bits >> 6);
        out->mask = 0xf;
    } else if (encoded == 2 && selection == SB_SM4_SELECT_ONE) {
        swizzle[0] = swizzle[1] = swizzle[2] = swizzle[3] = (uint8_t)(bits & 3u);
        out->mask = 0xf;
    } else if (encoded == 1) {
        swizzle[0] = swizzle[1] = swizzle[2] = swizzle[3] = 0;
        out->mask = 1;
    } else {
        swizzle[0] = 0, swizzle[1] = 1, swizzle[2] = 2, swizzle[3] = 3;
        out->mask = encoded == 2 ? (uint8_t)(bits & 0xfu) : 0u;
    }
}

static SB_IR_NOINLINE bool check_declared_call(struct sb_ir_sm4_context *ctx,
                                               struct sb_ir_operand *out)
{
    return check_declared(ctx, out);
}

/* check_declared() with the r# case, most operands, inline. */
static inline bool check_declared_fast(struct sb_ir_sm4_context *ctx, struct sb_ir_operand *out)
{
    if (out->file != SB_IR_FILE_TEMP)
        return check_declared_call(ctx, out);
    uint32_t limit = temp_limit(ctx);
    return out->index[0].offset < limit || fail_temp(ctx, out->index[0].offset, limit);
}

/*
 * Extended operand tokens after token 0 at DWORD *pos (§6), as read_extended_operand()
 * in sm4_operands.c reads them (the last type-1 token wins); false, declining, on any
 * token it would reject. *pos ends on the last extended token.
 */
static inline bool token_extended(const uint8_t *data, uint32_t *pos, uint32_t end,
                                  uint32_t *modifier, uint32_t *precision, uint32_t *non_uniform)
{
    uint32_t p = *pos, ext;
    do {
        if (++p >= end)
            return false;
        ext = sb_load_u32_le(data + (size_t)p * 4u);
        uint32_t type = ext & 0x3fu;
        if (type == 0)
            continue;
        if (type != 1 || ((ext >> 6) & 0xffu) > SB_SM4_MODIFIER_ABS_NEG)
            return false;
        *modifier = (ext >> 6) & 0xffu;
        *precision = (ext >> 14) & 0x7u;
        *non_uniform = (ext >> 17) & 1u;
    } while (ext & 0x80000000u);
    *pos = p;
    return true;
}

/* convert_immediate()'s lanes from the `payload` (1, 2 or 4) DWORDs at `at`: scalars
 * replicate, one double fills both pairs. Spelled out: a lane index modulo the payload
 * would divide. */
static inline void token_immediate(const uint8_t *at, uint32_t payload,
                                   struct sb_ir_operand *out)
{
    uint32_t a = sb_load_u32_le(at);
    if (payload == 4) {
        out->imm[0] = a;
        out->imm[1] = sb_load_u32_le(at + 4);
        out->imm[2] = sb_load_u32_le(at + 8);
        out->imm[3] = sb_load_u32_le(at + 12);
    } else if (payload == 2) {
        uint32_t b = sb_load_u32_le(at + 4);
        out->imm[0] = out->imm[2] = a;
        out->imm[1] = out->imm[3] = b;
    } else {
        out->imm[0] = out->imm[1] = out->imm[2] = out->imm[3] = a;
    }
}

static enum sb_ir_fast token_relative(struct sb_ir_sm4_context *ctx, const uint8_t *data,
                                      uint32_t *pos, uint32_t end, struct sb_ir_index *out);

/*
 * Indices with a relative part (§5.1 representations 2 and 3) from DWORD `q`, as
 * read_index() decodes and convert_index() converts them; `relative_ok` has bit i set
 * where index i may be relative. 64-bit forms decline. *pos ends after the operand.
 */
static SB_IR_NOINLINE enum sb_ir_fast token_indices(struct sb_ir_sm4_context *ctx,
                                                    const uint8_t *data, uint32_t q,
                                                    uint32_t *pos, uint32_t end,
                                                    uint32_t representations,
                                                    uint32_t relative_ok,
                                                    struct sb_ir_operand *out)
{
    for (uint32_t i = 0; i < out->index_count; i++) {
        uint32_t representation = (representations >> (3 * i)) & 7u;
        if (representation == SB_SM4_INDEX_IMMEDIATE32 ||
            representation == SB_SM4_INDEX_IMMEDIATE32_RELATIVE) {
            if (q >= end)
                return SB_IR_FAST_DECLINED;
            out->index[i].offset = sb_load_u32_le(data + (size_t)q++ * 4u);
        } else if (representation != SB_SM4_INDEX_RELATIVE) {
            return SB_IR_FAST_DECLINED;
        }
        if (representation >= SB_SM4_INDEX_RELATIVE) {
            if (!((relative_ok >> i) & 1u))
                return SB_IR_FAST_DECLINED;
            enum sb_ir_fast r = token_relative(ctx, data, &q, end, &out->index[i]);
            if (r != SB_IR_FAST_DONE)
                return r;
        }
    }
    *pos = q;
    return SB_IR_FAST_DONE;
}

/*
 * sb_ir_convert_operand() of the operand the decoder would read at DWORD *pos (window
 * ends at `end`), straight from the tokens: the forms read_plain_operand()
 * (sm4_operands.c) takes, with the same tests, plus extended tokens (modifier,
 * precision, non-uniform) and, unless `nested`, relative indices whose register part is
 * such an operand itself. 64-bit indices decline, as does whatever the decoder or the
 * conversion would reject, except a register the program did not declare, whose check
 * is shared and fails. *type gets the SM4 operand type; *pos moves past the operand.
 */
static inline SB_SM4_ALWAYS_INLINE enum sb_ir_fast
convert_token(struct sb_ir_sm4_context *ctx, const uint8_t *data, uint32_t *pos, uint32_t end,
              bool is_dst, bool pairs, bool nested, struct sb_ir_operand *out, uint32_t *type_out)
{
    uint32_t p = *pos;
    if (p >= end)
        return SB_IR_FAST_DECLINED;
    uint32_t token = sb_load_u32_le(data + (size_t)p * 4u);
    uint32_t modifier = 0, precision = 0, non_uniform = 0;
    if ((token & 0x80000000u) &&
        !token_extended(data, &p, end, &modifier, &precision, &non_uniform))
        return SB_IR_FAST_DECLINED;
    const struct sb_sm4_operand_head h = sb_sm4_operand_head(token);
    const uint32_t type = h.type, dimension = h.dimension, encoded = h.encoded;
    const uint32_t selection = h.selection, representations = h.representations, payload = h.payload;
    const bool immediate = h.immediate;
    if (encoded == 3 || selection == 3 || type >= SB_SM4_OPERAND_TYPE_COUNT ||
        (representations != 0 && nested) ||
        (representations == 0 && payload > end - p - 1))
        return SB_IR_FAST_DECLINED;
    const struct file_row *row = &file_rows[type];
    uint32_t lo = ctx->is_sm51 ? row->dims51_min : row->dims_min;
    uint32_t hi = ctx->is_sm51 ? row->dims51_max : row->dims_max;
    if (row->file == SB_IR_FILE_COUNT || dimension < lo || dimension > hi)
        return SB_IR_FAST_DECLINED;
    *type_out = type;
    /* Field by field: a compound literal here was built on the stack and copied. */
    memset(out->index, 0, sizeof(out->index));
    memset(out->imm, 0, sizeof(out->imm));
    out->file = row->file;
    out->index_count = dimension;
    out->modifiers = modifier_bits[modifier];
    out->non_uniform = non_uniform != 0;
    out->min_precision = (uint8_t)precision;
    const uint8_t *at = data + (size_t)(p + 1) * 4u;
    token_components(token, encoded, selection, out);
    if (is_dst && type == SB_SM4_OPERAND_NULL)
        out->mask = 0;
    if (pairs && !is_dst) {
        uint8_t a = (uint8_t)(out->swizzle[0] & 2u), b = (uint8_t)(out->swizzle[2] & 2u);
        out->swizzle[0] = out->swizzle[2] = a;
        out->swizzle[1] = out->swizzle[3] = b;
    }
    if (immediate) {
        token_immediate(at, payload, out);
    } else if (representations == 0) {
        switch (dimension) {
        case 3: out->index[2].offset = sb_load_u32_le(at + 8); /* fall through */
        case 2: out->index[1].offset = sb_load_u32_le(at + 4); /* fall through */
        case 1: out->index[0].offset = sb_load_u32_le(at); break;
        default: break;
        }
    } else {
        enum sb_ir_fast r = token_indices(ctx, data, p + 1, pos, end, representations,
                                          ctx->is_sm51 ? row->relative51 : row->relative, out);
        if (r != SB_IR_FAST_DONE)
            return r;
        return check_declared_fast(ctx, out) ? SB_IR_FAST_DONE : SB_IR_FAST_FAILED;
    }
    *pos = p + 1 + payload;
    return check_declared_fast(ctx, out) ? SB_IR_FAST_DONE : SB_IR_FAST_FAILED;
}

/* The register part of a relative index, as convert_relative() makes it. */
static SB_IR_NOINLINE enum sb_ir_fast token_relative(struct sb_ir_sm4_context *ctx,
                                                     const uint8_t *data, uint32_t *pos,
                                                     uint32_t end, struct sb_ir_index *out)
{
    struct sb_ir_operand *rel = sb_ir_alloc_uninit(ctx, 1, sizeof(*rel));
    if (!rel)
        return SB_IR_FAST_FAILED;
    uint32_t type;
    enum sb_ir_fast r = convert_token(ctx, data, pos, end, false, false, true, rel, &type);
    if (r != SB_IR_FAST_DONE)
        return r;
    if (rel->file == SB_IR_FILE_IMMEDIATE)
        return SB_IR_FAST_DECLINED;
    out->relative = rel;
    return SB_IR_FAST_DONE;
}

/* The slot of the operand-form tables for `token`: multiplicative hashing, so tokens that
 * differ only in their swizzle, type or register-count bits spread over the table. */
static inline uint32_t form_slot(uint32_t token)
{
    return (token * 0x9e3779b1u) >> (32u - SB_IR_OPERAND_FORM_BITS);
}

/* Keeps what convert_token() made of the plain operand `token` (done, `payload` DWORDs
 * after it) as its form: `out` less what the payload and the declaration check put in. */
static SB_IR_NOINLINE void remember_form(struct sb_ir_operand_forms *forms, bool is_dst,
                                         uint32_t token, uint32_t type, uint32_t payload,
                                         const struct sb_ir_operand *out)
{
    uint32_t slot = form_slot(token);
    struct sb_ir_operand_form *form = &forms->form[is_dst][slot];
    form->operand = *out;
    for (uint32_t i = 0; i < 3; i++)
        form->operand.index[i].offset = 0;
    memset(form->operand.imm, 0, sizeof(form->operand.imm));
    form->type = (uint8_t)type;
    form->payload = (uint8_t)payload;
    form->immediate = type == SB_SM4_OPERAND_IMMEDIATE32 || type == SB_SM4_OPERAND_IMMEDIATE64;
    forms->token[is_dst][slot] = token;
}

/* A remembered form's operand copied as five 16-byte moves. As an assignment GCC made it a
 * `rep movsl`, whose start-up cost made it the lowering's dearest instruction (perf: an
 * eighth of sb_ir_from_dxbc's samples, once per operand), and -mmemcpy-strategy did not
 * change it (CMakeLists.txt). */
static inline void copy_form_operand(struct sb_ir_operand *to, const struct sb_ir_operand *from)
{
    typedef uint32_t chunk __attribute__((vector_size(16), aligned(8), may_alias));
    _Static_assert(sizeof(*to) == 5 * sizeof(chunk), "an operand is five chunks");
    const chunk *source = (const chunk *)from;
    chunk *target = (chunk *)to;
    chunk c0 = source[0], c1 = source[1], c2 = source[2], c3 = source[3], c4 = source[4];
    target[0] = c0;
    target[1] = c1;
    target[2] = c2;
    target[3] = c3;
    target[4] = c4;
}

/*
 * convert_token() of a top-level operand through ctx->operand_forms: a plain token met
 * before in the same role takes its remembered form and reads only its payload (with the
 * same window test) and the declaration check; any other goes through convert_token(),
 * and is remembered when it is plain and converts. A double's source (`pairs`) is never
 * kept: its swizzle is the pair form.
 */
static inline SB_SM4_ALWAYS_INLINE enum sb_ir_fast
convert_token_cached(struct sb_ir_sm4_context *ctx, const uint8_t *data, uint32_t *pos,
                     uint32_t end, bool is_dst, bool pairs, struct sb_ir_operand *out,
                     uint32_t *type_out)
{
    uint32_t p = *pos;
    if (pairs || p >= end)
        return convert_token(ctx, data, pos, end, is_dst, pairs, false, out, type_out);
    uint32_t token = sb_load_u32_le(data + (size_t)p * 4u);
    struct sb_ir_operand_forms *forms = ctx->operand_forms;
    uint32_t slot = form_slot(token);
    /* An extended token (bit 31) never matches: the empty key has that bit too, and such
     * tokens are never kept. */
    if ((token & 0x80000000u) || forms->token[is_dst][slot] != token) {
        enum sb_ir_fast r = convert_token(ctx, data, pos, end, is_dst, false, false, out,
                                          type_out);
        uint32_t dimension = (token >> 20) & 3u;
        if (r == SB_IR_FAST_DONE && !(token & 0x80000000u) &&
            ((token >> 22) & ((1u << (3 * dimension)) - 1u)) == 0)
            remember_form(forms, is_dst, token, *type_out, *pos - p - 1, out);
        return r;
    }
    const struct sb_ir_operand_form *form = &forms->form[is_dst][slot];
    uint32_t payload = form->payload;
    if (payload > end - p - 1)
        return SB_IR_FAST_DECLINED;
    copy_form_operand(out, &form->operand);
    const uint8_t *at = data + (size_t)(p + 1) * 4u;
    if (form->immediate) {
        token_immediate(at, payload, out);
    } else {
        switch (payload) {
        case 3: out->index[2].offset = sb_load_u32_le(at + 8); /* fall through */
        case 2: out->index[1].offset = sb_load_u32_le(at + 4); /* fall through */
        case 1: out->index[0].offset = sb_load_u32_le(at); break;
        default: break;
        }
    }
    *pos = p + 1 + payload;
    *type_out = form->type;
    return check_declared_fast(ctx, out) ? SB_IR_FAST_DONE : SB_IR_FAST_FAILED;
}

/* The fused path's operand for slot `slot` of `info`: convert_token(), then the slot-kind
 * checks of take_operand(), declining where they fail. Inlined into the loop below. */
static inline SB_SM4_ALWAYS_INLINE enum sb_ir_fast
take_token_operand(struct sb_ir_sm4_context *ctx, const struct sb_ir_op_info *info, uint32_t op,
                   bool is_dst, uint32_t slot, const uint8_t *data, uint32_t *pos, uint32_t end,
                   struct sb_ir_operand *out)
{
    uint32_t type_slot = is_dst ? info->dst_type[slot] : info->src_type[slot];
    uint32_t kind = is_dst ? info->dst_kind[slot] : info->src_kind[slot];
    uint32_t type = 0;
    enum sb_ir_fast r = convert_token_cached(ctx, data, pos, end, is_dst,
                                             type_slot == SB_IR_TYPE_DOUBLE, out, &type);
    if (r != SB_IR_FAST_DONE)
        return r;
    if (!kind_accepts(kind, is_dst, op, file_rows[type].access, out->file) ||
        (!is_dst && out->file == SB_IR_FILE_IMMEDIATE && kind != SB_IR_KIND_VALUE))
        return SB_IR_FAST_DECLINED;
    return SB_IR_FAST_DONE;
}

enum sb_ir_fast sb_ir_take_token_operands(struct sb_ir_sm4_context *ctx,
                                          const struct sb_ir_op_info *info, uint32_t op,
                                          uint32_t dst_count, uint32_t count,
                                          const uint8_t *data, uint32_t pos, uint32_t end,
                                          struct sb_ir_operand *out)
{
    /* Two loops, so each inlined copy knows whether it takes a destination. */
    for (uint32_t i = 0; i < dst_count; i++) {
        enum sb_ir_fast r = take_token_operand(ctx, info, op, true, i, data, &pos, end, &out[i]);
        if (r != SB_IR_FAST_DONE)
            return r;
    }
    for (uint32_t i = dst_count; i < count; i++) {
        enum sb_ir_fast r = take_token_operand(ctx, info, op, false, i - dst_count, data, &pos,
                                               end, &out[i]);
        if (r != SB_IR_FAST_DONE)
            return r;
    }
    return SB_IR_FAST_DONE;
}

bool sb_ir_sm4_type_readable(uint32_t sm4_type)
{
    return sm4_type < SB_SM4_OPERAND_TYPE_COUNT && (file_rows[sm4_type].access & ACC_READ);
}

bool sb_ir_sm4_type_writable(uint32_t sm4_type)
{
    return sm4_type < SB_SM4_OPERAND_TYPE_COUNT && (file_rows[sm4_type].access & ACC_WRITE);
}
