/* SPDX-License-Identifier: MIT */
/*
 * Mesh and amplification programs (../shared/docs/dxil.md §3 "Mesh and
 * amplification shaders", §4.2 MSState/ASState) -> the IR's mesh declarations
 * and ops (../../IR.md §Mesh and amplification).
 *
 * A mesh program's per-vertex outputs (signature 1) and per-primitive outputs
 * (signature 2) become arrayed oMeshVertex / oMeshPrimitive elements, one per
 * element row at the row's register, as the vs/ps signatures become o# rows
 * (ir_from_dxil_io.c), so locations line up with the pixel shader's v#.
 *
 * The task payload is one raw g# marked task_payload. A DXIL program reaches
 * it through pointers: in a mesh program the result of getMeshPayload, in an
 * amplification program the groupshared global that dispatchMesh sends. Why
 * not through the general groupshared path: the payload's storage class in
 * SPIR-V differs (TaskPayloadWorkgroupEXT), and the mesh side reads memory no
 * global of its own declares. So GEPs on a payload pointer emit nothing; a
 * load or store through one is resolved back to the root (walking GEP
 * instructions and constant GEP expressions) and becomes ld_raw / store_raw
 * at that byte address: constant indices add up to a constant, dynamic array
 * indices become imad (index * element size) into an address temp. A dynamic
 * struct member index or a 16/64-bit member refuses.
 */
#include "ir_from_dxil_private.h"
#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_opcodes.h"

#include "dxil_program_private.h"

/* D3D's limits (MSState): 256 vertices, 256 primitives, 16 KiB of payload. */
enum { MESH_MAX_OUTPUTS = 256, MESH_MAX_PAYLOAD_BYTES = 16384 };

/* The semantics the SPIR-V back end gives a mesh output: user attributes and the built-ins of
 * gl_MeshVerticesEXT (per vertex) and gl_MeshPrimitivesEXT (per primitive). */
static bool mesh_semantic(uint32_t kind, bool primitive)
{
    switch (kind) {
    case SB_DXIL_SEMANTIC_ARBITRARY: return true;
    case SB_DXIL_SEMANTIC_POSITION:
    case SB_DXIL_SEMANTIC_CLIP_DISTANCE:
    case SB_DXIL_SEMANTIC_CULL_DISTANCE: return !primitive;
    case SB_DXIL_SEMANTIC_PRIMITIVE_ID:
    case SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX:
    case SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX:
    case SB_DXIL_SEMANTIC_CULL_PRIMITIVE: return primitive;
    default: return false;
    }
}

/* Built-in outputs the signature leaves unallocated (start row -1: SV_CullPrimitive, ...) get
 * a register past D3D's 32, one per element, as a key the back end finds them by. */
enum { UNALLOCATED_REGISTER_BASE = 32 };

static bool unallocated(const struct sb_dxil_signature_element *d)
{
    return d->start_row < 0 && d->semantic_kind != SB_DXIL_SEMANTIC_ARBITRARY && d->rows == 1 &&
           d->cols >= 1 && d->cols <= 4;
}

/* The IR register of row `row` of an output element. */
static uint32_t element_register(const struct sb_dxil_signature_element *d, uint32_t row)
{
    return unallocated(d) ? UNALLOCATED_REGISTER_BASE + d->id : (uint32_t)d->start_row + row;
}

static uint32_t element_first_lane(const struct sb_dxil_signature_element *d)
{
    return unallocated(d) ? 0 : (uint32_t)d->start_col;
}

/* Rows and lanes inside D3D's 32 four-lane output registers. */
static bool fits_registers(const struct sb_dxil_signature_element *d)
{
    int64_t row_end = (int64_t)d->start_row + d->rows, col_end = (int64_t)d->start_col + d->cols;
    return d->start_row >= 0 && d->start_col >= 0 && d->rows && d->cols && row_end <= 32 &&
           col_end <= 4;
}

