/* SPDX-License-Identifier: MIT */
/*
 * Known answers on the CPU interpreter: every case of tests/vulkan/ka_cases.c
 * (small cs_5_0 token programs with the values D3D's rules give, computed in
 * C) is decoded, lowered to the IR, dispatched with sb_interp_dispatch on
 * resources built the way the Vulkan runner (test_vk_known_answer.c) builds
 * its buffers and images, and compared the same way: bit-exact (an expected
 * NaN matches any NaN), within the case's ULPs, or as a multiset for
 * atomics' return values.
 *
 * Cases that must currently fail are listed in the expected-failure TSV
 * (name<TAB>reason); a listed case that passes fails the run.
 *
 * Usage: test_interp_known_answer EXPECTED_TSV [--only NAME]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ka_cases.h"
#include "shaderbridge/interp.h"
#include "translator/ir.h"
#include "translator/sm4.h"

#define MAX_EXPECTED 128

static char expected[MAX_EXPECTED][48];
static bool seen[MAX_EXPECTED];
static unsigned expected_count;

static bool load_expected(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab || expected_count == MAX_EXPECTED) {
            fprintf(stderr, "%s: bad line (want name<TAB>reason): %s", path, line);
            fclose(f);
            return false;
        }
        *tab = 0;
        snprintf(expected[expected_count++], sizeof(expected[0]), "%.47s", line);
    }
    fclose(f);
    return true;
}

static int find_expected(const char *name)
{
    for (unsigned i = 0; i < expected_count; i++)
        if (strcmp(expected[i], name) == 0)
            return (int)i;
    return -1;
}

static uint32_t ulp_distance(uint32_t a, uint32_t b)
{
    if ((a ^ b) & 0x80000000u)
        return (a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0 ? 0 : 0xFFFFFFFFu;
    return a > b ? a - b : b - a;
}

static bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu); }

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Mismatching dwords of one checked resource (up to 8 printed). */
static unsigned compare(const struct ka_case *c, const struct ka_resource *res, const uint32_t *got)
{
    static uint32_t a[KA_MAX_DWORDS], b[KA_MAX_DWORDS];
    uint32_t n = res->check_count, from = res->check_from;
    memcpy(a, got + from, n * 4);
    memcpy(b, res->expect + from, n * 4);
    if (res->compare == KA_MULTISET) {
        qsort(a, n, 4, compare_u32);
        qsort(b, n, 4, compare_u32);
    }
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool ok = a[i] == b[i];
        if (!ok && is_nan_bits(b[i]))
            ok = is_nan_bits(a[i]);
        if (!ok && res->compare == KA_ULPS)
            ok = ulp_distance(a[i], b[i]) <= res->ulps;
        if (!ok && bad++ < 8)
            fprintf(stderr, "  %s: reg %u [%u] = 0x%08x (%g), want 0x%08x (%g)\n", c->name, res->reg, from + i,
                    a[i], (double)ka_asf(a[i]), b[i], (double)ka_asf(b[i]));
    }
    return bad;
}

/* VkFormat values the cases use -> the runtime's formats. */
static uint32_t rt_format(uint32_t vk_format, uint32_t fallback)
{
    static const struct { uint32_t vk, rt; } rows[] = {
        { 37, SB_RT_FORMAT_R8G8B8A8_UNORM }, { 97, SB_RT_FORMAT_R16G16B16A16_FLOAT },
        { 98, SB_RT_FORMAT_R32_UINT }, { 99, SB_RT_FORMAT_R32_SINT }, { 100, SB_RT_FORMAT_R32_FLOAT },
        { 101, SB_RT_FORMAT_R32G32_UINT }, { 102, SB_RT_FORMAT_R32G32_SINT },
        { 103, SB_RT_FORMAT_R32G32_FLOAT }, { 107, SB_RT_FORMAT_R32G32B32A32_UINT },
        { 108, SB_RT_FORMAT_R32G32B32A32_SINT }, { 109, SB_RT_FORMAT_R32G32B32A32_FLOAT },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].vk == vk_format)
            return rows[i].rt;
    return vk_format ? SB_RT_FORMAT_UNDEFINED : fallback;
}

/* VkImageViewType -> SM4 resource dimension (§8.3). */
static uint32_t dimension_of_view(uint32_t view_type)
{
    static const uint32_t dims[7] = { 2, 3, 5, 6, 7, 8, 10 };
    return view_type < 7 ? dims[view_type] : 0;
}

/* The case's resources as the interpreter's table; buffers rounded to 16 bytes and
 * zero-filled past the data, as the Vulkan runner allocates them. */
