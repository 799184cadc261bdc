/* SPDX-License-Identifier: MIT */
/*
 * sb_target_signed_atomic_on_uint (targets_private.h): D3D's atomic_imin / atomic_imax
 * (and their imm_ forms) compare as signed, and the back end writes them as OpAtomicSMin /
 * OpAtomicSMax on the UAV's uint words. The text languages pick the comparison from the
 * storage's type (GLSL and MSL atomicMin on a uint, HLSL InterlockedMin on a uint are
 * unsigned) and cannot reinterpret an lvalue, so SPIRV-Cross writes the signed operation
 * as an unsigned one: `atomic_imin(-2, 6)` leaves 6 (hlslcc/cs5_Issue34 disagrees under
 * validate). Such a module is refused instead of written wrong.
 *
 * A plain bounds-checked walk over the words: 32-bit unsigned integer types, then signed
 * atomic min/max whose result (the pointee) is one of them.
 */
#include "targets_private.h"

#include <stdlib.h>

bool sb_target_signed_atomic_on_uint(const uint32_t *words, size_t count)
{
    if (count < 5)
        return false;
    uint32_t bound = words[3];
    if (bound == 0 || bound > (1u << 22))
        return false;
    bool *is_uint = calloc(bound, sizeof(*is_uint));
    if (!is_uint)
        return false;
    bool found = false;
    for (size_t at = 5; at < count && !found;) {
        uint32_t length = words[at] >> 16, opcode = words[at] & 0xffffu;
        if (length == 0 || at + length > count)
            break;
        const uint32_t *w = &words[at];
        if (opcode == SpvOpTypeInt && length == 4 && w[1] < bound && w[2] == 32 && w[3] == 0)
            is_uint[w[1]] = true;
        else if ((opcode == SpvOpAtomicSMin || opcode == SpvOpAtomicSMax) && length >= 3 && w[1] < bound)
            found = is_uint[w[1]];
        at += length;
    }
    free(is_uint);
    return found;
}
