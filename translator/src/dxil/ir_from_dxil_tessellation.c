/* SPDX-License-Identifier: MIT */
/*
 * Hull and domain shaders (../shared/docs/dxil.md §3.6 "Signature
 * input/output" and "System values read by intrinsic", §4.2 HSState and
 * DSState, §4.4) -> the IR the SM4 front end makes of hs_5_0 / ds_5_0
 * (translator/IR.md "Functions, hull phases, subroutines", "Signatures"), so
 * the back end's hull/domain stages, the interpreter and validate run them
 * unchanged:
 *
 *  - a hull shader's entry function is the control-point phase
 *    (functions[0]; empty, i.e. D3D's pass-through, when the entry point
 *    names none); the patch-constant function that HSState names becomes
 *    the one fork phase (functions[1], one instance), as fxc's
 *    hs_fork_phase runs it;
 *  - the patch-constant signature becomes PATCH elements: o# of the hull
 *    shader, vpc# of the domain shader, one element per row, as D3D gives
 *    every tess factor a register of its own. Tess factors carry the
 *    per-factor names of fxc's dcl_output_siv (finalTriUeq0EdgeTessFactor
 *    ...), which the back end maps to TessLevelOuter/Inner;
 *  - loadInput with its control-point index reads v[cp][r] in the
 *    control-point phase and vicp[cp][r] in the patch-constant function and
 *    the domain shader, loadOutputControlPoint reads vocp[cp][r],
 *    loadPatchConstant vpc#, storePatchConstant writes o#, each at the
 *    element's start row + row and start column + column. A row that is not
 *    a constant is a relative index inside the element, declared as an
 *    index range (dcl_indexrange) as fxc does for such an array;
 *  - outputControlPointID, primitiveID and domainLocation read
 *    vOutputControlPointID, vPrim and vDomain, declared after the body.
 */
#include "ir_from_dxil_private.h"
#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* The special inputs a hull or domain body can read, by bit of dxil_front::tess_inputs. */
static const struct {
    uint32_t file;
    uint32_t component_type;
    uint32_t system_value; /* D3D_NAME where the register has one (IR.md "Signatures") */
} SPECIALS[3] = {
    { SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, SB_IR_TYPE_UINT, 0 },
    { SB_IR_FILE_PRIMITIVE_ID, SB_IR_TYPE_UINT, 7 },
    { SB_IR_FILE_DOMAIN_POINT, SB_IR_TYPE_FLOAT, 0 },
};

static bool is_hull(const struct dxil_front *f)
{
    return f->program->stage == SB_IR_STAGE_HULL;
}

/*
 * The SM4 token name (sm4-tokens.md §8.1) of row `row` of a tess factor element in
 * `domain` (1 isoline, 2 tri, 3 quad): quad edges 11-14 and insides 15-16, tri edges
 * 17-19 and inside 20, isoline density 22 (row 0) and detail 21 (row 1), the order
 * fxc's dcl_output_siv gives them. 0 for a row the domain does not have.
 */
static uint32_t tess_factor_name(uint32_t domain, bool inside, uint32_t row)
{
    switch (domain) {
    case 3: return inside ? (row < 2 ? 15 + row : 0) : (row < 4 ? 11 + row : 0);
    case 2: return inside ? (row < 1 ? 20 : 0) : (row < 3 ? 17 + row : 0);
    case 1: return !inside && row < 2 ? 22 - row : 0;
    default: return 0;
    }
}

/* 32-bit component types only, as the vertex and pixel signatures (ir_from_dxil_io.c). */
static uint32_t patch_component_type(uint32_t dxil_type)
{
    if (dxil_type == SB_DXIL_COMPONENT_TYPE_F32)
        return SB_IR_TYPE_FLOAT;
    if (dxil_type == SB_DXIL_COMPONENT_TYPE_I32)
        return SB_IR_TYPE_INT;
    if (dxil_type == SB_DXIL_COMPONENT_TYPE_U32 || dxil_type == SB_DXIL_COMPONENT_TYPE_I1)
        return SB_IR_TYPE_UINT;
    return SB_IR_TYPE_NONE;
}

