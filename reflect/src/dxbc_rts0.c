/* SPDX-License-Identifier: MIT */
/*
 * RTS0, the serialised root signature, versions 1.0 / 1.1 / 1.2
 * (../shared/docs/dxcontainer.md §7).
 *
 * Every block is reached through an offset from the part start (parameter
 * array, each payload, each range array, the sampler array); writers lay
 * them out in one order but the format does not promise it, so nothing
 * here assumes adjacency. Each offset + count is checked against the part
 * before its records are read. Record sizes depend only on the version:
 * root descriptors gain Flags in 1.1, descriptor ranges gain Flags as
 * their 5th field in 1.1 (§7.2: not last, as LLVM's prose claims), static
 * samplers gain Flags in 1.2.
 */
#include "dxbc_private.h"


#define NAME_AT(table, value) \
    ((value) < sizeof(table) / sizeof((table)[0]) ? (table)[value] : NULL)

/* One row per value or bit (§7.2-§7.5); spellings as LLVM's YAML prints them. */
static const char *const parameter_type_names[] = {
    "DescriptorTable", "Constants32Bit", "CBV", "SRV", "UAV",
};
static const char *const visibility_names[] = {
    "All", "Vertex", "Hull", "Domain", "Geometry", "Pixel", "Amplification", "Mesh",
};
static const char *const range_type_names[] = { "SRV", "UAV", "CBV", "Sampler" };
static const char *const address_mode_names[] = {
    NULL, "Wrap", "Mirror", "Clamp", "Border", "MirrorOnce",
};
static const char *const comparison_func_names[] = {
    "None", "Never", "Less", "Equal", "LessEqual", "Greater", "NotEqual", "GreaterEqual",
    "Always",
};
static const char *const border_color_names[] = {
    "TransparentBlack", "OpaqueBlack", "OpaqueWhite", "OpaqueBlackUint", "OpaqueWhiteUint",
};
static const char *const root_flag_names[32] = {
    [0] = "AllowInputAssemblerInputLayout", [1] = "DenyVertexShaderRootAccess",
    [2] = "DenyHullShaderRootAccess", [3] = "DenyDomainShaderRootAccess",
    [4] = "DenyGeometryShaderRootAccess", [5] = "DenyPixelShaderRootAccess",
    [6] = "AllowStreamOutput", [7] = "LocalRootSignature",
    [8] = "DenyAmplificationShaderRootAccess", [9] = "DenyMeshShaderRootAccess",
    [10] = "CBVSRVUAVHeapDirectlyIndexed", [11] = "SamplerHeapDirectlyIndexed",
    [31] = "AllowLowTierReservedHwCbLimit",
};
static const char *const descriptor_flag_names[32] = {
    [1] = "DATA_VOLATILE", [2] = "DATA_STATIC_WHILE_SET_AT_EXECUTE", [3] = "DATA_STATIC",
};
static const char *const range_flag_names[32] = {
    [0] = "DESCRIPTORS_VOLATILE", [1] = "DATA_VOLATILE",
    [2] = "DATA_STATIC_WHILE_SET_AT_EXECUTE", [3] = "DATA_STATIC",
    [16] = "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS",
};
static const char *const sampler_flag_names[32] = {
    [0] = "SAMPLER_FLAG_UINT_BORDER_COLOR", [1] = "SAMPLER_FLAG_NON_NORMALIZED_COORDINATES",
};

/* D3D12_FILTER: nine base filters, each also with the comparison (0x80),
 * minimum (0x100) and maximum (0x180) reductions; one row per value. */
