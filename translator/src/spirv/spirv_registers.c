/* SPDX-License-Identifier: MIT */
/*
 * Registers of the SPIR-V back end (model: spirv_private.h): the typed views
 * of lane values (types, constants, bitcast views, tests), and the declaration
 * of r#, x#, the icb and the v#/o#/special register arrays. Lanes are stored as
 * float and viewed through OpBitcast so that bits survive as D3D requires
 * (IR.md §Registers). The operand loads and stores that address these arrays
 * are in spirv_operand.c.
 */
#include "spirv_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types and constants ---------------------------------------------------------------- */

uint32_t sb_spv_type_of_slow(struct sb_spv_context *ctx, uint32_t ir_type, uint32_t n)
{
    if (n < 1 || n > 4)
        n = 1;
    switch (ir_type) {
    case SB_IR_TYPE_INT: return sb_spv_t_ivec(ctx, n);
    case SB_IR_TYPE_UINT: return sb_spv_t_uvec(ctx, n);
    case SB_IR_TYPE_BOOL: return sb_spv_t_bvec(ctx, n);
    case SB_IR_TYPE_DOUBLE:
        if (!ctx->t.f64) {
            sb_spv_capability(&ctx->builder, SpvCapabilityFloat64);
            ctx->t.f64 = sb_spv_type_float(&ctx->builder, 64);
        }
        return sb_spv_type_vector(&ctx->builder, ctx->t.f64, n);
    case SB_IR_TYPE_FLOAT:
    default: return sb_spv_t_fvec(ctx, n);
    }
}

uint32_t sb_spv_t_u64vec(struct sb_spv_context *ctx, uint32_t n)
{
    if (!ctx->t.u64) {
        sb_spv_capability(&ctx->builder, SpvCapabilityInt64);
        ctx->t.u64 = sb_spv_type_int(&ctx->builder, 64, false);
    }
    return n > 1 ? sb_spv_type_vector(&ctx->builder, ctx->t.u64, n) : ctx->t.u64;
}

uint32_t sb_spv_const_of(struct sb_spv_context *ctx, uint32_t ir_type, uint32_t n, uint32_t bits)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t scalar;
    if (ir_type == SB_IR_TYPE_BOOL)
        scalar = sb_spv_const_bool(b, bits != 0);
    else
        scalar = sb_spv_const32(b, sb_spv_type_of(ctx, ir_type, 1), bits);
    return sb_spv_const_splat(b, sb_spv_type_of(ctx, ir_type, n), scalar, n);
}

uint32_t sb_spv_convert_view_slow(struct sb_spv_context *ctx, uint32_t value, uint32_t from_type,
                                  uint32_t to_type, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (from_type == to_type || !value)
        return value;
    if (from_type == SB_IR_TYPE_BOOL) {
        uint32_t ones = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0xFFFFFFFFu);
        uint32_t zero = sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0);
        uint32_t u = sb_spv_op3(b, SpvOpSelect, sb_spv_t_uvec(ctx, n), value, ones, zero);
        return sb_spv_bitcast(b, sb_spv_type_of(ctx, to_type, n), sb_spv_t_uvec(ctx, n), u);
    }
    if (to_type == SB_IR_TYPE_BOOL) {
        uint32_t u = sb_spv_bitcast(b, sb_spv_t_uvec(ctx, n), sb_spv_type_of(ctx, from_type, n), value);
        return sb_spv_op2(b, SpvOpINotEqual, sb_spv_t_bvec(ctx, n), u,
                          sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0));
    }
    return sb_spv_op1(b, SpvOpBitcast, sb_spv_type_of(ctx, to_type, n), value);
}

uint32_t sb_spv_test_value(struct sb_spv_context *ctx, uint32_t value, uint32_t type, uint32_t n,
                           bool test_nz)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (type == SB_IR_TYPE_BOOL)
        return test_nz ? value : sb_spv_op1(b, SpvOpLogicalNot, sb_spv_t_bvec(ctx, n), value);
    uint32_t u = sb_spv_bitcast(b, sb_spv_t_uvec(ctx, n), sb_spv_type_of(ctx, type, n), value);
    return sb_spv_op2(b, test_nz ? SpvOpINotEqual : SpvOpIEqual, sb_spv_t_bvec(ctx, n), u,
                      sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0));
}

