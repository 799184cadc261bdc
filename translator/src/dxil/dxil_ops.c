/* SPDX-License-Identifier: MIT */
/*
 * Lookups over the generated dx.op table (dxil_ops_table.c,
 * ../shared/docs/dxil.md §3.3-§3.6): by opcode, by class name, and the parser
 * of `dx.op.<class>[.<overload>]` function names, plus the §3.4 value names.
 *
 * The opcode, not the name, says what a call does (§3.3: one declaration
 * serves many opcodes), so the front end dispatches on sb_dxil_op_lookup and
 * uses the name parser only to recognise dx.op calls and to check that the
 * declaration's overload is one the opcode has (sb_dxil_op_accepts). Names
 * come from the bitcode's string table, so every function here takes a
 * length and reads nothing past it.
 */
#include "translator/dxil_ops.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "shaderbridge/dxbc_dxil.h"

#define SB_DXIL_EXPERIMENTAL_TABLE 0x8000u

const struct sb_dxil_op_info *sb_dxil_op_lookup(uint32_t opcode)
{
    const struct sb_dxil_op_info *row = NULL;
    uint32_t table = opcode >> 16, index = opcode & 0xFFFFu;
    if (table == 0 && index < SB_DXIL_CORE_OP_COUNT)
        row = &sb_dxil_core_ops[index];
    else if (table == SB_DXIL_EXPERIMENTAL_TABLE && index < SB_DXIL_EXPERIMENTAL_OP_COUNT)
        row = &sb_dxil_experimental_ops[index];
    /* Reserved numbers are zeroed rows: no name. */
    return row && row->name ? row : NULL;
}

const struct sb_dxil_op_operand *sb_dxil_op_operand(const struct sb_dxil_op_info *op,
                                                    uint32_t index)
{
    if (!op || index >= op->operand_count)
        return NULL;
    return &sb_dxil_op_operands[op->operand_first + index];
}

const char *sb_dxil_type_name(enum sb_dxil_type type)
{
    /* The §3.6 column legend, for listings and messages ("operand 3 must be i8"). */
    static const char *const names[SB_DXIL_TYPE_COUNT] = {
        [SB_DXIL_TYPE_VOID] = "void", [SB_DXIL_TYPE_OVERLOAD] = "T",
        [SB_DXIL_TYPE_HANDLE] = "H", [SB_DXIL_TYPE_I1] = "i1", [SB_DXIL_TYPE_I8] = "i8",
        [SB_DXIL_TYPE_I16] = "i16", [SB_DXIL_TYPE_I32] = "i32", [SB_DXIL_TYPE_I64] = "i64",
        [SB_DXIL_TYPE_F16] = "f16", [SB_DXIL_TYPE_F32] = "f32", [SB_DXIL_TYPE_F64] = "f64",
        [SB_DXIL_TYPE_F32_PTR] = "f32*", [SB_DXIL_TYPE_UDT_PTR] = "udt*",
        [SB_DXIL_TYPE_OBJECT] = "obj", [SB_DXIL_TYPE_RES_BIND] = "ResBind",
        [SB_DXIL_TYPE_RES_PROPS] = "ResProps", [SB_DXIL_TYPE_NODE_HANDLE] = "NodeH",
        [SB_DXIL_TYPE_RECORD_HANDLE] = "RecH", [SB_DXIL_TYPE_NODE_INFO] = "NodeInfo",
        [SB_DXIL_TYPE_RECORD_INFO] = "RecInfo", [SB_DXIL_TYPE_HIT_OBJECT] = "HitObj",
        [SB_DXIL_TYPE_RES_RET] = "ResRet(T)", [SB_DXIL_TYPE_CBUF_RET] = "CBufRet(T)",
        [SB_DXIL_TYPE_I1_OR_VECTOR] = "i1\u2020", [SB_DXIL_TYPE_I32_OR_VECTOR] = "i32\u2020",
        [SB_DXIL_TYPE_TWO_I32] = "twoi32", [SB_DXIL_TYPE_I32_WITH_CARRY] = "i32c",
        [SB_DXIL_TYPE_SPLIT_DOUBLE] = "splitdouble", [SB_DXIL_TYPE_FOUR_I32] = "fouri32",
        [SB_DXIL_TYPE_FOUR_I32_OR_I16] = "fouri32/fouri16",
        [SB_DXIL_TYPE_DIMENSIONS] = "Dimensions", [SB_DXIL_TYPE_SAMPLE_POS] = "SamplePos",
        [SB_DXIL_TYPE_VEC9_OVERLOAD] = "vec9(T)", [SB_DXIL_TYPE_ELEMENT] = "elt(T)",
    };
    return (unsigned)type < SB_DXIL_TYPE_COUNT ? names[type] : NULL;
}

