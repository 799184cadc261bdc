/* SPDX-License-Identifier: MIT */
/*
 * Test-side assembler for small FXC-style DirectX Containers: a byte blob
 * with append/patch helpers, an RDEF writer for the 4.0 / 5.0 / 5.1 header
 * forms that records where each field landed (so malformed-input tests can
 * corrupt one field and expect an error at exactly that byte), and a
 * container writer that signs the result with sb_dxbc_compute_checksum().
 * Layouts follow ../shared/docs/dxcontainer.md §10-§13 and ../shared/docs/sm4-tokens.md §1.
 */
#ifndef SB_TEST_FXC_BUILDER_H
#define SB_TEST_FXC_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"

#define BLOB_CAPACITY 8192

struct blob {
    uint8_t bytes[BLOB_CAPACITY];
    uint32_t size;
};

static inline uint32_t blob_u8(struct blob *b, uint8_t v)
{
    if (b->size + 1 > BLOB_CAPACITY) {
        fprintf(stderr, "test blob overflow\n");
        exit(1);
    }
    b->bytes[b->size] = v;
    return b->size++;
}

static inline uint32_t blob_u16(struct blob *b, uint16_t v)
{
    uint32_t at = blob_u8(b, (uint8_t)v);
    blob_u8(b, (uint8_t)(v >> 8));
    return at;
}

static inline uint32_t blob_u32(struct blob *b, uint32_t v)
{
    uint32_t at = blob_u16(b, (uint16_t)v);
    blob_u16(b, (uint16_t)(v >> 16));
    return at;
}

static inline void blob_patch_u32(struct blob *b, uint32_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->bytes[at + i] = (uint8_t)(v >> (8 * i));
}

static inline void blob_patch_u16(struct blob *b, uint32_t at, uint16_t v)
{
    b->bytes[at] = (uint8_t)v;
    b->bytes[at + 1] = (uint8_t)(v >> 8);
}

static inline uint32_t blob_read_u32(const struct blob *b, uint32_t at)
{
    return (uint32_t)b->bytes[at] | ((uint32_t)b->bytes[at + 1] << 8) |
           ((uint32_t)b->bytes[at + 2] << 16) | ((uint32_t)b->bytes[at + 3] << 24);
}

/* Appends a string with its NUL (or without, for broken inputs). */
static inline uint32_t blob_str(struct blob *b, const char *s, bool terminate)
{
    uint32_t at = b->size;
    for (const char *p = s; *p; p++)
        blob_u8(b, (uint8_t)*p);
    if (terminate)
        blob_u8(b, 0);
    return at;
}

static inline void blob_align4(struct blob *b)
{
    while (b->size % 4)
        blob_u8(b, 0xab); /* fxc pads strings with 0xAB */
}

/* ---- container ---- */

struct part_spec {
    uint32_t fourcc;
    const struct blob *data;
};

/* Assembles and signs a container; returns the absolute data offset of each part in
 * data_offsets (may be NULL). */
static inline void build_container(const struct part_spec *parts, unsigned count,
                                   struct blob *out, uint32_t *data_offsets)
{
    memset(out, 0, sizeof(*out));
    blob_u32(out, SB_FOURCC('D', 'X', 'B', 'C'));
    for (int i = 0; i < 16; i++)
        blob_u8(out, 0);
    blob_u16(out, 1);
    blob_u16(out, 0);
    uint32_t size_field = blob_u32(out, 0);
    blob_u32(out, count);
    uint32_t table = out->size;
    for (unsigned i = 0; i < count; i++)
        blob_u32(out, 0);
    for (unsigned i = 0; i < count; i++) {
        blob_patch_u32(out, table + 4 * i, out->size);
        blob_u32(out, parts[i].fourcc);
        blob_u32(out, parts[i].data->size);
        if (data_offsets)
            data_offsets[i] = out->size;
        for (uint32_t j = 0; j < parts[i].data->size; j++)
            blob_u8(out, parts[i].data->bytes[j]);
    }
    blob_patch_u32(out, size_field, out->size);
    uint8_t digest[16];
    sb_dxbc_compute_checksum(out->bytes, out->size, digest);
    memcpy(out->bytes + 4, digest, 16);
}

/* Re-signs a container after a test patched it. */
static inline void resign_container(struct blob *c)
{
    uint8_t digest[16];
    sb_dxbc_compute_checksum(c->bytes, c->size, digest);
    memcpy(c->bytes + 4, digest, 16);
}

/* ---- RDEF ---- */

enum rdef_form { RDEF_40, RDEF_50, RDEF_51 };

/* Where the interesting fields of a built RDEF lie (part-relative offsets). */
struct rdef_marks {
    uint32_t cbuffer_desc;         /* the one cbuffer descriptor */
    uint32_t var_desc[3];          /* g_world, g_light, g_weights */
    uint32_t type_world, type_light, type_dir, type_intensity, type_weights;
    uint32_t member_desc[2];       /* dir, intensity */
    uint32_t binding_desc[3];      /* g_samp, g_tex, Globals */
    uint32_t default_value;        /* g_weights' default value */
    uint32_t creator;              /* the creator string */
    uint32_t var_size, type_size, binding_size;
};

