/* SPDX-License-Identifier: MIT */
/*
 * Signatures (../shared/docs/dxil.md §4.4) -> IR signature elements, and the
 * dx.ops that address them (loadInput, storeOutput, and the input operand of
 * the eval* ops), declared the way the SM4 front end declares fxc's dcl_input*
 * and dcl_output*, so the back end, interpreter and validate see the same
 * interface they see for fxc output:
 *   - an allocated element of `rows` rows takes the registers
 *     start_row..start_row+rows-1 and the lanes start_col..start_col+cols-1
 *     (several elements may share a row at different columns);
 *   - arrayed inputs (GS vertices; HS/DS control points: whatever the driver
 *     put in input_array_size) are v[vertex][register], the vertex being
 *     loadInput's fourth argument;
 *   - a row that is not a constant becomes a relative index (v[r + x]) and
 *     the element's rows an index range, as fxc's dcl_indexrange;
 *   - elements DXIL leaves unallocated (start row -1) are the special
 *     registers fxc uses for them (oDepth, oMask, oStencilRef, ...); the one
 *     that fxc keeps in a v# (SV_SampleIndex) gets the first free input row;
 *   - system values DXIL reads by dx.op and fxc by a special register
 *     (vPrim, vGSInstanceID, vCoverage, vInnerCoverage) are declared after
 *     the body, for those it read.
 */
#include "ir_from_dxil_private.h"
#include "dxil_program_private.h"
#include "translator/dxil_opcodes.h"

/* D3D's 32 input/output registers. */
#define IO_REGISTERS 32u

/* Whether 16-bit types are native (-enable-16bit-types, shader flag 23): their signature
 * elements then hold 16-bit values; otherwise a 16-bit type is min precision, which fxc
 * keeps in a 32-bit register with a precision hint. */
static bool native_16bit(const struct dxil_front *f)
{
    return (f->entry->shader_flags >> SB_DXIL_SHADER_FLAG_USE_NATIVE_LOW_PRECISION) & 1u;
}

/* The IR lane type of a signature component type; NONE for 64-bit and native 16-bit. */
static uint32_t component_type(const struct dxil_front *f, uint32_t dxil_type)
{
    switch (dxil_type) {
    case SB_DXIL_COMPONENT_TYPE_I1:
    case SB_DXIL_COMPONENT_TYPE_U32: return SB_IR_TYPE_UINT;
    case SB_DXIL_COMPONENT_TYPE_I32: return SB_IR_TYPE_INT;
    case SB_DXIL_COMPONENT_TYPE_F32: return SB_IR_TYPE_FLOAT;
    case SB_DXIL_COMPONENT_TYPE_U16: return native_16bit(f) ? SB_IR_TYPE_NONE : SB_IR_TYPE_UINT;
    case SB_DXIL_COMPONENT_TYPE_I16: return native_16bit(f) ? SB_IR_TYPE_NONE : SB_IR_TYPE_INT;
    /* halves are f32 values in the IR; native ones are rounded on load (dxil_front_move_typed) */
    case SB_DXIL_COMPONENT_TYPE_F16: return SB_IR_TYPE_FLOAT;
    default: return SB_IR_TYPE_NONE;
    }
}

/* fxc's min-precision hint (enum sb_sm4_min_precision) of a min-precision component type. */
static uint32_t min_precision(uint32_t dxil_type)
{
    switch (dxil_type) {
    case SB_DXIL_COMPONENT_TYPE_F16: return 1; /* float16 */
    case SB_DXIL_COMPONENT_TYPE_I16: return 4; /* sint16 */
    case SB_DXIL_COMPONENT_TYPE_U16: return 5; /* uint16 */
    default: return 0;
    }
}

uint32_t dxil_front_component_type(const struct dxil_front *f, uint32_t dxil_type)
{
    return component_type(f, dxil_type);
}

/* The semantics fxc keeps in v#/o# registers (dcl_input(_siv/_sgv), dcl_output(_siv)). */
static bool register_semantic(uint32_t kind)
{
    switch (kind) {
    case SB_DXIL_SEMANTIC_ARBITRARY:
    case SB_DXIL_SEMANTIC_VERTEX_ID:
    case SB_DXIL_SEMANTIC_INSTANCE_ID:
    case SB_DXIL_SEMANTIC_POSITION:
    case SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX:
    case SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX:
    case SB_DXIL_SEMANTIC_CLIP_DISTANCE:
    case SB_DXIL_SEMANTIC_CULL_DISTANCE:
    case SB_DXIL_SEMANTIC_PRIMITIVE_ID:
    case SB_DXIL_SEMANTIC_IS_FRONT_FACE:
    case SB_DXIL_SEMANTIC_TARGET:
    case SB_DXIL_SEMANTIC_SHADING_RATE: /* a uint v#/o# whose D3D_NAME says which built-in */
        return true;
    default:
        return false;
    }
}

