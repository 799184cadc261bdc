/* SPDX-License-Identifier: MIT */
/*
 * validate_generated (issue #14): sb_validate on programs whose results D3D's
 * rules fix exactly, where any difference between lavapipe and the
 * interpreter is a bug, not precision.
 *
 * 1. Random programs (random_cs.c): --count programs of the stream --seed,
 *    each a cs_5_0 program of exact integer, bit, float and conversion
 *    arithmetic, structured flow, buffer loads, group-shared exchanges and
 *    order-independent atomics, writing every temp to u0. Each must give the
 *    verdict `agree` with no mismatching word, no unconstrained word and no
 *    undefined behaviour seen, and every thread's record must end with its
 *    signature on both sides (so the dispatch really ran every thread).
 * 2. Known-answer cases (tests/vulkan/ka_cases.c, ka_alu.c) through
 *    sb_validate with seeded inputs: `agree` for the exact cases, `agree` or
 *    `agree-within-precision` for those the tables give a ULP tolerance or
 *    that use an operation Vulkan computes approximately where D3D does not
 *    (program_approximates), `agree` or `undefined` for those whose known
 *    answer is a multiset (the values depend on thread order). Cases whose
 *    verdict is known to be off are listed with the verdict they give and why
 *    (--ka-expected, known_answer_expected.tsv); a listed case that gives
 *    another verdict fails, so a fix removes its line. Cases sb_validate
 *    cannot run are skipped with their reason, counted.
 *
 * A failure prints the program's listing (byte offsets match the mismatches'
 * origins), the first differing words with the thread, temp and component
 * they belong to, and writes the container to --dump DIR (default: the
 * working directory) as validate_generated_<seed>_<index>.dxbc;
 * `--only INDEX` reruns one program.
 *
 * Usage: test_validate_generated [--count N] [--seed S] [--only INDEX] [--ka-expected TSV]
 *                                [--dump DIR] [--no-ka] [--verbose] [--print]
 * (--print: every program's listing)
 * Exit: 0 pass, 1 failure, 77 no Vulkan device.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ka_cases.h"
#include "random_cs.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"
#include "translator/sm4.h"

static bool verbose, print;
static const char *dump_dir = ".";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The fxc-style listing of a container, with byte offsets (NULL when it does not decode). */
static char *listing(const void *bytes, size_t size)
{
    struct sb_dxbc *dxbc = NULL;
    struct sb_sm4_program *prog = NULL;
    struct sb_error err = { 0 };
    char *text = NULL;
    if (sb_dxbc_parse(bytes, size, &dxbc, &err) == SB_SUCCESS &&
        sb_sm4_decode_container(dxbc, &prog, &err) == SB_SUCCESS)
        sb_sm4_disassemble(prog, dxbc, SB_SM4_DISASM_OFFSETS, &text, &err);
    sb_sm4_program_destroy(prog);
    sb_dxbc_destroy(dxbc);
    return text;
}

static void dump(const char *name, const struct blob *container)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.dxbc", dump_dir, name);
    FILE *f = fopen(path, "wb");
    if (f && fwrite(container->bytes, 1, container->size, f) == container->size)
        printf("  container written to %s\n", path);
    else
        printf("  cannot write %s\n", path);
    if (f)
        fclose(f);
}

static void print_listing(const struct blob *container)
{
    char *text = listing(container->bytes, container->size);
    printf("%s", text ? text : "  (the container does not decode)\n");
    sb_sm4_text_free(text);
}

static const struct sb_rt_resource *find_uav(const struct sb_rt_inputs *in, uint32_t reg)
{
    for (uint32_t i = 0; in && i < in->count; i++)
        if (in->resources[i].resource_class == SB_IR_RESOURCE_UAV && in->resources[i].register_index == reg &&
            in->resources[i].space == 0)
            return &in->resources[i];
    return NULL;
}

