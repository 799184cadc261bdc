/* SPDX-License-Identifier: MIT */
/* `shaderbridge info FILE...`: one summary line per file. */
#include "commands.h"
#include "document.h"

#include <string.h>

static void describe_spirv(const struct cli_file *file, char *buf, size_t size)
{
    json_object *o = cli_json_spirv(file->bytes, file->size);
    snprintf(buf, size, "SPIR-V %s, %zu words, id bound %s",
             json_object_get_string(json_object_object_get(o, "version")), file->size / 4,
             json_object_get_string(json_object_object_get(o, "id_bound")));
    json_object_put(o);
}

int cli_cmd_info(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--")) {
        first = 2;
    } else {
        for (int i = 1; i < argc; i++)
            if (argv[i][0] == '-' && argv[i][1] != 0) {
                cli_usage_error("info: unknown option '%s'", argv[i]);
                return CLI_EXIT_USAGE;
            }
    }
    if (first >= argc) {
        cli_usage_error("info: no input files");
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    for (int i = first; i < argc; i++) {
        struct cli_document doc;
        if (!cli_document_open(argv[i], &doc)) {
            status = CLI_EXIT_INVALID_INPUT;
            continue;
        }
        char line[512] = "";
        switch (doc.format) {
        case SB_FORMAT_DXCONTAINER: cli_describe_dxbc(doc.dxbc, line, sizeof(line)); break;
        case SB_FORMAT_SHBIN: cli_describe_shbin(doc.shbin, line, sizeof(line)); break;
        case SB_FORMAT_VBC: cli_describe_vbc(doc.vbc, line, sizeof(line)); break;
        case SB_FORMAT_DDS: cli_describe_dds(doc.dds, line, sizeof(line)); break;
        case SB_FORMAT_SPIRV: describe_spirv(&doc.file, line, sizeof(line)); break;
        default: break;
        }
        printf("%s: %s\n", argv[i], line);
        cli_document_close(&doc);
    }
    return status;
}