static inline uint32_t rdef_type(struct blob *b, enum rdef_form form, uint16_t cls, uint16_t type,
                                 uint16_t rows, uint16_t cols, uint16_t elements, uint16_t members,
                                 uint32_t member_offset, uint32_t name_offset)
{
    uint32_t at = blob_u16(b, cls);
    blob_u16(b, type);
    blob_u16(b, rows);
    blob_u16(b, cols);
    blob_u16(b, elements);
    blob_u16(b, members);
    blob_u32(b, member_offset);
    if (form != RDEF_40) {
        for (uint32_t i = 0; i < 4; i++)
            blob_u32(b, 0x100 * (i + 1) + cls); /* distinct, checkable words */
        blob_u32(b, name_offset);
    }
    return at;
}

/*
 * A vs RDEF with cbuffer Globals { float4x4 g_world; Light g_light
 * (struct { float3 dir; float intensity; }); float g_weights[3] = {...}; },
 * bound resources g_samp (s1), g_tex (t3) and Globals (cb0), and a creator.
 * `terminate_creator` false leaves the creator last and unterminated.
 */
static inline void build_rdef(enum rdef_form form, bool terminate_creator, struct blob *b,
                              struct rdef_marks *m)
{
    memset(b, 0, sizeof(*b));
    memset(m, 0, sizeof(*m));
    bool sm5 = form != RDEF_40;
    m->var_size = sm5 ? 40 : 24;
    m->type_size = sm5 ? 36 : 16;
    m->binding_size = form == RDEF_51 ? 40 : 32;
    uint32_t minor = form == RDEF_51 ? 1 : 0;
    uint32_t major = sm5 ? 5 : 4;

    blob_u32(b, 1);                        /* cbuffer count */
    blob_u32(b, 0);                        /* cbuffer offset (patched) */
    blob_u32(b, 3);                        /* binding count */
    blob_u32(b, 0);                        /* binding offset (patched) */
    blob_u32(b, 0xFFFE0000u | (major << 8) | minor);
    blob_u32(b, 0x00000108);               /* PACK_MATRIX_ROW_MAJOR | NO_PRESHADER */
    blob_u32(b, 0);                        /* creator offset (patched) */
    if (sm5) {
        blob_u32(b, form == RDEF_51 ? 0x25441313u : 0x31314452u);
        blob_u32(b, 60);
        blob_u32(b, 24);
        blob_u32(b, m->binding_size);
        blob_u32(b, m->var_size);
        blob_u32(b, m->type_size);
        blob_u32(b, 12);
        blob_u32(b, 0);                    /* interface slots */
    }

    /* Bound resources. */
    blob_patch_u32(b, 12, b->size);
    static const uint32_t bind_fields[3][7] = {
        /* input, return, dimension, samples, point, count, flags */
        { 3, 0, 0, 0, 1, 1, 0x2 },
        { 2, 5, 4, 0xFFFFFFFFu, 3, 1, 0xC },
        { 0, 0, 0, 0, 0, 1, 0x0 },
    };
    for (int i = 0; i < 3; i++) {
        m->binding_desc[i] = blob_u32(b, 0); /* name (patched) */
        for (int j = 0; j < 7; j++)
            blob_u32(b, bind_fields[i][j]);
        if (form == RDEF_51) {
            blob_u32(b, 2 + (uint32_t)i); /* space */
            blob_u32(b, 7 + (uint32_t)i); /* id */
        }
    }

    /* The constant buffer. */
    blob_patch_u32(b, 4, b->size);
    m->cbuffer_desc = blob_u32(b, 0);      /* name (patched) */
    blob_u32(b, 3);                        /* variable count */
    blob_u32(b, 0);                        /* variable offset (patched) */
    blob_u32(b, 128);                      /* size */
    blob_u32(b, 0);                        /* flags */
    blob_u32(b, 0);                        /* type cbuffer */

    /* Variables (type and default offsets patched below). */
    blob_patch_u32(b, m->cbuffer_desc + 8, b->size);
    static const uint32_t var_fields[3][4] = {
        /* start, size, flags */
        { 0, 64, 2 }, { 64, 16, 2 }, { 80, 36, 0 },
    };
    for (int i = 0; i < 3; i++) {
        m->var_desc[i] = blob_u32(b, 0);
        for (int j = 0; j < 3; j++)
            blob_u32(b, var_fields[i][j]);
        blob_u32(b, 0);                    /* type */
        blob_u32(b, 0);                    /* default */
        if (sm5) {
            blob_u32(b, i == 0 ? 5 : 0xFFFFFFFFu);
            blob_u32(b, i == 0 ? 1 : 0);
            blob_u32(b, i == 0 ? 6 : 0xFFFFFFFFu);
            blob_u32(b, i == 0 ? 2 : 0);
        }
    }

