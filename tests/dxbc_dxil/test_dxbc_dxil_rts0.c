/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the RTS0 decoder (../shared/docs/dxcontainer.md §7): versions 1.0,
 * 1.1 and 1.2 with every parameter type, descriptor ranges in the 20- and
 * 24-byte forms (Flags as the 5th field), static samplers in the 52- and
 * 56-byte forms, blocks placed out of the usual order, every name table,
 * and malformed variants with their exact code and offset.
 */
#include "dxil_test_util.h"

#include <string.h>

#define FOURCC(s) SB_FOURCC((s)[0], (s)[1], (s)[2], (s)[3])

struct layout {
    uint32_t params, table, ranges, constants, cbv, srv, uav, samplers;
};

/* Five parameters (table, constants, CBV, SRV, UAV) and two samplers. With
 * `samplers_first` the sampler array precedes the parameter headers. */
static struct tbuf build_rts0(uint32_t version, bool samplers_first, struct layout *at)
{
    uint32_t range_size = version >= 2 ? 24 : 20, desc_size = version >= 2 ? 12 : 8;
    uint32_t sampler_size = version >= 3 ? 56 : 52;
    uint32_t pos = 24;
    if (samplers_first) {
        at->samplers = pos;
        pos += 2 * sampler_size;
    }
    at->params = pos;
    pos += 5 * 12;
    at->table = pos;
    at->ranges = pos + 8;
    pos += 8 + 2 * range_size;
    at->constants = pos;
    at->cbv = pos + 12;
    at->srv = at->cbv + desc_size;
    at->uav = at->srv + desc_size;
    pos = at->uav + desc_size;
    if (!samplers_first)
        at->samplers = pos;

    struct tbuf b = { 0 };
    tb_u32(&b, version);
    tb_u32(&b, 5);
    tb_u32(&b, at->params);
    tb_u32(&b, 2);
    tb_u32(&b, at->samplers);
    tb_u32(&b, 0x1 | 0x10 | 0x800);
    for (int pass = 0; pass < 2; pass++) {
        bool sampler_pass = pass == (samplers_first ? 0 : 1);
        if (sampler_pass) {
            for (uint32_t s = 0; s < 2; s++) {
                tb_u32(&b, s ? 0xD5 : 0x14);
                tb_u32(&b, 1);
                tb_u32(&b, 2);
                tb_u32(&b, 5);
                tb_f32(&b, 1.25f);
                tb_u32(&b, 16);
                tb_u32(&b, 4);
                tb_u32(&b, 2);
                tb_f32(&b, -2.5f);
                tb_f32(&b, 1000.0f);
                tb_u32(&b, 10 + s);
                tb_u32(&b, 3);
                tb_u32(&b, 7);
                if (version >= 3)
                    tb_u32(&b, s ? 0x3 : 0x1);
            }
            continue;
        }
        static const uint32_t types[5] = { 0, 1, 2, 3, 4 };
        const uint32_t offsets[5] = { at->table, at->constants, at->cbv, at->srv, at->uav };
        for (unsigned i = 0; i < 5; i++) {
            tb_u32(&b, types[i]);
            tb_u32(&b, i + 1);
            tb_u32(&b, offsets[i]);
        }
        tb_u32(&b, 2);
        tb_u32(&b, at->ranges);
        for (uint32_t r = 0; r < 2; r++) {
            tb_u32(&b, r ? 3 : 1);
            tb_u32(&b, r ? 0xFFFFFFFFu : 8);
            tb_u32(&b, 20 + r);
            tb_u32(&b, 30 + r);
            if (version >= 2)
                tb_u32(&b, r ? 0x1 : 0x10004);
            tb_u32(&b, r ? 0xFFFFFFFFu : 40);
        }
        tb_u32(&b, 50);
        tb_u32(&b, 51);
        tb_u32(&b, 52);
        for (uint32_t d = 0; d < 3; d++) {
            tb_u32(&b, 60 + d);
            tb_u32(&b, 70 + d);
            if (version >= 2)
                tb_u32(&b, 2u << d);
        }
    }
    return b;
}

