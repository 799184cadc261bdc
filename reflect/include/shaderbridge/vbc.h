/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: the VBC reader's public header (replaced by the VBC work). */
#ifndef SHADERBRIDGE_VBC_H
#define SHADERBRIDGE_VBC_H
#include <stddef.h>
#include "shaderbridge/result.h"
struct sb_vbc;
enum sb_result sb_vbc_parse(const void *data, size_t size, struct sb_vbc **out, struct sb_error *error);
void sb_vbc_destroy(struct sb_vbc *object);
#endif
