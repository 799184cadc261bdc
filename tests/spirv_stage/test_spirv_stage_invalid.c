/* SPDX-License-Identifier: MIT */
/*
 * Stage rules the SPIR-V back end enforces on damaged input (issue #4: any
 * input gives valid SPIR-V or a structured error, never a module spirv-val
 * rejects). Each case is a hand-built IR program shaped like a mutant the
 * corpus mutation tests found translating into invalid SPIR-V; it must now
 * fail with SB_ERROR_TRANSLATE_INVALID at the offending declaration's or
 * instruction's offset, while the nearest valid program still translates
 * and validates; where D3D would accept the input (lanes named twice) it must
 * translate into valid SPIR-V. Run as `test_spirv_stage_invalid <case>`; one ctest per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage_ir.h"

enum { IN = SB_IR_SIGNATURE_INPUT, OUT = SB_IR_SIGNATURE_OUTPUT, PATCH = SB_IR_SIGNATURE_PATCH };
enum { F_IN = SB_IR_FILE_INPUT, F_OUT = SB_IR_FILE_OUTPUT, F_PC = SB_IR_FILE_INPUT_PATCH_CONSTANT };

/* Where the tests put the declaration an element stands for. */
#define DECL_OFFSET 0x40u

/* Gives the element (kind, file, reg) of a finished program its declaration's offset
 * (st_sig's pool is static, so writable). */
static void set_offset(struct sb_ir_program *p, uint32_t kind, uint32_t file, uint32_t reg,
                       uint64_t offset)
{
    for (uint32_t i = 0; i < p->signature_count; i++) {
        struct sb_ir_signature_element *e = (struct sb_ir_signature_element *)&p->signature[i];
        if (e->kind == kind && e->file == file && e->register_index == reg)
            e->offset = offset;
    }
}

/* Translation must fail with `code` at `offset`, with a message naming `word`, and no module. */
static void expect_error(const struct sb_ir_program *p, enum sb_result code, uint64_t offset,
                         const char *word, const char *what)
{
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(p, NULL, &t, &error);
    if (r != code || error.code != code || error.offset != offset ||
        !strstr(error.message, word) || t) {
        fprintf(stderr, "%s: got %s (error.code %s) at offset %llu: '%s'; want %s at %llu "
                "naming '%s'\n", what, sb_result_name(r), sb_result_name(error.code),
                (unsigned long long)error.offset, error.message, sb_result_name(code),
                (unsigned long long)offset, word);
        st_failures++;
    }
    sb_translation_destroy(t);
}

/* A triangle-in, triangle-strip-out GS passing v[0][reg] through to o1. */
static struct sb_ir_program *gs_with_input(uint32_t reg, uint32_t system_value)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 3;
    p->gs_output_topology = 5;
    p->gs_max_output_vertices = 3;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, reg, 0x7, "ARG", system_value, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0x7, "ARG", 0, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 0, 0, 0));
    st_mov(st_reg(F_OUT, 1, 0x7), st_reg2(F_IN, 0, 1, 0));
    st_op(SB_IR_OP_EMIT, 0);
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    set_offset(p, IN, F_IN, reg, DECL_OFFSET);
    return p;
}

/* GS input register past D3D's 32 (a damaged dcl_input index): was Location 2^31 + 1, which
 * spirv-val folds onto the real locations ("conflicting input location assignment"). */
static void gs_input_register_range(void)
{
    char *text = st_translate(gs_with_input(31, 0), "gs v[3][31]");
    ST_CHECK(text && strstr(text, "Location 31"));
    free(text);
    expect_error(gs_with_input(32, 0), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET, "register 32",
                 "gs v[3][32]");
    expect_error(gs_with_input(0x80000001u, 0), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET,
                 "register 2147483649", "gs v[3][0x80000001]");
}

/* GS output element on stream `stream` (a damaged OSG5 stream field: Location = register +
 * stream * stride, and a Stream decoration no device has). */
static struct sb_ir_program *gs_with_stream(uint32_t stream)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 1;
    p->gs_output_topology = 1;
    p->gs_max_output_vertices = 1;
    p->gs_stream_mask = 1u | (stream < 32 ? 1u << stream : 0);
    st_sig(IN, F_IN, 0, 0xF, "POS", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0xF, "STREAMED", 0, stream);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 0, 0, 0));
    st_mov(st_reg(F_OUT, 1, 0xF), st_reg2(F_IN, 0, 0, 0));
    st_op(SB_IR_OP_EMIT, 0);
    st_op(SB_IR_OP_EMIT, stream < 4 ? stream : 1);
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    set_offset(p, OUT, F_OUT, 1, DECL_OFFSET);
    return p;
}