/* ---- declarations --------------------------------------------------------------------------------- */

uint32_t sb_spv_register_file_declare(struct sb_spv_context *ctx, uint32_t file, uint32_t count,
                                      uint32_t outer)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_register_file *f = &ctx->files[file];
    if (file >= SB_IR_FILE_COUNT)
        return 0;
    if (f->var)
        return f->var;
    if (!count)
        count = 1;
    /* A flat file gets one zero element more: a dynamic index is clamped to it, so reads
     * out of range give 0 and writes land there (IR.md: D3D keeps relative v#/o# inside an
     * index range and leaves the rest undefined; consumers return 0, as for x#). */
    uint32_t type = sb_spv_type_array(b, sb_spv_t_fvec(ctx, 4), outer ? count : count + 1);
    if (outer)
        type = sb_spv_type_array(b, type, outer);
    f->var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassPrivate, type),
                                    SpvStorageClassPrivate, outer ? 0 : sb_spv_const_null(b, type));
    f->count = count;
    f->outer = outer;
    if (ctx->debug_info) {
        char name[24];
        snprintf(name, sizeof(name), file == SB_IR_FILE_INPUT    ? "v"
                                     : file == SB_IR_FILE_OUTPUT ? "o"
                                                                 : "special%u",
                 file);
        sb_spv_debug_name(ctx, f->var, name);
    }
    return f->var;
}

/* Files whose arrays this file declares (the stage hooks own the arrayed ones). */
static bool core_file(const struct sb_ir_program *p, uint32_t file)
{
    bool arrayed_input = p->stage == SB_IR_STAGE_GEOMETRY || p->stage == SB_IR_STAGE_HULL ||
                         p->stage == SB_IR_STAGE_DOMAIN;
    switch (file) {
    case SB_IR_FILE_INPUT: return !arrayed_input;
    case SB_IR_FILE_OUTPUT: return p->stage != SB_IR_STAGE_HULL;
    case SB_IR_FILE_INPUT_CONTROL_POINT:
    case SB_IR_FILE_OUTPUT_CONTROL_POINT:
    case SB_IR_FILE_INPUT_PATCH_CONSTANT:
        return false;
    default:
        return (file >= SB_IR_FILE_PRIMITIVE_ID && file <= SB_IR_FILE_STENCIL_REF) ||
               file == SB_IR_FILE_VIEW_ID || file == SB_IR_FILE_HELPER_LANE ||
               file == SB_IR_FILE_BASE_VERTEX || file == SB_IR_FILE_BASE_INSTANCE;
    }
}

#define VS (1u << SB_IR_STAGE_VERTEX)
#define PS (1u << SB_IR_STAGE_PIXEL)
#define GS (1u << SB_IR_STAGE_GEOMETRY)
#define HS (1u << SB_IR_STAGE_HULL)
#define DS (1u << SB_IR_STAGE_DOMAIN)
#define CS (1u << SB_IR_STAGE_COMPUTE)
/* Mesh and amplification programs run in workgroups, with the compute thread ids. */
#define MS ((1u << SB_IR_STAGE_MESH) | (1u << SB_IR_STAGE_AMPLIFICATION))

/* The stages in which each special one-register file exists (../shared/docs/sm4-tokens.md);
 * 0 = not a special file (the control-point files belong to the stage hooks). */
