/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the PSV0 decoder (../shared/docs/dxcontainer.md §6): every stage
 * layout, RuntimeInfo v0..v4 and bigger-than-known records, resources in
 * both forms, string/index tables, signature elements, and the ViewID and
 * dependency tables with the size rules of §6.1. Table dwords are numbered
 * 1, 2, 3, ... in file order, so the first dword of each decoded table
 * proves both its position and the sizes of the tables before it.
 */
#include "dxil_test_util.h"

#include <string.h>

#define FOURCC(s) SB_FOURCC((s)[0], (s)[1], (s)[2], (s)[3])

struct psv_spec {
    uint32_t info_size;
    uint8_t stage[16];
    uint32_t min_wave, max_wave;
    uint8_t shader_stage, uses_view_id;
    uint16_t union1;
    uint8_t in_elems, out_elems, pc_elems, in_vectors, out_vectors[4];
    uint32_t threads[3];
    uint32_t entry_offset;
    uint32_t group_shared;
    uint32_t resource_count, resource_stride;
    const char *strings;       /* blob of strings_size bytes */
    uint32_t strings_size;
    uint32_t index_count;
    const uint32_t *indexes;
    uint32_t element_size;
    const uint8_t (*elements)[16]; /* in_elems + out_elems + pc_elems records */
    uint32_t table_dwords;     /* dwords numbered 1.. after the elements */
    uint32_t trailing;
};

