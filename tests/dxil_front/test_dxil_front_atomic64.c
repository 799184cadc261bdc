/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 64-bit atomics through the DXIL front end (translator/src/dxil/ir_from_dxil_atomic64.c)
 * and the IR's imm_atomic64_* ops: the writer's programs (tests/common/dxil_programs_atomic64.h)
 * lowered, spirv-val'd, run on the interpreter and, on lavapipe (shaderBufferInt64Atomics),
 * through sb_validate, against hand-computed 64-bit answers.
 *
 *   raw         every operation once on its own slot of a RWByteAddressBuffer, the old
 *               values stored back: carries across the 32-bit halves, signed min/max decided
 *               by the high word's sign, unsigned ones where signed would differ,
 *               compare-exchange hit and miss (low word equal, high word not), and the forms
 *               that drop the old value
 *   structured  four invocations adding and taking the signed minimum on a structured
 *               buffer of 16-byte elements (index, byte offset addresses)
 *   ir          the IR ops the raw program lowers to (null destination where the old value
 *               is unused), the validator's refusals of a changed copy (result mask zw, a
 *               modifier, a typed u#) and the SPIR-V capabilities (Int64, Int64Atomics)
 *   bounds      the interpreter drops a 64-bit atomic whose word ends past the buffer
 *   refusals    a 64-bit atomic on groupshared memory refuses, naming it
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "dxil_programs_atomic64.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"

