/* SPDX-License-Identifier: MIT */
/*
 * Directives of the picasso-syntax assembler (picasso Manual, "Supported
 * Directives"): .proc/.end/.else, .entry, .nodvle, .gsh, .fvec/.ivec/.bool,
 * .in, .out, .alias, .constf/.consti/.constfa, .setf/.seti/.setb; plus three
 * shaderbridge extensions the disassembler needs: .dvle (start the source
 * of the next DVLE, what picasso takes as a further input file), .word
 * (one raw code word) and .opdesc (give the operand-descriptor table instead
 * of building it, for files picasso's allocation would not reproduce).
 */
#include <ctype.h>
#include <string.h>

#include "pica_asm_private.h"

/* Splits at whitespace; returns the count. */
static uint32_t split_words(struct asm_span rest, struct asm_span *out, uint32_t max)
{
    uint32_t count = 0;
    size_t at = 0;
    while (at < rest.length) {
        while (at < rest.length && isspace((unsigned char)rest.text[at]))
            at++;
        size_t begin = at;
        while (at < rest.length && !isspace((unsigned char)rest.text[at]))
            at++;
        if (at > begin) {
            if (count < max)
                out[count] = (struct asm_span){rest.text + begin, at - begin,
                                               rest.column + (uint32_t)begin};
            count++;
        }
    }
    return count;
}

static void need(struct asm_state *state, struct asm_span name, uint32_t got, uint32_t min,
                 uint32_t max)
{
    if (got < min || got > max)
        asm_fail(state, name.column, "wrong number of parameters for '%.*s'", (int)name.length,
                 name.text);
}

/* float32 -> float24 as picasso stores constants (../shared/docs/pica200.md §2: truncation). */
static uint32_t float_to_f24(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    uint32_t sign = bits >> 31;
    int exponent = (int)((bits >> 23) & 0xFFu) - 127 + 63;
    uint32_t mantissa = (bits & 0x7FFFFFu) >> 7;
    if (exponent < 0)
        return sign << 23;
    if (exponent > 127)
        return (sign << 23) | (127u << 16);
    return (sign << 23) | ((uint32_t)exponent << 16) | mantissa;
}

/* "name(x, y, z, w)" -> name span and four value spans. */
static struct asm_span vector_arguments(struct asm_state *state, struct asm_span rest,
                                        struct asm_span values[4])
{
    rest = asm_trim(rest);
    const char *open = memchr(rest.text, '(', rest.length);
    if (!open || rest.length == 0 || rest.text[rest.length - 1] != ')')
        asm_fail(state, rest.column, "expected name(x, y, z, w)");
    size_t at = (size_t)(open - rest.text);
    struct asm_span name = asm_trim((struct asm_span){rest.text, at, rest.column});
    struct asm_span inside = {open + 1, rest.length - at - 2, rest.column + (uint32_t)at + 1};
    struct asm_span args[ASM_MAX_ARGS];
    uint32_t count = asm_split_args(inside, args, ASM_MAX_ARGS);
    if (count != 4)
        asm_fail(state, inside.column, "expected four values, got %u", count);
    memcpy(values, args, 4 * sizeof(*values));
    return name;
}

static void add_constant(struct asm_state *state, uint16_t type, int index, const uint32_t v[4],
                         uint32_t column)
{
    struct asm_dvle *dvle = asm_current_dvle(state);
    if (dvle->constant_count == ASM_MAX_CONSTANTS)
        asm_fail(state, column, "too many constants (limit %d)", ASM_MAX_CONSTANTS);
    struct asm_constant *c = &dvle->constants[dvle->constant_count++];
    c->type = type;
    c->index = (uint16_t)index;
    memcpy(c->value, v, sizeof(c->value));
}

static struct asm_alloc *float_alloc(struct asm_state *state)
{
    struct asm_dvle *dvle = asm_current_dvle(state);
    return dvle->own_float_space ? &dvle->float_alloc : &state->float_alloc;
}

