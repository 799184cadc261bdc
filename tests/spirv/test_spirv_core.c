/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V back-end core tests (issue #4): hand-built IR programs translated
 * with sb_translate_ir for every Vulkan target env, validated with
 * sb_spirv_validate, and checked for the facts that matter (entry point and
 * execution model, built-ins and their D3D fix-ups, locations/components,
 * interpolation decorations, execution modes, control-flow shapes, cbuffer
 * layout and bindings, debug lines, structured errors). One ctest per case:
 *   test_spirv_core <case>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "spirv_test_util.h"

#define F SB_IR_TYPE_FLOAT
#define U SB_IR_TYPE_UINT
#define I SB_IR_TYPE_INT
#define SIG_IN SB_IR_SIGNATURE_INPUT
#define SIG_OUT SB_IR_SIGNATURE_OUTPUT
#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define RS(i, s) src_reg(SB_IR_FILE_TEMP, i, s)

static const enum sb_target_env envs[] = { SB_TARGET_VULKAN_1_0, SB_TARGET_VULKAN_1_1,
                                           SB_TARGET_VULKAN_1_2, SB_TARGET_VULKAN_1_3 };

/* ---- vertex shader IO ---------------------------------------------------------------- */

static void case_vs_io(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0, F, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 1, 0x3, "TEXCOORD", 0, 0, F, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 1, 0xC, "TEXCOORD", 1, 0, F, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 2, 0x1, "SV_VertexID", 0, 6, U, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 3, 0x1, "SV_InstanceID", 0, 8, U, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 4, 0xF, "SV_Position", 0, 1, F, 0); /* an attribute */
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 5, 0x2, "A", 0, 0, F, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 5, 0xF, "B", 0, 0, F, 0); /* free lanes x and zw */
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 1, 0x7, "TEXCOORD", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 2, 0x3, "SV_ClipDistance", 0, 2, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 2, 0x4, "SV_CullDistance", 0, 3, F, 0);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 1, 0x3), src_reg(SB_IR_FILE_INPUT, 1, "xyxx"),
          src_reg(SB_IR_FILE_INPUT, 1, "zwxx"));
    emit1(SB_IR_OP_UTOF, dst_reg(SB_IR_FILE_OUTPUT, 1, 0x4), src_reg(SB_IR_FILE_INPUT, 2, "xxxx"));
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 2, 0x7), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"),
          src_reg(SB_IR_FILE_INPUT, 3, "xxxx"));
    emit0(SB_IR_OP_RET);
    const struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 0);
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "vs_io");
        if (!t)
            continue;
        CHECK(entry_model(t) == SpvExecutionModelVertex);
        CHECK(builtin_var(t, SpvBuiltInPosition) != 0);
        CHECK(builtin_var(t, SpvBuiltInVertexIndex) != 0);
        CHECK(builtin_var(t, SpvBuiltInBaseVertex) != 0);   /* SV_VertexID excludes the base */
        CHECK(builtin_var(t, SpvBuiltInBaseInstance) != 0);
        CHECK(builtin_var(t, SpvBuiltInClipDistance) != 0);
        CHECK(builtin_var(t, SpvBuiltInCullDistance) != 0);
        /* v1.zw = TEXCOORD1: location 1, component 2. */
        const uint32_t two = 2, one = 1;
        CHECK(has_decoration(t, SpvDecorationComponent, &two));
        CHECK(has_decoration(t, SpvDecorationLocation, &one));
        /* POSITION, TEXCOORD0, TEXCOORD1, SV_Position (location 4), A (5.y), B (5.x, 5.zw) */
        CHECK(t->input_count == 7);
        CHECK(t->output_count == 1); /* TEXCOORD */
        if (t->input_count == 7) {
            CHECK(t->inputs[2].location == 1 && t->inputs[2].component == 2 &&
                  t->inputs[2].component_count == 2 && t->inputs[2].semantic_index == 1 &&
                  !strcmp(t->inputs[2].semantic, "TEXCOORD"));
            CHECK(t->inputs[3].location == 4 && t->inputs[3].component_count == 4);
            CHECK(t->inputs[4].location == 5 && t->inputs[4].component == 1 && t->inputs[4].component_count == 1);
            CHECK(t->inputs[5].location == 5 && t->inputs[5].component == 0 && t->inputs[5].component_count == 1);
            CHECK(t->inputs[6].location == 5 && t->inputs[6].component == 2 && t->inputs[6].component_count == 2);
        }
        /* The ISub of the base vertex. */
        CHECK(count_op(t, SpvOpISub, NULL, 0) >= 2);
        uint32_t cap = SpvCapabilityDrawParameters;
        CHECK(count_op(t, SpvOpCapability, &cap, 1) == 1);
        cap = SpvCapabilityClipDistance;
        CHECK(count_op(t, SpvOpCapability, &cap, 1) == 1);
        /* Interface: 1.4+ lists all globals (more than the IO ones). */
        uint32_t n = entry_interface_count(t);
        if (envs[e] >= SB_TARGET_VULKAN_1_2)
            CHECK(n > 10);
        else
            CHECK(n == 15); /* 11 inputs (7 locations, 4 draw built-ins) and 4 outputs */
        /* Direct IO: no Private v#/o# arrays, no copies around the body, which is main. */
        CHECK(count_variables(t, SpvStorageClassPrivate) == 0);
        CHECK(count_op(t, SpvOpFunction, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpFunctionCall, NULL, 0) == 0);
        /* SV_Position stored once, whole; TEXCOORD (o1.xyz) written as o1.xy, then o1.z by
         * the same run of ALU instructions: stored once, whole, and never zeroed (both writes
         * are on every path). */
        CHECK(count_stores(t, builtin_var(t, SpvBuiltInPosition), false) == 1);
        uint32_t texcoord = location_var(t, SpvStorageClassOutput, 1);
        CHECK(texcoord != 0);
        CHECK(count_stores(t, texcoord, false) == 1 && count_stores(t, texcoord, true) == 0);
        sb_translation_destroy(t);
    }
}

/* ---- pixel shader IO ---------------------------------------------------------------- */

