/* SPDX-License-Identifier: MIT */
/*
 * The sampler text of `--input sN=FILE`: one `key = value` per line, `#` starts a comment,
 * blank lines and spaces or tabs around words are ignored, keys and words are lower case.
 *
 *   filter         point | linear | anisotropic   min, mag and mip filters alike
 *                                                 (anisotropic: linear, with anisotropy)
 *   min_filter, mag_filter, mip_filter            point | linear
 *   address        wrap | mirror | clamp | border | mirror_once   u, v and w alike
 *   address_u, address_v, address_w               one axis
 *   border_color   R G B A                        four numbers
 *   comparison     never | less | equal | less_equal | greater | not_equal |
 *                  greater_equal | always         (comparison samplers only)
 *   mip_lod_bias, min_lod, max_lod                a number
 *   max_anisotropy 1 to 16                        with filter = anisotropic, as in D3D
 *
 * A key may appear once; a field two keys set (filter and min_filter) takes the later line.
 * What the text leaves out is D3D11's default sampler state: linear filters, clamp,
 * border (1, 1, 1, 1), comparison never, bias 0, LODs [0, 1000] (D3D's -FLT_MAX and FLT_MAX
 * clamp nothing more: the LOD never leaves [0, levels - 1]; 1000 is Vulkan's "no clamp"),
 * max_anisotropy 16 for an anisotropic filter. The names are D3D11's (D3D11_SAMPLER_DESC,
 * D3D11_TEXTURE_ADDRESS_MODE, D3D11_COMPARISON_FUNC) in lower case; the values are stored
 * in Vulkan's numbering (resources.h).
 *
 * Every read is bounded by `size`; a NUL byte anywhere is refused, so no string function
 * ever runs past the text.
 */
#include "sampler_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

enum key {
    KEY_FILTER, KEY_MIN_FILTER, KEY_MAG_FILTER, KEY_MIP_FILTER, KEY_ADDRESS, KEY_ADDRESS_U, KEY_ADDRESS_V,
    KEY_ADDRESS_W, KEY_BORDER_COLOR, KEY_COMPARISON, KEY_MIP_LOD_BIAS, KEY_MIN_LOD, KEY_MAX_LOD,
    KEY_MAX_ANISOTROPY, KEY_COUNT
};

static const char *const key_names[KEY_COUNT] = {
    [KEY_FILTER] = "filter", [KEY_MIN_FILTER] = "min_filter", [KEY_MAG_FILTER] = "mag_filter",
    [KEY_MIP_FILTER] = "mip_filter", [KEY_ADDRESS] = "address", [KEY_ADDRESS_U] = "address_u",
    [KEY_ADDRESS_V] = "address_v", [KEY_ADDRESS_W] = "address_w", [KEY_BORDER_COLOR] = "border_color",
    [KEY_COMPARISON] = "comparison", [KEY_MIP_LOD_BIAS] = "mip_lod_bias", [KEY_MIN_LOD] = "min_lod",
    [KEY_MAX_LOD] = "max_lod", [KEY_MAX_ANISOTROPY] = "max_anisotropy",
};

/* A word and the value it stands for; a NULL word ends a list. */
struct word {
    const char *name;
    uint32_t value;
};

static const struct word filter_words[] = { { "point", SB_RT_FILTER_NEAREST }, { "linear", SB_RT_FILTER_LINEAR },
                                            { NULL, 0 } };
enum { FILTER_ANISOTROPIC = 2 };
static const struct word filter_or_anisotropic[] = { { "point", SB_RT_FILTER_NEAREST },
                                                     { "linear", SB_RT_FILTER_LINEAR },
                                                     { "anisotropic", FILTER_ANISOTROPIC }, { NULL, 0 } };
