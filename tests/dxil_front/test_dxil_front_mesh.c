/* SPDX-License-Identifier: MIT */
/*
 * Mesh and amplification programs through the DXIL front end and the SPIR-V back end
 * (issue #18 concern 6; translator/IR.md §Mesh and amplification):
 *   ms_triangle   the writer's one-triangle mesh shader (tests/common/dxil_programs_mesh.h):
 *                 its IR, then its SPIR-V parsed word by word (execution model and modes,
 *                 built-ins, PerPrimitiveEXT, locations, OpSetMeshOutputsEXT's counts, the
 *                 payload's storage class) and spirv-val (Vulkan 1.1 + SPIR-V 1.4, 1.2);
 *                 Vulkan 1.0 refused;
 *   as_payload    the amplification shader: payload stores, OpEmitMeshTasksEXT (2, 1, 1)
 *                 with the TaskPayloadWorkgroupEXT variable;
 *   builtins      a mesh program built as IR: lines and points, ClipDistance, PrimitiveId and
 *                 CullPrimitiveEXT (per primitive), which no DXIL writer program covers;
 *   not_run       run/validate's loader, the interpreter and sb_validate refuse both
 *                 stages with "not run: ..." naming the stage;
 *   corpus        CORPUS/dxil's mesh and amplification files: how many translate
 *                 (spirv-val clean), the mesh dx.op uses in them, and each refusal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_list.h"
#include "dxc_container_writer.h"
#include "dxil_programs_mesh.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/dxil_disasm.h"
#include "translator/ir.h"

#include <spirv/unified1/spirv.h>

/* ---- SPIR-V facts ----------------------------------------------------------------------- */

#define MAX_FACTS 64

struct decoration {
    uint32_t target, decoration, literal;
};

/* What the checks below read from a module: one pass over its instructions. */
struct module_facts {
    uint32_t version;
    uint32_t model;                   /* OpEntryPoint's execution model */
    uint32_t capabilities[MAX_FACTS], capability_count;
    bool mesh_extension;
    uint32_t modes[MAX_FACTS][4], mode_count; /* mode, then up to 3 literals */
    struct decoration decorations[MAX_FACTS * 2];
    uint32_t decoration_count;
    uint32_t variables[MAX_FACTS][2], variable_count; /* id, storage class */
    uint32_t constants[MAX_FACTS * 2][2], constant_count; /* id, 32-bit value */
    uint32_t set_outputs, set_output_args[2];
    uint32_t emit_tasks, emit_task_args[4], emit_task_arg_count;
};

static void read_facts(const uint32_t *w, size_t count, struct module_facts *f)
{
    memset(f, 0, sizeof(*f));
    f->version = count > 1 ? w[1] : 0;
    for (size_t at = 5; at < count;) {
        uint32_t op = w[at] & 0xFFFFu, n = w[at] >> 16;
        if (n == 0 || at + n > count)
            break;
        const uint32_t *o = &w[at + 1];
        if (op == SpvOpCapability && f->capability_count < MAX_FACTS)
            f->capabilities[f->capability_count++] = o[0];
        else if (op == SpvOpExtension && !strcmp((const char *)o, "SPV_EXT_mesh_shader"))
            f->mesh_extension = true;
        else if (op == SpvOpEntryPoint)
            f->model = o[0];
        else if (op == SpvOpExecutionMode && f->mode_count < MAX_FACTS) {
            for (uint32_t i = 1; i < n - 1 && i < 5; i++)
                f->modes[f->mode_count][i - 1] = o[i];
            f->mode_count++;
        } else if (op == SpvOpDecorate && f->decoration_count < MAX_FACTS * 2)
            f->decorations[f->decoration_count++] =
                (struct decoration){ o[0], o[1], n > 3 ? o[2] : 0 };
        else if (op == SpvOpVariable && f->variable_count < MAX_FACTS) {
            f->variables[f->variable_count][0] = o[1];
            f->variables[f->variable_count++][1] = o[2];
        } else if (op == SpvOpConstant && n == 4 && f->constant_count < MAX_FACTS * 2) {
            f->constants[f->constant_count][0] = o[1];
            f->constants[f->constant_count++][1] = o[2];
        } else if (op == SpvOpSetMeshOutputsEXT) {
            f->set_outputs++;
            f->set_output_args[0] = o[0];
            f->set_output_args[1] = o[1];
        } else if (op == SpvOpEmitMeshTasksEXT) {
            f->emit_tasks++;
            f->emit_task_arg_count = n - 1;
            for (uint32_t i = 0; i < n - 1 && i < 4; i++)
                f->emit_task_args[i] = o[i];
        }
        at += n;
    }
}