static void case_ps_io(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "SV_Position", 0, 1, F, SB_IR_INTERP_LINEAR_NOPERSPECTIVE);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 1, 0x3, "TEXCOORD", 0, 0, F, SB_IR_INTERP_LINEAR_CENTROID);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 1, 0x4, "MATERIAL", 0, 0, U, SB_IR_INTERP_CONSTANT);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 2, 0xF, "COLOR", 0, 0, F, SB_IR_INTERP_LINEAR_SAMPLE);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 3, 0x1, "SV_IsFrontFace", 0, 9, U, SB_IR_INTERP_CONSTANT);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Target", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 1, 0xF, "SV_Target", 1, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_DEPTH, 0, 0x1, "SV_Depth", 0, 0, F, 0);
    /* discard when v1.z == 0; o0 = v0 * v2; o1 = v1.zzzz; oDepth = v0.z */
    emit_cond(SB_IR_OP_DISCARD, false, src_reg(SB_IR_FILE_INPUT, 1, "z"));
    emit2(SB_IR_OP_MUL, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"),
          src_reg(SB_IR_FILE_INPUT, 2, "xyzw"));
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 1, 0xF), src_reg(SB_IR_FILE_INPUT, 1, "zzzz"));
    emit1(SB_IR_OP_MOVC, dst_reg(SB_IR_FILE_OUTPUT, 1, 0x1), src_reg(SB_IR_FILE_INPUT, 3, "x"));
    struct sb_ir_operand s3[3] = { src_reg(SB_IR_FILE_INPUT, 3, "x"), immf(1, 1, 1, 1), immf(0, 0, 0, 0) };
    struct sb_ir_operand d1 = dst_reg(SB_IR_FILE_OUTPUT, 1, 0x2);
    emit(SB_IR_OP_MOVC, 0, 1, &d1, 3, s3);
    emit1(SB_IR_OP_MOV, special(SB_IR_FILE_DEPTH, 1, "x"), src_reg(SB_IR_FILE_INPUT, 0, "z"));
    emit0(SB_IR_OP_RET);
    /* The bare MOVC above is malformed (1 source): translation must fail cleanly. */
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_PIXEL, 0);
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(p, NULL, &t, &error);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID && t == NULL);
    CHECK(error.offset == 0x100 + 4 * 3);
    /* Now drop it (replace with a nop) and translate for real. */
    struct sb_ir_instruction *bad = (struct sb_ir_instruction *)&p->functions[0].instructions[3];
    bad->op = SB_IR_OP_NOP;
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        t = translate_checked(p, envs[e], 0, "ps_io");
        if (!t)
            continue;
        CHECK(entry_model(t) == SpvExecutionModelFragment);
        uint32_t frag = builtin_var(t, SpvBuiltInFragCoord);
        CHECK(frag != 0);
        CHECK(builtin_var(t, SpvBuiltInFrontFacing) != 0);
        CHECK(builtin_var(t, SpvBuiltInFragDepth) != 0);
        CHECK(count_op(t, SpvOpKill, NULL, 0) == 1);
        CHECK(has_decoration(t, SpvDecorationCentroid, NULL));
        CHECK(has_decoration(t, SpvDecorationFlat, NULL));
        CHECK(has_decoration(t, SpvDecorationSample, NULL));
        uint32_t mode[2] = { 0, SpvExecutionModeOriginUpperLeft };
        uint32_t depth_mode = 0;
        (void)mode;
        for (size_t at = 5; at < t->word_count; at += t->words[at] >> 16) {
            if ((t->words[at] & 0xFFFF) == SpvOpExecutionMode && t->words[at + 2] == SpvExecutionModeDepthReplacing)
                depth_mode++;
            if ((t->words[at] >> 16) == 0)
                break;
        }
        CHECK(depth_mode == 1);
        /* SV_Position.w = 1 / FragCoord.w */
        CHECK(count_op(t, SpvOpFDiv, NULL, 0) >= 1);
        CHECK(t->output_count == 2 && t->input_count == 3);
        if (t->output_count == 2)
            CHECK(t->outputs[1].component_type == U && t->outputs[1].location == 1);
        /* Direct IO: the body is main; each output stored once, none zeroed first. */
        CHECK(count_variables(t, SpvStorageClassPrivate) == 0);
        CHECK(count_op(t, SpvOpFunctionCall, NULL, 0) == 0);
        uint32_t depth = builtin_var(t, SpvBuiltInFragDepth);
        CHECK(count_stores(t, depth, false) == 1 && count_stores(t, depth, true) == 0);
        uint32_t target1 = location_var(t, SpvStorageClassOutput, 1);
        CHECK(target1 != 0 && count_stores(t, target1, false) == 1);
        sb_translation_destroy(t);
    }
}

/* ---- direct inputs and outputs, and where the arrays stay ------------------------------- */

static void case_direct_io(void)
{
    /* Pixel shader: o1 on every path; o0 only inside an if; oDepth after a retc. The ones
     * a path may leave unwritten are zeroed first (D3D's unwritten outputs read as 0 in the
     * interpreter, as the zeroed arrays gave). */
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "TEXCOORD", 0, 0, F, SB_IR_INTERP_LINEAR);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Target", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 1, 0xF, "SV_Target", 1, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_DEPTH, 0, 0x1, "SV_Depth", 0, 0, F, 0);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 1, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit_cond(SB_IR_OP_IF, true, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "yyyy"));
    emit0(SB_IR_OP_ENDIF);
    emit_cond(SB_IR_OP_RETC, true, src_reg(SB_IR_FILE_INPUT, 0, "y"));
    emit1(SB_IR_OP_MOV, special(SB_IR_FILE_DEPTH, 1, "x"), src_reg(SB_IR_FILE_INPUT, 0, "z"));
    emit0(SB_IR_OP_RET);
    const struct sb_ir_program *p = ir_program(SB_IR_STAGE_PIXEL, 0);
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "direct_io ps");
    if (t) {
        CHECK(count_variables(t, SpvStorageClassPrivate) == 0);
        CHECK(count_op(t, SpvOpFunction, NULL, 0) == 1 && count_op(t, SpvOpFunctionCall, NULL, 0) == 0);
        uint32_t o0 = location_var(t, SpvStorageClassOutput, 0), o1 = location_var(t, SpvStorageClassOutput, 1);
        uint32_t depth = builtin_var(t, SpvBuiltInFragDepth);
        CHECK(o0 && o1 && depth);
        CHECK(count_stores(t, o0, true) == 1 && count_stores(t, o0, false) == 1);
        CHECK(count_stores(t, o1, true) == 0 && count_stores(t, o1, false) == 1);
        CHECK(count_stores(t, depth, true) == 1 && count_stores(t, depth, false) == 1);
        /* The one Input variable is loaded once, whatever the number of reads. */
        uint32_t v0 = location_var(t, SpvStorageClassInput, 0);
        uint32_t loads = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFF) == SpvOpLoad && t->words[at + 3] == v0)
                loads++;
        CHECK(loads == 1);
        sb_translation_destroy(t);
    }

    /* o0.xy, then o0.zw inside an if: the if ends the run of ALU instructions, so each
     * part is stored through its components (four access chains); zw is not written on
     * every path, so o0 is zeroed first. */
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "TEXCOORD", 0, 0, F, SB_IR_INTERP_LINEAR);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Target", 0, 0, F, 0);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0x3), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit_cond(SB_IR_OP_IF, true, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xC), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit0(SB_IR_OP_ENDIF);
    emit0(SB_IR_OP_RET);
    p = ir_program(SB_IR_STAGE_PIXEL, 0);
    t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "direct_io ps parts");
    if (t) {
        uint32_t o0 = location_var(t, SpvStorageClassOutput, 0), chains = 0;
        CHECK(count_stores(t, o0, true) == 1 && count_stores(t, o0, false) == 0);
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFF) == SpvOpAccessChain && t->words[at + 3] == o0)
                chains++;
        CHECK(chains == 4);
        sb_translation_destroy(t);
    }

    /* Vertex shader reading o0 back: the o# array and the copy-out stay (main calls the
     * body, then copies); v# stays direct (no v# array: one Private variable). */
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 1, 0xF, "TEXCOORD", 0, 0, F, 0);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 1, 0xF), src_reg(SB_IR_FILE_OUTPUT, 0, "wzyx"),
          src_reg(SB_IR_FILE_INPUT, 0, "xxxx"));
    emit0(SB_IR_OP_RET);
    p = ir_program(SB_IR_STAGE_VERTEX, 0);
    t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "direct_io vs read back");
    if (t) {
        CHECK(count_variables(t, SpvStorageClassPrivate) == 1);
        CHECK(count_op(t, SpvOpFunction, NULL, 0) == 2 && count_op(t, SpvOpFunctionCall, NULL, 0) == 1);
        sb_translation_destroy(t);
    }

    /* A dynamically indexed v#: the v# array and its copy-in stay, o# is direct
     * (Private: r0 and the v# array). */
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "A", 0, 0, F, 0);
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 1, 0xF, "B", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    emit1(SB_IR_OP_FTOU, R(0, 0x1), src_reg(SB_IR_FILE_INPUT, 0, "wwww"));
    struct sb_ir_operand dyn = src_reg(SB_IR_FILE_INPUT, 0, "xyzw");
    set_relative(&dyn, 0, RS(0, "x"));
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), dyn);
    emit0(SB_IR_OP_RET);
    p = ir_program(SB_IR_STAGE_VERTEX, 1);
    t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "direct_io vs indexed");
    if (t) {
        CHECK(count_variables(t, SpvStorageClassPrivate) == 2);
        CHECK(count_op(t, SpvOpFunctionCall, NULL, 0) == 1);
        CHECK(count_stores(t, builtin_var(t, SpvBuiltInPosition), false) == 1);
        sb_translation_destroy(t);
    }
}

