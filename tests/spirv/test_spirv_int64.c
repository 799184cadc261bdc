/* SPDX-License-Identifier: MIT */
/*
 * The IR's 64-bit integer ops (I64ADD ... DTOU64, IR.md) on hand-computed
 * values: one compute program stores every result to a raw u#; the CPU
 * interpreter and the Vulkan device (lavapipe) run it and every word is
 * compared with the value worked out by hand (carries across the 32-bit boundary, INT64_MIN / -1,
 * division by zero, shift counts >= 64, sign and zero extension, saturating
 * and rounding conversions around 2^63 and 2^64). The same program goes
 * through the SPIR-V back end for every Vulkan target env and spirv-val; the
 * module declares Int64 but not Float64 when only integer ops are used, and a
 * program without them declares neither. The validator rejects split pairs,
 * odd pair swizzles, modifiers and saturate on these ops. One ctest per case:
 *   test_spirv_int64 <case>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "spirv_test_util.h"

#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define O(i, m) dst_reg(SB_IR_FILE_OUTPUT, i, m)

static const enum sb_target_env envs[] = { SB_TARGET_VULKAN_1_0, SB_TARGET_VULKAN_1_1,
                                           SB_TARGET_VULKAN_1_2, SB_TARGET_VULKAN_1_3 };

#define ONES 0xFFFFFFFFFFFFFFFFull
#define MIN64 0x8000000000000000ull
#define MAX64 0x7FFFFFFFFFFFFFFFull

/* Two 64-bit values in the xy and zw pairs of an immediate, swizzled as pairs. */
static struct sb_ir_operand pair_imm(uint64_t a, uint64_t b)
{
    struct sb_ir_operand o = imm((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32));
    o.swizzle[0] = o.swizzle[2] = 0;
    o.swizzle[1] = o.swizzle[3] = 2;
    return o;
}

/* One op on two pairs of operands: (a0 op b0, a1 op b1) -> (r0, r1). For the ops with a
 * 32-bit result r0/r1 are the x and y words; for those with a 32-bit source a0/a1 are the
 * x and y words. */
struct known {
    uint32_t op;
    uint64_t a0, a1, b0, b1, r0, r1;
};

