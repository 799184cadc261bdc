/* SPDX-License-Identifier: MIT */
/*
 * Private interface between the container reader (dxbc_container.c) and
 * the per-part decoders (dxbc_<part>.c). Each decoder reads its part only
 * through the cursor it is given (a window over exactly the part data),
 * allocates through the reader, stores its result in part->decoded and
 * returns false after recording an error in the reader.
 */
#ifndef SB_REFLECT_DXBC_PRIVATE_H
#define SB_REFLECT_DXBC_PRIVATE_H

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/dxbc_fxc.h"
#include "cursor.h"

/** What a decoder may know about the rest of the container. */
struct sb_dxbc_decode_context {
    struct sb_reader *reader;
    const struct sb_dxbc *dxbc;       /**< header and part table (decoded fields filling in) */
    /** DXIL (or ILDB) program header when the container has one, else NULL. It is decoded
     *  before every other part, so PSV0 can interpret its stage-specific fields. */
    const struct sb_dxbc_program *dxil_program;
};

typedef bool (*sb_dxbc_part_decoder)(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                                     struct sb_dxbc_part *part);

/* FXC-era parts (dxbc_fxc.h). */
bool sb_dxbc_decode_rdef(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_signature(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_shader_header(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_stat(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_sfi0(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_ifce(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);

/* DXC-era parts (dxbc_dxil.h). */
bool sb_dxbc_decode_program(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_hash(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_psv0(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_rts0(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_vers(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_ildn(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_srci(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_sym0(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);
bool sb_dxbc_decode_str0(struct sb_dxbc_decode_context *, struct sb_cursor *, struct sb_dxbc_part *);

/** MD5 compression function over one 64-byte block (dxbc_checksum.c). */
void sb_md5_block(uint32_t state[4], const uint8_t block[64]);

#endif
