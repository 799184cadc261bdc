/* SPDX-License-Identifier: MIT */
/*
 * Geometry, hull and domain shaders through the SPIR-V back end
 * (translator/src/spirv/spirv_stage*.c): hand-built IR programs of each stage
 * shape, translated for vulkan1.0/1.1/1.3 and validated, with the facts
 * that make them right asserted on the disassembly: execution model and
 * modes, built-ins, Patch/Stream decorations, emits, barriers, loops.
 * Run as `test_spirv_stage <case>`; one ctest per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage_ir.h"

enum { IN = SB_IR_SIGNATURE_INPUT, OUT = SB_IR_SIGNATURE_OUTPUT, PATCH = SB_IR_SIGNATURE_PATCH };
enum { F_IN = SB_IR_FILE_INPUT, F_OUT = SB_IR_FILE_OUTPUT };

/* GS: point in, triangle strip of 4 vertices out. */
static void gs_point_to_strip(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 1;
    p->gs_output_topology = 5;
    p->gs_max_output_vertices = 4;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, 1, 0x3, "TEXCOORD", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0x3, "TEXCOORD", 0, 0);
    st_function(1, 0);
    for (int i = 0; i < 4; i++) {
        st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 0, 0, 0));
        st_mov(st_reg(F_OUT, 1, 0x3), st_reg2(F_IN, 0, 1, 0));
        st_op(SB_IR_OP_EMIT, 0);
    }
    st_op(SB_IR_OP_CUT, 0);
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "gs point->strip");
    ST_CHECK(text && strstr(text, "OpEntryPoint Geometry"));
    ST_CHECK(text && strstr(text, "InputPoints"));
    ST_CHECK(text && strstr(text, "OutputTriangleStrip"));
    ST_CHECK(text && strstr(text, "OutputVertices 4"));
    ST_CHECK(text && strstr(text, "Invocations 1"));
    ST_CHECK(st_count(text, "OpEmitVertex") == 4);
    ST_CHECK(st_count(text, "OpEndPrimitive") == 1);
    ST_CHECK(st_count(text, "BuiltIn Position") == 2); /* the input array and the output */
    ST_CHECK(!strstr(text ? text : "", "GeometryStreams"));
    free(text);
}

/* GS: two streams sharing o0; emits on both. */
static void gs_streams(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 3;
    p->gs_output_topology = 3;
    p->gs_max_output_vertices = 2;
    p->gs_stream_mask = 0x3;
    st_sig(IN, F_IN, 0, 0xF, "POS", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 0, 0x7, "STREAMED", 0, 1);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 2, 0, 0));
    st_op(SB_IR_OP_EMIT, 0);
    st_op(SB_IR_OP_EMIT_THEN_CUT, 1);
    st_op(SB_IR_OP_CUT, 0);
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "gs streams");
    ST_CHECK(text && strstr(text, "OpCapability GeometryStreams"));
    ST_CHECK(text && strstr(text, "Triangles"));
    ST_CHECK(text && strstr(text, "OutputLineStrip"));
    ST_CHECK(st_count(text, "Stream 1") == 1);
    ST_CHECK(st_count(text, "Location 1") == 1); /* STREAMED: o0 of stream 1 at 1 * stride 1 */
    ST_CHECK(st_count(text, "OpEmitStreamVertex") == 2);
    ST_CHECK(st_count(text, "OpEndStreamPrimitive") == 2);
    ST_CHECK(st_count(text, "OpEmitVertex") == 0);
    free(text);
}