/* The special register an unallocated element is (fxc's oDepth & co); NULL file when none.
 * SV_SampleIndex is no special register: fxc reads it from a v# (sample_index_register). */
static uint32_t special_file(uint32_t kind, uint32_t list)
{
    bool output = list == SB_DXIL_SIGNATURE_OUTPUT;
    switch (kind) {
    case SB_DXIL_SEMANTIC_DEPTH: return output ? SB_IR_FILE_DEPTH : SB_IR_FILE_NULL;
    case SB_DXIL_SEMANTIC_DEPTH_GREATER_EQUAL:
        return output ? SB_IR_FILE_DEPTH_GREATER_EQUAL : SB_IR_FILE_NULL;
    case SB_DXIL_SEMANTIC_DEPTH_LESS_EQUAL:
        return output ? SB_IR_FILE_DEPTH_LESS_EQUAL : SB_IR_FILE_NULL;
    case SB_DXIL_SEMANTIC_COVERAGE: return output ? SB_IR_FILE_COVERAGE_OUT : SB_IR_FILE_NULL;
    case SB_DXIL_SEMANTIC_STENCIL_REF: return output ? SB_IR_FILE_STENCIL_REF : SB_IR_FILE_NULL;
    default: return SB_IR_FILE_NULL;
    }
}

static bool is_sample_index(const struct sb_dxil_signature_element *d, uint32_t list)
{
    return list == SB_DXIL_SIGNATURE_INPUT && d->semantic_kind == SB_DXIL_SEMANTIC_SAMPLE_INDEX;
}

static bool allocated(const struct sb_dxil_signature_element *d)
{
    return d->start_row >= 0;
}

static bool check_element(struct dxil_front *f, const struct sb_dxil_signature_element *d,
                          uint32_t list)
{
    if (component_type(f, d->component_type) == SB_IR_TYPE_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "signature element %s of component type %u (64-bit or native "
                               "16-bit) is not translated yet", d->semantic_name,
                               d->component_type);
    if (!allocated(d)) {
        if (dxil_front_is_barycentrics(d, list) && d->rows == 1 && d->cols == 3)
            return true; /* a v# of its own (ir_from_dxil_sysvals.c) */
        if ((special_file(d->semantic_kind, list) == SB_IR_FILE_NULL &&
             !is_sample_index(d, list)) || d->rows != 1 || d->cols != 1)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "unallocated signature element %s (semantic kind %u, %ux%u) "
                                   "is not translated yet", d->semantic_name, d->semantic_kind,
                                   d->rows, d->cols);
        return true;
    }
    if (!register_semantic(d->semantic_kind))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "signature element %s (semantic kind %u) is not translated yet",
                               d->semantic_name, d->semantic_kind);
    if (d->start_col < 0 || d->cols == 0 || d->start_col + d->cols > 4 || d->rows == 0 ||
        d->rows > IO_REGISTERS || d->start_row + d->rows > IO_REGISTERS)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "signature element %s at row %d col %d (%ux%u) is not allocated "
                               "in registers", d->semantic_name, d->start_row, d->start_col,
                               d->rows, d->cols);
    return true;
}

/* The lowest input register no allocated input element uses: where SV_SampleIndex goes. */
static bool free_input_register(struct dxil_front *f, uint32_t *out)
{
    const struct sb_dxil_signature *sig = &f->entry->signatures[SB_DXIL_SIGNATURE_INPUT];
    uint32_t used = 0;
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *d = &sig->elements[i];
        for (uint32_t row = 0; allocated(d) && row < d->rows; row++)
            used |= 1u << ((uint32_t)d->start_row + row);
    }
    for (uint32_t r = 0; r < IO_REGISTERS; r++)
        if (!(used & (1u << r))) {
            *out = r;
            return true;
        }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "no input register is left for SV_SampleIndex");
}

