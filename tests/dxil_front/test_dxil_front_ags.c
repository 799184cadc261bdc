/* SPDX-License-Identifier: MIT */
/*
 * AMD AGS intrinsics in DXIL (translator/src/dxil/ir_from_dxil_ags.c) on the
 * programs of tests/common/dxil_programs_ags.h. `float8`: the
 * Float8Conversion program's translation is spirv-val clean and declares no
 * magic UAV, and its results, run through sb_validate on the CPU interpreter
 * and (with lavapipe) on the GPU, are the hand-computed OCP E4M3 / E5M2
 * conversions below; the verdict must be agree. `length`: WaveMatrixLength
 * of the known matrix types, the same way; `wmma`: fill, copy (F32 <-> FP8)
 * and element extract; `memory`: matrix loads and stores of a raw buffer in
 * the wave32 layout; `mul_acc`: WaveMatrixMulAcc of F16 and FP8 operands.
 * `refusals`: what the lowering
 * does not translate refuses with a structured error naming it.
 *
 * Usage: test_dxil_front_ags float8|length|wmma|memory|mul_acc|refusals
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "dxil_programs_ags.h"
#include "translator/ir.h"

#define THREADS DXIL_AGS_FLOAT8_THREADS

/* Per thread: a (f32 bits, narrowed) and b (float8 byte, widened). */
static const uint32_t inputs[THREADS][2] = {
    { 0x3F800000, 0x38 }, /* 1.0 | E4M3 1.0, E5M2 0.5 */
    { 0x80000000, 0x80 }, /* -0 | -0 */
    { 0x43E00000, 0x7E }, /* 448, E4M3's largest | 448, an E5M2 NaN */
    { 0x43E80000, 0x7F }, /* 464: the tie between 448 and 480 goes to even 448 | E4M3 NaN */
    { 0x43E80001, 0xFF }, /* just above 464: E4M3 overflow | -NaN */
    { 0x7F800000, 0x01 }, /* +inf | smallest subnormals: 2^-9, 2^-16 */
    { 0x7FC00000, 0x08 }, /* NaN | E4M3 smallest normal 2^-6, E5M2 2^-13 */
    { 0xFFC00001, 0x07 }, /* -NaN | E4M3 largest subnormal 7 * 2^-9 */
    { 0x47600000, 0x7B }, /* 57344, E5M2's largest | 352, 57344 */
    { 0x47700000, 0x7C }, /* 61440: the tie goes to even, E5M2 infinity | 384, +inf */
    { 0x476FFFFF, 0xFC }, /* just below 61440: 57344 | -384, -inf */
    { 0x3B000000, 0x7D }, /* 2^-9: E4M3 subnormal 1 | 416, E5M2 NaN */
    { 0x3A800000, 0x03 }, /* 2^-10: half E4M3's smallest, ties to 0 | 3 * 2^-9 */
    { 0x3B400000, 0x04 }, /* 1.5 * 2^-9: ties to subnormal 2 | 2^-7 */
    { 0x3F880000, 0x5F }, /* 1.0625: ties to 1.0 in E4M3 | 30, 448 */
    { 0xBF980000, 0xFD }, /* -1.1875: ties to -1.25 | -416, -NaN */
};

/* Per thread: FP8->F32(b), BF8->F32(b), F32->FP8(a), F32->BF8(a), then saturating. By hand
 * from the encodings (E4M3: bias 7, S.1111.111 NaN, max 448; E5M2: bias 15, IEEE specials,
 * max 57344) and round-to-nearest-even; saturate maps overflow and infinity to the largest
 * finite value and changes nothing when widening. */