/* ---- compute, every ALU class --------------------------------------------------------- */

static void case_cs_alu(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_THREAD_ID, 0, 0x7, "", 0, 0, U, 0);
    add_signature(SIG_IN, SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED, 0, 0x1, "", 0, 0, U, 0);
    struct sb_ir_operand tid = special(SB_IR_FILE_THREAD_ID, 0, "xyzx");
    emit1(SB_IR_OP_UTOF, R(0, 0xF), tid);
    emit1(SB_IR_OP_MOV, R(1, 0xF), tid);
    emit1(SB_IR_OP_MOV, R(2, 0x1), special(SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED, 0, "x"));
    /* Every op with a single destination and plain sources, lane-wise. */
    static const uint32_t one_src[] = {
        SB_IR_OP_FRC, SB_IR_OP_SQRT, SB_IR_OP_RSQ, SB_IR_OP_RCP, SB_IR_OP_EXP, SB_IR_OP_LOG,
        SB_IR_OP_ROUND_NE, SB_IR_OP_ROUND_NI, SB_IR_OP_ROUND_PI, SB_IR_OP_ROUND_Z, SB_IR_OP_INEG,
        SB_IR_OP_NOT, SB_IR_OP_COUNTBITS, SB_IR_OP_FIRSTBIT_HI, SB_IR_OP_FIRSTBIT_LO,
        SB_IR_OP_FIRSTBIT_SHI, SB_IR_OP_BFREV, SB_IR_OP_FTOI, SB_IR_OP_FTOU, SB_IR_OP_ITOF,
        SB_IR_OP_UTOF, SB_IR_OP_F32TOF16, SB_IR_OP_F16TOF32,
    };
    static const uint32_t two_src[] = {
        SB_IR_OP_ADD, SB_IR_OP_MUL, SB_IR_OP_DIV, SB_IR_OP_MIN, SB_IR_OP_MAX, SB_IR_OP_DP2,
        SB_IR_OP_DP3, SB_IR_OP_DP4, SB_IR_OP_DPH, SB_IR_OP_DST, SB_IR_OP_EQ, SB_IR_OP_NE,
        SB_IR_OP_LT, SB_IR_OP_GE, SB_IR_OP_SGE, SB_IR_OP_SLT, SB_IR_OP_IADD, SB_IR_OP_IMIN,
        SB_IR_OP_IMAX, SB_IR_OP_UMIN, SB_IR_OP_UMAX, SB_IR_OP_IEQ, SB_IR_OP_INE, SB_IR_OP_ILT,
        SB_IR_OP_IGE, SB_IR_OP_ULT, SB_IR_OP_UGE, SB_IR_OP_AND, SB_IR_OP_OR, SB_IR_OP_XOR,
        SB_IR_OP_ISHL, SB_IR_OP_ISHR, SB_IR_OP_USHR,
    };
    static const uint32_t three_src[] = { SB_IR_OP_MAD, SB_IR_OP_MOVC, SB_IR_OP_IMAD, SB_IR_OP_UMAD,
                                          SB_IR_OP_UBFE, SB_IR_OP_IBFE, SB_IR_OP_MSAD };
    static const uint32_t two_dst[] = { SB_IR_OP_IMUL, SB_IR_OP_UMUL, SB_IR_OP_UDIV, SB_IR_OP_UADDC,
                                        SB_IR_OP_USUBB };
    for (size_t i = 0; i < sizeof(one_src) / sizeof(one_src[0]); i++)
        emit1(one_src[i], R(3, 0x7), RS(0, "yzwx"))->flags |= (i & 1) ? SB_IR_FLAG_SATURATE : 0;
    for (size_t i = 0; i < sizeof(two_src) / sizeof(two_src[0]); i++) {
        struct sb_ir_operand neg = RS(1, "xxyy");
        neg.modifiers = (uint8_t)(i % 3);
        emit2(two_src[i], R(3, i % 2 ? 0xF : 0x2), RS(0, "xyzw"), neg);
    }
    for (size_t i = 0; i < sizeof(three_src) / sizeof(three_src[0]); i++)
        emit3(three_src[i], R(4, 0xB), RS(0, "xyzw"), imm(1, 2, 3, 4), RS(3, "wzyx"));
    struct sb_ir_operand bfi_src[4] = { imm(8, 8, 8, 8), imm(28, 4, 0, 31), RS(1, "xyzw"), RS(2, "xxxx") };
    struct sb_ir_operand d4 = R(5, 0xF);
    emit(SB_IR_OP_BFI, 0, 1, &d4, 4, bfi_src);
    for (size_t i = 0; i < sizeof(two_dst) / sizeof(two_dst[0]); i++) {
        /* The first destination is also a source: the sources must be read first. */
        struct sb_ir_operand d[2] = { R(1, 0x3), R(6, 0x6) };
        struct sb_ir_operand s[2] = { RS(1, "xyzw"), RS(2, "xxxx") };
        emit(two_dst[i], 0, 2, d, 2, s);
    }
    struct sb_ir_operand sc[2] = { R(7, 0x1), R(7, 0x2) };
    struct sb_ir_operand sa = RS(0, "x");
    emit(SB_IR_OP_SINCOS, 0, 2, sc, 1, &sa);
    struct sb_ir_operand swd[2] = { R(8, 0x3), R(9, 0xC) };
    struct sb_ir_operand sws[3] = { RS(1, "xyzw"), RS(0, "xyzw"), RS(3, "xyzw") };
    emit(SB_IR_OP_SWAPC, 0, 2, swd, 3, sws);
    /* Doubles: ftod, dadd, dmul, dfma, dmin, deq, dtof, dtoi, utod, drcp, dmovc. */
    emit1(SB_IR_OP_FTOD, R(10, 0xF), RS(0, "xyxx"));
    struct sb_ir_operand dpair = RS(10, "xzxz"); /* pairs xy, zw */
    dpair.swizzle[0] = 0; dpair.swizzle[1] = 2;
    emit2(SB_IR_OP_DADD, R(11, 0xF), dpair, dpair);
    emit2(SB_IR_OP_DMUL, R(11, 0x3), dpair, dpair);
    emit3(SB_IR_OP_DFMA, R(11, 0xC), dpair, dpair, dpair);
    emit2(SB_IR_OP_DMIN, R(12, 0xF), dpair, dpair);
    emit2(SB_IR_OP_DEQ, R(13, 0x3), dpair, dpair);
    emit1(SB_IR_OP_DTOF, R(13, 0x4), dpair);
    emit1(SB_IR_OP_DTOI, R(13, 0x8), dpair);
    emit1(SB_IR_OP_UTOD, R(12, 0xC), RS(1, "x"));
    emit1(SB_IR_OP_DRCP, R(12, 0x3), dpair);
    emit3(SB_IR_OP_DMOVC, R(14, 0xF), RS(1, "xyzw"), dpair, dpair);
    emit1(SB_IR_OP_MOV, R(15, 0xF), RS(14, "xyzw"))->flags |= SB_IR_FLAG_PRECISE;
    emit0(SB_IR_OP_ABORT); /* reference-device debugging aid: no code */
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 16);
    p->thread_group[0] = 8;
    p->thread_group[1] = 4;
    p->thread_group[2] = 1;
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "cs_alu");
        if (!t)
            continue;
        CHECK(entry_model(t) == SpvExecutionModelGLCompute);
        uint32_t local[4] = { 0, SpvExecutionModeLocalSize, 8, 4 };
        size_t found = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFF) == SpvOpExecutionMode && t->words[at + 2] == local[1] &&
                t->words[at + 3] == 8 && t->words[at + 4] == 4 && t->words[at + 5] == 1)
                found++;
        CHECK(found == 1);
        CHECK(builtin_var(t, SpvBuiltInGlobalInvocationId) != 0);
        CHECK(builtin_var(t, SpvBuiltInLocalInvocationIndex) != 0);
        CHECK(count_op(t, SpvOpSMulExtended, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpUMulExtended, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpIAddCarry, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpISubBorrow, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpUDiv, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpFUnordNotEqual, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpBitFieldInsert, NULL, 0) == 4); /* per lane: scalar offset/count */
        CHECK(count_op(t, SpvOpIsNan, NULL, 0) >= 2); /* ftoi and dtoi send NaN to 0 */
        CHECK(count_op(t, SpvOpDot, NULL, 0) == 4);
        CHECK(count_op(t, SpvOpUGreaterThan, NULL, 0) == 4); /* msad: one per byte */
        CHECK(has_decoration(t, SpvDecorationNoContraction, NULL) == false); /* mov has no arithmetic */
        uint32_t cap = SpvCapabilityFloat64;
        CHECK(count_op(t, SpvOpCapability, &cap, 1) == 1);
        sb_translation_destroy(t);
    }
}

