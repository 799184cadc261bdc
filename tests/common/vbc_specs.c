/* SPDX-License-Identifier: MIT */
/*
 * The reflection of each test shader in glsl/, as vslc would write it for
 * the VSL source those GLSL files stand for (../shared/docs/vbc.md §3, §5, §6), with
 * the derived values worked out by hand. Together the sets cover every
 * section and every enumerant of the format; test_vbc_parse.c checks that
 * coverage instead of trusting this comment.
 */
#include "vbc_writer.h"

#include <string.h>

enum { B = SB_VBC_BASE_TYPE_BOOLEAN, S = SB_VBC_BASE_TYPE_SIGNED,
       U = SB_VBC_BASE_TYPE_UNSIGNED, F = SB_VBC_BASE_TYPE_FLOAT };
enum { VERT = 0x01, TESC = 0x02, TESE = 0x04, GEOM = 0x08, FRAG = 0x10 };

#define COPY(dst, count, src)                                                                 \
    do {                                                                                      \
        memcpy((dst), (src), sizeof(src));                                                    \
        (count) = (uint32_t)(sizeof(src) / sizeof((src)[0]));                                 \
    } while (0)

/* A texel-like binding row: slot, base type, stages, rank, type, size, count, engine type. */
#define TEXEL(slot, base, stages, rank, type, size, count, expect)                             \
    { (slot), (base), (stages), (rank), (type), (size), (count), 0, (expect) }
#define BUFFER(slot, base, stages, stride, expect)                                            \
    { (slot), (base), (stages), 0, 0, 0, 0, (stride), (expect) }

enum { SAMPLER = SB_VBC_BASE_TYPE_SAMPLER, IMAGE = SB_VBC_BASE_TYPE_IMAGE,
       ROBUF = SB_VBC_BASE_TYPE_RO_BUFFER, RWBUF = SB_VBC_BASE_TYPE_RW_BUFFER,
       ROTEX = SB_VBC_BASE_TYPE_RO_TEXELS, RWTEX = SB_VBC_BASE_TYPE_RW_TEXELS };
enum { R1D, R2D, R3D, R1DA, R2DA, RCUBE, RBUF };
enum { TS, TU, TF, TUN, TSN };

void vw_spec_basic(struct vw_spec *spec, const struct vw_modules *m)
{
    static const struct vw_var inputs[] = {
        { 0, F, { 3, 1 }, 1, 1 }, /* float3 pos */
        { 1, F, { 2, 1 }, 1, 1 }, /* float2 uv */
    };
    static const struct vw_var outputs[] = { { 0, F, { 4, 1 }, 1, 1 } };
    static const struct vw_binding bindings[] = {
        TEXEL(0, SAMPLER, FRAG, R2D, TF, 4, 4, SB_VBC_BINDING_SAMPLER_2D),
        BUFFER(1, ROBUF, VERT, 64, SB_VBC_BINDING_RO_BUFFER),
        TEXEL(2, ROTEX, FRAG, RBUF, TF, 4, 4, SB_VBC_BINDING_RO_TEXELS),
    };
    static const struct vw_member members[] = {
        { "mvp", 0, F, { 4, 4 }, 1 },
        { "scale", 64, F, { 2, 1 }, 1 },
        { "mode", 72, S, { 1, 1 }, 1 },
        { "flags", 76, U, { 1, 1 }, 1 },
    };
    vw_spec_init(spec, "basic");
    spec->blobs[SB_VBC_STAGE_VERTEX] = m->blob[VW_BASIC_VERT];
    spec->blobs[SB_VBC_STAGE_FRAGMENT] = m->blob[VW_BASIC_FRAG];
    COPY(spec->inputs, spec->input_count, inputs);
    COPY(spec->outputs, spec->output_count, outputs);
    COPY(spec->bindings, spec->binding_count, bindings);
    spec->uniform_size = 80;
    spec->uniform_stage_mask = VERT | FRAG;
    COPY(spec->members, spec->member_count, members);
    spec->expect_location_mask = 0x3;
    spec->expect_push_constant_size = 8; /* max slot 2: (2 + 2) / 2 = 2 words */
    spec->expect_engine_stages = true;
    spec->expect_engine_default_tables = true;
    spec->expect_engine_binding_types = true;
}