static const uint32_t expected[THREADS][8] = {
    { 0x3f800000, 0x3f000000, 0x38, 0x3c, 0x3f800000, 0x3f000000, 0x38, 0x3c },
    { 0x80000000, 0x80000000, 0x80, 0x80, 0x80000000, 0x80000000, 0x80, 0x80 },
    { 0x43e00000, 0x7fc00000, 0x7e, 0x5f, 0x43e00000, 0x7fc00000, 0x7e, 0x5f },
    { 0x7fc00000, 0x7fe00000, 0x7e, 0x5f, 0x7fc00000, 0x7fe00000, 0x7e, 0x5f },
    { 0xffc00000, 0xffe00000, 0x7f, 0x5f, 0xffc00000, 0xffe00000, 0x7e, 0x5f },
    { 0x3b000000, 0x37800000, 0x7f, 0x7c, 0x3b000000, 0x37800000, 0x7e, 0x7b },
    { 0x3c800000, 0x39000000, 0x7f, 0x7e, 0x3c800000, 0x39000000, 0x7f, 0x7e },
    { 0x3c600000, 0x38e00000, 0xff, 0xfe, 0x3c600000, 0x38e00000, 0xff, 0xfe },
    { 0x43b00000, 0x47600000, 0x7f, 0x7b, 0x43b00000, 0x47600000, 0x7e, 0x7b },
    { 0x43c00000, 0x7f800000, 0x7f, 0x7c, 0x43c00000, 0x7f800000, 0x7e, 0x7b },
    { 0xc3c00000, 0xff800000, 0x7f, 0x7b, 0xc3c00000, 0xff800000, 0x7e, 0x7b },
    { 0x43d00000, 0x7fe00000, 0x01, 0x18, 0x43d00000, 0x7fe00000, 0x01, 0x18 },
    { 0x3bc00000, 0x38400000, 0x00, 0x14, 0x3bc00000, 0x38400000, 0x00, 0x14 },
    { 0x3c000000, 0x38800000, 0x02, 0x1a, 0x3c000000, 0x38800000, 0x02, 0x1a },
    { 0x41f00000, 0x43e00000, 0x38, 0x3c, 0x41f00000, 0x43e00000, 0x38, 0x3c },
    { 0xc3d00000, 0xffe00000, 0xba, 0xbd, 0xc3d00000, 0xffe00000, 0xba, 0xbd },
};

/* u0's words on one side of a report; NULL when absent or short. */
static const uint32_t *u0_words(const struct sb_rt_inputs *side, size_t bytes)
{
    for (uint32_t i = 0; side && i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_UAV && r->register_index == 0 && r->size >= bytes)
            return r->data;
    }
    return NULL;
}

/* What a run must leave in u0: `count` words from word `first`. */
struct expected_words {
    uint32_t first, count;
    const uint32_t *words;
};

static void check_side(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                       const void *want)
{
    const struct expected_words *x = want;
    const uint32_t *got = u0_words(side, (x->first + x->count) * 4u);
    CHECK(got != NULL, "%s (%s): no u0", name, side_name);
    for (uint32_t i = 0; got && i < x->count; i++)
        CHECK(got[x->first + i] == x->words[i], "%s (%s): u0 word %u = 0x%08x, expected 0x%08x",
              name, side_name, x->first + i, got[x->first + i], x->words[i]);
}

/* The translation: spirv-val clean (the harness), and the magic UAV is no resource. */
static void check_translation(const char *name, bool (*write)(struct tbuf *))
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err);
    CHECK(ir != NULL, "%s: %s", name, err.message);
    if (ir) {
        CHECK(ir->resource_count == 1 && ir->resources[0].space == 0,
              "%s: %u resources, the first in space 0x%x", name, ir->resource_count,
              ir->resource_count ? ir->resources[0].space : 0);
    }
    sb_ir_program_destroy(ir);
}

/* The translation checked, then the program through sb_validate with u0 = `u0`
 * (dxil_front_validate): both sides' u0 must hold `x`. */
static void run_program(const char *name, bool (*write)(struct tbuf *), uint32_t *u0,
                        size_t u0_size, const struct expected_words *x)
{
    check_translation(name, write);
    const struct sb_rt_resource provided = {
        .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0,
        .size = u0_size, .layers = 1, .mip_levels = 1, .sample_count = 1,
    };
    dxil_front_validate(name, write, &provided, 1, 0, false, check_side, x);
}