static bool check_patch_element(struct dxil_front *f, const struct sb_dxil_signature_element *d)
{
    bool factor = d->semantic_kind == SB_DXIL_SEMANTIC_TESS_FACTOR ||
                  d->semantic_kind == SB_DXIL_SEMANTIC_INSIDE_TESS_FACTOR;
    if (!factor && d->semantic_kind != SB_DXIL_SEMANTIC_ARBITRARY)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "patch constant %s (semantic kind %u) is not translated yet",
                               d->semantic_name, d->semantic_kind);
    if (patch_component_type(d->component_type) == SB_IR_TYPE_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "patch constant %s of component type %u (16/64-bit) is not "
                               "translated yet", d->semantic_name, d->component_type);
    if (d->start_row < 0 || d->start_col < 0 || d->cols == 0 || d->start_col + d->cols > 4 ||
        d->rows == 0 || d->rows > 32 || d->start_row + d->rows > 32 || (factor && d->cols != 1))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "patch constant %s at row %d col %d (%ux%u) is not allocated in "
                               "registers", d->semantic_name, d->start_row, d->start_col,
                               d->rows, d->cols);
    for (uint32_t row = 0; factor && row < d->rows; row++)
        if (!tess_factor_name(f->program->tess_domain,
                              d->semantic_kind == SB_DXIL_SEMANTIC_INSIDE_TESS_FACTOR, row))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "%s has %u rows, more than tessellator domain %u has",
                                   d->semantic_name, d->rows, f->program->tess_domain);
    return true;
}

/* The patch-constant signature appended to the input/output elements, one per row. */
static bool declare_patch_constants(struct dxil_front *f)
{
    const struct sb_dxil_signature *sig = &f->entry->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT];
    struct sb_ir_program *p = f->program;
    uint32_t n = p->signature_count, total = n;
    for (uint32_t i = 0; i < sig->element_count; i++) {
        if (!check_patch_element(f, &sig->elements[i]))
            return false;
        total += sig->elements[i].rows;
    }
    struct sb_ir_signature_element *out = dxil_front_alloc(f, total, sizeof(*out));
    if (!out)
        return false;
    if (n)
        memcpy(out, p->signature, n * sizeof(*out));
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *d = &sig->elements[i];
        bool factor = d->semantic_kind != SB_DXIL_SEMANTIC_ARBITRARY;
        uint8_t mask = (uint8_t)(((1u << d->cols) - 1u) << d->start_col);
        for (uint32_t row = 0; row < d->rows; row++) {
            struct sb_ir_signature_element *e = &out[n++];
            memset(e, 0, sizeof(*e));
            e->kind = SB_IR_SIGNATURE_PATCH;
            e->file = is_hull(f) ? SB_IR_FILE_OUTPUT : SB_IR_FILE_INPUT_PATCH_CONSTANT;
            e->semantic = sb_ir_strdup(f->arena, d->semantic_name);
            e->semantic_index = row < d->semantic_index_count ? d->semantic_indices[row] : row;
            e->system_value = factor ? tess_factor_name(p->tess_domain,
                                                        d->semantic_kind ==
                                                            SB_DXIL_SEMANTIC_INSIDE_TESS_FACTOR,
                                                        row)
                                     : 0;
            e->register_index = (uint32_t)d->start_row + row;
            e->mask = e->used_mask = e->signature_mask = mask;
            e->component_type = patch_component_type(d->component_type);
        }
    }
    p->signature = out;
    p->signature_count = n;
    return true;
}

/* HSState / DSState -> the program's tessellation declarations, checked as fxc's are. */
static bool declare_state(struct dxil_front *f)
{
    const struct sb_dxil_entry_point *e = f->entry;
    struct sb_ir_program *p = f->program;
    if (e->shader_kind == SB_DXIL_SHADER_KIND_HULL) {
        if (!e->has_hs_state)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a hull shader without HSState");
        p->stage = SB_IR_STAGE_HULL;
        p->input_control_points = e->hs.input_control_points;
        p->output_control_points = e->hs.output_control_points;
        p->tess_domain = e->hs.domain;
        p->tess_partitioning = e->hs.partitioning;
        p->tess_output_primitive = e->hs.output_primitive;
        p->max_tess_factor = e->hs.max_tess_factor;
        uint32_t patch = e->hs.patch_constant_function;
        if (patch == SB_BC_NONE || patch >= f->module->function_count ||
            f->module->functions[patch].is_declaration)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "HSState names no patch-constant function with a body");
        if (p->output_control_points < 1 || p->output_control_points > 32 ||
            p->tess_partitioning < 1 || p->tess_partitioning > 4 ||
            p->tess_output_primitive < 1 || p->tess_output_primitive > 4)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "HSState: %u output control points, partitioning %u, output "
                                   "primitive %u", p->output_control_points,
                                   p->tess_partitioning, p->tess_output_primitive);
    } else {
        if (!e->has_ds_state)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "a domain shader without DSState");
        p->stage = SB_IR_STAGE_DOMAIN;
        p->input_control_points = e->ds.input_control_points;
        p->tess_domain = e->ds.domain;
    }
    if (p->tess_domain < 1 || p->tess_domain > 3 || p->input_control_points < 1 ||
        p->input_control_points > 32)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "tessellator domain %u with %u input control points",
                               p->tess_domain, p->input_control_points);
    return true;
}