static const struct word address_words[] = {
    { "wrap", SB_RT_ADDRESS_REPEAT }, { "mirror", SB_RT_ADDRESS_MIRRORED_REPEAT },
    { "clamp", SB_RT_ADDRESS_CLAMP_TO_EDGE }, { "border", SB_RT_ADDRESS_CLAMP_TO_BORDER },
    { "mirror_once", SB_RT_ADDRESS_MIRROR_ONCE }, { NULL, 0 },
};
/* VkCompareOp numbers, which D3D11_COMPARISON_FUNC's order matches minus one. */
static const struct word comparison_words[] = {
    { "never", 0 }, { "less", 1 }, { "equal", 2 }, { "less_equal", 3 }, { "greater", 4 },
    { "not_equal", 5 }, { "greater_equal", 6 }, { "always", 7 }, { NULL, 0 },
};

/* One token of the text: [at, at + length). */
struct token {
    size_t at, length;
};

/* The parse: the text, the error and where each key was seen (SIZE_MAX: not yet). */
struct parser {
    const uint8_t *text;
    size_t size;
    struct sb_error *error;
    size_t seen[KEY_COUNT];
};

static bool is_blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The next whitespace-separated token in [*at, end), advancing *at; false at the end. */
static bool next_token(const struct parser *p, size_t *at, size_t end, struct token *t)
{
    while (*at < end && is_blank(p->text[*at]))
        (*at)++;
    if (*at >= end)
        return false;
    t->at = *at;
    while (*at < end && !is_blank(p->text[*at]))
        (*at)++;
    t->length = *at - t->at;
    return true;
}

static bool token_is(const struct parser *p, const struct token *t, const char *word)
{
    return strlen(word) == t->length && memcmp(p->text + t->at, word, t->length) == 0;
}

/* The token as a C string for messages, cut to fit `buf`. */
static const char *token_text(const struct parser *p, const struct token *t, char *buf, size_t size)
{
    size_t n = t->length < size - 1 ? t->length : size - 1;
    memcpy(buf, p->text + t->at, n);
    buf[n] = 0;
    return buf;
}

static enum sb_result parse_word(struct parser *p, const struct token *t, const struct word *words,
                                 const char *key, uint32_t *out)
{
    for (size_t w = 0; words[w].name; w++)
        if (token_is(p, t, words[w].name)) {
            *out = words[w].value;
            return SB_SUCCESS;
        }
    char buf[40], list[160] = "";
    for (size_t w = 0; words[w].name; w++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof(list) - used, "%s%s", w ? ", " : "", words[w].name);
    }
    return sb_error_set(p->error, SB_ERROR_BAD_VALUE, t->at, SB_ERROR_NO_INSTR,
                        "%s takes %s, not '%s'", key, list, token_text(p, t, buf, sizeof(buf)));
}

/* A finite number; `low`..`high` bound it. */
static enum sb_result parse_number(struct parser *p, const struct token *t, const char *key, float low, float high,
                                   float *out)
{
    char buf[64], shown[40];
    bool ok = t->length < sizeof(buf);
    if (ok) {
        memcpy(buf, p->text + t->at, t->length);
        buf[t->length] = 0;
        char *end = NULL;
        float v = strtof(buf, &end);
        ok = end == buf + t->length && isfinite(v) && v >= low && v <= high;
        *out = v;
    }
    if (!ok)
        return sb_error_set(p->error, SB_ERROR_BAD_VALUE, t->at, SB_ERROR_NO_INSTR,
                            "%s takes a number from %g to %g, not '%s'", key, (double)low, (double)high,
                            token_text(p, t, shown, sizeof(shown)));
    return SB_SUCCESS;
}

/* The state the text builds before its anisotropy is settled. */
struct state {
    struct sb_rt_sampler s;
    bool anisotropic;
    float max_anisotropy;
};

