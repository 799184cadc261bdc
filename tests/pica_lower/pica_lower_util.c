/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the PICA200 lowering tests: the encoder wrappers, a SHBIN built
 * with the test writer, and interpreter runs (see pica_lower_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_lower_util.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/shbin.h"
#include "shbin_writer.h"

/* The front end with its test switch (translator/src/pica/ir_from_pica_private.h). */
enum sb_result sb_pfront_lower(const struct sb_shbin *shbin, uint32_t dvle_index,
                               uint32_t pica_flags, bool force_dispatch,
                               struct sb_ir_program **out, struct sb_error *error);

int g_failures;
uint32_t g_code_offset;

#define SEL_XYZW 0x1Bu
/* Descriptor word (../shared/docs/pica200.md §5): write mask, negate bits, identity selectors. */
#define DESC(mask, n1, n2)                                                                      \
    ((mask) | ((n1) << 4) | (SEL_XYZW << 5) | ((n2) << 13) | (SEL_XYZW << 14) | (SEL_XYZW << 23))

static const uint32_t descriptors[D_COUNT] = {
    [D_XYZW] = DESC(0xFu, 0u, 0u),
    [D_NEG1] = DESC(0xFu, 1u, 0u),
    [D_X] = DESC(0x8u, 0u, 0u),
    [D_NEG2] = DESC(0xFu, 0u, 1u),
};

static uint32_t encode(const struct sb_pica_instruction *in)
{
    uint32_t word = 0;
    struct sb_error e;
    if (sb_pica_encode(in, &word, &e) != SB_SUCCESS) {
        fprintf(stderr, "encode failed (opcode 0x%x): %s\n", (unsigned)in->opcode, e.message);
        exit(1);
    }
    return word;
}

static void set_src(struct sb_pica_source *s, struct reg r)
{
    s->file = r.file;
    s->index = r.index;
}

uint32_t w_alu(enum sb_pica_opcode op, struct reg dst, struct reg s1, struct reg s2, uint32_t desc)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = op;
    sb_pica_opcode_format(op, &in.format);
    in.has_descriptor = true;
    in.descriptor_index = desc;
    in.dst.file = dst.file;
    in.dst.index = dst.index;
    set_src(&in.src[0], s1);
    in.source_count = 1;
    if (s2.file != SB_PICA_REG_NONE) {
        set_src(&in.src[1], s2);
        in.source_count = 2;
    }
    return encode(&in);
}

uint32_t w_rel(enum sb_pica_opcode op, struct reg dst, struct reg s1, enum sb_pica_relative rel,
               uint32_t desc)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = op;
    sb_pica_opcode_format(op, &in.format);
    in.has_descriptor = true;
    in.descriptor_index = desc;
    in.dst.file = dst.file;
    in.dst.index = dst.index;
    set_src(&in.src[0], s1);
    in.src[0].relative = rel;
    in.relative = rel;
    in.source_count = 1;
    return encode(&in);
}

uint32_t w_cmp(struct reg s1, enum sb_pica_compare_op x, enum sb_pica_compare_op y, struct reg s2)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = SB_PICA_OP_CMP;
    in.format = SB_PICA_FORMAT_1C;
    in.has_descriptor = true;
    in.descriptor_index = D_XYZW;
    set_src(&in.src[0], s1);
    set_src(&in.src[1], s2);
    in.source_count = 2;
    in.compare_x = x;
    in.compare_y = y;
    return encode(&in);
}

uint32_t w_op0(enum sb_pica_opcode op)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = op;
    in.format = SB_PICA_FORMAT_0;
    return encode(&in);
}

uint32_t w_f2(enum sb_pica_opcode op, uint32_t dest, uint32_t num, enum sb_pica_condition_op cond,
              bool refx, bool refy)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = op;
    in.format = SB_PICA_FORMAT_2;
    in.flow_dest = dest;
    in.flow_num = num;
    in.condition = cond;
    in.refx = refx;
    in.refy = refy;
    return encode(&in);
}

uint32_t w_f3(enum sb_pica_opcode op, uint32_t dest, uint32_t num, uint32_t id)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = op;
    in.format = SB_PICA_FORMAT_3;
    in.flow_dest = dest;
    in.flow_num = num;
    if (op == SB_PICA_OP_LOOP)
        in.int_id = id;
    else
        in.bool_id = id;
    in.jmpu_inverted = op == SB_PICA_OP_JMPU && (num & 1u);
    return encode(&in);
}

uint32_t w_setemit(uint32_t vertex, bool primitive, bool winding)
{
    struct sb_pica_instruction in;
    memset(&in, 0, sizeof(in));
    in.opcode = SB_PICA_OP_SETEMIT;
    in.format = SB_PICA_FORMAT_4;
    in.vertex_id = vertex;
    in.primitive = primitive;
    in.winding = winding;
    return encode(&in);
}

struct sb_ir_program *lower_prog(const struct prog *p, enum sb_result *result, struct sb_error *error)
{
    return lower_prog_mode(p, false, result, error);
}

