/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_validate(): the IR's structural promises (translator/IR.md
 * §Operands, §Control flow, §Functions) checked on a finished program, so
 * every producer — the SM4/5 front end, the coming PICA200 front end, passes,
 * hand-built test programs — can be held to them in tests, and a consumer
 * can refuse a program instead of misreading it. It re-derives everything
 * from the program alone (no decoder state).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_private.h"
#include "error.h"

/* Deepest relative-index nesting accepted (the SM4 decoder stops at 4). */
#define IR_MAX_RELATIVE_DEPTH 8u

struct validator {
    const struct sb_ir_program *program;
    const struct sb_ir_function *function;
    const struct sb_ir_instruction *at;
    struct sb_error *error;
    bool failed;
};

static bool invalid(struct validator *v, const char *format, ...) SB_IR_PRINTF(2, 3);
static bool invalid(struct validator *v, const char *format, ...)
{
    if (v->failed)
        return false;
    v->failed = true;
    if (!v->error)
        return false;
    char detail[SB_ERROR_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof(detail), format, args);
    va_end(args);
    sb_error_set(v->error, SB_ERROR_TRANSLATE_INVALID, v->at ? v->at->offset : 0, SB_ERROR_NO_INSTR,
                 "IR %.24s: %.150s", v->at ? sb_ir_op_name(v->at->op) : "program", detail);
    return false;
}

static bool declared_indexable(const struct sb_ir_program *p, uint32_t id)
{
    for (uint32_t i = 0; i < p->indexable_temp_count; i++)
        if (p->indexable_temps[i].id == id)
            return true;
    return false;
}

static bool declared_shared(const struct sb_ir_program *p, uint32_t id)
{
    for (uint32_t i = 0; i < p->group_shared_count; i++)
        if (p->group_shared[i].id == id)
            return true;
    return false;
}

static bool check_operand(struct validator *v, const struct sb_ir_operand *op, unsigned depth);

/* The relative indices of `op` (check_operand has checked index_count). */
static bool check_indices(struct validator *v, const struct sb_ir_operand *op, unsigned depth)
{
    for (uint32_t i = 0; i < op->index_count; i++) {
        const struct sb_ir_operand *rel = op->index[i].relative;
        if (!rel)
            continue;
        if (depth >= IR_MAX_RELATIVE_DEPTH)
            return invalid(v, "relative indices nested deeper than %u", IR_MAX_RELATIVE_DEPTH);
        if (op->file == SB_IR_FILE_TEMP || rel->file == SB_IR_FILE_IMMEDIATE ||
            rel->file == SB_IR_FILE_NULL)
            return invalid(v, "relative index of file %u through file %u", op->file, rel->file);
        if (!check_operand(v, rel, depth + 1))
            return false;
    }
    return true;
}

/* IR.md §Compute derivatives: QUADS needs an even X and Y, LINEAR a multiple of 4 threads,
 * both a compute program. */
static bool compute_quads_fit(const struct sb_ir_program *p)
{
    const uint32_t *g = p->thread_group;
    if (p->stage != SB_IR_STAGE_COMPUTE)
        return false;
    if (p->compute_derivatives == SB_IR_COMPUTE_DERIVATIVES_QUADS)
        return g[0] % 2 == 0 && g[1] % 2 == 0;
    return p->compute_derivatives == SB_IR_COMPUTE_DERIVATIVES_LINEAR &&
           (uint64_t)g[0] * g[1] * g[2] % 4 == 0;
}

/* oMeshVertex[v][r] / oMeshPrimitive[p][r] (IR.md §Mesh and amplification): only in a mesh
 * program, with a constant element below the declared maximum. */
static bool check_mesh_output(struct validator *v, const struct sb_ir_operand *op)
{
    const struct sb_ir_program *p = v->program;
    bool vertex = op->file == SB_IR_FILE_MESH_VERTEX;
    uint32_t max = vertex ? p->mesh_max_vertices : p->mesh_max_primitives;
    if (p->stage != SB_IR_STAGE_MESH)
        return invalid(v, "%s outside a mesh program", sb_ir_file_name(op->file));
    if (op->index_count != 2 || op->index[1].relative)
        return invalid(v, "%s needs an element and a constant register", sb_ir_file_name(op->file));
    if (!op->index[0].relative && op->index[0].offset >= max)
        return invalid(v, "%s[%u] with %u declared", sb_ir_file_name(op->file),
                       op->index[0].offset, max);
    return true;
}