/* UAV buffer u`reg`: its bytes; the shape is the declaration's. */
static struct sb_rt_resource buffer(uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_UAV, .register_index = reg,
                                    .data = data, .size = size, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* The 64-bit words a side's u0 must hold. */
struct expected64 {
    const unsigned long long *words;
    uint32_t count;
};

static void check_u0(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                     const void *expected)
{
    const struct expected64 *x = expected;
    const uint8_t *got = NULL;
    for (uint32_t i = 0; side && i < side->count; i++)
        if (side->resources[i].resource_class == SB_IR_RESOURCE_UAV &&
            side->resources[i].register_index == 0 && side->resources[i].size >= x->count * 8u)
            got = side->resources[i].data;
    CHECK(got != NULL, "%s (%s): no u0", name, side_name);
    for (uint32_t k = 0; got && k < x->count; k++) {
        unsigned long long word;
        memcpy(&word, got + 8 * k, 8);
        CHECK(word == x->words[k], "%s (%s): u0 qword %u = 0x%016llx, expected 0x%016llx", name,
              side_name, k, word, x->words[k]);
    }
}

/* Initial value of each slot of the raw program, and the value the operation leaves:
 * worked out by hand from atomic64_raw_operands' operands. */
static const unsigned long long raw_before[ATOMIC64_SLOT_COUNT] = {
    0x00000001FFFFFFFFull, /* add 1: the carry crosses into the high word */
    0xFFFF00000000FFFFull, /* and 0x0F0F0F0FF0F0F0F0 */
    0x8000000000000001ull, /* or 0x0000000180000000 */
    0xFFFFFFFF00000000ull, /* xor all ones */
    0x0000000100000000ull, /* signed min with -1: -1 (unsigned would keep 2^32) */
    0x8000000000000000ull, /* signed max with 1: 1 (unsigned would keep 2^63) */
    0x8000000000000000ull, /* unsigned min with 2^63 - 1 (signed would keep INT64_MIN) */
    0x7FFFFFFFFFFFFFFFull, /* unsigned max with 0xFFFFFFFF00000000 (signed would keep it) */
    0x123456789ABCDEF0ull, /* exchange */
    0xDEADBEEF00000005ull, /* compare-exchange, compare equal: stores */
    0xDEADBEEF00000005ull, /* compare-exchange, compare 5 (low word equal only): keeps */
    0xFFFFFFFFFFFFFFFFull, /* add 2, old value unused: wraps to 1 */
    0x0000000000000000ull, /* compare-store with 0: stores */
};
static const unsigned long long raw_after[ATOMIC64_SLOT_COUNT] = {
    0x0000000200000000ull, 0x0F0F00000000F0F0ull, 0x8000000180000001ull, 0x00000000FFFFFFFFull,
    0xFFFFFFFFFFFFFFFFull, 0x0000000000000001ull, 0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFF00000000ull,
    0x0FEDCBA987654321ull, 0x1111111122222222ull, 0xDEADBEEF00000005ull, 0x0000000000000001ull,
    0xCAFEF00D0000BEEFull,
};

/* u0 (256 bytes): slots at 8k, old values of slots 0..10 at 128 + 8k, the rest stays 0. */
static void test_raw(void)
{
    unsigned long long u0[32] = { 0 }, expected[32] = { 0 };
    for (unsigned k = 0; k < ATOMIC64_SLOT_COUNT; k++) {
        u0[k] = raw_before[k];
        expected[k] = raw_after[k];
        if (k < ATOMIC64_SLOT_ADD_NO_RETURN)
            expected[ATOMIC64_RESULTS_BYTE / 8 + k] = raw_before[k];
    }
    /* The table and the operands agree (a typo in either would test nothing). */
    unsigned long long value, compare;
    atomic64_raw_operands(ATOMIC64_SLOT_ADD, &value, &compare);
    CHECK(raw_before[0] + value == raw_after[0], "raw: the add's operand");
    atomic64_raw_operands(ATOMIC64_SLOT_CMP_MISS, &value, &compare);
    CHECK(compare != raw_before[ATOMIC64_SLOT_CMP_MISS] &&
              (uint32_t)compare == (uint32_t)raw_before[ATOMIC64_SLOT_CMP_MISS],
          "raw: the miss compares equal in the low word only");
    const struct sb_rt_resource provided = buffer(0, u0, sizeof(u0));
    const struct expected64 x = { expected, 32 };
    dxil_front_validate("raw", dxil_program_atomic64_raw, &provided, 1, 0, false, check_u0, &x);
}

/* u0 = { {a 5, b 0x80000000}, {a INT64_MAX, b 0xFFFFFFFF00000000} }; invocation t adds
 * (t + 1) * 2^31 to element t & 1's b and takes the signed min of its a with t - 2:
 * b0 = 2^31 + 2^31 + 3 * 2^31 = 0x280000000, b1 = 0xFFFFFFFF00000000 + 2^32 + 2^33 = 2^33
 * (mod 2^64); a0 = min(5, -2, 0) = -2, a1 = min(INT64_MAX, -1, 1) = -1. */
static void test_structured(void)
{
    unsigned long long u0[4] = { 5, 0x80000000ull, 0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFF00000000ull };
    static const unsigned long long expected[4] = { 0xFFFFFFFFFFFFFFFEull, 0x0000000280000000ull,
                                                    0xFFFFFFFFFFFFFFFFull, 0x0000000200000000ull };
    const struct sb_rt_resource provided = buffer(0, u0, sizeof(u0));
    const struct expected64 x = { expected, 4 };
    dxil_front_validate("structured", dxil_program_atomic64_structured, &provided, 1, 0, false,
                        check_u0, &x);
}

/* Whether the module's capability section declares `capability`. */
static bool declares(const struct sb_translation *t, uint32_t capability)
{
    for (size_t i = 5; t && i + 1 < t->word_count;) {
        uint32_t length = t->words[i] >> 16;
        if ((t->words[i] & 0xFFFFu) != SpvOpCapability || length == 0)
            return false;
        if (t->words[i + 1] == capability)
            return true;
        i += length;
    }
    return false;
}

/* sb_ir_validate on `ir` with the first 64-bit atomic changed by `change` (0: result mask zw,
 * 1: a negated value, 2: u0 declared typed) must refuse, naming `needle`. */
static void expect_invalid(const struct sb_ir_program *ir, int change, const char *needle)
{
    const struct sb_ir_function *fn = &ir->functions[0];
    struct sb_ir_instruction *copy = malloc(fn->instruction_count * sizeof(*copy));
    struct sb_ir_resource *resources = malloc(ir->resource_count * sizeof(*resources));
    if (!copy || !resources) {
        CHECK(false, "out of memory");
        free(copy);
        free(resources);
        return;
    }
    memcpy(copy, fn->instructions, fn->instruction_count * sizeof(*copy));
    memcpy(resources, ir->resources, ir->resource_count * sizeof(*resources));
    struct sb_ir_operand dst[2], src[3];
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        if (!sb_ir_op_is_atomic64(copy[i].op))
            continue;
        memcpy(dst, copy[i].dst, 2 * sizeof(dst[0]));
        memcpy(src, copy[i].src, copy[i].src_count * sizeof(src[0]));
        if (change == 0)
            dst[0].mask = 0xC;
        else if (change == 1)
            src[1].modifiers = SB_IR_MOD_NEG;
        copy[i].dst = dst;
        copy[i].src = src;
        break;
    }
    if (change == 2)
        resources[0].kind = SB_IR_RESOURCE_KIND_TYPED;
    struct sb_ir_function changed_fn = *fn;
    changed_fn.instructions = copy;
    struct sb_ir_program changed = *ir;
    changed.functions = &changed_fn;
    changed.function_count = 1;
    changed.resources = resources;
    struct sb_error err = { 0 };
    enum sb_result r = sb_ir_validate(&changed, &err);
    CHECK(r != SB_SUCCESS && strstr(err.message, needle), "validator, change %d: %d '%s'", change,
          (int)r, err.message);
    free(copy);
    free(resources);
}