static bool has_capability(const struct module_facts *f, uint32_t cap)
{
    for (uint32_t i = 0; i < f->capability_count; i++)
        if (f->capabilities[i] == cap)
            return true;
    return false;
}

/* The literals of execution mode `mode` (NULL when absent). */
static const uint32_t *mode(const struct module_facts *f, uint32_t mode)
{
    for (uint32_t i = 0; i < f->mode_count; i++)
        if (f->modes[i][0] == mode)
            return &f->modes[i][1];
    return NULL;
}

/* The id decorated `decoration` with `literal` (any literal when ~0u); 0 when none. */
static uint32_t decorated(const struct module_facts *f, uint32_t decoration, uint32_t literal)
{
    for (uint32_t i = 0; i < f->decoration_count; i++)
        if (f->decorations[i].decoration == decoration &&
            (literal == ~0u || f->decorations[i].literal == literal))
            return f->decorations[i].target;
    return 0;
}

static bool has_decoration(const struct module_facts *f, uint32_t id, uint32_t decoration)
{
    for (uint32_t i = 0; i < f->decoration_count; i++)
        if (f->decorations[i].target == id && f->decorations[i].decoration == decoration)
            return true;
    return false;
}

static uint32_t storage_class(const struct module_facts *f, uint32_t id)
{
    for (uint32_t i = 0; i < f->variable_count; i++)
        if (f->variables[i][0] == id)
            return f->variables[i][1];
    return ~0u;
}

/* The value of an OpConstant id; ~0u when it is none. */
static uint32_t constant(const struct module_facts *f, uint32_t id)
{
    for (uint32_t i = 0; i < f->constant_count; i++)
        if (f->constants[i][0] == id)
            return f->constants[i][1];
    return ~0u;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static struct sb_translation *translate(const struct tbuf *b, enum sb_target_env env, struct sb_error *err)
{
    struct sb_translate_options o = { .target_env = env };
    struct sb_translation *t = NULL;
    memset(err, 0, sizeof(*err));
    if (sb_translate(b->data, b->size, &o, &t, err) != SB_SUCCESS)
        return NULL;
    return t;
}

static struct sb_ir_program *lower(const struct tbuf *b)
{
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (sb_dxbc_parse(b->data, b->size, &container, &err) == SB_SUCCESS)
        sb_ir_from_dxil(container, &ir, &err);
    CHECK(ir != NULL, "sb_ir_from_dxil: %s", err.message);
    sb_dxbc_destroy(container);
    return ir;
}

static uint32_t count_op(const struct sb_ir_program *ir, uint32_t op)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ir->functions[0].instruction_count; i++)
        n += ir->functions[0].instructions[i].op == op;
    return n;
}

static const struct sb_ir_instruction *first_op(const struct sb_ir_program *ir, uint32_t op)
{
    for (uint32_t i = 0; i < ir->functions[0].instruction_count; i++)
        if (ir->functions[0].instructions[i].op == op)
            return &ir->functions[0].instructions[i];
    return NULL;
}

/* ---- ms_triangle ---------------------------------------------------------------------------- */

