/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the PICA200 decoder, encoder and assembler: the worked
 * example of ../shared/docs/pica200.md §12.10 word for word, the other corpus
 * encodings listed there, hand-computed encodings of every format (bit
 * layouts of §4), decode -> encode over many pseudo-random words, and
 * assembler errors with their exact line:column.
 */
#include <stdlib.h>
#include <string.h>

#include "pica_test_util.h"

/* §12.10: the old-picasso simple_tri vertex shader, rebuilt from source. */
static void test_worked_example(void)
{
    static const char source[] =
        ".fvec projection[4]\n"
        ".setf c4(0.0, 1.0, -2.0, -100.0)\n"
        ".out - position o0\n"
        ".out - color o1\n"
        ".proc main\n"
        "    mov r0.xyz, v0.xyzz\n"
        "    mov r0.w, c4.yyyy\n"
        "    dp4 o0.x, projection[0], r0\n"
        "    dp4 o0.y, projection[1], r0\n"
        "    dp4 o0.z, projection[2], r0\n"
        "    dp4 o0.w, projection[3], r0\n"
        "    mov r0.xyz, c4.xxxx\n"
        "    mov r0.w, c4.yyyy\n"
        "    ex2 r0.y, r0.x\n"
        "    mov o1, r0\n"
        "    end\n"
        ".end\n";
    static const uint32_t words[11] = {0x4E000000, 0x4E024001, 0x08020802, 0x08021803,
                                       0x08022804, 0x08023805, 0x4E024006, 0x4E024001,
                                       0x16010003, 0x4C210007, 0x88000000};
    static const uint32_t descriptors[8] = {0x0000034E, 0x00000AA1, 0x0006C368, 0x0006C364,
                                            0x0006C362, 0x0006C361, 0x0000000E, 0x0000036F};
    struct sb_shbin *shbin = pica_test_assemble("worked example", source);
    CHECK(shbin != NULL, "worked example does not assemble");
    if (!shbin)
        return;
    const struct sb_shbin_program *p = &shbin->program;
    CHECK(p->code_word_count == 11, "code words %u", p->code_word_count);
    for (uint32_t i = 0; i < 11 && i < p->code_word_count; ++i)
        CHECK(p->code[i] == words[i], "word %u: 0x%08X, want 0x%08X", i, p->code[i], words[i]);
    CHECK(p->operand_descriptor_count == 8, "descriptors %u", p->operand_descriptor_count);
    for (uint32_t i = 0; i < 8 && i < p->operand_descriptor_count; ++i)
        CHECK(p->operand_descriptors[i].word == descriptors[i], "descriptor %u: 0x%08X", i,
              p->operand_descriptors[i].word);
    const struct sb_shbin_dvle *dvle = &shbin->dvles[0];
    CHECK(dvle->constant_count == 1 && dvle->constants[0].register_index == 4 &&
              dvle->constants[0].float24[1] == 0x3F0000 &&
              dvle->constants[0].float24[2] == 0xC00000 &&
              dvle->constants[0].float24[3] == 0xC59000,
          "constant c4");
    CHECK(dvle->output_count == 2 && dvle->outputs[1].type == SB_SHBIN_OUTPUT_COLOR &&
              dvle->outputs[1].register_index == 1 && dvle->outputs[1].mask == 0xF,
          "outputs");
    CHECK(dvle->uniform_count == 1 && !strcmp(dvle->uniforms[0].name, "projection") &&
              dvle->uniforms[0].first_register == 0x10 && dvle->uniforms[0].last_register == 0x13,
          "uniform projection");
    CHECK(dvle->main_address == 0 && dvle->end_address == 11, "entry %u..%u", dvle->main_address,
          dvle->end_address);
    /* decoded fields of word 1: MOV r0.w, c4.yyyy */
    struct sb_pica_instruction in;
    CHECK(sb_pica_decode_shbin(shbin, NULL, NULL) == SB_ERROR_INVALID_ARGUMENT, "NULL output");
    CHECK(sb_pica_decode(words[1], descriptors, 8, &in, NULL) == SB_SUCCESS, "decode");
    CHECK(in.opcode == SB_PICA_OP_MOV && in.format == SB_PICA_FORMAT_1U &&
              in.dst.file == SB_PICA_REG_TEMP && in.dst.index == 0 && in.dst.mask == 0x1 &&
              in.src[0].file == SB_PICA_REG_FLOAT && in.src[0].index == 4 &&
              in.src[0].swizzle == 0x55 && in.src[0].component[0] == 1 && !in.src[0].negate &&
              in.descriptor_index == 1,
          "MOV r0.w, c4.yyyy fields");
    sb_shbin_destroy(shbin);
}

