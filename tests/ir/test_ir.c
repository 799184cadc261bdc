/* SPDX-License-Identifier: MIT */
/*
 * Runner for the IR front-end fixtures (README.md in this folder;
 * translator/IR.md). Modes:
 *   test_ir FILE.irtest   hand-written SM4/5 token programs: each is decoded,
 *                         lowered with sb_ir_from_sm4() (and, in a container,
 *                         with sb_ir_from_dxbc(), which must agree), checked with
 *                         sb_ir_validate(), printed with
 *                         sb_ir_print(), and the expected lines must appear in
 *                         that order; or the lowering must fail with the
 *                         expected code, byte offset and instruction index.
 *   test_ir --walk-table  every row of sb_ir_op_info() is well formed, and every
 *                         SM4 instruction opcode maps to an IR op that admits
 *                         its operand counts (sb_ir_sm4_op_mapping).
 *   test_ir --container   signature merge and RDEF names from a container
 *                         built here (tests/dxbc_fxc/fxc_builder.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "translator/ir.h"
#include "shaderbridge/result.h"
#include "translator/sm4.h"
#include "fxc_builder.h"
#include "ir_compare.h"
#include "ir_from_sm4_private.h"
#include "sm4_private.h"

#define MAX_TOKENS 4096
#define MAX_EXPECT 256

static unsigned failures, cases;

struct fixture {
    char name[160];
    int line;
    uint32_t version;
    uint64_t base;
    uint32_t tokens[MAX_TOKENS];
    uint32_t token_count;
    char *expect[MAX_EXPECT];
    unsigned expect_count;
    bool want_error;
    char error_code[64];
    unsigned long long error_offset;
    long error_instr;
};

static void case_fail(const struct fixture *f, const char *format, const char *detail)
{
    fprintf(stderr, "line %d (%s): ", f->line, f->name);
    fprintf(stderr, format, detail);
    fputc('\n', stderr);
    failures++;
}

static void rstrip(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
}

/* Does `text` contain the expected lines in order (whole lines, trailing blanks ignored)? */
static void check_lines(const struct fixture *f, const char *text)
{
    const char *pos = text;
    for (unsigned i = 0; i < f->expect_count; i++) {
        bool found = false;
        while (*pos && !found) {
            const char *end = strchr(pos, '\n');
            size_t len = end ? (size_t)(end - pos) : strlen(pos);
            char line[1024];
            snprintf(line, sizeof(line), "%.*s", (int)len, pos);
            rstrip(line);
            found = !strcmp(line, f->expect[i]);
            pos = end ? end + 1 : pos + len;
        }
        if (!found) {
            case_fail(f, "expected line not found (in order): %s", f->expect[i]);
            fprintf(stderr, "---- sb_ir_print output ----\n%s----\n", text);
            return;
        }
    }
}

/*
 * The fixture's program in a container (one SHEX part), lowered by sb_ir_from_dxbc()
 * and by sb_sm4_decode_container() + sb_ir_from_sm4(): the same result, error and
 * program. (Offsets are the container's, so the expectations above do not apply.)
 */
static void check_fused(const struct fixture *f, const uint8_t *program, size_t bytes)
{
    static struct blob part_data, container;
    if (bytes > sizeof(part_data.bytes) - 64)
        return; /* larger than the test blob: the corpus test covers such programs */
    memset(&part_data, 0, sizeof(part_data));
    memcpy(part_data.bytes, program, bytes);
    part_data.size = (uint32_t)bytes;
    struct part_spec part = { SB_FOURCC('S', 'H', 'E', 'X'), &part_data };
    build_container(&part, 1, &container, NULL);
    struct sb_dxbc *dxbc = NULL;
    if (sb_dxbc_parse(container.bytes, container.size, &dxbc, NULL) != SB_SUCCESS) {
        case_fail(f, "%s", "the fixture's container does not parse");
        return;
    }
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *general = NULL, *fused = NULL;
    struct sb_error eg, ef;
    memset(&eg, 0, sizeof(eg));
    memset(&ef, 0, sizeof(ef));
    enum sb_result rg = sb_sm4_decode_container(dxbc, &sm4, &eg);
    if (rg == SB_SUCCESS)
        rg = sb_ir_from_sm4(sm4, dxbc, &general, &eg);
    enum sb_result rf = sb_ir_from_dxbc(dxbc, &fused, &ef);
    if (rg != rf || eg.code != ef.code || eg.offset != ef.offset || eg.instr != ef.instr ||
        strcmp(eg.message, ef.message))
        case_fail(f, "sb_ir_from_dxbc reports differently: %s", ef.message);
    else if (rg == SB_SUCCESS && (!fused || !same_program(general, fused)))
        case_fail(f, "%s", "sb_ir_from_dxbc lowers to a different program");
    sb_ir_program_destroy(general);
    sb_ir_program_destroy(fused);
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(dxbc);
}