/* strcmp order of a length-bounded key against a NUL-terminated table name. */
static int compare_key(const char *key, size_t length, const char *name)
{
    size_t name_length = strlen(name);
    int order = memcmp(key, name, length < name_length ? length : name_length);
    if (order != 0)
        return order;
    return length < name_length ? -1 : length > name_length ? 1 : 0;
}

bool sb_dxil_op_class_find(const char *name, size_t length, enum sb_dxil_op_class *out)
{
    /* The generator sorts the classes by name, so the enum order is searchable. */
    size_t low = 0, high = SB_DXIL_CLASS_COUNT;
    if (!name)
        return false;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = compare_key(name, length, sb_dxil_op_classes[middle].name);
        if (order == 0) {
            if (out)
                *out = (enum sb_dxil_op_class)middle;
            return true;
        }
        if (order < 0)
            high = middle;
        else
            low = middle + 1;
    }
    return false;
}

/* Suffix spelling of each scalar overload bit, in bit order. */
static const char *const overload_names[] = { "f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64" };
#define SB_DXIL_SCALAR_OVERLOAD_COUNT (sizeof overload_names / sizeof overload_names[0])

const char *sb_dxil_overload_name(uint32_t overload)
{
    for (uint32_t bit = 0; bit < SB_DXIL_SCALAR_OVERLOAD_COUNT; bit++)
        if (overload == 1u << bit)
            return overload_names[bit];
    return NULL;
}

static bool parse_scalar(const char *text, size_t length, uint32_t *out)
{
    for (uint32_t bit = 0; bit < SB_DXIL_SCALAR_OVERLOAD_COUNT; bit++) {
        if (compare_key(text, length, overload_names[bit]) == 0) {
            *out = 1u << bit;
            return true;
        }
    }
    return false;
}

bool sb_dxil_overload_suffix_parse(const char *suffix, size_t length,
                                   struct sb_dxil_overload_suffix *out)
{
    struct sb_dxil_overload_suffix parsed = { .kind = SB_DXIL_OVERLOAD_KIND_SCALAR };
    if (!suffix || !out)
        return false;
    if (parse_scalar(suffix, length, &parsed.scalar)) {
        *out = parsed;
        return true;
    }
    /* v<N><scalar>: N in decimal without a leading zero, 1..1024. */
    if (length < 2 || suffix[0] != 'v' || suffix[1] < '1' || suffix[1] > '9')
        return false;
    size_t at = 1;
    uint32_t count = 0;
    while (at < length && suffix[at] >= '0' && suffix[at] <= '9') {
        count = count * 10u + (uint32_t)(suffix[at] - '0');
        if (count > SB_DXIL_MAX_VECTOR_LENGTH)
            return false;
        at++;
    }
    if (!parse_scalar(suffix + at, length - at, &parsed.scalar))
        return false;
    parsed.kind = SB_DXIL_OVERLOAD_KIND_VECTOR;
    parsed.vector_length = count;
    *out = parsed;
    return true;
}

#define SB_DXIL_OP_PREFIX "dx.op."

/* Refuses an overload the class's opcodes do not have; `at` is the suffix's offset. */
static enum sb_result check_class_overload(const struct sb_dxil_op_class_info *info,
                                           const struct sb_dxil_overload_suffix *overload,
                                           const char *name, size_t length, size_t at,
                                           struct sb_error *error)
{
    const int shown = (int)(length > 96 ? 96 : length);
    switch (overload->kind) {
    case SB_DXIL_OVERLOAD_KIND_NONE:
        if (info->has_void)
            return SB_SUCCESS;
        return sb_error_set(error, SB_ERROR_BAD_VALUE, at, SB_ERROR_NO_INSTR,
                            "dx.op name '%.*s': class %s needs an overload suffix", shown, name,
                            info->name);
    case SB_DXIL_OVERLOAD_KIND_SCALAR:
        if (info->overloads & overload->scalar)
            return SB_SUCCESS;
        break;
    case SB_DXIL_OVERLOAD_KIND_VECTOR:
        if (info->vector_overloads & overload->scalar)
            return SB_SUCCESS;
        break;
    case SB_DXIL_OVERLOAD_KIND_STRUCT:
        if (info->overloads & (SB_DXIL_OVERLOAD_UDT | SB_DXIL_OVERLOAD_OBJECT))
            return SB_SUCCESS;
        break;
    }
    return sb_error_set(error, SB_ERROR_BAD_VALUE, at, SB_ERROR_NO_INSTR,
                        "dx.op name '%.*s': overload '%.*s' is not one class %s has", shown, name,
                        (int)(length - at > 32 ? 32 : length - at), name + at, info->name);
}