/* Rows of one output signature, checked. */
static bool count_rows(struct dxil_front *f, const struct sb_dxil_signature *sig, bool primitive,
                       uint32_t *rows)
{
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *d = &sig->elements[i];
        if (!mesh_semantic(d->semantic_kind, primitive))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "per-%s mesh output %s (semantic kind %u) is not translated",
                                   primitive ? "primitive" : "vertex", d->semantic_name,
                                   d->semantic_kind);
        if (dxil_front_component_type(f, d->component_type) == SB_IR_TYPE_NONE)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "mesh output %s of component type %u (16/64-bit) is not "
                                   "translated yet", d->semantic_name, d->component_type);
        bool placed = unallocated(d) ? d->id < 64 : fits_registers(d);
        if (!placed)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "mesh output %s (element %u) at row %d col %d (%ux%u) is not "
                                   "allocated in registers", d->semantic_name, d->id, d->start_row,
                                   d->start_col, d->rows, d->cols);
        *rows += d->rows;
    }
    return true;
}

static void add_rows(struct dxil_front *f, const struct sb_dxil_signature *sig, bool primitive,
                     struct sb_ir_signature_element *out, uint32_t *n)
{
    const struct sb_ir_program *p = f->program;
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *d = &sig->elements[i];
        uint8_t mask = (uint8_t)(((1u << d->cols) - 1u) << element_first_lane(d));
        for (uint32_t row = 0; row < d->rows; row++) {
            struct sb_ir_signature_element *e = &out[(*n)++];
            e->kind = SB_IR_SIGNATURE_OUTPUT;
            e->file = primitive ? SB_IR_FILE_MESH_PRIMITIVE : SB_IR_FILE_MESH_VERTEX;
            e->semantic = sb_ir_strdup(f->arena, d->semantic_name);
            e->semantic_index = row < d->semantic_index_count ? d->semantic_indices[row] : row;
            e->system_value = sb_dxil_semantic_system_value(d->semantic_kind, row, 0);
            e->register_index = element_register(d, row);
            e->mask = e->used_mask = e->signature_mask = mask;
            e->component_type = dxil_front_component_type(f, d->component_type);
            e->array_size = primitive ? p->mesh_max_primitives : p->mesh_max_vertices;
        }
    }
}

static bool declare_mesh_signatures(struct dxil_front *f)
{
    const struct sb_dxil_signature *sigs = f->entry->signatures;
    if (sigs[SB_DXIL_SIGNATURE_INPUT].element_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a mesh or amplification program with an input signature");
    const struct sb_dxil_signature *vertex = &sigs[SB_DXIL_SIGNATURE_OUTPUT];
    const struct sb_dxil_signature *primitive = &sigs[SB_DXIL_SIGNATURE_PATCH_CONSTANT];
    if (f->program->stage == SB_IR_STAGE_AMPLIFICATION) {
        if (vertex->element_count || primitive->element_count)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "an amplification program with output signatures");
        return true;
    }
    uint32_t total = 0;
    if (!count_rows(f, vertex, false, &total) || !count_rows(f, primitive, true, &total))
        return false;
    struct sb_ir_signature_element *out = dxil_front_alloc(f, total, sizeof(*out));
    if (!out)
        return false;
    uint32_t n = 0;
    add_rows(f, vertex, false, out, &n);
    add_rows(f, primitive, true, out, &n);
    f->program->signature = out;
    f->program->signature_count = n;
    return true;
}

/* The payload's size; its g# is declared after the bodies (dxil_front_declare_mesh_payload). */
static bool declare_payload(struct dxil_front *f, uint32_t bytes)
{
    if (bytes > MESH_MAX_PAYLOAD_BYTES)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a %u-byte payload (D3D allows %u)",
                               bytes, MESH_MAX_PAYLOAD_BYTES);
    f->program->mesh_payload_size = bytes;
    return true;
}

/* The payload g#, appended after the groupshared globals ir_from_dxil_memory.c declares once
 * the bodies are lowered (it sets the program's g# list then). */
bool dxil_front_declare_mesh_payload(struct dxil_front *f)
{
    struct sb_ir_program *p = f->program;
    uint32_t bytes = p->mesh_payload_size;
    if (f->failed || !bytes ||
        (p->stage != SB_IR_STAGE_MESH && p->stage != SB_IR_STAGE_AMPLIFICATION))
        return !f->failed;
    struct sb_ir_group_shared *g = dxil_front_alloc(f, p->group_shared_count + 1, sizeof(*g));
    if (!g)
        return false;
    if (p->group_shared_count)
        memcpy(g, p->group_shared, p->group_shared_count * sizeof(*g));
    g[p->group_shared_count] = (struct sb_ir_group_shared){
        .id = DXIL_FRONT_PAYLOAD_ID, .structured = false, .stride = 4,
        .count = (bytes + 3u) / 4u, .task_payload = true,
    };
    p->group_shared = g;
    p->group_shared_count++;
    return true;
}

