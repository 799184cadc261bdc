/* SPDX-License-Identifier: MIT */
/*
 * The entry's [WaveSize] attribute (DXIL entry properties WaveSize, SM 6.6, and
 * RangedWaveSize, SM 6.8; ../shared/docs/dxil.md §3.6) onto the IR program
 * (sb_ir_program::wave_size_*): a program whose results depend on the wave size then runs
 * with the size it was written for, on the device (the pipeline's required subgroup size)
 * and on the interpreter alike, or is refused where none fits.
 */
#include "ir_from_dxil_private.h"

bool dxil_front_wave_size(struct dxil_front *f, struct sb_ir_program *p)
{
    const struct sb_dxil_entry_point *e = f->entry;
    if (!e->wave_size_min && !e->wave_size_max && !e->wave_size_preferred)
        return true;
    /* SM 6.8 writes [WaveSize(N)] as RangedWaveSize (N, 0, 0): no max means the one size N */
    uint32_t min = e->wave_size_min, max = e->wave_size_max ? e->wave_size_max : e->wave_size_min;
    if (p->stage != SB_IR_STAGE_COMPUTE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "WaveSize on a non-compute entry: only compute programs are run with a "
                               "required wave size");
    if (!sb_ir_wave_size_valid(min, max, e->wave_size_preferred))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "WaveSize %u..%u (preferred %u): D3D's wave sizes are powers of two from 4 "
                               "to 128, min <= preferred <= max",
                               min, max, e->wave_size_preferred);
    p->wave_size_min = min;
    p->wave_size_max = max;
    p->wave_size_preferred = e->wave_size_preferred;
    return true;
}