/* ---- control flow ------------------------------------------------------------------------ */

static void case_flow(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "A", 0, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "B", 0, 0, U, 0);
    struct sb_ir_operand v0x = src_reg(SB_IR_FILE_INPUT, 0, "x");
    emit1(SB_IR_OP_MOV, R(0, 0xF), imm(0, 0, 0, 0));
    emit0(SB_IR_OP_LOOP);
    {
        emit2(SB_IR_OP_UGE, R(1, 0x1), RS(0, "x"), v0x);
        emit_cond(SB_IR_OP_BREAKC, true, RS(1, "x"));
        emit1(SB_IR_OP_SWITCH, R(9, 0), RS(0, "y"))->dst_count = 0;
        emit0(SB_IR_OP_CASE)->case_value = 0;
        emit0(SB_IR_OP_CASE)->case_value = 5; /* shares the label of case 0 */
        emit2(SB_IR_OP_IADD, R(0, 0x2), RS(0, "y"), imm(1, 1, 1, 1));
        emit0(SB_IR_OP_BREAK);
        emit0(SB_IR_OP_CASE)->case_value = 1;
        emit_cond(SB_IR_OP_IF, true, RS(0, "z"));
        emit_cond(SB_IR_OP_RETC, false, RS(0, "w")); /* retc inside a loop */
        emit0(SB_IR_OP_ELSE);
        emit0(SB_IR_OP_CONTINUE);
        emit0(SB_IR_OP_ENDIF);
        emit0(SB_IR_OP_BREAK);
        emit0(SB_IR_OP_DEFAULT);
        emit_cond(SB_IR_OP_CONTINUEC, true, RS(0, "x")); /* continue from inside a switch */
        emit0(SB_IR_OP_BREAK);
        emit0(SB_IR_OP_ENDSWITCH);
        emit0(SB_IR_OP_LOOP); /* nested loop left by break */
        emit0(SB_IR_OP_BREAK);
        emit0(SB_IR_OP_ENDLOOP);
        emit2(SB_IR_OP_IADD, R(0, 0x1), RS(0, "x"), imm(1, 1, 1, 1));
        emit_cond(SB_IR_OP_IF, false, RS(0, "x"));
        emit_cond(SB_IR_OP_IF, true, RS(0, "y"));
        emit0(SB_IR_OP_ENDIF);
        emit0(SB_IR_OP_ENDIF);
        emit0(SB_IR_OP_CALL)->target = 1;
    }
    emit0(SB_IR_OP_ENDLOOP);
    emit_cond(SB_IR_OP_CALLC, true, RS(0, "x"))->target = 1;
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(0, "xyzw"));
    emit0(SB_IR_OP_RET);
    emit1(SB_IR_OP_MOV, R(2, 0x1), imm(7, 7, 7, 7)); /* dead code after ret */
    begin_function(3);
    emit2(SB_IR_OP_IADD, R(0, 0x4), RS(0, "z"), imm(2, 2, 2, 2));
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 10);
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "flow");
        if (!t)
            continue;
        CHECK(count_op(t, SpvOpLoopMerge, NULL, 0) == 2);
        /* An if without else: the false edge goes to the merge (no empty else block the
         * then-path could fall into: a cross edge Mesa rejects). Ifs here: 2 without else,
         * 1 with; plus the conditional shapes (breakc, retc, continuec, callc), which also
         * branch to their merge. */
        uint32_t direct = 0, merges = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
            if ((t->words[at] & 0xFFFF) != SpvOpSelectionMerge)
                continue;
            size_t next = at + (t->words[at] >> 16);
            if (next < t->word_count && (t->words[next] & 0xFFFF) == SpvOpBranchConditional) {
                merges++;
                direct += t->words[next + 3] == t->words[at + 1];
            }
        }
        if (merges != 7 || direct != 6)
            fprintf(stderr, "merges %u direct %u\n", merges, direct);
        CHECK(merges == 7 && direct == 6);
        CHECK(count_op(t, SpvOpSwitch, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpFunction, NULL, 0) == 3); /* main, body, label 3 */
        CHECK(count_op(t, SpvOpFunctionCall, NULL, 0) == 3);
        /* OpSwitch: selector, default, then (0, L), (5, L), (1, L2): cases 0 and 5 share a label. */
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
            if ((t->words[at] & 0xFFFF) != SpvOpSwitch)
                continue;
            CHECK((t->words[at] >> 16) == 9);
            CHECK(t->words[at + 3] == 0 && t->words[at + 5] == 5 && t->words[at + 7] == 1);
            CHECK(t->words[at + 4] == t->words[at + 6] && t->words[at + 4] != t->words[at + 8]);
        }
        sb_translation_destroy(t);
    }
}

