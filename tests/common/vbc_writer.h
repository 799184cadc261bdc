/* SPDX-License-Identifier: MIT */
/*
 * Test-only VBC writer: assembles a file from a plain description and the
 * SPIR-V blobs glslang produced, and records where every field landed so
 * tests can assert exact error offsets (../shared/docs/vbc.md §2-§4).
 *
 * The writer writes what it is told, limits and all, so malformed files
 * are built the same way as good ones. It also records the "spans" the
 * reader checks one at a time (a field, or a whole record array), which is
 * what a truncated file must be reported against.
 */
#ifndef SB_TEST_VBC_WRITER_H
#define SB_TEST_VBC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/vbc.h"

/** Room for every section's records, limits exceeded included. */
#define VW_MAX_RECORDS 40
#define VW_MAX_SPANS 512

/** A vertex input or fragment output record, and what the reader must derive. */
struct vw_var {
    uint8_t location, base_type, dims[2], array_size;
    uint32_t expect_location_count; /**< hand-computed locations consumed */
};

/** A binding record; buffers (base types 7, 8) use stride, the rest the texel fields. */
struct vw_binding {
    uint8_t slot, base_type;
    uint16_t stage_mask;
    uint8_t rank, texel_type, component_size, component_count;
    uint16_t stride;
    enum sb_vbc_binding_type expect_binding_type;
};

struct vw_member {
    const char *name; /**< written with strlen() as its length byte */
    uint16_t offset;
    uint8_t base_type, dims[2], array_size;
};

struct vw_subpass {
    uint8_t texel_type, component_count;
};

/** One stage's SPIR-V; bytes == NULL means the stage is absent. */
struct vw_blob {
    const uint8_t *bytes;
    size_t size; /**< a multiple of 4 */
};

struct vw_spec {
    const char *name;
    uint8_t magic[3], version, shader_type;
    uint16_t table_sizes[SB_VBC_TABLE_COUNT];
    struct vw_blob blobs[SB_VBC_STAGE_COUNT];
    uint32_t input_count;
    struct vw_var inputs[VW_MAX_RECORDS];
    uint32_t output_count;
    struct vw_var outputs[VW_MAX_RECORDS];
    uint32_t binding_count;
    struct vw_binding bindings[VW_MAX_RECORDS];
    uint16_t uniform_size; /**< 0: the uniform section is just this u16 */
    uint16_t uniform_stage_mask;
    uint32_t member_count;
    struct vw_member members[VW_MAX_RECORDS];
    uint32_t subpass_count;
    struct vw_subpass subpasses[VW_MAX_RECORDS];
    /** 4 (the format) or 48 (vslc c110b1b8's buggy object dump, §3.5); 0 means 4. */
    uint32_t subpass_record_size;

    /* Hand-written expectations for derived values. */
    uint32_t expect_location_mask;
    uint32_t expect_push_constant_size;
    bool expect_engine_stages, expect_engine_default_tables, expect_engine_binding_types;
};

/** One unit the reader requires before decoding: a field or a whole record array. */
struct vw_span {
    size_t start, size;
};

/** Where the writer put everything (absolute file offsets). */
struct vw_layout {
    size_t input_count_at, input_at[VW_MAX_RECORDS];
    size_t output_count_at, output_at[VW_MAX_RECORDS];
    size_t binding_count_at, binding_at[VW_MAX_RECORDS];
    size_t uniform_at, member_at[VW_MAX_RECORDS];
    size_t subpass_count_at, subpass_at[VW_MAX_RECORDS];
    size_t blob_at[SB_VBC_STAGE_COUNT];
    size_t size;
    uint32_t span_count;
    struct vw_span spans[VW_MAX_SPANS];
};

/** A spec with the valid header defaults (magic, version 1, graphics, default tables). */
void vw_spec_init(struct vw_spec *spec, const char *name);

/**
 * Writes the file. Returns a malloc'd buffer (free() it) and its size,
 * filling `layout` when not NULL; NULL on OOM.
 */
uint8_t *vw_write(const struct vw_spec *spec, size_t *size, struct vw_layout *layout);

/** The offset a file truncated to `length` bytes must be reported at (first span not whole). */
size_t vw_truncation_offset(const struct vw_layout *layout, size_t length);

/** The SPIR-V blobs of the test shaders (build-time glslang output). */
enum vw_module {
    VW_BASIC_VERT, VW_BASIC_FRAG,
    VW_FULL_VERT, VW_FULL_TESC, VW_FULL_TESE, VW_FULL_GEOM, VW_FULL_FRAG,
    VW_FORMATS_VERT, VW_FORMATS_FRAG,
    VW_SUBPASS_VERT, VW_SUBPASS1_FRAG, VW_SUBPASS2_FRAG, VW_SUBPASS3_FRAG, VW_SUBPASS4_FRAG,
    VW_MODULE_COUNT
};

struct vw_modules {
    struct vw_blob blob[VW_MODULE_COUNT];
    bool synthetic; /**< stand-ins (a bare SPIR-V header) instead of glslang output */
};

/**
 * Loads every module from `dir` (files named <set>.<stage>.spv). With
 * dir == NULL, fills 5-word stand-in modules instead (only for tests of
 * the reflection bytes, which never look inside a blob). False (with a
 * message on stderr) when a file is missing or not whole words.
 */
bool vw_modules_load(struct vw_modules *modules, const char *dir);
void vw_modules_free(struct vw_modules *modules);

/* The test shaders' specs (vbc_specs.c); each names the modules it uses. */
void vw_spec_basic(struct vw_spec *spec, const struct vw_modules *modules);
void vw_spec_full(struct vw_spec *spec, const struct vw_modules *modules);
void vw_spec_formats(struct vw_spec *spec, const struct vw_modules *modules);
/** `count` subpass inputs (1..4, the types cycle float, signed, unsigned, float). */
void vw_spec_subpass(struct vw_spec *spec, const struct vw_modules *modules, uint32_t count);

#endif