void vw_spec_full(struct vw_spec *spec, const struct vw_modules *m)
{
    /* Declaration order, not location order (§3.1). */
    static const struct vw_var inputs[] = {
        { 4, F, { 4, 4 }, 1, 4 },  /* float4x4: locations 4..7 */
        { 0, F, { 1, 1 }, 1, 1 },  /* float */
        { 1, S, { 2, 1 }, 1, 1 },  /* int2 */
        { 2, U, { 3, 1 }, 1, 1 },  /* uint3 */
        { 8, F, { 3, 2 }, 1, 2 },  /* float2x3: 2 columns -> 8..9 */
        { 10, F, { 4, 1 }, 2, 2 }, /* float4[2] -> 10..11 */
        { 12, S, { 1, 1 }, 1, 1 }, /* int */
        { 13, U, { 1, 1 }, 1, 1 }, /* uint */
        { 14, S, { 4, 1 }, 1, 1 }, /* int4 */
        { 15, F, { 3, 1 }, 1, 1 }, /* float3 */
    };
    static const struct vw_var outputs[] = {
        { 3, S, { 1, 1 }, 1, 1 }, { 0, F, { 4, 1 }, 1, 1 }, { 1, U, { 2, 1 }, 1, 1 },
        { 2, F, { 1, 1 }, 1, 1 }, { 4, S, { 4, 1 }, 1, 1 }, { 5, U, { 4, 1 }, 1, 1 },
        { 6, F, { 2, 1 }, 1, 1 }, { 7, S, { 2, 1 }, 1, 1 },
    };
    static const struct vw_binding bindings[] = {
        TEXEL(5, SAMPLER, GEOM, RCUBE, TF, 4, 4, SB_VBC_BINDING_SAMPLER_CUBE),
        TEXEL(0, IMAGE, TESC, R2D, TUN, 1, 4, SB_VBC_BINDING_IMAGE_2D),
        BUFFER(9, RWBUF, TESE | FRAG, 32, SB_VBC_BINDING_RW_BUFFER),
        TEXEL(2, IMAGE, FRAG, RCUBE, TF, 4, 1, SB_VBC_BINDING_UNMAPPED),
        TEXEL(7, RWTEX, VERT, RBUF, TSN, 2, 2, SB_VBC_BINDING_RW_TEXELS),
        BUFFER(3, ROBUF, 0, 12, SB_VBC_BINDING_RO_BUFFER), /* declared, never used */
    };
    /* Scalar layout: every member 4-byte aligned, packed (§8). */
    static const struct vw_member members[] = {
        { "m22", 0, F, { 2, 2 }, 1 },   { "m33", 16, F, { 3, 3 }, 1 },
        { "m44", 52, F, { 4, 4 }, 1 },  { "m23", 116, F, { 3, 2 }, 1 },
        { "m32", 140, F, { 2, 3 }, 1 }, { "m24", 164, F, { 4, 2 }, 1 },
        { "m42", 196, F, { 2, 4 }, 1 }, { "m34", 228, F, { 4, 3 }, 1 },
        { "m43", 276, F, { 3, 4 }, 1 }, { "b1", 324, B, { 1, 1 }, 1 },
        { "b2", 328, B, { 2, 1 }, 1 },  { "b3", 336, B, { 3, 1 }, 1 },
        { "b4", 348, B, { 4, 1 }, 1 },  { "i3", 364, S, { 3, 1 }, 1 },
        { "u2", 376, U, { 2, 1 }, 1 },  { "farr", 384, F, { 4, 1 }, 4 },
        { "iarr", 448, S, { 1, 1 }, 3 }, { "f", 460, F, { 1, 1 }, 1 },
    };
    static const struct vw_subpass subpasses[] = { { TF, 4 }, { TU, 4 } };
    static const uint16_t tables[SB_VBC_TABLE_COUNT] = { 64, 16, 32, 8, 4 };
    vw_spec_init(spec, "full");
    memcpy(spec->table_sizes, tables, sizeof(tables));
    spec->blobs[SB_VBC_STAGE_VERTEX] = m->blob[VW_FULL_VERT];
    spec->blobs[SB_VBC_STAGE_TESS_CONTROL] = m->blob[VW_FULL_TESC];
    spec->blobs[SB_VBC_STAGE_TESS_EVALUATION] = m->blob[VW_FULL_TESE];
    spec->blobs[SB_VBC_STAGE_GEOMETRY] = m->blob[VW_FULL_GEOM];
    spec->blobs[SB_VBC_STAGE_FRAGMENT] = m->blob[VW_FULL_FRAG];
    COPY(spec->inputs, spec->input_count, inputs);
    COPY(spec->outputs, spec->output_count, outputs);
    COPY(spec->bindings, spec->binding_count, bindings);
    spec->uniform_size = 464;
    spec->uniform_stage_mask = VERT | TESC | TESE | GEOM | FRAG;
    COPY(spec->members, spec->member_count, members);
    COPY(spec->subpasses, spec->subpass_count, subpasses);
    spec->expect_location_mask = 0xfff7; /* location 3 unused */
    spec->expect_push_constant_size = 20; /* max slot 9: (9 + 2) / 2 = 5 words */
    spec->expect_engine_stages = false;
    spec->expect_engine_default_tables = false;
    spec->expect_engine_binding_types = false; /* the Image Cube */
}