/*
 * Code after an unconditional continue / break / ret inside a loop, an if and a
 * switch: emitting it made a block without predecessors branch to the loop's
 * continue target (spirv-val: "not contained in the associated loop
 * construct"; found by the mutation test). It must be skipped, up to the
 * enclosing construct's next marker, and what follows must still be emitted.
 */
static void case_flow_dead_code(void)
{
    ir_reset();
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "B", 0, 0, U, 0);
    emit1(SB_IR_OP_MOV, R(0, 0xF), imm(0, 0, 0, 0));
    emit0(SB_IR_OP_LOOP);
    {
        emit2(SB_IR_OP_UGE, R(1, 0x1), RS(0, "x"), imm(4, 4, 4, 4));
        emit_cond(SB_IR_OP_BREAKC, true, RS(1, "x"));
        emit2(SB_IR_OP_IADD, R(0, 0x1), RS(0, "x"), imm(1, 1, 1, 1));
        emit0(SB_IR_OP_CONTINUE);
        emit2(SB_IR_OP_IADD, R(0, 0x2), RS(0, "y"), imm(9, 9, 9, 9)); /* dead */
        emit_cond(SB_IR_OP_IF, true, RS(0, "y"));                      /* dead, nested */
        emit0(SB_IR_OP_BREAK);
        emit0(SB_IR_OP_ELSE);
        emit0(SB_IR_OP_RET);
        emit0(SB_IR_OP_ENDIF);
    }
    emit0(SB_IR_OP_ENDLOOP);
    emit_cond(SB_IR_OP_IF, true, RS(0, "x"));
    emit0(SB_IR_OP_RET);
    emit2(SB_IR_OP_IADD, R(0, 0x4), RS(0, "z"), imm(9, 9, 9, 9)); /* dead */
    emit0(SB_IR_OP_ELSE);
    emit2(SB_IR_OP_IADD, R(0, 0x8), RS(0, "w"), imm(3, 3, 3, 3)); /* live again */
    emit0(SB_IR_OP_ENDIF);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(0, "xyzw"));
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 2);
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "flow_dead_code");
        if (!t)
            continue;
        /* Only the live if remains: one selection for it, one for breakc. */
        CHECK(count_op(t, SpvOpLoopMerge, NULL, 0) == 1);
        CHECK(count_op(t, SpvOpSelectionMerge, NULL, 0) == 2);
        /* The live iadd after else uses the constant 3; the dead ones' 9 is never made. */
        uint32_t three = 0, nine = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFF) == SpvOpConstant && (t->words[at] >> 16) == 4) {
                three += t->words[at + 3] == 3;
                nine += t->words[at + 3] == 9;
            }
        CHECK(three == 1 && nine == 0);
        sb_translation_destroy(t);
    }
}

/* ---- constant buffers -------------------------------------------------------------------- */

static void case_cbuffer(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0x1, "INDEX", 0, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    struct sb_ir_resource *cb = add_resource(SB_IR_RESOURCE_CBV, 2);
    cb->cb_size = 8;
    cb->cb_dynamic_indexed = true;
    cb->name = "Transforms";
    struct sb_ir_resource *cb5 = add_resource(SB_IR_RESOURCE_CBV, 5);
    cb5->cb_size = 1;
    struct sb_ir_operand dyn = reg2(SB_IR_FILE_CONSTANT_BUFFER, 2, 3, 0, "xyzw");
    set_relative(&dyn, 1, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit2(SB_IR_OP_MUL, R(0, 0xF), dyn, reg2(SB_IR_FILE_CONSTANT_BUFFER, 5, 0, 0, "wzyx"));
    /* A constant index beyond the declared size widens the block (no out-of-bounds access). */
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(0, "xyzw"),
          reg2(SB_IR_FILE_CONSTANT_BUFFER, 2, 11, 0, "xxxx"));
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 1);
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], SB_TRANSLATE_DEBUG_INFO, "cbuffer");
        if (!t)
            continue;
        const uint32_t stride = 16, b2 = 2, b5 = 5, set0 = 0;
        CHECK(has_decoration(t, SpvDecorationArrayStride, &stride));
        CHECK(has_decoration(t, SpvDecorationBlock, NULL));
        CHECK(has_decoration(t, SpvDecorationBinding, &b2));
        CHECK(has_decoration(t, SpvDecorationBinding, &b5));
        CHECK(has_decoration(t, SpvDecorationDescriptorSet, &set0));
        CHECK(t->binding_count == 2);
        if (t->binding_count == 2) {
            CHECK(t->bindings[0].binding == 2 && t->bindings[0].descriptor_type == 6);
            CHECK(t->bindings[0].name && !strcmp(t->bindings[0].name, "Transforms"));
            CHECK(t->bindings[1].binding == 5 && t->bindings[1].name == NULL);
        }
        /* The block of cb2 is 12 vectors (index 11 used), cb5 one. */
        uint32_t twelve = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFF) == SpvOpConstant && t->words[at + 3] == 12)
                twelve++;
        CHECK(twelve == 1);
        sb_translation_destroy(t);
    }
    /* Binding override. */
    struct sb_binding_override o = { SB_IR_RESOURCE_CBV, 0, 5, 3, 9, 0 };
    struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1, .binding_override_count = 1,
                                        .binding_overrides = &o };
    struct sb_translation *t = NULL;
    CHECK(sb_translate_ir(p, &opt, &t, NULL) == SB_SUCCESS);
    if (t) {
        CHECK(t->binding_count == 2 && t->bindings[1].set == 3 && t->bindings[1].binding == 9);
        const uint32_t nine = 9, three = 3;
        CHECK(has_decoration(t, SpvDecorationBinding, &nine));
        CHECK(has_decoration(t, SpvDecorationDescriptorSet, &three));
        sb_translation_destroy(t);
    }
}

/* ---- -g debug information and indexable temps / icb ------------------------------------------------ */

