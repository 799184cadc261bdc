/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end's memory, atomics and barriers (translator/src/dxil/
 * ir_from_dxil_memory.c, ir_from_dxil_atomics.c) on the writer's programs
 * (tests/common/dxil_programs.h cs_groupshared, dxil_programs_memory.h): each
 * is translated, its SPIR-V validated, its IR declarations checked and run on
 * the CPU interpreter against hand-computed answers. Ordering-independent
 * answers only: every atomic result the programs keep is one whose value does
 * not depend on the order the threads run in.
 *
 * `validate`: the same programs through sb_validate (seeded inputs) on the Vulkan device
 * (lavapipe here) against the interpreter: the verdict must be agree; without a device
 * the interpreter side alone must run.
 *
 * `write DIR`: writes each known-answer program as DIR/NAME.dxil (for `shaderbridge
 * validate`, `disasm`, and tests/robustness/mutate over them).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "dxil_front_harness.h"
#include "dxil_programs.h"
#include "dxil_programs_atomic64.h"
#include "dxil_programs_memory.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"
#include "translator/sm4.h"

enum { MAX_WORDS = 48 };

/* One group of the program over u0 = `start` (copied; zeros when NULL), then every word
 * checked against `expected`. */
static void expect_words(const struct sb_ir_program *ir, const uint32_t *start,
                         const uint32_t *expected, uint32_t count)
{
    uint32_t words[MAX_WORDS] = { 0 };
    if (start)
        memcpy(words, start, count * sizeof(*words));
    struct sb_error err;
    struct sb_rt_resource u0 = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0,
                                 .data = words, .size = count * 4, .layers = 1,
                                 .mip_levels = 1, .sample_count = 1 };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result r = sb_interp_dispatch(ir, &u0, 1, groups, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "dispatch: %s", err.message);
    for (uint32_t i = 0; i < count; i++)
        CHECK(words[i] == expected[i], "u0[%u] = %u (0x%08x), expected %u", i, words[i],
              words[i], expected[i]);
}

/* Counts the instructions of `op` in the entry. */
static uint32_t count_op(const struct sb_ir_program *ir, uint32_t op)
{
    uint32_t n = 0;
    const struct sb_ir_function *fn = &ir->functions[0];
    for (uint32_t i = 0; i < fn->instruction_count; i++)
        n += fn->instructions[i].op == op;
    return n;
}

/* groupshared g[8]: g[t] = t*t, barrier, u0[t] = g[7 - t] -> 49, 36, 25, 16, 9, 4, 1, 0;
 * declared as one raw g# of 8 DWORDs, the barrier one sync with flags 0x3: a group sync
 * with a groupshared fence. */
static void test_groupshared(struct sb_ir_program *ir)
{
    CHECK(ir->group_shared_count == 1 && !ir->group_shared[0].structured &&
          ir->group_shared[0].stride == 4 && ir->group_shared[0].count == 8,
          "g# declarations: %u", ir->group_shared_count);
    CHECK(count_op(ir, SB_IR_OP_SYNC) == 1, "%u syncs", count_op(ir, SB_IR_OP_SYNC));
    const struct sb_ir_function *fn = &ir->functions[0];
    for (uint32_t i = 0; i < fn->instruction_count; i++)
        if (fn->instructions[i].op == SB_IR_OP_SYNC)
            CHECK(fn->instructions[i].sync_flags == 0x3, "sync flags 0x%x",
                  fn->instructions[i].sync_flags);
    static const uint32_t expected[8] = { 49, 36, 25, 16, 9, 4, 1, 0 };
    expect_words(ir, NULL, expected, 8);
}

/* SM 6.8's Barrier(GROUP_SHARED_MEMORY, GROUP_SYNC | GROUP_SCOPE): the same sync (0x3) and
 * the same words as GroupMemoryBarrierWithGroupSync(). */
static bool write_groupshared_barrier68(struct tbuf *out)
{
    return dxil_program_cs_groupshared_barrier68(out, 2, 1 | 2);
}

/* Barrier(NODE_INPUT_MEMORY, GROUP_SYNC | GROUP_SCOPE): work-graph memory, refused. */
static bool write_node_barrier68(struct tbuf *out)
{
    return dxil_program_cs_groupshared_barrier68(out, 4, 1 | 2);
}

