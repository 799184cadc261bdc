/* SPDX-License-Identifier: MIT */
/*
 * Test-only SHBIN writer (see shbin_writer.h; ../shared/docs/pica200.md §12.1-§12.9).
 * A growable byte buffer that fields are stored into at explicit offsets,
 * because the old picasso layout writes DVLE headers before the code whose
 * size they follow; every offset in the file is computed from where the
 * sections actually went, never assumed.
 */
#include "shbin_writer.h"

#include <stdlib.h>
#include <string.h>

struct buffer {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    bool failed;
};

static void ensure(struct buffer *b, size_t size)
{
    if (b->failed || size <= b->size)
        return;
    if (size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < size)
            capacity *= 2;
        uint8_t *grown = realloc(b->bytes, capacity);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memset(b->bytes + b->size, 0, size - b->size);
    b->size = size;
}

static void put_u8(struct buffer *b, size_t at, uint8_t v)
{
    ensure(b, at + 1);
    if (!b->failed)
        b->bytes[at] = v;
}

static void put_u16(struct buffer *b, size_t at, uint16_t v)
{
    put_u8(b, at, (uint8_t)v);
    put_u8(b, at + 1, (uint8_t)(v >> 8));
}

static void put_u32(struct buffer *b, size_t at, uint32_t v)
{
    put_u16(b, at, (uint16_t)v);
    put_u16(b, at + 2, (uint16_t)(v >> 16));
}

/* Writes a string with its terminator; returns the position after it. */
static size_t put_string(struct buffer *b, size_t at, const char *s)
{
    size_t n = strlen(s) + 1;
    for (size_t i = 0; i < n; i++)
        put_u8(b, at + i, (uint8_t)s[i]);
    return at + n;
}

static size_t align4(size_t at)
{
    return (at + 3) & ~(size_t)3;
}

static void write_dvle_header(struct buffer *b, const struct shbin_writer_dvle *d,
                              const struct shbin_writer_dvle_place *p)
{
    size_t h = p->header;
    put_u32(b, h, 0x454C5644u); /* "DVLE" */
    put_u16(b, h + 0x04, d->version);
    put_u8(b, h + 0x06, d->type);
    put_u8(b, h + 0x07, d->flags);
    put_u32(b, h + 0x08, d->main_address);
    put_u32(b, h + 0x0C, d->end_address);
    put_u16(b, h + 0x10, d->input_mask);
    put_u16(b, h + 0x12, d->output_mask);
    put_u8(b, h + 0x14, d->gs_mode);
    put_u8(b, h + 0x15, d->gs_fixed_start);
    put_u8(b, h + 0x16, d->gs_variable_count);
    put_u8(b, h + 0x17, d->gs_fixed_count);
    put_u32(b, h + 0x18, p->constants - p->header);
    put_u32(b, h + 0x1C, d->constant_count);
    put_u32(b, h + 0x20, p->labels - p->header);
    put_u32(b, h + 0x24, d->label_count);
    put_u32(b, h + 0x28, p->outputs - p->header);
    put_u32(b, h + 0x2C, d->output_count);
    put_u32(b, h + 0x30, p->uniforms - p->header);
    put_u32(b, h + 0x34, d->uniform_count);
    put_u32(b, h + 0x38, p->symbols - p->header);
    put_u32(b, h + 0x3C, p->symbol_size);
}

/* Writes the tables of one DVLE from `at`; fills `p` (header already set). */
static size_t write_dvle_tables(struct buffer *b, const struct shbin_writer_dvle *d,
                                struct shbin_writer_dvle_place *p, size_t at)
{
    p->constants = (uint32_t)at;
    for (uint32_t i = 0; i < d->constant_count; i++, at += 20) {
        put_u16(b, at, d->constants[i].type);
        put_u16(b, at + 2, d->constants[i].register_index);
        for (unsigned k = 0; k < 4; k++)
            put_u32(b, at + 4 + 4 * k, d->constants[i].value[k]);
    }
    p->labels = (uint32_t)at;
    size_t labels_at = at;
    at += (size_t)d->label_count * 16;
    p->outputs = (uint32_t)at;
    for (uint32_t i = 0; i < d->output_count; i++, at += 8) {
        put_u16(b, at, d->outputs[i].type);
        put_u16(b, at + 2, d->outputs[i].register_index);
        put_u32(b, at + 4, d->outputs[i].mask);
    }
    p->uniforms = (uint32_t)at;
    size_t uniforms_at = at;
    at += (size_t)d->uniform_count * 8;
    p->symbols = (uint32_t)at;
    size_t name = at;
    for (uint32_t i = 0; i < d->uniform_count; i++) {
        size_t e = uniforms_at + (size_t)i * 8;
        put_u32(b, e, (uint32_t)(name - p->symbols));
        put_u16(b, e + 4, d->uniforms[i].first_register);
        put_u16(b, e + 6, d->uniforms[i].last_register);
        name = put_string(b, name, d->uniforms[i].name);
    }
    for (uint32_t i = 0; i < d->label_count; i++) {
        size_t e = labels_at + (size_t)i * 16;
        put_u32(b, e, d->labels[i].id_word);
        put_u32(b, e + 4, d->labels[i].address);
        put_u32(b, e + 8, d->labels[i].unknown);
        put_u32(b, e + 12, (uint32_t)(name - p->symbols));
        name = put_string(b, name, d->labels[i].name);
    }
    p->symbol_size = (uint32_t)(name - p->symbols);
    p->end = (uint32_t)name;
    ensure(b, name);
    return name;
}