enum sb_result sb_dxil_op_name_parse(const char *name, size_t length, struct sb_dxil_op_name *out,
                                     struct sb_error *error)
{
    const size_t prefix = sizeof SB_DXIL_OP_PREFIX - 1;
    const int shown = (int)(length > 96 ? 96 : length);
    struct sb_dxil_op_name parsed = { .op_class = SB_DXIL_CLASS_COUNT };
    if (!name || !out)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_op_name_parse: NULL name or output");
    if (length < prefix || memcmp(name, SB_DXIL_OP_PREFIX, prefix) != 0)
        return sb_error_set(error, SB_ERROR_BAD_VALUE, 0, SB_ERROR_NO_INSTR,
                            "'%.*s' is not a dx.op name (no 'dx.op.' prefix)", shown, name);
    const char *class_start = name + prefix;
    const char *dot = memchr(class_start, '.', length - prefix);
    size_t class_length = dot ? (size_t)(dot - class_start) : length - prefix;
    if (!sb_dxil_op_class_find(class_start, class_length, &parsed.op_class))
        return sb_error_set(error, SB_ERROR_BAD_VALUE, prefix, SB_ERROR_NO_INSTR,
                            "dx.op name '%.*s': unknown class '%.*s'", shown, name,
                            (int)(class_length > 64 ? 64 : class_length), class_start);
    const struct sb_dxil_op_class_info *info = &sb_dxil_op_classes[parsed.op_class];
    size_t suffix_at = prefix + class_length + 1;
    if (!dot) {
        parsed.overload.kind = SB_DXIL_OVERLOAD_KIND_NONE;
        suffix_at = length;
    } else if (suffix_at == length) {
        return sb_error_set(error, SB_ERROR_BAD_VALUE, suffix_at, SB_ERROR_NO_INSTR,
                            "dx.op name '%.*s': empty overload suffix", shown, name);
    } else if (!sb_dxil_overload_suffix_parse(name + suffix_at, length - suffix_at,
                                              &parsed.overload)) {
        /* Anything else names a struct type (linking may append ".0" and the like); only
         * classes with a user-struct or object overload take one, and only printable ASCII
         * (what type names hold; it keeps messages and listings printable). */
        for (size_t at = suffix_at; at < length; at++)
            if ((unsigned char)name[at] < 0x21 || (unsigned char)name[at] > 0x7E)
                return sb_error_set(error, SB_ERROR_BAD_VALUE, at, SB_ERROR_NO_INSTR,
                                    "dx.op name: byte 0x%02x at %zu of the overload suffix is "
                                    "not printable ASCII",
                                    (unsigned char)name[at], at);
        if (!(info->overloads & (SB_DXIL_OVERLOAD_UDT | SB_DXIL_OVERLOAD_OBJECT)))
            return sb_error_set(error, SB_ERROR_BAD_VALUE, suffix_at, SB_ERROR_NO_INSTR,
                                "dx.op name '%.*s': '%.*s' is not an overload (f16 f32 f64 i1 "
                                "i8 i16 i32 i64 or v<1-1024><type>)",
                                shown, name, (int)(length - suffix_at > 32 ? 32 : length - suffix_at),
                                name + suffix_at);
        parsed.overload = (struct sb_dxil_overload_suffix){
            .kind = SB_DXIL_OVERLOAD_KIND_STRUCT,
            .type_name = name + suffix_at,
            .type_name_length = length - suffix_at,
        };
    }
    enum sb_result result = check_class_overload(info, &parsed.overload, name, length, suffix_at,
                                                 error);
    if (result != SB_SUCCESS)
        return result;
    *out = parsed;
    return SB_SUCCESS;
}

bool sb_dxil_op_accepts(const struct sb_dxil_op_info *op, const struct sb_dxil_op_name *parsed)
{
    if (!op || !parsed || op->op_class != parsed->op_class)
        return false;
    switch (parsed->overload.kind) {
    case SB_DXIL_OVERLOAD_KIND_NONE:
        return op->overloads == 0 && op->vector_overloads == 0;
    case SB_DXIL_OVERLOAD_KIND_SCALAR:
        return (op->overloads & parsed->overload.scalar) != 0;
    case SB_DXIL_OVERLOAD_KIND_VECTOR:
        return (op->vector_overloads & parsed->overload.scalar) != 0;
    case SB_DXIL_OVERLOAD_KIND_STRUCT:
        return (op->overloads & (SB_DXIL_OVERLOAD_UDT | SB_DXIL_OVERLOAD_OBJECT)) != 0;
    }
    return false;
}