/* Barrier(UAV_MEMORY | GROUP_SHARED_MEMORY, DEVICE_SCOPE) without a group sync: fences
 * only, UAVs at device scope: SB_SM4_SYNC_UAV_GLOBAL | GROUP_SHARED_MEMORY. */
static void test_barrier68_flags(void)
{
    struct sb_error err;
    static const struct { uint32_t memory, semantics, flags; } cases[4] = {
        { 1 | 2, 4, SB_SM4_SYNC_UAV_GLOBAL | SB_SM4_SYNC_GROUP_SHARED_MEMORY },
        { 1, 1 | 2, SB_SM4_SYNC_THREADS_IN_GROUP | SB_SM4_SYNC_UAV_GROUP },
        { 1, 1 | 2 | 4, SB_SM4_SYNC_THREADS_IN_GROUP | SB_SM4_SYNC_UAV_GLOBAL },
        { 0, 1, SB_SM4_SYNC_THREADS_IN_GROUP },
    };
    for (unsigned c = 0; c < 4; c++) {
        struct tbuf b = { 0 };
        struct sb_dxbc *container = NULL;
        struct sb_ir_program *ir = NULL;
        memset(&err, 0, sizeof(err));
        bool ok = dxil_program_cs_groupshared_barrier68(&b, cases[c].memory, cases[c].semantics) &&
                  sb_dxbc_parse(b.data, b.size, &container, &err) == SB_SUCCESS &&
                  sb_ir_from_dxil(container, &ir, &err) == SB_SUCCESS;
        CHECK(ok, "barrier68 case %u: %s", c, err.message);
        if (ok) {
            CHECK(count_op(ir, SB_IR_OP_SYNC) == 1, "barrier68 case %u: %u syncs", c,
                  count_op(ir, SB_IR_OP_SYNC));
            const struct sb_ir_function *fn = &ir->functions[0];
            for (uint32_t i = 0; i < fn->instruction_count; i++)
                if (fn->instructions[i].op == SB_IR_OP_SYNC)
                    CHECK(fn->instructions[i].sync_flags == cases[c].flags,
                          "barrier68 case %u: sync flags 0x%x, expected 0x%x", c,
                          fn->instructions[i].sync_flags, cases[c].flags);
        }
        sb_ir_program_destroy(ir);
        sb_dxbc_destroy(container);
        tb_free(&b);
    }
}

/* a = { t, t+10, 3t, 100 }; u0[t] = a[t & 3] + a[(t+1) & 3]:
 * t = 0: 0 + 10; 1: 11 + 3; 2: 6 + 100; 3: 100 + 3; 4: 4 + 14; 5: 15 + 15; 6: 18 + 100;
 * 7: 100 + 7. One x# of 4 one-component elements. */
static void test_local_array(struct sb_ir_program *ir)
{
    CHECK(ir->indexable_temp_count == 1 && ir->indexable_temps[0].count == 4 &&
          ir->indexable_temps[0].components == 1, "x# declarations: %u",
          ir->indexable_temp_count);
    static const uint32_t expected[8] = { 10, 14, 106, 103, 18, 30, 118, 107 };
    expect_words(ir, NULL, expected, 8);
}

/* table = { 3, 1, 4, 1 } in the ICB (4 vectors, the DWORD in x); u0[t] = table[t & 3] * 10 +
 * table[2] = 34, 14, 44, 14, 34, 14, 44, 14. */
static void test_constant_array(struct sb_ir_program *ir)
{
    CHECK(ir->icb_vector_count == 4 && ir->icb[0] == 3 && ir->icb[4] == 1 && ir->icb[8] == 4 &&
          ir->icb[12] == 1 && ir->icb[1] == 0, "icb: %u vectors", ir->icb_vector_count);
    static const uint32_t expected[8] = { 34, 14, 44, 14, 34, 14, 44, 14 };
    expect_words(ir, NULL, expected, 8);
}

/* static s[4] = { 5, 6, 7, 8 } (sum 26), per thread: s[t & 3] = t replaces 5 + (t & 3), so
 * u0[t] = 26 - 5 - (t & 3) + t: 21 for t = 0..3 (e.g. 0+6+7+8), 25 for t = 4..7 (e.g.
 * 4+6+7+8). A shared array would not give these. One x# of 4 DWORDs; the initial MOVs open
 * the body. */