/* One IR element for row `row` of `d` in signature `list`. */
static void fill_element(struct dxil_front *f, const struct sb_dxil_signature_element *d,
                         uint32_t list, uint32_t row, struct sb_ir_signature_element *e)
{
    bool input = list == SB_DXIL_SIGNATURE_INPUT;
    e->kind = input ? SB_IR_SIGNATURE_INPUT : SB_IR_SIGNATURE_OUTPUT;
    e->semantic = sb_ir_strdup(f->arena, d->semantic_name);
    e->semantic_index = row < d->semantic_index_count ? d->semantic_indices[row] : row;
    /* SV_Target is a plain o# in the IR, as fxc's dcl_output declares it (no D3D_NAME):
     * validate and the back end read render targets that way. */
    e->system_value = d->semantic_kind == SB_DXIL_SEMANTIC_TARGET
                          ? 0
                          : sb_dxil_semantic_system_value(d->semantic_kind, row, 0);
    e->component_type = component_type(f, d->component_type);
    e->min_precision = min_precision(d->component_type);
    e->stream = input ? 0 : d->output_stream;
    /* DXIL's interpolation modes are numbered as the SM4 tokens' (§4.4). */
    e->interpolation = input && f->program->stage == SB_IR_STAGE_PIXEL ? d->interpolation : 0;
    if (allocated(d)) {
        e->file = input ? SB_IR_FILE_INPUT : SB_IR_FILE_OUTPUT;
        e->register_index = (uint32_t)d->start_row + row;
        e->mask = (uint8_t)(((1u << d->cols) - 1u) << d->start_col);
        e->array_size = input ? f->input_array_size : 0;
    } else if (dxil_front_is_barycentrics(d, list)) {
        e->file = SB_IR_FILE_INPUT;
        e->mask = 0x7;
        if (!dxil_front_barycentrics_register(f, d, &e->register_index))
            e->mask = 0;
    } else if (is_sample_index(d, list)) {
        e->file = SB_IR_FILE_INPUT; /* fxc: dcl_input_ps_sgv constant v#.x, sampleIndex */
        e->register_index = f->sample_index_register;
        e->mask = 0x1;
    } else {
        e->file = special_file(d->semantic_kind, list);
        e->register_index = 0;
        e->mask = 0x1;
    }
    e->used_mask = e->signature_mask = e->mask;
}

bool dxil_front_declare_signatures(struct dxil_front *f)
{
    uint32_t total = 0;
    bool sample_index = false;
    for (uint32_t s = 0; s < 2; s++) {
        const struct sb_dxil_signature *sig = &f->entry->signatures[s];
        for (uint32_t i = 0; i < sig->element_count; i++) {
            const struct sb_dxil_signature_element *d = &sig->elements[i];
            if (!check_element(f, d, s))
                return false;
            sample_index |= is_sample_index(d, s) && !allocated(d);
            total += d->rows;
        }
    }
    /* Hull and domain shaders declare theirs (ir_from_dxil_tessellation.c). */
    if (f->entry->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT].element_count &&
        f->program->stage != SB_IR_STAGE_HULL && f->program->stage != SB_IR_STAGE_DOMAIN)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a patch-constant signature in a vertex, pixel or geometry shader");
    if (sample_index && !free_input_register(f, &f->sample_index_register))
        return false;
    f->has_sample_index = sample_index;
    struct sb_ir_signature_element *out = dxil_front_alloc(f, total, sizeof(*out));
    /* At most one index range per element (dynamic rows add them while the body lowers). */
    f->io_ranges = dxil_front_alloc(f, total, sizeof(*f->io_ranges));
    if (!out || !f->io_ranges)
        return false;
    uint32_t n = 0;
    for (uint32_t s = 0; s < 2; s++) {
        const struct sb_dxil_signature *sig = &f->entry->signatures[s];
        for (uint32_t i = 0; i < sig->element_count; i++)
            for (uint32_t row = 0; row < sig->elements[i].rows; row++)
                fill_element(f, &sig->elements[i], s, row, &out[n++]);
    }
    if (f->failed) /* no register left for an SV_Barycentrics */
        return false;
    f->program->signature = out;
    f->program->signature_count = n;
    f->program->index_ranges = f->io_ranges;
    return true;
}

static const struct sb_dxil_signature_element *element(struct dxil_front *f, uint32_t list,
                                                        uint64_t id)
{
    const struct sb_dxil_signature *sig = &f->entry->signatures[list];
    /* dxc numbers the elements in order: element `id` is at `id`, else looked for. */
    if (id < sig->element_count && sig->elements[id].id == id)
        return &sig->elements[id];
    for (uint32_t i = 0; i < sig->element_count; i++)
        if (sig->elements[i].id == id)
            return &sig->elements[i];
    dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "no %s signature element %llu",
                    list == SB_DXIL_SIGNATURE_INPUT ? "input" : "output", (unsigned long long)id);
    return NULL;
}