bool dxil_front_declare_tessellation(struct dxil_front *f)
{
    if (!declare_state(f) || !dxil_front_declare_signatures(f))
        return false;
    /* Input control points are arrays of the patch's size (fxc's dcl_input v[n][r]). */
    struct sb_ir_signature_element *elements =
        (struct sb_ir_signature_element *)f->program->signature;
    for (uint32_t i = 0; i < f->program->signature_count; i++)
        if (elements[i].kind == SB_IR_SIGNATURE_INPUT)
            elements[i].array_size = f->program->input_control_points;
    return declare_patch_constants(f);
}

bool dxil_front_declare_tessellation_inputs(struct dxil_front *f)
{
    if (!f->tess_inputs)
        return true;
    uint32_t n = f->program->signature_count;
    struct sb_ir_signature_element *out = dxil_front_alloc(f, n + 3, sizeof(*out));
    if (!out)
        return false;
    if (n)
        memcpy(out, f->program->signature, n * sizeof(*out));
    for (uint32_t i = 0; i < 3; i++) {
        if (!(f->tess_inputs & (1u << i)))
            continue;
        struct sb_ir_signature_element *e = &out[n++];
        memset(e, 0, sizeof(*e));
        e->kind = SB_IR_SIGNATURE_INPUT;
        e->semantic = "";
        e->file = SPECIALS[i].file;
        e->system_value = SPECIALS[i].system_value;
        /* vDomain: uvw in a tri domain, uv in quad and isoline ones (fxc's dcl_input). */
        e->mask = e->used_mask = SPECIALS[i].file != SB_IR_FILE_DOMAIN_POINT ? 0x1
                                 : f->program->tess_domain == 2           ? 0x7
                                                                          : 0x3;
        e->component_type = SPECIALS[i].component_type;
    }
    f->program->signature = out;
    f->program->signature_count = n;
    return true;
}

/* ---- dx.ops --------------------------------------------------------------- */

/* Where a signature dx.op reads or writes: its element list, its register file and
 * whether a control-point index (argument 4) comes before the register. */
struct io_access {
    uint32_t list;
    uint32_t file;
    bool arrayed;
};

/* Whether `opcode` may appear where it does (the DXIL validator's rules, which a
 * well-formed file keeps: a misplaced op is an invalid program, never guessed at). */
static bool allowed_here(const struct dxil_front *f, uint64_t opcode)
{
    bool hull = is_hull(f), patch = hull && f->patch_phase, control = hull && !f->patch_phase;
    switch (opcode) {
    case SB_DXIL_OP_LOAD_INPUT:
    case SB_DXIL_OP_PRIMITIVE_ID: return true;
    case SB_DXIL_OP_STORE_OUTPUT: return !patch;
    case SB_DXIL_OP_OUTPUT_CONTROL_POINT_ID: return control;
    case SB_DXIL_OP_LOAD_OUTPUT_CONTROL_POINT:
    case SB_DXIL_OP_STORE_PATCH_CONSTANT: return patch;
    case SB_DXIL_OP_LOAD_PATCH_CONSTANT: return !control;
    case SB_DXIL_OP_DOMAIN_LOCATION: return !hull;
    default: return false;
    }
}

static struct io_access access_of(const struct dxil_front *f, uint64_t opcode)
{
    struct io_access a = { SB_DXIL_SIGNATURE_INPUT, SB_IR_FILE_INPUT, true };
    switch (opcode) {
    case SB_DXIL_OP_LOAD_INPUT:
        /* fxc writes v[cp][r] in the control-point phase, vicp elsewhere; both are the
         * same registers (IR.md "Registers and files"). */
        if (!is_hull(f) || f->patch_phase)
            a.file = SB_IR_FILE_INPUT_CONTROL_POINT;
        break;
    case SB_DXIL_OP_STORE_OUTPUT:
        a = (struct io_access){ SB_DXIL_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, false };
        break;
    case SB_DXIL_OP_LOAD_OUTPUT_CONTROL_POINT:
        a = (struct io_access){ SB_DXIL_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT_CONTROL_POINT, true };
        break;
    case SB_DXIL_OP_LOAD_PATCH_CONSTANT:
        a = (struct io_access){ SB_DXIL_SIGNATURE_PATCH_CONSTANT, SB_IR_FILE_INPUT_PATCH_CONSTANT,
                                false };
        break;
    default: /* storePatchConstant */
        a = (struct io_access){ SB_DXIL_SIGNATURE_PATCH_CONSTANT, SB_IR_FILE_OUTPUT, false };
        break;
    }
    return a;
}