static void test_static_array(struct sb_ir_program *ir)
{
    CHECK(ir->indexable_temp_count == 1 && ir->indexable_temps[0].count == 4,
          "x# declarations: %u", ir->indexable_temp_count);
    const struct sb_ir_instruction *first = &ir->functions[0].instructions[0];
    CHECK(first->op == SB_IR_OP_MOV && first->dst[0].file == SB_IR_FILE_INDEXABLE_TEMP &&
          first->src[0].file == SB_IR_FILE_IMMEDIATE && first->src[0].imm[0] == 5,
          "the body does not open with x0[0] = 5");
    static const uint32_t expected[8] = { 21, 21, 21, 21, 25, 25, 25, 25 };
    expect_words(ir, NULL, expected, 8);
}

/* The atomics over 8 threads, u0 word 0 starting at 100, the others at 0:
 *   word 0: 100 + (1 + ... + 8) = 136 (non-returning add)
 *   word 1: 8 (8 adds of 1; their old values r are 0..7 in some order)
 *   word 2: 77, word 3: 1 (exactly one compare-exchange finds the 0)
 *   words 4..11: 1 (u0[4 + r]), words 12..19: 1 (u0[12 + old], old from the g[0] add)
 *   words 20..27: g[0] + g[1] = 8 + 0xFF = 263
 *   words 28..35: total = (0 + 1 + ... + 7) - 8 * 1 = 20 (the scalar groupshared, g1 of 1
 *     DWORD; the subtractions are adds of the negated value)
 *   word 36: 1 (one cmpxchg of flag succeeds), word 37: 7 * 77 = 539 (the old values: one 0,
 *   seven 77).
 * The IR holds the forms SM4 uses: atomic_or g#, imm_atomic_iadd g#, atomic_iadd g# (total)
 * and u# (+ t+1, the winner count, the cmpxchg's success and old value), imm_atomic_iadd u#
 * (r), imm_atomic_cmp_exch on u# and g# (flag). */
static void test_atomics(struct sb_ir_program *ir)
{
    CHECK(count_op(ir, SB_IR_OP_ATOMIC_OR) == 1 && count_op(ir, SB_IR_OP_IMM_ATOMIC_IADD) == 2 &&
          count_op(ir, SB_IR_OP_ATOMIC_IADD) == 6 && count_op(ir, SB_IR_OP_IMM_ATOMIC_CMP_EXCH) == 2,
          "atomic forms: or %u, imm_iadd %u, iadd %u, imm_cmp_exch %u",
          count_op(ir, SB_IR_OP_ATOMIC_OR), count_op(ir, SB_IR_OP_IMM_ATOMIC_IADD),
          count_op(ir, SB_IR_OP_ATOMIC_IADD), count_op(ir, SB_IR_OP_IMM_ATOMIC_CMP_EXCH));
    CHECK(count_op(ir, SB_IR_OP_SYNC) == 2, "%u syncs", count_op(ir, SB_IR_OP_SYNC));
    CHECK(ir->group_shared_count == 3 && ir->group_shared[1].count == 1 &&
          ir->group_shared[2].count == 1, "g# declarations: %u", ir->group_shared_count);
    uint32_t start[38] = { 100 }, expected[38] = { 136, 8, 77, 1 };
    for (uint32_t i = 4; i < 36; i++)
        expected[i] = i < 20 ? 1 : i < 28 ? 263 : 20;
    expected[36] = 1;
    expected[37] = 539;
    expect_words(ir, start, expected, 38);
}

/* v[t][1] = t and s[t].b[2] = 10 t; u0[t] = asuint(float(7 - t)), u0[8 + t] =
 * 10 * ((t + 1) & 7). Two raw g# of 32 DWORDs: float[8][4], and 8 x (uint a, uint b[3]). */
static void test_groupshared_paths(struct sb_ir_program *ir)
{
    CHECK(ir->group_shared_count == 2 && ir->group_shared[0].count == 32 &&
          ir->group_shared[1].count == 32, "g# declarations: %u", ir->group_shared_count);
    uint32_t expected[16];
    for (uint32_t t = 0; t < 8; t++) {
        float mirror = (float)(7 - t);
        memcpy(&expected[t], &mirror, 4);
        expected[8 + t] = 10 * ((t + 1) & 7);
    }
    expect_words(ir, NULL, expected, 16);
}