/* Downward allocation of constants from the top of the class (current picasso). */
static int allocate_local(struct asm_state *state, bool is_float, int size, uint32_t column)
{
    struct asm_dvle *dvle = asm_current_dvle(state);
    struct asm_alloc *alloc = is_float ? float_alloc(state) : &state->int_alloc;
    int *end = is_float ? &dvle->float_local_end : &dvle->int_local_end;
    int pos = *end - size;
    if (pos < alloc->start)
        asm_fail(state, column, "not enough uniform space for a constant");
    *end = pos;
    if (pos < alloc->limit)
        alloc->limit = pos;
    return pos;
}

static void const_vector(struct asm_state *state, struct asm_span rest, bool is_float)
{
    struct asm_span values[4];
    struct asm_span name = vector_arguments(state, rest, values);
    uint32_t v[4];
    for (int i = 0; i < 4; ++i)
        v[i] = is_float ? float_to_f24(asm_parse_float(state, values[i]))
                        : (uint32_t)asm_parse_int(state, values[i], -128, 255) & 0xFFu;
    if (!asm_is_identifier(name))
        asm_fail(state, name.column, "invalid constant name");
    if (asm_find_alias(state, name))
        asm_fail(state, name.column, "identifier already used: '%.*s'", (int)name.length, name.text);
    int pos = allocate_local(state, is_float, 1, name.column);
    if (is_float) {
        add_constant(state, 2, pos, v, name.column);
    } else {
        uint32_t packed[4] = {v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24), 0, 0, 0};
        add_constant(state, 1, pos, packed, name.column);
    }
    asm_add_alias(state, name, is_float ? ASM_C : ASM_I, pos, 0x1B);
}

static void set_vector(struct asm_state *state, struct asm_span rest, bool is_float)
{
    struct asm_span values[4];
    struct asm_span name = vector_arguments(state, rest, values);
    struct asm_operand reg;
    asm_parse_operand(state, name, &reg);
    if (reg.file != (is_float ? ASM_C : ASM_I))
        asm_fail(state, name.column, "expected a %s uniform register", is_float ? "float" : "integer");
    uint32_t v[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i)
        v[i] = is_float ? float_to_f24(asm_parse_float(state, values[i]))
                        : (uint32_t)asm_parse_int(state, values[i], -128, 255) & 0xFFu;
    if (!is_float) {
        v[0] = v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24);
        v[1] = v[2] = v[3] = 0;
    }
    add_constant(state, is_float ? 2 : 1, reg.index, v, name.column);
}

static void set_bool(struct asm_state *state, struct asm_span name, struct asm_span rest)
{
    struct asm_span words[3];
    uint32_t count = split_words(rest, words, 3);
    need(state, name, count, 2, 2);
    struct asm_operand reg;
    asm_parse_operand(state, words[0], &reg);
    if (reg.file != ASM_B)
        asm_fail(state, words[0].column, "expected a bool uniform register");
    uint32_t value;
    if (asm_span_equals(words[1], "true") || asm_span_equals(words[1], "on") ||
        asm_span_equals(words[1], "1"))
        value = 1;
    else if (asm_span_equals(words[1], "false") || asm_span_equals(words[1], "off") ||
             asm_span_equals(words[1], "0"))
        value = 0;
    else
        asm_fail(state, words[1].column, "expected true, false, on, off, 1 or 0");
    uint32_t v[4] = {value, 0, 0, 0};
    add_constant(state, 0, reg.index, v, words[0].column);
}

static void export_uniform(struct asm_state *state, const char *name, enum asm_uniform_type type,
                           int pos, int size, uint32_t column)
{
    if (name[0] == '_')
        return;
    struct asm_dvle *dvle = asm_current_dvle(state);
    if (dvle->uniform_count == ASM_MAX_UNIFORMS)
        asm_fail(state, column, "too many uniforms (limit %d)", ASM_MAX_UNIFORMS);
    struct asm_uniform *u = &dvle->uniforms[dvle->uniform_count++];
    strcpy(u->name, name);
    u->type = type;
    u->position = pos;
    u->size = size;
}

