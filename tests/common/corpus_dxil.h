/* SPDX-License-Identifier: MIT */
/* A corpus file's DXIL container and module, read for the DXIL front end's censuses. */
#ifndef SB_TEST_CORPUS_DXIL_H
#define SB_TEST_CORPUS_DXIL_H

#include <stdbool.h>
#include <stddef.h>

#include "reflect/bitcode.h"
#include "shaderbridge/dxbc.h"

/** One corpus file as the censuses read it; every pointer NULL where the step before failed. */
struct corpus_dxil {
    char *bytes;                     /**< the whole file (read_file) */
    size_t size;
    struct sb_dxbc *container;       /**< the parsed container */
    const struct sb_dxbc_part *part; /**< its DXIL part (in `container`) */
    struct sb_bc_module *module;     /**< the part's bitcode module */
    struct sb_error error;           /**< why the last step failed */
};

/** Reads `path`, parses the container, finds the DXIL part and reads its module into `d`
 *  (zeroed first). True when the module was read; corpus_dxil_close frees either way. */
bool corpus_dxil_open(const char *path, struct corpus_dxil *d);
void corpus_dxil_close(struct corpus_dxil *d);

#endif