static void put_u32_le(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static struct tbuf build_psv(const struct psv_spec *s)
{
    uint8_t info[64] = { 0 };
    memcpy(info, s->stage, 16);
    put_u32_le(info + 16, s->min_wave);
    put_u32_le(info + 20, s->max_wave);
    info[24] = s->shader_stage;
    info[25] = s->uses_view_id;
    info[26] = (uint8_t)s->union1;
    info[27] = (uint8_t)(s->union1 >> 8);
    info[28] = s->in_elems;
    info[29] = s->out_elems;
    info[30] = s->pc_elems;
    info[31] = s->in_vectors;
    memcpy(info + 32, s->out_vectors, 4);
    for (unsigned i = 0; i < 3; i++)
        put_u32_le(info + 36 + 4 * i, s->threads[i]);
    put_u32_le(info + 48, s->entry_offset);
    put_u32_le(info + 52, s->group_shared);
    memset(info + 56, 0xEE, 8); /* a newer producer's fields: must be ignored */
    struct tbuf b = { 0 };
    tb_u32(&b, s->info_size);
    tb_bytes(&b, info, s->info_size);
    tb_u32(&b, s->resource_count);
    if (s->resource_count)
        tb_u32(&b, s->resource_stride);
    for (uint32_t r = 0; r < s->resource_count; r++)
        for (uint32_t w = 0; w < s->resource_stride / 4; w++)
            tb_u32(&b, 100 * (r + 1) + w);
    if (s->info_size >= 36) {
        tb_u32(&b, s->strings_size);
        tb_bytes(&b, s->strings, s->strings_size);
        tb_u32(&b, s->index_count);
        for (uint32_t i = 0; i < s->index_count; i++)
            tb_u32(&b, s->indexes[i]);
        uint32_t total = (uint32_t)s->in_elems + s->out_elems + s->pc_elems;
        if (total) {
            tb_u32(&b, s->element_size);
            for (uint32_t e = 0; e < total; e++) {
                tb_bytes(&b, s->elements[e], 16);
                for (uint32_t x = 16; x < s->element_size; x++)
                    tb_u8(&b, 0xAB);
            }
        }
    }
    for (uint32_t i = 0; i < s->table_dwords; i++)
        tb_u32(&b, i + 1);
    for (uint32_t i = 0; i < s->trailing; i++)
        tb_u8(&b, 0);
    return b;
}

/* Decodes PSV0 (with a DXIL part of `kind` unless kind < 0). */
static struct sb_dxbc *decode(const struct tbuf *psv, int kind, int line)
{
    struct tbuf dxil = program_part(kind < 0 ? 0 : (uint16_t)kind, 0);
    struct tpart parts[] = { { FOURCC("PSV0"), psv }, { FOURCC("DXIL"), &dxil } };
    struct tbuf file = make_container(parts, kind < 0 ? 1 : 2);
    struct sb_dxbc *dxbc = parse_ok(&file, line);
    tb_free(&file);
    tb_free(&dxil);
    return dxbc;
}

static void fails(const struct tbuf *psv, int kind, uint64_t delta, enum sb_result code, int line)
{
    struct tbuf dxil = program_part(kind < 0 ? 0 : (uint16_t)kind, 0);
    struct tpart parts[] = { { FOURCC("PSV0"), psv }, { FOURCC("DXIL"), &dxil } };
    parts_fail(parts, kind < 0 ? 1 : 2, 0, delta, code, line);
    tb_free(&dxil);
}

static const struct sb_dxbc_psv0 *psv_of(const struct sb_dxbc *dxbc)
{
    return dxbc ? dxbc->parts[0].decoded.psv0 : NULL;
}

static void test_v0(void)
{
    struct psv_spec s = { .info_size = 24, .stage = { 1 }, .min_wave = 4, .max_wave = 64,
                          .resource_count = 1, .resource_stride = 16, .trailing = 8 };
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_VERTEX, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.version, 0);
        CHECK_EQ(p->info.stage_layout, SB_DXBC_PSV0_STAGE_VERTEX);
        CHECK_EQ(p->info.stage.vs.output_position_present, 1);
        CHECK_EQ(p->info.min_wave_lane_count, 4);
        CHECK_EQ(p->info.max_wave_lane_count, 64);
        CHECK_EQ(p->resource_count, 1);
        CHECK_EQ(p->resource_stride, 16);
        CHECK(p->resource_stride_stored);
        CHECK_EQ(p->resources[0].type, 100);
        CHECK_EQ(p->resources[0].upper_bound, 103);
        CHECK_EQ(p->resources[0].kind, 0);
        CHECK_EQ(p->string_table_size, 0);
        CHECK_EQ(p->trailing_bytes, 8);
    }
    sb_dxbc_destroy(dxbc);
    /* No DXIL and no v1 ShaderStage: the union stays raw. */
    dxbc = decode(&b, -1, __LINE__);
    if ((p = psv_of(dxbc))) {
        CHECK_EQ(p->info.stage_layout, SB_DXBC_PSV0_STAGE_RAW);
        CHECK_EQ(p->info.stage_kind, SB_DXIL_SHADER_KIND_INVALID);
        CHECK_EQ(p->info.stage_raw[0], 1);
    }
    sb_dxbc_destroy(dxbc);
    tb_set_u32(&b, 0, 20);
    fails(&b, SB_DXIL_SHADER_KIND_VERTEX, 0, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&b, 0, 1000);
    fails(&b, SB_DXIL_SHADER_KIND_VERTEX, 4, SB_ERROR_TRUNCATED, __LINE__);
    tb_set_u32(&b, 0, 24);
    tb_set_u32(&b, 32, 8); /* bind-info size below 16 */
    fails(&b, SB_DXIL_SHADER_KIND_VERTEX, 32, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&b, 32, 16);
    tb_set_u32(&b, 28, 3); /* three 16-byte records in 24 bytes */
    fails(&b, SB_DXIL_SHADER_KIND_VERTEX, 36, SB_ERROR_BAD_COUNT, __LINE__);
    tb_free(&b);
}

/* An element record (§6.4). */
static void element(uint8_t out[16], uint32_t name, uint32_t indexes, uint8_t rows, uint8_t start_row,
                    uint8_t cols, uint8_t start_col, bool allocated, uint8_t kind, uint8_t type,
                    uint8_t interp, uint8_t dyn, uint8_t stream)
{
    memset(out, 0, 16);
    put_u32_le(out, name);
    put_u32_le(out + 4, indexes);
    out[8] = rows;
    out[9] = start_row;
    out[10] = (uint8_t)(cols | (start_col << 4) | (allocated ? 0x40 : 0));
    out[11] = kind;
    out[12] = type;
    out[13] = interp;
    out[14] = (uint8_t)(dyn | (stream << 4));
}