/* The groupshared global an amplification program's dispatchMesh sends (the one payload
 * of the program: D3D calls dispatchMesh once). */
static bool find_payload_global(struct dxil_front *f)
{
    const struct sb_bc_function *fn = f->function;
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        const struct sb_bc_instruction *in = &fn->instructions[i];
        const struct sb_bc_function *callee =
            in->opcode == SB_BC_OP_CALL ? sb_bc_callee(f->module, fn, in) : NULL;
        if (!callee || !callee->name || strncmp(callee->name, "dx.op.dispatchMesh", 18) != 0 ||
            in->operand_count < 6)
            continue;
        const struct sb_bc_value *v = sb_bc_value_get(f->module, fn, in->operands[5]);
        if (!v || v->kind != SB_BC_VALUE_GLOBAL) {
            f->offset = in->offset;
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "dispatchMesh with a payload that is not a groupshared global");
        }
        f->payload_global = in->operands[5];
        return true;
    }
    return true;
}

bool dxil_front_declare_mesh(struct dxil_front *f)
{
    struct sb_ir_program *p = f->program;
    const struct sb_dxil_entry_point *e = f->entry;
    f->payload_global = DXIL_FRONT_NONE;
    if (e->shader_kind == SB_DXIL_SHADER_KIND_AMPLIFICATION) {
        if (!e->has_as_state)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "an amplification program without ASState");
        p->stage = SB_IR_STAGE_AMPLIFICATION;
        for (unsigned i = 0; i < 3; i++)
            p->thread_group[i] = e->as.num_threads[i];
        return declare_mesh_signatures(f) && declare_payload(f, e->as.payload_size) &&
               find_payload_global(f);
    }
    if (!e->has_ms_state)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a mesh program without MSState");
    const struct sb_dxil_mesh_state *ms = &e->ms;
    p->stage = SB_IR_STAGE_MESH;
    for (unsigned i = 0; i < 3; i++)
        p->thread_group[i] = ms->num_threads[i];
    /* MSState's topology: 1 line, 2 triangle (dxil.md §4.2); D3D has no point output. */
    if (ms->output_topology != 1 && ms->output_topology != 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "mesh output topology %u",
                               ms->output_topology);
    p->mesh_topology = ms->output_topology == 1 ? SB_IR_MESH_LINES : SB_IR_MESH_TRIANGLES;
    if (ms->max_vertex_count > MESH_MAX_OUTPUTS || ms->max_primitive_count > MESH_MAX_OUTPUTS)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "%u vertices and %u primitives (D3D allows %u each)",
                               ms->max_vertex_count, ms->max_primitive_count, MESH_MAX_OUTPUTS);
    p->mesh_max_vertices = ms->max_vertex_count;
    p->mesh_max_primitives = ms->max_primitive_count;
    return declare_mesh_signatures(f) && declare_payload(f, ms->payload_size);
}

/* ---- the payload through pointers ------------------------------------------------------- */

/* Bytes of a payload member type: 32-bit scalars and arrays/structs of them; 0 otherwise. */
static uint64_t payload_type_size(const struct dxil_front *f, uint32_t type)
{
    /* Recursion as deep as the type's nesting: finite, as the bitcode reader refuses a type
     * that holds itself by value. */
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (!t)
        return 0;
    switch (t->kind) {
    case SB_BC_TYPE_INTEGER: return t->width == 32 ? 4 : 0;
    case SB_BC_TYPE_FLOAT: return 4;
    case SB_BC_TYPE_ARRAY:
    case SB_BC_TYPE_VECTOR: {
        uint64_t element = payload_type_size(f, t->element);
        return element && t->count <= MESH_MAX_PAYLOAD_BYTES ? element * t->count : 0;
    }
    case SB_BC_TYPE_STRUCT: {
        uint64_t bytes = 0;
        for (uint32_t i = 0; i < t->member_count; i++) {
            uint64_t member = payload_type_size(f, t->members[i]);
            if (!member)
                return 0;
            bytes += member;
        }
        return bytes;
    }
    default: return 0;
    }
}

