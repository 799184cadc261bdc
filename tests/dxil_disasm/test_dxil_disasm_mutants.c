/* SPDX-License-Identifier: MIT */
/*
 * Robustness of the DXIL disassembler on mutated bitcode: the DXIL part of
 * the bundled sample and of every 5th corpus container gets 150 mutants
 * each (1-3 flipped bits, a 32-bit word of the bitcode overwritten with a
 * small number, or the bitcode cut short by a multiple of 4 bytes); every
 * mutant the bitcode reader accepts must disassemble with a listing, and
 * run under ASan/UBSan in the sanitizer build. Mutants are a pure function
 * of (file, index): a failure prints FILE #N.
 *
 * usage: test_dxil_disasm_mutants SAMPLE [CORPUS_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_list.h"
#include "cursor.h"
#include "dxil_part.h"
#include "reflect/bitcode.h"
#include "translator/dxil_disasm.h"

enum { MUTANTS_PER_FILE = 150, CORPUS_STRIDE = 5 };

struct totals {
    unsigned rows; /* manifest rows seen, for the stride */
    unsigned files, mutants, accepted;
};

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Mutant `index` of the bitcode (part bytes from `start`, `length` of them) in `part`. */
static void mutate(uint8_t *part, size_t start, size_t length, unsigned index)
{
    uint64_t state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)index * 0x100000001B3ull) ^ length;
    next_random(&state);
    unsigned kind = (unsigned)(next_random(&state) % 3);
    if (kind == 0) {
        unsigned flips = 1 + (unsigned)(next_random(&state) % 3);
        for (unsigned i = 0; i < flips; i++) {
            uint64_t bit = next_random(&state) % (length * 8);
            part[start + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
    } else if (kind == 1 && length >= 4) {
        size_t word = (size_t)(next_random(&state) % (length / 4)) * 4;
        uint32_t value = (uint32_t)(next_random(&state) % 64);
        memcpy(part + start + word, &value, 4);
    } else {
        /* Cut: the program header's bitcode size (+20) shrinks by whole words. */
        uint32_t cut = (uint32_t)(length - 4 * (1 + next_random(&state) % (length / 4)));
        memcpy(part + 20, &cut, 4);
    }
}

static void mutate_file(const char *path, struct totals *t)
{
    size_t size = 0;
    char *bytes = read_file(path, &size);
    CHECK(bytes != NULL, "%s: unreadable", path);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    const struct sb_dxbc_part *part = dxil_part_of(bytes, size, &dxbc);
    CHECK(part != NULL, "%s: no DXIL part", path);
    if (part) {
        t->files++;
        size_t start = 8 + (size_t)sb_load_u32(part->data + 16);
        size_t length = sb_load_u32(part->data + 20);
        uint8_t *copy = malloc(part->size);
        for (unsigned i = 0; copy && start + length <= part->size && length >= 8 &&
                             i < MUTANTS_PER_FILE; i++) {
            memcpy(copy, part->data, part->size);
            mutate(copy, start, length, i);
            t->mutants++;
            struct sb_bc_module *module = NULL;
            if (sb_bc_read_dxil_part(copy, part->size, part->data_offset, &module, &error) ==
                SB_SUCCESS) {
                t->accepted++;
                char *text = NULL;
                enum sb_result result = sb_dxil_disassemble_module(module, &text, &error);
                CHECK(result == SB_SUCCESS && strstr(text, "target triple = \""),
                      "%s #%u: an accepted mutant did not disassemble (%s)", path, i,
                      error.message);
                sb_dxil_text_free(text);
            }
            sb_bc_module_destroy(module);
        }
        free(copy);
    }
    sb_dxbc_destroy(dxbc);
    free(bytes);
}

/* corpus_manifest_each's visitor: every CORPUS_STRIDE-th corpus file. */
static void mutate_corpus_file(const char *path, const char *relative, void *user)
{
    (void)relative;
    struct totals *t = user;
    if (t->rows++ % CORPUS_STRIDE == 0)
        mutate_file(path, t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SAMPLE [CORPUS_DIR]\n", argv[0]);
        return 2;
    }
    struct totals t = { 0 };
    mutate_file(argv[1], &t);
    if (argc < 3 || corpus_manifest_each(argv[2], "dxil", mutate_corpus_file, &t) < 0)
        printf("dxil_disasm_mutants: corpus not found: the sample alone\n");
    /* The reader accepts some mutants (flipped operand bits mostly); without any the
     * disassembler was never reached and the test would prove nothing. */
    CHECK(t.accepted > 0, "no mutant was accepted by the reader");
    printf("dxil_disasm_mutants: %u files, %u mutants, %u accepted by the reader and "
           "disassembled\n", t.files, t.mutants, t.accepted);
    printf("dxil_disasm_mutants: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