static const struct known known[] = {
    /* Carries and borrows across the 32-bit boundary, wrapping at 2^64. */
    { SB_IR_OP_I64ADD, 0xFFFFFFFFull, ONES, 1, 2, 0x100000000ull, 1 },
    { SB_IR_OP_I64SUB, 0x100000000ull, 0, 1, 1, 0xFFFFFFFFull, ONES },
    { SB_IR_OP_I64MUL, 0xFFFFFFFFull, 0x8000000000000001ull, 0xFFFFFFFFull, 3, 0xFFFFFFFE00000001ull,
      0x8000000000000003ull },
    /* Division: by zero -> all ones; INT64_MIN / -1 wraps to INT64_MIN, remainder 0; C rounding. */
    { SB_IR_OP_I64UDIV, ONES, 5, 0x100000000ull, 0, 0xFFFFFFFFull, ONES },
    { SB_IR_OP_I64UREM, 0x123456789ull, 7, 0x100000000ull, 0, 0x23456789ull, ONES },
    { SB_IR_OP_I64IDIV, MIN64, (uint64_t)-7, ONES, 2, MIN64, (uint64_t)-3 },
    { SB_IR_OP_I64IDIV, MIN64, 100, 0, (uint64_t)-7, ONES, (uint64_t)-14 },
    { SB_IR_OP_I64IREM, MIN64, (uint64_t)-7, ONES, 2, 0, ONES },
    { SB_IR_OP_I64IREM, 9, 100, 0, (uint64_t)-7, ONES, 2 },
    /* Shift counts: the low 6 bits of the whole 64-bit count. */
    { SB_IR_OP_I64SHL, 1, 0xFFFFFFFFull, 63, 0x100000044ull, MIN64, 0xFFFFFFFF0ull },
    { SB_IR_OP_I64ISHR, MIN64, MIN64, 63, 64, ONES, MIN64 },
    { SB_IR_OP_I64USHR, MIN64, 0xFFFFFFFF00000000ull, 63, 36, 1, 0x0FFFFFFFull },
    { SB_IR_OP_I64AND, 0xF0F0F0F00F0F0F0Full, ONES, 0xFF00FF00FF00FF00ull, 0x100000001ull,
      0xF000F0000F000F00ull, 0x100000001ull },
    { SB_IR_OP_I64OR, 0xF0F0F0F00F0F0F0Full, 0, 0x0F0F0F0F00000000ull, 0, 0xFFFFFFFF0F0F0F0Full, 0 },
    { SB_IR_OP_I64XOR, 0xFFFFFFFF00000000ull, 1, 0xFFFF0000FFFF0000ull, 1, 0x0000FFFFFFFF0000ull, 0 },
    { SB_IR_OP_I64NOT, 0xFFFFFFFFull, 0, 0, 0, 0xFFFFFFFF00000000ull, ONES },
    /* 64-bit integer <-> double: round to nearest even (2^53 + 1 ties down to 2^53). */
    { SB_IR_OP_I64TOD, ONES, 0x20000000000001ull, 0, 0, 0xBFF0000000000000ull, 0x4340000000000000ull },
    { SB_IR_OP_U64TOD, ONES, MIN64, 0, 0, 0x43F0000000000000ull, 0x43E0000000000000ull },
    /* -1.5 -> -1, 2^63 -> INT64_MAX; NaN -> 0, -2^63 -> INT64_MIN. */
    { SB_IR_OP_DTOI64, 0xBFF8000000000000ull, 0x43E0000000000000ull, 0, 0, ONES, MAX64 },
    { SB_IR_OP_DTOI64, 0x7FF8000000000000ull, 0xC3E0000000000000ull, 0, 0, 0, MIN64 },
    /* -0.5 -> 0, 2^64 -> UINT64_MAX; 2^32 + 0.5 -> 2^32. */
    { SB_IR_OP_DTOU64, 0xBFE0000000000000ull, 0x43F0000000000000ull, 0, 0, 0, ONES },
    { SB_IR_OP_DTOU64, 0x41F0000000080000ull, 0, 0, 0, 0x100000000ull, 0 },
    /* 32 -> 64 bits: a0/a1 are 32-bit words. */
    { SB_IR_OP_ITOI64, 0x80000000u, 5, 0, 0, 0xFFFFFFFF80000000ull, 5 },
    { SB_IR_OP_UTOU64, 0x80000000u, 0xFFFFFFFFu, 0, 0, 0x80000000ull, 0xFFFFFFFFull },
    /* float -1.0 -> -1, 2^63 -> INT64_MAX; NaN -> 0, -2^63 -> INT64_MIN. */
    { SB_IR_OP_FTOI64, 0xBF800000u, 0x5F000000u, 0, 0, ONES, MAX64 },
    { SB_IR_OP_FTOI64, 0x7FC00000u, 0xDF000000u, 0, 0, 0, MIN64 },
    /* -0.9 -> 0, 2^64 -> UINT64_MAX; 2^64 - 2^40 (largest float below 2^64), 3.75 -> 3. */
    { SB_IR_OP_FTOU64, 0xBF666666u, 0x5F800000u, 0, 0, 0, ONES },
    { SB_IR_OP_FTOU64, 0x5F7FFFFFu, 0x40700000u, 0, 0, 0xFFFFFF0000000000ull, 3 },
    /* Compares: equal low words but different high words; signed vs unsigned order. */
    { SB_IR_OP_I64EQ, 0x100000000ull, 5, 0, 5, 0, 0xFFFFFFFFu },
    { SB_IR_OP_I64NE, 0x100000000ull, 5, 0, 5, 0xFFFFFFFFu, 0 },
    { SB_IR_OP_I64ILT, ONES, MAX64, 0, MIN64, 0xFFFFFFFFu, 0 },
    { SB_IR_OP_I64IGE, ONES, MAX64, 0, MIN64, 0, 0xFFFFFFFFu },
    { SB_IR_OP_I64ULT, ONES, 0xFFFFFFFFull, 0, 0x100000000ull, 0, 0xFFFFFFFFu },
    { SB_IR_OP_I64UGE, ONES, 0xFFFFFFFFull, 0, 0x100000000ull, 0xFFFFFFFFu, 0 },
    { SB_IR_OP_I64TOI, 0x123456789ABCDEF0ull, 0xFFFFFFFF00000001ull, 0, 0, 0x9ABCDEF0u, 1 },
    /* To float, nearest even: INT64_MAX -> 2^63; 2^24 + 1 ties down, 2^24 + 3 up; 2^63 - 2^38
     * ties up to 2^63, 2^63 - 2^39 is exact; INT64_MIN -> -2^63. */
    { SB_IR_OP_I64TOF, MAX64, ONES, 0, 0, 0x5F000000u, 0xBF800000u },
    { SB_IR_OP_I64TOF, 0x1000001ull, 0x1000003ull, 0, 0, 0x4B800000u, 0x4B800002u },
    { SB_IR_OP_I64TOF, 0x7FFFFFC000000000ull, 0x7FFFFF8000000000ull, 0, 0, 0x5F000000u, 0x5EFFFFFFu },
    { SB_IR_OP_I64TOF, MIN64, 0, 0, 0, 0xDF000000u, 0 },
    { SB_IR_OP_U64TOF, ONES, MIN64, 0, 0, 0x5F800000u, 0x5F000000u },
};
#define KNOWN_COUNT (sizeof(known) / sizeof(known[0]))

