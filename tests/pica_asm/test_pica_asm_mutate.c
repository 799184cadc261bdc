/* SPDX-License-Identifier: MIT */
/*
 * Robustness of the PICA200 assembler and disassembler on deterministic
 * mutations: the own programs with bytes replaced, lines dropped or
 * doubled; SHBIN files (own programs, samples, the corpus when present)
 * with random code words, flipped bits and descriptor changes. Every
 * result goes through the fuzz targets' invariant (tests/fuzz/
 * fuzz_pica_check.c): no crash, positioned errors, code words that survive
 * disassemble -> reassemble. Run it in the ASan build for the sanitizer
 * verdict.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_pica_check.h"
#include "pica_test_util.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
/* Mutants of each file (--rounds; the sanitizer build passes fewer: each assembly there
 * maps and poisons the assembler's 850 KB state afresh, about 60x the plain build's time). */
static int rounds = 1500;

static uint32_t next(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 32);
}

static const char *const tokens[] = {
    "r", "c", "v", "o", "b", "i", "[", "]", "a0", "lcnt", "+", "-", ".", ",", ":", ";", "\n",
    "(", ")", ".end", ".proc x", "ifc cmp.x", "for i0", ".else", "endif", "99", "-1",
    "0x7FFFFFFF", "!", "&&", ".xyzw", "call main", "jmpu !b1, l", "l:", ".constfa q[]",
    ".gsh fixed c0 c1 4", ".out - dummy o15", ".dvle", ".nodvle", "\0", "madi",
};

static unsigned text_runs, text_ok;

static void mutate_text(const char *text, size_t length)
{
    char *buffer = malloc(length + 256);
    if (!buffer)
        return;
    for (int round = 0; round < rounds; ++round) {
        size_t size = length;
        memcpy(buffer, text, length);
        int edits = 1 + (int)(next() % 4);
        for (int e = 0; e < edits && size > 0; ++e) {
            size_t at = next() % size;
            const char *token = tokens[next() % (sizeof(tokens) / sizeof(tokens[0]))];
            size_t tlen = token[0] ? strlen(token) : 1;
            switch (next() % 3) {
            case 0: /* replace bytes by a token */
                if (at + tlen <= size)
                    memcpy(buffer + at, token, tlen);
                break;
            case 1: /* insert a token */
                if (size + tlen < length + 200) {
                    memmove(buffer + at + tlen, buffer + at, size - at);
                    memcpy(buffer + at, token, tlen);
                    size += tlen;
                }
                break;
            default: { /* delete a run */
                size_t n = 1 + next() % 40;
                if (at + n > size)
                    n = size - at;
                memmove(buffer + at, buffer + at + n, size - at - n);
                size -= n;
                break;
            }
            }
        }
        uint8_t *bytes = NULL;
        size_t out = 0;
        struct sb_pica_asm_error error;
        text_runs++;
        if (sb_pica_assemble(buffer, size, &bytes, &out, &error) == SB_SUCCESS) {
            struct sb_shbin *shbin = NULL;
            CHECK(sb_shbin_parse(bytes, out, &shbin, NULL) == SB_SUCCESS, "assembled file parses");
            if (shbin)
                fuzz_pica_check_shbin(shbin);
            sb_shbin_destroy(shbin);
            text_ok++;
        } else {
            CHECK(error.error.message[0] && error.error.code < 0, "error has code and message");
        }
        sb_pica_free(bytes);
    }
    free(buffer);
}

static unsigned binary_runs, binary_parsed;