/* A payload address: `constant` bytes, plus lane x of `temp` when it is not NONE (the
 * dynamic indices times their strides, summed by imad as the walk meets them). */
struct payload_address {
    uint64_t constant;
    uint32_t temp;
};

/* Adds index * stride. A dynamic index is only noted unless `emit` is set, when it becomes an
 * imad into the address temp. */
static bool add_index(struct dxil_front *f, uint32_t index, uint64_t stride, bool emit,
                      struct payload_address *a)
{
    uint64_t k = 0;
    if (dxil_front_const_int(f, index, &k)) {
        /* Past any payload: refused (and no product that wraps back into range). */
        if (k > MESH_MAX_PAYLOAD_BYTES)
            return false;
        a->constant += k * stride;
        return true;
    }
    if (!emit) {
        a->temp = 0; /* any value but NONE: the address is dynamic */
        return true;
    }
    struct sb_ir_operand src[3];
    if (stride > MESH_MAX_PAYLOAD_BYTES || !dxil_front_src(f, index, 0, &src[0]))
        return false;
    src[1] = dxil_front_imm((uint32_t)stride);
    if (a->temp == DXIL_FRONT_NONE) {
        a->temp = dxil_front_new_temp(f);
        src[2] = dxil_front_imm(0);
    } else {
        src[2] = dxil_front_temp_src(a->temp, 0);
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(a->temp, 0x1);
    return dxil_front_emit(f, SB_IR_OP_IMAD, &dst, 1, src, 3) != NULL;
}

/* One GEP (source element type `type`, index value ids): struct members by constant index,
 * array and vector elements and the pointer step by any index. False where the payload
 * layout does not reach (16/64-bit members, a dynamic struct index). */
static bool gep_step(struct dxil_front *f, uint32_t type, const uint32_t *indices, uint32_t count,
                     bool emit, struct payload_address *a)
{
    if (count == 0)
        return true;
    uint64_t size = payload_type_size(f, type);
    if (!size || !add_index(f, indices[0], size, emit, a))
        return false;
    for (uint32_t i = 1; i < count; i++) {
        const struct sb_bc_type *t = dxil_front_type(f, type);
        uint64_t member = 0;
        if (t && t->kind == SB_BC_TYPE_STRUCT) {
            if (!dxil_front_const_int(f, indices[i], &member) || member >= t->member_count)
                return false;
            for (uint64_t m = 0; m < member; m++)
                a->constant += payload_type_size(f, t->members[m]);
            type = t->members[member];
        } else if (t && (t->kind == SB_BC_TYPE_ARRAY || t->kind == SB_BC_TYPE_VECTOR)) {
            type = t->element;
            if (!add_index(f, indices[i], payload_type_size(f, type), emit, a))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

/* Whether `value` is a payload root: getMeshPayload's result or the dispatched global. */
static bool payload_root(const struct dxil_front *f, uint32_t value)
{
    if (value == f->payload_global && value != DXIL_FRONT_NONE)
        return true;
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    if (!v || v->kind != SB_BC_VALUE_INSTRUCTION || v->index >= f->function->instruction_count)
        return false;
    const struct sb_bc_instruction *in = &f->function->instructions[v->index];
    const struct sb_bc_function *callee =
        in->opcode == SB_BC_OP_CALL ? sb_bc_callee(f->module, f->function, in) : NULL;
    return callee && callee->name && strncmp(callee->name, "dx.op.getMeshPayload", 20) == 0;
}

enum payload_pointer { NOT_PAYLOAD, PAYLOAD, PAYLOAD_UNREACHED };

/*
 * Follows `value` back through GEPs (instructions and constant expressions) to a payload
 * root, adding up its address (emitting the dynamic part when `emit`). A chain of GEPs is at
 * most as long as the function's instructions plus the module's values (each step moves to
 * an earlier value), so the walk is bounded by that count.
 */
static enum payload_pointer payload_pointer(struct dxil_front *f, uint32_t value, bool emit,
                                            struct payload_address *a)
{
    uint64_t steps = (uint64_t)f->function->instruction_count + f->module->value_count + 1;
    bool reached = true;
    a->constant = 0;
    a->temp = DXIL_FRONT_NONE;
    for (; steps; steps--) {
        if (payload_root(f, value))
            return reached ? PAYLOAD : PAYLOAD_UNREACHED;
        const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
        uint32_t indices[8], count = 0, type = SB_BC_NONE, base = SB_BC_NONE;
        if (v && v->kind == SB_BC_VALUE_INSTRUCTION && v->index < f->function->instruction_count &&
            f->function->instructions[v->index].opcode == SB_BC_OP_GEP) {
            const struct sb_bc_instruction *in = &f->function->instructions[v->index];
            if (in->operand_count < 1 || in->operand_count > 9)
                return NOT_PAYLOAD;
            base = in->operands[0];
            type = in->aux_type;
            for (uint32_t i = 1; i < in->operand_count; i++)
                indices[count++] = in->operands[i];
        } else if (v && v->kind == SB_BC_VALUE_CONSTANT) {
            const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
            if (!c || c->kind != SB_BC_CONST_GEP || c->element_count < 1 || c->element_count > 9)
                return NOT_PAYLOAD;
            base = (uint32_t)c->elements[0];
            type = c->aux_type;
            for (uint32_t i = 1; i < c->element_count; i++)
                indices[count++] = (uint32_t)c->elements[i];
        } else {
            return NOT_PAYLOAD;
        }
        if (reached && !gep_step(f, type, indices, count, emit, a))
            reached = false;
        value = base;
    }
    return NOT_PAYLOAD;
}

bool dxil_front_is_payload_access(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct payload_address a;
    if (f->program->stage != SB_IR_STAGE_MESH && f->program->stage != SB_IR_STAGE_AMPLIFICATION)
        return false;
    switch (in->opcode) {
    case SB_BC_OP_GEP: return payload_pointer(f, in->value, false, &a) != NOT_PAYLOAD;
    case SB_BC_OP_LOAD:
    case SB_BC_OP_STORE:
        return in->operand_count >= 1 && payload_pointer(f, in->operands[0], false, &a) != NOT_PAYLOAD;
    default: return false;
    }
}

/* The payload g#, one DWORD selected by the operand's swizzle (lane x). */
static struct sb_ir_operand payload_operand(void)
{
    struct sb_ir_operand g;
    memset(&g, 0, sizeof(g));
    g.file = SB_IR_FILE_GROUP_SHARED;
    g.index_count = 1;
    g.index[0].offset = DXIL_FRONT_PAYLOAD_ID;
    g.mask = 0x1;
    return g;
}

bool dxil_front_payload_access(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    f->offset = in->offset;
    if (in->opcode == SB_BC_OP_GEP)
        return true; /* resolved at the load or store */
    uint32_t value_type = in->opcode == SB_BC_OP_LOAD ? in->type : SB_BC_NONE;
    if (in->opcode == SB_BC_OP_STORE) {
        const struct sb_bc_value *v =
            in->operand_count >= 2 ? sb_bc_value_get(f->module, f->function, in->operands[1]) : NULL;
        value_type = v ? v->type : SB_BC_NONE;
    }
    if (dxil_front_type_lanes(f, value_type) != 1 || payload_type_size(f, value_type) != 4)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a payload access that is not one 32-bit scalar");
    struct payload_address a;
    if (payload_pointer(f, in->operands[0], true, &a) != PAYLOAD)
        return f->failed ? false
                         : dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                           "a payload access into a 16/64-bit member or at a "
                                           "dynamic struct member");
    /* A constant address past the payload is the program's error; a dynamic one is clamped
     * by the consumers (g# accesses out of range, IR.md). */
    if (a.constant + 4 > f->program->mesh_payload_size)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "payload byte %llu past the %u declared",
                               (unsigned long long)a.constant, f->program->mesh_payload_size);
    struct sb_ir_operand address = dxil_front_imm((uint32_t)a.constant), g = payload_operand();
    if (a.temp != DXIL_FRONT_NONE) {
        struct sb_ir_operand dst = dxil_front_temp_dst(a.temp, 0x1);
        struct sb_ir_operand sum[2] = { dxil_front_temp_src(a.temp, 0), address };
        if (a.constant && !dxil_front_emit(f, SB_IR_OP_IADD, &dst, 1, sum, 2))
            return false;
        address = dxil_front_temp_src(a.temp, 0);
    }
    if (in->opcode == SB_BC_OP_LOAD) {
        uint32_t temp = dxil_front_value_temp(f, in->value);
        if (temp == DXIL_FRONT_NONE)
            return false;
        struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1), src[2] = { address, g };
        src[1].mask = 0;
        return dxil_front_emit(f, SB_IR_OP_LD_RAW, &dst, 1, src, 2) != NULL;
    }
    if (f->program->stage == SB_IR_STAGE_MESH)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to the payload of a mesh program");
    struct sb_ir_operand src[2] = { address, address };
    if (!dxil_front_src(f, in->operands[1], 0, &src[1]))
        return false;
    return dxil_front_emit(f, SB_IR_OP_STORE_RAW, &g, 1, src, 2) != NULL;
}

/* ---- the mesh dx.ops -------------------------------------------------------------------- */

/* Lanes x.. of one operand from call arguments first..first+count-1 (uint bits): an
 * immediate when all are constants, else a new temp. */
static bool gather(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t first,
                   uint32_t count, struct sb_ir_operand *out)
{
    struct sb_ir_operand lanes[4];
    bool constant = true;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = 0;
        if (!dxil_front_arg(f, in, first + i, &value) || !dxil_front_src(f, value, 0, &lanes[i]))
            return false;
        constant = constant && lanes[i].file == SB_IR_FILE_IMMEDIATE;
    }
    if (constant) {
        *out = dxil_front_imm(0);
        for (uint32_t i = 0; i < 4; i++)
            out->imm[i] = lanes[i < count ? i : count - 1].imm[0];
        return true;
    }
    uint32_t temp = dxil_front_new_temp(f);
    for (uint32_t i = 0; i < count; i++) {
        struct sb_ir_operand dst = dxil_front_temp_dst(temp, (uint8_t)(1u << i));
        if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &lanes[i], 1))
            return false;
    }
    *out = dxil_front_temp_src(temp, 0);
    for (uint32_t i = 0; i < 4; i++)
        out->swizzle[i] = (uint8_t)(i < count ? i : count - 1);
    return true;
}