static bool result_is_32bit(uint32_t op)
{
    return sb_ir_op_info(op)->dst_type[0] != SB_IR_TYPE_DOUBLE;
}

/* The compute program: row i's result in r0, stored to u0 at byte 16 i (32-bit results in
 * .xy, .zw 0); row KNOWN_COUNT: a zw-only result reading the sources' second slot (IR.md:
 * 64-bit results map by position) beside xy = 7. */
static struct sb_ir_program *build_known(void)
{
    ir_reset();
    struct sb_ir_resource *u0 = add_resource(SB_IR_RESOURCE_UAV, 0);
    u0->kind = SB_IR_RESOURCE_KIND_RAW;
    u0->dimension = 11; /* raw buffer */
    struct sb_ir_operand out = dst_reg(SB_IR_FILE_UAV, 0, 0xF), r0 = src_reg(SB_IR_FILE_TEMP, 0, "xyzw");
    for (uint32_t i = 0; i <= KNOWN_COUNT; i++) {
        if (i == KNOWN_COUNT) {
            /* 0x0000000100000000 + 0xFFFFFFFFFFFFFFFF (the second slots) = 0xFFFFFFFF. */
            emit1(SB_IR_OP_MOV, R(0, 0x3), imm(7, 7, 7, 7));
            emit2(SB_IR_OP_I64ADD, R(0, 0xC), pair_imm(5, 0x100000000ull), pair_imm(6, ONES));
        } else {
            const struct known *k = &known[i];
            const struct sb_ir_op_info *info = sb_ir_op_info(k->op);
            struct sb_ir_operand a = info->src_type[0] == SB_IR_TYPE_DOUBLE
                                         ? pair_imm(k->a0, k->a1)
                                         : imm((uint32_t)k->a0, (uint32_t)k->a1, 0, 0);
            struct sb_ir_operand b = pair_imm(k->b0, k->b1);
            uint32_t mask = result_is_32bit(k->op) ? 0x3 : 0xF;
            if (mask == 0x3)
                emit1(SB_IR_OP_MOV, R(0, 0xC), imm(0, 0, 0, 0));
            if (info->src_max == 2)
                emit2(k->op, R(0, mask), a, b);
            else
                emit1(k->op, R(0, mask), a);
        }
        emit2(SB_IR_OP_STORE_RAW, out, imm(16 * i, 0, 0, 0), r0);
    }
    emit0(SB_IR_OP_RET);
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 1);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    return p;
}

static void check_word(const char *what, uint32_t i, uint32_t lane, uint32_t got, uint32_t want)
{
    if (got != want) {
        fprintf(stderr, "%s row %u (%s) lane %u: 0x%08x, want 0x%08x\n", what, i,
                i < KNOWN_COUNT ? sb_ir_op_name(known[i].op) : "zw", lane, got, want);
        g_failures++;
    }
}