static void case_debug(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0x1, "I", 0, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "O", 0, 0, F, 0);
    static const uint32_t icb[8] = { 1, 2, 3, 4, 0x3f800000, 0x40000000, 0x7fc00000, 0x80000000 };
    static const struct sb_ir_indexable_temp x = { 0, 4, 4 };
    struct sb_ir_operand xd = reg2(SB_IR_FILE_INDEXABLE_TEMP, 0, 0, 0xF, "xyzw");
    set_relative(&xd, 1, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    struct sb_ir_operand icbs = src_reg(SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER, 0, "xyzw");
    set_relative(&icbs, 0, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit1(SB_IR_OP_MOV, xd, icbs);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), reg2(SB_IR_FILE_INDEXABLE_TEMP, 0, 2, 0, "xyzw"));
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 1);
    p->icb = icb;
    p->icb_vector_count = 2;
    p->indexable_temps = &x;
    p->indexable_temp_count = 1;
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1, SB_TRANSLATE_DEBUG_INFO, "debug");
    if (t) {
        /* OpLine file line=byte offset column 0, one per instruction. */
        uint32_t lines = 0, offsets_ok = 0, names = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
            uint32_t op = t->words[at] & 0xFFFF;
            if (op == SpvOpLine) {
                lines++;
                offsets_ok += t->words[at + 2] == 0x100 + 4 * (lines - 1) && t->words[at + 3] == 0;
            }
            if (op == SpvOpName && !strcmp((const char *)&t->words[at + 2], "r0"))
                names++;
            if (op == SpvOpName && !strcmp((const char *)&t->words[at + 2], "x0"))
                names++;
        }
        if (lines != 3 || offsets_ok != 3)
            fprintf(stderr, "lines %u offsets_ok %u\n", lines, offsets_ok);
        CHECK(lines == 3 && offsets_ok == 3);
        CHECK(names == 2);
        CHECK(count_op(t, SpvOpSource, NULL, 0) == 1);
        sb_translation_destroy(t);
    }
    /* Without -g: no names, no lines. */
    t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "debug-off");
    if (t) {
        CHECK(count_op(t, SpvOpLine, NULL, 0) == 0);
        CHECK(count_op(t, SpvOpName, NULL, 0) == 0);
        sb_translation_destroy(t);
    }
}

/* ---- r# value cache: reads in one block reuse the value; a call forces a reload ---- */

static uint32_t named(const struct sb_translation *t, const char *name)
{
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
        if ((t->words[at] & 0xFFFF) == SpvOpName && !strcmp((const char *)&t->words[at + 2], name))
            return t->words[at + 1];
    return 0;
}

/*
 * x# read at a dynamic index: the element or 0 outside the array (IR.md), by a select on
 * index < count rather than from a zero-initialised spare element, since x# gets no
 * initializer (lavapipe runs loops over a zero-stored array up to 4x slower). A constant
 * index needs no select.
 */
static void case_indexable_range(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0x1, "I", 0, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "O", 0, 0, F, 0);
    static const struct sb_ir_indexable_temp x = { 0, 4, 4 };
    struct sb_ir_operand xd = reg2(SB_IR_FILE_INDEXABLE_TEMP, 0, 0, 0xF, "xyzw");
    set_relative(&xd, 1, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit1(SB_IR_OP_MOV, xd, immf(1, 2, 3, 4));
    struct sb_ir_operand xs = reg2(SB_IR_FILE_INDEXABLE_TEMP, 0, 0, 0, "xyzw");
    set_relative(&xs, 1, src_reg(SB_IR_FILE_INPUT, 0, "x"));
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), xs,
          reg2(SB_IR_FILE_INDEXABLE_TEMP, 0, 2, 0, "xyzw"));
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 0);
    p->indexable_temps = &x;
    p->indexable_temp_count = 1;
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1, SB_TRANSLATE_DEBUG_INFO,
                                                 "indexable_range");
    if (!t)
        return;
    uint32_t x0 = named(t, "x0"), x0_words = 0;
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
        if ((t->words[at] & 0xFFFF) == SpvOpVariable && t->words[at + 2] == x0)
            x0_words = t->words[at] >> 16;
    CHECK(x0 != 0);
    CHECK(x0_words == 4); /* OpVariable type id class: no initializer */
    CHECK(count_op(t, SpvOpULessThan, NULL, 0) == 1); /* only the dynamic read checks its index */
    CHECK(count_op(t, SpvOpSelect, NULL, 0) == 1);
    sb_translation_destroy(t);
}

static void case_register_cache(void)
{
    ir_reset();
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "O", 0, 0, F, 0);
    emit1(SB_IR_OP_MOV, R(0, 0x3), immf(1, 2, 3, 4));      /* partial: one load of r0 */
    emit2(SB_IR_OP_ADD, R(1, 0xF), RS(0, "xyzw"), RS(0, "yxwz")); /* no load */
    emit2(SB_IR_OP_MUL, R(1, 0x1), RS(1, "x"), RS(0, "w"));       /* none */
    emit0(SB_IR_OP_CALL)->target = 1;                              /* the callee writes r0 */
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(0, "xyzw"), RS(1, "xyzw")); /* reload both */
    emit0(SB_IR_OP_RET);
    begin_function(0);
    emit1(SB_IR_OP_MOV, R(0, 0xF), immf(5, 6, 7, 8));
    emit0(SB_IR_OP_RET);
    struct sb_translation *t = translate_checked(ir_program(SB_IR_STAGE_VERTEX, 2), SB_TARGET_VULKAN_1_1,
                                                 SB_TRANSLATE_DEBUG_INFO, "register_cache");
    if (!t)
        return;
    uint32_t r0 = named(t, "r0"), r1 = named(t, "r1");
    CHECK(r0 && r1);
    uint32_t loads_r0 = 0, loads_r1 = 0, stores_r0 = 0, stores_r1 = 0;
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
        uint32_t op = t->words[at] & 0xFFFF;
        loads_r0 += op == SpvOpLoad && t->words[at + 3] == r0;
        loads_r1 += op == SpvOpLoad && t->words[at + 3] == r1;
        stores_r0 += op == SpvOpStore && t->words[at + 1] == r0;
        stores_r1 += op == SpvOpStore && t->words[at + 1] == r1;
    }
    CHECK(loads_r0 == 2); /* the partial mov, and after the call */
    CHECK(loads_r1 == 1); /* after the call only */
    CHECK(stores_r0 == 2); /* once before the call, once at the callee's ret */
    CHECK(stores_r1 == 1); /* add and mul write r1: one store, before the call */
    sb_translation_destroy(t);
}

/* Within one block, cb0[1] is loaded once and r0.x / cb0[1].x are extracted and bitcast to
 * uint once however often instructions read them, and icb[r0.y + 1] is added, clamped and
 * loaded once; another block has its own. Before the operand layer kept them, block 1 loaded
 * cb0[1] three times, bitcast r0.x three times and clamped the icb index twice. */