/* The rows of `d` as one index range (fxc's dcl_indexrange), once. */
static void add_index_range(struct dxil_front *f, uint32_t file,
                            const struct sb_dxil_signature_element *d)
{
    struct sb_ir_program *p = f->program;
    uint8_t mask = (uint8_t)(((1u << d->cols) - 1u) << d->start_col);
    for (uint32_t i = 0; i < p->index_range_count; i++) {
        struct sb_ir_index_range *r = &f->io_ranges[i];
        if (r->file == file && r->first == (uint32_t)d->start_row && r->count == d->rows) {
            r->mask |= mask;
            return;
        }
    }
    struct sb_ir_index_range *r = &f->io_ranges[p->index_range_count++];
    r->file = file;
    r->first = (uint32_t)d->start_row;
    r->count = d->rows;
    r->mask = mask;
}

/* An index: `offset` plus the value `value` when it is not a constant (its temp's x). */
static bool index_of(struct dxil_front *f, uint32_t value, uint32_t offset, uint64_t limit,
                     const char *what, struct sb_ir_index *out)
{
    uint64_t k = 0;
    out->offset = offset;
    out->relative = NULL;
    if (dxil_front_const_int(f, value, &k)) {
        if (k >= limit)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s %llu out of range (%llu)",
                                   what, (unsigned long long)k, (unsigned long long)limit);
        out->offset = offset + (uint32_t)k;
        return true;
    }
    struct sb_ir_operand *rel = dxil_front_alloc(f, 1, sizeof(*rel));
    if (!rel || !dxil_front_src(f, value, 0, rel))
        return false;
    out->relative = rel;
    return true;
}

/*
 * The v#/o# (or special register) operand of (id, row, col[, vertex]) in signature `list`:
 * operands[2..4] of loadInput, storeOutput and the eval ops; `vertex` is the value of the
 * vertex index for an arrayed input, NONE otherwise. Lane `start_col + col`, as a source
 * swizzle and a destination mask.
 */
static bool io_operand(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t list,
                       uint32_t vertex, struct sb_ir_operand *out)
{
    const char *name = list == SB_DXIL_SIGNATURE_INPUT ? "input" : "output";
    uint64_t id = 0, col = 0;
    if (in->operand_count < 5 || !dxil_front_const_int(f, in->operands[2], &id) ||
        !dxil_front_const_int(f, in->operands[4], &col))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s signature access with an element or column that is not a "
                               "constant", name);
    const struct sb_dxil_signature_element *e = element(f, list, id);
    if (!e)
        return false;
    if (col >= e->cols)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "col %llu outside signature element %s",
                               (unsigned long long)col, e->semantic_name);
    memset(out, 0, sizeof(*out));
    uint32_t lane = 0;
    if (!allocated(e)) {
        uint64_t row = 0;
        if (!dxil_front_const_int(f, in->operands[3], &row) || row != 0)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "row of the one-row element %s is not 0", e->semantic_name);
        if (dxil_front_is_barycentrics(e, list)) {
            out->file = SB_IR_FILE_INPUT;
            out->index_count = 1;
            if (!dxil_front_barycentrics_register(f, e, &out->index[0].offset))
                return false;
            lane = (uint32_t)col;
        } else if (is_sample_index(e, list)) {
            out->file = SB_IR_FILE_INPUT;
            out->index_count = 1;
            out->index[0].offset = f->sample_index_register;
        } else {
            out->file = special_file(e->semantic_kind, list);
        }
    } else {
        bool arrayed = vertex != DXIL_FRONT_NONE;
        struct sb_ir_index *reg = &out->index[arrayed ? 1 : 0];
        out->file = list == SB_DXIL_SIGNATURE_INPUT ? SB_IR_FILE_INPUT : SB_IR_FILE_OUTPUT;
        out->index_count = arrayed ? 2 : 1;
        if (arrayed && !index_of(f, vertex, 0, f->input_array_size, "vertex", &out->index[0]))
            return false;
        if (!index_of(f, in->operands[3], (uint32_t)e->start_row, e->rows, "row", reg))
            return false;
        if (reg->relative)
            add_index_range(f, out->file, e);
        lane = (uint32_t)e->start_col + (uint32_t)col;
    }
    for (unsigned i = 0; i < 4; i++)
        out->swizzle[i] = (uint8_t)lane;
    out->mask = (uint8_t)(1u << lane);
    return true;
}