/* The first differing words, placed in u0's records where they fall there. */
static void print_mismatches(const struct sb_validate_report *report, const struct rcs_program *gen)
{
    printf("  %s\n", report->reason);
    for (uint32_t k = 0; k < report->kept && k < 12; k++) {
        const struct sb_validate_mismatch *m = &report->mismatches[k];
        const struct sb_rt_resource *r = &report->gpu->resources[m->resource];
        char where[96] = "";
        if (gen && r->resource_class == SB_IR_RESOURCE_UAV && r->register_index == 0 &&
            m->byte_offset != UINT64_MAX) {
            uint64_t word = m->byte_offset % gen->record_bytes / 4;
            if (word / 4 < gen->data_temps)
                snprintf(where, sizeof(where), " (thread %llu r%llu.%c)",
                         (unsigned long long)(m->byte_offset / gen->record_bytes), (unsigned long long)(word / 4),
                         "xyzw"[word % 4]);
            else
                snprintf(where, sizeof(where), " (thread %llu signature)",
                         (unsigned long long)(m->byte_offset / gen->record_bytes));
        }
        printf("  u%u byte %llu%s: gpu 0x%08x cpu 0x%08x, %s, origin byte %d\n", r->register_index,
               (unsigned long long)m->byte_offset, where, m->gpu, m->cpu, sb_validate_verdict_name(m->explained),
               m->origin == UINT32_MAX ? -1 : (int)m->origin);
    }
}

/* Every thread's record ends with (flat id, group, ~flat id, RCS_SIGNATURE | temps). */
static uint32_t signature_errors(const struct sb_rt_inputs *in, const struct rcs_program *gen)
{
    const struct sb_rt_resource *u0 = find_uav(in, 0);
    uint32_t per_group = gen->threads_x * gen->threads_y, errors = 0;
    if (!u0)
        return 1;
    for (uint32_t id = 0; id < per_group * gen->groups; id++) {
        uint64_t at = (uint64_t)id * gen->record_bytes + (uint64_t)gen->data_temps * 16;
        if (at + 16 > u0->size) {
            errors++;
            continue;
        }
        const uint32_t *w = (const uint32_t *)((const uint8_t *)u0->data + at);
        uint32_t want[4] = { id, id / per_group, ~id, RCS_SIGNATURE | gen->data_temps };
        errors += memcmp(w, want, sizeof(want)) != 0;
    }
    return errors;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* How many different words the threads' temps hold at the end: a program whose records
 * were all alike would agree without showing much. */
static uint32_t distinct_values(const struct sb_rt_inputs *in, const struct rcs_program *gen)
{
    static uint32_t words[64 * 3 * 4 * 8];
    const struct sb_rt_resource *u0 = find_uav(in, 0);
    uint32_t threads = gen->threads_x * gen->threads_y * gen->groups, n = 0;
    for (uint32_t id = 0; u0 && id < threads; id++)
        for (uint32_t w = 0; w < gen->data_temps * 4 && n < sizeof(words) / 4; w++) {
            uint64_t at = (uint64_t)id * gen->record_bytes + 4u * w;
            if (at + 4 <= u0->size)
                memcpy(&words[n++], (const uint8_t *)u0->data + at, 4);
        }
    qsort(words, n, 4, compare_u32);
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++)
        distinct += i == 0 || words[i] != words[i - 1];
    return distinct;
}

struct totals {
    uint32_t programs, failures, instructions, pruned;
    uint32_t distinct_min, distinct_sum;
    uint32_t verdicts[5];
    uint32_t opcode_count[256];
    double gpu_s, cpu_s;
};