static const struct filter_row {
    uint32_t value;
    const char *name;
} filter_names[] = {
    { 0x000, "MinMagMipPoint" },
    { 0x001, "MinMagPointMipLinear" },
    { 0x004, "MinPointMagLinearMipPoint" },
    { 0x005, "MinPointMagMipLinear" },
    { 0x010, "MinLinearMagMipPoint" },
    { 0x011, "MinLinearMagPointMipLinear" },
    { 0x014, "MinMagLinearMipPoint" },
    { 0x015, "MinMagMipLinear" },
    { 0x055, "Anisotropic" },
    { 0x080, "ComparisonMinMagMipPoint" },
    { 0x081, "ComparisonMinMagPointMipLinear" },
    { 0x084, "ComparisonMinPointMagLinearMipPoint" },
    { 0x085, "ComparisonMinPointMagMipLinear" },
    { 0x090, "ComparisonMinLinearMagMipPoint" },
    { 0x091, "ComparisonMinLinearMagPointMipLinear" },
    { 0x094, "ComparisonMinMagLinearMipPoint" },
    { 0x095, "ComparisonMinMagMipLinear" },
    { 0x0d5, "ComparisonAnisotropic" },
    { 0x100, "MinimumMinMagMipPoint" },
    { 0x101, "MinimumMinMagPointMipLinear" },
    { 0x104, "MinimumMinPointMagLinearMipPoint" },
    { 0x105, "MinimumMinPointMagMipLinear" },
    { 0x110, "MinimumMinLinearMagMipPoint" },
    { 0x111, "MinimumMinLinearMagPointMipLinear" },
    { 0x114, "MinimumMinMagLinearMipPoint" },
    { 0x115, "MinimumMinMagMipLinear" },
    { 0x155, "MinimumAnisotropic" },
    { 0x180, "MaximumMinMagMipPoint" },
    { 0x181, "MaximumMinMagPointMipLinear" },
    { 0x184, "MaximumMinPointMagLinearMipPoint" },
    { 0x185, "MaximumMinPointMagMipLinear" },
    { 0x190, "MaximumMinLinearMagMipPoint" },
    { 0x191, "MaximumMinLinearMagPointMipLinear" },
    { 0x194, "MaximumMinMagLinearMipPoint" },
    { 0x195, "MaximumMinMagMipLinear" },
    { 0x1d5, "MaximumAnisotropic" },
};

const char *sb_dxbc_rts0_parameter_type_name(uint32_t type) { return NAME_AT(parameter_type_names, type); }
const char *sb_dxbc_rts0_shader_visibility_name(uint32_t v) { return NAME_AT(visibility_names, v); }
const char *sb_dxbc_rts0_range_type_name(uint32_t type) { return NAME_AT(range_type_names, type); }
const char *sb_dxbc_rts0_address_mode_name(uint32_t mode) { return NAME_AT(address_mode_names, mode); }
const char *sb_dxbc_rts0_comparison_func_name(uint32_t f) { return NAME_AT(comparison_func_names, f); }
const char *sb_dxbc_rts0_border_color_name(uint32_t c) { return NAME_AT(border_color_names, c); }
const char *sb_dxbc_rts0_root_flag_name(unsigned bit) { return NAME_AT(root_flag_names, bit); }
const char *sb_dxbc_rts0_descriptor_flag_name(unsigned bit) { return NAME_AT(descriptor_flag_names, bit); }
const char *sb_dxbc_rts0_range_flag_name(unsigned bit) { return NAME_AT(range_flag_names, bit); }
const char *sb_dxbc_rts0_sampler_flag_name(unsigned bit) { return NAME_AT(sampler_flag_names, bit); }

const char *sb_dxbc_rts0_filter_name(uint32_t filter)
{
    for (size_t i = 0; i < sizeof(filter_names) / sizeof(filter_names[0]); i++)
        if (filter_names[i].value == filter)
            return filter_names[i].name;
    return NULL;
}

struct rts_parse {
    struct sb_reader *reader;
    struct sb_cursor *data;
    struct sb_dxbc_rts0 *rts;
};

/*
 * A window over `count` records of `record` bytes at part offset `offset`.
 * The offset field and the count field are named separately so the error
 * points at the one that is wrong.
 */
static bool block(struct rts_parse *p, uint32_t offset, size_t offset_field, uint64_t count,
                  size_t count_field, uint32_t record, const char *what, struct sb_cursor *out)
{
    size_t size = sb_cursor_size(p->data);
    if (offset > size)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_OFFSET, offset_field,
                              "RTS0 %s offset %u is past the end of the %zu-byte part", what,
                              offset, size);
    if (count > (size - offset) / record)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_COUNT, count_field,
                              "RTS0 %s: %llu records of %u bytes at offset %u need more than "
                              "the %zu bytes of the part", what, (unsigned long long)count,
                              record, offset, size);
    *out = sb_cursor_window(p->data, offset, count * record, what);
    return sb_cursor_ok(out);
}