static void gs_output_stream_range(void)
{
    char *text = st_translate(gs_with_stream(3), "gs stream 3");
    ST_CHECK(st_count(text, "Stream 3") == 1);
    ST_CHECK(st_count(text, "Location 7") == 1); /* o1 + 3 streams * stride 2 */
    free(text);
    expect_error(gs_with_stream(4), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET, "stream 4",
                 "gs stream 4");
    expect_error(gs_with_stream(0x40000000u), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET,
                 "stream 1073741824", "gs stream 2^30");
}

/* A tri-domain HS: 3 control points of o0 (position by `cp_system_value`), and patch
 * constants (3 edge factors, 1 inside factor, then `extra` at patch register 4). */
static struct sb_ir_program *hs_with(uint32_t cp_reg, uint32_t extra_system_value)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = 3;
    p->output_control_points = 3;
    p->tess_domain = 2;
    p->tess_partitioning = 1;
    p->tess_output_primitive = 3;
    st_sig(IN, F_IN, 0, 0xF, "POSITION", 0, 0);
    st_sig(OUT, F_OUT, cp_reg, 0xF, "POSITION", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, F_OUT, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
    st_sig(PATCH, F_OUT, 4, 0xF, "EXTRA", extra_system_value, 0);
    st_function(1, 0); /* control-point phase */
    st_mov(st_reg(F_OUT, cp_reg < 32 ? cp_reg : 0, 0xF),
           st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0));
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    set_offset(p, OUT, F_OUT, cp_reg, DECL_OFFSET);
    set_offset(p, PATCH, F_OUT, 4, DECL_OFFSET + 8);
    return p;
}

/* HS control-point output past 32 (a damaged OSGN register): was a Location colliding with 0. */
static void hs_output_register_range(void)
{
    char *text = st_translate(hs_with(1, 0), "hs o1");
    ST_CHECK(text && strstr(text, "OpEntryPoint TessellationControl"));
    free(text);
    expect_error(hs_with(0x80000000u, 0), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET,
                 "register 2147483648", "hs o[0x80000000]");
}

/* HS patch constant with SV_Position / SV_ClipDistance (a damaged PCSG system value): was a
 * Patch-decorated Position built-in. */
static void hs_patch_system_value(void)
{
    expect_error(hs_with(0, 1), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET + 8, "system value 1",
                 "hs patch position");
    expect_error(hs_with(0, 2), SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET + 8, "system value 2",
                 "hs patch clip distance");
}

/* DS reading a patch constant marked SV_Position next to per-vertex positions: was one Position
 * variable (the arrayed one) loaded as a plain vec4 -> "OpLoad Result Type does not match". */
static void ds_patch_position(void)
{
    for (uint32_t sv = 0; sv < 2; sv++) {
        struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
        p->input_control_points = 3;
        p->tess_domain = 2;
        st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
        for (uint32_t i = 0; i < 4; i++)
            st_sig(PATCH, F_PC, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
        st_sig(PATCH, F_PC, 4, 0x2, "PRIMITIVE_ID", sv, 0);
        st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
        st_function(1, 0);
        st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0));
        st_mov(st_reg(F_OUT, 0, 0x2), st_reg(F_PC, 4, 0));
        st_op(SB_IR_OP_RET, 0);
        p = st_end();
        set_offset(p, PATCH, F_PC, 4, DECL_OFFSET);
        if (sv == 0) {
            char *text = st_translate(p, "ds patch PRIMITIVE_ID");
            ST_CHECK(text && strstr(text, "Location 5")); /* patch base 1 + register 4 */
            free(text);
        } else {
            expect_error(p, SB_ERROR_TRANSLATE_INVALID, DECL_OFFSET, "system value 1",
                         "ds patch position");
        }
    }
}

/* DS control-point register 3 named twice: the container's element holds .z, a
 * declaration-only element all four lanes (a damaged signature mask). The second element's
 * free lanes x, y, w must not become one vec4 over the z already at Location 3 Component 2
 * ("conflicting input location assignment"): they split into runs xy and w. */
static void ds_overlapping_lanes(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 3;
    p->tess_domain = 2;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, 3, 0x4, "TEXCOORD", 0, 0);
    st_sig(IN, F_IN, 3, 0xF, "", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, F_PC, i, 0x1, i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 3, 0xF, "TEXCOORD", 0, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0));
    st_mov(st_reg(F_OUT, 3, 0xF), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 2, 3, 0));
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "ds v3.z + v3.xyzw");
    ST_CHECK(st_count(text, "Location 3") == 4); /* z, xy, w in; the output */
    ST_CHECK(st_count(text, "Component 2") == 1);
    ST_CHECK(st_count(text, "Component 3") == 1);
    ST_CHECK(text && strstr(text, "_arr_v2float_uint_3 Input"));
    free(text);
}