static void test_float8(void)
{
    uint32_t u0[DXIL_AGS_FLOAT8_OUT / 4 + THREADS * 8];
    memset(u0, 0xAA, sizeof(u0));
    memcpy(u0, inputs, sizeof(inputs));
    const struct expected_words x = { DXIL_AGS_FLOAT8_OUT / 4, THREADS * 8, &expected[0][0] };
    run_program("float8", dxil_program_ags_float8, u0, sizeof(u0), &x);
}

/* WaveMatrixLength in the wave32 16x16 layout: 8 dwords per lane for F16 A/B/accumulator
 * and F32 accumulator (256 elements / 32 lanes, one per dword), 2 for FP8 (8 elements, four
 * per dword), transposed or not. */
static void test_length(void)
{
    static const uint32_t lengths[DXIL_AGS_LENGTH_COUNT] = { 8, 8, 8, 8, 8, 8, 8, 2, 2, 2, 2 };
    uint32_t u0[DXIL_AGS_LENGTH_COUNT];
    memset(u0, 0xAA, sizeof(u0));
    const struct expected_words x = { 0, DXIL_AGS_LENGTH_COUNT, lengths };
    run_program("length", dxil_program_ags_length, u0, sizeof(u0), &x);
}

/* The per-lane wave-matrix intrinsics. Inputs v per thread: 1.0, +inf, NaN, -1000. F32 ->
 * FP8 (E4M3, packed four per dword, so a filled matrix's dword is the byte four times): 1.0
 * -> 0x38; inf -> 0x7f (NaN, saturated too: the matrix unit's behaviour); NaN -> 0xff; -1000
 * -> 0xff (overflow: NaN) or saturated -448 = 0xfe. Back to F32: 0x38 -> 1.0, 0x7f -> NaN
 * 0x7fc00000, 0xff -> 0xffc00000, 0xfe -> -448 = 0xc3e00000. An F16 fill keeps the low half
 * (0x5678) at any index below 8; FP8 index i + 1 is dword 1 for thread 0, past the two FP8
 * dwords (0) for the others. ElementFill of element 5 with i: element 5 reads i, element 4
 * still v. */
static void test_wmma(void)
{
    static const uint32_t want[DXIL_AGS_WMMA_THREADS * 7] = {
        0x38383838, 0x38383838, 0x3f800000, 0x5678, 0x38383838, 0, 0x3f800000,
        0x7f7f7f7f, 0x7f7f7f7f, 0x7fc00000, 0x5678, 0, 1, 0x7f800000,
        0xffffffff, 0xffffffff, 0xffc00000, 0x5678, 0, 2, 0x7fc00000,
        0xffffffff, 0xfefefefe, 0xc3e00000, 0x5678, 0, 3, 0xc47a0000,
    };
    uint32_t u0[DXIL_AGS_WMMA_OUT + DXIL_AGS_WMMA_THREADS * 7];
    memset(u0, 0xAA, sizeof(u0));
    static const uint32_t v[DXIL_AGS_WMMA_THREADS] = { 0x3F800000, 0x7F800000, 0x7FC00000,
                                                       0xC47A0000 };
    for (uint32_t i = 0; i < DXIL_AGS_WMMA_THREADS; i++)
        u0[4 * i] = v[i];
    const struct expected_words x = { DXIL_AGS_WMMA_OUT, DXIL_AGS_WMMA_THREADS * 7, want };
    run_program("wmma", dxil_program_ags_wmma, u0, sizeof(u0), &x);
}

/* WaveMatrixUavLoad / UavStore (the layout of translator/src/dxil/ir_from_dxil_wmma_memory.c):
 * u0 holds F32 word i = 1000 + i at F32_IN, F16 half i = 0x100 + i at F16_IN and FP8 byte i
 * = i at FP8_IN, each a 16x16 row-major matrix (element (r, c) at index 16r + c). Stored
 * transposed, index j = 16c + r of each output holds the input's index 16(j % 16) + j / 16.
 * Lane l's element 0 of the row-major F32 accumulator is (row 8 (l / 16), column l % 16). */
