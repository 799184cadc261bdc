/* SPDX-License-Identifier: MIT */
/*
 * SHBIN writer of the assembler (../shared/docs/pica200.md §12), in current picasso's
 * layout: DVLB header, DVLP header (0x28 bytes), code, operand descriptors
 * (8 bytes each, second word zero), then every DVLE: header, constant table,
 * (empty) label table, output table, uniform table sorted by register, and
 * the symbol table with the uniform names ('$' written as '.'), each DVLE
 * padded to 4 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "pica_asm_private.h"

struct writer {
    uint8_t *data;
    size_t size;
};

static void put16(struct writer *w, size_t at, uint32_t v)
{
    w->data[at] = (uint8_t)v;
    w->data[at + 1] = (uint8_t)(v >> 8);
}

static void put32(struct writer *w, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        w->data[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static uint32_t uniform_register(const struct asm_uniform *u)
{
    switch (u->type) {
    case ASM_UNIFORM_INPUT: return (uint32_t)u->position;
    case ASM_UNIFORM_FLOAT: return 0x10u + (uint32_t)u->position;
    case ASM_UNIFORM_INT: return 0x70u + (uint32_t)u->position;
    default: return 0x78u + (uint32_t)u->position;
    }
}

static int compare_uniforms(const void *a, const void *b)
{
    uint32_t ra = uniform_register(a), rb = uniform_register(b);
    return ra < rb ? -1 : ra > rb;
}

static size_t dvle_size(const struct asm_dvle *dvle)
{
    size_t size = 0x40 + 20u * dvle->constant_count + 8u * dvle->output_count +
                  8u * dvle->uniform_count;
    for (uint32_t i = 0; i < dvle->uniform_count; ++i)
        size += strlen(dvle->uniforms[i].name) + 1;
    return (size + 3) & ~(size_t)3;
}

static void write_dvle(struct writer *w, size_t at, struct asm_dvle *dvle)
{
    qsort(dvle->uniforms, dvle->uniform_count, sizeof(dvle->uniforms[0]), compare_uniforms);
    memcpy(w->data + at, "DVLE", 4);
    put16(w, at + 4, 0x1002);
    w->data[at + 6] = dvle->geometry ? 1 : 0;
    w->data[at + 7] = dvle->merge_outmaps ? 1 : 0;
    put32(w, at + 8, dvle->main_address);
    put32(w, at + 0xC, dvle->end_address);
    put16(w, at + 0x10, dvle->input_mask);
    put16(w, at + 0x12, dvle->output_mask);
    w->data[at + 0x14] = dvle->geometry ? dvle->gs_mode : 0;
    w->data[at + 0x15] = dvle->gs_fixed_start;
    w->data[at + 0x16] = dvle->gs_variable_count;
    w->data[at + 0x17] = dvle->gs_fixed_count;
    uint32_t constants = 0x40;
    uint32_t outputs = constants + 20u * dvle->constant_count;
    uint32_t uniforms = outputs + 8u * dvle->output_count;
    uint32_t symbols = uniforms + 8u * dvle->uniform_count;
    uint32_t symbol_size = 0;
    for (uint32_t i = 0; i < dvle->uniform_count; ++i)
        symbol_size += (uint32_t)strlen(dvle->uniforms[i].name) + 1;
    uint32_t fields[10] = {constants, dvle->constant_count, outputs, 0, outputs,
                           dvle->output_count, uniforms, dvle->uniform_count, symbols, symbol_size};
    for (int i = 0; i < 10; ++i)
        put32(w, at + 0x18 + 4u * (size_t)i, fields[i]);
    for (uint32_t i = 0; i < dvle->constant_count; ++i) {
        size_t c = at + constants + 20u * i;
        put16(w, c, dvle->constants[i].type);
        put16(w, c + 2, dvle->constants[i].index);
        for (int k = 0; k < 4; ++k)
            put32(w, c + 4 + 4u * (size_t)k, dvle->constants[i].value[k]);
    }
    for (uint32_t i = 0; i < dvle->output_count; ++i) {
        size_t o = at + outputs + 8u * i;
        put16(w, o, dvle->outputs[i].type);
        put16(w, o + 2, dvle->outputs[i].index);
        put32(w, o + 4, dvle->outputs[i].mask);
    }
    uint32_t name_at = 0;
    for (uint32_t i = 0; i < dvle->uniform_count; ++i) {
        const struct asm_uniform *u = &dvle->uniforms[i];
        size_t e = at + uniforms + 8u * i;
        put32(w, e, name_at);
        put16(w, e + 4, uniform_register(u));
        put16(w, e + 6, uniform_register(u) + (uint32_t)u->size - 1);
        size_t length = strlen(u->name);
        for (size_t k = 0; k < length; ++k)
            w->data[at + symbols + name_at + k] = u->name[k] == '$' ? '.' : (uint8_t)u->name[k];
        name_at += (uint32_t)length + 1;
    }
}

enum sb_result asm_write_shbin(struct asm_state *state, uint8_t **out, size_t *size)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < state->dvle_count; ++i)
        count += state->dvles[i].nodvle ? 0 : 1;
    size_t dvlp = 8 + 4u * count;
    size_t code = 0x28;
    size_t descriptors = code + 4u * state->code_count;
    size_t program_end = dvlp + descriptors + 8u * state->opdescs.count;
    size_t total = program_end;
    for (uint32_t i = 0; i < state->dvle_count; ++i)
        if (!state->dvles[i].nodvle)
            total += dvle_size(&state->dvles[i]);
    struct writer w = {calloc(1, total), total};
    if (!w.data)
        return SB_ERROR_OUT_OF_MEMORY;
    memcpy(w.data, "DVLB", 4);
    put32(&w, 4, count);
    memcpy(w.data + dvlp, "DVLP", 4);
    uint32_t header[9] = {0, (uint32_t)code, state->code_count, (uint32_t)descriptors,
                          state->opdescs.count, (uint32_t)(program_end - dvlp), 0, 0, 0};
    for (int i = 0; i < 9; ++i)
        put32(&w, dvlp + 4 + 4u * (size_t)i, header[i]);
    for (uint32_t i = 0; i < state->code_count; ++i)
        put32(&w, dvlp + code + 4u * i, state->code[i]);
    for (uint32_t i = 0; i < state->opdescs.count; ++i)
        put32(&w, dvlp + descriptors + 8u * i, state->opdescs.word[i]);
    size_t at = program_end;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < state->dvle_count; ++i) {
        if (state->dvles[i].nodvle)
            continue;
        put32(&w, 8 + 4u * slot++, (uint32_t)at);
        write_dvle(&w, at, &state->dvles[i]);
        at += dvle_size(&state->dvles[i]);
    }
    *out = w.data;
    *size = total;
    return SB_SUCCESS;
}
