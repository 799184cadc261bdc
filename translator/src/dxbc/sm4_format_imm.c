/* SPDX-License-Identifier: MIT */
/*
 * Text output for the fxc-syntax disassembler: the growable text buffer,
 * immediate formatting by print class, the two C-runtime `%f` roundings,
 * and the choice of fxc-version behaviours (../shared/docs/sm4-tokens.md §9.7, §9.15).
 *
 * Why two roundings: fxc's disassembler prints floats with the `%f` of the
 * C runtime it was built with, and the older runtime first cut the value to
 * 17 significant digits and then rounded ties away from zero, so halfway
 * cases (0.0078125) and huge values print differently from the exact,
 * ties-to-even result of a modern libc.
 */
#include "sm4_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool text_reserve(struct sb_sm4_text *text, size_t extra)
{
    if (text->failed)
        return false;
    if (text->length + extra + 1 <= text->capacity)
        return true;
    size_t capacity = text->capacity ? text->capacity : 4096;
    while (capacity < text->length + extra + 1)
        capacity *= 2;
    char *data = realloc(text->data, capacity);
    if (!data) {
        text->failed = true;
        return false;
    }
    text->data = data;
    text->capacity = capacity;
    return true;
}

void sb_sm4_text_append(struct sb_sm4_text *text, const char *s)
{
    size_t n = strlen(s);
    if (!text_reserve(text, n))
        return;
    memcpy(text->data + text->length, s, n + 1);
    text->length += n;
}

void sb_sm4_text_appendf(struct sb_sm4_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (n >= 0 && text_reserve(text, (size_t)n)) {
        vsnprintf(text->data + text->length, (size_t)n + 1, format, args);
        text->length += (size_t)n;
    } else if (n < 0) {
        text->failed = true;
    }
    va_end(args);
}

void sb_sm4_text_spaces(struct sb_sm4_text *text, unsigned count)
{
    if (!text_reserve(text, count))
        return;
    memset(text->data + text->length, ' ', count);
    text->length += count;
    text->data[text->length] = 0;
}

/*
 * The older runtime: 17 significant digits (the libc's %.16e rounds those
 * correctly, ties to even), then six decimals with ties away from zero on
 * that digit string; places beyond the 17th digit are zeros.
 */
static void format_old_rounding(struct sb_sm4_text *text, double value)
{
    char sci[40];
    snprintf(sci, sizeof(sci), "%.16e", value);
    const char *p = sci;
    bool negative = *p == '-';
    if (negative)
        p++;
    char digits[17];
    unsigned n = 0;
    for (; *p && *p != 'e' && n < 17; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    while (*p && *p != 'e')
        p++;
    int exponent = *p == 'e' ? atoi(p + 1) : 0;
    /* Digits kept: every place worth at least 1e-6. */
    int keep = exponent + 7;
    char out[400];
    int count = 0;
    if (keep > 380 || n != 17) {
        snprintf(out, sizeof(out), "%f", value < 0 ? -value : value);
        sb_sm4_text_appendf(text, "%s%s", negative ? "-" : "", out);
        return;
    }
    if (keep <= 0) {
        out[count++] = (keep == 0 && digits[0] >= '5') ? '1' : '0';
    } else {
        for (int i = 0; i < keep; i++)
            out[count++] = i < 17 ? digits[i] : '0';
        if (keep < 17 && digits[keep] >= '5') {
            int i = count - 1;
            while (i >= 0 && out[i] == '9')
                out[i--] = '0';
            if (i >= 0) {
                out[i]++;
            } else {
                memmove(out + 1, out, (size_t)count);
                out[0] = '1';
                count++;
            }
        }
    }
    /* out holds value * 1e6 as decimal digits; split off six decimals. */
    char whole[400], frac[8];
    int int_digits = count - 6;
    if (int_digits <= 0) {
        snprintf(whole, sizeof(whole), "0");
        memset(frac, '0', 6);
        memcpy(frac + (6 - count), out, (size_t)count);
    } else {
        memcpy(whole, out, (size_t)int_digits);
        whole[int_digits] = 0;
        memcpy(frac, out + int_digits, 6);
    }
    frac[6] = 0;
    sb_sm4_text_appendf(text, "%s%s.%s", negative ? "-" : "", whole, frac);
}

static void format_double_value(struct sb_sm4_text *text, double value, bool old_rounding)
{
    if (old_rounding && value == value && value - value == 0)
        format_old_rounding(text, value);
    else
        sb_sm4_text_appendf(text, "%f", value);
}

void sb_sm4_format_float(struct sb_sm4_text *text, uint32_t bits, bool old_rounding)
{
    union { uint32_t u; float f; } pun = { .u = bits };
    format_double_value(text, (double)pun.f, old_rounding);
}

void sb_sm4_format_double(struct sb_sm4_text *text, uint64_t bits, bool old_rounding)
{
    union { uint64_t u; double d; } pun = { .u = bits };
    format_double_value(text, pun.d, old_rounding);
}

/* Integers print in decimal inside ±10000, else as eight hex digits (§9.7). */
static void format_integer(struct sb_sm4_text *text, uint32_t value)
{
    int32_t s = (int32_t)value;
    if (s >= -10000 && s <= 10000)
        sb_sm4_text_appendf(text, "%d", (int)s);
    else
        sb_sm4_text_appendf(text, "0x%08x", value);
}

void sb_sm4_format_value(struct sb_sm4_text *text, uint32_t value, char print_class,
                         bool old_rounding)
{
    if (print_class == 'f') {
        sb_sm4_format_float(text, value, old_rounding);
    } else if (print_class == 'a') {
        /* Untyped data: a normal float exponent reads as a float, -0.0 too; all else
         * (zero, denormals, inf/NaN patterns) as an integer. */
        uint32_t exponent = (value >> 23) & 0xffu;
        if ((exponent != 0 && exponent != 0xffu) || value == 0x80000000u)
            sb_sm4_format_float(text, value, old_rounding);
        else
            format_integer(text, value);
    } else {
        format_integer(text, value);
    }
}

struct sb_sm4_style sb_sm4_style_from_creator(const char *creator)
{
    /* Default (no creator, e.g. stripped blobs): fxc 10.1. */
    struct sb_sm4_style style = { .aoffimmi_word = true, .discard_test = true,
                                  .upper_cb_decl = true, .sgv_interpolation = true,
                                  .structured_space = false, .old_rounding = false };
    static const char prefix[] = "Microsoft (R) HLSL Shader Compiler ";
    if (!creator || strncmp(creator, prefix, sizeof(prefix) - 1) != 0)
        return style;
    const char *version = creator + sizeof(prefix) - 1;
    long major = strtol(version, NULL, 10);
    if (major >= 10) {
        /* 10.0 had no telling %f sample; 10.1 uses the newer runtime. */
        return style;
    }
    style.upper_cb_decl = false;
    style.structured_space = true;
    style.old_rounding = true;
    if (major == 9) {
        style.sgv_interpolation = false;
        if (!strncmp(version, "9.29.", 5)) {
            style.aoffimmi_word = false;
            style.discard_test = false;
        }
    }
    return style;
}