/* vViewID, vHelperLane, vBaseVertex and vBaseInstance (IR.md §System values): no index; the
 * view index exists in the graphics stages, helper lanes only in pixel programs, the draw's
 * first vertex and instance only in vertex programs. */
static bool check_system_value_file(struct validator *v, const struct sb_ir_operand *op)
{
    uint32_t stage = v->program->stage;
    bool graphics = stage != SB_IR_STAGE_COMPUTE && stage != SB_IR_STAGE_AMPLIFICATION;
    if (op->index_count != 0)
        return invalid(v, "%s with an index", sb_ir_file_name(op->file));
    bool vertex_only = op->file == SB_IR_FILE_BASE_VERTEX || op->file == SB_IR_FILE_BASE_INSTANCE;
    if (op->file == SB_IR_FILE_HELPER_LANE ? stage != SB_IR_STAGE_PIXEL
        : vertex_only                      ? stage != SB_IR_STAGE_VERTEX
                                           : !graphics)
        return invalid(v, "%s in a stage %u program", sb_ir_file_name(op->file), stage);
    return true;
}

static bool check_operand(struct validator *v, const struct sb_ir_operand *op, unsigned depth)
{
    const struct sb_ir_program *p = v->program;
    if (op->file >= SB_IR_FILE_COUNT)
        return invalid(v, "register file %u", op->file);
    if (op->mask > 0xf || op->modifiers > (SB_IR_MOD_NEG | SB_IR_MOD_ABS))
        return invalid(v, "mask 0x%x or modifiers 0x%x out of range", op->mask, op->modifiers);
    /* The four lanes at once: any lane above 3 has a bit of 0xFC set. */
    uint32_t lanes;
    memcpy(&lanes, op->swizzle, sizeof(lanes));
    if (lanes & 0xFCFCFCFCu)
        for (int i = 0; i < 4; i++)
            if (op->swizzle[i] > 3)
                return invalid(v, "swizzle lane %u", op->swizzle[i]);
    if (op->index_count > 3)
        return invalid(v, "operand with %u indices", op->index_count);
    bool relative = false;
    for (uint32_t i = 0; i < op->index_count; i++)
        relative |= op->index[i].relative != NULL;
    if (relative && !check_indices(v, op, depth))
        return false;
    uint32_t first = op->index_count ? op->index[0].offset : 0;
    switch (op->file) {
    case SB_IR_FILE_TEMP:
        if (op->index_count != 1 || first >= v->function->temp_count)
            return invalid(v, "r%u with %u temps declared", first, v->function->temp_count);
        return true;
    case SB_IR_FILE_INDEXABLE_TEMP:
        return op->index_count == 2 && declared_indexable(p, first)
                   ? true
                   : invalid(v, "x%u is not declared", first);
    case SB_IR_FILE_GROUP_SHARED:
        return op->index_count == 1 && declared_shared(p, first)
                   ? true
                   : invalid(v, "g%u is not declared", first);
    case SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER:
        return op->index_count == 1 && p->icb ? true : invalid(v, "icb[] without an icb");
    case SB_IR_FILE_MESH_VERTEX:
    case SB_IR_FILE_MESH_PRIMITIVE:
        return check_mesh_output(v, op);
    case SB_IR_FILE_VIEW_ID:
    case SB_IR_FILE_HELPER_LANE:
    case SB_IR_FILE_BASE_VERTEX:
    case SB_IR_FILE_BASE_INSTANCE:
        return check_system_value_file(v, op);
    default:
        return true;
    }
}

/* Files a value slot may read or write (IR.md §Registers), one bit per file: every
 * operand of every instruction asks, so a shift instead of a switch. */
#define FILE_BIT(f) (1ull << SB_IR_FILE_##f)
/* Destinations only: the null sink and the pixel shader's special outputs. */
#define DST_ONLY_FILES (FILE_BIT(NULL) | FILE_BIT(DEPTH) | FILE_BIT(DEPTH_GREATER_EQUAL) | \
                        FILE_BIT(DEPTH_LESS_EQUAL) | FILE_BIT(COVERAGE_OUT) | FILE_BIT(STENCIL_REF))