static void test_memory(void)
{
    static uint32_t u0[DXIL_AGS_MEMORY_BYTES / 4], want[DXIL_AGS_MEMORY_BYTES / 4];
    memset(u0, 0xAA, sizeof(u0));
    uint16_t halves[256];
    uint8_t bytes[256];
    for (uint32_t i = 0; i < 256; i++) {
        u0[DXIL_AGS_MEMORY_F32_IN / 4 + i] = 1000 + i;
        halves[i] = (uint16_t)(0x100 + i);
        bytes[i] = (uint8_t)i;
    }
    memcpy((uint8_t *)u0 + DXIL_AGS_MEMORY_F16_IN, halves, sizeof(halves));
    memcpy((uint8_t *)u0 + DXIL_AGS_MEMORY_FP8_IN, bytes, sizeof(bytes));
    memcpy(want, u0, sizeof(u0));
    for (uint32_t j = 0; j < 256; j++) {
        uint32_t source = 16 * (j % 16) + j / 16;
        want[DXIL_AGS_MEMORY_F32_OUT / 4 + j] = 1000 + source;
        halves[j] = (uint16_t)(0x100 + source);
        bytes[j] = (uint8_t)source;
    }
    memcpy((uint8_t *)want + DXIL_AGS_MEMORY_F16_OUT, halves, sizeof(halves));
    memcpy((uint8_t *)want + DXIL_AGS_MEMORY_FP8_OUT, bytes, sizeof(bytes));
    for (uint32_t l = 0; l < 32; l++)
        want[DXIL_AGS_MEMORY_LANES / 4 + l] = 1000 + 16 * 8 * (l / 16) + l % 16;
    const struct expected_words x = { 0, DXIL_AGS_MEMORY_BYTES / 4, want };
    run_program("memory", dxil_program_ags_memory, u0, sizeof(u0), &x);
}

/* Small integers as f16 and E4M3 bits (both exact): -1, 0, 1, 2, 3. */
static const uint16_t f16_of[5] = { 0xBC00, 0x0000, 0x3C00, 0x4000, 0x4200 };
static const uint8_t fp8_of[5] = { 0xB8, 0x00, 0x38, 0x40, 0x44 };

/* An integer |v| < 2048 as f16 bits: the sign, exponent 15 + e where 2^e <= |v| <
 * 2^(e+1), the significand's 10 bits below the leading one (at most 11 significant bits). */
static uint16_t half_of_integer(int v)
{
    if (v == 0)
        return 0;
    int a = v < 0 ? -v : v, e = 0;
    while ((a >> (e + 1)) != 0)
        e++;
    return (uint16_t)((v < 0 ? 0x8000 : 0) | (15 + e) << 10 | ((a << (10 - e)) & 0x3FF));
}

/* WaveMatrixMulAcc: A[m][k] = (m + k) % 5 - 1, B[k][n] = (k * n + 1) % 4 - 1, C[m][n] =
 * 16 m + n (exact small integers, so every product and partial sum is exact in f32 and
 * any summation order gives the same D). D[m][n] = C[m][n] + sum over k of A[m][k] B[k][n],
 * for the F16 and the FP8 operands alike, and D copied to a transposed F16 accumulator
 * (one kind, another layout and format: element-wise) stored column-major. */
