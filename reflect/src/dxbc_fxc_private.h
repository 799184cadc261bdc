/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the FXC-era part decoders (dxbc_rdef.c, dxbc_signature.c,
 * dxbc_ifce.c, ...). Those parts locate records and strings through offsets
 * stored in the part itself, so every failure must name the field that held
 * the bad offset or count, not just the part; these helpers check a
 * (count, offset) pair or a string offset and report at the field's own byte.
 */
#ifndef SB_REFLECT_DXBC_FXC_PRIVATE_H
#define SB_REFLECT_DXBC_FXC_PRIVATE_H

#include "dxbc_private.h"

/** Absolute input offset of part-relative position `rel`. */
static inline uint64_t sb_fxc_at(const struct sb_cursor *part, uint64_t rel)
{
    return (uint64_t)part->begin + rel;
}

/**
 * The NUL-terminated string at part-relative `offset`, an offset read from
 * the field at part-relative `field`. Fails with SB_ERROR_BAD_OFFSET (at the
 * field) when the offset is not inside the part, SB_ERROR_BAD_STRING (at the
 * string) when no terminator precedes the part end.
 */
const char *sb_fxc_string(const struct sb_cursor *part, uint64_t field, uint32_t offset,
                          const char *what);

/**
 * Sets `out` to a window over `count` records of `record_size` bytes at
 * part-relative `offset`. The offset (read from part-relative `offset_field`)
 * must lie inside the part (SB_ERROR_BAD_OFFSET at offset_field) and the
 * records must fit in the bytes after it (SB_ERROR_BAD_COUNT at count_field).
 * A count of 0 always succeeds with an empty window, whatever the offset.
 */
bool sb_fxc_records(const struct sb_cursor *part, uint64_t count_field, uint32_t count,
                    uint64_t offset_field, uint32_t offset, uint32_t record_size,
                    const char *what, struct sb_cursor *out);

/**
 * The stage of the container's SHDR/SHEX version token, or failing that of
 * its RDEF target; SB_DXBC_PROGRAM_UNKNOWN when neither says. Reads
 * through cursors, only after checking the part is big enough, so it never
 * records a failure.
 */
enum sb_dxbc_program_type sb_fxc_container_stage(struct sb_dxbc_decode_context *ctx);

/** Maps the RDEF target's high 16 bits (0xFFFF, 0xFFFE, 'GS', ...) to a stage. */
enum sb_dxbc_program_type sb_fxc_rdef_stage(uint32_t program_type_raw);

#endif