static void case_value_sharing(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "A", 0, 0, U, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "O", 0, 0, U, 0);
    add_resource(SB_IR_RESOURCE_CBV, 0)->cb_size = 2;
    struct sb_ir_operand cb_x = reg2(SB_IR_FILE_CONSTANT_BUFFER, 0, 1, 0, "x");
    struct sb_ir_operand cb_y = reg2(SB_IR_FILE_CONSTANT_BUFFER, 0, 1, 0, "y");
    emit1(SB_IR_OP_MOV, R(0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit2(SB_IR_OP_IADD, R(1, 0x1), RS(0, "x"), cb_x);
    emit2(SB_IR_OP_IADD, R(1, 0x2), RS(0, "x"), cb_x); /* both again: shared */
    emit2(SB_IR_OP_IADD, R(1, 0x4), RS(0, "x"), cb_y); /* cb0[1] again, lane y new */
    struct sb_ir_operand row = src_reg(SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER, 1, "x");
    set_relative(&row, 0, RS(0, "y"));
    emit1(SB_IR_OP_MOV, R(2, 0x1), row);
    emit1(SB_IR_OP_MOV, R(2, 0x2), row); /* the same row: shared */
    emit_cond(SB_IR_OP_IF, true, RS(1, "x"));
    emit2(SB_IR_OP_IADD, R(1, 0x8), RS(0, "x"), cb_x); /* another block: its own */
    emit0(SB_IR_OP_ENDIF);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(1, "xyzw"));
    emit0(SB_IR_OP_RET);
    static const uint32_t icb[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 3);
    p->icb = icb;
    p->icb_vector_count = 2;
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, "value_sharing");
    if (!t)
        return;
    /* Per id: its opcode and first operand word (after result type and id). */
    uint32_t bound = t->word_count > 3 ? t->words[3] : 0;
    uint32_t *def_op = calloc(bound + 1, sizeof(uint32_t)), *def_arg = calloc(bound + 1, sizeof(uint32_t));
    uint32_t *def_lane = calloc(bound + 1, sizeof(uint32_t));
    CHECK(def_op && def_arg && def_lane);
    uint32_t cb_loads = 0, r0x_bitcasts = 0, cbx_bitcasts = 0, cby_bitcasts = 0, umins = 0, icb_loads = 0;
    for (size_t at = 5; def_op && def_arg && def_lane && at < t->word_count && (t->words[at] >> 16);
         at += t->words[at] >> 16) {
        uint32_t op = t->words[at] & 0xFFFF, count = t->words[at] >> 16;
        if (op == SpvOpExtInst && count >= 5 && t->words[at + 4] == GLSLstd450UMin && t->words[at + 2] <= bound) {
            umins++;
            def_op[t->words[at + 2]] = op;
            continue;
        }
        if (op == SpvOpVariable && count >= 4 && t->words[at + 2] <= bound) {
            def_op[t->words[at + 2]] = op;
            def_arg[t->words[at + 2]] = t->words[at + 3]; /* storage class */
            continue;
        }
        if ((op != SpvOpAccessChain && op != SpvOpLoad && op != SpvOpCompositeExtract && op != SpvOpBitcast) ||
            count < 4 || t->words[at + 2] > bound || t->words[at + 3] > bound)
            continue;
        uint32_t id = t->words[at + 2], arg = t->words[at + 3];
        def_op[id] = op;
        def_arg[id] = arg;
        /* An extract's lane; an access chain's first index. */
        def_lane[id] = (op == SpvOpCompositeExtract || op == SpvOpAccessChain) && count >= 5 ? t->words[at + 4] : 0;
        /* The cb variable is the only Uniform one; r0's vector is a load from any other. */
        bool from_cb = op == SpvOpLoad && def_op[arg] == SpvOpAccessChain &&
                       def_op[def_arg[arg]] == SpvOpVariable && def_arg[def_arg[arg]] == SpvStorageClassUniform;
        cb_loads += from_cb;
        /* The icb row: the only load through a clamped (UMin) index. */
        icb_loads += op == SpvOpLoad && def_op[arg] == SpvOpAccessChain && def_lane[arg] <= bound &&
                     def_op[def_lane[arg]] == SpvOpExtInst;
        /* r0's first vector is v0's value (direct input: a bitcast of the uint Input load). */
        if (op == SpvOpBitcast && def_op[arg] == SpvOpCompositeExtract &&
            (def_op[def_arg[arg]] == SpvOpLoad || def_op[def_arg[arg]] == SpvOpBitcast)) {
            uint32_t load = def_arg[arg], ptr = def_arg[load];
            bool cb = def_op[ptr] == SpvOpAccessChain && def_op[def_arg[ptr]] == SpvOpVariable &&
                      def_arg[def_arg[ptr]] == SpvStorageClassUniform;
            r0x_bitcasts += !cb && def_lane[arg] == 0;
            cbx_bitcasts += cb && def_lane[arg] == 0;
            cby_bitcasts += cb && def_lane[arg] == 1;
        }
    }
    CHECK(cb_loads == 2);     /* one per block (four reads) */
    CHECK(r0x_bitcasts == 2); /* one per block (four reads) */
    CHECK(cbx_bitcasts == 2); /* one per block (three reads) */
    CHECK(cby_bitcasts == 1);
    CHECK(umins == 1);        /* two reads of icb[r0.y + 1] */
    CHECK(icb_loads == 1);
    free(def_op);
    free(def_arg);
    free(def_lane);
    sb_translation_destroy(t);
}

/* Where the first instruction of opcode `op` at or after word `from` starts, 0 for none. */
static size_t find_op(const struct sb_translation *t, uint32_t op, size_t from)
{
    for (size_t w = from; w < t->word_count && (t->words[w] >> 16); w += t->words[w] >> 16)
        if ((t->words[w] & 0xFFFF) == op && (t->words[w] >> 16) >= 5)
            return w;
    return 0;
}

/*
 * Lanes written and read back in the same block are the value written: r0.w after a float
 * add is the add itself (no extract from the vector the write built), and r2.xy after an
 * integer add is the integer vector itself (no extract, no bitcast back from float bits).
 * Before, each such read extracted the lanes again and, for the integer read, bitcast them.
 */
static void case_written_views(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "A", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "O", 0, 0, F, 0);
    emit1(SB_IR_OP_MOV, R(0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit2(SB_IR_OP_ADD, R(0, 0x8), RS(0, "x"), RS(0, "y"));
    emit2(SB_IR_OP_MUL, R(1, 0x1), RS(0, "w"), RS(0, "w"));
    emit2(SB_IR_OP_IADD, R(2, 0x3), RS(0, "xy"), RS(0, "zw"));
    emit2(SB_IR_OP_IADD, R(3, 0x3), RS(2, "xy"), RS(2, "xy"));
    emit2(SB_IR_OP_ADD, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), RS(1, "xxxx"), RS(3, "xyxy"));
    emit0(SB_IR_OP_RET);
    struct sb_translation *t = translate_checked(ir_program(SB_IR_STAGE_VERTEX, 4), SB_TARGET_VULKAN_1_1,
                                                 0, "written_views");
    if (!t)
        return;
    /* Binary ops: words [type, result, a, b] after the opcode word. */
    size_t fadd = find_op(t, SpvOpFAdd, 5), fmul = find_op(t, SpvOpFMul, 5);
    CHECK(fadd && fmul && t->words[fmul + 3] == t->words[fadd + 2] &&
          t->words[fmul + 4] == t->words[fadd + 2]);
    size_t iadd = find_op(t, SpvOpIAdd, 5);
    size_t again = iadd ? find_op(t, SpvOpIAdd, iadd + (t->words[iadd] >> 16)) : 0;
    CHECK(iadd && again && t->words[again + 3] == t->words[iadd + 2] &&
          t->words[again + 4] == t->words[iadd + 2]);
    sb_translation_destroy(t);
}

/* ---- structured errors ------------------------------------------------------------------------------- */

static void expect_error(struct sb_ir_program *p, enum sb_result code, uint64_t offset, const char *what)
{
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(p, NULL, &t, &error);
    if (r != code || error.offset != offset || t || !error.message[0]) {
        fprintf(stderr, "%s: got %s at 0x%llx (%s), want %s at 0x%llx\n", what, sb_result_name(r),
                (unsigned long long)error.offset, error.message, sb_result_name(code),
                (unsigned long long)offset);
        g_failures++;
    }
    sb_translation_destroy(t);
}

