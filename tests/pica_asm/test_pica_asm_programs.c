/* SPDX-License-Identifier: MIT */
/*
 * The project's own PICA200 programs (programs/NAME.pica): each assembles, the
 * SHBIN parses, every word decodes and re-encodes to itself, and the
 * disassembly reassembles to identical code and descriptors. Together they
 * must use every opcode, every flow-control form and the three geometry
 * shader modes; the per-program facts below are asserted, not printed.
 */
#include <stdlib.h>
#include <string.h>

#include "pica_test_util.h"

static const char *const programs[] = {"vs_all_ops", "vs_flow", "gs_point", "gs_variable",
                                       "gs_fixed", "two_dvle"};

struct coverage {
    bool opcode[64];
    bool if_else, if_plain, jmpu_inverted, cond_and, cond_or, cond_x, cond_y, relative[4];
    bool madi_wide, inverted_forms[4];
};

static void note(struct coverage *cov, const struct sb_pica_instruction *in)
{
    cov->opcode[in->opcode] = true;
    if (in->opcode == SB_PICA_OP_IFU || in->opcode == SB_PICA_OP_IFC) {
        cov->if_else |= in->flow_num != 0;
        cov->if_plain |= in->flow_num == 0;
    }
    if (in->format == SB_PICA_FORMAT_2 && in->opcode != SB_PICA_OP_CALL) {
        cov->cond_and |= in->condition == SB_PICA_CONDITION_AND;
        cov->cond_or |= in->condition == SB_PICA_CONDITION_OR;
        cov->cond_x |= in->condition == SB_PICA_CONDITION_X;
        cov->cond_y |= in->condition == SB_PICA_CONDITION_Y;
    }
    cov->jmpu_inverted |= in->opcode == SB_PICA_OP_JMPU && in->jmpu_inverted;
    if (in->has_descriptor)
        cov->relative[in->relative] = true;
}

static struct sb_shbin *load(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.pica", dir, name);
    size_t size = 0;
    char *text = (char *)pica_test_read(path, &size);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text)
        return NULL;
    struct sb_shbin *shbin = pica_test_assemble(path, text);
    free(text);
    CHECK(shbin != NULL, "%s does not assemble", path);
    return shbin;
}

static void check_program_facts(const char *name, const struct sb_shbin *shbin)
{
    const struct sb_shbin_dvle *d = &shbin->dvles[0];
    if (!strcmp(name, "gs_point")) {
        CHECK(d->type == SB_SHBIN_SHADER_GEOMETRY && d->gs_mode == SB_SHBIN_GS_MODE_POINT,
              "gs_point mode");
    } else if (!strcmp(name, "gs_variable")) {
        CHECK(d->type == SB_SHBIN_SHADER_GEOMETRY && d->gs_mode == SB_SHBIN_GS_MODE_VARIABLE &&
                  d->gs_variable_vertex_count == 3 && d->merge_outmaps,
              "gs_variable mode");
    } else if (!strcmp(name, "gs_fixed")) {
        CHECK(d->type == SB_SHBIN_SHADER_GEOMETRY && d->gs_mode == SB_SHBIN_GS_MODE_FIXED &&
                  d->gs_fixed_start_register == 0 && d->gs_fixed_vertex_count == 4,
              "gs_fixed mode");
        /* .fvec size lands on c48 (firstReg), .constf half on c95 */
        CHECK(d->uniform_count == 1 && d->uniforms[0].first_register == 0x10 + 48,
              "gs_fixed uniform at c48");
        CHECK(d->constant_count == 1 && d->constants[0].register_index == 95, "constant at c95");
    } else if (!strcmp(name, "two_dvle")) {
        CHECK(shbin->dvle_count == 2, "two DVLEs");
        if (shbin->dvle_count == 2) {
            const struct sb_shbin_dvle *e = &shbin->dvles[1];
            CHECK(d->main_address == 4 && d->end_address == 7, "vmain 4..7 (%u..%u)",
                  d->main_address, d->end_address);
            CHECK(e->main_address == 7 && e->end_address == 11, "vmain2 7..11");
            CHECK(e->uniform_count == 2 && e->uniforms[0].first_register == 0x10 &&
                      e->uniforms[1].first_register == 0x14,
                  "shared mvp at c0, tint at c4");
            CHECK(e->output_count == 2 && d->output_count == 1, "outputs per DVLE");
        }
    } else if (!strcmp(name, "vs_all_ops")) {
        CHECK(d->type == SB_SHBIN_SHADER_VERTEX && d->output_count == 8 &&
                  d->constant_count == 2 && d->constants[0].register_index == 95 &&
                  d->constants[1].register_index == 94 && d->constants[1].float24[1] == 0xC00000,
              "vs_all_ops tables");
        /* outputs: texcoord0w on o2 lane z (table bit 2), view o4 xyz */
        CHECK(d->outputs[3].type == SB_SHBIN_OUTPUT_TEXCOORD0_W && d->outputs[3].mask == 0x4 &&
                  d->outputs[5].type == SB_SHBIN_OUTPUT_VIEW && d->outputs[5].mask == 0x7,
              "output masks");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_pica_asm_programs PROGRAM_DIR\n");
        return 2;
    }
    struct coverage cov;
    memset(&cov, 0, sizeof(cov));
    unsigned round_trips = 0, words = 0;
    for (size_t p = 0; p < sizeof(programs) / sizeof(programs[0]); ++p) {
        struct sb_shbin *shbin = load(argv[1], programs[p]);
        if (!shbin)
            continue;
        const struct sb_shbin_program *prog = &shbin->program;
        struct sb_pica_instruction *code = calloc(prog->code_word_count + 1, sizeof(*code));
        CHECK(code && sb_pica_decode_shbin(shbin, code, NULL) == SB_SUCCESS, "%s decodes",
              programs[p]);
        for (uint32_t i = 0; code && i < prog->code_word_count; ++i)
            note(&cov, &code[i]);
        free(code);
        words += prog->code_word_count;
        CHECK(pica_test_reencode(programs[p], shbin) == 0, "%s re-encodes", programs[p]);
        bool same = pica_test_round_trip(programs[p], shbin);
        CHECK(same, "%s round trip", programs[p]);
        round_trips += same;
        check_program_facts(programs[p], shbin);
        sb_shbin_destroy(shbin);
    }
    for (uint32_t op = 0; op < 64; ++op) {
        enum sb_pica_opcode folded;
        if (sb_pica_fold_opcode(op, &folded) && folded == op)
            CHECK(cov.opcode[op], "opcode %s (0x%02X) not covered", sb_pica_opcode_name(folded), op);
    }
    CHECK(cov.if_else && cov.if_plain, "if with and without else");
    CHECK(cov.cond_and && cov.cond_or && cov.cond_x && cov.cond_y, "every CONDOP");
    CHECK(cov.jmpu_inverted, "inverted jmpu");
    CHECK(cov.relative[1] && cov.relative[2] && cov.relative[3], "a0.x, a0.y and aL indexing");
    printf("pica_asm_programs: %zu programs, %u words, %u/%zu disassemble -> reassemble "
           "identical\n",
           sizeof(programs) / sizeof(programs[0]), words, round_trips,
           sizeof(programs) / sizeof(programs[0]));
    if (pica_test_failures) {
        fprintf(stderr, "%d check(s) failed\n", pica_test_failures);
        return 1;
    }
    return 0;
}