static void check_ms_ir(const struct sb_ir_program *ir)
{
    CHECK(ir->stage == SB_IR_STAGE_MESH && ir->mesh_topology == SB_IR_MESH_TRIANGLES &&
              ir->mesh_max_vertices == 3 && ir->mesh_max_primitives == 1 &&
              ir->thread_group[0] == 3 && ir->mesh_payload_size == 8,
          "stage %u topology %u max %u/%u group %u payload %u", ir->stage, ir->mesh_topology,
          ir->mesh_max_vertices, ir->mesh_max_primitives, ir->thread_group[0], ir->mesh_payload_size);
    uint32_t vertex = 0, primitive = 0;
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        if (e->file == SB_IR_FILE_MESH_VERTEX) {
            vertex++;
            CHECK(e->system_value == 1 && e->array_size == 3 && e->mask == 0xF, "SV_Position: sv %u array %u",
                  e->system_value, e->array_size);
        } else if (e->file == SB_IR_FILE_MESH_PRIMITIVE) {
            primitive++;
            CHECK(e->array_size == 1 && e->register_index == (strcmp(e->semantic, "COLOR") ? 1u : 0u),
                  "%s: array %u register %u", e->semantic, e->array_size, e->register_index);
        }
    }
    CHECK(vertex == 1 && primitive == 2, "%u vertex and %u primitive elements", vertex, primitive);
    CHECK(ir->group_shared_count == 1 && ir->group_shared[0].task_payload && ir->group_shared[0].count == 2,
          "payload g#: %u declared", ir->group_shared_count);
    CHECK(count_op(ir, SB_IR_OP_MESH_SET_COUNTS) == 1 && count_op(ir, SB_IR_OP_MESH_INDICES) == 1 &&
              count_op(ir, SB_IR_OP_MESH_STORE_VERTEX) == 4 &&
              count_op(ir, SB_IR_OP_MESH_STORE_PRIMITIVE) == 5 && count_op(ir, SB_IR_OP_LD_RAW) == 1,
          "mesh ops: %u counts, %u indices, %u vertex, %u primitive stores, %u ld_raw",
          count_op(ir, SB_IR_OP_MESH_SET_COUNTS), count_op(ir, SB_IR_OP_MESH_INDICES),
          count_op(ir, SB_IR_OP_MESH_STORE_VERTEX), count_op(ir, SB_IR_OP_MESH_STORE_PRIMITIVE),
          count_op(ir, SB_IR_OP_LD_RAW));
    /* Vertex stores go to the thread's vertex: a relative index. */
    const struct sb_ir_instruction *store = first_op(ir, SB_IR_OP_MESH_STORE_VERTEX);
    CHECK(store && store->dst[0].index[0].relative && store->dst[0].index[1].offset == 0 &&
              store->dst[0].mask == 0x1,
          "the first vertex store is not oMeshVertex[r][0].x");
    /* payload[1] of [2 x i32]: byte 4. */
    const struct sb_ir_instruction *load = first_op(ir, SB_IR_OP_LD_RAW);
    CHECK(load && load->src[0].file == SB_IR_FILE_IMMEDIATE && load->src[0].imm[0] == 4 &&
              load->src[1].file == SB_IR_FILE_GROUP_SHARED,
          "the payload load is not ld_raw at byte 4 of the payload g#");
    char *text = sb_ir_print(ir);
    CHECK(text && strstr(text, "mesh topology 3 max_vertices 3 max_primitives 1\npayload 8 bytes\n") &&
              strstr(text, "group_shared g65535 stride 4 count 2 task_payload") &&
              strstr(text, "mesh_store_vertex oMeshVertex[r") && strstr(text, "ms_5_0"),
          "the printed IR lacks the mesh declarations:\n%s", text ? text : "(none)");
    free(text);
    const struct sb_ir_instruction *indices = first_op(ir, SB_IR_OP_MESH_INDICES);
    CHECK(indices && indices->src[0].file == SB_IR_FILE_IMMEDIATE && indices->src[0].imm[0] == 0,
          "emitIndices' primitive is not the immediate 0");
}