void vw_spec_formats(struct vw_spec *spec, const struct vw_modules *m)
{
    static const struct vw_var inputs[] = {
        { 0, F, { 2, 1 }, 1, 1 }, { 1, S, { 3, 1 }, 1, 1 }, { 2, U, { 2, 1 }, 1, 1 },
        { 3, U, { 4, 1 }, 1, 1 }, { 4, F, { 3, 3 }, 1, 3 }, { 7, F, { 4, 1 }, 1, 1 },
    };
    static const struct vw_var outputs[] = { { 0, F, { 4, 1 }, 1, 1 }, { 1, U, { 1, 1 }, 1, 1 } };
    /* Binding i sits in slot 7 * i mod 32 (glsl/formats.frag). */
    static const struct vw_binding bindings[] = {
        TEXEL(0, SAMPLER, FRAG, R1D, TF, 4, 4, SB_VBC_BINDING_SAMPLER_1D),
        TEXEL(7, SAMPLER, FRAG, R2D, TS, 4, 4, SB_VBC_BINDING_SAMPLER_2D),
        TEXEL(14, SAMPLER, FRAG, R3D, TU, 4, 4, SB_VBC_BINDING_SAMPLER_3D),
        TEXEL(21, SAMPLER, FRAG, R1DA, TF, 4, 4, SB_VBC_BINDING_SAMPLER_1D_ARRAY),
        TEXEL(28, SAMPLER, FRAG, R2DA, TS, 4, 4, SB_VBC_BINDING_SAMPLER_2D_ARRAY),
        TEXEL(3, SAMPLER, FRAG, RCUBE, TU, 4, 4, SB_VBC_BINDING_SAMPLER_CUBE),
        TEXEL(10, IMAGE, FRAG, R1D, TS, 4, 1, SB_VBC_BINDING_IMAGE_1D),
        TEXEL(17, IMAGE, FRAG, R2D, TS, 4, 2, SB_VBC_BINDING_IMAGE_2D),
        TEXEL(24, IMAGE, FRAG, R3D, TS, 4, 4, SB_VBC_BINDING_IMAGE_3D),
        TEXEL(31, IMAGE, FRAG, R1DA, TU, 4, 1, SB_VBC_BINDING_IMAGE_1D_ARRAY),
        TEXEL(6, IMAGE, FRAG, R2DA, TU, 4, 2, SB_VBC_BINDING_IMAGE_2D_ARRAY),
        TEXEL(13, IMAGE, FRAG, R1D, TU, 4, 4, SB_VBC_BINDING_IMAGE_1D),
        TEXEL(20, IMAGE, FRAG, R2D, TF, 4, 1, SB_VBC_BINDING_IMAGE_2D),
        TEXEL(27, IMAGE, FRAG, R3D, TF, 4, 2, SB_VBC_BINDING_IMAGE_3D),
        TEXEL(2, IMAGE, FRAG, R1DA, TF, 4, 4, SB_VBC_BINDING_IMAGE_1D_ARRAY),
        TEXEL(9, IMAGE, FRAG, R2DA, TUN, 1, 1, SB_VBC_BINDING_IMAGE_2D_ARRAY),
        TEXEL(16, IMAGE, FRAG, R2D, TUN, 1, 2, SB_VBC_BINDING_IMAGE_2D),
        TEXEL(23, RWTEX, FRAG, RBUF, TUN, 1, 4, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(30, RWTEX, FRAG, RBUF, TUN, 2, 1, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(5, RWTEX, FRAG, RBUF, TUN, 2, 2, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(12, RWTEX, FRAG, RBUF, TUN, 2, 4, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(19, RWTEX, FRAG, RBUF, TSN, 1, 1, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(26, RWTEX, FRAG, RBUF, TSN, 1, 2, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(1, RWTEX, FRAG, RBUF, TSN, 1, 4, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(8, RWTEX, FRAG, RBUF, TSN, 2, 1, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(15, RWTEX, FRAG, RBUF, TSN, 2, 2, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(22, RWTEX, FRAG, RBUF, TSN, 2, 4, SB_VBC_BINDING_RW_TEXELS),
        TEXEL(29, ROTEX, VERT, RBUF, TF, 4, 4, SB_VBC_BINDING_RO_TEXELS),
        TEXEL(4, ROTEX, VERT, RBUF, TS, 4, 4, SB_VBC_BINDING_RO_TEXELS),
        TEXEL(11, ROTEX, VERT | FRAG, RBUF, TU, 4, 4, SB_VBC_BINDING_RO_TEXELS),
        BUFFER(18, ROBUF, VERT | FRAG, 16, SB_VBC_BINDING_RO_BUFFER),
        BUFFER(25, RWBUF, FRAG, 8, SB_VBC_BINDING_RW_BUFFER),
    };
    vw_spec_init(spec, "formats");
    spec->blobs[SB_VBC_STAGE_VERTEX] = m->blob[VW_FORMATS_VERT];
    spec->blobs[SB_VBC_STAGE_FRAGMENT] = m->blob[VW_FORMATS_FRAG];
    COPY(spec->inputs, spec->input_count, inputs);
    COPY(spec->outputs, spec->output_count, outputs);
    COPY(spec->bindings, spec->binding_count, bindings);
    spec->expect_location_mask = 0xff;
    spec->expect_push_constant_size = 64; /* max slot 31: (31 + 2) / 2 = 16 words */
    spec->expect_engine_stages = true;
    spec->expect_engine_default_tables = true;
    spec->expect_engine_binding_types = true;
}

void vw_spec_subpass(struct vw_spec *spec, const struct vw_modules *m, uint32_t count)
{
    static const struct vw_var inputs[] = { { 0, F, { 3, 1 }, 1, 1 } };
    static const struct vw_var outputs[] = { { 0, F, { 4, 1 }, 1, 1 } };
    static const struct vw_subpass subpasses[] = { { TF, 4 }, { TS, 4 }, { TU, 4 }, { TF, 4 } };
    static const enum vw_module frags[] = { VW_SUBPASS1_FRAG, VW_SUBPASS2_FRAG,
                                            VW_SUBPASS3_FRAG, VW_SUBPASS4_FRAG };
    if (count < 1)
        count = 1;
    if (count > 4)
        count = 4;
    vw_spec_init(spec, "subpass");
    spec->blobs[SB_VBC_STAGE_VERTEX] = m->blob[VW_SUBPASS_VERT];
    spec->blobs[SB_VBC_STAGE_FRAGMENT] = m->blob[frags[count - 1]];
    COPY(spec->inputs, spec->input_count, inputs);
    COPY(spec->outputs, spec->output_count, outputs);
    memcpy(spec->subpasses, subpasses, count * sizeof(subpasses[0]));
    spec->subpass_count = count;
    spec->expect_location_mask = 0x1;
    spec->expect_push_constant_size = 0; /* no bindings, no push constants */
    spec->expect_engine_stages = true;
    spec->expect_engine_default_tables = true;
    spec->expect_engine_binding_types = true;
}