static const uint8_t special_file_stages[SB_IR_FILE_COUNT] = {
    [SB_IR_FILE_PRIMITIVE_ID] = PS | GS | HS | DS,
    [SB_IR_FILE_THREAD_ID] = CS | MS,
    [SB_IR_FILE_THREAD_GROUP_ID] = CS | MS,
    [SB_IR_FILE_THREAD_ID_IN_GROUP] = CS | MS,
    [SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED] = CS | MS,
    [SB_IR_FILE_COVERAGE_IN] = PS,
    [SB_IR_FILE_INNER_COVERAGE] = PS,
    [SB_IR_FILE_GS_INSTANCE_ID] = GS,
    [SB_IR_FILE_DOMAIN_POINT] = DS,
    [SB_IR_FILE_OUTPUT_CONTROL_POINT_ID] = HS,
    [SB_IR_FILE_FORK_INSTANCE_ID] = HS,
    [SB_IR_FILE_JOIN_INSTANCE_ID] = HS,
    [SB_IR_FILE_CYCLE_COUNTER] = VS | PS | GS | HS | DS | CS | MS,
    [SB_IR_FILE_DEPTH] = PS,
    [SB_IR_FILE_DEPTH_GREATER_EQUAL] = PS,
    [SB_IR_FILE_DEPTH_LESS_EQUAL] = PS,
    [SB_IR_FILE_COVERAGE_OUT] = PS,
    [SB_IR_FILE_STENCIL_REF] = PS,
    [SB_IR_FILE_VIEW_ID] = VS | PS | GS | HS | DS | (1u << SB_IR_STAGE_MESH),
    [SB_IR_FILE_HELPER_LANE] = PS,
    [SB_IR_FILE_BASE_VERTEX] = VS, [SB_IR_FILE_BASE_INSTANCE] = VS,
};

#undef VS
#undef PS
#undef GS
#undef HS
#undef DS
#undef CS
#undef MS

/* The registers the scan found each file needs (0: the file is not used), and the files
 * with any, one bit each (declare_files visits only those). */
struct file_need {
    uint32_t count[SB_IR_FILE_COUNT];
    uint64_t used;
};
_Static_assert(SB_IR_FILE_COUNT <= 64, "one bit per register file");

static inline void need_at_least(struct file_need *need, uint32_t file, uint32_t count)
{
    if (need->count[file] < count) {
        need->count[file] = count;
        need->used |= 1ull << file;
    }
}

/* The files whose registers the scan records (declare_files reads their need and uses[] of
 * these only): v#, o#, cb#, the special one-register files and this[]. */
static const bool file_recorded[SB_IR_FILE_COUNT] = {
    [SB_IR_FILE_INPUT] = true, [SB_IR_FILE_OUTPUT] = true, [SB_IR_FILE_CONSTANT_BUFFER] = true,
    [SB_IR_FILE_PRIMITIVE_ID] = true, [SB_IR_FILE_THREAD_ID] = true, [SB_IR_FILE_THREAD_GROUP_ID] = true,
    [SB_IR_FILE_THREAD_ID_IN_GROUP] = true, [SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED] = true,
    [SB_IR_FILE_COVERAGE_IN] = true, [SB_IR_FILE_INNER_COVERAGE] = true, [SB_IR_FILE_GS_INSTANCE_ID] = true,
    [SB_IR_FILE_DOMAIN_POINT] = true, [SB_IR_FILE_OUTPUT_CONTROL_POINT_ID] = true,
    [SB_IR_FILE_FORK_INSTANCE_ID] = true, [SB_IR_FILE_JOIN_INSTANCE_ID] = true,
    [SB_IR_FILE_CYCLE_COUNTER] = true, [SB_IR_FILE_INPUT_CONTROL_POINT] = true,
    [SB_IR_FILE_OUTPUT_CONTROL_POINT] = true, [SB_IR_FILE_INPUT_PATCH_CONSTANT] = true,
    [SB_IR_FILE_DEPTH] = true, [SB_IR_FILE_DEPTH_GREATER_EQUAL] = true, [SB_IR_FILE_DEPTH_LESS_EQUAL] = true,
    [SB_IR_FILE_COVERAGE_OUT] = true, [SB_IR_FILE_STENCIL_REF] = true, [SB_IR_FILE_THIS_POINTER] = true,
    [SB_IR_FILE_VIEW_ID] = true, [SB_IR_FILE_HELPER_LANE] = true,
    [SB_IR_FILE_BASE_VERTEX] = true, [SB_IR_FILE_BASE_INSTANCE] = true,
};

/* Whether any of the (at most three) indices of `op` has a relative part. */
static inline bool has_relative_index(const struct sb_ir_operand *op)
{
    /* Without a loop: the scan asks this of every operand, and the count changes from one
     * operand to the next. */
    uint32_t n = op->index_count;
    uintptr_t r = ((uintptr_t)op->index[0].relative & -(uintptr_t)(n > 0)) |
                  ((uintptr_t)op->index[1].relative & -(uintptr_t)(n > 1)) |
                  ((uintptr_t)op->index[2].relative & -(uintptr_t)(n > 2));
    return r != 0;
}

