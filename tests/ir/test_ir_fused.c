/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_dxbc() against its definition: sb_sm4_decode_container() then
 * sb_ir_from_sm4() (translator/internal/translator/ir.h). The fused path
 * lowers ordinary instructions straight from the tokens and hands anything
 * else to the general path, so the two must agree on every input: the same
 * result, the same error (code, offset, instruction, message), and the same
 * program, compared field by field (every instruction and operand, nested
 * relative operands included), as sb_ir_print() text, and as the SPIR-V the
 * translator makes of it.
 *
 * Usage:
 *   test_ir_fused --built        programs assembled here (every operand and
 *                                instruction form the fused path takes or
 *                                declines, and broken ones), no files needed
 *   test_ir_fused CORPUS_DIR [N] every corpus shader and N byte-mutants of each
 *                                (fixed seed); exit 77 when the corpus is absent
 * SB_TEST_VERBOSE=1 prints each comparison's result.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "translator/ir.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"
#include "shaderbridge/translate.h"
#include "fxc_builder.h"
#include "ir_compare.h"
#include "mutation_util.h"
#include "test_file.h"

static unsigned failures;
static unsigned long long compared, lowered;

static void fail(const char *name, const char *what)
{
    if (failures < 20)
        fprintf(stderr, "%s: %s\n", name, what);
    failures++;
}

/* The SPIR-V, bindings count and result of translating each program, from the container
 * facts each front end recorded in it. */
static bool same_translation(const struct sb_ir_program *a, const struct sb_ir_program *b)
{
    struct sb_translation *ta = NULL, *tb = NULL;
    struct sb_error ea, eb;
    memset(&ea, 0, sizeof(ea));
    memset(&eb, 0, sizeof(eb));
    enum sb_result ra = sb_translate_ir(a, NULL, &ta, &ea);
    enum sb_result rb = sb_translate_ir(b, NULL, &tb, &eb);
    bool same = ra == rb && ea.code == eb.code && ea.offset == eb.offset &&
                !strcmp(ea.message, eb.message);
    if (same && ra == SB_SUCCESS)
        same = ta->word_count == tb->word_count && ta->binding_count == tb->binding_count &&
               !memcmp(ta->words, tb->words, ta->word_count * sizeof(uint32_t));
    sb_translation_destroy(ta);
    sb_translation_destroy(tb);
    return same;
}

/* Both paths on one container; `translate` adds the SPIR-V comparison. */
static void compare(const char *name, const uint8_t *bytes, size_t size, bool translate)
{
    struct sb_dxbc *container = NULL;
    if (sb_dxbc_parse_ex(bytes, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &container, NULL) !=
        SB_SUCCESS)
        return;
    compared++;
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *general = NULL, *fused = NULL;
    struct sb_error eg, ef;
    memset(&eg, 0, sizeof(eg));
    memset(&ef, 0, sizeof(ef));
    enum sb_result rg = sb_sm4_decode_container(container, &sm4, &eg);
    if (rg == SB_SUCCESS)
        rg = sb_ir_from_sm4(sm4, container, &general, &eg);
    enum sb_result rf = sb_ir_from_dxbc(container, &fused, &ef);
    char what[700];
    if (getenv("SB_TEST_VERBOSE"))
        printf("%s: %s %s\n", name, sb_result_name(rg), eg.message);
    if (rg != rf || eg.code != ef.code || eg.offset != ef.offset || eg.instr != ef.instr ||
        strcmp(eg.message, ef.message)) {
        snprintf(what, sizeof(what), "general %s at %llu #%u (%s), fused %s at %llu #%u (%s)",
                 sb_result_name(rg), (unsigned long long)eg.offset, eg.instr, eg.message,
                 sb_result_name(rf), (unsigned long long)ef.offset, ef.instr, ef.message);
        fail(name, what);
    } else if (rg == SB_SUCCESS) {
        lowered++;
        if (!fused || !same_program(general, fused))
            fail(name, "the fused program differs from the general one");
        else if (translate && !same_translation(general, fused))
            fail(name, "the fused program translates differently");
    } else if (fused) {
        fail(name, "failed but returned a program");
    }
    sb_ir_program_destroy(general);
    sb_ir_program_destroy(fused);
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(container);
}

