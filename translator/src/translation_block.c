/* SPDX-License-Identifier: MIT */
/*
 * A translation's result as one allocation (translation_block.h). It used to be the
 * struct plus one malloc per array (words, bindings, inputs, outputs, built-ins,
 * origins, strings): eight allocations and frees per translation, each a trip through
 * the allocator and, for the words of a large module, fresh pages. Every size is known
 * once the back end has built the module, so the block is carved into aligned parts
 * then, and the caller frees one pointer.
 *
 * Only what is attached after the translation (the optimiser's words, a text target's
 * source and bindings) is allocated apart, and freed here by name.
 *
 * A destroyed block of up to SPARE_LIMIT bytes is kept by its thread for the next
 * translation there that fits in it: an application translates, creates its module and
 * destroys the translation, one shader after the other, and each block was a malloc and
 * a free (perf: 3% of a corpus pass in _int_malloc and _int_free; and a block past
 * glibc's mmap threshold, the largest modules', came back as fresh pages each time, 16 of
 * a corpus pass's 20 page faults). The thread frees its spare when it exits; while it
 * waits it is poisoned under AddressSanitizer (asan_poison.h), so a translation used
 * after sb_translation_destroy() is still reported.
 */
#include "translation_block.h"

#include "asan_poison.h"
#include "thread_exit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The public struct first, so a struct sb_translation pointer is the block's start. */
struct translation_block {
    struct sb_translation pub;
    uint32_t *replaced_words; /* malloc'd words that replaced the block's own, or NULL */
    char *strings_next, *strings_end;
    size_t capacity; /* bytes of the allocation */
};

/* The largest block a thread keeps for its next translation (the largest corpus module
 * is 390 KB). */
#define SPARE_LIMIT ((size_t)1 << 20)

/* A thread's kept block; its size is kept here, as the block is poisoned while it waits. */
struct spare {
    struct translation_block *block;
    size_t capacity;
};

static _Thread_local struct spare thread_spare;
static _Thread_local bool thread_spare_registered;

/* Frees what `spare` holds (a thread's, at its exit: keep_spare registers &thread_spare). */
static void free_spare(void *pointer)
{
    struct spare *spare = pointer;
    if (spare->block)
        sb_unpoison(spare->block, spare->capacity);
    free(spare->block);
    *spare = (struct spare){ 0 };
}

/* Keeps `block` as the thread's spare when it is the larger one and within the limit
 * (and the thread can free it at exit); false when the caller frees it. */
static bool keep_spare(struct translation_block *block)
{
    size_t capacity = block->capacity;
    if (capacity > SPARE_LIMIT || (thread_spare.block && thread_spare.capacity >= capacity))
        return false;
    if (!thread_spare_registered) {
        if (!sb_at_thread_exit(free_spare, &thread_spare))
            return false;
        thread_spare_registered = true;
    }
    free_spare(&thread_spare);
    sb_poison(block, capacity);
    thread_spare = (struct spare){ block, capacity };
    return true;
}

/* The thread's spare when it holds `total` bytes (taken), else a new allocation. */
static unsigned char *take_block(size_t total, size_t *capacity)
{
    struct spare spare = thread_spare;
    if (spare.block && spare.capacity >= total) {
        thread_spare = (struct spare){ 0 };
        sb_unpoison(spare.block, spare.capacity);
        *capacity = spare.capacity;
        return (unsigned char *)spare.block;
    }
    *capacity = total;
    return malloc(total);
}

/* Every part starts at a multiple of the strictest alignment a part needs. */
#define PART_ALIGN _Alignof(max_align_t)

/* Adds `count` items of `size` bytes as the next part; false on overflow. */
static bool add_part(size_t *total, size_t *at, size_t count, size_t size)
{
    size_t start = (*total + PART_ALIGN - 1) & ~(size_t)(PART_ALIGN - 1);
    if (start < *total || (size && count > (SIZE_MAX - start) / size))
        return false;
    *at = start;
    *total = start + count * size;
    return true;
}

struct sb_translation *sb_translation_block_create(const struct sb_translation_layout *layout)
{
    const struct sb_translation_layout *l = layout;
    size_t total = sizeof(struct translation_block);
    size_t words, bindings, inputs, outputs, builtin_in, builtin_out, origins, strings;
    if (!add_part(&total, &words, l->word_count, sizeof(uint32_t)) ||
        !add_part(&total, &bindings, l->binding_count, sizeof(struct sb_translated_binding)) ||
        !add_part(&total, &inputs, l->input_count, sizeof(struct sb_translated_interface)) ||
        !add_part(&total, &outputs, l->output_count, sizeof(struct sb_translated_interface)) ||
        !add_part(&total, &builtin_in, l->builtin_input_count, sizeof(uint32_t)) ||
        !add_part(&total, &builtin_out, l->builtin_output_count, sizeof(uint32_t)) ||
        !add_part(&total, &origins, l->origin_count, sizeof(struct sb_capability_origin)) ||
        !add_part(&total, &strings, l->string_bytes, 1))
        return NULL;
    size_t capacity;
    unsigned char *base = take_block(total, &capacity);
    if (!base)
        return NULL;
    struct translation_block *block = (struct translation_block *)(void *)base;
    memset(block, 0, sizeof(*block));
    block->capacity = capacity;
    struct sb_translation *t = &block->pub;
    /* An empty array is NULL, as the separate allocations reported it. */
#define PART(type, at, count) ((count) ? (type)(void *)(base + (at)) : NULL)
    t->words = PART(uint32_t *, words, l->word_count);
    t->word_count = l->word_count;
    t->bindings = PART(struct sb_translated_binding *, bindings, l->binding_count);
    t->binding_count = l->binding_count;
    t->inputs = PART(struct sb_translated_interface *, inputs, l->input_count);
    t->input_count = l->input_count;
    t->outputs = PART(struct sb_translated_interface *, outputs, l->output_count);
    t->output_count = l->output_count;
    t->builtin_inputs = PART(uint32_t *, builtin_in, l->builtin_input_count);
    t->builtin_input_count = l->builtin_input_count;
    t->builtin_outputs = PART(uint32_t *, builtin_out, l->builtin_output_count);
    t->builtin_output_count = l->builtin_output_count;
    t->capability_origins = PART(struct sb_capability_origin *, origins, l->origin_count);
    t->capability_origin_count = l->origin_count;
#undef PART
    block->strings_next = (char *)base + strings;
    block->strings_end = block->strings_next + l->string_bytes;
    return t;
}

size_t sb_translation_string_bytes(const char *s)
{
    return s ? strlen(s) + 1 : 0;
}

const char *sb_translation_block_string(struct sb_translation *translation, const char *s)
{
    struct translation_block *block = (struct translation_block *)translation;
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    if (n > (size_t)(block->strings_end - block->strings_next))
        return NULL;
    char *copy = block->strings_next;
    memcpy(copy, s, n);
    block->strings_next += n;
    return copy;
}

void sb_translation_block_replace_words(struct sb_translation *translation, uint32_t *words,
                                        size_t count)
{
    struct translation_block *block = (struct translation_block *)translation;
    free(block->replaced_words);
    block->replaced_words = words;
    translation->words = words;
    translation->word_count = count;
}

void sb_translation_block_destroy(struct sb_translation *translation)
{
    if (!translation)
        return;
    struct translation_block *block = (struct translation_block *)translation;
    free(block->replaced_words);
    free((void *)translation->text);
    free((void *)translation->target_bindings);
    if (!keep_spare(block))
        free(block);
}