static void check_ms_spirv(const struct sb_translation *t)
{
    struct module_facts f;
    read_facts(t->words, t->word_count, &f);
    CHECK(f.version == 0x00010400, "SPIR-V version 0x%x for Vulkan 1.1, 0x10400 expected", f.version);
    CHECK(f.model == SpvExecutionModelMeshEXT, "execution model %u", f.model);
    CHECK(has_capability(&f, SpvCapabilityMeshShadingEXT) && f.mesh_extension,
          "MeshShadingEXT / SPV_EXT_mesh_shader missing");
    const uint32_t *size = mode(&f, SpvExecutionModeLocalSize);
    const uint32_t *vertices = mode(&f, SpvExecutionModeOutputVertices);
    const uint32_t *primitives = mode(&f, SpvExecutionModeOutputPrimitivesEXT);
    CHECK(size && size[0] == 3 && size[1] == 1 && size[2] == 1, "LocalSize");
    CHECK(vertices && vertices[0] == 3, "OutputVertices %u", vertices ? vertices[0] : 0);
    CHECK(primitives && primitives[0] == 1, "OutputPrimitivesEXT %u", primitives ? primitives[0] : 0);
    CHECK(mode(&f, SpvExecutionModeOutputTrianglesEXT) != NULL, "OutputTrianglesEXT missing");
    uint32_t position = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInPosition);
    uint32_t indices = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInPrimitiveTriangleIndicesEXT);
    CHECK(position && storage_class(&f, position) == SpvStorageClassOutput, "Position output");
    CHECK(indices && storage_class(&f, indices) == SpvStorageClassOutput, "triangle indices output");
    /* COLOR at Location 0 and PRIM_TAG at Location 1 (no per-vertex attribute comes before
     * them), both per primitive; the uint one flat. */
    uint32_t color = decorated(&f, SpvDecorationLocation, 0), tag = decorated(&f, SpvDecorationLocation, 1);
    CHECK(color && has_decoration(&f, color, SpvDecorationPerPrimitiveEXT) &&
              !has_decoration(&f, color, SpvDecorationFlat),
          "COLOR is not a per-primitive smooth output at Location 0");
    CHECK(tag && has_decoration(&f, tag, SpvDecorationPerPrimitiveEXT) &&
              has_decoration(&f, tag, SpvDecorationFlat),
          "PRIM_TAG is not a per-primitive flat output at Location 1");
    CHECK(!has_decoration(&f, position, SpvDecorationPerPrimitiveEXT), "Position is per primitive");
    CHECK(f.set_outputs == 1 && constant(&f, f.set_output_args[0]) == 3 &&
              constant(&f, f.set_output_args[1]) == 1,
          "OpSetMeshOutputsEXT: %u, counts %u %u", f.set_outputs, constant(&f, f.set_output_args[0]),
          constant(&f, f.set_output_args[1]));
    uint32_t payloads = 0;
    for (uint32_t i = 0; i < f.variable_count; i++)
        payloads += f.variables[i][1] == SpvStorageClassTaskPayloadWorkgroupEXT;
    CHECK(payloads == 1, "%u TaskPayloadWorkgroupEXT variables", payloads);
}

static void test_ms_triangle(void)
{
    struct tbuf b = { 0 };
    CHECK(dxil_program_ms_triangle(&b), "the writer failed");
    struct sb_ir_program *ir = lower(&b);
    if (ir) {
        check_ms_ir(ir);
        /* The same body in a compute program: the validator refuses the mesh ops. */
        struct sb_error verr;
        ir->stage = SB_IR_STAGE_COMPUTE;
        CHECK(sb_ir_validate(ir, &verr) == SB_ERROR_TRANSLATE_INVALID &&
                  strstr(verr.message, "outside a mesh program"),
              "sb_ir_validate of mesh ops in a compute program: '%s'", verr.message);
        ir->stage = SB_IR_STAGE_MESH;
        CHECK(sb_ir_validate(ir, &verr) == SB_SUCCESS, "sb_ir_validate: %s", verr.message);
    }
    sb_ir_program_destroy(ir);
    struct sb_error err;
    struct sb_translation *t = translate(&b, SB_TARGET_VULKAN_1_1, &err);
    CHECK(t != NULL, "sb_translate (Vulkan 1.1): %s", err.message);
    if (t) {
        check_ms_spirv(t);
        CHECK(sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) == SB_SUCCESS,
              "spirv-val vulkan1.1spv1.4: %s", err.message);
    }
    sb_translation_destroy(t);
    t = translate(&b, SB_TARGET_VULKAN_1_2, &err);
    CHECK(t && t->words[1] == 0x00010500 &&
              sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_2, &err) == SB_SUCCESS,
          "Vulkan 1.2: %s", err.message);
    sb_translation_destroy(t);
    t = translate(&b, SB_TARGET_VULKAN_1_0, &err);
    CHECK(!t && err.code == SB_ERROR_TRANSLATE_UNSUPPORTED && strstr(err.message, "SPIR-V 1.4"),
          "Vulkan 1.0 must refuse: %d %s", err.code, err.message);
    sb_translation_destroy(t);
    tb_free(&b);
}

/* ---- as_payload ----------------------------------------------------------------------------- */

