/* SPDX-License-Identifier: MIT */
/*
 * Census of the DXIL front end over the corpus (CORPUS/dxil/MANIFEST.tsv):
 * every file through sb_translate; each translation checked by SPIRV-Tools
 * (an invalid module fails the test: the front end must refuse, never
 * translate wrongly); refusals counted by reason (the message with its
 * numbers folded to N), the ten most common printed. Prints the counts; no
 * share of translated programs is required yet. SKIPPED without the corpus.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_list.h"
#include "shaderbridge/translate.h"

#define MAX_REASONS 512

struct reason {
    char text[96];
    uint32_t count;
};

struct census {
    uint32_t files, translated, refused, invalid_spirv;
    uint32_t reason_count;
    struct reason reasons[MAX_REASONS];
};

/* The message with digit runs folded to N, so the same gap counts once. */
static void fold(const char *message, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = message; *p && n + 1 < size; p++) {
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[1]))
                p++;
            out[n++] = 'N';
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
}

static void count_reason(struct census *c, const char *message)
{
    char text[96];
    fold(message, text, sizeof(text));
    for (uint32_t i = 0; i < c->reason_count; i++)
        if (!strcmp(c->reasons[i].text, text)) {
            c->reasons[i].count++;
            return;
        }
    if (c->reason_count < MAX_REASONS) {
        struct reason *r = &c->reasons[c->reason_count++];
        memcpy(r->text, text, sizeof(text));
        r->count = 1;
    }
}

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
        count_reason(c, "unreadable file");
        c->refused++;
    } else if (sb_translate(bytes, size, NULL, &t, &err) != SB_SUCCESS) {
        count_reason(c, err.message);
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

static int by_count(const void *a, const void *b)
{
    const struct reason *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : strcmp(x->text, y->text);
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
    qsort(c.reasons, c.reason_count, sizeof(c.reasons[0]), by_count);
    printf("dxil_front_corpus: %u files: %u translated (spirv-val clean), %u refused, %u invalid "
           "SPIR-V\n", c.files, c.translated, c.refused, c.invalid_spirv);
    for (uint32_t i = 0; i < c.reason_count && i < 10; i++)
        printf("  %4u  %s\n", c.reasons[i].count, c.reasons[i].text);
    return c.invalid_spirv || c.files != c.translated + c.refused + c.invalid_spirv ? 1 : 0;
}
