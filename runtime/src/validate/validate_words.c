/* SPDX-License-Identifier: MIT */
/*
 * The rule two words of one kind agree by (validate.h, runtime/README.md
 * "Validation"): integers exactly, floats within the ULP tolerance or 2^-20
 * absolute, both NaN, or both zero/denormal (D3D lets float32 denormals flush).
 * Used by the comparer (validate.c) and the precision sweep (validate_precision.c).
 */
#include "validate_private.h"

#include <math.h>
#include <string.h>

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Floats mapped to integers that increase with the value, so ULP distance is a difference. */
static int64_t ordered(uint32_t u)
{
    return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

static bool is_nan(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu);
}

static bool is_zero_or_denormal(uint32_t u)
{
    return (u & 0x7f800000u) == 0;
}

static bool floats_agree(uint32_t a, uint32_t b, uint32_t ulps)
{
    if (is_nan(a) || is_nan(b))
        return is_nan(a) && is_nan(b);
    int64_t d = ordered(a) - ordered(b);
    if (d < 0)
        d = -d;
    if (d <= (int64_t)ulps)
        return true;
    float fa = as_float(a), fb = as_float(b);
    if (isinf(fa) || isinf(fb))
        return false;
    return fabsf(fa - fb) <= 0x1p-20f;
}

bool sb_validate_words_agree(uint32_t kind, uint32_t a, uint32_t b, uint32_t float_ulps)
{
    if (a == b)
        return true;
    switch (kind) {
    case SB_RT_WORD_IGNORED:
        return true;
    case SB_RT_WORD_FLOAT:
        if (is_zero_or_denormal(a) && is_zero_or_denormal(b))
            return true; /* D3D lets float32 denormals flush to zero */
        return floats_agree(a, b, float_ulps);
    case SB_RT_WORD_UNKNOWN:
        return sb_validate_is_normal(a) && sb_validate_is_normal(b) && floats_agree(a, b, float_ulps);
    default:
        return false;
    }
}