static void test_v1_pixel(void)
{
    static const char strings[12] = "\0TEXCOORD\0\0";
    static const uint32_t indexes[3] = { 0, 1, 5 };
    uint8_t elems[2][16];
    element(elems[0], 1, 1, 2, 3, 4, 0, true, 0, 3, 2, 0xA, 0);
    element(elems[1], 0, 0, 1, 0, 4, 0, true, 16, 3, 0, 0, 0);
    struct psv_spec s = { .info_size = 36, .stage = { 1, 1 }, .shader_stage = 0,
                          .in_elems = 1, .out_elems = 1, .in_vectors = 2, .out_vectors = { 1 },
                          .strings = strings, .strings_size = 12, .index_count = 3,
                          .indexes = indexes, .element_size = 16, .elements = elems,
                          .table_dwords = 8 };
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, -1, __LINE__); /* stage from ShaderStage */
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.version, 1);
        CHECK_EQ(p->info.stage_layout, SB_DXBC_PSV0_STAGE_PIXEL);
        CHECK_EQ(p->info.stage.ps.depth_output, 1);
        CHECK_EQ(p->info.stage.ps.sample_frequency, 1);
        CHECK_EQ(p->resource_stride, 16); /* implied below v2 */
        CHECK(!p->resource_stride_stored);
        CHECK_EQ(p->semantic_index_count, 3);
        CHECK_EQ(p->input_element_count, 1);
        const struct sb_dxbc_psv0_element *e = &p->input_elements[0];
        CHECK_STR(e->name, "TEXCOORD");
        CHECK_EQ(e->rows, 2);
        CHECK_EQ(e->semantic_indexes[0], 1);
        CHECK_EQ(e->semantic_indexes[1], 5);
        CHECK_EQ(e->start_row, 3);
        CHECK_EQ(e->cols, 4);
        CHECK(e->allocated);
        CHECK_EQ(e->component_type, 3);
        CHECK_STR(sb_dxbc_psv0_interpolation_mode_name(e->interpolation_mode), "Linear");
        CHECK_EQ(e->dynamic_index_mask, 0xA);
        const struct sb_dxbc_psv0_element *o = &p->output_elements[0];
        CHECK_STR(o->name, "");
        CHECK_STR(sb_dxbc_psv0_semantic_kind_name(o->semantic_kind), "Target");
        /* IOTableDwords(2 inputs, 1 output vector) = 1 * 2 * 4. */
        CHECK(p->input_to_output[0].present);
        CHECK_EQ(p->input_to_output[0].dword_count, 8);
        CHECK_EQ(p->input_to_output[0].dwords[7], 8);
        CHECK(!p->input_to_output[1].present);
        CHECK(!p->view_id_output_masks[0].present);
        CHECK_EQ(p->trailing_bytes, 0);
    }
    sb_dxbc_destroy(dxbc);
    size_t strings_at = 4 + 36 + 4; /* size field of the string table */
    size_t elems_at = strings_at + 4 + 12 + 4 + 12 + 4;
    tb_set_u32(&b, strings_at, 6);
    fails(&b, -1, strings_at, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&b, strings_at, 12);
    b.data[strings_at + 4 + 11] = 'x';
    fails(&b, -1, strings_at + 4 + 11, SB_ERROR_BAD_STRING, __LINE__);
    b.data[strings_at + 4 + 11] = 0;
    tb_set_u32(&b, elems_at + 4, 2); /* indexes 2..3 of a 3-entry table */
    fails(&b, -1, elems_at + 4, SB_ERROR_BAD_OFFSET, __LINE__);
    tb_set_u32(&b, elems_at + 4, 1);
    tb_set_u32(&b, elems_at, 12); /* name offset = table size */
    fails(&b, -1, elems_at, SB_ERROR_BAD_OFFSET, __LINE__);
    tb_set_u32(&b, elems_at, 1);
    tb_set_u32(&b, elems_at - 4, 12); /* element size below 16 */
    fails(&b, -1, elems_at - 4, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&b, elems_at - 4, 16);
    b.size -= 4; /* I/O table one dword short */
    fails(&b, -1, elems_at + 32, SB_ERROR_BAD_COUNT, __LINE__);
    tb_free(&b);
}