/* The known-answer cases: the program and the checks of its IR. */
static const struct {
    const char *name;
    bool (*write)(struct tbuf *out);
    void (*check)(struct sb_ir_program *ir);
} known_answers[] = {
    { "groupshared", dxil_program_cs_groupshared, test_groupshared },
    { "groupshared_barrier68", write_groupshared_barrier68, test_groupshared },
    { "local_array", dxil_program_cs_local_array, test_local_array },
    { "atomics", dxil_program_cs_atomics, test_atomics },
    { "groupshared_paths", dxil_program_cs_groupshared_paths, test_groupshared_paths },
    { "constant_array", dxil_program_cs_constant_array, test_constant_array },
    { "static_array", dxil_program_cs_static_array, test_static_array },
};

/* What is not translated refuses with SB_ERROR_TRANSLATE_UNSUPPORTED at the instruction's
 * byte offset, naming the construct. */
static void refusal(bool (*write)(struct tbuf *), const char *name, const char *expected)
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err);
    CHECK(ir == NULL && err.code == SB_ERROR_TRANSLATE_UNSUPPORTED, "%s: code %d", name,
          (int)err.code);
    CHECK(strstr(err.message, expected) != NULL, "%s: message '%s'", name, err.message);
    CHECK(err.offset > 0, "%s: no offset", name);
    sb_ir_program_destroy(ir);
}

static void test_refusals(void)
{
    refusal(dxil_program_atomic64_groupshared, "atomic64_groupshared",
            "64-bit groupshared atomics are not translated");
    refusal(dxil_program_cs_static_global, "cs_static_global", "without an initializer");
    refusal(write_node_barrier68, "node_barrier68", "node records");
    test_barrier68_flags();
}

/* A validation context on the Vulkan device (lavapipe here), or interpreter-only when there
 * is none (*gpu false); NULL after a failed CHECK. */
static struct sb_rt_context *open_context(bool *gpu)
{
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        CHECK(false, "no context: %s", error.message);
        return NULL;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    *gpu = sb_rt_context_has_device(context);
    printf("dxil_front_memory on %s\n", sb_rt_context_device_name(context));
    return context;
}

static void close_context(struct sb_rt_context *context)
{
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_rt_context_destroy(context);
}

/* sb_validate on one program from seeded inputs with `provided` in place: on a device the
 * verdict must be agree. The report (the caller destroys it), or NULL when it did not run. */
static struct sb_validate_report *validate_program(struct sb_rt_context *context, bool gpu,
                                                   const char *name,
                                                   bool (*write)(struct tbuf *),
                                                   const struct sb_rt_resource *provided,
                                                   uint32_t provided_count)
{
    struct tbuf b = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *r = NULL;
    struct sb_error e = { 0 };
    CHECK(write(&b), "%s: the writer failed", name);
    if (sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", name, e.message);
    } else {
        struct sb_validate_options o = { .inputs = { .seed = 1 },
                                         .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU,
                                         .provided_count = provided_count, .provided = provided };
        enum sb_result res = sb_validate(context, program, &o, &r, &e);
        CHECK(res == SB_SUCCESS, "%s: %s", name, e.message);
        if (res == SB_SUCCESS && gpu)
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0,
                  "%s: verdict %s (%s)", name, sb_validate_verdict_name(r->verdict), r->reason);
        printf("%s: %s\n", name,
               !r ? "not run" : gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
    }
    sb_rt_program_destroy(program);
    tb_free(&b);
    return r;
}

/* UAV `reg`'s words on one side of a report, checked against `expected`. */
static void check_uav(const struct sb_rt_inputs *side, const char *side_name, uint32_t reg,
                      const uint32_t *expected, uint32_t count)
{
    const uint32_t *got = NULL;
    for (uint32_t i = 0; side && i < side->count; i++)
        if (side->resources[i].resource_class == SB_IR_RESOURCE_UAV &&
            side->resources[i].register_index == reg && side->resources[i].size >= count * 4)
            got = side->resources[i].data;
    CHECK(got != NULL, "%s: no u%u", side_name, reg);
    for (uint32_t i = 0; got && i < count; i++)
        CHECK(got[i] == expected[i], "%s: u%u word %u = %u, expected %u", side_name, reg, i,
              got[i], expected[i]);
}

