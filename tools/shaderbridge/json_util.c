/* SPDX-License-Identifier: MIT */
/*
 * Small json-c helpers shared by the per-format builders, and the text
 * rendering of a JSON tree used by `reflect` without --json.
 */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

json_object *cli_json_u64(uint64_t value)
{
    return json_object_new_uint64(value);
}

json_object *cli_json_hex_bytes(const uint8_t *bytes, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    char small[256];
    char *text = size * 2 + 1 <= sizeof(small) ? small : malloc(size * 2 + 1);
    if (!text)
        return NULL;
    for (size_t i = 0; i < size; i++) {
        text[2 * i] = digits[bytes[i] >> 4];
        text[2 * i + 1] = digits[bytes[i] & 15];
    }
    text[size * 2] = 0;
    json_object *s = json_object_new_string(text);
    if (text != small)
        free(text);
    return s;
}

json_object *cli_json_string_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

json_object *cli_json_u32_array(const uint32_t *values, uint32_t count)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < count; i++)
        json_object_array_add(a, cli_json_u64(values[i]));
    return a;
}

json_object *cli_json_error(enum sb_result result, const struct sb_error *error)
{
    json_object *e = json_object_new_object();
    cli_json_add_str(e, "code", sb_result_name(result));
    cli_json_add_u64(e, "offset", error->offset);
    cli_json_add_str(e, "message", error->message);
    return e;
}

json_object *cli_json_flag_names(uint64_t flags, const char *const *names, unsigned name_count)
{
    json_object *array = json_object_new_array();
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(flags & ((uint64_t)1 << bit)))
            continue;
        if (bit < name_count && names[bit]) {
            json_object_array_add(array, json_object_new_string(names[bit]));
        } else {
            char unknown[16];
            snprintf(unknown, sizeof(unknown), "bit%u", bit);
            json_object_array_add(array, json_object_new_string(unknown));
        }
    }
    return array;
}

void cli_json_add(json_object *object, const char *key, json_object *value)
{
    json_object_object_add(object, key, value);
}

void cli_json_add_u64(json_object *object, const char *key, uint64_t value)
{
    json_object_object_add(object, key, json_object_new_uint64(value));
}

void cli_json_add_str(json_object *object, const char *key, const char *value)
{
    json_object_object_add(object, key, value ? json_object_new_string(value) : NULL);
}

void cli_json_add_bool(json_object *object, const char *key, bool value)
{
    json_object_object_add(object, key, json_object_new_boolean(value));
}

static bool is_scalar(json_object *value)
{
    enum json_type type = json_object_get_type(value);
    return type != json_type_object && type != json_type_array;
}

static bool is_scalar_array(json_object *value)
{
    if (json_object_get_type(value) != json_type_array)
        return false;
    size_t n = json_object_array_length(value);
    for (size_t i = 0; i < n; i++)
        if (!is_scalar(json_object_array_get_idx(value, i)))
            return false;
    return true;
}

static void print_scalar(FILE *out, json_object *value)
{
    if (json_object_get_type(value) == json_type_string)
        fputs(json_object_get_string(value), out);
    else
        fputs(json_object_to_json_string_ext(value, JSON_C_TO_STRING_PLAIN), out);
}

static void print_node(FILE *out, json_object *value, int indent);

static void print_member(FILE *out, const char *key, json_object *value, int indent)
{
    fprintf(out, "%*s%s:", indent, "", key);
    if (is_scalar(value) || is_scalar_array(value)) {
        fputc(' ', out);
        if (is_scalar(value)) {
            print_scalar(out, value);
        } else {
            size_t n = json_object_array_length(value);
            fputc('[', out);
            for (size_t i = 0; i < n; i++) {
                if (i)
                    fputs(", ", out);
                print_scalar(out, json_object_array_get_idx(value, i));
            }
            fputc(']', out);
        }
        fputc('\n', out);
    } else {
        fputc('\n', out);
        print_node(out, value, indent + 2);
    }
}

static void print_node(FILE *out, json_object *value, int indent)
{
    if (json_object_get_type(value) == json_type_object) {
        json_object_object_foreach(value, key, member) print_member(out, key, member, indent);
    } else if (json_object_get_type(value) == json_type_array) {
        size_t n = json_object_array_length(value);
        for (size_t i = 0; i < n; i++) {
            char index[32];
            snprintf(index, sizeof(index), "[%zu]", i);
            print_member(out, index, json_object_array_get_idx(value, i), indent);
        }
    } else {
        fprintf(out, "%*s", indent, "");
        print_scalar(out, value);
        fputc('\n', out);
    }
}

void cli_json_print_text(FILE *out, json_object *value)
{
    print_node(out, value, 0);
}
