/* SPDX-License-Identifier: MIT */
/*
 * The sampler text of `--input sN=FILE` (tools/shaderbridge/sampler_text.c): a full
 * description and the defaults parsed to the values the syntax defines, then bad texts
 * refused with the exact code and the byte offset of the offending token (counted by hand
 * in each string below).
 */
#include <string.h>

#include "check.h"
#include "sampler_text.h"

static enum sb_result parse(const char *text, struct sb_rt_sampler *s, struct sb_error *e)
{
    memset(e, 0, sizeof(*e));
    return cli_sampler_text_parse((const uint8_t *)text, strlen(text), s, e);
}

static void test_full(void)
{
    const char *text = "# a shadow sampler\n"
                       "filter = point   # overridden below for min\n"
                       "min_filter=linear\n"
                       "\taddress = wrap\r\n"
                       "address_v = mirror_once\n"
                       "address_w = border\n"
                       "border_color = 0.25 -1 2.5 1\n"
                       "comparison = greater_equal\n"
                       "mip_lod_bias = -0.5\n"
                       "min_lod = 1\n"
                       "max_lod = 3.5\n";
    struct sb_rt_sampler s;
    struct sb_error e;
    CHECK(parse(text, &s, &e) == SB_SUCCESS, "full text: %s", e.message);
    CHECK(s.mag_filter == SB_RT_FILTER_NEAREST && s.mip_filter == SB_RT_FILTER_NEAREST, "filter = point");
    CHECK(s.min_filter == SB_RT_FILTER_LINEAR, "min_filter overrides");
    CHECK(s.address[0] == SB_RT_ADDRESS_REPEAT && s.address[1] == SB_RT_ADDRESS_MIRROR_ONCE &&
              s.address[2] == SB_RT_ADDRESS_CLAMP_TO_BORDER, "addresses %u %u %u", s.address[0], s.address[1],
          s.address[2]);
    CHECK(s.border_color[0] == 0.25f && s.border_color[1] == -1.0f && s.border_color[2] == 2.5f &&
              s.border_color[3] == 1.0f, "border");
    CHECK(s.compare_op == 6 && !s.compare, "greater_equal is VK_COMPARE_OP_GREATER_OR_EQUAL (6), compare %d",
          s.compare);
    CHECK(s.mip_lod_bias == -0.5f && s.min_lod == 1.0f && s.max_lod == 3.5f, "LODs");
    CHECK(s.max_anisotropy == 0.0f, "no anisotropy without filter = anisotropic: %g", (double)s.max_anisotropy);
}

static void test_defaults(void)
{
    struct sb_rt_sampler s;
    struct sb_error e;
    CHECK(parse("", &s, &e) == SB_SUCCESS, "empty text");
    /* D3D11's default sampler state. */
    CHECK(s.min_filter == SB_RT_FILTER_LINEAR && s.mag_filter == SB_RT_FILTER_LINEAR &&
              s.mip_filter == SB_RT_FILTER_LINEAR, "linear");
    for (int a = 0; a < 3; a++)
        CHECK(s.address[a] == SB_RT_ADDRESS_CLAMP_TO_EDGE, "clamp on axis %d", a);
    CHECK(s.border_color[0] == 1.0f && s.border_color[3] == 1.0f, "white border");
    CHECK(s.compare_op == 0 && s.min_lod == 0.0f && s.max_lod == 1000.0f && s.mip_lod_bias == 0.0f, "never, LODs");
    CHECK(parse("filter = anisotropic\n", &s, &e) == SB_SUCCESS && s.max_anisotropy == 16.0f &&
              s.min_filter == SB_RT_FILTER_LINEAR, "anisotropic defaults to 16: %g", (double)s.max_anisotropy);
    CHECK(parse("max_anisotropy = 4\nfilter = anisotropic", &s, &e) == SB_SUCCESS && s.max_anisotropy == 4.0f,
          "max_anisotropy 4 (no final newline): %g", (double)s.max_anisotropy);
}

/* Each bad text: its code and the offset of the token at fault. */
static void test_refusals(void)
{
    static const struct {
        const char *text;
        enum sb_result code;
        uint64_t offset;
        const char *words; /* in the message */
    } cases[] = {
        { "filter = lineer\n", SB_ERROR_BAD_VALUE, 9, "not 'lineer'" },
        { "# ok\nfiltre = point\n", SB_ERROR_BAD_VALUE, 5, "unknown key 'filtre'" },
        { "filter point\n", SB_ERROR_BAD_STRING, 0, "no '='" },
        { "filter mag = point\n", SB_ERROR_BAD_STRING, 7, "one key before '='" },
        { "= point\n", SB_ERROR_BAD_STRING, 0, "one key" },
        { "filter =\n", SB_ERROR_BAD_VALUE, 0, "1 value, 0 given" },
        { "address = wrap clamp\n", SB_ERROR_TRAILING_DATA, 15, "the line goes on" },
        { "border_color = 1 2 3\n", SB_ERROR_BAD_VALUE, 20, "4 values, 3 given" },
        { "border_color = 1 2 x 4\n", SB_ERROR_BAD_VALUE, 19, "not 'x'" },
        { "max_lod = nan\n", SB_ERROR_BAD_VALUE, 10, "a number" },
        { "max_lod = 1e39\n", SB_ERROR_BAD_VALUE, 10, "a number" },
        { "mip_lod_bias = 16\n", SB_ERROR_BAD_VALUE, 15, "from -16 to 15.99" },
        { "max_anisotropy = 2.5\n", SB_ERROR_BAD_VALUE, 17, "whole number" },
        { "max_anisotropy = 17\n", SB_ERROR_BAD_VALUE, 17, "from 1 to 16" },
        { "address = wrap\naddress = clamp\n", SB_ERROR_DUPLICATE, 15, "given twice (first at byte 0)" },
        { "max_lod = 2\nmin_lod = 3\n", SB_ERROR_BAD_VALUE, 12, "min_lod 3 is above max_lod 2" },
        { "comparison = lequal\n", SB_ERROR_BAD_VALUE, 13, "less_equal" },
        { "address_u = mirror_twice\n", SB_ERROR_BAD_VALUE, 12, "border, mirror_once, not 'mirror_twice'" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct sb_rt_sampler s;
        struct sb_error e;
        enum sb_result r = parse(cases[i].text, &s, &e);
        CHECK(r == cases[i].code && e.code == cases[i].code && e.offset == cases[i].offset &&
                  strstr(e.message, cases[i].words),
              "case %zu (%s): %s at %llu: %s", i, cases[i].text, sb_result_name(r), (unsigned long long)e.offset,
              e.message);
    }
    /* A NUL byte is refused where it is, before anything else is read. */
    static const uint8_t nul[] = { 'f', 'i', 'l', 't', 'e', 'r', '=', 0, 'x' };
    struct sb_rt_sampler s;
    struct sb_error e = { 0 };
    CHECK(cli_sampler_text_parse(nul, sizeof(nul), &s, &e) == SB_ERROR_BAD_STRING && e.offset == 7,
          "NUL: %s at %llu", e.message, (unsigned long long)e.offset);
    /* A token longer than the number buffer is a bad number, not an overflow. */
    char long_number[200] = "min_lod = ";
    memset(long_number + 10, '1', 150);
    CHECK(parse(long_number, &s, &e) == SB_ERROR_BAD_VALUE && e.offset == 10, "long number: %s", e.message);
}

int main(void)
{
    test_full();
    test_defaults();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_sampler_text: %u checks failed\n", failures);
    return failures ? 1 : 0;
}