bool dxil_front_input_operand(struct dxil_front *f, const struct sb_bc_instruction *in,
                              struct sb_ir_operand *out)
{
    if (!io_operand(f, in, SB_DXIL_SIGNATURE_INPUT, DXIL_FRONT_NONE, out))
        return false;
    out->mask = 0;
    return true;
}

/*
 * A loadInput of one plain v# lane names the input register from then on instead of a copy
 * into a register of its own (dxil_front_alias): inputs are never written, so every use
 * reads the same bits either way. Not for a relative row, an arrayed input or a half
 * rounded to 16 bits.
 */
static bool alias_input(struct dxil_front *f, const struct sb_bc_instruction *in,
                        const struct sb_ir_operand *src)
{
    return src->file == SB_IR_FILE_INPUT && src->index_count == 1 && !src->index[0].relative &&
           dxil_front_move_is_plain(f, in->type) &&
           dxil_front_alias(f, in->value, SB_IR_FILE_INPUT, src->index[0].offset, src->swizzle[0]);
}

bool dxil_front_load_input(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand src;
    uint32_t vertex = DXIL_FRONT_NONE;
    if (f->input_array_size) {
        if (in->operand_count < 6)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "loadInput without a vertex");
        vertex = in->operands[5];
    }
    if (!io_operand(f, in, SB_DXIL_SIGNATURE_INPUT, vertex, &src))
        return false;
    if (dxil_front_type_lanes(f, in->type) != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "loadInput of a 16/64-bit type");
    if (alias_input(f, in, &src))
        return true;
    if (f->failed)
        return false;
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    src.mask = 0;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_move_typed(f, in->type, dst, src);
}

bool dxil_front_store_output(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src;
    if (!io_operand(f, in, SB_DXIL_SIGNATURE_OUTPUT, DXIL_FRONT_NONE, &dst))
        return false;
    if (in->operand_count < 6 || !dxil_front_src(f, in->operands[5], 0, &src))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "storeOutput without a value");
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

/* The special input registers read by dx.op, with the D3D_NAME fxc's signature gives them. */
static const struct {
    uint32_t file;
    uint32_t system_value;
} special_inputs[] = {
    { SB_IR_FILE_PRIMITIVE_ID, 7 },
    { SB_IR_FILE_COVERAGE_IN, 66 },
    { SB_IR_FILE_INNER_COVERAGE, 70 },
    { SB_IR_FILE_GS_INSTANCE_ID, 0 },
    { SB_IR_FILE_VIEW_ID, 0 },     /* SV_ViewID and IsHelperLane(): no D3D_NAME */
    { SB_IR_FILE_HELPER_LANE, 0 },
    { SB_IR_FILE_BASE_VERTEX, 0 }, /* SM 6.8 StartVertexLocation / StartInstanceLocation */
    { SB_IR_FILE_BASE_INSTANCE, 0 },
};
#define SPECIAL_INPUT_COUNT (sizeof(special_inputs) / sizeof(special_inputs[0]))

bool dxil_front_special_input(struct dxil_front *f, const struct sb_bc_instruction *in,
                              uint32_t file)
{
    uint32_t temp = 0;
    unsigned i = 0;
    while (i < SPECIAL_INPUT_COUNT && special_inputs[i].file != file)
        i++;
    if (i == SPECIAL_INPUT_COUNT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "file %u is no special input", file);
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    f->special_inputs |= 1u << i;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    struct sb_ir_operand src = dxil_front_temp_src(0, 0);
    src.file = file;
    src.index_count = 0;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

bool dxil_front_declare_special_inputs(struct dxil_front *f)
{
    if (!f->special_inputs)
        return true;
    uint32_t n = f->program->signature_count;
    struct sb_ir_signature_element *out =
        dxil_front_alloc(f, n + SPECIAL_INPUT_COUNT, sizeof(*out));
    if (!out)
        return false;
    if (n)
        memcpy(out, f->program->signature, n * sizeof(*out));
    for (unsigned i = 0; i < SPECIAL_INPUT_COUNT; i++) {
        if (!(f->special_inputs & (1u << i)))
            continue;
        struct sb_ir_signature_element *e = &out[n++];
        e->kind = SB_IR_SIGNATURE_INPUT;
        e->semantic = "";
        e->file = special_inputs[i].file;
        e->system_value = special_inputs[i].system_value;
        e->mask = e->used_mask = 0x1;
        e->component_type = SB_IR_TYPE_UINT;
    }
    f->program->signature = out;
    f->program->signature_count = n;
    return true;
}
