/* SPDX-License-Identifier: MIT */
/*
 * Census of the DXIL front end over the corpus (CORPUS/dxil/MANIFEST.tsv):
 * every file through sb_translate; each translation checked by SPIRV-Tools
 * (an invalid module fails the test: the front end must refuse, never
 * translate wrongly); refusals counted by reason (the message with its
 * numbers folded to N), the ten most common printed. Prints the counts; no
 * share of translated programs is required yet. SKIPPED without the corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_list.h"
#include "refusal_tally.h"
#include "shaderbridge/translate.h"

struct census {
    uint32_t files, translated, refused, invalid_spirv;
    struct refusal_tally reasons;
};

static void translate_one(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    c->files++;
    struct sb_translation *t = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (!bytes) {
        refusal_tally_add(&c->reasons, NULL, "unreadable file");
        c->refused++;
    } else if (sb_translate(bytes, size, NULL, &t, &err) != SB_SUCCESS) {
        refusal_tally_add(&c->reasons, NULL, err.message);
        c->refused++;
    } else if (sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) !=
               SB_SUCCESS) {
        fprintf(stderr, "%s: invalid SPIR-V: %s\n", relative, err.message);
        c->invalid_spirv++;
    } else {
        c->translated++;
    }
    sb_translation_destroy(t);
    free(bytes);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    static struct census c;
    if (corpus_manifest_each(argv[1], "dxil", translate_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", argv[1]);
        return 77;
    }
    refusal_tally_sort(&c.reasons);
    printf("dxil_front_corpus: %u files: %u translated (spirv-val clean), %u refused, %u invalid "
           "SPIR-V\n", c.files, c.translated, c.refused, c.invalid_spirv);
    refusal_tally_print(&c.reasons, 10);
    return c.invalid_spirv || c.files != c.translated + c.refused + c.invalid_spirv ? 1 : 0;
}