static void check_rts0(uint32_t version, bool samplers_first)
{
    struct layout at;
    struct tbuf rts = build_rts0(version, samplers_first, &at);
    struct tpart parts[] = { { FOURCC("RTS0"), &rts } };
    struct tbuf file = make_container(parts, 1);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    tb_free(&file);
    if (dxbc) {
        const struct sb_dxbc_rts0 *r = dxbc->parts[0].decoded.rts0;
        CHECK_EQ(r->version, version);
        CHECK_EQ(r->parameter_count, 5);
        CHECK_EQ(r->parameters_offset, at.params);
        CHECK_EQ(r->static_samplers_offset, at.samplers);
        CHECK_EQ(r->flags, 0x811);
        const struct sb_dxbc_rts0_parameter *p = r->parameters;
        CHECK_EQ(p[0].parameter_type, SB_DXBC_RTS0_PARAMETER_DESCRIPTOR_TABLE);
        CHECK_EQ(p[0].shader_visibility, 1);
        CHECK_EQ(p[0].table.range_count, 2);
        CHECK_EQ(p[0].table.ranges_offset, at.ranges);
        const struct sb_dxbc_rts0_range *g = p[0].table.ranges;
        CHECK_EQ(g[0].range_type, 1);
        CHECK_EQ(g[0].num_descriptors, 8);
        CHECK_EQ(g[0].base_shader_register, 20);
        CHECK_EQ(g[0].register_space, 30);
        CHECK_EQ(g[0].flags, version >= 2 ? 0x10004 : 0);
        CHECK_EQ(g[0].offset_in_descriptors_from_table_start, 40);
        CHECK_EQ(g[1].range_type, 3);
        CHECK_EQ(g[1].num_descriptors, 0xFFFFFFFFu);
        CHECK_EQ(g[1].flags, version >= 2 ? 1 : 0);
        CHECK_EQ(g[1].offset_in_descriptors_from_table_start, 0xFFFFFFFFu);
        CHECK_EQ(p[1].constants.shader_register, 50);
        CHECK_EQ(p[1].constants.register_space, 51);
        CHECK_EQ(p[1].constants.num_32bit_values, 52);
        for (unsigned d = 0; d < 3; d++) {
            CHECK_EQ(p[2 + d].parameter_type, 2 + d);
            CHECK_EQ(p[2 + d].shader_visibility, 3 + d);
            CHECK_EQ(p[2 + d].descriptor.shader_register, 60 + d);
            CHECK_EQ(p[2 + d].descriptor.register_space, 70 + d);
            CHECK_EQ(p[2 + d].descriptor.flags, version >= 2 ? 2u << d : 0);
        }
        const struct sb_dxbc_rts0_static_sampler *s = r->static_samplers;
        CHECK_EQ(r->static_sampler_count, 2);
        CHECK_STR(sb_dxbc_rts0_filter_name(s[0].filter), "MinMagLinearMipPoint");
        CHECK_STR(sb_dxbc_rts0_filter_name(s[1].filter), "ComparisonAnisotropic");
        CHECK_STR(sb_dxbc_rts0_address_mode_name(s[1].address_w), "MirrorOnce");
        CHECK(s[1].mip_lod_bias == 1.25f);
        CHECK(s[1].min_lod == -2.5f);
        CHECK(s[1].max_lod == 1000.0f);
        CHECK_EQ(s[1].max_anisotropy, 16);
        CHECK_STR(sb_dxbc_rts0_comparison_func_name(s[1].comparison_func), "LessEqual");
        CHECK_STR(sb_dxbc_rts0_border_color_name(s[1].border_color), "OpaqueWhite");
        CHECK_EQ(s[1].shader_register, 11);
        CHECK_EQ(s[1].register_space, 3);
        CHECK_STR(sb_dxbc_rts0_shader_visibility_name(s[1].shader_visibility), "Mesh");
        CHECK_EQ(s[1].flags, version >= 3 ? 3 : 0);
    }
    sb_dxbc_destroy(dxbc);

    /* Malformed variants, each repaired before the next. */
    tb_set_u32(&rts, 0, 4);
    parts_fail(parts, 1, 0, 0, SB_ERROR_BAD_VERSION, __LINE__);
    tb_set_u32(&rts, 0, version);
    tb_set_u32(&rts, 8, (uint32_t)rts.size + 4);
    parts_fail(parts, 1, 0, 8, SB_ERROR_BAD_OFFSET, __LINE__);
    tb_set_u32(&rts, 8, at.params);
    tb_set_u32(&rts, 4, 1000);
    parts_fail(parts, 1, 0, 4, SB_ERROR_BAD_COUNT, __LINE__);
    tb_set_u32(&rts, 4, 5);
    tb_set_u32(&rts, at.params + 12, 5); /* parameter 1: type 5 */
    parts_fail(parts, 1, 0, at.params + 12, SB_ERROR_BAD_VALUE, __LINE__);
    tb_set_u32(&rts, at.params + 12, 1);
    tb_set_u32(&rts, at.params + 24 + 8, (uint32_t)rts.size - 4); /* CBV payload past the end */
    parts_fail(parts, 1, 0, at.params + 24 + 8, SB_ERROR_BAD_COUNT, __LINE__);
    tb_set_u32(&rts, at.params + 24 + 8, at.cbv);
    tb_set_u32(&rts, at.table, 100); /* 100 ranges */
    parts_fail(parts, 1, 0, at.table, SB_ERROR_BAD_COUNT, __LINE__);
    tb_set_u32(&rts, at.table, 2);
    tb_set_u32(&rts, 12, 50);
    parts_fail(parts, 1, 0, 12, SB_ERROR_BAD_COUNT, __LINE__);
    tb_set_u32(&rts, 12, 2);
    rts.size = 20;
    parts_fail(parts, 1, 0, 20, SB_ERROR_TRUNCATED, __LINE__);
    tb_free(&rts);
}

