/* SPDX-License-Identifier: MIT */
/*
 * JSON and the one-line `info` summary of a PICA200 SHBIN file
 * (../shared/docs/pica200.md §12): everything sb_shbin_parse() decoded, with
 * snake_case keys. Enum-like fields carry both the name and the raw value so
 * nothing is lost; float24 constants carry the raw 24-bit patterns and the
 * decoded floats (non-finite values as the strings "inf", "-inf", "nan",
 * because JSON has no numbers for them).
 */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#if defined(__GNUC__)
#define DESCRIBE_PRINTF __attribute__((format(printf, 4, 5)))
#else
#define DESCRIBE_PRINTF
#endif

static json_object *float_json(float value)
{
    if (isnan(value))
        return json_object_new_string("nan");
    if (isinf(value))
        return json_object_new_string(value > 0 ? "inf" : "-inf");
    return json_object_new_double((double)value);
}

/* A §5 selector as the four source lanes feeding x, y, z, w ("xyzw" = identity). */
static json_object *selector_json(uint8_t selector)
{
    static const char lanes[] = "xyzw";
    char text[5];
    for (unsigned i = 0; i < 4; i++)
        text[i] = lanes[(selector >> (6 - 2 * i)) & 3u];
    text[4] = 0;
    return json_object_new_string(text);
}

/* A lane mask as letters; `x_bit` is the bit that holds x (3 for §5, 0 for §12.6). */
static json_object *mask_json(unsigned mask, unsigned x_bit)
{
    static const char lanes[] = "xyzw";
    char text[5];
    size_t n = 0;
    for (unsigned lane = 0; lane < 4; lane++) {
        unsigned bit = x_bit == 0 ? lane : 3 - lane;
        if (mask & (1u << bit))
            text[n++] = lanes[lane];
    }
    text[n] = 0;
    return json_object_new_string(text);
}

static json_object *u32_array(const uint32_t *values, uint32_t count)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < count; i++)
        json_object_array_add(array, cli_json_u64(values[i]));
    return array;
}

static json_object *strings_json(const struct sb_shbin_string *strings, uint32_t count)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < count; i++) {
        json_object *s = json_object_new_object();
        cli_json_add_u64(s, "offset", strings[i].offset);
        cli_json_add_str(s, "text", strings[i].text);
        json_object_array_add(array, s);
    }
    return array;
}

static json_object *descriptor_json(const struct sb_shbin_operand_descriptor *d)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "word", d->word);
    cli_json_add_u64(o, "extra_word", d->extra_word);
    cli_json_add_u64(o, "dest_mask_bits", d->dest_mask);
    cli_json_add(o, "dest_mask", mask_json(d->dest_mask, 3));
    static const char *const keys[3][2] = { { "src1_selector", "src1_negate" },
                                            { "src2_selector", "src2_negate" },
                                            { "src3_selector", "src3_negate" } };
    for (unsigned k = 0; k < 3; k++) {
        cli_json_add(o, keys[k][0], selector_json(d->selector[k]));
        cli_json_add_bool(o, keys[k][1], d->negate[k]);
    }
    return o;
}

static json_object *program_json(const struct sb_shbin_program *p)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", p->file_offset);
    cli_json_add_u64(o, "version", p->version);
    cli_json_add_u64(o, "header_size", p->header_size);
    cli_json_add_u64(o, "code_offset", p->code_offset);
    cli_json_add_u64(o, "code_word_count", p->code_word_count);
    cli_json_add(o, "code", u32_array(p->code, p->code_word_count));
    cli_json_add_u64(o, "operand_descriptor_offset", p->operand_descriptor_offset);
    cli_json_add_u64(o, "operand_descriptor_count", p->operand_descriptor_count);
    json_object *descriptors = json_object_new_array();
    for (uint32_t i = 0; i < p->operand_descriptor_count; i++)
        json_object_array_add(descriptors, descriptor_json(&p->operand_descriptors[i]));
    cli_json_add(o, "operand_descriptors", descriptors);
    cli_json_add_u64(o, "filename_table_offset", p->filename_table_offset);
    cli_json_add(o, "filenames", strings_json(p->filenames, p->filename_count));
    cli_json_add(o, "unknown_words", u32_array(p->unknown_words, p->unknown_word_count));
    return o;
}

static json_object *register_name_json(const char *class_name, uint32_t index)
{
    char text[16];
    snprintf(text, sizeof(text), "%s%u", class_name ? class_name : "?", index);
    return json_object_new_string(text);
}