/* GS: instanced, line-adjacency input, vGSInstanceID read, clip distances in and out. */
static void gs_instanced(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 6;
    p->gs_output_topology = 1;
    p->gs_max_output_vertices = 1;
    p->gs_instance_count = 4;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, 1, 0x3, "SV_ClipDistance", 2, 0);
    st_sig(IN, SB_IR_FILE_GS_INSTANCE_ID, 0, 0x1, "", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0x1, "INSTANCE", 0, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 3, 0, 0));
    struct sb_ir_operand id = st_special(SB_IR_FILE_GS_INSTANCE_ID);
    st_mov(st_reg(F_OUT, 1, 0x1), id);
    st_mov(st_reg(F_OUT, 0, 0x4), st_reg2(F_IN, 1, 1, 0));
    st_op(SB_IR_OP_EMIT, 0);
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "gs instanced");
    ST_CHECK(text && strstr(text, "InputLinesAdjacency"));
    ST_CHECK(text && strstr(text, "OutputPoints"));
    ST_CHECK(text && strstr(text, "Invocations 4"));
    ST_CHECK(text && strstr(text, "BuiltIn InvocationId"));
    ST_CHECK(text && strstr(text, "BuiltIn ClipDistance"));
    ST_CHECK(text && strstr(text, "OpCapability ClipDistance"));
    free(text);
}

/* GS with a patch-list input: a clear UNSUPPORTED error, no crash. */
static void gs_patch_input(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_GEOMETRY);
    p->gs_input_primitive = 8 + 3; /* patch4 */
    p->gs_output_topology = 1;
    p->gs_max_output_vertices = 1;
    st_function(1, 0);
    st_op(SB_IR_OP_RET, 0);
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(st_end(), NULL, &t, &error);
    ST_CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED);
    ST_CHECK(error.code == SB_ERROR_TRANSLATE_UNSUPPORTED);
    ST_CHECK(strstr(error.message, "patch4") != NULL);
    ST_CHECK(t == NULL);
    sb_translation_destroy(t);
}

/* Tri-domain tess factors o0.x..o2.x (edges) and o3.x (inside) as patch elements. */
static void tri_factor_signature(void)
{
    static const char *names[4] = { "SV_TessFactor", "SV_TessFactor", "SV_TessFactor",
                                    "SV_InsideTessFactor" };
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, F_OUT, i, 0x1, names[i], 17 + i, 0);
}

/* HS tri: control-point phase, a fork phase over 3 instances writing o[vForkInstanceID].x, a join phase. */
static void hs_tri(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = 3;
    p->output_control_points = 3;
    p->tess_domain = 2;
    p->tess_partitioning = 3;
    p->tess_output_primitive = 3;
    st_sig(IN, F_IN, 0, 0xF, "POSITION", 0, 0);
    st_sig(IN, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, 0, 0x1, "", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "POSITION", 0, 0);
    tri_factor_signature();
    st_sig(PATCH, F_OUT, 4, 0xF, "CENTER", 0, 0);
    st_function(1, 0); /* control-point phase: o0 = vicp[id][0] */
    struct sb_ir_operand cp = st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0, 0);
    st_relative(&cp, 0, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID);
    st_mov(st_reg(F_OUT, 0, 0xF), cp);
    st_op(SB_IR_OP_RET, 0);
    st_function(3, 0); /* fork: o[i].x = 4.0 */
    struct sb_ir_operand factor = st_reg(F_OUT, 0, 0x1);
    st_relative(&factor, 0, SB_IR_FILE_FORK_INSTANCE_ID);
    st_mov(factor, st_immf(4.0f));
    st_mov(st_reg(F_OUT, 4, 0xF), st_reg2(SB_IR_FILE_OUTPUT_CONTROL_POINT, 1, 0, 0));
    st_op(SB_IR_OP_RET, 0);
    st_function(1, 0); /* join: inside = edge 0 (read back as vpc0) */
    st_mov(st_reg(F_OUT, 3, 0x1), st_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, 0, 0));
    st_op(SB_IR_OP_RET, 0);
    p->fork_phase_count = 1;
    p->join_phase_count = 1;
    char *text = st_translate(st_end(), "hs tri");
    ST_CHECK(text && strstr(text, "OpEntryPoint TessellationControl"));
    ST_CHECK(text && strstr(text, "OutputVertices 3"));
    ST_CHECK(text && strstr(text, "Triangles"));
    ST_CHECK(text && strstr(text, "SpacingFractionalOdd"));
    ST_CHECK(text && strstr(text, "VertexOrderCw"));
    ST_CHECK(text && strstr(text, "BuiltIn TessLevelOuter"));
    ST_CHECK(text && strstr(text, "BuiltIn TessLevelInner"));
    ST_CHECK(text && strstr(text, "BuiltIn InvocationId"));
    ST_CHECK(st_count(text, "OpControlBarrier") == 1);
    ST_CHECK(st_count(text, "OpLoopMerge") == 1); /* the 3-instance fork phase */
    ST_CHECK(st_count(text, "Patch") >= 3);       /* outer, inner, CENTER */
    free(text);
}

