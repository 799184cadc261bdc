/* SPDX-License-Identifier: MIT */
/*
 * Checks the known-answer programs themselves, with no translator or GPU:
 * every case's token stream must fit, sit in a container that parses, decode
 * and disassemble without error, and (spot checks) disassemble to the fxc
 * lines the builder meant. With `--print NAME` it prints that case's
 * listing, which is how a failing known-answer case is read.
 *
 * With `--dump DIR` it writes each case's container to DIR/<case>.dxbc
 * (for test_vk_known_answer --peer-dir).
 *
 * Usage: test_ka_listing [--print NAME] [--dump DIR]
 */
#include <stdio.h>
#include <string.h>

#include "ka_cases.h"
#include "shaderbridge/dxbc.h"
#include "translator/sm4.h"

static int failures;

/* Listing lines some cases must contain: the encoder's trickier forms. */
static const struct {
    const char *name, *line;
} spot_checks[] = {
    { "alu_add", "mov r0.xyzw, cb0[r7.x + 0].xyzw" },
    { "alu_add", "store_raw u0.xyzw, r7.y, r5.xyzw" },
    { "alu_udiv_by_zero", "udiv r4.xyzw, r5.xyzw, r0.xyzw, r1.xyzw" },
    { "alu_add_sat", "add_sat r4.xyzw, r0.xyzw, r1.xyzw" },
    { "indexable_temp", "mov x0[r0.x + 0].y, l(77)" },
    { "immediate_constant_buffer", "mov r1.xyzw, icb[r0.x + 0].wzyx" },
    { "flow_callc", "callc_nz r0.x, l0" },
    { "atomics", "imm_atomic_iadd r2.x, u0, l(24), l(1)" },
    { "group_shared_sync", "sync_g_t" },
    { "srv_raw_structured_typed", "ld_structured r1.yz, vThreadID.x, l(0), t1.xxyx" },
    { "group_shared_atomics", "imm_atomic_iadd r1.y, g0, l(4), l(1)" },
    { "bufinfo", "bufinfo r0.y, u1.xxxx" },
    { "append_counter", "imm_atomic_alloc r0.x, u1" },
    { "texture_gather4", "gather4 r2.xyzw, l(0.500000, 0.500000, 0.000000, 0.000000), t0.xyzw, s0.y" },
    { "texture_resinfo_uint", "resinfo_uint r1.xyzw, r0.x, t0.xyzw" },
    { "atomics_exchange", "imm_atomic_cmp_exch r1.y, u0, r0.w, r0.z, l(119)" },
    { "texture_sample_l", "sample_l r2.xyzw, r1.xyxx, t0.xyzw, s0, l(0.000000)" },
};

static void check_case(const struct ka_case *c, const char *print, const char *dump)
{
    if (c->program.overflow) {
        fprintf(stderr, "FAIL %s: program overflows the assembler buffer\n", c->name);
        failures++;
        return;
    }
    static struct blob container;
    sm4_container(&c->program, &container);
    if (dump) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s.dxbc", dump, c->name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(container.bytes, 1, container.size, f) != container.size) {
            fprintf(stderr, "FAIL cannot write %s\n", path);
            failures++;
        }
        if (f)
            fclose(f);
    }
    struct sb_dxbc *dxbc = NULL;
    struct sb_sm4_program *prog = NULL;
    struct sb_error err = { 0 };
    char *text = NULL;
    enum sb_result r = sb_dxbc_parse(container.bytes, container.size, &dxbc, &err);
    if (r == SB_SUCCESS)
        r = sb_sm4_decode_container(dxbc, &prog, &err);
    if (r == SB_SUCCESS)
        r = sb_sm4_disassemble(prog, dxbc, 0, &text, &err);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "FAIL %s: %s at %llu: %s\n", c->name, sb_result_name(r),
                (unsigned long long)err.offset, err.message);
        failures++;
    }
    for (size_t i = 0; text && i < sizeof(spot_checks) / sizeof(spot_checks[0]); i++)
        if (strcmp(spot_checks[i].name, c->name) == 0 && !strstr(text, spot_checks[i].line)) {
            fprintf(stderr, "FAIL %s: listing lacks \"%s\"\n%s\n", c->name, spot_checks[i].line,
                    text);
            failures++;
        }
    if (text && print && strcmp(print, c->name) == 0)
        printf("%s", text);
    sb_sm4_text_free(text);
    sb_sm4_program_destroy(prog);
    sb_dxbc_destroy(dxbc);
}

int main(int argc, char **argv)
{
    const char *print = NULL, *dump = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--print") == 0)
            print = argv[i + 1];
        else if (strcmp(argv[i], "--dump") == 0)
            dump = argv[i + 1];
    }
    static struct ka_case c;
    uint32_t count = ka_case_count();
    for (uint32_t i = 0; i < count; i++) {
        ka_case_build(i, &c);
        check_case(&c, print, dump);
    }
    printf("%u known-answer programs decoded and disassembled, %d failures\n", count, failures);
    return failures ? 1 : 0;
}
