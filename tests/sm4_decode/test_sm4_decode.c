/* SPDX-License-Identifier: MIT */
/*
 * Runner of the SM4/5 decoder fixtures (tests/sm4_decode/NAME.sm4test; format
 * in README.md next to this file): hex token streams, one instruction per
 * `%` line holding its expected fxc-syntax disassembly, and malformed
 * streams with the exact error code, byte offset and instruction index.
 *
 * `test_sm4_decode FILE` runs one data file (one ctest per file);
 * `test_sm4_decode --walk-table` decodes one synthesised instruction per
 * opcode-table row (../shared/docs/sm4-tokens.md §3) and checks the operand count
 * and mnemonic each row promises.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/reflect.h"
#include "translator/sm4.h"
#include "sm4_private.h"

#define MAX_WORDS 4096
#define MAX_INSTR 512
#define MAX_TEXT 65536

struct fixture {
    char name[128];
    int line;                 /* line of the case header */
    bool raw;                 /* tokens given verbatim (no version/length added) */
    uint32_t version;
    uint64_t base;
    uint32_t words[MAX_WORDS];
    uint32_t word_count;
    uint32_t instr_start[MAX_INSTR]; /* word index of each `%` instruction */
    uint32_t instr_count;
    char expected[MAX_TEXT];  /* expected listing lines (after the version line) */
    size_t expected_length;
    bool expect_error;
    char error_code[64];
    uint64_t error_offset;
    uint32_t error_instr;
};

static int failures;
static const char *file_name;

static void fail(const struct fixture *f, const char *format, const char *a, const char *b)
{
    fprintf(stderr, "%s:%d: [%s] ", file_name, f->line, f->name);
    fprintf(stderr, format, a, b);
    fputc('\n', stderr);
    failures++;
}

static void append_expected(struct fixture *f, const char *text)
{
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (f->expected_length + n + 2 >= sizeof(f->expected))
        return;
    memcpy(f->expected + f->expected_length, text, n);
    f->expected_length += n;
    f->expected[f->expected_length++] = '\n';
    f->expected[f->expected_length] = 0;
}

/* Drops trailing blanks of every line so fixtures need not keep fxc's trailing spaces. */
static void trim_lines(char *text)
{
    char *out = text;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        size_t keep = n;
        while (keep && (line[keep - 1] == ' ' || line[keep - 1] == '\t'))
            keep--;
        memmove(out, line, keep);
        out += keep;
        if (end)
            *out++ = '\n';
        line += n + (end ? 1 : 0);
    }
    *out = 0;
}

static uint32_t version_token(const char *profile)
{
    static const char *const stages[] = { "ps", "vs", "gs", "hs", "ds", "cs" };
    for (uint32_t type = 0; type < 6; type++) {
        unsigned major, minor;
        if (!strncmp(profile, stages[type], 2) &&
            sscanf(profile + 2, "_%u_%u", &major, &minor) == 2)
            return type << 16 | major << 4 | minor;
    }
    return 0xffffffffu;
}