/* How the instructions use a register file (declare_files): what keeps it from being direct. */
#define FILE_READ 0x1u
#define FILE_WRITTEN 0x2u
#define FILE_INDEXED 0x4u

/*
 * What one operand itself tells (not its relative indices): the lanes of v# it reads,
 * how its file is used, the cb# vectors it reaches and the registers its file needs.
 * `indexed`: has_relative_index(op).
 */
static inline void note_register(struct sb_spv_context *ctx, struct file_need *need, uint8_t *uses,
                                 const struct sb_ir_operand *op, bool written, bool indexed)
{
    if (op->file >= SB_IR_FILE_COUNT)
        return;
    if (written)
        ctx->files_written |= 1ull << op->file;
    else if (op->file == SB_IR_FILE_INPUT) {
        uint32_t reg = op->index_count ? op->index[op->index_count - 1].offset : 0;
        if (reg < 64)
            ctx->input_lanes_read[reg] |= (uint8_t)((1u << (op->swizzle[0] & 3u)) | (1u << (op->swizzle[1] & 3u)) |
                                                    (1u << (op->swizzle[2] & 3u)) | (1u << (op->swizzle[3] & 3u)));
        else
            ctx->input_read_high = true;
    }
    uses[op->file] |= (written ? FILE_WRITTEN : FILE_READ) | (indexed ? FILE_INDEXED : 0u);
    if (op->file == SB_IR_FILE_CONSTANT_BUFFER) {
        /* [0] id, [1] vector; SM5.1 [0] id, [1] register, [2] vector. */
        uint32_t id = op->index[0].offset, slot = op->index_count >= 3 ? 2 : 1;
        if (op->index_count >= 2 && id < 64 && op->index[slot].offset < 4096 &&
            ctx->cb_used[id] < op->index[slot].offset + 1)
            ctx->cb_used[id] = op->index[slot].offset + 1;
        if (op->index_count >= 2 && id < 64 && op->index[slot].relative)
            ctx->cb_relative[id] = true;
        return;
    }
    uint32_t n = 1;
    if (op->index_count >= 1 && (op->file == SB_IR_FILE_INPUT || op->file == SB_IR_FILE_OUTPUT))
        n = op->index[op->index_count - 1].offset + 1;
    if (n > 4096)
        n = 4096; /* an absurd index fails later with a clear message */
    need_at_least(need, op->file, n);
}

/*
 * How the r# of a DXIL program are used (declare_temp_variables), gathered by the file
 * scan: per register the lanes written and SB_SPV_TEMP_NEEDS_MEMORY in `written`, the
 * stretch of its last ALU write in `last_write`; `region` numbers the stretches between
 * flow instructions and functions as sb_spv_emit_function meets them (both only ever
 * count up, so two instructions share a number only inside one stretch).
 *
 * An r# only ever written in x is a scalar (sb_spv_temp_is_scalar): DXIL's values are one
 * lane each (ir_from_dxil_emit.c), and as vec4s every write loaded the old vector to insert
 * its lane and every read extracted it again. Its other lanes are never written, so they
 * keep their initial value, which the vec4 left undefined (no initializer): reads of them
 * get 0, the interpreter's value for a register never written.
 *
 * A scalar needs no variable at all (sb_spv_temp_is_memoryless) when ALU instructions
 * alone write it and every read follows such a write in the same stretch: the operand
 * layer keeps the written id for the stretch, and that id dominates the rest of it (an
 * ALU instruction stays in its block; any block another instruction opens inside the
 * stretch lies in a construct that instruction closes). Most of DXIL's values are used
 * only in the block that computes them: their stores were nearly all of a DXIL module's
 * Private traffic, and nothing loaded them. Reads in a later stretch (after an if, inside
 * a loop, after a call), writes by other instructions (a sample's result) and reads
 * before any write set SB_SPV_TEMP_NEEDS_MEMORY.
 */
struct temp_scan {
    uint32_t *written, *last_write, count, region;
};

/* A read of the r# `op` (file TEMP): one where no ALU instruction of this stretch wrote it
 * yet needs the value from memory. */
