/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the CPU interpreter's block decoder (interp_bc.c):
 * the input is a run of records, each a format byte (mapped onto the ten
 * formats) and up to 16 block bytes; the last record may be short, which
 * exercises the length check. Each block is copied to the end of a buffer
 * of exactly its length, so a read past it trips ASan. A decoded value
 * outside its format's range, or NaN, or an infinity other than SF16's
 * -inf, aborts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_texels(uint32_t format, uint32_t texels[16][4])
{
    const bool hdr = format == SB_INTERP_BC6H_UF16 || format == SB_INTERP_BC6H_SF16;
    const bool snorm = format == SB_INTERP_BC4_SNORM || format == SB_INTERP_BC5_SNORM ||
                       format == SB_INTERP_BC6H_SF16;
    const float hi = hdr ? 65504.0f : 1.0f, lo = snorm ? -hi : 0.0f;
    for (uint32_t i = 0; i < 16; i++) {
        for (uint32_t c = 0; c < 4; c++) {
            float v;
            memcpy(&v, &texels[i][c], sizeof(v));
            if (format == SB_INTERP_BC6H_SF16 && v == -INFINITY)
                continue;
            if (!(v >= lo && v <= hi))
                abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    while (at < size) {
        const uint32_t format = SB_INTERP_BC1 + data[at] % SB_INTERP_BC7;
        at++;
        const size_t n = size - at < 16 ? size - at : 16;
        uint8_t *block = malloc(n ? n : 1);
        if (!block)
            return 0;
        memcpy(block, data + at, n);
        uint32_t texels[16][4];
        const size_t need = format == SB_INTERP_BC1 || format == SB_INTERP_BC4_UNORM ||
                                    format == SB_INTERP_BC4_SNORM
                                ? 8
                                : 16;
        const bool ok = sb_interp_bc_decode(format, block, n, texels);
        /* A long enough block always decodes (reserved modes have defined results). */
        if (ok != (n >= need))
            abort();
        if (ok)
            check_texels(format, texels);
        free(block);
        at += n;
    }
    return 0;
}