static bool set_counts(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t vertices = 0, primitives = 0;
    struct sb_ir_operand src[2];
    if (!dxil_front_arg(f, in, 1, &vertices) || !dxil_front_arg(f, in, 2, &primitives) ||
        !dxil_front_src(f, vertices, 0, &src[0]) || !dxil_front_src(f, primitives, 0, &src[1]))
        return false;
    return dxil_front_emit(f, SB_IR_OP_MESH_SET_COUNTS, NULL, 0, src, 2) != NULL;
}

/* emitIndices(primitive, v0, v1, v2): the topology's vertex count of them (a line's v2 is
 * not read). */
static bool emit_indices(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t primitive = 0;
    struct sb_ir_operand src[2];
    if (!dxil_front_arg(f, in, 1, &primitive) || !dxil_front_src(f, primitive, 0, &src[0]) ||
        !gather(f, in, 2, f->program->mesh_topology, &src[1]))
        return false;
    return dxil_front_emit(f, SB_IR_OP_MESH_INDICES, NULL, 0, src, 2) != NULL;
}

/* storeVertexOutput / storePrimitiveOutput(sigId, row, col, value, index). */
static bool store_output(struct dxil_front *f, const struct sb_bc_instruction *in, bool primitive)
{
    const struct sb_dxil_signature *sig =
        &f->entry->signatures[primitive ? SB_DXIL_SIGNATURE_PATCH_CONSTANT : SB_DXIL_SIGNATURE_OUTPUT];
    const char *name = primitive ? "storePrimitiveOutput" : "storeVertexOutput";
    uint64_t id = 0, row = 0, col = 0;
    uint32_t value = 0, index = 0;
    if (!dxil_front_const_arg(f, in, 1, &id) || !dxil_front_arg(f, in, 4, &value) ||
        !dxil_front_arg(f, in, 5, &index))
        return false;
    if (!dxil_front_const_arg(f, in, 2, &row) || !dxil_front_const_arg(f, in, 3, &col))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s with a row or column that is not a constant", name);
    const struct sb_dxil_signature_element *e = NULL;
    for (uint32_t i = 0; i < sig->element_count && !e; i++)
        if (sig->elements[i].id == id)
            e = &sig->elements[i];
    if (!e)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s of element %llu, which the "
                               "signature lacks", name, (unsigned long long)id);
    if (row >= e->rows || col >= e->cols)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s at row %llu col %llu outside "
                               "element %s", name, (unsigned long long)row,
                               (unsigned long long)col, e->semantic_name);
    struct sb_ir_operand dst, src, element;
    if (dxil_front_type_lanes(f, sb_bc_value_get(f->module, f->function, value)
                                     ? sb_bc_value_get(f->module, f->function, value)->type
                                     : SB_BC_NONE) != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "%s of a 16/64-bit value", name);
    if (!dxil_front_src(f, value, 0, &src) || !dxil_front_src(f, index, 0, &element))
        return false;
    uint32_t lane = element_first_lane(e) + (uint32_t)col;
    memset(&dst, 0, sizeof(dst));
    dst.file = primitive ? SB_IR_FILE_MESH_PRIMITIVE : SB_IR_FILE_MESH_VERTEX;
    dst.index_count = 2;
    dst.index[1].offset = element_register(e, (uint32_t)row);
    dst.mask = (uint8_t)(1u << lane);
    if (element.file == SB_IR_FILE_IMMEDIATE) {
        dst.index[0].offset = element.imm[0];
    } else {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative)
            return false;
        *relative = element;
        dst.index[0].relative = relative;
    }
    /* The value's lane x goes to the element's lane: the source swizzle says where from. */
    src.swizzle[lane] = src.swizzle[0];
    return dxil_front_emit(f, primitive ? SB_IR_OP_MESH_STORE_PRIMITIVE : SB_IR_OP_MESH_STORE_VERTEX,
                           &dst, 1, &src, 1) != NULL;
}