/* Position of a shared vertex-shader uniform (same name -> same register). */
static int global_position(struct asm_state *state, const char *name, enum asm_uniform_type type,
                           int size, struct asm_alloc *alloc, uint32_t column)
{
    bool shared = !(type == ASM_UNIFORM_FLOAT && asm_current_dvle(state)->own_float_space);
    for (uint32_t i = 0; shared && i < state->global_count; ++i) {
        struct asm_uniform *g = &state->globals[i];
        if (strcmp(g->name, name) == 0) {
            if (g->type != type || g->size != size)
                asm_fail(state, column, "uniform '%s' declared before with another type or size",
                         name);
            return g->position;
        }
    }
    if (alloc->start + size > alloc->limit)
        asm_fail(state, column, "not enough uniform space for '%s'", name);
    int pos = alloc->start;
    alloc->start += size;
    if (shared && state->global_count < ASM_MAX_UNIFORMS) {
        struct asm_uniform *g = &state->globals[state->global_count++];
        strcpy(g->name, name);
        g->type = type;
        g->position = pos;
        g->size = size;
    }
    return pos;
}

static void uniforms(struct asm_state *state, struct asm_span rest, enum asm_uniform_type type)
{
    struct asm_span args[ASM_MAX_ARGS * 8];
    uint32_t count = asm_split_args(rest, args, ASM_MAX_ARGS * 8);
    if (count > ASM_MAX_ARGS * 8)
        asm_fail(state, rest.column, "too many names in one declaration");
    for (uint32_t i = 0; i < count; ++i) {
        struct asm_span name = args[i];
        int size = 1;
        const char *open = memchr(name.text, '[', name.length);
        if (open) {
            size_t at = (size_t)(open - name.text);
            if (name.text[name.length - 1] != ']')
                asm_fail(state, name.column, "missing closing bracket");
            struct asm_span inside = {open + 1, name.length - at - 2, name.column + (uint32_t)at + 1};
            size = (int)asm_parse_int(state, asm_trim(inside), 1, 96);
            name = asm_trim((struct asm_span){name.text, at, name.column});
        }
        char text[ASM_MAX_NAME];
        asm_copy_name(state, name, text);
        if (asm_find_alias(state, name))
            asm_fail(state, name.column, "identifier already used: '%s'", text);
        struct asm_alloc *alloc = type == ASM_UNIFORM_FLOAT ? float_alloc(state)
                                  : type == ASM_UNIFORM_INT ? &state->int_alloc
                                                            : &state->bool_alloc;
        int pos = global_position(state, text, type, size, alloc, name.column);
        export_uniform(state, text, type, pos, size, name.column);
        asm_add_alias(state, name,
                      type == ASM_UNIFORM_FLOAT ? ASM_C : type == ASM_UNIFORM_INT ? ASM_I : ASM_B,
                      pos, 0x1B);
    }
}

static void input(struct asm_state *state, struct asm_span directive, struct asm_span rest)
{
    struct asm_span words[3];
    uint32_t count = split_words(rest, words, 3);
    need(state, directive, count, 1, 2);
    struct asm_dvle *dvle = asm_current_dvle(state);
    int index = 0;
    if (count == 2) {
        struct asm_operand reg;
        asm_parse_operand(state, words[1], &reg);
        if (reg.file != ASM_V)
            asm_fail(state, words[1].column, "expected an input register (v0-v15)");
        index = reg.index;
    } else {
        while (index < 16 && (dvle->input_mask & (1u << index)))
            index++;
        if (index == 16)
            asm_fail(state, words[0].column, "no free input register");
    }
    dvle->input_mask |= (uint16_t)(1u << index);
    char text[ASM_MAX_NAME];
    asm_copy_name(state, words[0], text);
    export_uniform(state, text, ASM_UNIFORM_INPUT, index, 1, words[0].column);
    asm_add_alias(state, words[0], ASM_V, index, 0x1B);
}

struct output_name {
    const char *name, *abbreviation;
    uint16_t type;
};

static const struct output_name output_names[] = {
    {"position", "pos", 0},     {"normalquat", "nquat", 1}, {"color", "clr", 2},
    {"texcoord0", "tcoord0", 3}, {"texcoord0w", "tcoord0w", 4}, {"texcoord1", "tcoord1", 5},
    {"texcoord2", "tcoord2", 6}, {"view", "view", 8},         {"dummy", "dummy", 9},
};