static void test_mul_acc(void)
{
    static uint32_t u0[DXIL_AGS_MULACC_BYTES / 4], want[DXIL_AGS_MULACC_BYTES / 4];
    uint8_t *bytes = (uint8_t *)u0;
    memset(u0, 0xAA, sizeof(u0));
    int av[16][16], bv[16][16];
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            av[r][c] = (r + c) % 5 - 1;
            bv[r][c] = (r * c + 1) % 4 - 1;
            uint16_t ha = f16_of[av[r][c] + 1], hb = f16_of[bv[r][c] + 1];
            memcpy(bytes + DXIL_AGS_MULACC_A16 + 2 * (16 * r + c), &ha, 2);
            memcpy(bytes + DXIL_AGS_MULACC_B16 + 2 * (16 * r + c), &hb, 2);
            bytes[DXIL_AGS_MULACC_A8 + 16 * r + c] = fp8_of[av[r][c] + 1];
            bytes[DXIL_AGS_MULACC_B8 + 16 * r + c] = fp8_of[bv[r][c] + 1];
            float cv = (float)(16 * r + c);
            memcpy(&u0[DXIL_AGS_MULACC_C / 4 + 16 * r + c], &cv, 4);
        }
    memcpy(want, u0, sizeof(u0));
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            int sum = 16 * r + c;
            for (int k = 0; k < 16; k++)
                sum += av[r][k] * bv[k][c];
            float d = (float)sum;
            memcpy(&want[DXIL_AGS_MULACC_D16 / 4 + 16 * r + c], &d, 4);
            memcpy(&want[DXIL_AGS_MULACC_D8 / 4 + 16 * r + c], &d, 4);
            /* The F16 copy, column-major: D is an integer of magnitude below 2048, exact. */
            uint16_t half = half_of_integer(sum);
            memcpy((uint8_t *)want + DXIL_AGS_MULACC_D16_HALF + 2 * (16 * c + r), &half, 2);
        }
    /* Spot values by hand: D[0][0] = 0 + sum_k ((k % 5) - 1) * 0 = 0 (B[k][0] = 0);
     * D[1][1] = 17 + (1 + 4 - 3 + 2 - 2 - 1 - 1 + 3 - 2) = 18 (the nonzero products of
     * ((1 + k) % 5 - 1) ((k + 1) % 4 - 1), k = 1, 2, 3, 6, 7, 9, 11, 13, 14). */
    CHECK(want[DXIL_AGS_MULACC_D16 / 4] == 0 && want[DXIL_AGS_MULACC_D16 / 4 + 17] == 0x41900000 &&
              half_of_integer(18) == 0x4C80,
          "mul_acc: the model's D[0][0] 0x%08x, D[1][1] 0x%08x", want[DXIL_AGS_MULACC_D16 / 4],
          want[DXIL_AGS_MULACC_D16 / 4 + 17]);
    const struct expected_words x = { 0, DXIL_AGS_MULACC_BYTES / 4, want };
    run_program("mul_acc", dxil_program_ags_mul_acc, u0, sizeof(u0), &x);
}

/* One refusal (dxil_front_expect_refusal). */
static void check_refusal(enum ags_refusal which, const char *name, const char *needle)
{
    struct tbuf b = { 0 };
    bool written = dxil_program_ags_refusal(&b, which);
    dxil_front_expect_refusal(name, written, &b, needle);
}

static void test_refusals(void)
{
    check_refusal(AGS_REFUSE_WMMA, "wmma", "WaveMatrixMulAcc in a program without [WaveSize(32)]");
    check_refusal(AGS_REFUSE_MULACC_OPCODE, "mulacc_opcode", "WaveMatrixOpcode 0xc ");
    check_refusal(AGS_REFUSE_LENGTH_WAVE, "length_wave", "without [WaveSize(32)]");
    check_refusal(AGS_REFUSE_LENGTH_TYPE, "length_type", "matrix type 0x2 ");
    check_refusal(AGS_REFUSE_BAD_MAGIC, "bad_magic", "code 0x40000036");
    check_refusal(AGS_REFUSE_DYNAMIC_CODE, "dynamic_code", "at a computed offset");
    check_refusal(AGS_REFUSE_BUFFER_USE, "buffer_use", "other than an AGS intrinsic");
    check_refusal(AGS_REFUSE_WMMA_SEQUENCE, "wmma_sequence",
                  "WaveMatrixCopy call of phase 2 out of its sequence");
    check_refusal(AGS_REFUSE_WMMA_KIND, "wmma_kind", "from type 0x24 to 0x4 ");
    check_refusal(AGS_REFUSE_BAD_CONVERSION, "bad_conversion", "immediate 0x4 ");
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (all || !strcmp(which, "float8"))
        test_float8();
    if (all || !strcmp(which, "length"))
        test_length();
    if (all || !strcmp(which, "wmma"))
        test_wmma();
    if (all || !strcmp(which, "memory"))
        test_memory();
    if (all || !strcmp(which, "mul_acc"))
        test_mul_acc();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