/* HS quad: D3D pass-through control points, integer spacing, ccw, a user patch constant, vocp. */
static void hs_quad(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = 4;
    p->output_control_points = 4;
    p->tess_domain = 3;
    p->tess_partitioning = 1;
    p->tess_output_primitive = 4;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, 1, 0x3, "TEXCOORD", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0x3, "TEXCOORD", 0, 0);
    for (uint32_t i = 0; i < 6; i++)
        st_sig(PATCH, F_OUT, i, 0x1, i < 4 ? "SV_TessFactor" : "SV_InsideTessFactor", 11 + i, 0);
    st_sig(PATCH, F_OUT, 6, 0x3, "UV", 0, 0);
    st_function(1, 0); /* empty control-point phase */
    st_function(1, 0); /* fork */
    for (uint32_t i = 0; i < 6; i++)
        st_mov(st_reg(F_OUT, i, 0x1), st_immf(2.0f));
    st_mov(st_reg(F_OUT, 6, 0x3), st_reg2(SB_IR_FILE_OUTPUT_CONTROL_POINT, 3, 1, 0));
    st_op(SB_IR_OP_RET, 0);
    p->fork_phase_count = 1;
    char *text = st_translate(st_end(), "hs quad");
    ST_CHECK(text && strstr(text, "OutputVertices 4"));
    ST_CHECK(text && strstr(text, "Quads"));
    ST_CHECK(text && strstr(text, "SpacingEqual"));
    ST_CHECK(text && strstr(text, "VertexOrderCcw"));
    ST_CHECK(st_count(text, "BuiltIn Position") == 2); /* gl_in and gl_out arrays */
    ST_CHECK(st_count(text, "OpLoopMerge") == 0);
    ST_CHECK(st_count(text, "Location 8") == 1); /* UV: patch base 2 (cp registers 0-1) + 6 */
    free(text);
}

/* HS isoline with point output: density/detail factors, PointMode. */
static void hs_isoline(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_HULL);
    p->input_control_points = 1;
    p->output_control_points = 1;
    p->tess_domain = 1;
    p->tess_partitioning = 4;
    p->tess_output_primitive = 1;
    st_sig(IN, F_IN, 0, 0xF, "POSITION", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "POSITION", 0, 0);
    st_sig(PATCH, F_OUT, 0, 0x1, "SV_TessFactor", 22, 0);
    st_sig(PATCH, F_OUT, 1, 0x1, "SV_TessFactor", 21, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 0, 0, 0));
    st_op(SB_IR_OP_RET, 0);
    st_function(2, 0); /* join phase over 2 instances */
    struct sb_ir_operand factor = st_reg(F_OUT, 0, 0x1);
    st_relative(&factor, 0, SB_IR_FILE_JOIN_INSTANCE_ID);
    st_mov(factor, st_immf(8.0f));
    st_op(SB_IR_OP_RET, 0);
    p->join_phase_count = 1;
    char *text = st_translate(st_end(), "hs isoline");
    ST_CHECK(text && strstr(text, "Isolines"));
    ST_CHECK(text && strstr(text, "PointMode"));
    ST_CHECK(text && strstr(text, "SpacingFractionalEven"));
    ST_CHECK(!strstr(text ? text : "", "VertexOrder"));
    ST_CHECK(!strstr(text ? text : "", "TessLevelInner"));
    ST_CHECK(st_count(text, "OpLoopMerge") == 1);
    free(text);
}