/* dispatchMesh(x, y, z, payload): the payload must be the one find_payload_global saw. */
static bool dispatch_mesh(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t payload = 0;
    struct sb_ir_operand src[2];
    if (!dxil_front_arg(f, in, 4, &payload) || !gather(f, in, 1, 3, &src[0]))
        return false;
    if (payload != f->payload_global || !f->program->mesh_payload_size)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dispatchMesh of a payload other than the ASState's");
    src[1] = payload_operand();
    src[1].mask = 0;
    return dxil_front_emit(f, SB_IR_OP_DISPATCH_MESH, NULL, 0, src, 2) != NULL;
}

bool dxil_front_mesh_op(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    bool mesh = f->program->stage == SB_IR_STAGE_MESH;
    bool amplification = f->program->stage == SB_IR_STAGE_AMPLIFICATION;
    switch (opcode) {
    case SB_DXIL_OP_SET_MESH_OUTPUT_COUNTS:
        return mesh ? set_counts(f, in) : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                                          "setMeshOutputCounts outside a mesh program");
    case SB_DXIL_OP_EMIT_INDICES:
        return mesh ? emit_indices(f, in) : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                                            "emitIndices outside a mesh program");
    case SB_DXIL_OP_STORE_VERTEX_OUTPUT:
    case SB_DXIL_OP_STORE_PRIMITIVE_OUTPUT:
        return mesh ? store_output(f, in, opcode == SB_DXIL_OP_STORE_PRIMITIVE_OUTPUT)
                    : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                      "a mesh output store outside a mesh program");
    case SB_DXIL_OP_GET_MESH_PAYLOAD:
        /* A pointer: its loads are lowered where they happen (dxil_front_payload_access). */
        if (!mesh || !f->program->mesh_payload_size)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "getMeshPayload without a mesh program's payload");
        return true;
    case SB_DXIL_OP_DISPATCH_MESH:
        return amplification ? dispatch_mesh(f, in)
                             : dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                               "dispatchMesh outside an amplification program");
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op %llu is no mesh op",
                               (unsigned long long)opcode);
    }
}