/* The other encodings §12.10 lists. */
static void test_listed_encodings(void)
{
    uint32_t desc[8] = {0};
    desc[1] = (0x05u << 5) | (0x1Bu << 14); /* src1 .xxyy, src2 .xyzw */
    desc[6] = 0x0000000F | (1u << 4) | (0x1Bu << 5);
    desc[7] = 0xF | (0x1Bu << 5) | (0x1Bu << 14) | (0x1Bu << 23);
    struct sb_pica_instruction in;
    uint32_t word;
    CHECK(sb_pica_decode(0xBDA7FA01, desc, 8, &in, NULL) == SB_SUCCESS, "cmp decode");
    CHECK(in.opcode == SB_PICA_OP_CMP && in.raw_opcode == 0x2F && in.compare_x == 5 &&
              in.compare_y == 5 && in.src[0].file == SB_PICA_REG_FLOAT && in.src[0].index == 95 &&
              in.src[1].file == SB_PICA_REG_TEMP && in.src[1].index == 4 &&
              in.descriptor_index == 1 && in.src[0].swizzle == 0x05,
          "CMP c95.xxyy, ge, ge, r4");
    CHECK(sb_pica_encode(&in, &word, NULL) == SB_SUCCESS && word == 0xBDA7FA01, "cmp encode");
    CHECK(sb_pica_decode(0xB3807C00, NULL, 0, &in, NULL) == SB_SUCCESS, "jmpc decode");
    CHECK(in.opcode == SB_PICA_OP_JMPC && in.condition == SB_PICA_CONDITION_X && in.refx &&
              in.refy && in.flow_dest == 31 && in.flow_num == 0,
          "JMPC x, 31");
    CHECK(sb_pica_decode(0xF124B627, desc, 8, &in, NULL) == SB_SUCCESS, "mad decode");
    CHECK(in.opcode == SB_PICA_OP_MAD && in.format == SB_PICA_FORMAT_5 && in.dst.index == 1 &&
              in.src[0].index == 2 && in.src[1].file == SB_PICA_REG_FLOAT && in.src[1].index == 13 &&
              in.src[2].file == SB_PICA_REG_TEMP && in.src[2].index == 1 && in.descriptor_index == 7,
          "MAD r1, r2, c13, r1");
    CHECK(sb_pica_decode(0x4C611006, desc, 8, &in, NULL) == SB_SUCCESS, "mov decode");
    CHECK(in.dst.file == SB_PICA_REG_OUTPUT && in.dst.index == 3 && in.src[0].negate &&
              in.src[0].file == SB_PICA_REG_TEMP && in.src[0].index == 1,
          "MOV o3, -r1");
    char text[128];
    sb_pica_format_instruction(&in, text, sizeof(text));
    CHECK(!strcmp(text, "mov o3, -r1"), "formatted '%s'", text);
    /* structured errors */
    struct sb_error error = {0};
    CHECK(sb_pica_decode(0x10u << 26, desc, 8, &in, &error) == SB_ERROR_BAD_VALUE,
          "unused opcode 0x10");
    CHECK(strstr(error.message, "0x10") != NULL, "message '%s'", error.message);
    CHECK(sb_pica_decode(0x4C611006, desc, 6, &in, &error) == SB_ERROR_BAD_OFFSET,
          "descriptor 6 of 6");
    uint32_t code[2] = {0x88000000, 0x7C000000};
    struct sb_pica_instruction out[2];
    CHECK(sb_pica_decode_program(code, 2, NULL, 0, out, &error) == SB_ERROR_BAD_VALUE &&
              error.instr == 1 && error.offset == 4,
          "program error at word 1 (instr %u offset %u)", error.instr, (unsigned)error.offset);
}

/* Assembles one instruction after a fixed prologue and returns its word. */
static uint32_t one_word(const char *instruction, uint32_t *descriptor)
{
    char source[512];
    snprintf(source, sizeof(source),
             ".ivec ints[4]\n.bool flags[16]\n.proc main\n    %s\n    nop\n    end\n.end\n"
             ".proc sub\n    nop\n    nop\n.end\n",
             instruction);
    struct sb_shbin *shbin = pica_test_assemble(instruction, source);
    uint32_t word = 0xFFFFFFFF;
    if (shbin) {
        word = shbin->program.code[0];
        if (descriptor)
            *descriptor = shbin->program.operand_descriptor_count
                              ? shbin->program.operand_descriptors[0].word
                              : 0;
        sb_shbin_destroy(shbin);
    }
    return word;
}