static void test_as_payload(void)
{
    struct tbuf b = { 0 };
    CHECK(dxil_program_as_payload(&b), "the writer failed");
    struct sb_ir_program *ir = lower(&b);
    if (ir) {
        CHECK(ir->stage == SB_IR_STAGE_AMPLIFICATION && ir->thread_group[0] == 4 &&
                  ir->mesh_payload_size == 8 && ir->signature_count == 1,
              "stage %u group %u payload %u signature %u", ir->stage, ir->thread_group[0],
              ir->mesh_payload_size, ir->signature_count);
        CHECK(count_op(ir, SB_IR_OP_STORE_RAW) == 3 && count_op(ir, SB_IR_OP_DISPATCH_MESH) == 1,
              "%u store_raw, %u dispatch_mesh", count_op(ir, SB_IR_OP_STORE_RAW),
              count_op(ir, SB_IR_OP_DISPATCH_MESH));
        const struct sb_ir_instruction *second = first_op(ir, SB_IR_OP_STORE_RAW);
        if (second)
            second++;
        while (second && second->op != SB_IR_OP_STORE_RAW)
            second++;
        CHECK(second && second->src[0].imm[0] == 4 && second->src[1].file == SB_IR_FILE_IMMEDIATE &&
                  second->src[1].imm[0] == 7,
              "payload[1] = 7 is not store_raw at byte 4");
        /* payload[t]: the address is t * 4 + 0, an imad into the temp the third store reads. */
        const struct sb_ir_instruction *imad = first_op(ir, SB_IR_OP_IMAD), *third = second;
        if (third)
            third++;
        while (third && third->op != SB_IR_OP_STORE_RAW)
            third++;
        CHECK(imad && imad->src[1].file == SB_IR_FILE_IMMEDIATE && imad->src[1].imm[0] == 4 &&
                  imad->src[2].file == SB_IR_FILE_IMMEDIATE && imad->src[2].imm[0] == 0 && third &&
                  third->src[0].file == SB_IR_FILE_TEMP &&
                  third->src[0].index[0].offset == imad->dst[0].index[0].offset,
              "payload[t] is not store_raw at the address imad(t, 4, 0)");
    }
    sb_ir_program_destroy(ir);
    struct sb_error err;
    struct sb_translation *t = translate(&b, SB_TARGET_VULKAN_1_1, &err);
    CHECK(t != NULL, "sb_translate: %s", err.message);
    if (t) {
        struct module_facts f;
        read_facts(t->words, t->word_count, &f);
        CHECK(f.model == SpvExecutionModelTaskEXT, "execution model %u", f.model);
        const uint32_t *size = mode(&f, SpvExecutionModeLocalSize);
        CHECK(size && size[0] == 4 && size[1] == 1 && size[2] == 1, "LocalSize");
        CHECK(mode(&f, SpvExecutionModeOutputVertices) == NULL, "OutputVertices in a task shader");
        CHECK(f.emit_tasks == 1 && f.emit_task_arg_count == 4 && constant(&f, f.emit_task_args[0]) == 2 &&
                  constant(&f, f.emit_task_args[1]) == 1 && constant(&f, f.emit_task_args[2]) == 1 &&
                  storage_class(&f, f.emit_task_args[3]) == SpvStorageClassTaskPayloadWorkgroupEXT,
              "OpEmitMeshTasksEXT: %u, %u operands (%u %u %u, payload class %u)", f.emit_tasks,
              f.emit_task_arg_count, constant(&f, f.emit_task_args[0]), constant(&f, f.emit_task_args[1]),
              constant(&f, f.emit_task_args[2]), storage_class(&f, f.emit_task_args[3]));
        CHECK(sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) == SB_SUCCESS,
              "spirv-val: %s", err.message);
    }
    sb_translation_destroy(t);
    tb_free(&b);
}

/* ---- builtins: IR built by hand ---------------------------------------------------------- */

static struct sb_ir_operand imm(uint32_t x, uint32_t y)
{
    return (struct sb_ir_operand){ .file = SB_IR_FILE_IMMEDIATE, .imm = { x, y, y, y },
                                   .swizzle = { 0, 1, 2, 3 } };
}

static struct sb_ir_operand mesh_dst(uint32_t file, uint32_t element, uint32_t reg, uint8_t mask)
{
    return (struct sb_ir_operand){ .file = file, .index_count = 2,
                                   .index = { { .offset = element }, { .offset = reg } }, .mask = mask };
}

/*
 * What D3D never writes but the IR allows: `topology` lines or points, and the built-ins no
 * writer program has: ClipDistance (o1.xy per vertex); PrimitiveId, CullPrimitiveEXT, Layer
 * and ViewportIndex (registers 32-35) per primitive. Two vertices, one primitive.
 */
