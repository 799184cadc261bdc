/* SPDX-License-Identifier: MIT */
/*
 * The fixed facts of the PICA200 SHBIN format as tables: names of the enums,
 * the output types with their lane counts and first semantic codes
 * (../shared/docs/pica200.md §11.2), the semantic codes themselves (§11.1), the
 * uniform register numbering (§3.3), and the float24 decoder (§2).
 *
 * Each table has one row per item so that tests can walk every row and the
 * reader, the JSON writer and later the translator share one source of
 * truth.
 */
#include "shbin_private.h"

#include <string.h>

/* One row per output type (§11.2). lanes == 0: no semantic (dummy). */
static const struct sb_shbin_output_type_row output_types[] = {
    { SB_SHBIN_OUTPUT_POSITION, "position", 4, 0x00 },
    { SB_SHBIN_OUTPUT_NORMAL_QUATERNION, "normal_quaternion", 4, 0x04 },
    { SB_SHBIN_OUTPUT_COLOR, "color", 4, 0x08 },
    { SB_SHBIN_OUTPUT_TEXCOORD0, "texcoord0", 2, 0x0C },
    { SB_SHBIN_OUTPUT_TEXCOORD0_W, "texcoord0_w", 1, 0x10 },
    { SB_SHBIN_OUTPUT_TEXCOORD1, "texcoord1", 2, 0x0E },
    { SB_SHBIN_OUTPUT_TEXCOORD2, "texcoord2", 2, 0x16 },
    { SB_SHBIN_OUTPUT_VIEW, "view", 3, 0x12 },
    { SB_SHBIN_OUTPUT_DUMMY, "dummy", 0, SB_SHBIN_SEMANTIC_UNUSED },
};

const struct sb_shbin_output_type_row *sb_shbin_output_type_row(uint32_t type)
{
    for (size_t i = 0; i < sizeof(output_types) / sizeof(output_types[0]); i++)
        if ((uint32_t)output_types[i].type == type)
            return &output_types[i];
    return NULL;
}

const char *sb_shbin_output_type_name(enum sb_shbin_output_type type)
{
    const struct sb_shbin_output_type_row *row = sb_shbin_output_type_row((uint32_t)type);
    return row ? row->name : NULL;
}

/* One row per hardware semantic code (§11.1); NULL rows are unassigned. */
static const char *const semantic_names[] = {
    [0x00] = "position.x",          [0x01] = "position.y",
    [0x02] = "position.z",          [0x03] = "position.w",
    [0x04] = "normal_quaternion.x", [0x05] = "normal_quaternion.y",
    [0x06] = "normal_quaternion.z", [0x07] = "normal_quaternion.w",
    [0x08] = "color.r",             [0x09] = "color.g",
    [0x0A] = "color.b",             [0x0B] = "color.a",
    [0x0C] = "texcoord0.u",         [0x0D] = "texcoord0.v",
    [0x0E] = "texcoord1.u",         [0x0F] = "texcoord1.v",
    [0x10] = "texcoord0.w",         [0x11] = NULL,
    [0x12] = "view.x",              [0x13] = "view.y",
    [0x14] = "view.z",              [0x15] = NULL,
    [0x16] = "texcoord2.u",         [0x17] = "texcoord2.v",
    [0x18] = NULL, [0x19] = NULL, [0x1A] = NULL, [0x1B] = NULL,
    [0x1C] = NULL, [0x1D] = NULL, [0x1E] = NULL,
    [0x1F] = "unused",
};

const char *sb_shbin_semantic_name(uint32_t code)
{
    return code < sizeof(semantic_names) / sizeof(semantic_names[0]) ? semantic_names[code]
                                                                      : NULL;
}

void sb_shbin_output_semantics(const struct sb_shbin_output_type_row *row, uint8_t mask,
                               uint8_t semantics[4])
{
    unsigned assigned = 0;
    for (unsigned lane = 0; lane < 4; lane++) {
        semantics[lane] = SB_SHBIN_SEMANTIC_UNUSED;
        if ((mask & (1u << lane)) && assigned < row->lanes)
            semantics[lane] = (uint8_t)(row->first_code + assigned++);
    }
}