static void test_v2_compute(void)
{
    struct psv_spec s = { .info_size = 48, .shader_stage = SB_DXIL_SHADER_KIND_COMPUTE,
                          .threads = { 8, 4, 2 }, .resource_count = 2, .resource_stride = 24 };
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_COMPUTE, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.version, 2);
        CHECK_EQ(p->info.stage_layout, SB_DXBC_PSV0_STAGE_NONE);
        CHECK_EQ(p->info.num_threads_x, 8);
        CHECK_EQ(p->info.num_threads_y, 4);
        CHECK_EQ(p->info.num_threads_z, 2);
        CHECK_EQ(p->resource_stride, 24);
        CHECK_EQ(p->resources[1].type, 200);
        CHECK_EQ(p->resources[1].kind, 204);
        CHECK_EQ(p->resources[1].flags, 205);
        CHECK_EQ(p->element_size, 0);
        CHECK(p->info.entry_function_name == NULL);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

static void test_v3_hull(void)
{
    static const char strings[8] = "\0main\0\0";
    struct psv_spec s = { .info_size = 52, .shader_stage = SB_DXIL_SHADER_KIND_HULL,
                          .uses_view_id = 1, .union1 = 3, .in_vectors = 2, .out_vectors = { 1 },
                          .entry_offset = 1, .strings = strings, .strings_size = 8,
                          .table_dwords = 1 + 1 + 8 + 8 };
    put_u32_le(s.stage, 32);
    put_u32_le(s.stage + 4, 16);
    put_u32_le(s.stage + 8, 3);
    put_u32_le(s.stage + 12, 4);
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_HULL, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.version, 3);
        CHECK_STR(p->info.entry_function_name, "main");
        CHECK_EQ(p->info.stage.hs.input_control_point_count, 32);
        CHECK_EQ(p->info.stage.hs.output_control_point_count, 16);
        CHECK_EQ(p->info.stage.hs.tessellator_domain, 3);
        CHECK_EQ(p->info.stage.hs.tessellator_output_primitive, 4);
        CHECK_EQ(p->info.sig_patch_const_or_prim_vectors, 3);
        CHECK_EQ(p->view_id_output_masks[0].dword_count, 1);
        CHECK_EQ(p->view_id_output_masks[0].dwords[0], 1);
        CHECK_EQ(p->view_id_patch_const_or_prim_mask.dword_count, 1);
        CHECK_EQ(p->view_id_patch_const_or_prim_mask.dwords[0], 2);
        CHECK_EQ(p->input_to_output[0].dword_count, 8);
        CHECK_EQ(p->input_to_output[0].dwords[0], 3);
        CHECK_EQ(p->input_to_patch_const.dword_count, 8);
        CHECK_EQ(p->input_to_patch_const.dwords[0], 11);
        CHECK(!p->patch_const_to_output.present);
        CHECK_EQ(p->trailing_bytes, 0);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

