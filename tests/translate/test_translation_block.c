/* SPDX-License-Identifier: MIT */
/*
 * The translation's one block (translator/src/translation_block.c): each array of a
 * layout gets its own aligned, non-overlapping part in layout order, an empty array is
 * NULL, the string area takes exactly the bytes counted and refuses more, sizes that
 * overflow are refused, and what is attached later (optimised words, a text target's
 * output) goes with sb_translation_destroy() (the sanitizer build checks the frees).
 * Exit 0 pass, 1 failure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "translation_block.h"

#define ALIGN _Alignof(max_align_t)

static uintptr_t at(const void *p)
{
    return (uintptr_t)p;
}

static void check_layout(void)
{
    const struct sb_translation_layout layout = {
        .word_count = 5, .binding_count = 2, .input_count = 1, .output_count = 0,
        .builtin_input_count = 3, .builtin_output_count = 0, .origin_count = 1, .string_bytes = 10,
    };
    struct sb_translation *t = sb_translation_block_create(&layout);
    CHECK(t != NULL, "a small layout is refused");
    if (!t)
        return;
    CHECK(t->word_count == 5 && t->binding_count == 2 && t->input_count == 1 && t->output_count == 0 &&
              t->builtin_input_count == 3 && t->builtin_output_count == 0 && t->capability_origin_count == 1,
          "counts %zu %u %u %u %u %u %u", t->word_count, t->binding_count, t->input_count,
          t->output_count, t->builtin_input_count, t->builtin_output_count, t->capability_origin_count);
    CHECK(t->outputs == NULL && t->builtin_outputs == NULL, "empty arrays are not NULL");
    CHECK(t->text == NULL && t->target_bindings == NULL && t->entry_point == NULL, "not zeroed");
    /* In layout order, each part past the end of the one before, each aligned. */
    const void *parts[] = { t, t->words, t->bindings, t->inputs, t->builtin_inputs, t->capability_origins };
    const size_t ends[] = { sizeof(*t), 5 * sizeof(uint32_t), 2 * sizeof(struct sb_translated_binding),
                            sizeof(struct sb_translated_interface), 3 * sizeof(uint32_t),
                            sizeof(struct sb_capability_origin) };
    for (size_t i = 1; i < sizeof(parts) / sizeof(parts[0]); i++) {
        CHECK(parts[i] && at(parts[i]) % ALIGN == 0, "part %zu at %p is not aligned to %zu", i,
              parts[i], (size_t)ALIGN);
        CHECK(at(parts[i]) >= at(parts[i - 1]) + ends[i - 1], "part %zu overlaps part %zu", i, i - 1);
    }
    /* Every byte of every part is the caller's to write (ASan checks the bounds). */
    memset((void *)t->words, 0xAB, 5 * sizeof(uint32_t));
    memset((void *)t->bindings, 0, 2 * sizeof(struct sb_translated_binding));
    memset((void *)t->inputs, 0, sizeof(struct sb_translated_interface));
    memset((void *)t->builtin_inputs, 0, 3 * sizeof(uint32_t));
    memset((void *)t->capability_origins, 0, sizeof(struct sb_capability_origin));
    /* 10 bytes of strings: "abcd" and "efgh" with their terminators, nothing more. */
    const char *a = sb_translation_block_string(t, "abcd");
    const char *b = sb_translation_block_string(t, "efgh");
    CHECK(a && !strcmp(a, "abcd") && b && !strcmp(b, "efgh") && b == a + 5,
          "strings not copied back to back");
    CHECK(a && at(a) >= at(t->capability_origins) + sizeof(struct sb_capability_origin),
          "the string area overlaps the origins");
    CHECK(sb_translation_block_string(t, "") == NULL, "a string past the counted bytes was taken");
    CHECK(sb_translation_block_string(t, NULL) == NULL, "NULL copied");
    CHECK(sb_translation_string_bytes("abcd") == 5 && sb_translation_string_bytes(NULL) == 0,
          "string bytes %zu %zu", sb_translation_string_bytes("abcd"), sb_translation_string_bytes(NULL));
    /* Attached later: freed with the translation. */
    uint32_t *optimised = malloc(3 * sizeof(uint32_t));
    char *text = malloc(4);
    if (optimised && text) {
        sb_translation_block_replace_words(t, optimised, 3);
        CHECK(t->words == optimised && t->word_count == 3, "words not replaced");
        uint32_t *again = malloc(sizeof(uint32_t));
        if (again) /* a second replacement frees the first */
            sb_translation_block_replace_words(t, again, 1);
        memcpy(text, "abc", 4);
        t->text = text;
        t->text_size = 3;
    } else {
        free(optimised);
        free(text);
    }
    sb_translation_block_destroy(t);
}

static void check_edges(void)
{
    const struct sb_translation_layout empty = { 0 };
    struct sb_translation *t = sb_translation_block_create(&empty);
    CHECK(t && !t->words && !t->bindings && !t->inputs && !t->capability_origins && t->word_count == 0,
          "an empty layout");
    if (t)
        CHECK(sb_translation_block_string(t, "") == NULL, "a string taken without room");
    sb_translation_block_destroy(t);
    const struct sb_translation_layout huge = { .word_count = SIZE_MAX / 2 };
    CHECK(sb_translation_block_create(&huge) == NULL, "an overflowing layout was not refused");
    const struct sb_translation_layout huge_strings = { .word_count = 1, .string_bytes = SIZE_MAX - 8 };
    CHECK(sb_translation_block_create(&huge_strings) == NULL, "overflowing strings were not refused");
    sb_translation_block_destroy(NULL);
}

int main(void)
{
    check_layout();
    check_edges();
    printf("translation block: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
