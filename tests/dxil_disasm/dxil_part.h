/* SPDX-License-Identifier: MIT */
/* The DXIL part of a container file, for the dxil_disasm tests (dxil_part.c). */
#ifndef SB_TEST_DXIL_DISASM_PART_H
#define SB_TEST_DXIL_DISASM_PART_H

#include <stddef.h>

#include "shaderbridge/reflect.h"

/**
 * Parses `bytes` as a container and returns its DXIL part when it has one whose
 * program header (24 bytes) fits, else NULL. *dxbc owns the part (sb_dxbc_destroy;
 * NULL when the container did not parse).
 */
const struct sb_dxbc_part *dxil_part_of(const char *bytes, size_t size, struct sb_dxbc **dxbc);

#endif
