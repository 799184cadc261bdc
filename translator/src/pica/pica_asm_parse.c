/* SPDX-License-Identifier: MIT */
/*
 * Lexical pieces of the picasso-syntax assembler: spans of the current line,
 * comma-separated arguments, integers, floats, swizzles, and register
 * operands with aliases, array indexing, relative addressing and negation
 * (picasso Manual, "Basic concepts"). Every failure names its column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pica_asm_private.h"

bool asm_span_equals(struct asm_span span, const char *word)
{
    return strlen(word) == span.length && strncasecmp(span.text, word, span.length) == 0;
}

struct asm_span asm_trim(struct asm_span span)
{
    while (span.length && isspace((unsigned char)span.text[0])) {
        span.text++;
        span.length--;
        span.column++;
    }
    while (span.length && isspace((unsigned char)span.text[span.length - 1]))
        span.length--;
    return span;
}

bool asm_is_identifier(struct asm_span span)
{
    if (span.length == 0 || span.length >= ASM_MAX_NAME)
        return false;
    for (size_t i = 0; i < span.length; ++i) {
        unsigned char c = (unsigned char)span.text[i];
        if (!(isalpha(c) || c == '_' || c == '$' || (i > 0 && isdigit(c))))
            return false;
    }
    return true;
}

void asm_copy_name(struct asm_state *state, struct asm_span span, char *out)
{
    if (!asm_is_identifier(span))
        asm_fail(state, span.column, "invalid identifier '%.*s'", (int)(span.length > 40 ? 40 : span.length),
                 span.text);
    memcpy(out, span.text, span.length);
    out[span.length] = '\0';
}

/* Splits at top-level commas (not inside () or []); returns the count, empty rest = 0. */
uint32_t asm_split_args(struct asm_span rest, struct asm_span *args, uint32_t max)
{
    rest = asm_trim(rest);
    if (rest.length == 0)
        return 0;
    uint32_t count = 0;
    int depth = 0;
    size_t begin = 0;
    for (size_t i = 0; i <= rest.length; ++i) {
        char c = i < rest.length ? rest.text[i] : ',';
        if (c == '(' || c == '[')
            depth++;
        else if ((c == ')' || c == ']') && depth > 0)
            depth--;
        if (c == ',' && (depth == 0 || i == rest.length)) {
            if (count < max) {
                struct asm_span arg = {rest.text + begin, i - begin, rest.column + (uint32_t)begin};
                args[count] = asm_trim(arg);
            }
            count++;
            begin = i + 1;
        }
    }
    return count;
}

long asm_parse_int(struct asm_state *state, struct asm_span span, long min, long max)
{
    char buffer[40];
    if (span.length == 0 || span.length >= sizeof(buffer))
        asm_fail(state, span.column, "expected an integer");
    memcpy(buffer, span.text, span.length);
    buffer[span.length] = '\0';
    char *end = NULL;
    errno = 0;
    long value = strtol(buffer, &end, 0);
    if (end == buffer || *end != '\0' || errno)
        asm_fail(state, span.column, "invalid integer '%s'", buffer);
    if (value < min || value > max)
        asm_fail(state, span.column, "value %ld out of range %ld..%ld", value, min, max);
    return value;
}

float asm_parse_float(struct asm_state *state, struct asm_span span)
{
    char buffer[64];
    if (span.length == 0 || span.length >= sizeof(buffer))
        asm_fail(state, span.column, "expected a number");
    memcpy(buffer, span.text, span.length);
    buffer[span.length] = '\0';
    char *end = NULL;
    float value = strtof(buffer, &end);
    if (end == buffer || *end != '\0')
        asm_fail(state, span.column, "invalid number '%s'", buffer);
    return value;
}

static int lane_of(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'x': case 'r': case 's': return 0;
    case 'y': case 'g': case 't': return 1;
    case 'z': case 'b': case 'p': return 2;
    case 'w': case 'a': case 'q': return 3;
    default: return -1;
    }
}