static bool run_generated(struct sb_rt_context *context, uint64_t seed, uint32_t index, struct totals *t)
{
    static struct rcs_program gen;
    static struct blob container;
    char name[64];
    snprintf(name, sizeof(name), "validate_generated_%llu_%u", (unsigned long long)seed, index);
    if (!rcs_generate(seed, index, &gen)) {
        printf("FAIL %s: no program fits the assembler's buffer\n", name);
        return false;
    }
    sm4_container(&gen.program, &container);
    t->programs++;
    t->instructions += gen.instructions;
    t->pruned += gen.pruned;
    for (uint32_t op = 0; op < 256; op++)
        t->opcode_count[op] += gen.opcode_count[op];

    struct sb_rt_program *program = NULL;
    struct sb_validate_report *report = NULL;
    struct sb_error error = { 0 };
    struct sb_validate_options options = {
        .inputs = { .seed = seed * 1000003u + index },
        .group_count = { gen.groups, 1, 1 },
    };
    enum sb_result r = sb_rt_program_load(container.bytes, container.size, NULL, &program, &error);
    if (r == SB_SUCCESS)
        r = sb_validate(context, program, &options, &report, &error);
    bool ok = r == SB_SUCCESS;
    uint32_t gpu_sig = 0, cpu_sig = 0, distinct = 0;
    if (ok) {
        t->verdicts[report->verdict < 5 ? report->verdict : 4]++;
        t->gpu_s += (double)(report->gpu_timing.pipeline_ns + report->gpu_timing.upload_ns +
                             report->gpu_timing.run_ns + report->gpu_timing.readback_ns) / 1e9;
        t->cpu_s += (double)report->cpu_ns / 1e9;
        distinct = distinct_values(report->cpu, &gen);
        t->distinct_min = t->programs == 1 || distinct < t->distinct_min ? distinct : t->distinct_min;
        t->distinct_sum += distinct;
        gpu_sig = signature_errors(report->gpu, &gen);
        cpu_sig = signature_errors(report->cpu, &gen);
        ok = report->verdict == SB_VALIDATE_AGREE && report->mismatch_count == 0 && report->unconstrained == 0 &&
             report->undefined_events == 0 && gpu_sig == 0 && cpu_sig == 0;
    }
    if (verbose || !ok)
        printf("%s %s: %u threads x %u groups, %u instructions (%u pruned), %u different words: %s\n",
               ok ? "ok" : "FAIL", name, gen.threads_x * gen.threads_y, gen.groups, gen.instructions, gen.pruned,
               distinct, r != SB_SUCCESS ? sb_result_name(r) : sb_validate_verdict_name(report->verdict));
    if (print && ok)
        print_listing(&container);
    if (!ok) {
        if (r != SB_SUCCESS)
            printf("  %s\n", error.message);
        else {
            printf("  %llu words compared, %llu mismatching, %llu unconstrained, %llu undefined events; "
                   "signature errors: gpu %u, cpu %u\n",
                   (unsigned long long)report->words_compared, (unsigned long long)report->mismatch_count,
                   (unsigned long long)report->unconstrained, (unsigned long long)report->undefined_events, gpu_sig,
                   cpu_sig);
            print_mismatches(report, &gen);
        }
        printf("  reproduce: test_validate_generated --seed %llu --only %u\n", (unsigned long long)seed, index);
        dump(name, &container);
        print_listing(&container);
        t->failures++;
    }
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
    return ok;
}

/* ---- known-answer cases ----------------------------------------------- */

enum ka_expect { KA_EXPECT_AGREE, KA_EXPECT_PRECISION, KA_EXPECT_ORDER };

/*
 * Whether the program uses an operation Vulkan lets a device compute approximately even
 * where D3D's answer (the table's) is exact: filtering (sample*, gather*: the seeded
 * sampler is linear, and the filter's precision is the device's), GLSL.std.450 Fma, which
 * need not be fused (dfma), and double division (OpFDiv: 2.5 ULP; Vulkan asks doubles only
 * for the precision of single-precision operations).
 */
static bool program_approximates(const struct sb_ir_program *ir)
{
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t k = 0; k < ir->functions[f].instruction_count; k++) {
            uint32_t op = ir->functions[f].instructions[k].op;
            if ((op >= SB_IR_OP_SAMPLE && op <= SB_IR_OP_SAMPLE_C_LZ) || op == SB_IR_OP_GATHER4 ||
                op == SB_IR_OP_GATHER4_C || op == SB_IR_OP_GATHER4_PO || op == SB_IR_OP_GATHER4_PO_C ||
                op == SB_IR_OP_DFMA || op == SB_IR_OP_DDIV || op == SB_IR_OP_DRCP)
                return true;
        }
    return false;
}

/* The checked-in list of cases whose verdict is known to be off (known_answer_expected.tsv). */
#define KA_LISTED_MAX 64

static struct {
    char name[48];
    char verdict[32];
    bool seen;
} ka_listed[KA_LISTED_MAX];
static uint32_t ka_listed_count;

static bool load_ka_listed(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL cannot open %s\n", path);
        return false;
    }
    char line[1024];
    bool ok = true;
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
        if (!tab2 || ka_listed_count == KA_LISTED_MAX) {
            printf("FAIL %s: bad line (want case<TAB>verdict<TAB>reason): %s", path, line);
            ok = false;
            break;
        }
        *tab = *tab2 = 0;
        snprintf(ka_listed[ka_listed_count].name, sizeof(ka_listed[0].name), "%.47s", line);
        snprintf(ka_listed[ka_listed_count].verdict, sizeof(ka_listed[0].verdict), "%.31s", tab + 1);
        ka_listed_count++;
    }
    fclose(f);
    return ok;
}