static bool read_table(struct rts_parse *p, struct sb_dxbc_rts0_parameter *param,
                       struct sb_cursor *payload)
{
    size_t count_field = payload->pos;
    param->table.range_count = sb_cursor_u32(payload, "RTS0 NumDescriptorRanges");
    size_t offset_field = payload->pos;
    param->table.ranges_offset = sb_cursor_u32(payload, "RTS0 DescriptorRangesOffset");
    if (!sb_cursor_ok(payload))
        return false;
    uint32_t record = p->rts->version >= 2 ? 24 : 20;
    struct sb_cursor ranges;
    if (!block(p, param->table.ranges_offset, offset_field, param->table.range_count,
               count_field, record, "descriptor ranges", &ranges))
        return false;
    struct sb_dxbc_rts0_range *list = sb_reader_alloc(p->reader, param->table.range_count ?
                                                      param->table.range_count : 1, sizeof(*list));
    if (!list)
        return false;
    for (uint32_t i = 0; i < param->table.range_count; i++) {
        struct sb_dxbc_rts0_range *r = &list[i];
        r->range_type = sb_cursor_u32(&ranges, "RTS0 RangeType");
        r->num_descriptors = sb_cursor_u32(&ranges, "RTS0 NumDescriptors");
        r->base_shader_register = sb_cursor_u32(&ranges, "RTS0 BaseShaderRegister");
        r->register_space = sb_cursor_u32(&ranges, "RTS0 RegisterSpace");
        if (record == 24)
            r->flags = sb_cursor_u32(&ranges, "RTS0 range Flags");
        r->offset_in_descriptors_from_table_start =
            sb_cursor_u32(&ranges, "RTS0 OffsetInDescriptorsFromTableStart");
    }
    param->table.ranges = list;
    return sb_cursor_ok(&ranges);
}

static bool read_parameter(struct rts_parse *p, struct sb_cursor *headers,
                           struct sb_dxbc_rts0_parameter *param)
{
    size_t header_pos = headers->pos;
    param->parameter_type = sb_cursor_u32(headers, "RTS0 ParameterType");
    param->shader_visibility = sb_cursor_u32(headers, "RTS0 ShaderVisibility");
    size_t offset_field = headers->pos;
    param->payload_offset = sb_cursor_u32(headers, "RTS0 parameter payload offset");
    if (!sb_cursor_ok(headers))
        return false;
    uint32_t payload_size;
    switch (param->parameter_type) {
    case SB_DXBC_RTS0_PARAMETER_DESCRIPTOR_TABLE: payload_size = 8; break;
    case SB_DXBC_RTS0_PARAMETER_CONSTANTS_32BIT: payload_size = 12; break;
    case SB_DXBC_RTS0_PARAMETER_CBV:
    case SB_DXBC_RTS0_PARAMETER_SRV:
    case SB_DXBC_RTS0_PARAMETER_UAV: payload_size = p->rts->version >= 2 ? 12 : 8; break;
    default:
        return sb_reader_fail(p->reader, SB_ERROR_BAD_VALUE, header_pos,
                              "RTS0 parameter type %u is not one of 0..4",
                              param->parameter_type);
    }
    struct sb_cursor payload;
    if (!block(p, param->payload_offset, offset_field, 1, offset_field, payload_size,
               "parameter payload", &payload))
        return false;
    switch (param->parameter_type) {
    case SB_DXBC_RTS0_PARAMETER_DESCRIPTOR_TABLE:
        return read_table(p, param, &payload);
    case SB_DXBC_RTS0_PARAMETER_CONSTANTS_32BIT:
        param->constants.shader_register = sb_cursor_u32(&payload, "RTS0 ShaderRegister");
        param->constants.register_space = sb_cursor_u32(&payload, "RTS0 RegisterSpace");
        param->constants.num_32bit_values = sb_cursor_u32(&payload, "RTS0 Num32BitValues");
        break;
    default:
        param->descriptor.shader_register = sb_cursor_u32(&payload, "RTS0 ShaderRegister");
        param->descriptor.register_space = sb_cursor_u32(&payload, "RTS0 RegisterSpace");
        if (payload_size == 12)
            param->descriptor.flags = sb_cursor_u32(&payload, "RTS0 descriptor Flags");
        break;
    }
    return sb_cursor_ok(&payload);
}