static void test_v3_domain(void)
{
    struct psv_spec s = { .info_size = 52, .shader_stage = SB_DXIL_SHADER_KIND_DOMAIN,
                          .union1 = 9, .in_vectors = 1, .out_vectors = { 1 },
                          .table_dwords = 4 + 36, .trailing = 12 };
    put_u32_le(s.stage, 3);
    s.stage[4] = 1;
    put_u32_le(s.stage + 8, 2);
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_DOMAIN, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.stage.ds.input_control_point_count, 3);
        CHECK_EQ(p->info.stage.ds.output_position_present, 1);
        CHECK_EQ(p->info.stage.ds.tessellator_domain, 2);
        CHECK_EQ(p->input_to_output[0].dword_count, 4);
        /* IOTableDwords(9 patch vectors, 1 output vector) = 1 * 9 * 4. */
        CHECK_EQ(p->patch_const_to_output.dword_count, 36);
        CHECK_EQ(p->patch_const_to_output.dwords[0], 5);
        CHECK(!p->input_to_patch_const.present);
        CHECK(!p->view_id_patch_const_or_prim_mask.present);
        CHECK_EQ(p->trailing_bytes, 12);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

static void test_v3_geometry(void)
{
    struct psv_spec s = { .info_size = 52, .shader_stage = SB_DXIL_SHADER_KIND_GEOMETRY,
                          .uses_view_id = 1, .union1 = 0x102, .in_vectors = 1,
                          .out_vectors = { 1, 0, 9, 0 }, .table_dwords = 1 + 2 + 4 + 8 };
    put_u32_le(s.stage, 4);
    put_u32_le(s.stage + 4, 5);
    put_u32_le(s.stage + 8, 5);
    s.stage[12] = 1;
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_GEOMETRY, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.stage.gs.input_primitive, 4);
        CHECK_EQ(p->info.stage.gs.output_topology, 5);
        CHECK_EQ(p->info.stage.gs.output_stream_mask, 5);
        CHECK_EQ(p->info.stage.gs.output_position_present, 1);
        CHECK_EQ(p->info.max_vertex_count, 0x102);
        CHECK_EQ(p->view_id_output_masks[0].dword_count, 1);
        CHECK(!p->view_id_output_masks[1].present);
        CHECK_EQ(p->view_id_output_masks[2].dword_count, 2);
        CHECK_EQ(p->view_id_output_masks[2].dwords[0], 2);
        CHECK_EQ(p->input_to_output[0].dword_count, 4);
        CHECK_EQ(p->input_to_output[0].dwords[0], 4);
        CHECK_EQ(p->input_to_output[2].dword_count, 8);
        CHECK_EQ(p->input_to_output[2].dwords[0], 8);
        CHECK_EQ(p->trailing_bytes, 0);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

static void test_v3_mesh_amplification(void)
{
    struct psv_spec s = { .info_size = 52, .shader_stage = SB_DXIL_SHADER_KIND_MESH,
                          .uses_view_id = 1, .union1 = 2 | (2 << 8), .in_vectors = 1,
                          .out_vectors = { 3 }, .table_dwords = 2 };
    put_u32_le(s.stage, 1024);
    put_u32_le(s.stage + 4, 64);
    put_u32_le(s.stage + 8, 4092);
    s.stage[12] = 0x04; s.stage[13] = 0x01; /* 260 vertices */
    s.stage[14] = 0x80; /* 128 primitives */
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_MESH, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.stage_layout, SB_DXBC_PSV0_STAGE_MESH);
        CHECK_EQ(p->info.stage.ms.group_shared_bytes_used, 1024);
        CHECK_EQ(p->info.stage.ms.group_shared_bytes_dependent_on_view_id, 64);
        CHECK_EQ(p->info.stage.ms.payload_size_in_bytes, 4092);
        CHECK_EQ(p->info.stage.ms.max_output_vertices, 260);
        CHECK_EQ(p->info.stage.ms.max_output_primitives, 128);
        CHECK_EQ(p->info.sig_patch_const_or_prim_vectors, 2);
        CHECK_EQ(p->info.mesh_output_topology, 2);
        CHECK_EQ(p->view_id_output_masks[0].dwords[0], 1);
        CHECK_EQ(p->view_id_patch_const_or_prim_mask.dwords[0], 2);
        CHECK(!p->input_to_output[0].present); /* mesh has no I/O table */
        CHECK_EQ(p->trailing_bytes, 0);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);

    struct psv_spec a = { .info_size = 52, .shader_stage = SB_DXIL_SHADER_KIND_AMPLIFICATION };
    put_u32_le(a.stage, 256);
    b = build_psv(&a);
    dxbc = decode(&b, SB_DXIL_SHADER_KIND_AMPLIFICATION, __LINE__);
    if ((p = psv_of(dxbc)))
        CHECK_EQ(p->info.stage.as.payload_size_in_bytes, 256);
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