static void run_fixture(struct fixture *f)
{
    uint8_t bytes[MAX_WORDS * 4 + 8];
    uint32_t count = 0;
    uint32_t all[MAX_WORDS + 2];
    if (!f->raw) {
        all[count++] = f->version;
        all[count++] = f->word_count + 2;
    }
    for (uint32_t i = 0; i < f->word_count; i++)
        all[count++] = f->words[i];
    for (uint32_t i = 0; i < count; i++)
        for (unsigned b = 0; b < 4; b++)
            bytes[1 + i * 4 + b] = (uint8_t)(all[i] >> (8 * b));
    /* Decode from an odd address: the API accepts any alignment. */
    const uint8_t *data = bytes + 1;
    struct sb_sm4_program *program = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_sm4_decode(data, count * 4u, f->base, &program, &error);
    if (f->expect_error) {
        char got[256], want[256];
        snprintf(got, sizeof(got), "%s offset=%" PRIu64 " instr=%d", sb_result_name(result),
                 error.offset, error.instr == UINT32_MAX ? -1 : (int)error.instr);
        snprintf(want, sizeof(want), "%s offset=%" PRIu64 " instr=%d", f->error_code,
                 f->error_offset, f->error_instr == UINT32_MAX ? -1 : (int)f->error_instr);
        if (result == SB_SUCCESS || strcmp(got, want) != 0 || program != NULL)
            fail(f, "expected error %s, got %s", want, got);
        else if (error.message[0] == 0)
            fail(f, "error %s%s has no message", want, "");
        sb_sm4_program_destroy(program);
        return;
    }
    if (result != SB_SUCCESS) {
        fail(f, "decode failed: %s (%s)", sb_result_name(result), error.message);
        return;
    }
    uint32_t header = f->raw ? 0 : 2;
    if (program->instruction_count != f->instr_count) {
        char a[32], b[32];
        snprintf(a, sizeof(a), "%u", program->instruction_count);
        snprintf(b, sizeof(b), "%u", f->instr_count);
        fail(f, "decoded %s instructions, the fixture has %s", a, b);
    }
    for (uint32_t i = 0; i < program->instruction_count && i < f->instr_count; i++) {
        const struct sb_sm4_instruction *inst = &program->instructions[i];
        uint64_t want = f->base + 4u * (uint64_t)(header + f->instr_start[i]);
        if (inst->offset != want || inst->index != i) {
            char a[64], b[64];
            snprintf(a, sizeof(a), "%u at %" PRIu64, inst->index, inst->offset);
            snprintf(b, sizeof(b), "%u at %" PRIu64, i, want);
            fail(f, "instruction %s, expected %s", a, b);
        }
    }
    char *text = NULL;
    result = sb_sm4_disassemble(program, NULL, SB_SM4_DISASM_NO_HEADER, &text, &error);
    if (result != SB_SUCCESS) {
        fail(f, "disassembly failed: %s%s", sb_result_name(result), "");
    } else {
        char *body = strchr(text, '\n');
        body = body ? body + 1 : text;
        trim_lines(body);
        if (strcmp(body, f->expected) != 0)
            fail(f, "disassembly differs:\n--- ours\n%s--- expected\n%s", body, f->expected);
    }
    sb_sm4_text_free(text);
    sb_sm4_program_destroy(program);
}

static bool parse_error_line(struct fixture *f, const char *args)
{
    char instr[32];
    if (sscanf(args, "%63s offset=%" SCNu64 " instr=%31s", f->error_code, &f->error_offset,
               instr) != 3)
        return false;
    f->expect_error = true;
    f->error_instr = !strcmp(instr, "none") ? UINT32_MAX : (uint32_t)strtoul(instr, NULL, 0);
    return true;
}

/* One token line: hex words, then optionally `% expected text`. */
static bool parse_token_line(struct fixture *f, char *line)
{
    char *comment = strchr(line, '%');
    if (comment)
        *comment++ = 0;
    bool starts = comment != NULL;
    uint32_t first = f->word_count;
    for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *end;
        unsigned long v = strtoul(tok, &end, 16);
        if (*end || f->word_count >= MAX_WORDS)
            return false;
        f->words[f->word_count++] = (uint32_t)v;
    }
    if (starts) {
        if (f->instr_count >= MAX_INSTR)
            return false;
        f->instr_start[f->instr_count++] = first;
        const char *text = comment;
        if (*text == ' ')
            text++;
        append_expected(f, text);
    }
    return true;
}