/* Both ways. */
#define READ_WRITE_FILES (FILE_BIT(TEMP) | FILE_BIT(INDEXABLE_TEMP) | FILE_BIT(OUTPUT) | \
                          FILE_BIT(PICA_ADDRESS) | FILE_BIT(PICA_CONDITION))
/* Neither: resources, labels and the other non-value files. */
#define NON_VALUE_FILES (FILE_BIT(SAMPLER) | FILE_BIT(RESOURCE) | FILE_BIT(UAV) | FILE_BIT(GROUP_SHARED) | \
                         FILE_BIT(LABEL) | FILE_BIT(STREAM) | FILE_BIT(FUNCTION_BODY) | \
                         FILE_BIT(FUNCTION_TABLE) | FILE_BIT(INTERFACE) | FILE_BIT(RASTERIZER) | \
                         FILE_BIT(MESH_VERTEX) | FILE_BIT(MESH_PRIMITIVE))
#define ALL_FILES ((1ull << SB_IR_FILE_COUNT) - 1)
_Static_assert(SB_IR_FILE_COUNT <= 64, "one bit per register file");
static const uint64_t value_files[2] = {
    /* sources: every file but the destination-only and non-value ones */
    ALL_FILES & ~(DST_ONLY_FILES | NON_VALUE_FILES),
    /* destinations */
    DST_ONLY_FILES | READ_WRITE_FILES,
};

static bool value_file(uint32_t file, bool is_dst)
{
    if (file >= SB_IR_FILE_COUNT)
        return !is_dst; /* as any other source file (check_operand refuses the number) */
    return (value_files[is_dst] >> file) & 1u;
}

bool sb_ir_kind_fits(uint32_t kind, uint32_t file, bool is_dst, uint32_t op)
{
    switch (kind) {
    case SB_IR_KIND_VALUE: return value_file(file, is_dst);
    case SB_IR_KIND_RESOURCE:
        return file == SB_IR_FILE_RESOURCE ||
               (file == SB_IR_FILE_RASTERIZER &&
                (op == SB_IR_OP_SAMPLE_INFO || op == SB_IR_OP_SAMPLE_POS));
    case SB_IR_KIND_SAMPLER: return file == SB_IR_FILE_SAMPLER;
    case SB_IR_KIND_UAV: return file == SB_IR_FILE_UAV;
    case SB_IR_KIND_TEXTURE_OR_UAV: return file == SB_IR_FILE_RESOURCE || file == SB_IR_FILE_UAV;
    case SB_IR_KIND_MEMORY:
        return file == SB_IR_FILE_UAV || file == SB_IR_FILE_GROUP_SHARED ||
               (!is_dst && file == SB_IR_FILE_RESOURCE);
    case SB_IR_KIND_INTERFACE: return file == SB_IR_FILE_INTERFACE;
    case SB_IR_KIND_MESH_OUTPUT:
        return is_dst && file == (op == SB_IR_OP_MESH_STORE_VERTEX ? SB_IR_FILE_MESH_VERTEX
                                                                   : SB_IR_FILE_MESH_PRIMITIVE);
    default: return false;
    }
}

/* DOUBLE slots hold lane pairs (IR.md §Operands "64-bit sources"): a 64-bit destination writes
 * whole pairs and a 64-bit source names pairs by their first lane. The 64-bit integer ops
 * take no modifiers and no SATURATE (their slots are not floats). */
static bool check_64bit_slots(struct validator *v, const struct sb_ir_instruction *in,
                              const struct sb_ir_op_info *info)
{
    bool int64 = sb_ir_op_is_int64(in->op) || sb_ir_op_is_atomic64(in->op);
    if (int64 && (in->flags & SB_IR_FLAG_SATURATE))
        return invalid(v, "saturate on a 64-bit integer op");
    for (uint32_t i = 0; i < in->dst_count && i < 2; i++) {
        uint32_t mask = in->dst[i].mask;
        if (info->dst_type[i] == SB_IR_TYPE_DOUBLE && mask != 0 && mask != 0x3 && mask != 0xC &&
            mask != 0xF)
            return invalid(v, "64-bit destination mask 0x%x splits a lane pair", mask);
    }
    for (uint32_t i = 0; i < in->src_count && i < SB_IR_OP_MAX_SOURCES; i++) {
        if (info->src_type[i] != SB_IR_TYPE_DOUBLE)
            continue;
        const struct sb_ir_operand *src = &in->src[i];
        if ((src->swizzle[0] & 1u) || (src->swizzle[1] & 1u))
            return invalid(v, "64-bit source swizzle (%u, %u) names no lane pair", src->swizzle[0],
                           src->swizzle[1]);
        if (int64 && src->modifiers)
            return invalid(v, "modifiers 0x%x on a 64-bit integer source", src->modifiers);
    }
    return true;
}