static bool read_samplers(struct rts_parse *p, size_t count_field, size_t offset_field)
{
    struct sb_dxbc_rts0 *rts = p->rts;
    uint32_t record = rts->version >= 3 ? 56 : 52;
    struct sb_cursor c;
    if (!block(p, rts->static_samplers_offset, offset_field, rts->static_sampler_count,
               count_field, record, "static samplers", &c))
        return false;
    struct sb_dxbc_rts0_static_sampler *list =
        sb_reader_alloc(p->reader, rts->static_sampler_count ? rts->static_sampler_count : 1,
                        sizeof(*list));
    if (!list)
        return false;
    for (uint32_t i = 0; i < rts->static_sampler_count; i++) {
        struct sb_dxbc_rts0_static_sampler *s = &list[i];
        s->filter = sb_cursor_u32(&c, "RTS0 Filter");
        s->address_u = sb_cursor_u32(&c, "RTS0 AddressU");
        s->address_v = sb_cursor_u32(&c, "RTS0 AddressV");
        s->address_w = sb_cursor_u32(&c, "RTS0 AddressW");
        s->mip_lod_bias = sb_cursor_f32(&c, "RTS0 MipLODBias");
        s->max_anisotropy = sb_cursor_u32(&c, "RTS0 MaxAnisotropy");
        s->comparison_func = sb_cursor_u32(&c, "RTS0 ComparisonFunc");
        s->border_color = sb_cursor_u32(&c, "RTS0 BorderColor");
        s->min_lod = sb_cursor_f32(&c, "RTS0 MinLOD");
        s->max_lod = sb_cursor_f32(&c, "RTS0 MaxLOD");
        s->shader_register = sb_cursor_u32(&c, "RTS0 ShaderRegister");
        s->register_space = sb_cursor_u32(&c, "RTS0 RegisterSpace");
        s->shader_visibility = sb_cursor_u32(&c, "RTS0 ShaderVisibility");
        if (record == 56)
            s->flags = sb_cursor_u32(&c, "RTS0 sampler Flags");
    }
    rts->static_samplers = list;
    return sb_cursor_ok(&c);
}

bool sb_dxbc_decode_rts0(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_rts0 *rts = sb_reader_alloc(ctx->reader, 1, sizeof(*rts));
    if (!rts)
        return false;
    struct rts_parse p = { .reader = ctx->reader, .data = data, .rts = rts };
    size_t base = data->begin;
    rts->version = sb_cursor_u32(data, "RTS0 Version");
    rts->parameter_count = sb_cursor_u32(data, "RTS0 NumParameters");
    rts->parameters_offset = sb_cursor_u32(data, "RTS0 ParametersOffset");
    rts->static_sampler_count = sb_cursor_u32(data, "RTS0 NumStaticSamplers");
    rts->static_samplers_offset = sb_cursor_u32(data, "RTS0 StaticSamplersOffset");
    rts->flags = sb_cursor_u32(data, "RTS0 Flags");
    if (!sb_cursor_ok(data))
        return false;
    if (rts->version < 1 || rts->version > 3)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VERSION, base,
                              "RTS0 version %u is not 1 (1.0), 2 (1.1) or 3 (1.2)", rts->version);
    struct sb_cursor headers;
    if (!block(&p, rts->parameters_offset, base + 8, rts->parameter_count, base + 4, 12,
               "root parameters", &headers))
        return false;
    struct sb_dxbc_rts0_parameter *params =
        sb_reader_alloc(ctx->reader, rts->parameter_count ? rts->parameter_count : 1,
                        sizeof(*params));
    if (!params)
        return false;
    for (uint32_t i = 0; i < rts->parameter_count; i++)
        if (!read_parameter(&p, &headers, &params[i]))
            return false;
    rts->parameters = params;
    if (!read_samplers(&p, base + 12, base + 16))
        return false;
    part->decoded.rts0 = rts;
    return true;
}