static void test_ir(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_atomic64_raw, &err);
    CHECK(ir != NULL, "raw: %s", err.message);
    CHECK(ir && sb_ir_validate(ir, &err) == SB_SUCCESS, "raw: the IR does not validate");
    if (ir && ir->function_count == 1 && ir->resource_count == 1) {
        expect_invalid(ir, 0, "64-bit atomic result mask 0xc");
        expect_invalid(ir, 1, "modifiers 0x1 on a 64-bit integer source");
        expect_invalid(ir, 2, "64-bit atomic on the typed u0");
    }
    uint32_t count[SB_IR_OP_COUNT] = { 0 }, null_results = 0;
    for (uint32_t i = 0; ir && i < ir->functions[0].instruction_count; i++) {
        const struct sb_ir_instruction *in = &ir->functions[0].instructions[i];
        count[in->op]++;
        if (sb_ir_op_is_atomic64(in->op) && in->dst[0].file == SB_IR_FILE_NULL)
            null_results++;
    }
    /* Slots: add x2, and, or, xor, imin, imax, umin, umax, exchange, compare-exchange x3. */
    CHECK(count[SB_IR_OP_IMM_ATOMIC64_IADD] == 2 && count[SB_IR_OP_IMM_ATOMIC64_AND] == 1 &&
              count[SB_IR_OP_IMM_ATOMIC64_OR] == 1 && count[SB_IR_OP_IMM_ATOMIC64_XOR] == 1 &&
              count[SB_IR_OP_IMM_ATOMIC64_IMIN] == 1 && count[SB_IR_OP_IMM_ATOMIC64_IMAX] == 1 &&
              count[SB_IR_OP_IMM_ATOMIC64_UMIN] == 1 && count[SB_IR_OP_IMM_ATOMIC64_UMAX] == 1 &&
              count[SB_IR_OP_IMM_ATOMIC64_EXCH] == 1 && count[SB_IR_OP_IMM_ATOMIC64_CMP_EXCH] == 3,
          "raw: IR ops iadd %u cmp_exch %u", count[SB_IR_OP_IMM_ATOMIC64_IADD],
          count[SB_IR_OP_IMM_ATOMIC64_CMP_EXCH]);
    CHECK(null_results == 2, "raw: %u atomics drop their old value, expected 2", null_results);
    sb_ir_program_destroy(ir);

    struct tbuf b = { 0 };
    struct sb_translation *t = NULL;
    CHECK(dxil_program_atomic64_raw(&b), "raw: the writer failed");
    enum sb_result r = sb_translate(b.data, b.size, NULL, &t, &err);
    CHECK(r == SB_SUCCESS, "raw: sb_translate: %s", err.message);
    CHECK(declares(t, SpvCapabilityInt64) && declares(t, SpvCapabilityInt64Atomics),
          "raw: the module does not declare Int64 and Int64Atomics");
    /* A runtime refusing the module names the first atomic (its byte offset in the input). */
    uint64_t origin = 0;
    for (uint32_t i = 0; t && i < t->capability_origin_count; i++)
        if (t->capability_origins[i].capability == SpvCapabilityInt64Atomics)
            origin = t->capability_origins[i].offset;
    CHECK(origin > 0, "raw: Int64Atomics has no origin");
    sb_translation_destroy(t);
    tb_free(&b);
}

/* The interpreter alone on a 100-byte u0: slots 0..11 (bytes 0..95) as in `raw`; slot 12's
 * 8 bytes end past the buffer, so the whole compare-store is dropped (no half write: bytes
 * 96..99 keep 0x12345678), and the old values' stores at 128+ are dropped too. A device's
 * robustBufferAccess may treat a straddling access otherwise, so no GPU side. */
static void test_bounds(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(dxil_program_atomic64_raw, &err);
    CHECK(ir != NULL, "bounds: %s", err.message);
    if (!ir)
        return;
    unsigned long long u0[13] = { 0 };
    for (unsigned k = 0; k < 12; k++)
        u0[k] = raw_before[k];
    u0[12] = 0x12345678ull; /* bytes 96..99 inside, 100..103 outside */
    struct sb_rt_resource table[1] = { buffer(0, u0, 100) };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, table, 1, groups, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "bounds: dispatch: %s", err.message);
    for (unsigned k = 0; k < 12; k++)
        CHECK(u0[k] == raw_after[k], "bounds: qword %u = 0x%016llx, expected 0x%016llx", k, u0[k],
              raw_after[k]);
    CHECK(u0[12] == 0x12345678ull, "bounds: the straddling word became 0x%016llx", u0[12]);
    sb_ir_program_destroy(ir);
}

static void test_refusals(void)
{
    struct tbuf b = { 0 };
    bool written = dxil_program_atomic64_groupshared(&b);
    dxil_front_expect_refusal("groupshared", written, &b, "64-bit groupshared atomics");
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (all || !strcmp(which, "raw"))
        test_raw();
    if (all || !strcmp(which, "structured"))
        test_structured();
    if (all || !strcmp(which, "ir"))
        test_ir();
    if (all || !strcmp(which, "bounds"))
        test_bounds();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