/* ------------------------------------------------------------------------ */
/* Built programs                                                           */
/* ------------------------------------------------------------------------ */

/* Operand token helpers (../shared/docs/sm4-tokens.md §5). */
#define OPERAND(type, dims, comps) ((uint32_t)(type) << 12 | (uint32_t)(dims) << 20 | (comps))
#define MASK(m) (2u | 0u << 2 | (uint32_t)(m) << 4)
#define SWIZZLE(x, y, z, w) (2u | 1u << 2 | ((x) | (y) << 2 | (z) << 4 | (w) << 6) << 4)
#define SELECT1(c) (2u | 2u << 2 | (uint32_t)(c) << 4)
#define INSTR(op, len) ((uint32_t)(op) | (uint32_t)(len) << 24)

#define T_TEMP OPERAND(SB_SM4_OPERAND_TEMP, 1, 0)
#define T_IN OPERAND(SB_SM4_OPERAND_INPUT, 1, 0)
#define T_OUT OPERAND(SB_SM4_OPERAND_OUTPUT, 1, 0)
#define T_CB OPERAND(SB_SM4_OPERAND_CONSTANT_BUFFER, 2, 0)
#define T_IMM1 OPERAND(SB_SM4_OPERAND_IMMEDIATE32, 0, 1)
#define T_IMM4 OPERAND(SB_SM4_OPERAND_IMMEDIATE32, 0, 2)
#define T_IMM64 OPERAND(SB_SM4_OPERAND_IMMEDIATE64, 0, 1)

#define PS50 0x00000050u
#define PS51 0x00000051u
#define PS40 0x00000040u

/* A pixel program of `version` (4.0, 5.0 or 5.1): declarations most bodies need, then
 * `body`. */
static void build_program(struct blob *prog, uint32_t version, const uint32_t *body, size_t n)
{
    static const uint32_t common[] = {
        INSTR(SB_SM4_OP_DCL_TEMPS, 2), 4,
        /* dcl_input_ps linear v0.xyzw */
        INSTR(SB_SM4_OP_DCL_INPUT_PS, 3) | 2u << 11, T_IN | MASK(0xf), 0,
        /* dcl_output o0.xyzw */
        INSTR(SB_SM4_OP_DCL_OUTPUT, 3), T_OUT | MASK(0xf), 0,
        /* dcl_indexableTemp x0[4], 4 */
        INSTR(SB_SM4_OP_DCL_INDEXABLE_TEMP, 4), 0, 4, 4,
    };
    static const uint32_t sm50[] = {
        /* dcl_constantbuffer cb0[4], immediateIndexed */
        INSTR(SB_SM4_OP_DCL_CONSTANT_BUFFER, 4), T_CB | SWIZZLE(0, 1, 2, 3), 0, 4,
        /* dcl_resource_texture2d (float,float,float,float) t0 */
        INSTR(SB_SM4_OP_DCL_RESOURCE, 4) | 3u << 11, OPERAND(SB_SM4_OPERAND_RESOURCE, 1, 0), 0,
        0x5555,
    };
    static const uint32_t sm51[] = {
        /* dcl_constantbuffer CB0[0:0][4], space 0 */
        INSTR(SB_SM4_OP_DCL_CONSTANT_BUFFER, 7),
        OPERAND(SB_SM4_OPERAND_CONSTANT_BUFFER, 3, 2) | SWIZZLE(0, 1, 2, 3), 0, 0, 0, 4, 0,
    };
    blob_u32(prog, version);
    uint32_t length_at = blob_u32(prog, 0);
    for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
        blob_u32(prog, common[i]);
    const uint32_t *extra = version == PS51 ? sm51 : sm50;
    size_t extra_count = version == PS51 ? sizeof(sm51) / sizeof(sm51[0])
                                         : sizeof(sm50) / sizeof(sm50[0]);
    for (size_t i = 0; i < extra_count; i++)
        blob_u32(prog, extra[i]);
    for (size_t i = 0; i < n; i++)
        blob_u32(prog, body[i]);
    blob_patch_u32(prog, length_at, prog->size / 4);
}