static void check_topology(uint32_t topology)
{
    static const struct sb_ir_signature_element signature[6] = {
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_Position", .system_value = 1,
          .file = SB_IR_FILE_MESH_VERTEX, .register_index = 0, .mask = 0xF,
          .component_type = SB_IR_TYPE_FLOAT, .array_size = 2 },
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_ClipDistance", .system_value = 2,
          .file = SB_IR_FILE_MESH_VERTEX, .register_index = 1, .mask = 0x3,
          .component_type = SB_IR_TYPE_FLOAT, .array_size = 2 },
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_PrimitiveID", .system_value = 7,
          .file = SB_IR_FILE_MESH_PRIMITIVE, .register_index = 32, .mask = 0x1,
          .component_type = SB_IR_TYPE_UINT, .array_size = 1 },
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_CullPrimitive", .system_value = 25,
          .file = SB_IR_FILE_MESH_PRIMITIVE, .register_index = 33, .mask = 0x1,
          .component_type = SB_IR_TYPE_UINT, .array_size = 1 },
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_RenderTargetArrayIndex", .system_value = 4,
          .file = SB_IR_FILE_MESH_PRIMITIVE, .register_index = 34, .mask = 0x1,
          .component_type = SB_IR_TYPE_UINT, .array_size = 1 },
        { .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_ViewportArrayIndex", .system_value = 5,
          .file = SB_IR_FILE_MESH_PRIMITIVE, .register_index = 35, .mask = 0x1,
          .component_type = SB_IR_TYPE_UINT, .array_size = 1 },
    };
    struct sb_ir_operand ops[] = {
        imm(2, 1), imm(1, 1),                                          /* set_counts 2, 1 */
        imm(0, 0), imm(0, 1),                                          /* indices (0, 1) */
        mesh_dst(SB_IR_FILE_MESH_VERTEX, 1, 0, 0x1), imm(0x3F800000, 0), /* o[1][0].x = 1.0 */
        mesh_dst(SB_IR_FILE_MESH_VERTEX, 1, 1, 0x2), imm(0, 0x40000000), /* clip[1][1] = 2.0 */
        mesh_dst(SB_IR_FILE_MESH_PRIMITIVE, 0, 32, 0x1), imm(5, 0),    /* primitive id 5 */
        mesh_dst(SB_IR_FILE_MESH_PRIMITIVE, 0, 33, 0x1), imm(~0u, 0),  /* culled */
        mesh_dst(SB_IR_FILE_MESH_PRIMITIVE, 0, 34, 0x1), imm(1, 0),    /* layer 1 */
        mesh_dst(SB_IR_FILE_MESH_PRIMITIVE, 0, 35, 0x1), imm(0, 0),    /* viewport 0 */
    };
    struct sb_ir_instruction code[] = {
        { .op = SB_IR_OP_MESH_SET_COUNTS, .src_count = 2, .src = &ops[0] },
        { .op = SB_IR_OP_MESH_INDICES, .src_count = 2, .src = &ops[2] },
        { .op = SB_IR_OP_MESH_STORE_VERTEX, .dst_count = 1, .dst = &ops[4], .src_count = 1, .src = &ops[5] },
        { .op = SB_IR_OP_MESH_STORE_VERTEX, .dst_count = 1, .dst = &ops[6], .src_count = 1, .src = &ops[7] },
        { .op = SB_IR_OP_MESH_STORE_PRIMITIVE, .dst_count = 1, .dst = &ops[8], .src_count = 1, .src = &ops[9] },
        { .op = SB_IR_OP_MESH_STORE_PRIMITIVE, .dst_count = 1, .dst = &ops[10], .src_count = 1, .src = &ops[11] },
        { .op = SB_IR_OP_MESH_STORE_PRIMITIVE, .dst_count = 1, .dst = &ops[12], .src_count = 1, .src = &ops[13] },
        { .op = SB_IR_OP_MESH_STORE_PRIMITIVE, .dst_count = 1, .dst = &ops[14], .src_count = 1, .src = &ops[15] },
        { .op = SB_IR_OP_RET },
    };
    const struct sb_ir_function function = { .id = 0xFFFFFFFFu, .instruction_count = 9, .instructions = code };
    const struct sb_ir_program program = {
        .source = SB_IR_SOURCE_DXIL, .stage = SB_IR_STAGE_MESH, .major = 5, .signature_count = 6,
        .signature = signature, .thread_group = { 1, 1, 1 }, .mesh_topology = topology,
        .mesh_max_vertices = 2, .mesh_max_primitives = 1, .function_count = 1, .functions = &function,
    };
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    CHECK(sb_ir_validate(&program, &err) == SB_SUCCESS, "sb_ir_validate: %s", err.message);
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_2 };
    struct sb_translation *t = NULL;
    CHECK(sb_translate_ir(&program, &o, &t, &err) == SB_SUCCESS, "sb_translate_ir: %s", err.message);
    if (!t)
        return;
    struct module_facts f;
    read_facts(t->words, t->word_count, &f);
    bool lines = topology == SB_IR_MESH_LINES;
    CHECK(mode(&f, lines ? SpvExecutionModeOutputLinesEXT : SpvExecutionModeOutputPoints) != NULL,
          "topology %u: no %s mode", topology, lines ? "OutputLinesEXT" : "OutputPoints");
    CHECK(decorated(&f, SpvDecorationBuiltIn, lines ? SpvBuiltInPrimitiveLineIndicesEXT
                                                    : SpvBuiltInPrimitivePointIndicesEXT) != 0,
          "topology %u: no index built-in", topology);
    uint32_t clip = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInClipDistance);
    uint32_t id = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInPrimitiveId);
    uint32_t cull = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInCullPrimitiveEXT);
    CHECK(clip && !has_decoration(&f, clip, SpvDecorationPerPrimitiveEXT), "ClipDistance");
    CHECK(id && has_decoration(&f, id, SpvDecorationPerPrimitiveEXT), "PrimitiveId per primitive");
    CHECK(cull && has_decoration(&f, cull, SpvDecorationPerPrimitiveEXT), "CullPrimitiveEXT per primitive");
    uint32_t layer = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInLayer);
    uint32_t viewport = decorated(&f, SpvDecorationBuiltIn, SpvBuiltInViewportIndex);
    CHECK(layer && has_decoration(&f, layer, SpvDecorationPerPrimitiveEXT) && viewport &&
              has_decoration(&f, viewport, SpvDecorationPerPrimitiveEXT),
          "Layer / ViewportIndex per primitive");
    CHECK(has_capability(&f, SpvCapabilityClipDistance), "ClipDistance capability");
    CHECK(f.set_outputs == 1 && constant(&f, f.set_output_args[0]) == 2 &&
              constant(&f, f.set_output_args[1]) == 1, "OpSetMeshOutputsEXT(2, 1)");
    CHECK(sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_2, &err) == SB_SUCCESS,
          "topology %u: spirv-val: %s", topology, err.message);
    sb_translation_destroy(t);
}

