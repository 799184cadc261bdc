/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: the SHBIN reader's public header (replaced by the SHBIN work). */
#ifndef SHADERBRIDGE_SHBIN_H
#define SHADERBRIDGE_SHBIN_H
#include <stddef.h>
#include "shaderbridge/result.h"
struct sb_shbin;
enum sb_result sb_shbin_parse(const void *data, size_t size, struct sb_shbin **out, struct sb_error *error);
void sb_shbin_destroy(struct sb_shbin *object);
#endif
