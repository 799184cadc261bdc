/* SPDX-License-Identifier: MIT */
/*
 * Unit test of the FXC-era part decoders on containers assembled in memory
 * (fxc_builder.h): a vs_4_0 container (RDEF 4.0, ISGN, OSGN, SHDR, 29-dword
 * STAT), the same RDEF in 5.0 'RD11' and 5.1 form (40-byte bindings with
 * space and id), a gs_5_0 container with ISG1 / OSG5 / PCSG / SFI0 / IFCE,
 * and the name tables. Every decoded value is compared with what was
 * written. Malformed variants live in test_dxbc_fxc_malformed.c.
 */
#include "fxc_builder.h"
#include "fxc_check.h"

#include "shaderbridge/dxbc_fxc.h"

static const struct sig_element_spec vs_inputs[] = {
    { 0, "POSITION", 0, 0, 3, 0, 0xF, 0xF, 0 },
    { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
};

static const struct sig_element_spec vs_outputs[] = {
    { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0x0, 0 },
    { 0, "TEXCOORD", 0, 0, 3, 1, 0x7, 0xC, 0 }, /* z never written */
};

static void build_shdr(struct blob *b, uint32_t version)
{
    memset(b, 0, sizeof(*b));
    blob_u32(b, version);
    blob_u32(b, 3);
    blob_u32(b, 0x0100003e); /* ret */
}

static void build_stat(struct blob *b, uint32_t dwords)
{
    memset(b, 0, sizeof(*b));
    for (uint32_t i = 0; i < dwords; i++)
        blob_u32(b, 100 + i);
}

/* The vs_4_0 test container; `rdef` chooses the RDEF form. */
static void build_vs(enum rdef_form form, struct blob *out, struct rdef_marks *marks,
                     uint32_t offsets[5])
{
    static struct blob rdef, isgn, osgn, shdr, stat;
    build_rdef(form, true, &rdef, marks);
    build_signature(24, vs_inputs, 2, &isgn);
    build_signature(24, vs_outputs, 2, &osgn);
    build_shdr(&shdr, form == RDEF_40 ? 0x00010040 : form == RDEF_50 ? 0x00010050 : 0x00010051);
    build_stat(&stat, form == RDEF_40 ? 29 : 37);
    const struct part_spec parts[] = {
        { SB_FOURCC('R', 'D', 'E', 'F'), &rdef }, { SB_FOURCC('I', 'S', 'G', 'N'), &isgn },
        { SB_FOURCC('O', 'S', 'G', 'N'), &osgn }, { SB_FOURCC('S', 'H', 'D', 'R'), &shdr },
        { SB_FOURCC('S', 'T', 'A', 'T'), &stat },
    };
    build_container(parts, 5, out, offsets);
}

static void check_signature(const struct sb_dxbc_part *part, uint32_t element_size,
                            const struct sig_element_spec *expect, uint32_t count,
                            bool output)
{
    CHECK(part != NULL && part->decoded.signature != NULL);
    if (!part || !part->decoded.signature)
        return;
    const struct sb_dxbc_signature *sig = part->decoded.signature;
    CHECK_EQ(sig->element_size, element_size);
    CHECK_EQ(sig->element_offset, 8);
    CHECK_EQ(sig->element_count, count);
    CHECK_EQ(sig->derives_used_mask, output);
    for (uint32_t i = 0; i < count && i < sig->element_count; i++) {
        const struct sb_dxbc_signature_element *e = &sig->elements[i];
        CHECK_EQ(e->stream, expect[i].stream);
        CHECK_STR(e->semantic_name, expect[i].name);
        CHECK_EQ(e->semantic_index, expect[i].index);
        CHECK_EQ(e->system_value, expect[i].system_value);
        CHECK_EQ(e->component_type, expect[i].component_type);
        CHECK_EQ(e->register_index, expect[i].reg);
        CHECK_EQ(e->mask, expect[i].mask);
        CHECK_EQ(e->rw_mask, expect[i].rw_mask);
        CHECK_EQ(e->used_mask, output ? (expect[i].mask & ~expect[i].rw_mask) & 0xff : 0);
        CHECK_EQ(e->min_precision, expect[i].min_precision);
    }
}

static void check_type(const struct sb_dxbc_rdef_type *t, uint32_t offset, uint16_t cls,
                       uint16_t type, uint16_t rows, uint16_t cols, uint16_t elements,
                       uint16_t members, const char *sm5_name)
{
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_EQ(t->offset, offset);
    CHECK_EQ(t->variable_class, cls);
    CHECK_EQ(t->variable_type, type);
    CHECK_EQ(t->rows, rows);
    CHECK_EQ(t->columns, cols);
    CHECK_EQ(t->elements, elements);
    CHECK_EQ(t->member_count, members);
    if (sm5_name) {
        CHECK_STR(t->name, sm5_name);
        for (uint32_t i = 0; i < 4; i++)
            CHECK_EQ(t->sm5_words[i], 0x100 * (i + 1) + cls);
    } else {
        CHECK(t->name == NULL);
        CHECK_EQ(t->sm5_words[0], 0);
    }
}

static void check_rdef(const struct sb_dxbc_rdef *rdef, enum rdef_form form,
                       const struct rdef_marks *m, const uint8_t *rdef_data)
{
    bool sm5 = form != RDEF_40;
    CHECK_EQ(rdef->major, sm5 ? 5 : 4);
    CHECK_EQ(rdef->minor, form == RDEF_51 ? 1 : 0);
    CHECK_EQ(rdef->program_type_raw, 0xFFFE);
    CHECK_EQ(rdef->program_type, SB_DXBC_PROGRAM_VERTEX);
    CHECK_EQ(rdef->target, 0xFFFE0000u | (sm5 ? 0x500u : 0x400u) | (form == RDEF_51 ? 1u : 0u));
    CHECK_EQ(rdef->compile_flags, 0x108);
    CHECK_STR(rdef->creator, "Microsoft (R) HLSL Shader Compiler 10.1");
    CHECK_EQ(rdef->creator_offset, m->creator);
    CHECK_EQ(rdef->is_sm5, sm5);
    CHECK_EQ(rdef->magic, form == RDEF_40 ? 0 : form == RDEF_50 ? 0x31314452u : 0x25441313u);
    CHECK_EQ(rdef->header_size, sm5 ? 60 : 28);
    CHECK_EQ(rdef->cbuffer_desc_size, 24);
    CHECK_EQ(rdef->binding_desc_size, m->binding_size);
    CHECK_EQ(rdef->variable_desc_size, m->var_size);
    CHECK_EQ(rdef->type_desc_size, m->type_size);
    CHECK_EQ(rdef->member_desc_size, 12);
    CHECK_EQ(rdef->has_space_and_id, form == RDEF_51);

    CHECK_EQ(rdef->binding_count, 3);
    if (rdef->binding_count == 3) {
        static const char *const names[3] = { "g_samp", "g_tex", "Globals" };
        static const uint32_t f[3][7] = {
            { 3, 0, 0, 0, 1, 1, 0x2 }, { 2, 5, 4, 0xFFFFFFFFu, 3, 1, 0xC }, { 0, 0, 0, 0, 0, 1, 0 },
        };
        for (uint32_t i = 0; i < 3; i++) {
            const struct sb_dxbc_rdef_binding *b = &rdef->bindings[i];
            CHECK_STR(b->name, names[i]);
            CHECK_EQ(b->input_type, f[i][0]);
            CHECK_EQ(b->return_type, f[i][1]);
            CHECK_EQ(b->dimension, f[i][2]);
            CHECK_EQ(b->sample_count, f[i][3]);
            CHECK_EQ(b->bind_point, f[i][4]);
            CHECK_EQ(b->bind_count, f[i][5]);
            CHECK_EQ(b->flags, f[i][6]);
            CHECK_EQ(b->space, form == RDEF_51 ? 2 + i : 0);
            CHECK_EQ(b->id, form == RDEF_51 ? 7 + i : 0);
        }
    }

    CHECK_EQ(rdef->cbuffer_count, 1);
    if (rdef->cbuffer_count != 1)
        return;
    const struct sb_dxbc_rdef_cbuffer *cb = &rdef->cbuffers[0];
    CHECK_STR(cb->name, "Globals");
    CHECK_EQ(cb->size, 128);
    CHECK_EQ(cb->flags, 0);
    CHECK_EQ(cb->type, 0);
    CHECK_EQ(cb->variable_count, 3);
    if (cb->variable_count != 3)
        return;
    static const char *const var_names[3] = { "g_world", "g_light", "g_weights" };
    static const uint32_t var_f[3][3] = { { 0, 64, 2 }, { 64, 16, 2 }, { 80, 36, 0 } };
    for (uint32_t i = 0; i < 3; i++) {
        const struct sb_dxbc_rdef_variable *v = &cb->variables[i];
        CHECK_STR(v->name, var_names[i]);
        CHECK_EQ(v->start_offset, var_f[i][0]);
        CHECK_EQ(v->size, var_f[i][1]);
        CHECK_EQ(v->flags, var_f[i][2]);
        CHECK_EQ(v->start_texture, sm5 ? (i == 0 ? 5 : 0xFFFFFFFFu) : 0);
        CHECK_EQ(v->texture_size, sm5 && i == 0 ? 1 : 0);
        CHECK_EQ(v->start_sampler, sm5 ? (i == 0 ? 6 : 0xFFFFFFFFu) : 0);
        CHECK_EQ(v->sampler_size, sm5 && i == 0 ? 2 : 0);
    }
    /* Default value: only g_weights, 36 bytes pointing at the right place. */
    CHECK(cb->variables[0].default_value == NULL);
    CHECK(cb->variables[1].default_value == NULL);
    CHECK_EQ(cb->variables[2].default_value_offset, m->default_value);
    CHECK(cb->variables[2].default_value != NULL &&
          memcmp(cb->variables[2].default_value, rdef_data + m->default_value, 36) == 0);
    if (cb->variables[2].default_value) {
        const uint8_t *d = cb->variables[2].default_value;
        CHECK_EQ(d[16 + 3], 0x3f); /* 0.5f = 0x3f000000 in register 1 */
        CHECK_EQ(d[32 + 2], 0x40); /* 0.75f = 0x3f400000 in register 2 */
    }

    /* The type table: discovered depth first. */
    CHECK_EQ(rdef->type_count, 5);
    if (rdef->type_count != 5)
        return;
    check_type(&rdef->types[0], m->type_world, 3, 3, 4, 4, 0, 0, sm5 ? "float4x4" : NULL);
    check_type(&rdef->types[1], m->type_light, 5, 0, 1, 4, 0, 2, sm5 ? "Light" : NULL);
    check_type(&rdef->types[2], m->type_dir, 1, 3, 1, 3, 0, 0, sm5 ? "float3" : NULL);
    check_type(&rdef->types[3], m->type_intensity, 0, 3, 1, 1, 0, 0, sm5 ? "float" : NULL);
    check_type(&rdef->types[4], m->type_weights, 0, 3, 1, 1, 3, 0, sm5 ? "float" : NULL);
    CHECK(cb->variables[0].type == &rdef->types[0] && cb->variables[0].type_index == 0);
    CHECK(cb->variables[1].type == &rdef->types[1] && cb->variables[1].type_index == 1);
    CHECK(cb->variables[2].type == &rdef->types[4] && cb->variables[2].type_index == 4);
    const struct sb_dxbc_rdef_type *light = cb->variables[1].type;
    CHECK_STR(light->members[0].name, "dir");
    CHECK_EQ(light->members[0].byte_offset, 0);
    CHECK(light->members[0].type == &rdef->types[2]);
    CHECK_STR(light->members[1].name, "intensity");
    CHECK_EQ(light->members[1].byte_offset, 12);
    CHECK(light->members[1].type == &rdef->types[3]);
    CHECK_EQ(light->members[1].type_offset, m->type_intensity);
    CHECK_EQ(light->member_offset, m->member_desc[0]);
}

static void test_vs(enum rdef_form form)
{
    struct blob c;
    struct rdef_marks marks;
    uint32_t offsets[5];
    build_vs(form, &c, &marks, offsets);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(c.bytes, c.size, &dxbc, &error);
    CHECK_EQ(r, SB_SUCCESS);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "  parse failed at %llu: %s\n", (unsigned long long)error.offset,
                error.message);
        return;
    }
    CHECK(dxbc->checksum_ok);
    CHECK_EQ(dxbc->warning_count, 0);
    CHECK_EQ(dxbc->part_count, 5);

    const struct sb_dxbc_part *rdef = sb_dxbc_find_part(dxbc, SB_FOURCC('R', 'D', 'E', 'F'));
    CHECK(rdef && rdef->decoded.rdef);
    if (rdef && rdef->decoded.rdef)
        check_rdef(rdef->decoded.rdef, form, &marks, c.bytes + offsets[0]);

    check_signature(sb_dxbc_find_part(dxbc, SB_FOURCC('I', 'S', 'G', 'N')), 24, vs_inputs, 2,
                    false);
    check_signature(sb_dxbc_find_part(dxbc, SB_FOURCC('O', 'S', 'G', 'N')), 24, vs_outputs, 2,
                    true);
    const struct sb_dxbc_signature *osgn =
        sb_dxbc_find_part(dxbc, SB_FOURCC('O', 'S', 'G', 'N'))->decoded.signature;
    CHECK_EQ(osgn->elements[0].used_mask, 0xF);
    CHECK_EQ(osgn->elements[1].used_mask, 0x3);

    const struct sb_dxbc_shader_header *hdr =
        sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'D', 'R'))->decoded.shader;
    CHECK(hdr != NULL);
    if (hdr) {
        CHECK_EQ(hdr->program_type, SB_DXBC_PROGRAM_VERTEX);
        CHECK_EQ(hdr->major, form == RDEF_40 ? 4 : 5);
        CHECK_EQ(hdr->minor, form == RDEF_51 ? 1 : 0);
        CHECK_EQ(hdr->length_dwords, 3);
        CHECK_EQ(hdr->part_dwords, 3);
        CHECK_EQ(hdr->tokens[2], 0x0100003e);
        char profile[8];
        CHECK_EQ(sb_dxbc_shader_header_profile(hdr, profile, sizeof(profile)), SB_SUCCESS);
        CHECK_STR(profile, form == RDEF_40 ? "vs_4_0" : form == RDEF_50 ? "vs_5_0" : "vs_5_1");
        CHECK_EQ(sb_dxbc_shader_header_profile(hdr, profile, 6), SB_ERROR_INVALID_ARGUMENT);
        CHECK_STR(profile, "");
    }

    const struct sb_dxbc_stat *stat =
        sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'T', 'A', 'T'))->decoded.stat;
    CHECK(stat != NULL);
    if (stat) {
        uint32_t n = form == RDEF_40 ? 29 : 37;
        CHECK_EQ(stat->dword_count, n);
        CHECK_EQ(stat->version, form == RDEF_40 ? SB_DXBC_STAT_SM4 : SB_DXBC_STAT_SM5);
        CHECK_EQ(stat->instruction_count, 100);
        CHECK_EQ(stat->temp_register_count, 101);
        CHECK_EQ(stat->conversion_instruction_count, 121);
        CHECK_EQ(stat->gs_max_output_vertex_count, 125);
        CHECK_EQ(stat->is_sample_frequency_shader, 128);
        CHECK_EQ(stat->control_points, form == RDEF_40 ? 0 : 130);
        CHECK_EQ(stat->texture_store_instructions, form == RDEF_40 ? 0 : 136);
        for (uint32_t i = 0; i < n; i++)
            CHECK_EQ(stat->dwords[i], 100 + i);
    }
    sb_dxbc_destroy(dxbc);
}