static void test_builtins(void)
{
    check_topology(SB_IR_MESH_LINES);
    check_topology(SB_IR_MESH_POINTS);
}

/* ---- not_run -------------------------------------------------------------------------------- */

static void not_run(bool (*write)(struct tbuf *), const char *load_message, const char *interp_message,
                    const char *validate_message)
{
    struct tbuf b = { 0 };
    CHECK(write(&b), "the writer failed");
    struct sb_rt_program *program = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    enum sb_result r = sb_rt_program_load(b.data, b.size, NULL, &program, &err);
    CHECK(r == SB_ERROR_RUN_UNSUPPORTED && !program && !strncmp(err.message, load_message, strlen(load_message)),
          "run/validate load: %d '%s'", r, err.message);
    sb_rt_program_destroy(program);
    struct sb_ir_program *ir = lower(&b);
    if (ir) {
        const uint32_t groups[3] = { 1, 1, 1 };
        r = sb_interp_dispatch(ir, NULL, 0, groups, NULL, NULL, &err);
        CHECK(r != SB_SUCCESS && strstr(err.message, interp_message), "interpreter: %d '%s'", r, err.message);
        struct sb_rt_program by_hand = { .stage = (enum sb_ir_stage)ir->stage, .ir = ir };
        struct sb_validate_options o = { .sides = SB_VALIDATE_SIDE_CPU };
        struct sb_validate_report *report = NULL;
        r = sb_validate(NULL, &by_hand, &o, &report, &err);
        CHECK(r == SB_ERROR_RUN_UNSUPPORTED && !report && !strncmp(err.message, validate_message,
                                                                   strlen(validate_message)),
              "sb_validate: %d '%s'", r, err.message);
        sb_validate_report_destroy(report);
    }
    sb_ir_program_destroy(ir);
    tb_free(&b);
}

static void test_not_run(void)
{
    not_run(dxil_program_ms_triangle, "not run: a mesh shader", "not run: the program is a mesh shader",
            "not run: a mesh shader");
    not_run(dxil_program_as_payload, "not run: an amplification shader",
            "not run: the program is an amplification shader", "not run: an amplification shader");
}

/* ---- corpus --------------------------------------------------------------------------------- */