static int find_ka_listed(const char *name)
{
    for (uint32_t i = 0; i < ka_listed_count; i++)
        if (!strcmp(ka_listed[i].name, name))
            return (int)i;
    return -1;
}

static enum ka_expect ka_expectation(const struct ka_case *c, const struct sb_ir_program *ir)
{
    enum ka_expect e = KA_EXPECT_AGREE;
    for (uint32_t i = 0; i < c->resource_count; i++) {
        if (!c->res[i].check)
            continue;
        if (c->res[i].compare == KA_MULTISET)
            return KA_EXPECT_ORDER;
        if (c->res[i].ulps)
            e = KA_EXPECT_PRECISION;
    }
    return program_approximates(ir) ? KA_EXPECT_PRECISION : e;
}

struct ka_totals {
    uint32_t cases, validated, skipped, listed, failures;
    uint32_t verdicts[5];
    uint32_t by_expect[3];
};

static void run_known_answer(struct sb_rt_context *context, uint32_t index, struct ka_totals *t)
{
    static struct ka_case c;
    static struct blob container;
    ka_case_build(index, &c);
    t->cases++;
    if (c.program.overflow) {
        printf("FAIL ka %s: the program overflows the assembler buffer\n", c.name);
        t->failures++;
        return;
    }
    sm4_container(&c.program, &container);
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *report = NULL;
    struct sb_error error = { 0 };
    struct sb_validate_options options = { .inputs = { .seed = 1 }, .group_count = { c.groups, 1, 1 } };
    enum sb_result r = sb_rt_program_load(container.bytes, container.size, NULL, &program, &error);
    if (r == SB_SUCCESS)
        r = sb_validate(context, program, &options, &report, &error);
    if (r == SB_ERROR_RUN_UNSUPPORTED) {
        printf("skipped ka %s: %s\n", c.name, error.message);
        t->skipped++;
        sb_rt_program_destroy(program);
        return;
    }
    bool ok = r == SB_SUCCESS;
    enum ka_expect e = ok ? ka_expectation(&c, program->ir) : KA_EXPECT_AGREE;
    if (ok) {
        enum sb_validate_verdict v = report->verdict;
        t->validated++;
        t->verdicts[v < 5 ? v : 4]++;
        t->by_expect[e]++;
        ok = v == SB_VALIDATE_AGREE || (e == KA_EXPECT_PRECISION && v == SB_VALIDATE_AGREE_WITHIN_PRECISION) ||
             (e == KA_EXPECT_ORDER && v == SB_VALIDATE_UNDEFINED);
        int listed = find_ka_listed(c.name);
        if (listed >= 0) {
            ka_listed[listed].seen = true;
            ok = !strcmp(ka_listed[listed].verdict, sb_validate_verdict_name(v));
            if (ok)
                t->listed++;
            else
                printf("FAIL ka %s: listed as %s, now %s: update or remove its line\n", c.name,
                       ka_listed[listed].verdict, sb_validate_verdict_name(v));
            if (ok && verbose)
                printf("listed ka %s: %s, as known_answer_expected.tsv says\n", c.name, ka_listed[listed].verdict);
            if (ok) {
                sb_validate_report_destroy(report);
                sb_rt_program_destroy(program);
                return;
            }
        }
    }
    static const char *const expect_text[3] = { "exact: agree", "approximate: agree or within precision",
                                                "order-dependent: agree or undefined" };
    if (verbose || !ok)
        printf("%s ka %s (%s): %s%s%s\n", ok ? "ok" : "FAIL", c.name, expect_text[e],
               r != SB_SUCCESS ? sb_result_name(r) : sb_validate_verdict_name(report->verdict),
               r == SB_SUCCESS && report->verdict != SB_VALIDATE_AGREE ? ": " : "",
               r == SB_SUCCESS && report->verdict != SB_VALIDATE_AGREE ? report->reason : "");
    if (!ok) {
        if (r != SB_SUCCESS)
            printf("  %s\n", error.message);
        else
            print_mismatches(report, NULL);
        dump(c.name, &container);
        print_listing(&container);
        t->failures++;
    }
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
}