/* 1-4 lane letters; a short swizzle repeats its last lane (picasso). */
bool asm_parse_swizzle(struct asm_span span, uint8_t *swizzle)
{
    if (span.length == 0 || span.length > 4)
        return false;
    uint8_t out = 0;
    int lane = 0;
    for (size_t i = 0; i < 4; ++i) {
        if (i < span.length) {
            lane = lane_of(span.text[i]);
            if (lane < 0)
                return false;
        }
        out |= (uint8_t)(lane << (6 - 2 * i));
    }
    *swizzle = out;
    return true;
}

uint8_t asm_swizzle_mask(uint8_t swizzle)
{
    uint8_t mask = 0;
    for (unsigned i = 0; i < 4; ++i)
        mask |= (uint8_t)(8u >> ((swizzle >> (6 - 2 * i)) & 3u));
    return mask;
}

/* Applies an outer swizzle on top of an alias's own (picasso: alias.xxww). */
static uint8_t compose_swizzle(uint8_t inner, uint8_t outer)
{
    uint8_t out = 0;
    for (unsigned i = 0; i < 4; ++i) {
        unsigned pick = (outer >> (6 - 2 * i)) & 3u;
        unsigned lane = (inner >> (6 - 2 * pick)) & 3u;
        out |= (uint8_t)(lane << (6 - 2 * i));
    }
    return out;
}

const struct asm_alias *asm_find_alias(const struct asm_state *state, struct asm_span name)
{
    for (uint32_t i = 0; i < state->alias_count; ++i)
        if (strlen(state->aliases[i].name) == name.length &&
            memcmp(state->aliases[i].name, name.text, name.length) == 0)
            return &state->aliases[i];
    return NULL;
}

void asm_add_alias(struct asm_state *state, struct asm_span name, enum asm_file file, int index,
                   uint8_t swizzle)
{
    if (asm_find_alias(state, name))
        asm_fail(state, name.column, "identifier already used: '%.*s'", (int)name.length, name.text);
    if (state->alias_count == ASM_MAX_ALIASES)
        asm_fail(state, name.column, "too many aliases (limit %d)", ASM_MAX_ALIASES);
    struct asm_alias *alias = &state->aliases[state->alias_count++];
    asm_copy_name(state, name, alias->name);
    alias->file = file;
    alias->index = index;
    alias->swizzle = swizzle;
    alias->negate = false;
}

static int file_limit(enum asm_file file)
{
    switch (file) {
    case ASM_C: return 96;
    case ASM_I: return 4;
    default: return 16;
    }
}

/* Register literal "r12" etc.; false when the text is not one. */
static bool parse_register_literal(struct asm_state *state, struct asm_span name,
                                   struct asm_operand *out)
{
    static const char letters[] = "vorcib";
    if (name.length < 2 || !isdigit((unsigned char)name.text[1]))
        return false;
    const char *hit = strchr(letters, tolower((unsigned char)name.text[0]));
    if (!hit || !*hit)
        return false;
    for (size_t i = 1; i < name.length; ++i)
        if (!isdigit((unsigned char)name.text[i]))
            asm_fail(state, name.column, "invalid register '%.*s'", (int)name.length, name.text);
    out->file = (enum asm_file)(hit - letters);
    struct asm_span digits = {name.text + 1, name.length - 1, name.column + 1};
    long limit = file_limit(out->file);
    if (name.length > 4)
        asm_fail(state, name.column, "register index out of range in '%.*s'", (int)name.length,
                 name.text);
    long index = asm_parse_int(state, digits, 0, 999);
    if (index >= limit)
        asm_fail(state, name.column, "register '%.*s' out of range (%c0-%c%ld)", (int)name.length,
                 name.text, letters[out->file], letters[out->file], limit - 1);
    out->index = (int)index;
    return true;
}