static void case_errors(void)
{
    ir_reset();
    emit1(SB_IR_OP_MOV, R(0, 0xF), imm(0, 0, 0, 0));
    emit1(SB_IR_OP_MOV, R(5, 0xF), imm(0, 0, 0, 0)); /* r5 with 1 temp */
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0x104, "undeclared temp");

    ir_reset();
    emit0(SB_IR_OP_NOP);
    emit0(SB_IR_OP_LOOP);
    emit0(SB_IR_OP_ENDIF);
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 0), SB_ERROR_TRANSLATE_INVALID, 0x108, "unbalanced");

    ir_reset();
    emit0(SB_IR_OP_BREAK);
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 0), SB_ERROR_TRANSLATE_INVALID, 0x100, "break outside");

    ir_reset();
    emit0(SB_IR_OP_NOP);
    emit0(SB_IR_OP_INTERFACE_CALL); /* class linkage itself: tests/spirv_linkage */
    expect_error(ir_program(SB_IR_STAGE_COMPUTE, 1), SB_ERROR_TRANSLATE_INVALID, 0x104, "fcall without fp#");

    /* Derivatives exist only in pixel shaders. */
    ir_reset();
    emit1(SB_IR_OP_MOV, R(0, 0xF), imm(0, 0, 0, 0));
    emit1(SB_IR_OP_DERIV_RTX_FINE, R(0, 1), RS(0, "x"));
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0x104, "deriv in vs");

    /* A pixel shader cannot write SV_Position; a vertex shader cannot write SV_VertexID. */
    ir_reset();
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    emit0(SB_IR_OP_RET);
    expect_error(ir_program(SB_IR_STAGE_PIXEL, 1), SB_ERROR_TRANSLATE_INVALID, 0, "ps position output");
    ir_reset();
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0x1, "SV_VertexID", 0, 6, U, 0);
    emit0(SB_IR_OP_RET);
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0, "vs vertex id output");

    ir_reset();
    emit_cond(SB_IR_OP_DISCARD, true, RS(0, "x"));
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0x100, "discard in vs");

    ir_reset();
    emit0(SB_IR_OP_CALL)->target = 7;
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0x100, "call target");

    ir_reset();
    emit1(SB_IR_OP_MOV, R(0, 0xF), reg2(SB_IR_FILE_CONSTANT_BUFFER, 3, 0, 0, "xyzw"));
    expect_error(ir_program(SB_IR_STAGE_VERTEX, 1), SB_ERROR_TRANSLATE_INVALID, 0x100, "undeclared cb");

    /* Bad arguments. */
    struct sb_translation *t = (struct sb_translation *)1;
    CHECK(sb_translate_ir(NULL, NULL, &t, NULL) == SB_ERROR_INVALID_ARGUMENT && t == NULL);
    CHECK(sb_translate(NULL, 0, NULL, &t, NULL) == SB_ERROR_INVALID_ARGUMENT);
    static const uint8_t junk[16] = { 'D', 'X', 'B', 'C' };
    CHECK(sb_translate(junk, sizeof(junk), NULL, &t, NULL) < 0 && t == NULL);

    /* Target env names round-trip. */
    for (int e = 0; e <= SB_TARGET_VULKAN_1_3; e++) {
        enum sb_target_env back;
        CHECK(sb_target_env_parse(sb_target_env_name((enum sb_target_env)e), &back) && back == (enum sb_target_env)e);
    }
    enum sb_target_env dummy;
    CHECK(!sb_target_env_parse("vulkan1.4", &dummy) && sb_target_env_name((enum sb_target_env)9) == NULL);
}

/* ---- -g on a real container: RDEF member names, OpLine offsets inside SHEX ---------------------- */

static const char *g_corpus;

static int case_debug_rdef(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/amd-gpuopen/AMD_GeometryFX_DepthOnlyVS.dxbc", g_corpus ? g_corpus : "");
    FILE *f = g_corpus ? fopen(path, "rb") : NULL;
    if (!f) {
        printf("SKIPPED: corpus not found at %s\n", g_corpus ? g_corpus : "(no directory given)");
        return 77;
    }
    static uint8_t bytes[1 << 16];
    size_t size = fread(bytes, 1, sizeof(bytes), f);
    fclose(f);
    struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1,
                                        .flags = SB_TRANSLATE_DEBUG_INFO | SB_TRANSLATE_VALIDATE };
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    CHECK(sb_translate(bytes, size, &opt, &t, &error) == SB_SUCCESS);
    if (!t) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    /* cbuffer DrawCallConstantBuffer { float4x4 world; float4x4 worldView; }: members named per vector. */
    uint32_t world = 0, world3 = 0, world_view = 0, lines = 0, lines_in_file = 0;
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
        uint32_t op = t->words[at] & 0xFFFF;
        if (op == SpvOpMemberName) {
            const char *name = (const char *)&t->words[at + 3];
            world += t->words[at + 2] == 0 && !strcmp(name, "world");
            world3 += t->words[at + 2] == 3 && !strcmp(name, "world_3");
            world_view += t->words[at + 2] == 4 && !strcmp(name, "worldView");
        }
        if (op == SpvOpLine) {
            lines++;
            /* Byte offsets of SHEX instructions: inside the file, DWORD aligned. */
            lines_in_file += t->words[at + 2] < size && t->words[at + 2] % 4 == 0 && t->words[at + 2] > 32;
        }
    }
    CHECK(world == 1 && world3 == 1 && world_view == 1);
    CHECK(lines > 5 && lines == lines_in_file);
    CHECK(t->binding_count >= 1 && t->bindings[0].name && !strcmp(t->bindings[0].name, "DrawCallConstantBuffer"));
    sb_translation_destroy(t);

    /* A real dxc program (dxil-spirv's multi-break loop test) goes through the DXIL front
     * end, never the SM4 path: it translates to valid SPIR-V, or, while the front end lacks
     * one of its constructs, is refused as unsupported with the construct's byte offset,
     * not as a bad argument. */
    snprintf(path, sizeof(path), "%s/../dxcontainer/real/dxil_spirv/control-flow-multi-break-with-non-idom-loop-header.dxil",
             g_corpus);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        size = fread(bytes, 1, sizeof(bytes), f);
        fclose(f);
        t = (struct sb_translation *)&error; /* must be reset to NULL */
        memset(&error, 0, sizeof(error));
        enum sb_result result = sb_translate(bytes, size, NULL, &t, &error);
        if (result == SB_SUCCESS) {
            CHECK(t && t->stage == SB_IR_STAGE_COMPUTE &&
                  sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, NULL) == SB_SUCCESS);
            sb_translation_destroy(t);
        } else {
            CHECK(result == SB_ERROR_TRANSLATE_UNSUPPORTED && t == NULL);
            CHECK(error.offset > 0 && error.offset < size && strstr(error.message, "translated"));
        }
    }
    return g_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "debug_rdef")) {
        g_corpus = argv[2];
        return case_debug_rdef();
    }
    static const struct test_case cases[] = {
        { "vs_io", case_vs_io }, { "ps_io", case_ps_io }, { "cs_alu", case_cs_alu },
        { "flow", case_flow },   { "cbuffer", case_cbuffer }, { "debug", case_debug },
        { "errors", case_errors }, { "register_cache", case_register_cache },
        { "value_sharing", case_value_sharing },
        { "flow_dead_code", case_flow_dead_code },
        { "direct_io", case_direct_io },
        { "indexable_range", case_indexable_range },
        { "written_views", case_written_views },
    };
    return run_test_cases(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