static void run_built(const char *name, uint32_t version, const uint32_t *body, size_t n)
{
    static struct blob prog, container;
    memset(&prog, 0, sizeof(prog));
    build_program(&prog, version, body, n);
    struct part_spec part = { SB_FOURCC('S', 'H', 'E', 'X'), &prog };
    build_container(&part, 1, &container, NULL);
    compare(name, container.bytes, container.size, true);
    /* Truncations of the body too: lengths past the end, operands cut short. */
    for (uint32_t cut = 1; cut <= n && cut <= 12; cut++) {
        memset(&prog, 0, sizeof(prog));
        build_program(&prog, version, body, n - cut);
        blob_patch_u32(&prog, 4, prog.size / 4 + (cut & 1));
        build_container(&part, 1, &container, NULL);
        compare(name, container.bytes, container.size, false);
    }
}

#define RUN(name, version, ...)                                                             \
    do {                                                                                    \
        static const uint32_t body_[] = { __VA_ARGS__ };                                    \
        run_built(name, version, body_, sizeof(body_) / sizeof(body_[0]));                  \
    } while (0)

#define NEG_EXT (0x1u | 1u << 6)     /* extended operand: negate */
#define ABS_EXT (0x1u | 2u << 6)
#define RET INSTR(SB_SM4_OP_RET, 1)