/* One row per register class (§3.3). */
static const struct {
    enum sb_shbin_register_class register_class;
    const char *name;
    uint32_t first; /* first register number of the class */
    uint32_t count;
} register_classes[] = {
    { SB_SHBIN_REGISTER_INPUT, "v", 0x00, 16 },
    { SB_SHBIN_REGISTER_FLOAT, "c", 0x10, 96 },
    { SB_SHBIN_REGISTER_INT, "i", 0x70, 4 },
    { SB_SHBIN_REGISTER_BOOL, "b", 0x78, 16 },
};

#define REGISTER_CLASS_COUNT (sizeof(register_classes) / sizeof(register_classes[0]))

bool sb_shbin_decode_register(uint32_t reg, enum sb_shbin_register_class *class_out,
                              uint32_t *index)
{
    for (size_t i = 0; i < REGISTER_CLASS_COUNT; i++) {
        if (reg - register_classes[i].first < register_classes[i].count) {
            if (class_out)
                *class_out = register_classes[i].register_class;
            if (index)
                *index = reg - register_classes[i].first;
            return true;
        }
    }
    return false;
}

const char *sb_shbin_register_class_name(enum sb_shbin_register_class register_class)
{
    for (size_t i = 0; i < REGISTER_CLASS_COUNT; i++)
        if (register_classes[i].register_class == register_class)
            return register_classes[i].name;
    return NULL;
}

const char *sb_shbin_layout_name(enum sb_shbin_layout layout)
{
    static const char *const names[] = {
        [SB_SHBIN_LAYOUT_PICASSO] = "picasso",
        [SB_SHBIN_LAYOUT_PICASSO_OLD] = "picasso-old",
        [SB_SHBIN_LAYOUT_NINTENDO] = "nintendo",
    };
    return (uint32_t)layout < sizeof(names) / sizeof(names[0]) ? names[layout] : NULL;
}

const char *sb_shbin_shader_type_name(enum sb_shbin_shader_type type)
{
    static const char *const names[] = {
        [SB_SHBIN_SHADER_VERTEX] = "vertex",
        [SB_SHBIN_SHADER_GEOMETRY] = "geometry",
    };
    return (uint32_t)type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

const char *sb_shbin_gs_mode_name(enum sb_shbin_gs_mode mode)
{
    static const char *const names[] = {
        [SB_SHBIN_GS_MODE_POINT] = "point",
        [SB_SHBIN_GS_MODE_VARIABLE] = "variable",
        [SB_SHBIN_GS_MODE_FIXED] = "fixed",
    };
    return (uint32_t)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : NULL;
}

const char *sb_shbin_constant_type_name(enum sb_shbin_constant_type type)
{
    static const char *const names[] = {
        [SB_SHBIN_CONSTANT_BOOL] = "bool",
        [SB_SHBIN_CONSTANT_INT] = "int",
        [SB_SHBIN_CONSTANT_FLOAT] = "float",
    };
    return (uint32_t)type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

/*
 * Built from the bit pattern rather than with ldexpf for normals, inf and
 * NaN so that the result is exact by construction and a NaN keeps its
 * payload; only subnormals go through arithmetic (m * 2^-78 is exact in
 * float32 because m has at most 16 significant bits and 2^-78 is normal).
 */
float sb_shbin_float24_to_float(uint32_t value)
{
    uint32_t sign = (value >> 23) & 1u;
    uint32_t exponent = (value >> 16) & 0x7Fu;
    uint32_t mantissa = value & 0xFFFFu;
    uint32_t bits;
    if (exponent == 0 && mantissa != 0) {
        /* 2^-78 as float32 bits: biased exponent 127 - 78 = 49. */
        uint32_t scale_bits = 49u << 23;
        float scale;
        memcpy(&scale, &scale_bits, sizeof(scale));
        float magnitude = (float)mantissa * scale;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0)
        bits = 0;
    else if (exponent == 127)
        bits = 0x7F800000u | (mantissa << 7);
    else
        bits = ((exponent + 64u) << 23) | (mantissa << 7);
    bits |= sign << 31;
    float result;
    memcpy(&result, &bits, sizeof(result));
    return result;
}