/* A 64-bit atomic works on 8 bytes of a raw or structured u# (IR.md §Resources): typed UAVs
 * hold 32-bit texels in this IR, and g# arrays are DWORD arrays. */
static bool check_atomic64(struct validator *v, const struct sb_ir_instruction *in)
{
    const struct sb_ir_operand *uav = &in->dst[1];
    if (in->dst[0].mask != 0 && in->dst[0].mask != 0x3)
        return invalid(v, "64-bit atomic result mask 0x%x (xy or none)", in->dst[0].mask);
    for (uint32_t i = 0; i < v->program->resource_count; i++) {
        const struct sb_ir_resource *r = &v->program->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_UAV && uav->index_count &&
            r->id == uav->index[0].offset)
            return r->kind == SB_IR_RESOURCE_KIND_RAW || r->kind == SB_IR_RESOURCE_KIND_STRUCTURED
                       ? true
                       : invalid(v, "64-bit atomic on the typed u%u", r->id);
    }
    return invalid(v, "64-bit atomic on an undeclared UAV");
}

static bool check_instruction(struct validator *v, const struct sb_ir_instruction *in)
{
    v->at = in;
    const struct sb_ir_op_info *info = sb_ir_op_info(in->op);
    if (!info)
        return invalid(v, "op %u is unknown", in->op);
    if (in->dst_count < info->dst_min || in->dst_count > info->dst_max ||
        in->src_count < info->src_min || in->src_count > info->src_max)
        return invalid(v, "%u destinations and %u sources", in->dst_count, in->src_count);
    if ((in->dst_count && !in->dst) || (in->src_count && !in->src))
        return invalid(v, "operand array missing");
    for (uint32_t i = 0; i < in->dst_count; i++)
        if (!check_operand(v, &in->dst[i], 0) ||
            !sb_ir_kind_fits(info->dst_kind[i], in->dst[i].file, true, in->op))
            return v->failed ? false : invalid(v, "destination %u of file %u", i, in->dst[i].file);
    for (uint32_t i = 0; i < in->src_count; i++)
        if (!check_operand(v, &in->src[i], 0) ||
            !sb_ir_kind_fits(info->src_kind[i], in->src[i].file, false, in->op))
            return v->failed ? false : invalid(v, "source %u of file %u", i, in->src[i].file);
    if (!check_64bit_slots(v, in, info))
        return false;
    if (sb_ir_op_is_atomic64(in->op) && !check_atomic64(v, in))
        return false;
    if ((in->op == SB_IR_OP_CALL || in->op == SB_IR_OP_CALLC) &&
        (in->target == 0 || in->target >= v->program->function_count))
        return invalid(v, "call target %u of %u functions", in->target,
                       v->program->function_count);
    if ((in->op == SB_IR_OP_EMIT || in->op == SB_IR_OP_CUT || in->op == SB_IR_OP_EMIT_THEN_CUT) &&
        in->stream > 3)
        return invalid(v, "stream %u", in->stream);
    if (in->op >= SB_IR_OP_MESH_SET_COUNTS && in->op <= SB_IR_OP_MESH_STORE_PRIMITIVE &&
        v->program->stage != SB_IR_STAGE_MESH)
        return invalid(v, "%s outside a mesh program", sb_ir_op_name(in->op));
    if (in->op == SB_IR_OP_DISPATCH_MESH && v->program->stage != SB_IR_STAGE_AMPLIFICATION)
        return invalid(v, "dispatch_mesh outside an amplification program");
    if (sb_ir_op_is_wave(in->op) && !sb_ir_wave_op_allowed(in->op, in->wave_op))
        return invalid(v, "wave_op %u (%s)", in->wave_op, sb_ir_wave_op_name(in->wave_op));
    return true;
}