/* Encodings computed by hand from the bit layouts of §4 and §5. */
static void test_hand_encodings(void)
{
    static const struct {
        const char *text;
        uint32_t word;
        uint32_t descriptor; /* UINT32_MAX: none */
    } cases[] = {
        /* MAD: 111 | dst r1 (0x11) << 24 | src1 r2 << 17 | c13 (0x2D) << 10 | r1 << 5 */
        {"mad r1, r2, c13, r1", 0xF124B620, 0x0D86C36F},
        /* MADI: 110 | r3 << 24 | v1 << 17 | r2 << 12 | c5 (0x25) << 5 | idx a0.y << 22 */
        {"mad r3.x, v1, r2, c5[a1]", 0xD38324A0, 0x0D86C368},
        /* DPHI: op 0x18 | dst o2 | src1 r4 << 14 | c10 (0x2A) << 7 */
        {"dph o2, r4, c10", 0x60451500, 0x0006C36F},
        /* ADD with a0.x on c20: op 0 | r5 << 21 | 1 << 19 | c20 (0x34) << 12 | v3 << 7 */
        {"add r5.xy, c20[a0], -v3.wzyx", 0x02AB4180, 0x0039236C},
        /* CMP: op 0x2E | CMPX lt (2) << 24 | CMPY ge (5) << 21 | r0 << 12 | r1 << 7 */
        {"cmp r0, lt, ge, r1", 0xBAA10880, 0x0006C360},
        /* MOVA a1: mask y (4), src c7.yyyy */
        {"mova a1, c7.y", 0x48027000, 0x00000AA4},
        /* IFU b3, else at 2, 1 instruction: op 0x27 | 3 << 22 | 2 << 10 | 1 */
        {"ifu flags[3]\n    nop\n    .else\n    nop\n    .end", 0x9CC00801, UINT32_MAX},
        /* IFC !cmp.x && cmp.y without else: REFX 0, REFY 1, AND, dst 2 */
        {"ifc !cmp.x && cmp.y\n    nop\n    .end", 0xA1400800, UINT32_MAX},
        /* LOOP i2, body ends at word 1: op 0x29 | 2 << 22 | 1 << 10 */
        {"for ints[2]\n    nop\n    .end", 0xA4800400, UINT32_MAX},
        /* CALL sub (starts at 3, 2 words): op 0x24 | 3 << 10 | 2 */
        {"call sub", 0x90000C02, UINT32_MAX},
        /* CALLU b7 sub */
        {"callu flags[7], sub", 0x99C00C02, UINT32_MAX},
        /* JMPU !b1 to word 1: NUM bit 0 inverts */
        {"jmpu !flags[1], there\nthere:", 0xB4400401, UINT32_MAX},
        /* BREAKC cmp.y || !cmp.x (OR) */
        {"breakc !cmp.x || cmp.y", 0x8D000000, UINT32_MAX},
        /* SETEMIT 2, prim inv: op 0x2B | 2 << 24 | 1 << 23 | 1 << 22 */
        {"setemit 2, prim inv", 0xAEC00000, UINT32_MAX},
        {"emit", 0xA8000000, UINT32_MAX},
        {"break", 0x80000000, UINT32_MAX},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        uint32_t descriptor = 0;
        uint32_t word = one_word(cases[i].text, &descriptor);
        CHECK(word == cases[i].word, "'%s' -> 0x%08X, want 0x%08X", cases[i].text, word,
              cases[i].word);
        if (cases[i].descriptor != UINT32_MAX)
            CHECK(descriptor == cases[i].descriptor, "'%s' descriptor 0x%08X, want 0x%08X",
                  cases[i].text, descriptor, cases[i].descriptor);
    }
}

/* Every valid word decodes and encodes back to itself (descriptor table full). */
static void test_random_words(void)
{
    uint32_t desc[128];
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 128; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        desc[i] = (uint32_t)(seed >> 33) & 0x7FFFFFFFu;
    }
    uint32_t valid = 0, invalid = 0, mismatched = 0, descriptor_mismatch = 0;
    for (int i = 0; i < 300000; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t word = (uint32_t)(seed >> 32);
        struct sb_pica_instruction in;
        if (sb_pica_decode(word, desc, 128, &in, NULL) != SB_SUCCESS) {
            enum sb_pica_opcode op;
            CHECK(!sb_pica_fold_opcode(word >> 26, &op), "0x%08X rejected", word);
            invalid++;
            continue;
        }
        valid++;
        uint32_t again = 0;
        if (sb_pica_encode(&in, &again, NULL) != SB_SUCCESS || again != word)
            mismatched++;
        /* the descriptor bits the instruction uses are rebuilt exactly */
        uint32_t used = 0xF;
        for (uint32_t n = 0; n < in.source_count; ++n)
            used |= 0x1FFu << (4 + 9 * n);
        if (in.has_descriptor && (sb_pica_encode_descriptor(&in) & used) != (in.descriptor & used))
            descriptor_mismatch++;
    }
    CHECK(mismatched == 0, "%u of %u words re-encode differently", mismatched, valid);
    CHECK(descriptor_mismatch == 0, "%u descriptors differ", descriptor_mismatch);
    CHECK(valid > 200000 && invalid > 20000, "valid %u invalid %u", valid, invalid);
    printf("random words: %u valid re-encoded identically, %u invalid rejected\n", valid, invalid);
}

