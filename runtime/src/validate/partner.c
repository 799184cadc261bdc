/* SPDX-License-Identifier: MIT */
/*
 * Partner stages for graphics validation, built as IR and translated by our
 * own back end (so they need no compiler and follow the same interface rules
 * as the stage under test):
 *
 *   the feeder VS of a pixel shader: copies per-vertex attributes to the
 *   locations and components the pixel module reads (its translation's
 *   interface report) and puts vertex i on the centre of pixel
 *   (i % columns, i / columns) of a width x height framebuffer — drawn as
 *   points of size 1, every fragment input is then exactly the vertex's
 *   value; or, for a triangle list, vertex 3p + k on corner k of pixel p's
 *   triangle (X, Y), (X + 2, Y), (X, Y + 2), which covers all of the pixel
 *   (validate_pixel_planes.c). Each location is read as four raw
 *   32-bit words (a uint4 attribute) and each output variable takes the type
 *   the pixel module declares for it, so one location may carry float and
 *   integer components side by side (Vulkan matches an attribute's format to
 *   one input variable per location, and the IR's registers are untyped: the
 *   move is a bit copy). Clip and cull distances the pixel shader reads are
 *   written too (sb_rt_feeder_distance: never negative, so nothing is
 *   clipped or culled);
 *
 *   the capture GS of a vertex shader: for each point, stores every output
 *   register of the vertex shader into a structured UAV record at
 *   SV_PrimitiveID (= the vertex index for a point list), emitting nothing.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

#define MAX_INSTRUCTIONS 160
#define MAX_OPERANDS (MAX_INSTRUCTIONS * 4)
#define MAX_SIGNATURE 80

struct partner {
    struct sb_ir_program program;
    struct sb_ir_function function;
    struct sb_ir_resource resource;
    struct sb_ir_instruction instructions[MAX_INSTRUCTIONS];
    struct sb_ir_operand operands[MAX_OPERANDS];
    struct sb_ir_signature_element signature[MAX_SIGNATURE];
    uint32_t instruction_count, operand_count, signature_count;
    bool overflow;
};

static struct sb_ir_operand reg(uint32_t file, uint32_t index, uint8_t mask)
{
    struct sb_ir_operand o = { .file = file, .index_count = 1, .mask = mask };
    o.index[0].offset = index;
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = (uint8_t)i;
    return o;
}

static struct sb_ir_operand swizzled(struct sb_ir_operand o, uint8_t x, uint8_t y, uint8_t z, uint8_t w)
{
    o.swizzle[0] = x;
    o.swizzle[1] = y;
    o.swizzle[2] = z;
    o.swizzle[3] = w;
    return o;
}

static struct sb_ir_operand imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    struct sb_ir_operand o = { .file = SB_IR_FILE_IMMEDIATE, .imm = { x, y, z, w } };
    for (int i = 0; i < 4; i++)
        o.swizzle[i] = (uint8_t)i;
    return o;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void emit(struct partner *p, uint32_t op, uint32_t dst_count, const struct sb_ir_operand *dst,
                 uint32_t src_count, const struct sb_ir_operand *src)
{
    if (p->instruction_count == MAX_INSTRUCTIONS || p->operand_count + dst_count + src_count > MAX_OPERANDS) {
        p->overflow = true;
        return;
    }
    struct sb_ir_operand *ops = &p->operands[p->operand_count];
    memcpy(ops, dst, dst_count * sizeof(*ops));
    memcpy(ops + dst_count, src, src_count * sizeof(*ops));
    p->operand_count += dst_count + src_count;
    struct sb_ir_instruction *inst = &p->instructions[p->instruction_count];
    memset(inst, 0, sizeof(*inst));
    inst->op = op;
    inst->offset = p->instruction_count; /* no source file: the index */
    inst->dst_count = dst_count;
    inst->src_count = src_count;
    inst->dst = dst_count ? ops : NULL;
    inst->src = ops + dst_count;
    p->instruction_count++;
}

static struct sb_ir_signature_element *add_element(struct partner *p)
{
    if (p->signature_count == MAX_SIGNATURE) {
        p->overflow = true;
        return NULL;
    }
    struct sb_ir_signature_element *e = &p->signature[p->signature_count++];
    memset(e, 0, sizeof(*e));
    e->semantic = "";
    return e;
}

static struct partner *finish(struct partner *p, uint32_t stage, uint32_t temps)
{
    if (p->overflow) {
        free(p);
        return NULL;
    }
    struct sb_ir_operand none[1] = { { 0 } };
    emit(p, SB_IR_OP_RET, 0, none, 0, none);
    p->function = (struct sb_ir_function){
        .id = 0xFFFFFFFFu, .instruction_count = p->instruction_count,
        .instructions = p->instructions, .instance_count = 1, .temp_count = temps,
    };
    p->program.source = SB_IR_SOURCE_SM4;
    p->program.stage = stage;
    p->program.major = 5;
    p->program.temp_count = temps;
    p->program.signature_count = p->signature_count;
    p->program.signature = p->signature;
    p->program.function_count = 1;
    p->program.functions = &p->function;
    p->program.first_fork_phase = 1;
    return p->overflow ? (free(p), NULL) : p;
}