uint32_t sb_dxil_stage_of_shader_kind(uint32_t shader_kind)
{
    static const uint32_t stages[SB_DXIL_SHADER_KIND_INVALID] = {
        [SB_DXIL_SHADER_KIND_PIXEL] = SB_DXIL_STAGE_PS,
        [SB_DXIL_SHADER_KIND_VERTEX] = SB_DXIL_STAGE_VS,
        [SB_DXIL_SHADER_KIND_GEOMETRY] = SB_DXIL_STAGE_GS,
        [SB_DXIL_SHADER_KIND_HULL] = SB_DXIL_STAGE_HS,
        [SB_DXIL_SHADER_KIND_DOMAIN] = SB_DXIL_STAGE_DS,
        [SB_DXIL_SHADER_KIND_COMPUTE] = SB_DXIL_STAGE_CS,
        [SB_DXIL_SHADER_KIND_LIBRARY] = SB_DXIL_STAGE_ALL,
        [SB_DXIL_SHADER_KIND_RAY_GENERATION] = SB_DXIL_STAGE_RG,
        [SB_DXIL_SHADER_KIND_INTERSECTION] = SB_DXIL_STAGE_IS,
        [SB_DXIL_SHADER_KIND_ANY_HIT] = SB_DXIL_STAGE_AH,
        [SB_DXIL_SHADER_KIND_CLOSEST_HIT] = SB_DXIL_STAGE_CH,
        [SB_DXIL_SHADER_KIND_MISS] = SB_DXIL_STAGE_MI,
        [SB_DXIL_SHADER_KIND_CALLABLE] = SB_DXIL_STAGE_CA,
        [SB_DXIL_SHADER_KIND_MESH] = SB_DXIL_STAGE_MS,
        [SB_DXIL_SHADER_KIND_AMPLIFICATION] = SB_DXIL_STAGE_AS,
        [SB_DXIL_SHADER_KIND_NODE] = SB_DXIL_STAGE_NODE,
    };
    return shader_kind < sizeof stages / sizeof stages[0] ? stages[shader_kind] : 0;
}

bool sb_dxil_op_available(const struct sb_dxil_op_info *op, uint32_t stage, uint32_t sm_major,
                          uint32_t sm_minor)
{
    if (!op || stage == 0)
        return false;
    uint32_t need_minor = op->sm_vector_only ? 9u : op->sm_minor;
    if (sm_major < op->sm_major || (sm_major == op->sm_major && sm_minor < need_minor))
        return false;
    /* A library may hold any op; a single stage must be one the row allows. */
    return stage == SB_DXIL_STAGE_ALL || (op->stages & stage) == stage;
}

const char *sb_dxil_enum_value_name(enum sb_dxil_enum which, uint32_t value)
{
    if ((unsigned)which >= SB_DXIL_ENUM_COUNT)
        return NULL;
    const struct sb_dxil_enum_info *info = &sb_dxil_enums[which];
    for (uint32_t i = 0; i < info->count; i++)
        if (info->values[i].value == value)
            return info->values[i].name;
    return NULL;
}

/* Appends `separator` + `text` at `used` of `size` bytes (truncating, always
 * NUL-terminated) and returns the length the whole text needs, as snprintf does. */
static size_t append(char *buffer, size_t size, size_t used, const char *separator,
                     const char *text)
{
    char *at = used < size ? buffer + used : NULL;
    size_t room = used < size ? size - used : 0;
    int written = snprintf(at, room, "%s%s", separator, text);
    return used + (written > 0 ? (size_t)written : 0);
}

size_t sb_dxil_enum_format(enum sb_dxil_enum which, uint32_t mask, char *buffer, size_t size)
{
    char number[16];
    if (size > 0)
        buffer[0] = '\0';
    const struct sb_dxil_enum_info *info =
        (unsigned)which < SB_DXIL_ENUM_COUNT ? &sb_dxil_enums[which] : NULL;
    if (!info || !info->flags) {
        const char *name = info ? sb_dxil_enum_value_name(which, mask) : NULL;
        snprintf(number, sizeof number, "%u", mask);
        return append(buffer, size, 0, "", name ? name : number);
    }
    if (mask == 0)
        return append(buffer, size, 0, "", "0");
    size_t used = 0;
    uint32_t rest = mask;
    for (uint32_t i = 0; i < info->count; i++) {
        uint32_t bits = info->values[i].value;
        if (bits && (mask & bits) == bits) {
            used = append(buffer, size, used, used ? "|" : "", info->values[i].name);
            rest &= ~bits;
        }
    }
    if (rest) {
        snprintf(number, sizeof number, "0x%x", rest);
        used = append(buffer, size, used, used ? "|" : "", number);
    }
    return used;
}