static inline void note_temp_read(struct temp_scan *t, const struct sb_ir_operand *op)
{
    if (op->index_count >= 1 && !op->index[0].relative && op->index[0].offset < t->count &&
        t->last_write[op->index[0].offset] != t->region)
        t->written[op->index[0].offset] |= SB_SPV_TEMP_NEEDS_MEMORY;
}

/* After an instruction's reads: its r# writes, and the end of a stretch at a flow
 * instruction (as dispatch(), after the instruction's own reads). */
static void note_temp_writes(struct temp_scan *t, const struct sb_ir_instruction *inst)
{
    uint32_t memory = sb_spv_op_is_alu(inst->op) ? 0u : SB_SPV_TEMP_NEEDS_MEMORY;
    for (uint32_t d = 0; d < inst->dst_count; d++) {
        const struct sb_ir_operand *dst = &inst->dst[d];
        if (dst->file == SB_IR_FILE_TEMP && dst->index_count >= 1 && dst->index[0].offset < t->count) {
            t->written[dst->index[0].offset] |= (dst->mask & 0xFu) | memory;
            t->last_write[dst->index[0].offset] = t->region;
        }
    }
    if (sb_spv_op_is_flow(inst->op))
        t->region++;
}

/* note_register() for `op` and, to a depth of four, for the operands of its relative
 * indices (reads, an r# among them too). */
static void note_operand(struct sb_spv_context *ctx, struct file_need *need, uint8_t *uses, struct temp_scan *t,
                         const struct sb_ir_operand *op, bool written, int depth)
{
    if (depth > 4)
        return;
    if (t && !written && op->file == SB_IR_FILE_TEMP)
        note_temp_read(t, op);
    note_register(ctx, need, uses, op, written, has_relative_index(op));
    for (uint32_t i = 0; i < op->index_count && i < 3; i++)
        if (op->index[i].relative)
            note_operand(ctx, need, uses, t, op->index[i].relative, false, depth + 1);
}

/*
 * One operand of the scan. Most (r#, immediates) are rejected by the first test, and
 * t#, s#, u# and the like by the table; one without a relative index needs no call.
 * (r# and immediates are looked through for a relative first index only, as ever.)
 */
static inline void note_if_recorded(struct sb_spv_context *ctx, struct file_need *need, uint8_t *uses,
                                    struct temp_scan *t, const struct sb_ir_operand *op, bool written)
{
    /* r# and immediates have one index at most: has_relative_index() looks at no more. */
    if (__builtin_expect(has_relative_index(op), 0))
        note_operand(ctx, need, uses, t, op, written, 0);
    else if (t && !written && op->file == SB_IR_FILE_TEMP)
        note_temp_read(t, op);
    else if (op->file < SB_IR_FILE_COUNT && file_recorded[op->file])
        note_register(ctx, need, uses, op, written, false);
}

/*
 * Can `file` go without its Private array (model in spirv_private.h)? Only where the
 * entry body is the one function that touches it (a vertex, pixel or compute shader
 * of one function, or the o# of such a domain shader, which only the copy-out after
 * the body reads: subroutines use the arrays, and so does the GS/HS/DS plumbing for
 * the files it fills or copies around emits and phases), no dynamic index needs memory
 * (nor an index range), an input is never written and an output never read back.
 */
static bool file_can_be_direct(const struct sb_ir_program *p, uint32_t file, uint8_t uses)
{
    bool core_stage = p->stage == SB_IR_STAGE_VERTEX || p->stage == SB_IR_STAGE_PIXEL ||
                      p->stage == SB_IR_STAGE_COMPUTE;
    if (p->function_count != 1 || !(core_stage || (p->stage == SB_IR_STAGE_DOMAIN && file == SB_IR_FILE_OUTPUT)))
        return false;
    if (uses & FILE_INDEXED)
        return false;
    return !(uses & (sb_spv_is_output_file(file) ? FILE_READ : FILE_WRITTEN));
}

/*
 * Entry-body instructions in order: the output lanes written on every path (outside any
 * if/loop/switch, before the first ret or retc) go to ctx->output_lanes_sure /
 * special_lanes_sure. `depth` counts the open constructs; false once a return is seen.
 */
