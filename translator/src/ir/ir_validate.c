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
#include <stddef.h>
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

static bool invalid(struct validator *v, const char *format, ...) SB_IR_PRINTF(2, 3) SB_COLD;
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

/* Every check of one operand, each failure with its own message. check_operand runs it only
 * for the operands its quick test cannot pass, so it is kept out of line. */
static SB_IR_NOINLINE bool check_operand_fully(struct validator *v, const struct sb_ir_operand *op,
                                               unsigned depth)
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
    /* A file with a case here must be in FILES_WITH_RULES: operand_plainly_valid passes the
     * others without coming here. */
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

static inline bool value_file(uint32_t file, bool is_dst)
{
    if (file >= SB_IR_FILE_COUNT)
        return !is_dst; /* as any other source file (check_operand refuses the number) */
    return (value_files[is_dst] >> file) & 1u;
}

/* Files with rules beyond the operand's shape: a declared id, a count or a stage
 * (check_operand_fully's switch). */
#define FILES_WITH_RULES (FILE_BIT(TEMP) | FILE_BIT(INDEXABLE_TEMP) | FILE_BIT(GROUP_SHARED) | \
                          FILE_BIT(IMMEDIATE_CONSTANT_BUFFER) | FILE_BIT(MESH_VERTEX) | \
                          FILE_BIT(MESH_PRIMITIVE) | FILE_BIT(VIEW_ID) | FILE_BIT(HELPER_LANE) | \
                          FILE_BIT(BASE_VERTEX) | FILE_BIT(BASE_INSTANCE))

/* Whether `op` passes every operand check without a relative index to walk: a temp in range,
 * or a file with no rules of its own. Nearly every operand is one of them, and this answers
 * for it in a few loads; the rest go through check_operand_fully. */
static inline bool operand_plainly_valid(const struct validator *v, const struct sb_ir_operand *op)
{
    /* The mask, the four lanes and the modifiers in one load: the bits that must be clear,
     * byte by byte (mask above 0xf, a lane above 3, a modifier past NEG|ABS). */
    static const uint8_t out_of_range[8] = { 0xF0, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0, 0 };
    enum { MASK_AT = offsetof(struct sb_ir_operand, mask) };
    _Static_assert(offsetof(struct sb_ir_operand, swizzle) == MASK_AT + 1 &&
                       offsetof(struct sb_ir_operand, modifiers) == MASK_AT + 5 &&
                       MASK_AT + 8 <= sizeof(struct sb_ir_operand) &&
                       (SB_IR_MOD_NEG | SB_IR_MOD_ABS) == 3,
                   "mask, swizzle and modifiers are adjacent bytes");
    uint64_t bytes, bad_bits;
    memcpy(&bytes, (const unsigned char *)op + MASK_AT, sizeof(bytes));
    memcpy(&bad_bits, out_of_range, sizeof(bad_bits));
    if (bytes & bad_bits)
        return false;
    if (op->file == SB_IR_FILE_TEMP)
        return op->index_count == 1 && !op->index[0].relative &&
               op->index[0].offset < v->function->temp_count;
    if (op->file >= SB_IR_FILE_COUNT || ((FILES_WITH_RULES >> op->file) & 1u) ||
        op->index_count > 3)
        return false;
    for (uint32_t i = 0; i < op->index_count; i++)
        if (op->index[i].relative)
            return false;
    return true;
}

static inline bool check_operand(struct validator *v, const struct sb_ir_operand *op,
                                 unsigned depth)
{
    return operand_plainly_valid(v, op) || check_operand_fully(v, op, depth);
}

