/* SPDX-License-Identifier: MIT */
/*
 * A program's required wave size (sb_ir_program::wave_size_*, IR.md §Waves): is a triple
 * well formed, and which size a consumer offering a range of sizes runs it with. The runtime
 * picks the subgroup size a device pipeline is created with by this, and validation gives the
 * interpreter the same size, so both sides run one wave size.
 */
#include "translator/ir.h"

static bool power_of_two_wave(uint32_t n)
{
    return n >= 4 && n <= 128 && (n & (n - 1)) == 0;
}

bool sb_ir_wave_size_valid(uint32_t min, uint32_t max, uint32_t preferred)
{
    if (!min && !max && !preferred)
        return true;
    if (!power_of_two_wave(min) || !power_of_two_wave(max) || min > max)
        return false;
    return !preferred || (power_of_two_wave(preferred) && preferred >= min && preferred <= max);
}

uint32_t sb_ir_wave_size_choose(uint32_t min, uint32_t max, uint32_t preferred, uint32_t offered_min,
                                uint32_t offered_max, uint32_t offered_default)
{
    if (!min)
        return offered_default;
    uint32_t low = min > offered_min ? min : offered_min, high = max < offered_max ? max : offered_max;
    if (preferred && preferred >= low && preferred <= high)
        return preferred;
    if (offered_default >= low && offered_default <= high)
        return offered_default;
    for (uint32_t n = 4; n <= high; n *= 2) /* the sizes are powers of two: the smallest that fits */
        if (n >= low)
            return n;
    return 0;
}