static void run_fixture(struct fixture *f)
{
    cases++;
    size_t bytes = ((size_t)f->token_count + 2) * 4;
    uint8_t *data = malloc(bytes + 1); /* +1: decode from an odd address */
    uint8_t *at = data + 1;
    uint32_t header[2] = { f->version, f->token_count + 2 };
    for (uint32_t i = 0; i < f->token_count + 2; i++) {
        uint32_t v = i < 2 ? header[i] : f->tokens[i - 2];
        for (int b = 0; b < 4; b++)
            at[i * 4 + b] = (uint8_t)(v >> (8 * b));
    }
    check_fused(f, at, bytes);
    struct sb_sm4_program *sm4 = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    if (sb_sm4_decode(at, bytes, f->base, &sm4, &error) != SB_SUCCESS) {
        case_fail(f, "the decoder rejected the fixture: %s", error.message);
        free(data);
        return;
    }
    struct sb_ir_program *ir = NULL;
    enum sb_result r = sb_ir_from_sm4(sm4, NULL, &ir, &error);
    if (f->want_error) {
        char got[256];
        snprintf(got, sizeof(got), "%s offset=%llu instr=%ld (%s)",
                 r == SB_SUCCESS ? "SB_SUCCESS" : sb_result_name(error.code),
                 (unsigned long long)error.offset,
                 error.instr == UINT32_MAX ? -1L : (long)error.instr, error.message);
        if (r == SB_SUCCESS || strcmp(sb_result_name(error.code), f->error_code) ||
            error.offset != f->error_offset || (long)(error.instr == UINT32_MAX ? -1L : (long)error.instr) != f->error_instr || ir)
            case_fail(f, "wrong result: %s", got);
    } else if (r != SB_SUCCESS) {
        case_fail(f, "lowering failed: %s", error.message);
    } else if (sb_ir_validate(ir, &error) != SB_SUCCESS) {
        case_fail(f, "the lowered program fails sb_ir_validate: %s", error.message);
    } else {
        char *text = sb_ir_print(ir);
        if (!text)
            case_fail(f, "%s", "sb_ir_print returned NULL");
        else
            check_lines(f, text);
        free(text);
    }
    sb_ir_program_destroy(ir);
    sb_sm4_program_destroy(sm4);
    free(data);
}

/* "ps_5_0" -> version token. */
static bool parse_version(const char *s, uint32_t *out)
{
    static const char *const types[] = { "ps", "vs", "gs", "hs", "ds", "cs" };
    for (uint32_t t = 0; t < 6; t++) {
        unsigned major, minor;
        char tail;
        if (!strncmp(s, types[t], 2) && sscanf(s + 2, "_%u_%u%c", &major, &minor, &tail) == 2) {
            *out = (t << 16) | (major << 4) | minor;
            return true;
        }
    }
    return false;
}

static void free_fixture(struct fixture *f)
{
    for (unsigned i = 0; i < f->expect_count; i++)
        free(f->expect[i]);
    memset(f, 0, sizeof(*f));
}

static int run_file(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    static struct fixture f;
    bool open = false;
    char line[2048];
    int number = 0;
    while (fgets(line, sizeof(line), file)) {
        number++;
        rstrip(line);
        if (!line[0] || line[0] == '#')
            continue;
        if (line[0] == '[') {
            if (open)
                run_fixture(&f);
            free_fixture(&f);
            open = true;
            f.line = number;
            char version[32] = "";
            if (sscanf(line, "[program %31[^]]]", version) != 1 || !parse_version(version, &f.version)) {
                fprintf(stderr, "%s:%d: bad case header\n", path, number);
                failures++;
                open = false;
            }
            snprintf(f.name, sizeof(f.name), "%s", version);
            continue;
        }
        if (!open)
            continue;
        if (!strncmp(line, "name ", 5)) {
            snprintf(f.name, sizeof(f.name), "%.150s", line + 5);
        } else if (!strncmp(line, "base ", 5)) {
            f.base = strtoull(line + 5, NULL, 0);
        } else if (!strncmp(line, "> ", 2) || !strcmp(line, ">")) {
            if (f.expect_count < MAX_EXPECT)
                f.expect[f.expect_count++] = strdup(line[1] ? line + 2 : "");
        } else if (!strncmp(line, "expect-error ", 13)) {
            char instr[32] = "";
            f.want_error = sscanf(line + 13, "%63s offset=%llu instr=%31s", f.error_code,
                                  &f.error_offset, instr) == 3;
            f.error_instr = !strcmp(instr, "none") ? -1L : strtol(instr, NULL, 0);
            if (!f.want_error) {
                fprintf(stderr, "%s:%d: bad expect-error line\n", path, number);
                failures++;
            }
        } else {
            char *comment = strchr(line, '%');
            if (comment)
                *comment = 0;
            for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
                char *end;
                unsigned long v = strtoul(tok, &end, 16);
                if (*end || f.token_count >= MAX_TOKENS) {
                    fprintf(stderr, "%s:%d: bad token '%s'\n", path, number, tok);
                    failures++;
                    break;
                }
                f.tokens[f.token_count++] = (uint32_t)v;
            }
        }
    }
    if (open)
        run_fixture(&f);
    free_fixture(&f);
    fclose(file);
    printf("%s: %u cases, %u failures\n", path, cases, failures);
    return failures || !cases ? 1 : 0;
}