static void mutate_binary(const uint8_t *bytes, size_t size)
{
    struct sb_shbin *original = NULL;
    if (sb_shbin_parse(bytes, size, &original, NULL) != SB_SUCCESS)
        return;
    size_t code = original->program.file_offset + original->program.code_offset;
    size_t words = original->program.code_word_count;
    size_t desc = original->program.file_offset + original->program.operand_descriptor_offset;
    size_t descs = original->program.operand_descriptor_count;
    sb_shbin_destroy(original);
    uint8_t *copy = malloc(size);
    if (!copy || words == 0) {
        free(copy);
        return;
    }
    for (int round = 0; round < rounds; ++round) {
        memcpy(copy, bytes, size);
        int edits = 1 + (int)(next() % 3);
        for (int e = 0; e < edits; ++e) {
            uint32_t r = next();
            size_t w = code + 4 * (next() % words);
            switch (r % 4) {
            case 0: /* a random word with a random opcode */
                for (int k = 0; k < 4; ++k)
                    copy[w + (size_t)k] = (uint8_t)next();
                break;
            case 1: /* one flipped bit in a word */
                copy[w + (next() % 4)] ^= (uint8_t)(1u << (next() % 8));
                break;
            case 2: /* a descriptor bit */
                if (descs)
                    copy[desc + 8 * (next() % descs) + (next() % 4)] ^= (uint8_t)(1u << (next() % 8));
                break;
            default: /* a flow-control word with random fields */
                copy[w + 3] = (uint8_t)((0x20 + next() % 14) << 2 | (next() & 3));
                break;
            }
        }
        struct sb_shbin *shbin = NULL;
        binary_runs++;
        if (sb_shbin_parse(copy, size, &shbin, NULL) == SB_SUCCESS) {
            fuzz_pica_check_shbin(shbin);
            binary_parsed++;
        }
        sb_shbin_destroy(shbin);
    }
    free(copy);
}

static void each_file(const char *dir, const char *suffix, void (*fn)(const uint8_t *, size_t))
{
    DIR *listing = opendir(dir);
    if (!listing)
        return;
    struct dirent *entry;
    while ((entry = readdir(listing))) {
        size_t len = strlen(entry->d_name), slen = strlen(suffix);
        if (len <= slen || strcmp(entry->d_name + len - slen, suffix))
            continue;
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name);
        size_t size = 0;
        uint8_t *bytes = pica_test_read(path, &size);
        if (bytes)
            fn(bytes, size);
        free(bytes);
    }
    closedir(listing);
}

static void text_file(const uint8_t *bytes, size_t size)
{
    mutate_text((const char *)bytes, size);
    struct sb_shbin *shbin = pica_test_assemble("program", (const char *)bytes);
    if (!shbin)
        return;
    /* the assembled program as a binary seed */
    size_t out = 0;
    uint8_t *again = NULL;
    struct sb_pica_asm_error error;
    if (sb_pica_assemble((const char *)bytes, size, &again, &out, &error) == SB_SUCCESS)
        mutate_binary(again, out);
    sb_pica_free(again);
    sb_shbin_destroy(shbin);
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[argc - 2], "--rounds")) {
        rounds = atoi(argv[argc - 1]);
        argc -= 2;
    }
    if (argc < 3 || rounds < 1 || rounds > 1500) {
        fprintf(stderr, "usage: test_pica_asm_mutate PROGRAM_DIR SAMPLES_DIR [CORPUS_DIR] "
                        "[--rounds 1..1500]\n");
        return 2;
    }
    each_file(argv[1], ".pica", text_file);
    each_file(argv[2], ".shbin", mutate_binary);
    if (argc > 3) {
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s/pica/bin", argv[3]);
        each_file(dir, ".shbin", mutate_binary);
    }
    /* At least four program files and six SHBINs were mutated in full. */
    CHECK(text_runs >= 4u * (unsigned)rounds && text_ok > 0, "text runs %u, assembled %u",
          text_runs, text_ok);
    CHECK(binary_runs >= 6u * (unsigned)rounds && binary_parsed > 0, "binary runs %u parsed %u",
          binary_runs, binary_parsed);
    printf("pica_asm_mutate: %u mutated texts (%u assembled), %u mutated SHBINs (%u parsed)\n",
           text_runs, text_ok, binary_runs, binary_parsed);
    if (pica_test_failures) {
        fprintf(stderr, "%d check(s) failed\n", pica_test_failures);
        return 1;
    }
    return 0;
}