/* Distinct per register and component, so that a lane the two stages or the interpreter
 * place differently shows; vertex * 1/4 is exact, and the sum rounds once on both sides
 * (a fused multiply-add gives the same result: the product is exact). */
static float distance_offset(uint32_t reg, uint32_t component)
{
    return (float)(reg * 4 + component) / 64.0f;
}

float sb_rt_feeder_distance(uint32_t vertex, uint32_t reg, uint32_t component)
{
    return (float)vertex * 0.25f + distance_offset(reg, component);
}

static bool is_distance(const struct sb_ir_signature_element *e, uint32_t system_value)
{
    return e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT && e->system_value == system_value &&
           e->register_index < 64 && (e->mask & 0xF);
}

bool sb_rt_feeder_writes_distance(const struct sb_ir_signature_element *e)
{
    return is_distance(e, 2) || is_distance(e, 3);
}

void sb_rt_feeder_distance_lanes(const struct sb_ir_program *ps_ir, uint32_t *clip, uint32_t *cull)
{
    *clip = *cull = 0;
    for (uint32_t i = 0; ps_ir && i < ps_ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ps_ir->signature[i];
        uint32_t lanes = 0;
        for (uint32_t c = 0; c < 4; c++)
            lanes += e->mask >> c & 1u;
        if (is_distance(e, 2))
            *clip += lanes;
        else if (is_distance(e, 3))
            *cull += lanes;
    }
}

/* The pixel program's clip/cull distances as outputs of the same registers and masks, so
 * that the back end lays out ClipDistance/CullDistance identically on both sides (array
 * sizes included: a size that differs between the stages moves the cull distances); each
 * lane written with sb_rt_feeder_distance from r1.x = pixel / 4 (`pixel`: a scalar operand
 * holding the pixel's index, so a triangle's corners carry one value). */
static void feed_distances(struct partner *p, const struct sb_ir_program *ps_ir, struct sb_ir_operand pixel)
{
    bool any = false;
    for (uint32_t i = 0; ps_ir && i < ps_ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ps_ir->signature[i];
        if (!sb_rt_feeder_writes_distance(e))
            continue;
        struct sb_ir_signature_element *out = add_element(p);
        if (!out)
            return;
        *out = *e;
        out->kind = SB_IR_SIGNATURE_OUTPUT;
        out->file = SB_IR_FILE_OUTPUT;
        out->interpolation = 0;
        if (!any) {
            struct sb_ir_operand r1 = reg(SB_IR_FILE_TEMP, 1, 0x1);
            emit(p, SB_IR_OP_UTOF, 1, &r1, 1, &pixel);
            struct sb_ir_operand mul[2] = { swizzled(reg(SB_IR_FILE_TEMP, 1, 0), 0, 0, 0, 0),
                                            imm4(fbits(0.25f), fbits(0.25f), fbits(0.25f), fbits(0.25f)) };
            emit(p, SB_IR_OP_MUL, 1, &r1, 2, mul);
            any = true;
        }
        uint32_t r = e->register_index;
        struct sb_ir_operand d = reg(SB_IR_FILE_OUTPUT, r, e->mask & 0xF);
        struct sb_ir_operand add[2] = {
            swizzled(reg(SB_IR_FILE_TEMP, 1, 0), 0, 0, 0, 0),
            imm4(fbits(distance_offset(r, 0)), fbits(distance_offset(r, 1)), fbits(distance_offset(r, 2)),
                 fbits(distance_offset(r, 3))),
        };
        emit(p, SB_IR_OP_ADD, 1, &d, 2, add);
    }
}

