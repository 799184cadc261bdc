/* SPDX-License-Identifier: MIT */
/* The names of enum sb_translate_target (translate.h): what `translate --target` takes. */
#include "targets_private.h"

#include <string.h>

static const char *const target_names[] = {
    [SB_TRANSLATE_TARGET_SPIRV] = "spirv", [SB_TRANSLATE_TARGET_GLSL] = "glsl",
    [SB_TRANSLATE_TARGET_ESSL] = "essl",   [SB_TRANSLATE_TARGET_MSL] = "msl",
    [SB_TRANSLATE_TARGET_HLSL] = "hlsl",
};

bool sb_translate_target_parse(const char *name, enum sb_translate_target *out)
{
    if (!name || !out)
        return false;
    for (size_t i = 0; i < sizeof(target_names) / sizeof(target_names[0]); i++)
        if (!strcmp(name, target_names[i])) {
            *out = (enum sb_translate_target)i;
            return true;
        }
    return false;
}

const char *sb_translate_target_name(enum sb_translate_target target)
{
    return (unsigned)target < sizeof(target_names) / sizeof(target_names[0]) ? target_names[target] : NULL;
}