static unsigned walk_sm4_mapping(void);

/* Every op row: a unique name, sane counts, a kind for every possible slot. */
static int walk_table(void)
{
    unsigned rows = 0;
    for (uint32_t op = 0; op < SB_IR_OP_COUNT; op++) {
        const struct sb_ir_op_info *info = sb_ir_op_info(op);
        if (!info || !info->name || strcmp(sb_ir_op_name(op), info->name)) {
            fprintf(stderr, "op %u: no row or name mismatch\n", op);
            failures++;
            continue;
        }
        rows++;
        for (uint32_t other = 0; other < op; other++)
            if (!strcmp(sb_ir_op_name(other), info->name)) {
                fprintf(stderr, "op %u and %u share the name %s\n", op, other, info->name);
                failures++;
            }
        if (info->dst_min > info->dst_max || info->dst_max > 2 || info->src_min > info->src_max ||
            info->src_max > SB_IR_OP_MAX_SOURCES) {
            fprintf(stderr, "%s: bad operand counts\n", info->name);
            failures++;
        }
        for (unsigned i = 0; i < info->dst_max; i++)
            if (info->dst_kind[i] == SB_IR_KIND_NONE || info->dst_kind[i] > SB_IR_KIND_MESH_OUTPUT) {
                fprintf(stderr, "%s: destination %u has no kind\n", info->name, i);
                failures++;
            }
        for (unsigned i = 0; i < info->src_max; i++) {
            bool value = info->src_kind[i] == SB_IR_KIND_VALUE;
            if (info->src_kind[i] == SB_IR_KIND_NONE || info->src_kind[i] > SB_IR_KIND_MESH_OUTPUT ||
                value != (info->src_type[i] != SB_IR_TYPE_NONE)) {
                fprintf(stderr, "%s: source %u kind %u type %u\n", info->name, i,
                        info->src_kind[i], info->src_type[i]);
                failures++;
            }
        }
    }
    if (sb_ir_op_info(SB_IR_OP_COUNT) || strcmp(sb_ir_op_name(SB_IR_OP_COUNT), "?") ||
        strcmp(sb_ir_op_name(SB_IR_OP_ADD), "add") ||
        sb_ir_op_info(SB_IR_OP_UDIV)->dst_max != 2 ||
        sb_ir_op_info(SB_IR_OP_SAMPLE_D)->src_max != 6 ||
        sb_ir_op_info(SB_IR_OP_MESH_STORE_VERTEX)->dst_kind[0] != SB_IR_KIND_MESH_OUTPUT ||
        sb_ir_op_info(SB_IR_OP_DISPATCH_MESH)->src_max != 2) {
        fprintf(stderr, "spot checks of the op table failed\n");
        failures++;
    }
    failures += walk_sm4_mapping();
    printf("op table: %u rows, %u failures\n", rows, failures);
    return failures || rows != SB_IR_OP_COUNT ? 1 : 0;
}

int container_test(void);

/* Every SM4 instruction opcode maps to an IR op whose counts admit its operands. */
static unsigned walk_sm4_mapping(void)
{
    unsigned mapped = 0, bad = 0;
    for (uint32_t code = 0; code < SB_SM4_OP_COUNT; code++) {
        const struct sb_sm4_opcode_info *row = sb_sm4_opcode_info(code);
        bool instruction = row && !(row->flags & SB_SM4_OPF_DECL) && code != SB_SM4_OP_LABEL;
        uint32_t op = 0, srcs = 0;
        bool has = sb_ir_sm4_op_mapping(code, row ? row->src_count : 0, &op, &srcs);
        if (has != instruction) {
            fprintf(stderr, "sm4 opcode %u (%s): mapping %s\n", code,
                    row ? row->name : "reserved", has ? "present but should not be" : "missing");
            bad++;
            continue;
        }
        if (!has)
            continue;
        mapped++;
        const struct sb_ir_op_info *info = sb_ir_op_info(op);
        /* fcall's interface operand is its only source. */
        if (!info || row->dst_count < info->dst_min || row->dst_count > info->dst_max ||
            srcs < info->src_min || srcs > info->src_max) {
            fprintf(stderr, "sm4 %s (%u+%u) does not fit IR %s\n", row->name, row->dst_count,
                    row->src_count, info ? info->name : "?");
            bad++;
        }
    }
    printf("sm4 -> ir mapping: %u instruction opcodes mapped, %u failures\n", mapped, bad);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--walk-table"))
        return walk_table();
    if (argc == 2 && !strcmp(argv[1], "--container"))
        return container_test();
    if (argc == 2)
        return run_file(argv[1]);
    fprintf(stderr, "usage: test_ir FILE.irtest | --walk-table | --container\n");
    return 1;
}