static void print_ops(const struct totals *t)
{
    uint32_t distinct = 0;
    for (uint32_t op = 0; op < 256; op++)
        distinct += t->opcode_count[op] != 0;
    printf("opcodes covered: %u:", distinct);
    for (uint32_t op = 0, n = 0; op < 256; op++)
        if (t->opcode_count[op])
            printf("%s %s %u", n++ % 8 ? "," : "\n ", sb_sm4_opcode_name(op), t->opcode_count[op]);
    printf("\n");
}

int main(int argc, char **argv)
{
    uint32_t count = 300, only = UINT32_MAX;
    uint64_t seed = 1;
    bool ka = true;
    const char *ka_expected = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
            dump_dir = argv[++i];
        else if (!strcmp(argv[i], "--ka-expected") && i + 1 < argc)
            ka_expected = argv[++i];
        else if (!strcmp(argv[i], "--no-ka"))
            ka = false;
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (!strcmp(argv[i], "--print"))
            print = verbose = true;
        else {
            fprintf(stderr, "usage: test_validate_generated [--count N] [--seed S] [--only INDEX] "
                            "[--ka-expected TSV] [--dump DIR] [--no-ka] [--verbose] [--print]\n");
            return 2;
        }
    }
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options context_options = { .validation = true };
    if (sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    double start = now_s();
    static struct totals t;
    for (uint32_t i = 0; i < count || (only != UINT32_MAX && i <= only); i++)
        if (only == UINT32_MAX || i == only)
            run_generated(context, seed, i, &t);
    double generated_s = now_s() - start;
    struct ka_totals k = { 0 };
    if (ka && only == UINT32_MAX) {
        if (ka_expected && !load_ka_listed(ka_expected))
            k.failures++;
        for (uint32_t i = 0; i < ka_case_count(); i++)
            run_known_answer(context, i, &k);
        for (uint32_t i = 0; i < ka_listed_count; i++)
            if (!ka_listed[i].seen) {
                printf("FAIL %s lists %s, which is no known-answer case\n", ka_expected, ka_listed[i].name);
                k.failures++;
            }
    }
    uint32_t layer_errors = sb_rt_context_validation_errors(context);

    printf("validate_generated on %s, seed %llu\n", sb_rt_context_device_name(context), (unsigned long long)seed);
    printf("random programs: %u (%u instructions, %.1f per program; %u generated instructions pruned by the "
           "range check), %.1f s (device %.1f s, interpreter %.1f s)\n",
           t.programs, t.instructions, t.programs ? (double)t.instructions / t.programs : 0.0, t.pruned, generated_s,
           t.gpu_s, t.cpu_s);
    printf("  verdicts: agree %u, agree-within-precision %u, undefined %u, not-run %u, disagree %u; errors %u; "
           "failures %u\n",
           t.verdicts[0], t.verdicts[1], t.verdicts[2], t.verdicts[3], t.verdicts[4],
           t.programs - (t.verdicts[0] + t.verdicts[1] + t.verdicts[2] + t.verdicts[3] + t.verdicts[4]), t.failures);
    printf("  different words in the temps' records: %u per program on average, at least %u\n",
           t.programs ? t.distinct_sum / t.programs : 0, t.distinct_min);
    print_ops(&t);
    if (ka && only == UINT32_MAX)
        printf("known-answer cases: %u, validated %u (exact %u, approximate %u, order-dependent %u), skipped %u; "
               "verdicts: agree %u, agree-within-precision %u, undefined %u, disagree %u (%u of them as listed in "
               "the expected list); failures %u\n",
               k.cases, k.validated, k.by_expect[KA_EXPECT_AGREE], k.by_expect[KA_EXPECT_PRECISION],
               k.by_expect[KA_EXPECT_ORDER], k.skipped, k.verdicts[0], k.verdicts[1], k.verdicts[2], k.verdicts[4],
               k.listed, k.failures);
    printf("validation-layer errors: %u%s%s\n", layer_errors, layer_errors ? ": " : "",
           layer_errors ? sb_rt_context_first_validation_error(context) : "");
    printf("total %.1f s\n", now_s() - start);
    sb_rt_context_destroy(context);
    return t.failures || k.failures || layer_errors ? 1 : 0;
}