/* The buffer the program writes, against the hand-computed rows. */
static void check_results(const char *what, const uint32_t *words)
{
    for (uint32_t i = 0; i < KNOWN_COUNT; i++) {
        const struct known *k = &known[i];
        uint32_t want[4] = { (uint32_t)k->r0, (uint32_t)k->r1, 0, 0 };
        if (!result_is_32bit(k->op)) {
            want[1] = (uint32_t)(k->r0 >> 32);
            want[2] = (uint32_t)k->r1;
            want[3] = (uint32_t)(k->r1 >> 32);
        }
        for (uint32_t c = 0; c < 4; c++)
            check_word(what, i, c, words[i * 4 + c], want[c]);
    }
    const uint32_t want_zw[4] = { 7, 7, 0xFFFFFFFFu, 0 };
    for (uint32_t c = 0; c < 4; c++)
        check_word(what, KNOWN_COUNT, c, words[KNOWN_COUNT * 4 + c], want_zw[c]);
}

#define RESULT_WORDS ((KNOWN_COUNT + 1) * 4)

static struct sb_rt_resource result_buffer(uint32_t *words)
{
    memset(words, 0xCD, RESULT_WORDS * sizeof(uint32_t)); /* every word must be written */
    struct sb_rt_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = SB_IR_RESOURCE_UAV;
    r.data = words;
    r.size = RESULT_WORDS * sizeof(uint32_t);
    r.layers = r.mip_levels = r.sample_count = 1;
    return r;
}

static void case_known_answer(void)
{
    struct sb_ir_program *p = build_known();
    static uint32_t words[RESULT_WORDS];
    struct sb_rt_resource res = result_buffer(words);
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_interp_dispatch(p, &res, 1, (const uint32_t[3]){ 1, 1, 1 }, NULL, NULL, &error);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "interpreter: %s at 0x%llx: %s\n", sb_result_name(r),
                (unsigned long long)error.offset, error.message);
        g_failures++;
    } else {
        check_results("interpreter", words);
    }
    /* The back end: spirv-val clean everywhere; Int64 and, for the double conversions, Float64. */
    for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "int64 known answer");
        if (!t)
            continue;
        uint32_t int64 = SpvCapabilityInt64, float64 = SpvCapabilityFloat64;
        CHECK(count_op(t, SpvOpCapability, &int64, 1) == 1);
        CHECK(count_op(t, SpvOpCapability, &float64, 1) == 1);
        CHECK(count_op(t, SpvOpSDiv, NULL, 0) == 2);
        CHECK(count_op(t, SpvOpSRem, NULL, 0) == 2);
        CHECK(count_op(t, SpvOpShiftRightArithmetic, NULL, 0) == 1);
        sb_translation_destroy(t);
    }
}

/* The same program on the Vulkan device (lavapipe: shaderInt64 and shaderFloat64), under the
 * validation layer when installed. Exit 77 without a device. */
static int lavapipe_status;

static void case_lavapipe(void)
{
    struct sb_rt_context_options o = { .validation = true };
    struct sb_rt_context *c = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_rt_context_create(&o, &c, &error);
    if (r == SB_ERROR_NO_DEVICE) {
        printf("SKIPPED: no Vulkan device (%s)\n", error.message);
        lavapipe_status = 77;
        return;
    }
    if (r != SB_SUCCESS) {
        fprintf(stderr, "context: %s: %s\n", sb_result_name(r), error.message);
        g_failures++;
        return;
    }
    printf("device: %s\n", sb_rt_context_device_name(c));
    struct sb_translation *t = translate_checked(build_known(), SB_TARGET_VULKAN_1_1, 0, "int64 lavapipe");
    static uint32_t words[RESULT_WORDS];
    struct sb_rt_resource res = result_buffer(words);
    if (t) {
        r = sb_rt_dispatch(c, t, &res, 1, (const uint32_t[3]){ 1, 1, 1 }, NULL, &error);
        if (r != SB_SUCCESS) {
            fprintf(stderr, "device: %s: %s\n", sb_result_name(r), error.message);
            g_failures++;
        } else {
            check_results("device", words);
        }
        sb_translation_destroy(t);
    }
    CHECK(sb_rt_context_validation_errors(c) == 0);
    sb_rt_context_destroy(c);
}

