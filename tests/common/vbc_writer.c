/* SPDX-License-Identifier: MIT */
/*
 * Test-only VBC writer (vbc_writer.h): lays the sections of ../shared/docs/vbc.md
 * §2-§4 down back to back, little-endian and unaligned, exactly as vslc's
 * writer does, and loads the glslang-built SPIR-V the files carry.
 */
#include "vbc_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out {
    uint8_t *bytes;
    size_t size, capacity;
    bool failed;
    struct vw_layout *layout;
};

static void put(struct out *o, const void *data, size_t size)
{
    if (o->failed)
        return;
    if (o->size + size > o->capacity) {
        size_t capacity = o->capacity ? o->capacity : 256;
        while (capacity < o->size + size)
            capacity *= 2;
        uint8_t *grown = realloc(o->bytes, capacity);
        if (!grown) {
            o->failed = true;
            return;
        }
        o->bytes = grown;
        o->capacity = capacity;
    }
    if (size)
        memcpy(o->bytes + o->size, data, size);
    o->size += size;
}

static void put_u8(struct out *o, uint8_t v)
{
    put(o, &v, 1);
}

static void put_u16(struct out *o, uint16_t v)
{
    uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    put(o, b, 2);
}

static void put_u32(struct out *o, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(o, b, 4);
}

/* Notes a unit the reader checks as a whole, starting at the current end. */
static void span(struct out *o, size_t size)
{
    struct vw_layout *l = o->layout;
    if (l->span_count < VW_MAX_SPANS)
        l->spans[l->span_count++] = (struct vw_span){ .start = o->size, .size = size };
}

/* A count followed by `count` fixed-size records: two reader checks. */
static void count_field(struct out *o, uint32_t count, size_t record_size, size_t *count_at)
{
    *count_at = o->size;
    span(o, 4);
    put_u32(o, count);
    span(o, count * record_size);
}

static void put_var(struct out *o, const struct vw_var *v)
{
    uint8_t r[8] = { v->location, v->base_type, v->dims[0], v->dims[1], v->array_size, 0, 0, 0 };
    put(o, r, sizeof(r));
}

static void put_binding(struct out *o, const struct vw_binding *b)
{
    put_u8(o, b->slot);
    put_u8(o, b->base_type);
    put_u16(o, b->stage_mask);
    if (b->base_type == SB_VBC_BASE_TYPE_RO_BUFFER || b->base_type == SB_VBC_BASE_TYPE_RW_BUFFER) {
        put_u16(o, b->stride);
        put_u16(o, 0);
    } else {
        uint8_t r[4] = { b->rank, b->texel_type, b->component_size, b->component_count };
        put(o, r, sizeof(r));
    }
}

static void put_uniform(struct out *o, const struct vw_spec *spec)
{
    struct vw_layout *l = o->layout;
    l->uniform_at = o->size;
    span(o, 2);
    put_u16(o, spec->uniform_size);
    if (!spec->uniform_size)
        return;
    span(o, 2);
    put_u16(o, spec->uniform_stage_mask);
    span(o, 4);
    put_u32(o, spec->member_count);
    span(o, (size_t)spec->member_count * 7);
    for (uint32_t i = 0; i < spec->member_count && i < VW_MAX_RECORDS; i++) {
        const struct vw_member *m = &spec->members[i];
        size_t length = strlen(m->name);
        l->member_at[i] = o->size;
        span(o, 1);
        put_u8(o, (uint8_t)length);
        span(o, length);
        put(o, m->name, length);
        span(o, 6);
        put_u16(o, m->offset);
        uint8_t r[4] = { m->base_type, m->dims[0], m->dims[1], m->array_size };
        put(o, r, sizeof(r));
    }
}

/*
 * vslc c110b1b8 dumps its in-memory subpass variable (an MSVC std::string
 * holding the name, the index, a type pointer: 48 bytes) instead of the
 * record; this imitates that object.
 */
static void put_buggy_subpass(struct out *o, uint32_t index)
{
    uint8_t object[48] = { 0 };
    char name[16];
    snprintf(name, sizeof(name), "gbuffer%u", index);
    memcpy(object, name, strlen(name));
    object[16] = (uint8_t)strlen(name); /* size */
    object[24] = 15;                    /* SSO capacity */
    object[32] = (uint8_t)index;
    static const uint8_t pointer[8] = { 0x40, 0x1c, 0x3a, 0x5b, 0xf7, 0x7f, 0, 0 };
    memcpy(object + 40, pointer, sizeof(pointer));
    put(o, object, sizeof(object));
}

void vw_spec_init(struct vw_spec *spec, const char *name)
{
    memset(spec, 0, sizeof(*spec));
    spec->name = name;
    memcpy(spec->magic, "VBC", 3);
    spec->version = 1;
    spec->shader_type = 1;
    static const uint16_t defaults[SB_VBC_TABLE_COUNT] = { 8192, 128, 512, 128, 128 };
    memcpy(spec->table_sizes, defaults, sizeof(defaults));
    spec->subpass_record_size = 4;
}

