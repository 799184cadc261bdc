/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the SM4/5 token decoder and the fxc-syntax
 * disassembler (../shared/docs/sm4-tokens.md §1-§9). The input bytes are decoded
 * twice:
 *   - directly as a SHDR/SHEX token stream with sb_sm4_decode(), at a base
 *     offset taken from the first input byte (so one file reproduces a run
 *     and offsets other than 0 are exercised);
 *   - when they parse as a DirectX Container, through
 *     sb_sm4_decode_container() and, for its SHEX/SHDR part, through
 *     sb_sm4_decode() at the part's file offset.
 * A decoded program is disassembled (flags from the input too) and freed.
 * Every failure must come with a well-formed error: the returned negative
 * code, a known enum member, an offset within [base, base + size], a
 * terminated non-empty message; check_error() aborts otherwise, which the
 * fuzzer and the replay ctest report as a crash.
 *
 * Built with clang as a fuzzer (SB_BUILD_FUZZERS) and, with replay_main.c,
 * as fuzz_sm4_replay, which ctest runs over samples/ and the corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const char *stage, const struct sb_error *error, enum sb_result result,
                        uint64_t base, size_t size)
{
    const char *problem = NULL;
    if (result >= 0)
        problem = "failure code is not negative";
    else if (error->code != result)
        problem = "error code differs from the returned code";
    else if (!strcmp(sb_result_name(result), "SB_RESULT_UNKNOWN"))
        problem = "error code is not a member of enum sb_result";
    else if (error->offset < base || error->offset - base > size)
        problem = "error offset lies outside [base, base + size]";
    else if (error->message[0] == 0 || !memchr(error->message, 0, sizeof(error->message)))
        problem = "error message is empty or unterminated";
    if (problem) {
        fprintf(stderr, "%s: malformed error (%s): code %d offset %llu base %llu size %zu "
                "message '%.*s'\n", stage, problem, (int)result,
                (unsigned long long)error->offset, (unsigned long long)base, size,
                (int)sizeof(error->message), error->message);
        abort();
    }
}

/* Disassembles a decoded program and checks the text is a NUL-terminated string. */
static void disassemble(const struct sb_sm4_program *program, const struct sb_dxbc *container,
                        uint32_t flags, uint64_t base, size_t size)
{
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    char *text = NULL;
    enum sb_result result = sb_sm4_disassemble(program, container, flags, &text, &error);
    if (result == SB_SUCCESS) {
        if (!text || !text[0]) {
            fprintf(stderr, "sb_sm4_disassemble succeeded without text\n");
            abort();
        }
        /* strlen walks the whole buffer, so ASan sees a missing terminator. */
        volatile size_t length = strlen(text);
        (void)length;
    } else {
        check_error("sb_sm4_disassemble", &error, result, base, size);
    }
    sb_sm4_text_free(text);
}

static void decode_tokens(const uint8_t *data, size_t size, uint64_t base,
                          const struct sb_dxbc *container, uint32_t flags)
{
    struct sb_sm4_program *program = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_sm4_decode(data, size, base, &program, &error);
    if (result != SB_SUCCESS) {
        check_error("sb_sm4_decode", &error, result, base, size);
        if (program) {
            fprintf(stderr, "sb_sm4_decode failed but returned a program\n");
            abort();
        }
        return;
    }
    if (!program) {
        fprintf(stderr, "sb_sm4_decode succeeded without a program\n");
        abort();
    }
    /* The disassembler reads the container only for the header block. */
    disassemble(program, container, flags, 0, container ? container->size : size);
    sb_sm4_program_destroy(program);
}

static void decode_container(const uint8_t *data, size_t size, uint32_t flags)
{
    struct sb_dxbc *dxbc = NULL;
    if (sb_dxbc_parse(data, size, &dxbc, NULL) != SB_SUCCESS)
        return;
    struct sb_sm4_program *program = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_sm4_decode_container(dxbc, &program, &error);
    if (result == SB_SUCCESS) {
        disassemble(program, dxbc, flags, 0, dxbc->size);
        sb_sm4_program_destroy(program);
    } else {
        check_error("sb_sm4_decode_container", &error, result, 0, dxbc->size);
    }
    const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'));
    if (part)
        decode_tokens(part->data, part->size, part->data_offset, dxbc, flags);
    sb_dxbc_destroy(dxbc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Options from the input itself, so a saved input reproduces the run. */
    uint64_t base = size ? (uint64_t)(data[0] & 0x0f) * 4u : 0;
    uint32_t flags = size > 1 ? (data[1] & (SB_SM4_DISASM_OFFSETS | SB_SM4_DISASM_NO_HEADER)) : 0;
    decode_tokens(data, size, base, NULL, flags | SB_SM4_DISASM_NO_HEADER);
    decode_container(data, size, flags);
    return 0;
}