static size_t write_program_data(struct buffer *b, const struct shbin_writer_program *prog,
                                 struct shbin_writer_file *file, size_t at)
{
    file->code = (uint32_t)at;
    for (uint32_t i = 0; i < prog->code_word_count; i++, at += 4)
        put_u32(b, at, prog->code[i]);
    file->descriptors = (uint32_t)at;
    for (uint32_t i = 0; i < prog->descriptor_count; i++, at += 8) {
        put_u32(b, at, prog->descriptors[i]);
        put_u32(b, at + 4, prog->descriptor_extras ? prog->descriptor_extras[i] : 0);
    }
    file->filenames = (uint32_t)at;
    if (prog->layout == SHBIN_WRITER_NINTENDO) {
        for (uint32_t i = 0; i < prog->filename_count; i++)
            at = put_string(b, at, prog->filenames[i]);
        at = align4(at);
    }
    ensure(b, at);
    return at;
}

bool shbin_writer_build(const struct shbin_writer_program *prog, struct shbin_writer_file *file)
{
    memset(file, 0, sizeof(*file));
    if (prog->dvle_count > SHBIN_WRITER_MAX_DVLES)
        return false;
    struct buffer b = { 0 };
    uint32_t n = prog->dvle_count;
    put_u32(&b, 0, 0x424C5644u); /* "DVLB" */
    put_u32(&b, 4, n);
    file->dvlp = 8 + 4 * n;
    uint32_t header_size = prog->dvlp_header_size ? prog->dvlp_header_size : 0x28u;
    size_t at = file->dvlp + header_size;
    if (prog->layout == SHBIN_WRITER_PICASSO_OLD) {
        for (uint32_t i = 0; i < n; i++, at += 0x40)
            file->dvle[i].header = (uint32_t)at;
        at = write_program_data(&b, prog, file, at);
        for (uint32_t i = 0; i < n; i++)
            at = write_dvle_tables(&b, &prog->dvles[i], &file->dvle[i], at);
    } else {
        at = write_program_data(&b, prog, file, at);
        for (uint32_t i = 0; i < n; i++) {
            file->dvle[i].header = (uint32_t)at;
            at = write_dvle_tables(&b, &prog->dvles[i], &file->dvle[i], at + 0x40);
            at = align4(at);
            ensure(&b, at);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        put_u32(&b, 8 + 4 * i, file->dvle[i].header);
        write_dvle_header(&b, &prog->dvles[i], &file->dvle[i]);
    }
    size_t d = file->dvlp;
    put_u32(&b, d, 0x504C5644u); /* "DVLP" */
    put_u32(&b, d + 0x04, prog->dvlp_version);
    put_u32(&b, d + 0x08, file->code - file->dvlp);
    put_u32(&b, d + 0x0C, prog->code_word_count);
    put_u32(&b, d + 0x10, file->descriptors - file->dvlp);
    put_u32(&b, d + 0x14, prog->descriptor_count);
    put_u32(&b, d + 0x18, file->filenames - file->dvlp);
    for (unsigned k = 0; 0x1C + 4 * k < header_size; k++)
        put_u32(&b, d + 0x1C + 4 * k, prog->unknown_words[k]);
    if (b.failed) {
        free(b.bytes);
        return false;
    }
    file->bytes = b.bytes;
    file->size = b.size;
    return true;
}

void shbin_writer_free(struct shbin_writer_file *file)
{
    if (!file)
        return;
    free(file->bytes);
    file->bytes = NULL;
    file->size = 0;
}

void shbin_writer_put_u32(struct shbin_writer_file *file, uint32_t at, uint32_t value)
{
    shbin_writer_put_u16(file, at, (uint16_t)value);
    shbin_writer_put_u16(file, at + 2, (uint16_t)(value >> 16));
}

void shbin_writer_put_u16(struct shbin_writer_file *file, uint32_t at, uint16_t value)
{
    shbin_writer_put_u8(file, at, (uint8_t)value);
    shbin_writer_put_u8(file, at + 1, (uint8_t)(value >> 8));
}

void shbin_writer_put_u8(struct shbin_writer_file *file, uint32_t at, uint8_t value)
{
    if (at < file->size)
        file->bytes[at] = value;
}