static json_object *constant_json(const struct sb_shbin_constant *c)
{
    static const char *const class_names[] = { "b", "i", "c" };
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", c->file_offset);
    cli_json_add_str(o, "type", sb_shbin_constant_type_name(c->type));
    cli_json_add_u64(o, "register_index", c->register_index);
    cli_json_add(o, "register", register_name_json(class_names[c->type], c->register_index));
    cli_json_add(o, "raw", u32_array(c->raw, 4));
    json_object *value = json_object_new_array();
    if (c->type == SB_SHBIN_CONSTANT_BOOL) {
        json_object_put(value);
        value = json_object_new_boolean(c->bool_value);
    } else if (c->type == SB_SHBIN_CONSTANT_INT) {
        for (unsigned k = 0; k < 4; k++)
            json_object_array_add(value, cli_json_u64(c->int_value[k]));
    } else {
        cli_json_add(o, "float24", u32_array(c->float24, 4));
        for (unsigned k = 0; k < 4; k++)
            json_object_array_add(value, float_json(c->float_value[k]));
    }
    cli_json_add(o, "value", value);
    return o;
}

static json_object *output_json(const struct sb_shbin_output *out)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", out->file_offset);
    cli_json_add_str(o, "type", sb_shbin_output_type_name(out->type));
    cli_json_add_u64(o, "type_value", (uint64_t)out->type);
    cli_json_add(o, "register", register_name_json("o", out->register_index));
    cli_json_add_u64(o, "register_index", out->register_index);
    cli_json_add_u64(o, "mask_word", out->mask_word);
    cli_json_add(o, "mask", mask_json(out->mask, 0));
    json_object *semantics = json_object_new_array();
    json_object *codes = json_object_new_array();
    for (unsigned lane = 0; lane < 4; lane++) {
        json_object_array_add(codes, cli_json_u64(out->semantics[lane]));
        json_object_array_add(semantics,
                              cli_json_string_or_null(sb_shbin_semantic_name(out->semantics[lane])));
    }
    cli_json_add(o, "semantic_codes", codes);
    cli_json_add(o, "semantics", semantics);
    return o;
}

static json_object *uniform_json(const struct sb_shbin_uniform *u)
{
    const char *class_name = sb_shbin_register_class_name(u->register_class);
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", u->file_offset);
    cli_json_add_str(o, "name", u->name);
    cli_json_add_u64(o, "name_offset", u->name_offset);
    cli_json_add_u64(o, "first_register", u->first_register);
    cli_json_add_u64(o, "last_register", u->last_register);
    cli_json_add_str(o, "register_class", class_name);
    cli_json_add(o, "first", register_name_json(class_name, u->first_index));
    cli_json_add(o, "last", register_name_json(class_name, u->last_index));
    return o;
}

static json_object *label_json(const struct sb_shbin_label *l)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", l->file_offset);
    cli_json_add_u64(o, "id", l->id);
    cli_json_add_u64(o, "id_word", l->id_word);
    cli_json_add_u64(o, "address", l->address);
    cli_json_add_u64(o, "unknown", l->unknown);
    cli_json_add_u64(o, "name_offset", l->name_offset);
    cli_json_add_str(o, "name", l->name);
    return o;
}

static json_object *geometry_json(const struct sb_shbin_dvle *d)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "mode", d->type == SB_SHBIN_SHADER_GEOMETRY
                                    ? sb_shbin_gs_mode_name(d->gs_mode) : NULL);
    cli_json_add_u64(o, "mode_value", d->gs_mode_value);
    cli_json_add_u64(o, "fixed_start_register", d->gs_fixed_start_register);
    cli_json_add_u64(o, "variable_vertex_count", d->gs_variable_vertex_count);
    cli_json_add_u64(o, "fixed_vertex_count", d->gs_fixed_vertex_count);
    return o;
}

/* Adds "<name>_offset", "<name>_count" and the array "<plural>" of one DVLE table. */
static void add_table(json_object *o, const char *offset_key, uint32_t offset,
                      const char *count_key, uint32_t count, const char *array_key,
                      json_object *array)
{
    cli_json_add_u64(o, offset_key, offset);
    cli_json_add_u64(o, count_key, count);
    cli_json_add(o, array_key, array);
}