static enum sb_pica_relative relative_name(struct asm_span name)
{
    if (asm_span_equals(name, "a0") || asm_span_equals(name, "a0.x"))
        return SB_PICA_RELATIVE_A0X;
    if (asm_span_equals(name, "a1") || asm_span_equals(name, "a0.y"))
        return SB_PICA_RELATIVE_A0Y;
    if (asm_span_equals(name, "a2") || asm_span_equals(name, "lcnt") ||
        asm_span_equals(name, "aL") || asm_span_equals(name, "al"))
        return SB_PICA_RELATIVE_AL;
    return SB_PICA_RELATIVE_NONE;
}

/* "[n]", "[a0]", "[a0+n]", "[n+a0]" inside the brackets. */
static void parse_index(struct asm_state *state, struct asm_span inside, struct asm_operand *out,
                        long *offset)
{
    inside = asm_trim(inside);
    const char *plus = memchr(inside.text, '+', inside.length);
    struct asm_span parts[2] = {inside, {NULL, 0, 0}};
    uint32_t count = 1;
    if (plus) {
        size_t at = (size_t)(plus - inside.text);
        parts[0] = asm_trim((struct asm_span){inside.text, at, inside.column});
        parts[1] = asm_trim((struct asm_span){plus + 1, inside.length - at - 1,
                                              inside.column + (uint32_t)at + 1});
        count = 2;
    }
    for (uint32_t i = 0; i < count; ++i) {
        enum sb_pica_relative rel = relative_name(parts[i]);
        if (rel != SB_PICA_RELATIVE_NONE) {
            if (out->relative != SB_PICA_RELATIVE_NONE)
                asm_fail(state, parts[i].column, "two index registers");
            out->relative = rel;
        } else {
            *offset += asm_parse_int(state, parts[i], -128, 127);
        }
    }
}

void asm_parse_operand(struct asm_state *state, struct asm_span span, struct asm_operand *out)
{
    memset(out, 0, sizeof(*out));
    span = asm_trim(span);
    out->column = span.column;
    out->swizzle = 0x1B;
    if (span.length && span.text[0] == '-') {
        out->negate = true;
        span = asm_trim((struct asm_span){span.text + 1, span.length - 1, span.column + 1});
    }
    if (span.length == 0)
        asm_fail(state, out->column, "missing operand");
    /* name ends at '[' or '.'; the swizzle follows the last ']' */
    size_t name_end = 0;
    while (name_end < span.length && span.text[name_end] != '[' && span.text[name_end] != '.')
        name_end++;
    struct asm_span name = {span.text, name_end, span.column};
    size_t at = name_end;
    long offset = 0;
    if (at < span.length && span.text[at] == '[') {
        const char *close = memchr(span.text + at, ']', span.length - at);
        if (!close)
            asm_fail(state, span.column + (uint32_t)at, "missing closing bracket");
        size_t close_at = (size_t)(close - span.text);
        parse_index(state,
                    (struct asm_span){span.text + at + 1, close_at - at - 1,
                                      span.column + (uint32_t)at + 1},
                    out, &offset);
        at = close_at + 1;
    }
    uint8_t outer = 0x1B;
    bool has_swizzle = false;
    if (at < span.length) {
        struct asm_span swz = {span.text + at + 1, span.length - at - 1, span.column + (uint32_t)at + 1};
        if (span.text[at] != '.' || !asm_parse_swizzle(swz, &outer))
            asm_fail(state, span.column + (uint32_t)at, "invalid swizzle '%.*s'",
                     (int)(span.length - at > 16 ? 16 : span.length - at), span.text + at);
        has_swizzle = true;
    }
    const struct asm_alias *alias = asm_find_alias(state, name);
    if (alias) {
        out->file = alias->file;
        out->index = alias->index;
        out->negate ^= alias->negate;
        out->swizzle = has_swizzle ? compose_swizzle(alias->swizzle, outer) : alias->swizzle;
    } else if (parse_register_literal(state, name, out)) {
        out->swizzle = outer;
    } else {
        asm_fail(state, name.column, "unknown register or alias '%.*s'",
                 (int)(name.length > 40 ? 40 : name.length), name.text);
    }
    long index = out->index + offset;
    if (index < 0 || index >= file_limit(out->file))
        asm_fail(state, span.column, "register index %ld out of range", index);
    out->index = (int)index;
}