/* eval_* outside a pixel shader (a damaged opcode in a VS): was GLSL InterpolateAt* reached
 * from a Vertex entry point. */
static void vs_eval(void)
{
    static const uint32_t ops[] = { SB_IR_OP_EVAL_CENTROID, SB_IR_OP_EVAL_SAMPLE_INDEX,
                                    SB_IR_OP_EVAL_SNAPPED };
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        struct sb_ir_program *p = st_begin(SB_IR_STAGE_VERTEX);
        st_sig(IN, F_IN, 0, 0xF, "POSITION", 0, 0);
        st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
        st_function(1, 0);
        st_mov(st_reg(F_OUT, 0, 0xF), st_reg(F_IN, 0, 0));
        st_mov(st_reg(F_OUT, 0, 0x1), st_reg(F_IN, 0, 0));
        st_op(SB_IR_OP_RET, 0);
        p = st_end();
        /* The second mov becomes the eval (dst o0.x, src v0; the refusal comes before any
         * sample index or offset operand is read). */
        struct sb_ir_instruction *eval = (struct sb_ir_instruction *)&p->functions[0].instructions[1];
        eval->op = ops[k];
        expect_error(p, SB_ERROR_TRANSLATE_INVALID, eval->offset, "outside a pixel shader",
                     sb_ir_op_name(ops[k]));
    }
}

/* PS declaring oDepthLE and writing oDepthGE (a damaged operand type): was FragDepth with both
 * DepthLess and DepthGreater, which a Fragment entry point may not have. */
static void ps_depth_kinds(void)
{
    for (int both = 0; both < 2; both++) {
        struct sb_ir_program *p = st_begin(SB_IR_STAGE_PIXEL);
        st_sig(OUT, SB_IR_FILE_DEPTH_LESS_EQUAL, 0, 0x1, "SV_DepthLessEqual", 0, 0);
        st_function(1, 0);
        struct sb_ir_operand depth =
            st_special(both ? SB_IR_FILE_DEPTH_GREATER_EQUAL : SB_IR_FILE_DEPTH_LESS_EQUAL);
        st_mov(depth, st_immf(0.5f));
        st_op(SB_IR_OP_RET, 0);
        p = st_end();
        if (!both) {
            char *text = st_translate(p, "ps oDepthLE");
            ST_CHECK(text && strstr(text, "DepthLess"));
            ST_CHECK(text && strstr(text, "BuiltIn FragDepth"));
            free(text);
        } else {
            expect_error(p, SB_ERROR_TRANSLATE_INVALID, p->functions[0].instructions[0].offset,
                         "two kinds of depth output", "ps oDepthLE + oDepthGE");
        }
    }
}

/* The same refusal where the second kind is written only after the first ret (code that
 * no path reaches): the depth check is skipped when the operand scan of the register
 * declarations saw no depth write, so that scan must see every instruction, not only the
 * surely-run ones. The error names the late write (the third instruction). */
static void ps_depth_kinds_late(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_PIXEL);
    st_function(1, 0);
    st_mov(st_special(SB_IR_FILE_DEPTH_LESS_EQUAL), st_immf(0.25f));
    st_op(SB_IR_OP_RET, 0);
    st_mov(st_special(SB_IR_FILE_DEPTH_GREATER_EQUAL), st_immf(0.75f));
    st_op(SB_IR_OP_RET, 0);
    p = st_end();
    ST_CHECK(p->functions[0].instruction_count == 4);
    ST_CHECK(p->functions[0].instructions[2].dst[0].file == SB_IR_FILE_DEPTH_GREATER_EQUAL);
    /* stage_ir.c places the i-th instruction (from 0) at 0x104 + 4 * i. */
    expect_error(p, SB_ERROR_TRANSLATE_INVALID, 0x10c, "two kinds of depth output", "ps oDepthLE, ret, oDepthGE");
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    { "gs_input_register_range", gs_input_register_range },
    { "gs_output_stream_range", gs_output_stream_range },
    { "hs_output_register_range", hs_output_register_range },
    { "hs_patch_system_value", hs_patch_system_value },
    { "ds_patch_position", ds_patch_position },
    { "ds_overlapping_lanes", ds_overlapping_lanes },
    { "ps_depth_kinds", ps_depth_kinds },
    { "ps_depth_kinds_late", ps_depth_kinds_late },
    { "vs_eval", vs_eval },
};

int main(int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
            continue;
        cases[i].run();
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "unknown case %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    if (st_failures) {
        fprintf(stderr, "%d check(s) failed\n", st_failures);
        return 1;
    }
    printf("ok (%d case%s)\n", ran, ran == 1 ? "" : "s");
    return 0;
}