static const char *const mesh_ops[6] = { "setMeshOutputCounts", "emitIndices", "storeVertexOutput",
                                         "storePrimitiveOutput", "getMeshPayload", "dispatchMesh" };

struct mesh_census {
    uint32_t files, translated, refused_mesh, refused_other, invalid;
    uint32_t uses[6], uses_translated[6];
};

/* Calls of dx.op.<name> in a listing ("call ... @dx.op.<name>" at the start of a call). */
static uint32_t count_calls(const char *text, const char *name)
{
    char needle[64];
    snprintf(needle, sizeof(needle), "@dx.op.%s", name);
    uint32_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
        const char *line = p;
        while (line > text && line[-1] != '\n')
            line--;
        n += strncmp(line, "declare", 7) != 0;
    }
    return n;
}

/* Whether a refusal is this concern's: a mesh dx.op, the payload or the mesh state. */
static bool mesh_refusal(const char *message)
{
    for (unsigned i = 0; i < 6; i++)
        if (strstr(message, mesh_ops[i]))
            return true;
    return strstr(message, "mesh") || strstr(message, "payload") || strstr(message, "amplification");
}

static void census_one(const char *path, const char *relative, void *user)
{
    struct mesh_census *c = user;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_dxbc *container = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    char *text = NULL;
    if (bytes && sb_dxbc_parse(bytes, size, &container, &err) == SB_SUCCESS) {
        const struct sb_dxbc_part *part = sb_dxbc_find_part(container, SB_FOURCC('D', 'X', 'I', 'L'));
        if (part)
            sb_dxil_disassemble(part->data, part->size, part->data_offset, &text, &err);
    }
    bool mesh_kind = text && (strstr(text, "!{!\"ms\", i32 6") || strstr(text, "!{!\"as\", i32 6"));
    if (mesh_kind) {
        uint32_t uses[6];
        for (unsigned i = 0; i < 6; i++)
            uses[i] = count_calls(text, mesh_ops[i]);
        c->files++;
        struct sb_translation *t = translate(&(struct tbuf){ .data = (uint8_t *)bytes, .size = size },
                                             SB_TARGET_VULKAN_1_1, &err);
        bool ok = t != NULL;
        if (t && sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) != SB_SUCCESS) {
            fprintf(stderr, "%s: invalid SPIR-V: %s\n", relative, err.message);
            c->invalid++;
            ok = false;
        } else if (t) {
            c->translated++;
            printf("  translated  %s\n", relative);
        } else {
            bool mine = mesh_refusal(err.message);
            c->refused_mesh += mine;
            c->refused_other += !mine;
            printf("  refused     %s: %s%s\n", relative, err.message, mine ? " [mesh]" : "");
        }
        for (unsigned i = 0; i < 6; i++) {
            c->uses[i] += uses[i];
            c->uses_translated[i] += ok ? uses[i] : 0;
        }
        sb_translation_destroy(t);
    }
    sb_dxil_text_free(text);
    sb_dxbc_destroy(container);
    free(bytes);
}

static int test_corpus(const char *corpus)
{
    static struct mesh_census c;
    if (!corpus || corpus_manifest_each(corpus, "dxil", census_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", corpus ? corpus : "(no corpus)");
        return 77;
    }
    printf("dxil_front_mesh_corpus: %u mesh/amplification files: %u translated (spirv-val clean), "
           "%u refused by this concern, %u refused elsewhere, %u invalid SPIR-V\n",
           c.files, c.translated, c.refused_mesh, c.refused_other, c.invalid);
    for (unsigned i = 0; i < 6; i++)
        printf("  %-22s %3u uses, %3u in translated files\n", mesh_ops[i], c.uses[i], c.uses_translated[i]);
    CHECK(c.invalid == 0, "%u invalid modules", c.invalid);
    CHECK(c.files == c.translated + c.refused_mesh + c.refused_other + c.invalid, "files do not add up");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "ms_triangle"))
        test_ms_triangle();
    else if (!strcmp(which, "as_payload"))
        test_as_payload();
    else if (!strcmp(which, "builtins"))
        test_builtins();
    else if (!strcmp(which, "not_run"))
        test_not_run();
    else if (!strcmp(which, "corpus"))
        return test_corpus(argc > 2 ? argv[2] : NULL);
    else {
        fprintf(stderr, "usage: %s ms_triangle|as_payload|builtins|not_run|corpus [CORPUS_DIR]\n", argv[0]);
        return 2;
    }
    return failures ? 1 : 0;
}
