/* SPDX-License-Identifier: MIT */
/* Placeholder so the translator object library is never empty; removed once
 * the SM4/5 decoder lands. */
#include "shaderbridge/result.h"
int sb_translator_placeholder(void);
int sb_translator_placeholder(void)
{
    return SB_SUCCESS;
}