/* Int64 only where used, Float64 only for doubles: an integer-only program, a program with
 * neither, and a 64-bit copy through MOV (lane copies, no 64-bit type at all). */
static void case_capabilities(void)
{
    uint32_t int64 = SpvCapabilityInt64, float64 = SpvCapabilityFloat64;
    for (int variant = 0; variant < 3; variant++) {
        ir_reset();
        add_signature(SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, 0, 0xF, "R", 0, 0, SB_IR_TYPE_UINT, 0);
        if (variant == 0) {
            emit2(SB_IR_OP_I64MUL, R(0, 0xF), pair_imm(3, 4), pair_imm(5, 6));
            emit2(SB_IR_OP_I64ULT, R(0, 0x3), pair_imm(3, 4), src_reg(SB_IR_FILE_TEMP, 0, "xzxz"));
            emit1(SB_IR_OP_ITOI64, R(0, 0xC), src_reg(SB_IR_FILE_TEMP, 0, "xyxy"));
        } else if (variant == 1) {
            emit2(SB_IR_OP_IADD, R(0, 0xF), imm(1, 2, 3, 4), imm(5, 6, 7, 8));
        } else {
            emit1(SB_IR_OP_MOV, R(0, 0xF), imm(1, 2, 3, 4));
            emit1(SB_IR_OP_MOV, R(0, 0xF), src_reg(SB_IR_FILE_TEMP, 0, "zwxy")); /* swap the pairs */
        }
        emit1(SB_IR_OP_MOV, O(0, 0xF), src_reg(SB_IR_FILE_TEMP, 0, "xyzw"));
        emit0(SB_IR_OP_RET);
        struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 1);
        for (size_t e = 0; e < sizeof(envs) / sizeof(envs[0]); e++) {
            struct sb_translation *t = translate_checked(p, envs[e], 0, "int64 capabilities");
            if (!t)
                continue;
            CHECK(count_op(t, SpvOpCapability, &int64, 1) == (variant == 0 ? 1u : 0u));
            CHECK(count_op(t, SpvOpCapability, &float64, 1) == 0);
            sb_translation_destroy(t);
        }
    }
}

/* The validator: pairs kept whole, no modifiers or saturate on the integer ops. */
static void case_validate(void)
{
    for (int variant = 0; variant < 6; variant++) {
        ir_reset();
        struct sb_ir_operand a = pair_imm(1, 2), b = pair_imm(3, 4);
        uint32_t mask = 0xF;
        uint32_t flags = 0;
        switch (variant) {
        case 1: mask = 0x6; break;                   /* yz splits both pairs */
        case 2: mask = 0x1; break;                   /* half a pair */
        case 3: a.swizzle[1] = 1; break;             /* pair starting at y */
        case 4: b.modifiers = SB_IR_MOD_NEG; break;  /* no float negate on integers */
        case 5: flags = SB_IR_FLAG_SATURATE; break;
        default: break;                              /* 0: the well-formed one */
        }
        emit(SB_IR_OP_I64ADD, flags, 1, (struct sb_ir_operand[]){ R(0, mask) }, 2,
             (struct sb_ir_operand[]){ a, b });
        emit0(SB_IR_OP_RET);
        struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, 1);
        struct sb_error error;
        memset(&error, 0, sizeof(error));
        enum sb_result r = sb_ir_validate(p, &error);
        if ((r == SB_SUCCESS) != (variant == 0)) {
            fprintf(stderr, "validate variant %d: %s (%s)\n", variant, sb_result_name(r), error.message);
            g_failures++;
        }
    }
    /* The double ops keep their pairs whole too. */
    ir_reset();
    emit2(SB_IR_OP_DADD, R(0, 0x7), pair_imm(1, 2), pair_imm(3, 4));
    emit0(SB_IR_OP_RET);
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    CHECK(sb_ir_validate(ir_program(SB_IR_STAGE_VERTEX, 1), &error) != SB_SUCCESS);
}

int main(int argc, char **argv)
{
    static const struct test_case cases[] = {
        { "known_answer", case_known_answer },
        { "capabilities", case_capabilities },
        { "validate", case_validate },
        { "lavapipe", case_lavapipe },
    };
    int status = run_test_cases(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
    return status == 0 && lavapipe_status ? lavapipe_status : status;
}