static void output(struct asm_state *state, struct asm_span directive, struct asm_span rest)
{
    struct asm_span words[4];
    uint32_t count = split_words(rest, words, 4);
    need(state, directive, count, 2, 3);
    struct asm_dvle *dvle = asm_current_dvle(state);
    struct asm_span prop = words[1];
    uint8_t swizzle = 0x1B;
    const char *dot = memchr(prop.text, '.', prop.length);
    if (dot) {
        size_t at = (size_t)(dot - prop.text);
        if (!asm_parse_swizzle((struct asm_span){dot + 1, prop.length - at - 1, 0}, &swizzle))
            asm_fail(state, prop.column + (uint32_t)at, "invalid output mask");
        prop.length = at;
    }
    const struct output_name *kind = NULL;
    for (size_t i = 0; i < sizeof(output_names) / sizeof(output_names[0]); ++i)
        if (asm_span_equals(prop, output_names[i].name) ||
            asm_span_equals(prop, output_names[i].abbreviation))
            kind = &output_names[i];
    if (!kind)
        asm_fail(state, prop.column, "unknown output property '%.*s'",
                 (int)(prop.length > 24 ? 24 : prop.length), prop.text);
    int index = 0;
    if (count == 3) {
        struct asm_operand reg;
        asm_parse_operand(state, words[2], &reg);
        if (reg.file != ASM_O)
            asm_fail(state, words[2].column, "expected an output register (o0-o15)");
        index = reg.index;
        swizzle = reg.swizzle;
    } else {
        while (index < 16 && (dvle->output_mask & (1u << index)))
            index++;
        if (index == 16)
            asm_fail(state, words[0].column, "no free output register");
    }
    if (dvle->output_count == ASM_MAX_OUTPUTS)
        asm_fail(state, directive.column, "too many outputs (limit %d)", ASM_MAX_OUTPUTS);
    uint8_t mask = asm_swizzle_mask(swizzle); /* bit 3 = x */
    struct asm_output *out = &dvle->outputs[dvle->output_count++];
    out->type = kind->type;
    out->index = (uint16_t)index;
    out->mask = (uint32_t)(((mask >> 3) & 1u) | ((mask >> 1) & 2u) | ((mask << 1) & 4u) |
                           ((mask << 3) & 8u));
    dvle->output_mask |= (uint16_t)(1u << index);
    if (kind->type == 9 && dvle->geometry)
        dvle->merge_outmaps = true;
    if (!asm_span_equals(words[0], "-"))
        asm_add_alias(state, words[0], ASM_O, index, 0x1B);
}

static void alias(struct asm_state *state, struct asm_span directive, struct asm_span rest)
{
    struct asm_span words[3];
    uint32_t count = split_words(rest, words, 3);
    need(state, directive, count, 2, 2);
    struct asm_operand reg;
    asm_parse_operand(state, words[1], &reg);
    if (reg.relative)
        asm_fail(state, words[1].column, "an alias cannot use relative addressing");
    if (words[0].length >= 2 && strchr("vorcibVORCIB", words[0].text[0]) &&
        isdigit((unsigned char)words[0].text[1]))
        asm_fail(state, words[0].column, "cannot redefine a register");
    asm_add_alias(state, words[0], reg.file, reg.index, reg.swizzle);
    state->aliases[state->alias_count - 1].negate = reg.negate;
}

static uint8_t register_of(struct asm_state *state, struct asm_span span, enum asm_file file)
{
    struct asm_operand reg;
    asm_parse_operand(state, span, &reg);
    if (reg.file != file)
        asm_fail(state, span.column, "expected a float uniform register");
    return (uint8_t)reg.index;
}