static json_object *dvle_json(const struct sb_shbin_dvle *d)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "file_offset", d->file_offset);
    cli_json_add_u64(o, "version", d->version);
    cli_json_add_str(o, "shader_type", sb_shbin_shader_type_name(d->type));
    cli_json_add_u64(o, "flags", d->flags);
    cli_json_add_bool(o, "merge_outmaps", d->merge_outmaps);
    cli_json_add_u64(o, "main_address", d->main_address);
    cli_json_add_u64(o, "end_address", d->end_address);
    cli_json_add_u64(o, "input_mask", d->input_mask);
    cli_json_add_u64(o, "output_mask", d->output_mask);
    cli_json_add(o, "geometry", geometry_json(d));

    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < d->constant_count; i++)
        json_object_array_add(array, constant_json(&d->constants[i]));
    add_table(o, "constant_table_offset", d->constant_table_offset, "constant_count",
              d->constant_count, "constants", array);
    array = json_object_new_array();
    for (uint32_t i = 0; i < d->label_count; i++)
        json_object_array_add(array, label_json(&d->labels[i]));
    add_table(o, "label_table_offset", d->label_table_offset, "label_count", d->label_count,
              "labels", array);
    array = json_object_new_array();
    for (uint32_t i = 0; i < d->output_count; i++)
        json_object_array_add(array, output_json(&d->outputs[i]));
    add_table(o, "output_table_offset", d->output_table_offset, "output_count",
              d->output_count, "outputs", array);
    array = json_object_new_array();
    for (uint32_t i = 0; i < d->uniform_count; i++)
        json_object_array_add(array, uniform_json(&d->uniforms[i]));
    add_table(o, "uniform_table_offset", d->uniform_table_offset, "uniform_count",
              d->uniform_count, "uniforms", array);
    add_table(o, "symbol_table_offset", d->symbol_table_offset, "symbol_table_size",
              d->symbol_table_size, "symbols", strings_json(d->symbols, d->symbol_count));
    return o;
}

json_object *cli_json_shbin(const struct sb_shbin *shbin)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "layout", sb_shbin_layout_name(shbin->layout));
    json_object *dvlb = json_object_new_object();
    cli_json_add_u64(dvlb, "dvle_count", shbin->dvle_count);
    cli_json_add(dvlb, "dvle_offsets", u32_array(shbin->dvle_offsets, shbin->dvle_count));
    cli_json_add(o, "dvlb", dvlb);
    cli_json_add(o, "dvlp", program_json(&shbin->program));
    json_object *dvles = json_object_new_array();
    for (uint32_t i = 0; i < shbin->dvle_count; i++)
        json_object_array_add(dvles, dvle_json(&shbin->dvles[i]));
    cli_json_add(o, "dvles", dvles);
    json_object *warnings = json_object_new_array();
    for (uint32_t i = 0; i < shbin->warning_count; i++) {
        json_object *w = json_object_new_object();
        cli_json_add_u64(w, "offset", shbin->warnings[i].offset);
        cli_json_add_str(w, "message", shbin->warnings[i].message);
        json_object_array_add(warnings, w);
    }
    cli_json_add(o, "warnings", warnings);
    return o;
}

/* Appends to buf; keeps `*used` at most `size` so later calls stay in bounds. */
static void append(char *buf, size_t size, size_t *used, const char *format, ...)
    DESCRIBE_PRINTF;

static void append(char *buf, size_t size, size_t *used, const char *format, ...)
{
    if (*used >= size)
        return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(buf + *used, size - *used, format, args);
    va_end(args);
    if (n > 0)
        *used = *used + (size_t)n < size ? *used + (size_t)n : size;
}

static const char *plural(uint64_t count)
{
    return count == 1 ? "" : "s";
}

void cli_describe_shbin(const struct sb_shbin *shbin, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = 0;
    uint64_t constants = 0, outputs = 0, uniforms = 0;
    append(buf, size, &used, "SHBIN, %u DVLE%s", shbin->dvle_count, plural(shbin->dvle_count));
    for (uint32_t i = 0; i < shbin->dvle_count; i++) {
        const struct sb_shbin_dvle *d = &shbin->dvles[i];
        append(buf, size, &used, "%s%s main=%u end=%u", i ? ", " : " (",
               sb_shbin_shader_type_name(d->type), d->main_address, d->end_address);
        if (d->type == SB_SHBIN_SHADER_GEOMETRY)
            append(buf, size, &used, " %s", sb_shbin_gs_mode_name(d->gs_mode));
        constants += d->constant_count;
        outputs += d->output_count;
        uniforms += d->uniform_count;
    }
    const struct sb_shbin_program *p = &shbin->program;
    append(buf, size, &used,
           "%s, %u code word%s, %u operand descriptor%s, %llu constant%s, %llu output%s, "
           "%llu uniform%s", shbin->dvle_count ? ")" : "", p->code_word_count, plural(p->code_word_count),
           p->operand_descriptor_count, plural(p->operand_descriptor_count),
           (unsigned long long)constants, plural(constants), (unsigned long long)outputs,
           plural(outputs), (unsigned long long)uniforms, plural(uniforms));
}