/* The value of `key` from the tokens after '=' in [at, end). */
static enum sb_result parse_value(struct parser *p, enum key key, size_t at, size_t end, size_t key_at,
                                  struct state *st)
{
    const char *name = key_names[key];
    struct token t[4];
    uint32_t wanted = key == KEY_BORDER_COLOR ? 4 : 1, got = 0;
    while (got < wanted && next_token(p, &at, end, &t[got]))
        got++;
    if (got < wanted)
        return sb_error_set(p->error, SB_ERROR_BAD_VALUE, got ? t[got - 1].at + t[got - 1].length : key_at,
                            SB_ERROR_NO_INSTR, "%s takes %u value%s, %u given", name, wanted, wanted > 1 ? "s" : "",
                            got);
    struct token extra;
    if (next_token(p, &at, end, &extra))
        return sb_error_set(p->error, SB_ERROR_TRAILING_DATA, extra.at, SB_ERROR_NO_INSTR,
                            "%s takes %u value%s; the line goes on", name, wanted, wanted > 1 ? "s" : "");
    struct sb_rt_sampler *s = &st->s;
    uint32_t word = 0;
    enum sb_result r = SB_SUCCESS;
    switch (key) {
    case KEY_FILTER:
        r = parse_word(p, &t[0], filter_or_anisotropic, name, &word);
        st->anisotropic = word == FILTER_ANISOTROPIC;
        s->min_filter = s->mag_filter = s->mip_filter = st->anisotropic ? SB_RT_FILTER_LINEAR : (enum sb_rt_filter)word;
        break;
    case KEY_MIN_FILTER: case KEY_MAG_FILTER: case KEY_MIP_FILTER:
        r = parse_word(p, &t[0], filter_words, name, &word);
        *(key == KEY_MIN_FILTER ? &s->min_filter : key == KEY_MAG_FILTER ? &s->mag_filter : &s->mip_filter) =
            (enum sb_rt_filter)word;
        break;
    case KEY_ADDRESS:
        r = parse_word(p, &t[0], address_words, name, &word);
        s->address[0] = s->address[1] = s->address[2] = (enum sb_rt_address)word;
        break;
    case KEY_ADDRESS_U: case KEY_ADDRESS_V: case KEY_ADDRESS_W:
        r = parse_word(p, &t[0], address_words, name, &word);
        s->address[key - KEY_ADDRESS_U] = (enum sb_rt_address)word;
        break;
    case KEY_BORDER_COLOR:
        for (uint32_t c = 0; c < 4 && r == SB_SUCCESS; c++)
            r = parse_number(p, &t[c], name, -65504.0f, 65504.0f, &s->border_color[c]);
        break;
    case KEY_COMPARISON:
        r = parse_word(p, &t[0], comparison_words, name, &s->compare_op);
        break;
    case KEY_MIP_LOD_BIAS:
        /* D3D11 limits the bias to [-16, 15.99]. */
        r = parse_number(p, &t[0], name, -16.0f, 15.99f, &s->mip_lod_bias);
        break;
    case KEY_MIN_LOD: case KEY_MAX_LOD:
        r = parse_number(p, &t[0], name, -1000.0f, 1000.0f, key == KEY_MIN_LOD ? &s->min_lod : &s->max_lod);
        break;
    case KEY_MAX_ANISOTROPY:
        r = parse_number(p, &t[0], name, 1.0f, 16.0f, &st->max_anisotropy);
        if (r == SB_SUCCESS && st->max_anisotropy != floorf(st->max_anisotropy))
            r = sb_error_set(p->error, SB_ERROR_BAD_VALUE, t[0].at, SB_ERROR_NO_INSTR,
                             "max_anisotropy takes a whole number from 1 to 16");
        break;
    case KEY_COUNT:
        break;
    }
    return r;
}

