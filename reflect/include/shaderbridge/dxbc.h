/* SPDX-License-Identifier: MIT */
/*
 * DirectX Container (DXBC / DXIL) reflection: the container header, the part
 * table, the container checksum, and every known part decoded into plain C
 * structs (../shared/docs/dxcontainer.md).
 *
 * One call, sb_dxbc_parse(), reads a whole container. The result is one
 * allocation tree owned by the returned `struct sb_dxbc` and released by
 * sb_dxbc_destroy(); nothing in it borrows the caller's bytes (the input is
 * copied), and no decoded structure has a free function of its own.
 *
 * Decoded parts are described in dxbc_fxc.h (FXC-era parts: RDEF, the
 * signatures, STAT, IFCE, SHDR/SHEX) and dxbc_dxil.h (DXC-era parts: PSV0,
 * RTS0, program headers, HASH, VERS, ILDN, SRCI, SYM0/STR0).
 */
#ifndef SHADERBRIDGE_DXBC_H
#define SHADERBRIDGE_DXBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Builds a FourCC the way it is stored: 'D','X','B','C' -> 0x43425844. */
#define SB_FOURCC(a, b, c, d)                                                             \
    ((uint32_t)(uint8_t)(a) | ((uint32_t)(uint8_t)(b) << 8) |                              \
     ((uint32_t)(uint8_t)(c) << 16) | ((uint32_t)(uint8_t)(d) << 24))

/** Size of the fixed container header (before the part-offset table). */
#define SB_DXBC_HEADER_SIZE 32u

/** What a part holds, decided by its FourCC (../shared/docs/dxcontainer.md §1.4). */
enum sb_dxbc_part_kind {
    SB_DXBC_PART_UNKNOWN = 0, /**< unrecognised FourCC: kept raw */
    SB_DXBC_PART_RDEF,        /**< FXC resource definitions (decoded: rdef) */
    SB_DXBC_PART_ISGN,        /**< SM4/5 input signature (decoded: signature) */
    SB_DXBC_PART_OSGN,        /**< SM4/5 output signature (decoded: signature) */
    SB_DXBC_PART_OSG5,        /**< SM5 output signature with streams (decoded: signature) */
    SB_DXBC_PART_PCSG,        /**< SM5 patch-constant signature (decoded: signature) */
    SB_DXBC_PART_ISG1,        /**< SM5.1/DXIL input signature (decoded: signature) */
    SB_DXBC_PART_OSG1,        /**< SM5.1/DXIL output signature (decoded: signature) */
    SB_DXBC_PART_PSG1,        /**< SM5.1/DXIL patch-constant signature (decoded: signature) */
    SB_DXBC_PART_SHDR,        /**< SM4 token stream (decoded: shader version header) */
    SB_DXBC_PART_SHEX,        /**< SM5 token stream (decoded: shader version header) */
    SB_DXBC_PART_STAT,        /**< FXC statistics (decoded: stat) or DXC reflection module
                                   (decoded: program) */
    SB_DXBC_PART_SFI0,        /**< shader feature flags (decoded: sfi0) */
    SB_DXBC_PART_IFCE,        /**< FXC class-linkage interfaces (decoded: ifce) */
    SB_DXBC_PART_HASH,        /**< DXC shader hash (decoded: hash) */
    SB_DXBC_PART_PSV0,        /**< pipeline state validation (decoded: psv0) */
    SB_DXBC_PART_RTS0,        /**< serialised root signature (decoded: rts0) */
    SB_DXBC_PART_DXIL,        /**< DXIL program (decoded: program) */
    SB_DXBC_PART_ILDB,        /**< DXIL program with debug info (decoded: program) */
    SB_DXBC_PART_VERS,        /**< compiler version (decoded: vers) */
    SB_DXBC_PART_ILDN,        /**< debug (PDB) name (decoded: ildn) */
    SB_DXBC_PART_SRCI,        /**< source info (decoded: srci) */
    SB_DXBC_PART_SYM0,        /**< proposed symbol table (decoded: sym0) */
    SB_DXBC_PART_STR0,        /**< proposed string table (decoded: str0) */
    /* Known parts kept raw (named, not decoded). */
    SB_DXBC_PART_RDAT,        /**< DXC runtime data */
    SB_DXBC_PART_PDBI,        /**< DXC PDB info */
    SB_DXBC_PART_PRIV,        /**< private user data (must be last) */
    SB_DXBC_PART_AON9,        /**< embedded Direct3D 9 shader of a level-9 profile */
    SB_DXBC_PART_XNAS,        /**< Xbox 360 shader (XNA) */
    SB_DXBC_PART_XNAP,        /**< Xbox 360 shader (XNA) */
    SB_DXBC_PART_FX10,        /**< Direct3D 10 effect */
    SB_DXBC_PART_CTAB,        /**< Direct3D 9 constant table (effect expressions) */
    SB_DXBC_PART_CLI4,        /**< effect expression literals */
    SB_DXBC_PART_FXLC,        /**< effect expression code */
    SB_DXBC_PART_SDBG,        /**< FXC debug info */
    SB_DXBC_PART_SPDB,        /**< FXC PDB debug info */
    SB_DXBC_PART_TEXT,        /**< source text */
    SB_DXBC_PART_KIND_MAX_ENUM = 0x7fffffff
};