static int run_file(const char *path)
{
    file_name = path;
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    static struct fixture f;
    bool open_case = false;
    int cases = 0;
    char line[4096];
    for (int number = 1; fgets(line, sizeof(line), in); number++) {
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#' || *s == '\n' || *s == 0)
            continue;
        bool bad = false;
        if (*s == '[') {
            if (open_case)
                run_fixture(&f);
            memset(&f, 0, sizeof(f));
            f.line = number;
            char kind[16], arg[128];
            bad = sscanf(s, "[%15s %127[^]]]", kind, arg) != 2;
            if (!bad && !strcmp(kind, "program")) {
                f.version = version_token(arg);
                bad = f.version == 0xffffffffu;
                snprintf(f.name, sizeof(f.name), "%.127s", arg);
            } else if (!bad && !strcmp(kind, "raw")) {
                f.raw = true;
                snprintf(f.name, sizeof(f.name), "%.127s", arg);
            } else {
                bad = true;
            }
            open_case = !bad;
            cases += !bad;
        } else if (!open_case) {
            bad = true;
        } else if (!strncmp(s, "name ", 5)) {
            snprintf(f.name, sizeof(f.name), "%.127s", s + 5);
            f.name[strcspn(f.name, "\r\n")] = 0;
        } else if (!strncmp(s, "base ", 5)) {
            f.base = strtoull(s + 5, NULL, 0);
        } else if (!strncmp(s, "expect-error ", 13)) {
            bad = !parse_error_line(&f, s + 13);
        } else if (!strncmp(s, "%|", 2)) {
            append_expected(&f, s[2] == ' ' ? s + 3 : s + 2);
        } else {
            bad = !parse_token_line(&f, s);
        }
        if (bad) {
            fprintf(stderr, "%s:%d: cannot parse this line\n", path, number);
            failures++;
        }
    }
    if (open_case)
        run_fixture(&f);
    fclose(in);
    printf("%s: %d cases, %d failures\n", path, cases, failures);
    return failures || cases == 0 ? 1 : 0;
}

/*
 * Every row of the opcode table: an instruction made of D + S operands
 * (r0 destinations, r1 sources) must decode to that opcode with that many
 * operands and print the row's mnemonic first.
 */
static int walk_table(void)
{
    int rows = 0;
    for (uint32_t opcode = 0; opcode < SB_SM4_OP_COUNT; opcode++) {
        const struct sb_sm4_opcode_info *info = sb_sm4_opcode_info(opcode);
        if (!info || (info->flags & SB_SM4_OPF_DECL))
            continue;
        rows++;
        uint32_t words[64];
        uint32_t n = 0;
        words[n++] = 0x00000050u; /* ps_5_0 */
        n++;                      /* program length, below */
        uint32_t start = n++;
        if (info->flags & SB_SM4_OPF_FCALL)
            words[n++] = 0;
        for (unsigned i = 0; i < info->dst_count; i++) {
            words[n++] = 0x001000f2u; /* r#.xyzw */
            words[n++] = i;
        }
        for (unsigned i = 0; i < info->src_count; i++) {
            words[n++] = 0x00100e46u; /* r#.xyzw swizzle */
            words[n++] = 1 + i;
        }
        words[start] = opcode | (n - start) << 24;
        words[1] = n;
        struct sb_sm4_program *program = NULL;
        struct sb_error error = { 0 };
        char *text = NULL;
        bool ok = sb_sm4_decode(words, n * 4u, 0, &program, &error) == SB_SUCCESS &&
                  program->instruction_count == 1 &&
                  program->instructions[0].opcode == opcode &&
                  program->instructions[0].operand_count ==
                      (uint32_t)info->dst_count + info->src_count &&
                  program->instructions[0].dst_count == info->dst_count &&
                  strlen(info->classes) == (size_t)info->dst_count + info->src_count &&
                  sb_sm4_disassemble(program, NULL, SB_SM4_DISASM_NO_HEADER, &text, &error) ==
                      SB_SUCCESS;
        const char *line = text ? strchr(text, '\n') : NULL;
        if (ok && (!line || strncmp(line + 1, info->name, strlen(info->name)) != 0))
            ok = false;
        if (!ok) {
            fprintf(stderr, "opcode %u (%s): table row does not decode/print as promised (%s)\n",
                    opcode, info->name, error.message);
            failures++;
        }
        sb_sm4_text_free(text);
        sb_sm4_program_destroy(program);
    }
    printf("opcode table: %d instruction rows walked, %d failures\n", rows, failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--walk-table"))
        return walk_table();
    if (argc != 2) {
        fprintf(stderr, "usage: test_sm4_decode FILE.sm4test | --walk-table\n");
        return 2;
    }
    return run_file(argv[1]);
}