/* One line [start, end) without its newline. */
static enum sb_result parse_line(struct parser *p, size_t start, size_t end, struct state *st)
{
    const uint8_t *hash = memchr(p->text + start, '#', end - start);
    if (hash)
        end = (size_t)(hash - p->text);
    size_t at = start;
    struct token key;
    if (!next_token(p, &at, end, &key))
        return SB_SUCCESS; /* blank or a comment */
    /* The key ends at '=' even without a space before it. */
    const uint8_t *eq = memchr(p->text + key.at, '=', end - key.at);
    if (!eq)
        return sb_error_set(p->error, SB_ERROR_BAD_STRING, key.at, SB_ERROR_NO_INSTR,
                            "expected 'key = value' (no '=' on this line)");
    size_t eq_at = (size_t)(eq - p->text);
    if (eq_at < key.at + key.length)
        key.length = eq_at - key.at;
    size_t after_key = key.at + key.length;
    while (after_key < eq_at && is_blank(p->text[after_key]))
        after_key++;
    if (!key.length || after_key != eq_at)
        return sb_error_set(p->error, SB_ERROR_BAD_STRING, key.length ? after_key : key.at, SB_ERROR_NO_INSTR,
                            "expected 'key = value' (one key before '=')");
    for (uint32_t k = 0; k < KEY_COUNT; k++) {
        if (!token_is(p, &key, key_names[k]))
            continue;
        if (p->seen[k] != SIZE_MAX)
            return sb_error_set(p->error, SB_ERROR_DUPLICATE, key.at, SB_ERROR_NO_INSTR,
                                "%s is given twice (first at byte %zu)", key_names[k], p->seen[k]);
        p->seen[k] = key.at;
        return parse_value(p, (enum key)k, eq_at + 1, end, key.at, st);
    }
    char buf[40];
    return sb_error_set(p->error, SB_ERROR_BAD_VALUE, key.at, SB_ERROR_NO_INSTR,
                        "unknown key '%s' (filter, min_filter, mag_filter, mip_filter, address, address_u, "
                        "address_v, address_w, border_color, comparison, mip_lod_bias, min_lod, max_lod, "
                        "max_anisotropy)", token_text(p, &key, buf, sizeof(buf)));
}

enum sb_result cli_sampler_text_parse(const uint8_t *text, size_t size, struct sb_rt_sampler *out,
                                      struct sb_error *error)
{
    struct parser p = { .text = text, .size = size, .error = error };
    for (uint32_t k = 0; k < KEY_COUNT; k++)
        p.seen[k] = SIZE_MAX;
    if (size && !text)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "no text");
    const uint8_t *nul = size ? memchr(text, 0, size) : NULL;
    if (nul)
        return sb_error_set(error, SB_ERROR_BAD_STRING, (uint64_t)(nul - text), SB_ERROR_NO_INSTR,
                            "a NUL byte: sampler files are text");
    struct state st = {
        .s = {
            .mag_filter = SB_RT_FILTER_LINEAR, .min_filter = SB_RT_FILTER_LINEAR, .mip_filter = SB_RT_FILTER_LINEAR,
            .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE },
            .mip_lod_bias = 0.0f, .min_lod = 0.0f, .max_lod = 1000.0f,
            .compare = false, .compare_op = 0 /* never */,
            .border_color = { 1.0f, 1.0f, 1.0f, 1.0f },
            .max_anisotropy = 0.0f,
        },
        .anisotropic = false,
        .max_anisotropy = 16.0f,
    };
    for (size_t start = 0; start < size;) {
        const uint8_t *newline = memchr(text + start, '\n', size - start);
        size_t end = newline ? (size_t)(newline - text) : size;
        enum sb_result r = parse_line(&p, start, end, &st);
        if (r != SB_SUCCESS)
            return r;
        start = end + 1;
    }
    if (st.s.min_lod > st.s.max_lod) {
        size_t later = p.seen[KEY_MIN_LOD] == SIZE_MAX   ? p.seen[KEY_MAX_LOD]
                       : p.seen[KEY_MAX_LOD] == SIZE_MAX ? p.seen[KEY_MIN_LOD]
                       : p.seen[KEY_MIN_LOD] > p.seen[KEY_MAX_LOD] ? p.seen[KEY_MIN_LOD] : p.seen[KEY_MAX_LOD];
        return sb_error_set(error, SB_ERROR_BAD_VALUE, later, SB_ERROR_NO_INSTR, "min_lod %g is above max_lod %g",
                            (double)st.s.min_lod, (double)st.s.max_lod);
    }
    st.s.max_anisotropy = st.anisotropic ? st.max_anisotropy : 0.0f;
    *out = st.s;
    return SB_SUCCESS;
}