static const struct sb_dxil_signature_element *find_element(struct dxil_front *f, uint32_t list,
                                                            uint64_t id)
{
    static const char *const names[3] = { "input", "output", "patch constant" };
    const struct sb_dxil_signature *sig = &f->entry->signatures[list];
    for (uint32_t i = 0; i < sig->element_count; i++)
        if (sig->elements[i].id == id)
            return &sig->elements[i];
    dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "no %s signature element %llu", names[list],
                    (unsigned long long)id);
    return NULL;
}

/* dcl_indexrange for an element read or written at a row that is not a constant. */
static bool declare_index_range(struct dxil_front *f, uint32_t file,
                                const struct sb_dxil_signature_element *e)
{
    struct sb_ir_program *p = f->program;
    for (uint32_t i = 0; i < p->index_range_count; i++)
        if (p->index_ranges[i].file == file && p->index_ranges[i].first == (uint32_t)e->start_row)
            return true;
    struct sb_ir_index_range *out = dxil_front_alloc(f, p->index_range_count + 1, sizeof(*out));
    if (!out)
        return false;
    if (p->index_range_count)
        memcpy(out, p->index_ranges, p->index_range_count * sizeof(*out));
    out[p->index_range_count] = (struct sb_ir_index_range){
        .file = file, .first = (uint32_t)e->start_row, .count = e->rows,
        .mask = (uint8_t)(((1u << e->cols) - 1u) << e->start_col),
    };
    p->index_ranges = out;
    p->index_range_count++;
    return true;
}

/* Index `slot` of `op`: the constant `base + value`, or `base` + the value's lane x. */
static bool set_index(struct dxil_front *f, struct sb_ir_operand *op, uint32_t slot, uint32_t base,
                      uint32_t value, bool *relative)
{
    uint64_t constant = 0;
    *relative = !dxil_front_const_int(f, value, &constant);
    if (!*relative) {
        op->index[slot].offset = base + (uint32_t)constant;
        return true;
    }
    struct sb_ir_operand *rel = dxil_front_alloc(f, 1, sizeof(*rel));
    if (!rel || !dxil_front_src(f, value, 0, rel))
        return false;
    op->index[slot].offset = base;
    op->index[slot].relative = rel;
    return true;
}

/* The register operand of dx.op arguments (sigId, row, col[, control point]) at lane `col`
 * of the element, for the access `a`. */
static bool io_operand(struct dxil_front *f, const struct sb_bc_instruction *in,
                       struct io_access a, struct sb_ir_operand *out)
{
    uint64_t id = 0, col = 0;
    uint32_t row = 0, point = 0;
    if (!dxil_front_const_arg(f, in, 1, &id) || !dxil_front_arg(f, in, 2, &row) ||
        !dxil_front_const_arg(f, in, 3, &col) || (a.arrayed && !dxil_front_arg(f, in, 4, &point)))
        return false;
    const struct sb_dxil_signature_element *e = find_element(f, a.list, id);
    if (!e)
        return false;
    uint64_t const_row = 0;
    bool fixed_row = dxil_front_const_int(f, row, &const_row);
    if (col >= e->cols || (fixed_row && const_row >= e->rows))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "row %llu col %llu outside signature element %s",
                               (unsigned long long)const_row, (unsigned long long)col,
                               e->semantic_name);
    uint32_t lane = (uint32_t)e->start_col + (uint32_t)col;
    *out = dxil_front_temp_src(0, lane);
    out->file = a.file;
    out->mask = (uint8_t)(1u << lane);
    out->index_count = a.arrayed ? 2 : 1;
    bool relative = false;
    if (a.arrayed) {
        uint64_t cp = 0;
        uint32_t points = a.list == SB_DXIL_SIGNATURE_INPUT ? f->program->input_control_points
                                                            : f->program->output_control_points;
        if (dxil_front_const_int(f, point, &cp) && cp >= points)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "control point %llu of a patch of %u",
                                   (unsigned long long)cp, points);
        if (!set_index(f, out, 0, 0, point, &relative))
            return false;
    }
    uint32_t slot = a.arrayed ? 1 : 0;
    if (!set_index(f, out, slot, (uint32_t)e->start_row, row, &relative))
        return false;
    return !relative || declare_index_range(f, a.file, e);
}