/* Value slots, nearly all of them, are a bit test; the other kinds ask sb_ir_kind_fits. */
static inline bool slot_fits(uint32_t kind, uint32_t file, bool is_dst, uint32_t op)
{
    return kind == SB_IR_KIND_VALUE ? value_file(file, is_dst)
                                    : sb_ir_kind_fits(kind, file, is_dst, op);
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

/* Slot `i` refused its operand: the operand's own error, or else the file's. Out of line,
 * so check_slots stays small enough to inline. */
static SB_IR_NOINLINE bool slot_invalid(struct validator *v, uint32_t i, uint32_t file,
                                        bool is_dst)
{
    return v->failed ? false
                     : invalid(v, "%s %u of file %u", is_dst ? "destination" : "source", i, file);
}

/* The destinations or the sources of `in`: each operand valid and of a file its slot takes.
 * Sets *has_64bit when a slot is of the DOUBLE view, for check_64bit_slots. Inlined: a call
 * per instruction and side cost more than the check of its one or two operands. */
static SB_IR_ALWAYS_INLINE bool check_slots(struct validator *v,
                                            const struct sb_ir_instruction *in,
                                            const struct sb_ir_operand *operands, uint32_t count,
                                            const uint8_t *kinds, const uint8_t *types,
                                            bool is_dst, bool *has_64bit)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct sb_ir_operand *op = &operands[i];
        if (!check_operand(v, op, 0) || !slot_fits(kinds[i], op->file, is_dst, in->op))
            return slot_invalid(v, i, op->file, is_dst);
        *has_64bit |= types[i] == SB_IR_TYPE_DOUBLE;
    }
    return true;
}

/* The rules of single ops, one case per op family. */
static bool check_op_rules(struct validator *v, const struct sb_ir_instruction *in)
{
    switch (in->op) {
    case SB_IR_OP_CALL:
    case SB_IR_OP_CALLC:
        return in->target != 0 && in->target < v->program->function_count
                   ? true
                   : invalid(v, "call target %u of %u functions", in->target,
                             v->program->function_count);
    case SB_IR_OP_EMIT:
    case SB_IR_OP_CUT:
    case SB_IR_OP_EMIT_THEN_CUT:
        return in->stream <= 3 ? true : invalid(v, "stream %u", in->stream);
    case SB_IR_OP_MESH_SET_COUNTS:
    case SB_IR_OP_MESH_INDICES:
    case SB_IR_OP_MESH_STORE_VERTEX:
    case SB_IR_OP_MESH_STORE_PRIMITIVE:
        return v->program->stage == SB_IR_STAGE_MESH
                   ? true
                   : invalid(v, "%s outside a mesh program", sb_ir_op_name(in->op));
    case SB_IR_OP_DISPATCH_MESH:
        return v->program->stage == SB_IR_STAGE_AMPLIFICATION
                   ? true
                   : invalid(v, "dispatch_mesh outside an amplification program");
    default:
        if (sb_ir_op_is_atomic64(in->op))
            return check_atomic64(v, in);
        if (sb_ir_op_is_wave(in->op) && !sb_ir_wave_op_allowed(in->op, in->wave_op))
            return invalid(v, "wave_op %u (%s)", in->wave_op, sb_ir_wave_op_name(in->wave_op));
        return true;
    }
}
_Static_assert(SB_IR_OP_MESH_STORE_PRIMITIVE - SB_IR_OP_MESH_SET_COUNTS == 3,
               "check_op_rules names every mesh output op");

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
    /* The SATURATE rule of the 64-bit integer ops holds whatever their rows say. */
    bool has_64bit = sb_ir_op_is_int64(in->op) || sb_ir_op_is_atomic64(in->op);
    if (!check_slots(v, in, in->dst, in->dst_count, info->dst_kind, info->dst_type, true,
                     &has_64bit) ||
        !check_slots(v, in, in->src, in->src_count, info->src_kind, info->src_type, false,
                     &has_64bit))
        return false;
    if (has_64bit && !check_64bit_slots(v, in, info))
        return false;
    return check_op_rules(v, in);
}

/* Structured-flow nesting of one function (IR.md §Control flow), followed in the walk that
 * checks its instructions. The first nesting error waits until that walk ends, so an
 * instruction's own error is still the one reported, as when nesting was a second pass. */
struct nesting {
    uint32_t depth;
    uint32_t capacity;
    uint32_t *stack; /* open constructs: `shallow`, or the heap past its depth */
    const struct sb_ir_instruction *error_at;
    const char *error; /* NULL while the nesting holds */
    uint32_t shallow[32];
};