/* DS tri: vDomain, vicp, a user patch constant, tess factors read back, clip distance out. */
static void ds_tri(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 3;
    p->tess_domain = 2;
    st_sig(IN, F_IN, 0, 0xF, "POSITION", 0, 0);
    st_sig(IN, SB_IR_FILE_DOMAIN_POINT, 0, 0x7, "", 0, 0);
    for (uint32_t i = 0; i < 4; i++)
        st_sig(PATCH, SB_IR_FILE_INPUT_PATCH_CONSTANT, i, 0x1,
               i < 3 ? "SV_TessFactor" : "SV_InsideTessFactor", 17 + i, 0);
    st_sig(PATCH, SB_IR_FILE_INPUT_PATCH_CONSTANT, 4, 0xF, "CENTER", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_sig(OUT, F_OUT, 1, 0x1, "SV_ClipDistance", 2, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(SB_IR_FILE_INPUT_CONTROL_POINT, 1, 0, 0));
    st_mov(st_reg(F_OUT, 0, 0x7), st_special(SB_IR_FILE_DOMAIN_POINT));
    st_mov(st_reg(F_OUT, 0, 0x8), st_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, 4, 0));
    st_mov(st_reg(F_OUT, 1, 0x1), st_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, 3, 0));
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "ds tri");
    ST_CHECK(text && strstr(text, "OpEntryPoint TessellationEvaluation"));
    ST_CHECK(text && strstr(text, "Triangles"));
    ST_CHECK(text && strstr(text, "BuiltIn TessCoord"));
    ST_CHECK(text && strstr(text, "BuiltIn TessLevelOuter"));
    ST_CHECK(text && strstr(text, "BuiltIn TessLevelInner"));
    ST_CHECK(text && strstr(text, "BuiltIn ClipDistance"));
    ST_CHECK(st_count(text, "Location 5") == 1); /* CENTER: patch base 1 + register 4 */
    ST_CHECK(!strstr(text ? text : "", "Spacing")); /* the hull shader owns spacing */
    /* o# is direct (spirv_io_direct.c): o0 stored whole by the first mov, then again once
     * the next two (xyz, w; one run of ALU instructions) have filled it; no copy-out of an
     * o# array after the body (which would make a third store). */
    ST_CHECK(st_count(text, "OpStore %gl_Position") == 2);
    ST_CHECK(st_count(text, "OpAccessChain %_ptr_Output_float %gl_Position") == 0);
    ST_CHECK(st_count(text, "OpAccessChain %_ptr_Output_float %gl_ClipDistance %uint_0") == 1);
    free(text);
}

/* DS quad reading cull distances of its control points. */
static void ds_quad_cull(void)
{
    struct sb_ir_program *p = st_begin(SB_IR_STAGE_DOMAIN);
    p->input_control_points = 16;
    p->tess_domain = 3;
    st_sig(IN, F_IN, 0, 0xF, "SV_Position", 1, 0);
    st_sig(IN, F_IN, 1, 0x3, "SV_CullDistance", 3, 0);
    st_sig(IN, SB_IR_FILE_DOMAIN_POINT, 0, 0x3, "", 0, 0);
    st_sig(OUT, F_OUT, 0, 0xF, "SV_Position", 1, 0);
    st_function(1, 0);
    st_mov(st_reg(F_OUT, 0, 0xF), st_reg2(F_IN, 15, 0, 0));
    st_mov(st_reg(F_OUT, 0, 0x3), st_reg2(F_IN, 7, 1, 0));
    st_op(SB_IR_OP_RET, 0);
    char *text = st_translate(st_end(), "ds quad cull");
    ST_CHECK(text && strstr(text, "Quads"));
    ST_CHECK(text && strstr(text, "BuiltIn CullDistance"));
    ST_CHECK(text && strstr(text, "OpCapability CullDistance"));
    free(text);
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    { "gs_point_to_strip", gs_point_to_strip },
    { "gs_streams", gs_streams },
    { "gs_instanced", gs_instanced },
    { "gs_patch_input", gs_patch_input },
    { "hs_tri", hs_tri },
    { "hs_quad", hs_quad },
    { "hs_isoline", hs_isoline },
    { "ds_tri", ds_tri },
    { "ds_quad_cull", ds_quad_cull },
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