static bool note_surely_written(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                uint32_t *depth)
{
    switch (inst->op) {
    case SB_IR_OP_IF: case SB_IR_OP_LOOP: case SB_IR_OP_SWITCH:
        (*depth)++;
        return true;
    case SB_IR_OP_ENDIF: case SB_IR_OP_ENDLOOP: case SB_IR_OP_ENDSWITCH:
        *depth -= *depth ? 1 : 0;
        return true;
    case SB_IR_OP_RET: case SB_IR_OP_RETC:
        return false;
    default:
        break;
    }
    if (*depth)
        return true;
    for (uint32_t d = 0; d < inst->dst_count; d++) {
        const struct sb_ir_operand *dst = &inst->dst[d];
        if (dst->file == SB_IR_FILE_OUTPUT) {
            if (dst->index_count && !dst->index[0].relative && dst->index[0].offset < 64)
                ctx->output_lanes_sure[dst->index[0].offset] |= dst->mask;
        } else if (sb_spv_is_output_file(dst->file)) {
            ctx->special_lanes_sure[dst->file] |= dst->mask;
        }
    }
    return true;
}

/* Where `file` is first declared or used: the byte offset a refusal names. Only a refused
 * shader needs it, so it is searched here rather than tracked by declare_files' scan. */
static uint64_t first_use(const struct sb_ir_program *p, uint32_t file)
{
    for (uint32_t i = 0; i < p->signature_count; i++)
        if (p->signature[i].file == file && p->signature[i].offset)
            return p->signature[i].offset;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &p->functions[f].instructions[i];
            for (uint32_t d = 0; d < inst->dst_count; d++)
                if (inst->dst[d].file == file)
                    return inst->offset;
            for (uint32_t s = 0; s < inst->src_count; s++)
                if (inst->src[s].file == file)
                    return inst->offset;
        }
    return 0;
}

/* What declare_files and declare_temp_variables need to know of the instructions, in one
 * pass; `t` NULL: the r# are not looked at (all vec4s with a variable). */
static inline void scan_program(struct sb_spv_context *ctx, struct file_need *need, uint8_t *uses, struct temp_scan *t)
{
    const struct sb_ir_program *p = ctx->program;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->file >= SB_IR_FILE_COUNT)
            continue;
        uint32_t n = (e->file == SB_IR_FILE_INPUT || e->file == SB_IR_FILE_OUTPUT)
                         ? e->register_index + 1 : 1;
        if (n <= 4096)
            need_at_least(need, e->file, n);
    }
    for (uint32_t i = 0; i < p->index_range_count; i++) {
        const struct sb_ir_index_range *r = &p->index_ranges[i];
        uint64_t end = (uint64_t)r->first + r->count;
        if (r->file < SB_IR_FILE_COUNT && end <= 4096)
            need_at_least(need, r->file, (uint32_t)end);
        if (r->file < SB_IR_FILE_COUNT)
            uses[r->file] |= FILE_INDEXED;
    }
    /* Counts and pointers in locals: note_operand() writes through ctx, which the compiler
     * must otherwise assume may change the program, and reload them for every operand. */
    bool entry_sure = true; /* still before the entry body's first return */
    uint32_t entry_depth = 0;
    if (t)
        t->region = 0;
    for (uint32_t f = 0; f < p->function_count; f++) {
        if (t)
            t->region++; /* as sb_spv_emit_function: every function starts a stretch */
        if (!p->functions[f].instruction_count) /* an empty hull phase: no array (NULL) */
            continue;
        const struct sb_ir_instruction *inst = p->functions[f].instructions;
        const struct sb_ir_instruction *end = inst + p->functions[f].instruction_count;
        for (; inst < end; inst++) {
            const struct sb_ir_operand *dst = inst->dst, *src = inst->src;
            uint32_t dst_count = inst->dst_count, src_count = inst->src_count;
            if (f == 0 && entry_sure)
                entry_sure = note_surely_written(ctx, inst, &entry_depth);
            /* Sources (and the destinations' relative indices) are read before the write. */
            for (uint32_t d = 0; d < dst_count; d++)
                note_if_recorded(ctx, need, uses, t, &dst[d], true);
            for (uint32_t s = 0; s < src_count; s++)
                note_if_recorded(ctx, need, uses, t, &src[s], false);
            if (t)
                note_temp_writes(t, inst);
        }
    }
}

