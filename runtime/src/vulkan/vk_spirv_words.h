/* SPDX-License-Identifier: MIT */
/*
 * A few lines of SPIR-V writing for the runtime's own small shaders (the
 * multisample fill passes, vk_ms_fill_shader.c and vk_ms_depth_shader.c):
 * instructions appended as words with a sticky overflow, result ids from one
 * counter, the header written last. The translator's builder is not used:
 * the Vulkan runtime stays free of translator internals.
 */
#ifndef SB_RUNTIME_VK_SPIRV_WORDS_H
#define SB_RUNTIME_VK_SPIRV_WORDS_H

#include <spirv/unified1/spirv.h>
#include <stddef.h>
#include <stdint.h>

struct spirv_words {
    uint32_t *w;
    size_t count, capacity; /* count may pass capacity: the module did not fit */
    uint32_t next_id;
};

/* One instruction: opcode and its operand words. */
static inline void spirv_op(struct spirv_words *s, SpvOp opcode, uint32_t n, const uint32_t *operands)
{
    if (s->count + 1 + n <= s->capacity) {
        s->w[s->count] = ((1u + n) << 16) | (uint32_t)opcode;
        for (uint32_t i = 0; i < n; i++)
            s->w[s->count + 1 + i] = operands[i];
    }
    s->count += 1 + n;
}

#define SPIRV_OP(s, opcode, ...)                                                                      \
    spirv_op((s), (opcode), (uint32_t)(sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t)), \
             (uint32_t[]){ __VA_ARGS__ })

/* A fresh result id. */
static inline uint32_t spirv_id(struct spirv_words *s)
{
    return s->next_id++;
}

/* A two-operand value instruction: its result id. */
static inline uint32_t spirv_value(struct spirv_words *s, SpvOp opcode, uint32_t type, uint32_t a, uint32_t b)
{
    uint32_t id = spirv_id(s);
    SPIRV_OP(s, opcode, type, id, a, b);
    return id;
}

/* A one-operand value instruction (loads, conversions, bitcasts): its result id. */
static inline uint32_t spirv_value1(struct spirv_words *s, SpvOp opcode, uint32_t type, uint32_t a)
{
    uint32_t id = spirv_id(s);
    SPIRV_OP(s, opcode, type, id, a);
    return id;
}

/* Starts a module after its 5 header words (SPIR-V 1.0); ids from `first_id`. */
static inline struct spirv_words spirv_begin(uint32_t *words, size_t capacity, uint32_t first_id)
{
    struct spirv_words s = { .w = words, .count = 5, .capacity = capacity, .next_id = first_id };
    return s;
}

/* Writes the header; the module's word count, or 0 when it did not fit. */
static inline size_t spirv_finish(struct spirv_words *s)
{
    if (s->count > s->capacity || s->capacity < 5)
        return 0;
    const uint32_t header[5] = { SpvMagicNumber, 0x00010000u, 0, s->next_id, 0 };
    for (uint32_t i = 0; i < 5; i++)
        s->w[i] = header[i];
    return s->count;
}

#endif