static void nesting_begin(struct nesting *n)
{
    n->depth = 0;
    n->capacity = sizeof(n->shallow) / sizeof(n->shallow[0]);
    n->stack = n->shallow;
    n->error = NULL;
}

static void nesting_end(struct nesting *n)
{
    if (n->stack != n->shallow)
        free(n->stack);
}

static void nesting_error(struct nesting *n, const struct sb_ir_instruction *at, const char *error)
{
    n->error_at = at;
    n->error = error;
}

static SB_IR_NOINLINE void nesting_push(struct nesting *n, const struct sb_ir_instruction *in)
{
    if (n->depth == n->capacity) {
        uint32_t *grown = malloc(2 * (size_t)n->capacity * sizeof(*grown));
        if (!grown) {
            nesting_error(n, in, "out of memory");
            return;
        }
        memcpy(grown, n->stack, n->depth * sizeof(*grown));
        nesting_end(n);
        n->stack = grown;
        n->capacity *= 2;
    }
    n->stack[n->depth++] = in->op;
}

/* `in` ends the innermost construct if `matches`. */
static void nesting_close(struct nesting *n, const struct sb_ir_instruction *in, bool matches,
                          const char *error)
{
    if (matches)
        n->depth--;
    else
        nesting_error(n, in, error);
}

static void nesting_step(struct nesting *n, const struct sb_ir_instruction *in)
{
    uint32_t top = n->depth ? n->stack[n->depth - 1] : SB_IR_OP_NOP;
    switch (in->op) {
    case SB_IR_OP_IF:
    case SB_IR_OP_LOOP:
    case SB_IR_OP_SWITCH:
        nesting_push(n, in);
        break;
    case SB_IR_OP_ELSE:
        if (top == SB_IR_OP_IF)
            n->stack[n->depth - 1] = SB_IR_OP_ELSE;
        else
            nesting_error(n, in, "else outside an if");
        break;
    case SB_IR_OP_ENDIF:
        nesting_close(n, in, top == SB_IR_OP_IF || top == SB_IR_OP_ELSE, "unmatched endif");
        break;
    case SB_IR_OP_ENDLOOP:
        nesting_close(n, in, top == SB_IR_OP_LOOP, "unmatched endloop");
        break;
    case SB_IR_OP_ENDSWITCH:
        nesting_close(n, in, top == SB_IR_OP_SWITCH, "unmatched endswitch");
        break;
    case SB_IR_OP_CASE:
    case SB_IR_OP_DEFAULT:
        if (top != SB_IR_OP_SWITCH)
            nesting_error(n, in, "case label outside a switch");
        break;
    case SB_IR_OP_BREAK:
    case SB_IR_OP_BREAKC:
    case SB_IR_OP_CONTINUE:
    case SB_IR_OP_CONTINUEC: {
        bool found = false;
        bool loop_only = in->op == SB_IR_OP_CONTINUE || in->op == SB_IR_OP_CONTINUEC;
        for (uint32_t d = n->depth; d-- > 0 && !found;)
            found = n->stack[d] == SB_IR_OP_LOOP ||
                    (!loop_only && n->stack[d] == SB_IR_OP_SWITCH);
        if (!found)
            nesting_error(n, in, "nothing to leave");
        break;
    }
    default:
        break;
    }
}

/* The nesting's verdict once every instruction of the function passed; v->at is its last. */
static void check_nesting(struct validator *v, const struct nesting *n)
{
    if (n->error) {
        v->at = n->error_at;
        invalid(v, "%s", n->error);
    } else if (n->depth) {
        invalid(v, "%u constructs left open at the end of the function", n->depth);
    }
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
        struct nesting nesting;
        nesting_begin(&nesting);
        for (uint32_t i = 0; i < fn->instruction_count && !v.failed; i++) {
            check_instruction(&v, &fn->instructions[i]);
            if (!nesting.error)
                nesting_step(&nesting, &fn->instructions[i]);
        }
        if (!v.failed)
            check_nesting(&v, &nesting);
        nesting_end(&nesting);
    }
    return v.failed ? SB_ERROR_TRANSLATE_INVALID : SB_SUCCESS;
}