static bool load(struct dxil_front *f, const struct sb_bc_instruction *in, struct io_access a)
{
    struct sb_ir_operand src;
    uint32_t temp = 0;
    if (!io_operand(f, in, a, &src) || !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    src.mask = 0;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

static bool store(struct dxil_front *f, const struct sb_bc_instruction *in, struct io_access a)
{
    struct sb_ir_operand dst, src;
    uint32_t value = 0;
    if (!io_operand(f, in, a, &dst) || !dxil_front_arg(f, in, 4, &value))
        return false;
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    if (!v || dxil_front_type_lanes(f, v->type) != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a store of a 16/64-bit value is not translated yet");
    if (!dxil_front_src(f, value, 0, &src))
        return false;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

/* outputControlPointID / primitiveID / domainLocation(component): lane `lane` of
 * special input `which` (SPECIALS). */
static bool read_special(struct dxil_front *f, const struct sb_bc_instruction *in,
                         uint32_t which, uint32_t lane)
{
    uint32_t temp = 0;
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand src = dxil_front_temp_src(0, lane);
    src.file = SPECIALS[which].file;
    src.index_count = 0;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    f->tess_inputs |= 1u << which;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

bool dxil_front_is_tessellation_op(const struct dxil_front *f, uint64_t opcode)
{
    if (f->program->stage != SB_IR_STAGE_HULL && f->program->stage != SB_IR_STAGE_DOMAIN)
        return false;
    switch (opcode) {
    case SB_DXIL_OP_LOAD_INPUT:
    case SB_DXIL_OP_STORE_OUTPUT:
    case SB_DXIL_OP_LOAD_OUTPUT_CONTROL_POINT:
    case SB_DXIL_OP_LOAD_PATCH_CONSTANT:
    case SB_DXIL_OP_STORE_PATCH_CONSTANT:
    case SB_DXIL_OP_DOMAIN_LOCATION:
    case SB_DXIL_OP_OUTPUT_CONTROL_POINT_ID:
    case SB_DXIL_OP_PRIMITIVE_ID: return true;
    default: return false;
    }
}

bool dxil_front_tessellation_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint64_t opcode)
{
    if (!allowed_here(f, opcode)) {
        const char *where = !is_hull(f) ? "a domain shader"
                            : f->patch_phase ? "a patch-constant function"
                                             : "a control-point function";
        const struct sb_dxil_op_info *info = sb_dxil_op_lookup((uint32_t)opcode);
        /* The op table lets a domain shader read output control points too, but dxc reads
         * them with loadInput there and which signature the op would name is not said:
         * not translated, rather than guessed. Everything else here is an invalid program. */
        bool table_allows = opcode == SB_DXIL_OP_LOAD_OUTPUT_CONTROL_POINT && !is_hull(f);
        return dxil_front_fail(f, table_allows ? SB_ERROR_TRANSLATE_UNSUPPORTED
                                               : SB_ERROR_TRANSLATE_INVALID,
                               "dx.op %s (%llu) in %s%s", info && info->name ? info->name : "?",
                               (unsigned long long)opcode, where,
                               table_allows ? " is not translated" : "");
    }
    switch (opcode) {
    case SB_DXIL_OP_OUTPUT_CONTROL_POINT_ID: return read_special(f, in, 0, 0);
    case SB_DXIL_OP_PRIMITIVE_ID: return read_special(f, in, 1, 0);
    case SB_DXIL_OP_DOMAIN_LOCATION: {
        uint64_t component = 0;
        if (!dxil_front_const_arg(f, in, 1, &component))
            return false;
        if (component >= (f->program->tess_domain == 2 ? 3u : 2u))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "domainLocation component %llu in tessellator domain %u",
                                   (unsigned long long)component, f->program->tess_domain);
        return read_special(f, in, 2, (uint32_t)component);
    }
    case SB_DXIL_OP_STORE_OUTPUT:
    case SB_DXIL_OP_STORE_PATCH_CONSTANT: return store(f, in, access_of(f, opcode));
    default: return load(f, in, access_of(f, opcode));
    }
}