/** Verdict on the header digest (../shared/docs/dxcontainer.md §1.3). */
enum sb_dxbc_digest_status {
    SB_DXBC_DIGEST_VALID = 0,          /**< equals the computed checksum */
    SB_DXBC_DIGEST_MISMATCH = 1,       /**< differs from the computed checksum (warning) */
    SB_DXBC_DIGEST_UNSIGNED = 2,       /**< all zero: the container was never signed */
    SB_DXBC_DIGEST_PREVIEW_BYPASS = 3, /**< sixteen 0x02 bytes: DXC's preview bypass value */
    /** not judged: parsed with SB_DXBC_PARSE_SKIP_CHECKSUM (sb_dxbc_parse_ex) */
    SB_DXBC_DIGEST_UNCHECKED = 4,
    SB_DXBC_DIGEST_STATUS_MAX_ENUM = 0x7fffffff
};

struct sb_dxbc_rdef;
struct sb_dxbc_signature;
struct sb_dxbc_shader_header;
struct sb_dxbc_stat;
struct sb_dxbc_sfi0;
struct sb_dxbc_ifce;
struct sb_dxbc_hash;
struct sb_dxbc_psv0;
struct sb_dxbc_rts0;
struct sb_dxbc_program;
struct sb_dxbc_vers;
struct sb_dxbc_ildn;
struct sb_dxbc_srci;
struct sb_dxbc_sym0;
struct sb_dxbc_str0;

/** One part of the container. */
struct sb_dxbc_part {
    uint32_t fourcc;              /**< as stored (see SB_FOURCC) */
    char name[5];                 /**< the FourCC as a NUL-terminated string; bytes outside
                                       printable ASCII are replaced by '?' */
    enum sb_dxbc_part_kind kind;  /**< what the FourCC means */
    uint32_t header_offset;       /**< file offset of the 8-byte part header */
    uint32_t data_offset;         /**< file offset of the part data (header_offset + 8) */
    uint32_t size;                /**< data size in bytes */
    const uint8_t *data;          /**< the part data (inside `bytes`) */
    /**
     * The decoded part; the member to read is named in the kind's comment.
     * NULL/unused for raw kinds. Owned by the container object.
     */
    union {
        const struct sb_dxbc_rdef *rdef;
        const struct sb_dxbc_signature *signature;
        const struct sb_dxbc_shader_header *shader;
        const struct sb_dxbc_stat *stat;
        const struct sb_dxbc_sfi0 *sfi0;
        const struct sb_dxbc_ifce *ifce;
        const struct sb_dxbc_hash *hash;
        const struct sb_dxbc_psv0 *psv0;
        const struct sb_dxbc_rts0 *rts0;
        const struct sb_dxbc_program *program;
        const struct sb_dxbc_vers *vers;
        const struct sb_dxbc_ildn *ildn;
        const struct sb_dxbc_srci *srci;
        const struct sb_dxbc_sym0 *sym0;
        const struct sb_dxbc_str0 *str0;
        const void *any;
    } decoded;
};

/** A parsed DirectX Container. */
struct sb_dxbc {
    uint16_t major_version;       /**< header version (1) */
    uint16_t minor_version;       /**< header version (0) */
    uint32_t file_size;           /**< the header's size field (equals the input size) */
    uint8_t digest[16];           /**< the stored header digest */
    uint8_t computed_digest[16];  /**< the checksum computed over the bytes */
    enum sb_dxbc_digest_status digest_status;
    bool checksum_ok;             /**< digest == computed_digest */
    bool is_dxil;                 /**< the container holds a DXIL part (dxc output) */

    uint32_t part_count;
    const struct sb_dxbc_part *parts; /**< part_count entries in offset-table order */

    uint32_t warning_count;
    const struct sb_warning *warnings; /**< non-fatal findings (digest mismatch, ...) */

    size_t size;                  /**< bytes of the input */
    const uint8_t *bytes;         /**< the object's own copy of the input (the caller's buffer with SB_DXBC_PARSE_BORROW_INPUT) */
};