/* Atomics on every UAV shape over 8 threads, all UAVs starting at 0:
 *   u1 (structured, stride 8): .y of element k = sum of t + 1 over t & 3 == k: 1+5, 2+6,
 *     3+7, 4+8 = 6, 8, 10, 12; element 0's .x = 99 (one compare-exchange finds the 0);
 *   u2 (typed buffer): 4, 4 (four adds of 1 each); their old values r are 0..3 per
 *     element, so u0 word 0 = 2 * (0+1+2+3) = 12; u0 word 1 = 1 (one winner);
 *   u3 (2x2 r32_uint): texel (t & 1, t >> 2) |= 1 << t: (0,0) = 1|4 = 5, (1,0) = 2|8 = 10,
 *     (0,1) = 16|64 = 80, (1,1) = 32|128 = 160.
 * Run through sb_validate with these resources: the interpreter and the device (when there
 * is one) must both hold these words, and agree. */
static void test_uav_atomics(void)
{
    bool gpu = false;
    struct sb_rt_context *context = open_context(&gpu);
    if (!context)
        return;
    uint32_t u0[2] = { 0 }, u1[8] = { 0 }, u2[2] = { 0 }, u3[4] = { 0 };
    const struct sb_rt_resource provided[4] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0,
          .size = sizeof(u0), .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = u1,
          .size = sizeof(u1), .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 2, .data = u2,
          .size = sizeof(u2), .layers = 1, .mip_levels = 1, .sample_count = 1 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 3, .data = u3,
          .size = sizeof(u3), .format = SB_RT_FORMAT_R32_UINT, .dimension = 3, .width = 2,
          .height = 2, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 1 },
    };
    static const uint32_t expected0[2] = { 12, 1 }, expected1[8] = { 99, 6, 0, 8, 0, 10, 0, 12 },
                          expected2[2] = { 4, 4 }, expected3[4] = { 5, 10, 80, 160 };
    struct sb_validate_report *r = validate_program(context, gpu, "uav_atomics",
                                                    dxil_program_cs_uav_atomics, provided, 4);
    for (int side = 0; r && side < (gpu ? 2 : 1); side++) {
        const struct sb_rt_inputs *words = side ? r->gpu : r->cpu;
        const char *name = side ? "device" : "interpreter";
        check_uav(words, name, 0, expected0, 2);
        check_uav(words, name, 1, expected1, 8);
        check_uav(words, name, 2, expected2, 2);
        check_uav(words, name, 3, expected3, 4);
    }
    sb_validate_report_destroy(r);
    close_context(context);
}

/* The known-answer programs through sb_validate from seeded inputs. */
static void test_validate(void)
{
    bool gpu = false;
    struct sb_rt_context *context = open_context(&gpu);
    if (!context)
        return;
    for (size_t i = 0; i < sizeof(known_answers) / sizeof(known_answers[0]); i++)
        sb_validate_report_destroy(validate_program(context, gpu, known_answers[i].name,
                                                    known_answers[i].write, NULL, 0));
    close_context(context);
}

/* The known-answer programs as files DIR/NAME.dxil. */
static int write_programs(const char *dir)
{
    for (size_t i = 0; i < sizeof(known_answers) / sizeof(known_answers[0]); i++) {
        char path[4096];
        struct tbuf b = { 0 };
        snprintf(path, sizeof(path), "%s/%s.dxil", dir, known_answers[i].name);
        FILE *out = known_answers[i].write(&b) ? fopen(path, "wb") : NULL;
        bool ok = out && fwrite(b.data, 1, b.size, out) == b.size;
        ok = out && fclose(out) == 0 && ok;
        tb_free(&b);
        if (!ok) {
            fprintf(stderr, "%s: not written\n", path);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "write"))
        return write_programs(argv[2]);
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all"), known = false;
    for (size_t i = 0; i < sizeof(known_answers) / sizeof(known_answers[0]); i++) {
        if (!all && strcmp(which, known_answers[i].name))
            continue;
        struct sb_error err;
        struct sb_ir_program *ir = dxil_front_lower(known_answers[i].write, &err);
        CHECK(ir != NULL, "%s: %s", known_answers[i].name, err.message);
        if (ir)
            known_answers[i].check(ir);
        sb_ir_program_destroy(ir);
        known = true;
    }
    if (all || !strcmp(which, "refusals")) {
        test_refusals();
        known = true;
    }
    if (all || !strcmp(which, "uav_atomics")) {
        test_uav_atomics();
        known = true;
    }
    if (all || !strcmp(which, "validate")) {
        test_validate();
        known = true;
    }
    CHECK(known, "no case '%s'", which);
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