static enum sb_result declare_files(struct sb_spv_context *ctx, const struct file_need *need, const uint8_t *uses)
{
    const struct sb_ir_program *p = ctx->program;
    ctx->cb_scanned = true;
    ctx->this_pointer_used = need->count[SB_IR_FILE_THIS_POINTER] != 0;
    /* A shader uses a handful of the 51 files: both loops below visit only those. */
    uint64_t used = need->used;
    for (uint64_t left = used >> SB_IR_FILE_PRIMITIVE_ID << SB_IR_FILE_PRIMITIVE_ID; left;
         left &= left - 1) {
        uint32_t file = (uint32_t)__builtin_ctzll(left);
        if (special_file_stages[file] && p->stage <= SB_IR_STAGE_AMPLIFICATION &&
            !(special_file_stages[file] & (1u << p->stage))) {
            struct sb_ir_instruction at;
            memset(&at, 0, sizeof(at));
            at.offset = first_use(p, file);
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                               "special register %s does not exist in this shader stage", sb_ir_file_name(file));
        }
    }
    /* core_file() holds for v#, o# and the special files only: no other file is looked at. */
    for (uint64_t left = used >> SB_IR_FILE_INPUT << SB_IR_FILE_INPUT; left; left &= left - 1) {
        uint32_t file = (uint32_t)__builtin_ctzll(left);
        if (!core_file(p, file))
            continue;
        if (file_can_be_direct(p, file, uses[file])) {
            ctx->files[file].direct = true;
            ctx->files[file].count = need->count[file];
        } else {
            sb_spv_register_file_declare(ctx, file, need->count[file], 0);
        }
    }
    return ctx->result;
}

/* The r# tables (spirv_private.h): their variables come once the scan has seen the uses. */
static enum sb_result allocate_temps(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    uint32_t count = p->temp_count;
    for (uint32_t f = 0; f < p->function_count; f++)
        if (p->functions[f].temp_count > count)
            count = p->functions[f].temp_count;
    if (count > 4096) /* D3D's limit; also keeps the 1.4+ interface list within one instruction */
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "%u temporary registers (D3D allows 4096)",
                           count);
    /* One allocation: variables, then the cached values, blocks, epochs, the deferred
     * writes (list and flags), which stores were read and the lanes written. */
    size_t slots = count ? count : 1;
    ctx->temps = sb_spv_zalloc(ctx, 9 * slots, sizeof(uint32_t));
    if (!ctx->temps)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    ctx->temp_value = ctx->temps + slots;
    ctx->temp_block = ctx->temp_value + slots;
    ctx->temp_epoch = ctx->temp_block + slots;
    ctx->temp_dirty = ctx->temp_epoch + slots;
    ctx->temp_is_dirty = ctx->temp_dirty + slots;
    ctx->temp_read_upto = ctx->temp_is_dirty + slots;
    ctx->temp_read_block = ctx->temp_read_upto + slots;
    ctx->temp_written = ctx->temp_read_block + slots;
    ctx->temp_generation = 1;
    ctx->temp_count = count;
    return SB_SUCCESS;
}

/* The variables of the r# that need one (scan_program has filled temp_written). */
static void declare_temp_variables(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    for (uint32_t i = 0; i < ctx->temp_count; i++) {
        if (sb_spv_temp_is_memoryless(ctx, i))
            continue; /* no variable: temps[i] stays 0 */
        uint32_t type = sb_spv_temp_is_scalar(ctx, i) ? sb_spv_t_ptr_private_f32(ctx)
                                                      : sb_spv_t_ptr_private_vec4(ctx);
        ctx->temps[i] = sb_spv_variable_global(b, type, SpvStorageClassPrivate, 0);
        if (ctx->debug_info) {
            char name[16];
            snprintf(name, sizeof(name), "r%u", i);
            sb_spv_debug_name(ctx, ctx->temps[i], name);
        }
    }
}