struct sb_ir_program *sb_rt_feeder_vertex_program(const struct sb_translation *ps, const struct sb_ir_program *ps_ir,
                                                  uint32_t columns, uint32_t width, uint32_t height, bool triangles,
                                                  uint32_t *position_register)
{
    struct partner *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    uint32_t next = 0;
    for (uint32_t i = 0; ps_ir && i < ps_ir->signature_count; i++)
        if (sb_rt_feeder_writes_distance(&ps_ir->signature[i]) && ps_ir->signature[i].register_index + 1 > next)
            next = ps_ir->signature[i].register_index + 1;
    /* One uint4 input per location the pixel module reads (the vertex stream's format)... */
    bool location_read[64] = { false };
    for (uint32_t i = 0; i < ps->input_count; i++) {
        const struct sb_translated_interface *f = &ps->inputs[i];
        if (!f->array_size && !f->patch && f->location < 64 && f->component_count)
            location_read[f->location] = true;
    }
    for (uint32_t location = 0; location < 64; location++) {
        struct sb_ir_signature_element *in = location_read[location] ? add_element(p) : NULL;
        if (!in)
            continue;
        *in = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "ATTRIBUTE", .semantic_index = location,
            .register_index = location, .file = SB_IR_FILE_INPUT, .mask = 0xF, .used_mask = 0xF,
            .component_type = SB_IR_TYPE_UINT,
        };
        if (location + 1 > next)
            next = location + 1;
    }
    /* ... and exactly the output variables (location, components, type) it declares as inputs. */
    for (uint32_t i = 0; i < ps->input_count; i++) {
        const struct sb_translated_interface *in_face = &ps->inputs[i];
        if (in_face->array_size || in_face->patch || in_face->location >= 64 || !in_face->component_count)
            continue;
        uint8_t mask = (uint8_t)(((1u << in_face->component_count) - 1u) << in_face->component);
        struct sb_ir_signature_element *out = add_element(p);
        if (!out)
            break;
        *out = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = in_face->semantic ? in_face->semantic : "ATTRIBUTE",
            .semantic_index = in_face->semantic_index, .register_index = in_face->location,
            .file = SB_IR_FILE_OUTPUT, .mask = mask, .used_mask = mask, .component_type = in_face->component_type,
        };
        struct sb_ir_operand d = reg(SB_IR_FILE_OUTPUT, in_face->location, mask);
        struct sb_ir_operand src = reg(SB_IR_FILE_INPUT, in_face->location, 0);
        emit(p, SB_IR_OP_MOV, 1, &d, 1, &src);
    }
    /* SV_VertexID in v[next], SV_Position in o[next]. */
    struct sb_ir_signature_element *vid = add_element(p), *pos = add_element(p);
    if (vid && pos) {
        *vid = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_VertexID", .system_value = 6,
            .register_index = next, .file = SB_IR_FILE_INPUT, .mask = 1, .used_mask = 1,
            .component_type = SB_IR_TYPE_UINT,
        };
        *pos = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = "SV_Position", .system_value = 1,
            .register_index = next, .file = SB_IR_FILE_OUTPUT, .mask = 0xF, .used_mask = 0xF,
            .component_type = SB_IR_TYPE_FLOAT,
        };
    }
    /* Triangles: r0.z = pixel = id / 3, r0.w = corner k = id % 3. */
    struct sb_ir_operand pixel = swizzled(reg(SB_IR_FILE_INPUT, next, 0), 0, 0, 0, 0);
    if (triangles) {
        struct sb_ir_operand pk[2] = { reg(SB_IR_FILE_TEMP, 0, 0x4), reg(SB_IR_FILE_TEMP, 0, 0x8) };
        struct sb_ir_operand by3[2] = { pixel, imm4(3, 3, 3, 3) };
        emit(p, SB_IR_OP_UDIV, 2, pk, 2, by3);
        pixel = swizzled(reg(SB_IR_FILE_TEMP, 0, 0), 2, 2, 2, 2);
    }
    /* r0.y = pixel / columns, r0.x = pixel % columns; NDC = (texel + 0.5) * 2 / size - 1 for a point. */
    struct sb_ir_operand qr[2] = { reg(SB_IR_FILE_TEMP, 0, 0x2), reg(SB_IR_FILE_TEMP, 0, 0x1) };
    struct sb_ir_operand div[2] = { pixel, imm4(columns, columns, columns, columns) };
    emit(p, SB_IR_OP_UDIV, 2, qr, 2, div);
    struct sb_ir_operand xy = reg(SB_IR_FILE_TEMP, 0, 0x3), r0 = reg(SB_IR_FILE_TEMP, 0, 0);
    if (triangles) {
        /* corner k = 0, 1, 2 at (0, 0), (2, 0), (0, 2) from the pixel's top-left corner:
         * r0.xy += 2 * (k & 1, k >> 1) */
        struct sb_ir_operand r1x = reg(SB_IR_FILE_TEMP, 1, 0x1), r1y = reg(SB_IR_FILE_TEMP, 1, 0x2);
        struct sb_ir_operand k = swizzled(reg(SB_IR_FILE_TEMP, 0, 0), 3, 3, 3, 3);
        struct sb_ir_operand low[2] = { k, imm4(1, 1, 1, 1) };
        emit(p, SB_IR_OP_AND, 1, &r1x, 2, low);
        emit(p, SB_IR_OP_USHR, 1, &r1y, 2, low);
        struct sb_ir_operand step[3] = { reg(SB_IR_FILE_TEMP, 1, 0), imm4(2, 2, 2, 2), r0 };
        emit(p, SB_IR_OP_IMAD, 1, &xy, 3, step);
    }
    emit(p, SB_IR_OP_UTOF, 1, &xy, 1, &r0);
    /* A corner lands on the pixel grid exactly when 2 / size is exact (a power-of-two size). */
    float half_x = triangles ? 0.0f : 1.0f / (float)width, half_y = triangles ? 0.0f : 1.0f / (float)height;
    struct sb_ir_operand mad[3] = {
        r0, imm4(fbits(2.0f / (float)width), fbits(2.0f / (float)height), 0, 0),
        imm4(fbits(half_x - 1.0f), fbits(half_y - 1.0f), 0, 0),
    };
    emit(p, SB_IR_OP_MAD, 1, &xy, 3, mad);
    struct sb_ir_operand pxy = reg(SB_IR_FILE_OUTPUT, next, 0x3), pzw = reg(SB_IR_FILE_OUTPUT, next, 0xC);
    emit(p, SB_IR_OP_MOV, 1, &pxy, 1, &r0);
    struct sb_ir_operand zw = imm4(0, 0, fbits(0.5f), fbits(1.0f));
    emit(p, SB_IR_OP_MOV, 1, &pzw, 1, &zw);
    feed_distances(p, ps_ir, pixel);
    *position_register = next;
    struct partner *done = finish(p, SB_IR_STAGE_VERTEX, 2);
    return done ? &done->program : NULL;
}