/**
 * Parses a DirectX Container.
 *
 * @param data  the container bytes (copied, unless SB_DXBC_PARSE_BORROW_INPUT)
 * @param size  their length
 * @param out   receives the new object on success, NULL on failure; free it
 *              with sb_dxbc_destroy()
 * @param error optional; receives code, byte offset and message on failure
 * @return SB_SUCCESS, or a negative code (bad structure of any decoded part is
 *         an error; a checksum mismatch is a warning and sets checksum_ok=false)
 */
SB_API enum sb_result sb_dxbc_parse(const void *data, size_t size, struct sb_dxbc **out,
                             struct sb_error *error);

/** Bits of the `flags` argument of sb_dxbc_parse_ex(). */
enum sb_dxbc_parse_flags {
    /**
     * Do not compute the checksum (an MD5 pass over the whole input, which a
     * caller that only reads the parts, such as sb_translate, never needs):
     * computed_digest stays zero, checksum_ok is false, digest_status is
     * SB_DXBC_DIGEST_UNCHECKED and no digest-mismatch warning is added.
     * Everything else is parsed and checked exactly as by sb_dxbc_parse().
     */
    SB_DXBC_PARSE_SKIP_CHECKSUM = 1u << 0,
    /**
     * Do not copy the input: `bytes` and every part's data (and a SHDR/SHEX
     * header's `tokens`, which may alias the part data) point into the
     * caller's buffer, which must stay unchanged until sb_dxbc_destroy().
     * For callers that parse, read and destroy at once (sb_translate).
     */
    SB_DXBC_PARSE_BORROW_INPUT = 1u << 1,
    /**
     * Decode only the parts sb_translate reads: SHDR/SHEX, the signatures,
     * RDEF, SFI0 and the DXIL programs (DXIL, ILDB, a DXC STAT); of a DXIL
     * container without SHDR/SHEX, the DXIL programs alone. Every other
     * part (FXC STAT, IFCE, HASH, PSV0, RTS0, VERS, debug parts...) keeps its
     * table entry and raw bytes but `decoded.any` stays NULL, and a malformed
     * one is not reported. The container header and part table are checked
     * as by sb_dxbc_parse().
     */
    SB_DXBC_PARSE_TRANSLATION_PARTS = 1u << 2,
    SB_DXBC_PARSE_FLAGS_MAX_ENUM = 0x7fffffff
};

/**
 * sb_dxbc_parse() with options.
 *
 * @param data  the container bytes (copied, unless SB_DXBC_PARSE_BORROW_INPUT)
 * @param size  their length
 * @param flags 0 (the same as sb_dxbc_parse) or a combination of
 *              enum sb_dxbc_parse_flags; an unknown bit is
 *              SB_ERROR_INVALID_ARGUMENT
 * @param out   receives the new object on success, NULL on failure; free it
 *              with sb_dxbc_destroy()
 * @param error optional; receives code, byte offset and message on failure
 * @return as sb_dxbc_parse()
 */
SB_API enum sb_result sb_dxbc_parse_ex(const void *data, size_t size, uint32_t flags,
                                struct sb_dxbc **out, struct sb_error *error);

/** Frees a container and everything decoded from it; NULL is a no-op. */
SB_API void sb_dxbc_destroy(struct sb_dxbc *dxbc);

/**
 * Computes the container checksum of ../shared/docs/dxcontainer.md §1.3 over
 * `data[20..size)` into `digest`. Returns SB_ERROR_INVALID_ARGUMENT when
 * `size` < 20 or a pointer is NULL.
 */
SB_API enum sb_result sb_dxbc_compute_checksum(const void *data, size_t size, uint8_t digest[16]);

/** The first part with this FourCC, or NULL. */
SB_API const struct sb_dxbc_part *sb_dxbc_find_part(const struct sb_dxbc *dxbc, uint32_t fourcc);

/**
 * Whether the container holds a DXIL program and no SM4/5 one (SHDR/SHEX): sb_translate
 * gives such a container to the DXIL front end, and SB_DXBC_PARSE_TRANSLATION_PARTS
 * decodes its programs alone. False for NULL.
 */
SB_API bool sb_dxbc_is_dxil_only(const struct sb_dxbc *dxbc);

/** The kind a FourCC denotes (SB_DXBC_PART_UNKNOWN when not known). */
SB_API enum sb_dxbc_part_kind sb_dxbc_part_kind_from_fourcc(uint32_t fourcc);

/** A short description of a part kind ("resource definitions"); static string. */
SB_API const char *sb_dxbc_part_kind_description(enum sb_dxbc_part_kind kind);

/** Name of a digest status ("valid", "mismatch", "unsigned", "preview-bypass"). */
SB_API const char *sb_dxbc_digest_status_name(enum sb_dxbc_digest_status status);

#ifdef __cplusplus
}
#endif

#endif
