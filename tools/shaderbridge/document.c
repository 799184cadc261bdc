/* SPDX-License-Identifier: MIT */
/* Opening an input with the reader its magic selects (document.h). */
#include "document.h"

#include <string.h>

#include "error.h"

bool cli_document_open(const char *name, struct cli_document *doc)
{
    memset(doc, 0, sizeof(*doc));
    if (!cli_file_load(name, &doc->file))
        return false;
    doc->format = sb_format_detect(doc->file.bytes, doc->file.size);
    struct sb_error error = { 0 };
    enum sb_result result = SB_SUCCESS;
    switch (doc->format) {
    case SB_FORMAT_DXCONTAINER:
        result = sb_dxbc_parse(doc->file.bytes, doc->file.size, &doc->dxbc, &error);
        break;
    case SB_FORMAT_SHBIN:
        result = sb_shbin_parse(doc->file.bytes, doc->file.size, &doc->shbin, &error);
        break;
    case SB_FORMAT_VBC:
        result = sb_vbc_parse(doc->file.bytes, doc->file.size, &doc->vbc, &error);
        break;
    case SB_FORMAT_DDS:
        result = sb_dds_parse(doc->file.bytes, doc->file.size, &doc->dds, &error);
        break;
    case SB_FORMAT_SPIRV:
        if (doc->file.size % 4 != 0 || doc->file.size < 20) {
            result = sb_error_set(&error, SB_ERROR_BAD_SIZE, 0, SB_ERROR_NO_INSTR,
                                  "SPIR-V module of %zu bytes is not a whole number of words "
                                  "with a 5-word header", doc->file.size);
        }
        break;
    default:
        result = sb_error_set(&error, SB_ERROR_UNKNOWN_FORMAT, 0, SB_ERROR_NO_INSTR,
                              "not a DXBC container, SHBIN, VBC, DDS or SPIR-V file "
                              "(unrecognised magic)");
        break;
    }
    if (result != SB_SUCCESS) {
        cli_report_error(name, &error);
        cli_document_close(doc);
        return false;
    }
    return true;
}

void cli_document_close(struct cli_document *doc)
{
    sb_dxbc_destroy(doc->dxbc);
    sb_shbin_destroy(doc->shbin);
    sb_vbc_destroy(doc->vbc);
    sb_dds_destroy(doc->dds); /* before the bytes it borrows */
    cli_file_free(&doc->file);
    memset(doc, 0, sizeof(*doc));
}

json_object *cli_document_json(const struct cli_document *doc)
{
    json_object *root = json_object_new_object();
    cli_json_add_str(root, "file", doc->file.name);
    cli_json_add_str(root, "format", sb_format_name(doc->format));
    cli_json_add_u64(root, "size", doc->file.size);
    switch (doc->format) {
    case SB_FORMAT_DXCONTAINER: cli_json_add(root, "dxcontainer", cli_json_dxbc(doc->dxbc)); break;
    case SB_FORMAT_SHBIN: cli_json_add(root, "shbin", cli_json_shbin(doc->shbin)); break;
    case SB_FORMAT_VBC: cli_json_add(root, "vbc", cli_json_vbc(doc->vbc)); break;
    case SB_FORMAT_DDS: cli_json_add(root, "dds", cli_json_dds(doc->dds)); break;
    case SB_FORMAT_SPIRV:
        cli_json_add(root, "spirv", cli_json_spirv(doc->file.bytes, doc->file.size));
        break;
    default: break;
    }
    return root;
}
