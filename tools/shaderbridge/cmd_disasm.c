/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge disasm [--offsets] [--no-header] FILE`: the SM4/5 program of
 * a DXBC container in fxc's syntax (../shared/docs/sm4-tokens.md §9), or a PICA200
 * SHBIN in picasso syntax that `shaderbridge assemble` turns back into the
 * same code words (../shared/docs/pica200.md), or the DXIL part of a dxc
 * container as LLVM assembly in `dxc -dumpbin`'s form (translator/dxil_disasm.h;
 * the options apply to SM4/5 only). Decode
 * errors are reported as FILE:OFFSET: error: ... with the file offset of the
 * bad token, like every other command.
 */
#include "commands.h"
#include "document.h"

#include <string.h>

#include "error.h"
#include "translator/dxil_disasm.h"
#include "translator/pica.h"
#include "translator/sm4.h"

static int disassemble(const struct cli_document *doc, uint32_t flags)
{
    struct sb_error error = { 0 };
    struct sb_sm4_program *program = NULL;
    if (sb_sm4_decode_container(doc->dxbc, &program, &error) != SB_SUCCESS) {
        cli_report_error(doc->file.name, &error);
        return CLI_EXIT_INVALID_INPUT;
    }
    char *text = NULL;
    enum sb_result result = sb_sm4_disassemble(program, doc->dxbc, flags, &text, &error);
    sb_sm4_program_destroy(program);
    if (result != SB_SUCCESS) {
        cli_report_error(doc->file.name, &error);
        return CLI_EXIT_INVALID_INPUT;
    }
    fputs(text, stdout);
    sb_sm4_text_free(text);
    return CLI_EXIT_OK;
}

static int disassemble_shbin(const struct cli_document *doc)
{
    struct sb_error error = { 0 };
    char *text = NULL;
    if (sb_pica_disassemble(doc->shbin, &text, &error) != SB_SUCCESS) {
        cli_report_error(doc->file.name, &error);
        return CLI_EXIT_INVALID_INPUT;
    }
    fputs(text, stdout);
    sb_pica_free(text);
    return CLI_EXIT_OK;
}

static int disassemble_dxil(const struct cli_document *doc)
{
    struct sb_error error = { 0 };
    const struct sb_dxbc_part *part = sb_dxbc_find_part(doc->dxbc, SB_FOURCC('D', 'X', 'I', 'L'));
    if (!part) {
        sb_error_set(&error, SB_ERROR_UNKNOWN_FORMAT, 0, SB_ERROR_NO_INSTR,
                     "disasm: the DXIL container has no DXIL part");
        cli_report_error(doc->file.name, &error);
        return CLI_EXIT_INVALID_INPUT;
    }
    char *text = NULL;
    if (sb_dxil_disassemble(part->data, part->size, part->data_offset, &text, &error) !=
        SB_SUCCESS) {
        cli_report_error(doc->file.name, &error);
        return CLI_EXIT_INVALID_INPUT;
    }
    fputs(text, stdout);
    sb_dxil_text_free(text);
    return CLI_EXIT_OK;
}

int cli_cmd_disasm(int argc, char **argv)
{
    uint32_t flags = 0;
    const char *name = NULL;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && !strcmp(arg, "--offsets")) {
            flags |= SB_SM4_DISASM_OFFSETS;
        } else if (!options_done && !strcmp(arg, "--no-header")) {
            flags |= SB_SM4_DISASM_NO_HEADER;
        } else if (!options_done && !strcmp(arg, "--")) {
            options_done = true;
        } else if (!options_done && arg[0] == '-' && arg[1] != 0) {
            cli_usage_error("disasm: unknown option '%s'", arg);
            return CLI_EXIT_USAGE;
        } else if (name) {
            cli_usage_error("disasm: takes one file ('%s' and '%s' given)", name, arg);
            return CLI_EXIT_USAGE;
        } else {
            name = arg;
        }
    }
    if (!name) {
        cli_usage_error("disasm: no input file");
        return CLI_EXIT_USAGE;
    }
    struct cli_document doc;
    if (!cli_document_open(name, &doc))
        return CLI_EXIT_INVALID_INPUT;
    int status;
    if (doc.format == SB_FORMAT_SHBIN) {
        status = disassemble_shbin(&doc);
    } else if (doc.format == SB_FORMAT_DXCONTAINER && doc.dxbc->is_dxil) {
        status = disassemble_dxil(&doc);
    } else if (doc.format != SB_FORMAT_DXCONTAINER) {
        struct sb_error error;
        sb_error_set(&error, SB_ERROR_UNKNOWN_FORMAT, 0, SB_ERROR_NO_INSTR,
                     "disasm reads DXBC containers (SM4/5 or DXIL) and SHBIN; this is %s",
                     sb_format_name(doc.format));
        cli_report_error(name, &error);
        status = CLI_EXIT_INVALID_INPUT;
    } else {
        status = disassemble(&doc, flags);
    }
    cli_document_close(&doc);
    return status;
}