static int run_built_programs(void)
{
    /* Plain operands: masks, swizzles, select-1, immediates (1, 4 lanes, 64-bit). */
    RUN("plain", PS50,
        INSTR(SB_SM4_OP_ADD, 8), T_TEMP | MASK(0x3), 1, T_IN | SWIZZLE(3, 2, 1, 0), 0,
        T_CB | SELECT1(2), 0, 3,
        INSTR(SB_SM4_OP_MOV, 8), T_OUT | MASK(0xf), 0, T_IMM4, 1, 2, 3, 0x3f800000,
        INSTR(SB_SM4_OP_MUL, 7) | 1u << 13, T_TEMP | MASK(0x1), 0, T_IMM1, 7, T_TEMP | SELECT1(1), 1,
        INSTR(SB_SM4_OP_DMOV, 6), T_TEMP | MASK(0x3), 2, T_IMM64, 0, 0x3ff00000,
        INSTR(SB_SM4_OP_DADD, 7), T_TEMP | MASK(0xf), 3, T_TEMP | SWIZZLE(2, 3, 0, 1), 2,
        T_TEMP | SWIZZLE(0, 1, 0, 1), 1,
        INSTR(SB_SM4_OP_IF, 3) | 1u << 18, T_TEMP | SELECT1(0), 0,
        INSTR(SB_SM4_OP_DISCARD, 3), T_TEMP | SELECT1(1), 0,
        INSTR(SB_SM4_OP_ENDIF, 1),
        /* a trailing DWORD inside the length (§10.3) */
        INSTR(SB_SM4_OP_MOV, 6) | 0xfu << 19, T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1, 0,
        RET);
    /* Extended operand tokens (modifiers), chained; extended opcode tokens. */
    RUN("extended", PS50,
        INSTR(SB_SM4_OP_ADD, 9), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3) | 1u << 31,
        NEG_EXT, 1, T_IN | SWIZZLE(0, 0, 0, 0) | 1u << 31, ABS_EXT | 1u << 14, 0,
        INSTR(SB_SM4_OP_MOV, 7), T_TEMP | MASK(0xf), 0, T_TEMP | SELECT1(2) | 1u << 31,
        0x80000000u, NEG_EXT, 2,
        /* ld with offsets and resource dimension/return type tokens */
        INSTR(SB_SM4_OP_LD, 10) | 1u << 31, 0x80000001u | 0x3u << 9 | 0xdu << 13,
        0x80000002u | 3u << 6, 0x3u | 0x5555u << 6, T_TEMP | MASK(0xf), 0,
        T_TEMP | SWIZZLE(0, 1, 2, 3), 1, OPERAND(SB_SM4_OPERAND_RESOURCE, 1, 2) |
        SWIZZLE(0, 1, 2, 3), 0,
        RET);
    /* Declined forms: relative indices, an extended operand token of another type, an
     * unknown modifier, a 64-bit index, a long-form length, fcall-less labels. */
    RUN("relative", PS50,
        INSTR(SB_SM4_OP_MOV, 8), T_TEMP | MASK(0xf), 0,
        T_CB | SWIZZLE(0, 1, 2, 3) | 3u << 25, 0, 1, T_TEMP | SELECT1(0), 1,
        INSTR(SB_SM4_OP_MOV, 7), T_TEMP | MASK(0xf), 1,
        OPERAND(SB_SM4_OPERAND_INDEXABLE_TEMP, 2, 2) | SWIZZLE(0, 1, 2, 3) | 2u << 25, 0,
        T_TEMP | SELECT1(3), 2,
        INSTR(SB_SM4_OP_MOV, 5), T_OUT | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1,
        RET);
    RUN("bad-extended-operand", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3) | 1u << 31,
        0x2u, 1, RET);
    RUN("bad-modifier", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3) | 1u << 31,
        0x1u | 9u << 6, 1, RET);
    RUN("index64", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3) | 1u << 22,
        0, 1, RET);
    RUN("long-form", PS50,
        INSTR(SB_SM4_OP_MOV, 0), 6, T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1, RET);
    RUN("bad-extended-opcode", PS50,
        INSTR(SB_SM4_OP_MOV, 6) | 1u << 31, 0x7u, T_TEMP | MASK(0xf), 0,
        T_TEMP | SWIZZLE(0, 1, 2, 3), 1, RET);
    /* Errors the checks find: undeclared registers, wrong kinds, counts, shapes. */
    RUN("undeclared-temp", PS50,
        INSTR(SB_SM4_OP_MOV, 5), T_TEMP | MASK(0xf), 9, T_TEMP | SWIZZLE(0, 1, 2, 3), 1, RET);
    RUN("undeclared-cb", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, T_CB | SWIZZLE(0, 1, 2, 3), 3, 0, RET);
    RUN("write-input", PS50,
        INSTR(SB_SM4_OP_MOV, 5), T_IN | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1, RET);
    RUN("immediate-resource", PS50,
        INSTR(SB_SM4_OP_LD, 8), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1,
        T_IMM1, 0, RET);
    RUN("bad-dims", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, OPERAND(SB_SM4_OPERAND_TEMP, 2, 2) |
        SWIZZLE(0, 1, 2, 3), 1, 0, RET);
    RUN("bad-components", PS50,
        INSTR(SB_SM4_OP_MOV, 5), T_TEMP | MASK(0xf), 0, T_TEMP | 3u, 1, RET);
    RUN("selection-3", PS50,
        INSTR(SB_SM4_OP_MOV, 5), T_TEMP | MASK(0xf), 0, T_TEMP | 2u | 3u << 2, 1, RET);
    RUN("immediate-with-index", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, OPERAND(SB_SM4_OPERAND_IMMEDIATE32, 1, 1),
        0, 1, RET);
    RUN("unknown-type", PS50,
        INSTR(SB_SM4_OP_MOV, 5), T_TEMP | MASK(0xf), 0, OPERAND(200, 1, 2) | SWIZZLE(0, 1, 2, 3),
        1, RET);
    RUN("eval-of-temp", PS50,
        INSTR(SB_SM4_OP_EVAL_CENTROID, 5), T_TEMP | MASK(0xf), 0, T_TEMP | SWIZZLE(0, 1, 2, 3), 1,
        RET);
    RUN("unclosed-if", PS50, INSTR(SB_SM4_OP_IF, 3), T_TEMP | SELECT1(0), 0, RET);
    RUN("reserved-opcode", PS50, INSTR(SB_SM4_OP_RESERVED_10_0, 1), RET);
    RUN("icb-without-data", PS50,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0,
        OPERAND(SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER, 1, 2) | SWIZZLE(0, 1, 2, 3), 0, RET);
    RUN("icb", PS40,
        INSTR(SB_SM4_OP_CUSTOMDATA, 0) | 3u << 11, 6, 1, 2, 3, 4,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0,
        OPERAND(SB_SM4_OPERAND_IMMEDIATE_CONSTANT_BUFFER, 1, 2) | SWIZZLE(0, 1, 2, 3), 0, RET);
    RUN("sm51-cb-range", PS51,
        INSTR(SB_SM4_OP_MOV, 7), T_TEMP | MASK(0xf), 0,
        OPERAND(SB_SM4_OPERAND_CONSTANT_BUFFER, 3, 2) | SWIZZLE(0, 1, 2, 3), 0, 0, 1, RET);
    /* Operand forms outlive a program (ir_from_sm4_fused.c): a token met in a program of
     * one model must be judged afresh in the other, where its index count is wrong. */
    RUN("sm50-cb-in-sm51", PS51,
        INSTR(SB_SM4_OP_MOV, 6), T_TEMP | MASK(0xf), 0, T_CB | SELECT1(2), 0, 3, RET);
    RUN("sm51-cb-in-sm50", PS50,
        INSTR(SB_SM4_OP_MOV, 7), T_TEMP | MASK(0xf), 0,
        OPERAND(SB_SM4_OPERAND_CONSTANT_BUFFER, 3, 2) | SWIZZLE(0, 1, 2, 3), 0, 0, 1, RET);
    RUN("sync-and-resinfo", PS50,
        INSTR(SB_SM4_OP_SYNC, 1) | 0xbu << 11,
        INSTR(SB_SM4_OP_RESINFO, 8) | 2u << 11, T_TEMP | MASK(0xf), 0, T_IMM1, 0,
        OPERAND(SB_SM4_OPERAND_RESOURCE, 1, 2) | SWIZZLE(0, 1, 2, 3), 0, RET);
    printf("fused vs general (built): %llu programs compared, %llu lowered, %u differences\n",
           compared, lowered, failures);
    return failures || lowered < 8 ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Corpus                                                                   */