/* A gs_5_0 container with the other signature forms, SFI0 and IFCE. */
static const struct sig_element_spec gs_inputs[] = {
    { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0xF, 0 },
    { 0, "COLOR", 2, 0, 3, 1, 0xF, 0x7, 1 }, /* min16float, exclusive mask 0x7 */
};

static const struct sig_element_spec gs_outputs[] = {
    { 0, "SV_Position", 0, 1, 3, 0, 0xF, 0x0, 0 },
    { 1, "COLOR", 0, 0, 1, 0, 0x3, 0x2, 0 }, /* stream 1, uint, y never written */
};

static void build_ifce(struct blob *b)
{
    memset(b, 0, sizeof(*b));
    blob_u32(b, 1);   /* class instances */
    blob_u32(b, 2);   /* class types */
    blob_u32(b, 1);   /* slot records */
    blob_u32(b, 4);   /* interface slots */
    blob_u32(b, 0);   /* instance offset (patched) */
    blob_u32(b, 0);   /* class type offset (patched) */
    blob_u32(b, 0);   /* slot offset (patched) */
    blob_patch_u32(b, 24, b->size);
    uint32_t slot = blob_u32(b, 4);
    blob_u32(b, 2);
    blob_u32(b, 0);
    blob_u32(b, 0);
    blob_patch_u32(b, 20, b->size);
    uint32_t type0 = blob_u32(b, 0);
    blob_u16(b, 0);
    blob_u16(b, 3);
    blob_u16(b, 1);
    blob_u16(b, 2);
    uint32_t type1 = blob_u32(b, 0);
    blob_u16(b, 0);
    blob_u16(b, 1);
    blob_u16(b, 0);
    blob_u16(b, 0);
    blob_patch_u32(b, 16, b->size);
    uint32_t inst = blob_u32(b, 0);
    blob_u16(b, 1);
    blob_u16(b, 1);
    blob_u16(b, 0);
    blob_u16(b, 4);
    blob_u16(b, 0xFFFF);
    blob_u16(b, 0xFFFF);
    blob_patch_u32(b, slot + 8, b->size);
    blob_u16(b, 1);
    blob_u16(b, 0);
    blob_patch_u32(b, slot + 12, b->size);
    blob_u32(b, 9);
    blob_u32(b, 8);
    blob_patch_u32(b, type0, blob_str(b, "cRed", true));
    blob_patch_u32(b, type1, blob_str(b, "cBlue", true));
    blob_patch_u32(b, inst, blob_str(b, "g_blue", true));
    blob_align4(b);
}

