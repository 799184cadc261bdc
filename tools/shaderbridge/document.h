/* SPDX-License-Identifier: MIT */
/* A loaded input file parsed by whichever reader its magic selects. */
#ifndef SB_CLI_DOCUMENT_H
#define SB_CLI_DOCUMENT_H

#include "cli.h"

struct cli_document {
    struct cli_file file;
    enum sb_format format;
    struct sb_dxbc *dxbc;   /**< when format is SB_FORMAT_DXCONTAINER */
    struct sb_shbin *shbin; /**< when format is SB_FORMAT_SHBIN */
    struct sb_vbc *vbc;     /**< when format is SB_FORMAT_VBC */
    struct sb_dds *dds;     /**< when format is SB_FORMAT_DDS (borrows file.bytes) */
};

/**
 * Loads and parses `name`. On failure prints `NAME:OFFSET: error: ...` and
 * returns false (the document is then empty).
 */
bool cli_document_open(const char *name, struct cli_document *doc);
void cli_document_close(struct cli_document *doc);

/** Everything decoded, as JSON: {"file", "format", "size", <format>: {...}}. */
json_object *cli_document_json(const struct cli_document *doc);

#endif