static void test_name_tables(void)
{
    static const struct {
        const char *(*name)(uint32_t);
        uint32_t first, count;
        const char *last;
    } tables[] = {
        { sb_dxbc_rts0_parameter_type_name, 0, 5, "UAV" },
        { sb_dxbc_rts0_shader_visibility_name, 0, 8, "Mesh" },
        { sb_dxbc_rts0_range_type_name, 0, 4, "Sampler" },
        { sb_dxbc_rts0_address_mode_name, 1, 6, "MirrorOnce" },
        { sb_dxbc_rts0_comparison_func_name, 0, 9, "Always" },
        { sb_dxbc_rts0_border_color_name, 0, 5, "OpaqueWhiteUint" },
    };
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        for (uint32_t v = tables[t].first; v < tables[t].count; v++)
            CHECK(tables[t].name(v) != NULL);
        CHECK_STR(tables[t].name(tables[t].count - 1), tables[t].last);
        CHECK(tables[t].name(tables[t].count) == NULL);
    }
    CHECK(sb_dxbc_rts0_address_mode_name(0) == NULL);
    /* Nine base filters times four reductions, every one named. */
    static const uint32_t bases[9] = { 0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15, 0x55 };
    for (uint32_t r = 0; r < 4; r++)
        for (unsigned i = 0; i < 9; i++)
            CHECK(sb_dxbc_rts0_filter_name(bases[i] | (r * 0x80)) != NULL);
    CHECK_STR(sb_dxbc_rts0_filter_name(0x1D5), "MaximumAnisotropic");
    CHECK(sb_dxbc_rts0_filter_name(0x02) == NULL);
    unsigned named = 0;
    for (unsigned bit = 0; bit < 32; bit++)
        named += (sb_dxbc_rts0_root_flag_name(bit) != NULL) +
                 (sb_dxbc_rts0_descriptor_flag_name(bit) != NULL) +
                 (sb_dxbc_rts0_range_flag_name(bit) != NULL) +
                 (sb_dxbc_rts0_sampler_flag_name(bit) != NULL);
    CHECK_EQ(named, 13 + 3 + 5 + 2);
    CHECK_STR(sb_dxbc_rts0_range_flag_name(16), "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS");
    CHECK_STR(sb_dxbc_rts0_descriptor_flag_name(2), "DATA_STATIC_WHILE_SET_AT_EXECUTE");
    CHECK_STR(sb_dxbc_rts0_sampler_flag_name(1), "SAMPLER_FLAG_NON_NORMALIZED_COORDINATES");
    CHECK(sb_dxbc_rts0_root_flag_name(12) == NULL);
}

int main(void)
{
    check_rts0(1, false);
    check_rts0(2, true);
    check_rts0(3, false);
    check_rts0(3, true);
    test_name_tables();
    return test_finish("test_dxbc_dxil_rts0");
}