/* Structured-flow nesting of one function (IR.md §Control flow). */
static bool check_nesting(struct validator *v, const struct sb_ir_function *fn)
{
    uint32_t *stack = malloc(((size_t)fn->instruction_count + 1) * sizeof(uint32_t));
    if (!stack)
        return invalid(v, "out of memory");
    uint32_t depth = 0;
    bool ok = true;
    for (uint32_t i = 0; i < fn->instruction_count && ok; i++) {
        const struct sb_ir_instruction *in = &fn->instructions[i];
        uint32_t top = depth ? stack[depth - 1] : SB_IR_OP_NOP;
        v->at = in;
        switch (in->op) {
        case SB_IR_OP_IF:
        case SB_IR_OP_LOOP:
        case SB_IR_OP_SWITCH:
            stack[depth++] = in->op;
            break;
        case SB_IR_OP_ELSE:
            ok = top == SB_IR_OP_IF ? true : invalid(v, "else outside an if");
            if (ok)
                stack[depth - 1] = SB_IR_OP_ELSE;
            break;
        case SB_IR_OP_ENDIF:
            ok = top == SB_IR_OP_IF || top == SB_IR_OP_ELSE ? true : invalid(v, "unmatched endif");
            depth -= ok;
            break;
        case SB_IR_OP_ENDLOOP:
            ok = top == SB_IR_OP_LOOP ? true : invalid(v, "unmatched endloop");
            depth -= ok;
            break;
        case SB_IR_OP_ENDSWITCH:
            ok = top == SB_IR_OP_SWITCH ? true : invalid(v, "unmatched endswitch");
            depth -= ok;
            break;
        case SB_IR_OP_CASE:
        case SB_IR_OP_DEFAULT:
            ok = top == SB_IR_OP_SWITCH ? true : invalid(v, "case label outside a switch");
            break;
        case SB_IR_OP_BREAK:
        case SB_IR_OP_BREAKC:
        case SB_IR_OP_CONTINUE:
        case SB_IR_OP_CONTINUEC: {
            bool found = false;
            bool loop_only = in->op == SB_IR_OP_CONTINUE || in->op == SB_IR_OP_CONTINUEC;
            for (uint32_t d = depth; d-- > 0 && !found;)
                found = stack[d] == SB_IR_OP_LOOP || (!loop_only && stack[d] == SB_IR_OP_SWITCH);
            ok = found ? true : invalid(v, "nothing to leave");
            break;
        }
        default:
            break;
        }
    }
    if (ok && depth)
        ok = invalid(v, "%u constructs left open at the end of the function", depth);
    free(stack);
    return ok;
}

enum sb_result sb_ir_validate(const struct sb_ir_program *program, struct sb_error *error)
{
    struct validator v = { .program = program, .error = error };
    if (!program) {
        if (error)
            memset(error, 0, sizeof(*error));
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "program is NULL");
    }
    if (program->function_count == 0 || !program->functions)
        invalid(&v, "no functions");
    else if (program->fork_phase_count + program->join_phase_count &&
             (program->first_fork_phase == 0 ||
              program->first_fork_phase + program->fork_phase_count + program->join_phase_count >
                  program->function_count))
        invalid(&v, "hull phases outside the function array");
    else if (program->icb_vector_count && !program->icb)
        invalid(&v, "icb_vector_count without icb");
    else if (!sb_ir_wave_size_valid(program->wave_size_min, program->wave_size_max, program->wave_size_preferred))
        invalid(&v, "wave size %u..%u (preferred %u): not powers of two from 4 to 128 in order",
                program->wave_size_min, program->wave_size_max, program->wave_size_preferred);
    else if (program->compute_derivatives && !compute_quads_fit(program))
        invalid(&v, "compute_derivatives %u in a program whose stage or group has no such quads",
                program->compute_derivatives);
    for (uint32_t i = 0; i < program->function_body_count && !v.failed; i++)
        if (program->function_body_label[i] >= program->function_count)
            invalid(&v, "fb%u maps to function %u", i, program->function_body_label[i]);
    for (uint32_t f = 0; f < program->function_count && !v.failed; f++) {
        const struct sb_ir_function *fn = &program->functions[f];
        v.function = fn;
        v.at = NULL;
        if (fn->instruction_count && !fn->instructions) {
            invalid(&v, "function %u has no instruction array", f);
            break;
        }
        for (uint32_t i = 0; i < fn->instruction_count && !v.failed; i++)
            check_instruction(&v, &fn->instructions[i]);
        if (!v.failed)
            check_nesting(&v, fn);
    }
    return v.failed ? SB_ERROR_TRANSLATE_INVALID : SB_SUCCESS;
}