static void test_gs(void)
{
    static struct blob isg1, osg5, pcsg, shex, sfi0, ifce, c;
    build_signature(32, gs_inputs, 2, &isg1);
    build_signature(28, gs_outputs, 2, &osg5);
    build_signature(24, vs_outputs, 2, &pcsg); /* patch constants of a gs: treated as output */
    build_shdr(&shex, 0x00020050);
    memset(&sfi0, 0, sizeof(sfi0));
    blob_u32(&sfi0, 0x00000011);  /* Doubles | MinimumPrecision */
    blob_u32(&sfi0, 0x00000301);  /* ExtendedCommandInfo (32), UsesDerivatives (40), RequiresGroup (41) */
    build_ifce(&ifce);
    const struct part_spec parts[] = {
        { SB_FOURCC('I', 'S', 'G', '1'), &isg1 }, { SB_FOURCC('P', 'C', 'S', 'G'), &pcsg },
        { SB_FOURCC('O', 'S', 'G', '5'), &osg5 }, { SB_FOURCC('I', 'F', 'C', 'E'), &ifce },
        { SB_FOURCC('S', 'H', 'E', 'X'), &shex }, { SB_FOURCC('S', 'F', 'I', '0'), &sfi0 },
    };
    build_container(parts, 6, &c, NULL);
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    CHECK_EQ(sb_dxbc_parse(c.bytes, c.size, &dxbc, &error), SB_SUCCESS);
    if (!dxbc) {
        fprintf(stderr, "  parse failed at %llu: %s\n", (unsigned long long)error.offset,
                error.message);
        return;
    }
    check_signature(sb_dxbc_find_part(dxbc, SB_FOURCC('I', 'S', 'G', '1')), 32, gs_inputs, 2,
                    false);
    check_signature(sb_dxbc_find_part(dxbc, SB_FOURCC('O', 'S', 'G', '5')), 28, gs_outputs, 2,
                    true);
    check_signature(sb_dxbc_find_part(dxbc, SB_FOURCC('P', 'C', 'S', 'G')), 24, vs_outputs, 2,
                    true);
    const struct sb_dxbc_shader_header *hdr =
        sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'H', 'E', 'X'))->decoded.shader;
    char profile[8];
    CHECK_EQ(sb_dxbc_shader_header_profile(hdr, profile, sizeof(profile)), SB_SUCCESS);
    CHECK_STR(profile, "gs_5_0");

    const struct sb_dxbc_sfi0 *flags = sb_dxbc_find_part(dxbc, SB_FOURCC('S', 'F', 'I', '0'))->decoded.sfi0;
    CHECK_EQ(flags->flags, 0x0000030100000011ull);

    const struct sb_dxbc_ifce *i = sb_dxbc_find_part(dxbc, SB_FOURCC('I', 'F', 'C', 'E'))->decoded.ifce;
    CHECK(i != NULL);
    if (i) {
        CHECK_EQ(i->interface_slot_count, 4);
        CHECK_EQ(i->class_type_count, 2);
        CHECK_STR(i->class_types[0].name, "cRed");
        CHECK_EQ(i->class_types[0].cbuffer_stride, 3);
        CHECK_EQ(i->class_types[0].texture, 1);
        CHECK_EQ(i->class_types[0].sampler, 2);
        CHECK_STR(i->class_types[1].name, "cBlue");
        CHECK_EQ(i->class_instance_count, 1);
        CHECK_STR(i->class_instances[0].name, "g_blue");
        CHECK_EQ(i->class_instances[0].type, 1);
        CHECK_EQ(i->class_instances[0].cbuffer_offset, 4);
        CHECK_EQ(i->class_instances[0].texture, 0xFFFF);
        CHECK_EQ(i->slot_record_count, 1);
        CHECK_EQ(i->slots[0].first_slot, 0);
        CHECK_EQ(i->slots[0].slot_span, 4);
        CHECK_EQ(i->slots[0].count, 2);
        CHECK_EQ(i->slots[0].type_ids[0], 1);
        CHECK_EQ(i->slots[0].type_ids[1], 0);
        CHECK_EQ(i->slots[0].table_ids[0], 9);
        CHECK_EQ(i->slots[0].table_ids[1], 8);
    }
    sb_dxbc_destroy(dxbc);
}