static void geometry(struct asm_state *state, struct asm_span directive, struct asm_span rest)
{
    struct asm_span w[5];
    uint32_t count = split_words(rest, w, 5);
    struct asm_dvle *dvle = asm_current_dvle(state);
    dvle->geometry = true;
    if (count == 0)
        return; /* legacy form without parameters */
    int first;
    if (asm_span_equals(w[0], "point")) {
        need(state, directive, count, 2, 2);
        dvle->gs_mode = 0;
    } else if (asm_span_equals(w[0], "variable")) {
        need(state, directive, count, 3, 3);
        dvle->gs_mode = 1;
        dvle->gs_variable_count = (uint8_t)asm_parse_int(state, w[2], 0, 255);
    } else if (asm_span_equals(w[0], "fixed")) {
        need(state, directive, count, 4, 4);
        dvle->gs_mode = 2;
        dvle->gs_fixed_start = register_of(state, w[2], ASM_C);
        dvle->gs_fixed_count = (uint8_t)asm_parse_int(state, w[3], 0, 255);
    } else {
        asm_fail(state, w[0].column, "unknown geometry mode (point, variable, fixed)");
    }
    first = register_of(state, w[1], ASM_C);
    dvle->own_float_space = true;
    dvle->float_alloc = (struct asm_alloc){first, 96, dvle->float_local_end};
}

static void const_array(struct asm_state *state, struct asm_span rest)
{
    rest = asm_trim(rest);
    bool open = state->stack_depth && state->stack[state->stack_depth - 1].type == ASM_BLOCK_ARRAY;
    if (!open) {
        const char *bracket = memchr(rest.text, '[', rest.length);
        if (!bracket || rest.text[rest.length - 1] != ']')
            asm_fail(state, rest.column, "expected name[] or name[size]");
        size_t at = (size_t)(bracket - rest.text);
        struct asm_span name = asm_trim((struct asm_span){rest.text, at, rest.column});
        struct asm_span size = asm_trim(
            (struct asm_span){bracket + 1, rest.length - at - 2, rest.column + (uint32_t)at + 1});
        asm_copy_name(state, name, state->array_name);
        state->array_size = size.length ? (int)asm_parse_int(state, size, 1, 96) : -1;
        state->array_count = 0;
        if (state->stack_depth == ASM_MAX_STACK)
            asm_fail(state, rest.column, "too many nested blocks");
        struct asm_block *block = &state->stack[state->stack_depth++];
        memset(block, 0, sizeof(*block));
        block->type = ASM_BLOCK_ARRAY;
        block->line = state->line;
        block->column = rest.column;
        return;
    }
    if (rest.length < 2 || rest.text[0] != '(')
        asm_fail(state, rest.column, "expected (x, y, z, w)");
    struct asm_span values[4];
    vector_arguments(state, rest, values);
    if (state->array_count == 96 ||
        (state->array_size >= 0 && (int)state->array_count == state->array_size))
        asm_fail(state, rest.column, "too many elements in the array");
    for (int i = 0; i < 4; ++i)
        state->array_values[state->array_count][i] = float_to_f24(asm_parse_float(state, values[i]));
    state->array_count++;
}

static void close_array(struct asm_state *state, uint32_t column)
{
    int size = state->array_size >= 0 ? state->array_size : (int)state->array_count;
    if (size == 0)
        asm_fail(state, column, "array '%s' has no elements", state->array_name);
    int pos = allocate_local(state, true, size, column);
    for (int i = 0; i < size; ++i) {
        uint32_t zero[4] = {0, 0, 0, 0};
        add_constant(state, 2, pos + i,
                     i < (int)state->array_count ? state->array_values[i] : zero, column);
    }
    struct asm_span name = {state->array_name, strlen(state->array_name), column};
    asm_add_alias(state, name, ASM_C, pos, 0x1B);
    state->stack_depth--;
}

static void proc(struct asm_state *state, struct asm_span directive, struct asm_span rest)
{
    struct asm_span words[2];
    uint32_t count = split_words(rest, words, 2);
    need(state, directive, count, 1, 1);
    if (state->stack_depth)
        asm_fail(state, directive.column, ".proc inside another block");
    char name[ASM_MAX_NAME];
    asm_copy_name(state, words[0], name);
    for (uint32_t i = 0; i < state->proc_count; ++i)
        if (strcmp(state->procs[i].name, name) == 0)
            asm_fail(state, words[0].column, "procedure '%s' already exists", name);
    struct asm_block *block = &state->stack[state->stack_depth++];
    memset(block, 0, sizeof(*block));
    block->type = ASM_BLOCK_PROC;
    block->position = state->code_count;
    block->line = state->line;
    block->column = directive.column;
    strcpy(block->name, name);
}