/* v4 plus records bigger than any known layout: tails are skipped. */
static void test_v4_and_bigger(void)
{
    static const char strings[4] = "\0A\0";
    static const uint32_t indexes[1] = { 7 };
    uint8_t elems[1][16];
    element(elems[0], 1, 0, 1, 2, 3, 1, true, 0, 1, 1, 0, 2);
    struct psv_spec s = { .info_size = 60, .shader_stage = SB_DXIL_SHADER_KIND_VERTEX,
                          .group_shared = 4096, .resource_count = 1, .resource_stride = 28,
                          .out_elems = 1, .strings = strings, .strings_size = 4,
                          .index_count = 1, .indexes = indexes, .element_size = 20,
                          .elements = elems, .entry_offset = 1 };
    struct tbuf b = build_psv(&s);
    struct sb_dxbc *dxbc = decode(&b, SB_DXIL_SHADER_KIND_PIXEL, __LINE__);
    const struct sb_dxbc_psv0 *p = psv_of(dxbc);
    if (p) {
        CHECK_EQ(p->info.size, 60);
        CHECK_EQ(p->info.version, 4);
        CHECK_EQ(p->info.num_bytes_group_shared_memory, 4096);
        /* ShaderStage says vertex, DXIL says pixel: DXIL wins, with a warning. */
        CHECK_EQ(p->info.stage_kind, SB_DXIL_SHADER_KIND_PIXEL);
        CHECK_EQ(dxbc->warning_count, 1);
        CHECK_EQ(p->resource_stride, 28);
        CHECK_EQ(p->resources[0].flags, 105);
        CHECK_EQ(p->element_size, 20);
        CHECK_STR(p->output_elements[0].name, "A");
        CHECK_EQ(p->output_elements[0].semantic_indexes[0], 7);
        CHECK_EQ(p->output_elements[0].start_col, 1);
        CHECK_EQ(p->output_elements[0].output_stream, 2);
        CHECK_STR(p->info.entry_function_name, "A");
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&b);
}

static void test_name_tables(void)
{
    static const struct {
        const char *(*name)(uint32_t);
        uint32_t count;
        const char *last;
    } tables[] = {
        { sb_dxbc_psv0_resource_type_name, 10, "UAVStructuredWithCounter" },
        { sb_dxbc_psv0_resource_kind_name, 19, "FeedbackTexture2DArray" },
        { sb_dxbc_psv0_semantic_kind_name, 32, "Invalid" },
        { sb_dxbc_component_type_name, 10, "Float64" },
        { sb_dxbc_psv0_interpolation_mode_name, 9, "Invalid" },
    };
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        for (uint32_t v = 0; v < tables[t].count; v++)
            CHECK(tables[t].name(v) != NULL);
        CHECK_STR(tables[t].name(tables[t].count - 1), tables[t].last);
        CHECK(tables[t].name(tables[t].count) == NULL);
    }
    CHECK_STR(sb_dxbc_psv0_semantic_kind_name(30), "CullPrimitive");
    for (int l = SB_DXBC_PSV0_STAGE_RAW; l <= SB_DXBC_PSV0_STAGE_AMPLIFICATION; l++)
        CHECK(sb_dxbc_psv0_stage_layout_name((enum sb_dxbc_psv0_stage_layout)l) != NULL);
}

int main(void)
{
    test_v0();
    test_v1_pixel();
    test_v2_compute();
    test_v3_hull();
    test_v3_domain();
    test_v3_geometry();
    test_v3_mesh_amplification();
    test_v4_and_bigger();
    test_name_tables();
    return test_finish("test_dxbc_dxil_psv0");
}