    /* Types: world, light (2 members), dir, intensity, weights. */
    m->type_world = rdef_type(b, form, 3, 3, 4, 4, 0, 0, 0, 0);
    m->type_light = rdef_type(b, form, 5, 0, 1, 4, 0, 2, 0, 0);
    m->type_dir = rdef_type(b, form, 1, 3, 1, 3, 0, 0, 0, 0);
    m->type_intensity = rdef_type(b, form, 0, 3, 1, 1, 0, 0, 0, 0);
    m->type_weights = rdef_type(b, form, 0, 3, 1, 1, 3, 0, 0, 0);
    blob_patch_u32(b, m->var_desc[0] + 16, m->type_world);
    blob_patch_u32(b, m->var_desc[1] + 16, m->type_light);
    blob_patch_u32(b, m->var_desc[2] + 16, m->type_weights);
    blob_patch_u32(b, m->type_light + 12, b->size);
    m->member_desc[0] = blob_u32(b, 0);
    blob_u32(b, m->type_dir);
    blob_u32(b, 0);
    m->member_desc[1] = blob_u32(b, 0);
    blob_u32(b, m->type_intensity);
    blob_u32(b, 12);

    /* g_weights default: 0.25, 0.5, 0.75 in three registers. */
    m->default_value = b->size;
    static const uint32_t weights[9] = { 0x3e800000, 0, 0, 0, 0x3f000000, 0, 0, 0, 0x3f400000 };
    for (int i = 0; i < 9; i++)
        blob_u32(b, weights[i]);
    blob_patch_u32(b, m->var_desc[2] + 20, m->default_value);

    /* Strings. */
    blob_patch_u32(b, m->binding_desc[0], blob_str(b, "g_samp", true));
    blob_patch_u32(b, m->binding_desc[1], blob_str(b, "g_tex", true));
    uint32_t globals = blob_str(b, "Globals", true);
    blob_patch_u32(b, m->binding_desc[2], globals);
    blob_patch_u32(b, m->cbuffer_desc, globals);
    blob_patch_u32(b, m->var_desc[0], blob_str(b, "g_world", true));
    blob_patch_u32(b, m->var_desc[1], blob_str(b, "g_light", true));
    blob_patch_u32(b, m->var_desc[2], blob_str(b, "g_weights", true));
    blob_patch_u32(b, m->member_desc[0], blob_str(b, "dir", true));
    blob_patch_u32(b, m->member_desc[1], blob_str(b, "intensity", true));
    if (sm5) {
        blob_patch_u32(b, m->type_world + 32, blob_str(b, "float4x4", true));
        blob_patch_u32(b, m->type_light + 32, blob_str(b, "Light", true));
        blob_patch_u32(b, m->type_dir + 32, blob_str(b, "float3", true));
        uint32_t f = blob_str(b, "float", true);
        blob_patch_u32(b, m->type_intensity + 32, f);
        blob_patch_u32(b, m->type_weights + 32, f);
    }
    blob_align4(b);
    m->creator = blob_str(b, "Microsoft (R) HLSL Shader Compiler 10.1", terminate_creator);
    blob_patch_u32(b, 24, m->creator);
    if (terminate_creator)
        blob_align4(b);
}

/* ---- signatures ---- */

struct sig_element_spec {
    uint32_t stream;
    const char *name;
    uint32_t index, system_value, component_type, reg;
    uint8_t mask, rw_mask;
    uint32_t min_precision;
};

/* Writes a signature with `element_size` 24, 28 or 32. */
static inline void build_signature(uint32_t element_size, const struct sig_element_spec *e,
                                   uint32_t count, struct blob *b)
{
    memset(b, 0, sizeof(*b));
    blob_u32(b, count);
    blob_u32(b, 8);
    /* Element i's name offset sits at a fixed place (after the stream word where the layout has
     * one), patched once the strings follow: no per-element table, so any count fits. */
    uint32_t name_field = 8 + (element_size != 24 ? 4 : 0);
    for (uint32_t i = 0; i < count; i++) {
        if (element_size != 24)
            blob_u32(b, e[i].stream);
        blob_u32(b, 0);
        blob_u32(b, e[i].index);
        blob_u32(b, e[i].system_value);
        blob_u32(b, e[i].component_type);
        blob_u32(b, e[i].reg);
        blob_u8(b, e[i].mask);
        blob_u8(b, e[i].rw_mask);
        blob_u16(b, 0);
        if (element_size == 32)
            blob_u32(b, e[i].min_precision);
    }
    for (uint32_t i = 0; i < count; i++)
        blob_patch_u32(b, name_field + i * element_size, blob_str(b, e[i].name, true));
    blob_align4(b);
}

#endif