static uint32_t make_resources(const struct ka_case *c, struct sb_rt_resource *out, uint8_t storage[][KA_MAX_DWORDS * 4 + 16])
{
    uint32_t mips = 1;
    for (uint32_t i = 0; i < c->resource_count; i++)
        if (c->res[i].kind == KA_IMAGE)
            mips = c->res[i].mips ? c->res[i].mips : 1;
    for (uint32_t i = 0; i < c->resource_count; i++) {
        const struct ka_resource *k = &c->res[i];
        struct sb_rt_resource *r = &out[i];
        memset(r, 0, sizeof(*r));
        memset(storage[i], 0, sizeof(storage[i]));
        memcpy(storage[i], k->init, (size_t)k->dwords * 4);
        r->resource_class = k->resource_class;
        r->register_index = k->reg;
        r->data = storage[i];
        r->size = ((size_t)k->dwords * 4 + 15) & ~(size_t)15;
        r->layers = r->mip_levels = r->sample_count = 1;
        switch (k->kind) {
        case KA_TEXEL_BUFFER:
            r->format = rt_format(k->format, SB_RT_FORMAT_R32_UINT);
            r->dimension = 1;
            r->width = sb_rt_format_size((enum sb_rt_format)r->format)
                           ? (uint32_t)(r->size / sb_rt_format_size((enum sb_rt_format)r->format))
                           : 0;
            break;
        case KA_IMAGE:
            r->format = rt_format(k->format, SB_RT_FORMAT_R32G32B32A32_FLOAT);
            r->dimension = dimension_of_view(k->view_type);
            r->width = k->width;
            r->height = k->height ? k->height : 1;
            r->depth = k->depth ? k->depth : 1;
            r->layers = k->layers ? k->layers : 1;
            r->mip_levels = k->mips ? k->mips : 1;
            r->size = (size_t)k->dwords * 4;
            break;
        case KA_SAMPLER:
            r->data = NULL;
            r->size = 0;
            r->sampler.address[0] = r->sampler.address[1] = r->sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
            r->sampler.max_lod = (float)mips;
            break;
        default: break;
        }
    }
    return c->resource_count;
}

/* Runs one case; true when every checked dword matches. */
static bool run_case(const struct ka_case *c, char *why, size_t why_size)
{
    static struct sb_rt_resource table[KA_MAX_RESOURCES];
    static uint8_t storage[KA_MAX_RESOURCES][KA_MAX_DWORDS * 4 + 16];
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    bool ok = false;
    enum sb_result r = sb_sm4_decode(c->program.tok, c->program.n * 4, 0, &sm4, &err);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(sm4, NULL, &ir, &err);
    if (r != SB_SUCCESS) {
        snprintf(why, why_size, "lowering: %s at %llu: %s", sb_result_name(r), (unsigned long long)err.offset,
                 err.message);
        goto done;
    }
    uint32_t n = make_resources(c, table, storage);
    const uint32_t groups[3] = { c->groups ? c->groups : 1, 1, 1 };
    struct sb_interp_options options = { .instruction_budget = 1u << 24 };
    r = sb_interp_dispatch(ir, table, n, groups, &options, NULL, &err);
    if (r != SB_SUCCESS) {
        snprintf(why, why_size, "dispatch: %s at %llu: %s", sb_result_name(r), (unsigned long long)err.offset,
                 err.message);
        goto done;
    }
    unsigned bad = 0, checked = 0;
    for (uint32_t i = 0; i < c->resource_count; i++)
        if (c->res[i].check) {
            bad += compare(c, &c->res[i], (const uint32_t *)(const void *)storage[i]);
            checked++;
        }
    if (bad)
        snprintf(why, why_size, "%u dwords differ", bad);
    else if (!checked)
        snprintf(why, why_size, "nothing checked");
    ok = bad == 0 && checked > 0;
done:
    sb_ir_program_destroy(ir);
    sb_sm4_program_destroy(sm4);
    return ok;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s EXPECTED_TSV [--only NAME]\n", argv[0]);
        return 2;
    }
    const char *only = argc >= 4 && strcmp(argv[2], "--only") == 0 ? argv[3] : NULL;
    if (!load_expected(argv[1]))
        return 1;
    static struct ka_case c;
    unsigned passed = 0, failed = 0, xfailed = 0, unexpected = 0;
    for (uint32_t i = 0; i < ka_case_count(); i++) {
        ka_case_build(i, &c);
        if (only && strcmp(only, c.name) != 0)
            continue;
        char why[300] = "";
        bool ok = run_case(&c, why, sizeof(why));
        int e = find_expected(c.name);
        if (e >= 0)
            seen[e] = true;
        if (ok && e < 0) {
            passed++;
            printf("pass  %s\n", c.name);
        } else if (ok) {
            unexpected++;
            fprintf(stderr, "UNEXPECTED PASS %s: remove it from the expected-failure list\n", c.name);
        } else if (e >= 0) {
            xfailed++;
            printf("xfail %s: %s\n", c.name, why);
        } else {
            failed++;
            fprintf(stderr, "FAIL  %s: %s\n", c.name, why);
        }
    }
    for (unsigned i = 0; i < expected_count && !only; i++)
        if (!seen[i]) {
            fprintf(stderr, "UNEXPECTED: listed case %s does not exist\n", expected[i]);
            unexpected++;
        }
    printf("interp known-answer: %u passed, %u failed, %u expected failures, %u unexpected\n", passed, failed,
           xfailed, unexpected);
    return failed || unexpected ? 1 : 0;
}