struct sb_ir_program *lower_prog_mode(const struct prog *p, bool force_dispatch,
                                      enum sb_result *result, struct sb_error *error)
{
    struct shbin_writer_output outputs[8];
    for (uint32_t i = 0; i < p->output_count && i < 8; i++)
        outputs[i] = (struct shbin_writer_output){ (uint16_t)(i == 0 ? 0 : 2), (uint16_t)i, 0xF };
    struct shbin_writer_constant constant = { 2, (uint16_t)p->float_constant,
                                              { p->float_value[0], p->float_value[1],
                                                p->float_value[2], p->float_value[3] } };
    struct shbin_writer_dvle dvle;
    memset(&dvle, 0, sizeof(dvle));
    dvle.version = 0x1002;
    dvle.type = p->geometry ? 1 : 0;
    dvle.main_address = p->main_address;
    dvle.end_address = p->count;
    dvle.outputs = outputs;
    dvle.output_count = p->output_count;
    if (p->float_constant != UINT32_MAX) {
        dvle.constants = &constant;
        dvle.constant_count = 1;
    }
    struct shbin_writer_program program;
    memset(&program, 0, sizeof(program));
    program.layout = SHBIN_WRITER_PICASSO;
    program.code = p->code;
    program.code_word_count = p->count;
    program.descriptors = descriptors;
    program.descriptor_count = D_COUNT;
    program.dvles = &dvle;
    program.dvle_count = 1;
    struct shbin_writer_file file;
    *result = SB_ERROR_OUT_OF_MEMORY;
    if (!shbin_writer_build(&program, &file))
        return NULL;
    struct sb_shbin *shbin = NULL;
    struct sb_ir_program *ir = NULL;
    g_code_offset = file.code;
    *result = sb_shbin_parse(file.bytes, file.size, &shbin, error);
    if (*result == SB_SUCCESS)
        *result = sb_pfront_lower(shbin, 0, p->pica_flags, force_dispatch, &ir, error);
    if (*result == SB_SUCCESS) {
        *result = sb_ir_validate(ir, error);
        if (*result != SB_SUCCESS) {
            char *text = sb_ir_print(ir);
            fprintf(stderr, "invalid IR: %s\n%s\n", error->message, text ? text : "");
            free(text);
            sb_ir_program_destroy(ir);
            ir = NULL;
        }
    }
    sb_shbin_destroy(shbin);
    shbin_writer_free(&file);
    return ir;
}

bool is_dispatch(const struct sb_ir_program *ir)
{
    const struct sb_ir_function *f = &ir->functions[0];
    for (uint32_t i = 0; i < f->instruction_count; i++)
        if (f->instructions[i].op == SB_IR_OP_SWITCH)
            return true;
    return false;
}

uint32_t count_op(const struct sb_ir_program *ir, uint32_t op)
{
    uint32_t n = 0;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t i = 0; i < ir->functions[f].instruction_count; i++)
            n += ir->functions[f].instructions[i].op == op;
    return n;
}

bool run(const struct sb_ir_program *ir, const struct uniforms *u, uint32_t vertices,
         const float (*in)[4][4], float (*out)[4][4])
{
    return run_budget(ir, u, vertices, in, out, 0, NULL);
}

bool run_budget(const struct sb_ir_program *ir, const struct uniforms *u, uint32_t vertices,
                const float (*in)[4][4], float (*out)[4][4], uint64_t budget, enum sb_result *result)
{
    uint32_t buffer[SB_IR_PICA_UNIFORM_VECTORS * 4];
    memset(buffer, 0, sizeof(buffer));
    memcpy(buffer, u->c, sizeof(u->c));
    memcpy(&buffer[SB_IR_PICA_UNIFORM_INT_VECTOR * 4], u->i, sizeof(u->i));
    buffer[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4] = u->b;
    struct sb_rt_resource res;
    memset(&res, 0, sizeof(res));
    res.resource_class = SB_IR_RESOURCE_CBV;
    res.register_index = SB_IR_PICA_UNIFORM_REGISTER;
    res.data = buffer;
    res.size = sizeof(buffer);
    uint32_t in_regs = 1, out_regs = 1;
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        uint32_t *regs = e->kind == SB_IR_SIGNATURE_INPUT ? &in_regs : &out_regs;
        if (e->register_index + 1 > *regs)
            *regs = e->register_index + 1;
    }
    uint32_t *in_words = calloc((size_t)vertices * in_regs * 4, 4);
    uint32_t *out_words = calloc((size_t)vertices * out_regs * 4, 4);
    if (!in_words || !out_words) {
        free(in_words);
        free(out_words);
        return false;
    }
    for (uint32_t v = 0; v < vertices; v++)
        for (uint32_t r = 0; r < in_regs && r < 4; r++)
            memcpy(&in_words[(v * in_regs + r) * 4], in[v][r], 16);
    struct sb_interp_registers inputs = { in_regs, in_words }, outputs = { out_regs, out_words };
    struct sb_error e;
    struct sb_interp_options options;
    memset(&options, 0, sizeof(options));
    options.instruction_budget = budget ? budget : 1u << 22;
    enum sb_result r = sb_interp_run_vertices(ir, ir->resource_count ? &res : NULL, ir->resource_count,
                                              vertices, &inputs, &outputs, &options, NULL, &e);
    if (result)
        *result = r;
    else if (r != SB_SUCCESS)
        fprintf(stderr, "interpreter: %s\n", e.message);
    for (uint32_t v = 0; v < vertices && r == SB_SUCCESS; v++)
        for (uint32_t reg = 0; reg < out_regs && reg < 4; reg++)
            memcpy(out[v][reg], &out_words[(v * out_regs + reg) * 4], 16);
    free(in_words);
    free(out_words);
    return r == SB_SUCCESS;
}