static enum sb_result declare_indexable(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t max = 0;
    for (uint32_t i = 0; i < p->indexable_temp_count; i++) {
        if (p->indexable_temps[i].id >= 65536)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "indexable temp x%u",
                               p->indexable_temps[i].id);
        if (p->indexable_temps[i].id + 1 > max)
            max = p->indexable_temps[i].id + 1;
    }
    if (!max)
        return SB_SUCCESS;
    ctx->indexable = sb_spv_zalloc(ctx, max, sizeof(*ctx->indexable));
    if (!ctx->indexable)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    ctx->indexable_count = max;
    for (uint32_t i = 0; i < p->indexable_temp_count; i++) {
        const struct sb_ir_indexable_temp *x = &p->indexable_temps[i];
        struct sb_spv_indexable *slot = &ctx->indexable[x->id];
        uint32_t count = x->count ? x->count : 1;
        if (slot->var)
            continue;
        /* One element more than declared: a dynamic index is clamped to it, so writes out of
         * range land there and never in a declared element (IR.md: D3D leaves reads and
         * writes out of range undefined; consumers return 0 and drop writes). No
         * initializer, as D3D gives x# none: with any zero store to the array (initializer
         * or explicit store) lavapipe runs shaders whose loops read x#[r + k] up to 4x
         * slower (BC7Encode_137); a read out of range selects 0 instead (spirv_operand.c,
         * indexable_in_range). */
        uint32_t type = sb_spv_type_array(b, sb_spv_t_fvec(ctx, 4), count + 1);
        slot->var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassPrivate, type),
                                           SpvStorageClassPrivate, 0);
        slot->count = count;
        if (ctx->debug_info) {
            char name[16];
            snprintf(name, sizeof(name), "x%u", x->id);
            sb_spv_debug_name(ctx, slot->var, name);
        }
    }
    return SB_SUCCESS;
}

/* The icb as a Private uvec4 array with a constant initializer: uint, so that
 * integer data never passes through float constants a driver might flush. */
static enum sb_result declare_icb(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t n = p->icb_vector_count;
    if (!n || !p->icb)
        return SB_SUCCESS;
    /* A zero row after the data: dynamic indices are clamped to it (reads out of range
     * give 0, IR.md). */
    uint32_t *rows = sb_arena_alloc_uninit(ctx->scratch, (size_t)n + 1, sizeof(*rows));
    if (!rows)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lanes[4];
        for (uint32_t c = 0; c < 4; c++)
            lanes[c] = sb_spv_const32(b, sb_spv_t_u32(ctx), p->icb[4 * i + c]);
        rows[i] = sb_spv_const_composite(b, sb_spv_t_uvec(ctx, 4), lanes, 4);
    }
    rows[n] = sb_spv_const_null(b, sb_spv_t_uvec(ctx, 4));
    uint32_t type = sb_spv_type_array(b, sb_spv_t_uvec(ctx, 4), n + 1);
    uint32_t init = sb_spv_const_composite(b, type, rows, n + 1);
    ctx->icb_var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassPrivate, type),
                                          SpvStorageClassPrivate, init);
    sb_spv_debug_name(ctx, ctx->icb_var, "icb");
    return SB_SUCCESS;
}

enum sb_result sb_spv_registers_declare(struct sb_spv_context *ctx)
{
    enum sb_result r;
    if ((r = allocate_temps(ctx)) != SB_SUCCESS)
        return r;
    struct file_need need = { .used = 0 };
    uint8_t uses[SB_IR_FILE_COUNT] = { 0 };
    /* The r# shapes pay where each value has its own one-lane r# (the DXIL front end);
     * SM4 and PICA registers are vec4s that nearly always need memory, and the analysis
     * would cost their translation 5% for 0.2% smaller modules. The scan's last writes go
     * in temp_block, zeroed again before the emission uses it. */
    ctx->temp_shapes = ctx->program->source == SB_IR_SOURCE_DXIL;
    struct temp_scan t = { .written = ctx->temp_written, .last_write = ctx->temp_block, .count = ctx->temp_count };
    if (ctx->temp_shapes) {
        scan_program(ctx, &need, uses, &t);
        memset(ctx->temp_block, 0, (ctx->temp_count ? ctx->temp_count : 1) * sizeof(*ctx->temp_block));
    } else {
        scan_program(ctx, &need, uses, NULL); /* a copy without the r# work, inlined */
    }
    declare_temp_variables(ctx);
    if ((r = declare_indexable(ctx)) != SB_SUCCESS || (r = declare_icb(ctx)) != SB_SUCCESS)
        return r;
    return declare_files(ctx, &need, uses);
}