uint8_t *vw_write(const struct vw_spec *spec, size_t *size, struct vw_layout *layout)
{
    struct vw_layout scratch;
    struct out o = { .layout = layout ? layout : &scratch };
    memset(o.layout, 0, sizeof(*o.layout));
    struct vw_layout *l = o.layout;

    span(&o, 3);
    put(&o, spec->magic, 3);
    span(&o, 1);
    put_u8(&o, spec->version);
    span(&o, 1);
    put_u8(&o, spec->shader_type);
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++) {
        span(&o, 2);
        put_u16(&o, (uint16_t)(spec->blobs[s].bytes ? spec->blobs[s].size / 4 : 0));
    }
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++) {
        span(&o, 2);
        put_u16(&o, spec->table_sizes[t]);
    }

    count_field(&o, spec->input_count, 8, &l->input_count_at);
    for (uint32_t i = 0; i < spec->input_count && i < VW_MAX_RECORDS; i++) {
        l->input_at[i] = o.size;
        put_var(&o, &spec->inputs[i]);
    }
    count_field(&o, spec->output_count, 8, &l->output_count_at);
    for (uint32_t i = 0; i < spec->output_count && i < VW_MAX_RECORDS; i++) {
        l->output_at[i] = o.size;
        put_var(&o, &spec->outputs[i]);
    }
    count_field(&o, spec->binding_count, 8, &l->binding_count_at);
    for (uint32_t i = 0; i < spec->binding_count && i < VW_MAX_RECORDS; i++) {
        l->binding_at[i] = o.size;
        put_binding(&o, &spec->bindings[i]);
    }
    put_uniform(&o, spec);
    size_t record_size = spec->subpass_record_size ? spec->subpass_record_size : 4;
    count_field(&o, spec->subpass_count, record_size, &l->subpass_count_at);
    for (uint32_t i = 0; i < spec->subpass_count && i < VW_MAX_RECORDS; i++) {
        l->subpass_at[i] = o.size;
        if (record_size == 48) {
            put_buggy_subpass(&o, i);
        } else {
            uint8_t r[4] = { spec->subpasses[i].texel_type, spec->subpasses[i].component_count,
                             0, 0 };
            put(&o, r, sizeof(r));
        }
    }
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++) {
        if (!spec->blobs[s].bytes)
            continue;
        l->blob_at[s] = o.size;
        span(&o, spec->blobs[s].size);
        put(&o, spec->blobs[s].bytes, spec->blobs[s].size);
    }
    if (o.failed) {
        free(o.bytes);
        return NULL;
    }
    l->size = o.size;
    *size = o.size;
    return o.bytes;
}

size_t vw_truncation_offset(const struct vw_layout *layout, size_t length)
{
    for (uint32_t i = 0; i < layout->span_count; i++)
        if (layout->spans[i].start + layout->spans[i].size > length)
            return layout->spans[i].start;
    return layout->size;
}

static const char *const module_files[VW_MODULE_COUNT] = {
    [VW_BASIC_VERT] = "basic.vert.spv",       [VW_BASIC_FRAG] = "basic.frag.spv",
    [VW_FULL_VERT] = "full.vert.spv",         [VW_FULL_TESC] = "full.tesc.spv",
    [VW_FULL_TESE] = "full.tese.spv",         [VW_FULL_GEOM] = "full.geom.spv",
    [VW_FULL_FRAG] = "full.frag.spv",         [VW_FORMATS_VERT] = "formats.vert.spv",
    [VW_FORMATS_FRAG] = "formats.frag.spv",   [VW_SUBPASS_VERT] = "subpass.vert.spv",
    [VW_SUBPASS1_FRAG] = "subpass1.frag.spv", [VW_SUBPASS2_FRAG] = "subpass2.frag.spv",
    [VW_SUBPASS3_FRAG] = "subpass3.frag.spv", [VW_SUBPASS4_FRAG] = "subpass4.frag.spv",
};

static bool load_file(const char *dir, const char *name, struct vw_blob *blob)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    uint8_t *bytes = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            uint8_t *grown = realloc(bytes, capacity);
            if (!grown)
                break;
            bytes = grown;
        }
        size_t n = fread(bytes + size, 1, capacity - size, f);
        if (!n)
            break;
        size += n;
    }
    fclose(f);
    if (!bytes || size == 0 || size % 4) {
        fprintf(stderr, "%s: %zu bytes is not a SPIR-V module of whole words\n", path, size);
        free(bytes);
        return false;
    }
    blob->bytes = bytes;
    blob->size = size;
    return true;
}

bool vw_modules_load(struct vw_modules *modules, const char *dir)
{
    memset(modules, 0, sizeof(*modules));
    modules->synthetic = dir == NULL;
    for (int i = 0; i < VW_MODULE_COUNT; i++) {
        if (dir) {
            if (!load_file(dir, module_files[i], &modules->blob[i])) {
                vw_modules_free(modules);
                return false;
            }
            continue;
        }
        /* magic, version 1.5, generator 0, id bound 1 + i (tells them apart), schema 0 */
        uint32_t words[5] = { 0x07230203u, 0x00010500u, 0, 1u + (uint32_t)i, 0 };
        uint8_t *bytes = malloc(sizeof(words));
        if (!bytes) {
            vw_modules_free(modules);
            return false;
        }
        for (int w = 0; w < 5; w++)
            for (int b = 0; b < 4; b++)
                bytes[4 * w + b] = (uint8_t)(words[w] >> (8 * b));
        modules->blob[i] = (struct vw_blob){ .bytes = bytes, .size = sizeof(words) };
    }
    return true;
}

void vw_modules_free(struct vw_modules *modules)
{
    for (int i = 0; i < VW_MODULE_COUNT; i++)
        free((void *)modules->blob[i].bytes);
    memset(modules, 0, sizeof(*modules));
}