static void opdesc_table(struct asm_state *state, struct asm_span rest)
{
    struct pica_opdesc_table *table = &state->opdescs;
    if (table->count && !table->fixed)
        asm_fail(state, rest.column, ".opdesc after instructions that allocated descriptors");
    struct asm_span args[ASM_MAX_ARGS * 16];
    uint32_t count = asm_split_args(rest, args, ASM_MAX_ARGS * 16);
    if (count == 0 || count > ASM_MAX_ARGS * 16)
        asm_fail(state, rest.column, ".opdesc takes 1-%d descriptor words", ASM_MAX_ARGS * 16);
    for (uint32_t i = 0; i < count; ++i) {
        if (table->count == SB_SHBIN_MAX_OPERAND_DESCRIPTORS)
            asm_fail(state, args[i].column, "more than %u operand descriptors",
                     SB_SHBIN_MAX_OPERAND_DESCRIPTORS);
        table->word[table->count++] = (uint32_t)asm_parse_int(state, args[i], 0, 0xFFFFFFFFL);
    }
    table->fixed = true;
}

void asm_directive(struct asm_state *state, struct asm_span name, struct asm_span rest)
{
    struct asm_span words[2];
    if (asm_span_equals(name, ".proc")) {
        proc(state, name, rest);
    } else if (asm_span_equals(name, ".end")) {
        need(state, name, split_words(rest, words, 2), 0, 0);
        if (state->stack_depth && state->stack[state->stack_depth - 1].type == ASM_BLOCK_ARRAY)
            close_array(state, name.column);
        else
            asm_block_end(state, name, -1);
    } else if (asm_span_equals(name, ".else")) {
        need(state, name, split_words(rest, words, 2), 0, 0);
        asm_block_else(state, name);
    } else if (asm_span_equals(name, ".entry")) {
        need(state, name, split_words(rest, words, 2), 1, 1);
        struct asm_dvle *dvle = asm_current_dvle(state);
        asm_copy_name(state, words[0], dvle->entry);
        dvle->entry_line = state->line;
        dvle->entry_column = words[0].column;
    } else if (asm_span_equals(name, ".nodvle")) {
        asm_current_dvle(state)->nodvle = true;
    } else if (asm_span_equals(name, ".gsh")) {
        geometry(state, name, rest);
    } else if (asm_span_equals(name, ".fvec")) {
        uniforms(state, rest, ASM_UNIFORM_FLOAT);
    } else if (asm_span_equals(name, ".ivec")) {
        uniforms(state, rest, ASM_UNIFORM_INT);
    } else if (asm_span_equals(name, ".bool")) {
        uniforms(state, rest, ASM_UNIFORM_BOOL);
    } else if (asm_span_equals(name, ".in")) {
        input(state, name, rest);
    } else if (asm_span_equals(name, ".out")) {
        output(state, name, rest);
    } else if (asm_span_equals(name, ".alias")) {
        alias(state, name, rest);
    } else if (asm_span_equals(name, ".constf") || asm_span_equals(name, ".consti")) {
        const_vector(state, rest, asm_span_equals(name, ".constf"));
    } else if (asm_span_equals(name, ".constfa")) {
        const_array(state, rest);
    } else if (asm_span_equals(name, ".setf") || asm_span_equals(name, ".seti")) {
        set_vector(state, rest, asm_span_equals(name, ".setf"));
    } else if (asm_span_equals(name, ".setb")) {
        set_bool(state, name, rest);
    } else if (asm_span_equals(name, ".dvle")) {
        need(state, name, split_words(rest, words, 2), 0, 0);
        asm_next_dvle(state, name.column);
    } else if (asm_span_equals(name, ".opdesc")) {
        opdesc_table(state, rest);
    } else if (asm_span_equals(name, ".word")) {
        need(state, name, split_words(rest, words, 2), 1, 1);
        asm_emit(state, (uint32_t)asm_parse_int(state, words[0], 0, 0xFFFFFFFFL), name.column);
    } else {
        asm_fail(state, name.column, "unknown directive '%.*s'",
                 (int)(name.length > 24 ? 24 : name.length), name.text);
    }
}