static void expect_error(const char *source, uint32_t line, uint32_t column, const char *needle)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    struct sb_pica_asm_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_pica_assemble(source, strlen(source), &bytes, &size, &error);
    CHECK(result == SB_ERROR_ASM_SYNTAX && bytes == NULL, "'%s' assembled", needle);
    CHECK(error.line == line && error.column == column, "'%s': got %u:%u, want %u:%u (%s)", needle,
          error.line, error.column, line, column, error.error.message);
    CHECK(strstr(error.error.message, needle) != NULL, "message '%s' lacks '%s'",
          error.error.message, needle);
    sb_pica_free(bytes);
}

static void test_errors(void)
{
    expect_error(".proc main\n    foo r0, r1\n.end\n", 2, 5, "unknown instruction 'foo'");
    expect_error(".proc main\n    mov r16, r0\n.end\n", 2, 9, "out of range");
    expect_error(".proc main\n    mov r0, c96\n.end\n", 2, 13, "out of range");
    expect_error(".proc main\n    mov r0, q1\n.end\n", 2, 13, "unknown register or alias 'q1'");
    expect_error(".proc main\n    add r0, c1, c2\n.end\n", 2, 17, "float uniform");
    expect_error(".proc main\n    mov r0.xk, r1\n.end\n", 2, 11, "invalid swizzle");
    expect_error(".proc main\n    mov r0, r1\n", 1, 1, "unclosed .proc");
    expect_error(".proc main\n    end\n.end\n.end\n", 4, 1, "without an open block");
    expect_error(".proc main\n    ifc cmp.x\n    nop\n    endif\n    endif\n.end\n", 5, 5,
                 "does not match");
    expect_error(".proc main\n  for i0\n    nop\n", 2, 3, "unclosed for block");
    expect_error(".proc main\n    ifu b1\n    nop\n    endloop\n.end\n", 4, 5, "does not match");
    expect_error(".proc main\n    ifc cmp.z\n.end\n", 2, 9, "invalid condition");
    expect_error(".proc main\n    jmpc cmp.x, nowhere\n    end\n.end\n", 2, 17, "undefined");
    expect_error(".entry start\n.proc main\n    end\n.end\n", 1, 8, "entry point 'start'");
    expect_error(".proc main\n    mad r0, c1, r1, r2\n.end\n", 2, 13, "float uniform");
    expect_error(".proc main\n    cmp r0, lt, zz, r1\n.end\n", 2, 17, "invalid comparison");
    expect_error(".fvec a\n.fvec a\n", 2, 7, "already used");
    expect_error(".constf k(1.0, 2.0, 3.0)\n", 1, 11, "four values");
    expect_error(".out x colour\n", 1, 8, "unknown output property");
    expect_error(".proc main\n    setemit 4\n.end\n", 2, 13, "out of range");
    expect_error(".bogus\n", 1, 1, "unknown directive");
    /* whole-file errors point at the end of the text (line 3 follows the last newline) */
    expect_error(".proc main\n.end\n", 3, 1, "has no instructions");
    expect_error(".proc other\n    end\n.end\n", 4, 1, "entry point 'main' is undefined");
    expect_error(".nodvle\n.proc main\n    end\n.end", 4, 1, "no DVLE");
    /* NUL in the middle: strlen stops, so give the length explicitly */
    static const char with_nul[] = ".proc main\n    nop\0\n.end\n";
    uint8_t *bytes = NULL;
    size_t size = 0;
    struct sb_pica_asm_error error;
    CHECK(sb_pica_assemble(with_nul, sizeof(with_nul) - 1, &bytes, &size, &error) ==
                  SB_ERROR_ASM_SYNTAX &&
              error.line == 2 && error.column == 8,
          "NUL byte at 2:8 (got %u:%u)", error.line, error.column);
    CHECK(sb_pica_assemble(NULL, 1, &bytes, &size, &error) == SB_ERROR_INVALID_ARGUMENT, "NULL");
}

int main(void)
{
    test_worked_example();
    test_listed_encodings();
    test_hand_encodings();
    test_random_words();
    test_errors();
    if (pica_test_failures) {
        fprintf(stderr, "%d check(s) failed\n", pica_test_failures);
        return 1;
    }
    printf("pica_asm_unit: all checks passed\n");
    return 0;
}