/* A PCSG in a domain shader is an input: no used mask. */
static void test_ds_patch_constants(void)
{
    static struct blob pcsg, shex, c;
    build_signature(24, vs_inputs, 2, &pcsg);
    build_shdr(&shex, 0x00040050);
    const struct part_spec parts[] = {
        { SB_FOURCC('P', 'C', 'S', 'G'), &pcsg }, { SB_FOURCC('S', 'H', 'E', 'X'), &shex },
    };
    build_container(parts, 2, &c, NULL);
    struct sb_dxbc *dxbc = NULL;
    CHECK_EQ(sb_dxbc_parse(c.bytes, c.size, &dxbc, NULL), SB_SUCCESS);
    if (dxbc)
        check_signature(&dxbc->parts[0], 24, vs_inputs, 2, false);
    sb_dxbc_destroy(dxbc);
}

/* Tables: every row named, gaps and ends NULL. */
static void test_names(void)
{
    for (uint32_t v = 0; v <= 16; v++)
        CHECK(sb_dxbc_system_value_name(v) != NULL);
    CHECK_STR(sb_dxbc_system_value_name(0), "Undefined");
    CHECK_STR(sb_dxbc_system_value_name(1), "Position");
    CHECK_STR(sb_dxbc_system_value_name(5), "ViewPortArrayIndex");
    CHECK_STR(sb_dxbc_system_value_name(11), "FinalQuadEdgeTessfactor");
    CHECK_STR(sb_dxbc_system_value_name(16), "FinalLineDensityTessfactor");
    CHECK(sb_dxbc_system_value_name(17) == NULL);
    CHECK(sb_dxbc_system_value_name(22) == NULL);
    CHECK_STR(sb_dxbc_system_value_name(23), "Barycentrics");
    CHECK_STR(sb_dxbc_system_value_name(25), "CullPrimitive");
    CHECK(sb_dxbc_system_value_name(26) == NULL);
    CHECK_STR(sb_dxbc_system_value_name(64), "Target");
    CHECK_STR(sb_dxbc_system_value_name(67), "DepthGE");
    CHECK_STR(sb_dxbc_system_value_name(70), "InnerCoverage");
    CHECK(sb_dxbc_system_value_name(71) == NULL);
    CHECK_STR(sb_dxbc_component_type_name(0), "Unknown");
    CHECK_STR(sb_dxbc_component_type_name(3), "Float32");
    CHECK_STR(sb_dxbc_component_type_name(9), "Float64");
    CHECK(sb_dxbc_component_type_name(10) == NULL);
    CHECK_STR(sb_dxbc_min_precision_name(0), "Default");
    CHECK_STR(sb_dxbc_min_precision_name(2), "Float2_8");
    CHECK_STR(sb_dxbc_min_precision_name(5), "UInt16");
    CHECK(sb_dxbc_min_precision_name(6) == NULL);
    CHECK_STR(sb_dxbc_min_precision_name(0xF0), "Any16");
    CHECK_STR(sb_dxbc_min_precision_name(0xF1), "Any10");

    for (unsigned bit = 0; bit <= 32; bit++)
        CHECK(sb_dxbc_sfi0_flag_name(bit) != NULL);
    CHECK_STR(sb_dxbc_sfi0_flag_name(0), "Doubles");
    CHECK_STR(sb_dxbc_sfi0_flag_name(13), "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer");
    CHECK_STR(sb_dxbc_sfi0_flag_name(31), "SampleCmpWithGradientOrBias");
    CHECK_STR(sb_dxbc_sfi0_flag_name(32), "ExtendedCommandInfo");
    for (unsigned bit = 33; bit < 40; bit++)
        CHECK(sb_dxbc_sfi0_flag_name(bit) == NULL);
    CHECK_STR(sb_dxbc_sfi0_flag_name(40), "UsesDerivatives");
    CHECK_STR(sb_dxbc_sfi0_flag_name(41), "RequiresGroup");
    CHECK(sb_dxbc_sfi0_flag_name(42) == NULL);
    CHECK(sb_dxbc_sfi0_flag_name(1000) == NULL);

    for (uint32_t v = 0; v <= 13; v++)
        CHECK(sb_dxbc_shader_input_type_name(v) != NULL);
    CHECK_STR(sb_dxbc_shader_input_type_name(11), "UAV_RWSTRUCTURED_WITH_COUNTER");
    CHECK(sb_dxbc_shader_input_type_name(14) == NULL);
    CHECK(sb_dxbc_return_type_name(0) == NULL);
    CHECK_STR(sb_dxbc_return_type_name(5), "FLOAT");
    CHECK_STR(sb_dxbc_return_type_name(8), "CONTINUED");
    CHECK(sb_dxbc_return_type_name(9) == NULL);
    CHECK_STR(sb_dxbc_srv_dimension_name(4), "TEXTURE2D");
    CHECK_STR(sb_dxbc_srv_dimension_name(11), "BUFFEREX");
    CHECK(sb_dxbc_srv_dimension_name(12) == NULL);
    CHECK_STR(sb_dxbc_variable_class_name(3), "matrix_columns");
    CHECK_STR(sb_dxbc_variable_class_name(7), "interface_pointer");
    CHECK(sb_dxbc_variable_class_name(8) == NULL);
    for (uint32_t v = 0; v <= 62; v++)
        CHECK(sb_dxbc_variable_type_name(v) != NULL);
    CHECK_STR(sb_dxbc_variable_type_name(3), "float");
    CHECK_STR(sb_dxbc_variable_type_name(39), "double");
    CHECK_STR(sb_dxbc_variable_type_name(54), "min16float");
    CHECK_STR(sb_dxbc_variable_type_name(62), "uint64");
    CHECK(sb_dxbc_variable_type_name(63) == NULL);
    CHECK_STR(sb_dxbc_cbuffer_type_name(3), "resource_bind_info");
    CHECK(sb_dxbc_cbuffer_type_name(4) == NULL);
    CHECK_STR(sb_dxbc_compile_flag_name(8), "NO_PRESHADER");
    CHECK(sb_dxbc_compile_flag_name(16) == NULL);
    CHECK_STR(sb_dxbc_compile_flag_name(23), "DEBUG_NAME_FOR_BINARY");
    CHECK(sb_dxbc_compile_flag_name(24) == NULL);
    CHECK_STR(sb_dxbc_shader_input_flag_name(1), "COMPARISON_SAMPLER");
    CHECK(sb_dxbc_shader_input_flag_name(5) == NULL);
    CHECK_STR(sb_dxbc_variable_flag_name(3), "INTERFACE_PARAMETER");
    CHECK(sb_dxbc_variable_flag_name(4) == NULL);
    CHECK_STR(sb_dxbc_program_type_name(0), "ps");
    CHECK_STR(sb_dxbc_program_type_name(5), "cs");
    CHECK(sb_dxbc_program_type_name(6) == NULL);
    CHECK_STR(sb_dxbc_stat_field_name(0), "instruction_count");
    CHECK_STR(sb_dxbc_stat_field_name(28), "is_sample_frequency_shader");
    CHECK_STR(sb_dxbc_stat_field_name(36), "texture_store_instructions");
    CHECK(sb_dxbc_stat_field_name(37) == NULL);
}

int main(void)
{
    test_vs(RDEF_40);
    test_vs(RDEF_50);
    test_vs(RDEF_51);
    test_gs();
    test_ds_patch_constants();
    test_names();
    return check_report("test_dxbc_fxc_build");
}