struct sb_ir_program *sb_rt_capture_geometry_program(const struct sb_ir_program *vs, uint32_t uav,
                                                     uint32_t *record_registers)
{
    struct partner *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    uint32_t registers = 0;
    uint8_t masks[256] = { 0 };
    for (uint32_t i = 0; i < vs->signature_count; i++) {
        const struct sb_ir_signature_element *e = &vs->signature[i];
        if (e->kind != SB_IR_SIGNATURE_OUTPUT || e->file != SB_IR_FILE_OUTPUT || e->register_index >= 256 ||
            !sb_rt_capturable_output(e))
            continue;
        struct sb_ir_signature_element *in = add_element(p);
        if (!in)
            break;
        *in = *e;
        in->kind = SB_IR_SIGNATURE_INPUT;
        in->file = SB_IR_FILE_INPUT;
        in->array_size = 1;
        in->offset = 0;
        masks[e->register_index] |= e->mask;
        if (e->register_index + 1 > registers)
            registers = e->register_index + 1;
    }
    struct sb_ir_signature_element *prim = add_element(p);
    if (prim)
        *prim = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_PrimitiveID", .system_value = 7,
            .file = SB_IR_FILE_PRIMITIVE_ID, .mask = 1, .used_mask = 1, .component_type = SB_IR_TYPE_UINT,
        };
    p->resource = (struct sb_ir_resource){
        .resource_class = SB_IR_RESOURCE_UAV, .id = uav, .lower_bound = uav, .count = 1,
        .kind = SB_IR_RESOURCE_KIND_STRUCTURED, .stride = (registers ? registers : 1) * 16,
    };
    p->program.resource_count = 1;
    p->program.resources = &p->resource;
    for (uint32_t r = 0; r < registers; r++) {
        if (!masks[r])
            continue;
        struct sb_ir_operand d = reg(SB_IR_FILE_UAV, uav, 0xF);
        struct sb_ir_operand value = { .file = SB_IR_FILE_INPUT, .index_count = 2 };
        value.index[0].offset = 0;
        value.index[1].offset = r;
        for (int c = 0; c < 4; c++)
            value.swizzle[c] = (uint8_t)c;
        struct sb_ir_operand s[3] = { swizzled(reg(SB_IR_FILE_PRIMITIVE_ID, 0, 0), 0, 0, 0, 0),
                                      imm4(r * 16, r * 16, r * 16, r * 16), value };
        s[0].index_count = 0;
        emit(p, SB_IR_OP_STORE_STRUCTURED, 1, &d, 3, s);
    }
    p->program.gs_input_primitive = 1;  /* point */
    p->program.gs_output_topology = 1;  /* point list */
    p->program.gs_max_output_vertices = 1;
    p->program.gs_stream_mask = 1;
    *record_registers = registers ? registers : 1;
    struct partner *done = finish(p, SB_IR_STAGE_GEOMETRY, 0);
    return done ? &done->program : NULL;
}

bool sb_rt_capturable_output(const struct sb_ir_signature_element *e)
{
    /* Position and clip/cull distances reach a geometry stage; the render-target array and
     * viewport indices (4, 5) are rasterizer state a geometry stage cannot read back. */
    return e->system_value <= 3;
}

void sb_rt_partner_destroy(struct sb_ir_program *program)
{
    free(program); /* the program is the partner's first member */
}