/* ------------------------------------------------------------------------ */

/* Mutates DWORDs of the program part after its version and length tokens. */
static void mutate(uint8_t *bytes, size_t from, size_t size)
{
    size_t dwords = size / 4;
    if (dwords <= 2)
        return;
    unsigned edits = 1 + next_random() % 4;
    for (unsigned e = 0; e < edits; e++) {
        uint8_t *at = bytes + from + 4 * (2 + next_random() % (dwords - 2));
        uint32_t value;
        switch (next_random() % 5) {
        case 0: at[next_random() % 4] ^= (uint8_t)(1u << (next_random() % 8)); continue;
        case 1: value = next_random() % 300; break;
        case 2: value = next_random(); break;
        case 3: at[3] ^= 0x80; continue; /* bit 31: extended / long forms */
        default: memcpy(&value, bytes + from + 4 * (2 + next_random() % (dwords - 2)), 4); break;
        }
        memcpy(at, &value, 4);
    }
}

static void run_shader(const char *path, unsigned count, uint64_t seed)
{
    size_t size = 0;
    uint8_t *bytes = sb_test_read_file(path, &size);
    struct sb_dxbc *dxbc = NULL;
    if (!bytes || sb_dxbc_parse_ex(bytes, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &dxbc, NULL) !=
                      SB_SUCCESS) {
        free(bytes);
        return;
    }
    const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'));
    size_t from = part ? (size_t)part->data_offset : 0, part_size = part ? part->size : 0;
    sb_dxbc_destroy(dxbc);
    compare(path, bytes, size, true);
    uint8_t *copy = malloc(size);
    for (unsigned k = 0; copy && part_size && k < count; k++) {
        rng_state = seed * 0x9E3779B97F4A7C15ull + k + 1;
        memcpy(copy, bytes, size);
        mutate(copy, from, part_size);
        compare(path, copy, size, false);
    }
    free(copy);
    free(bytes);
}

static int run_corpus(const char *corpus, unsigned count)
{
    char manifest[4400], dir[4200];
    snprintf(dir, sizeof(dir), "%s/dxbc", corpus);
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir);
    FILE *f = fopen(manifest, "r");
    if (!f) {
        printf("SKIPPED: corpus not found at %s\n", corpus);
        return 77;
    }
    static char line[8192];
    uint64_t seed = 0;
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\t\r\n")] = 0;
        if (!line[0])
            continue;
        char path[12600];
        snprintf(path, sizeof(path), "%s/%s", dir, line);
        run_shader(path, count, ++seed);
    }
    fclose(f);
    printf("fused vs general (corpus): %llu containers compared, %llu lowered, %u differences\n",
           compared, lowered, failures);
    return failures || lowered == 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--built"))
        return run_built_programs();
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: test_ir_fused --built | CORPUS_DIR [MUTANTS_PER_SHADER]\n");
        return 1;
    }
    return run_corpus(argv[1], argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 8);
}
