/* SPDX-License-Identifier: MIT */
/*
 * PSV0, pipeline state validation (../shared/docs/dxcontainer.md §6).
 *
 * The part is versioned by the sizes it declares, not by a number: the
 * RuntimeInfo size picks the layout (v0..v4), the bind-info size picks the
 * resource record (16 or 24 bytes) and the element size the signature
 * record. Each record is read through a window of its declared size, so a
 * newer producer's longer records are read with the largest layout we know
 * and their tails skipped.
 *
 * The tables after the signature elements carry no sizes at all: their
 * lengths follow from the vector counts in RuntimeInfo and from the shader
 * stage (§6.1). The stage-specific fields are interpreted by the DXIL
 * program's shader kind (decoded before this part), else by the v1
 * ShaderStage byte; with neither, the union is kept raw. Bytes left after
 * the last table are allowed (yaml2obj pads parts, §15) and counted.
 */
#include "dxbc_private.h"

#include <string.h>

/* One row per value (§6.3, §6.4, §5.2); the array index is the value. */
static const char *const resource_type_names[] = {
    "Invalid", "Sampler", "CBV", "SRVTyped", "SRVRaw", "SRVStructured", "UAVTyped", "UAVRaw",
    "UAVStructured", "UAVStructuredWithCounter",
};
static const char *const resource_kind_names[] = {
    "Invalid", "Texture1D", "Texture2D", "Texture2DMS", "Texture3D", "TextureCube",
    "Texture1DArray", "Texture2DArray", "Texture2DMSArray", "TextureCubeArray", "TypedBuffer",
    "RawBuffer", "StructuredBuffer", "CBuffer", "Sampler", "TBuffer", "RTAccelerationStructure",
    "FeedbackTexture2D", "FeedbackTexture2DArray",
};
/* DXC numbering: Invalid is 31 (LLVM's .def wrongly repeats 30, §6.4). */
static const char *const semantic_kind_names[] = {
    "Arbitrary", "VertexID", "InstanceID", "Position", "RenderTargetArrayIndex",
    "ViewPortArrayIndex", "ClipDistance", "CullDistance", "OutputControlPointID",
    "DomainLocation", "PrimitiveID", "GSInstanceID", "SampleIndex", "IsFrontFace", "Coverage",
    "InnerCoverage", "Target", "Depth", "DepthLessEqual", "DepthGreaterEqual", "StencilRef",
    "DispatchThreadID", "GroupID", "GroupIndex", "GroupThreadID", "TessFactor",
    "InsideTessFactor", "ViewID", "Barycentrics", "ShadingRate", "CullPrimitive", "Invalid",
};
static const char *const interpolation_mode_names[] = {
    "Undefined", "Constant", "Linear", "LinearCentroid", "LinearNoperspective",
    "LinearNoperspectiveCentroid", "LinearSample", "LinearNoperspectiveSample", "Invalid",
};
static const char *const stage_layout_names[] = {
    "raw", "none", "vertex", "hull", "domain", "geometry", "pixel", "mesh", "amplification",
};

#define NAME_AT(table, value) \
    ((value) < sizeof(table) / sizeof((table)[0]) ? (table)[value] : NULL)

const char *sb_dxbc_psv0_resource_type_name(uint32_t type) { return NAME_AT(resource_type_names, type); }
const char *sb_dxbc_psv0_resource_kind_name(uint32_t kind) { return NAME_AT(resource_kind_names, kind); }
const char *sb_dxbc_psv0_semantic_kind_name(uint32_t kind) { return NAME_AT(semantic_kind_names, kind); }
const char *sb_dxbc_psv0_interpolation_mode_name(uint32_t mode)
{
    return NAME_AT(interpolation_mode_names, mode);
}
const char *sb_dxbc_psv0_stage_layout_name(enum sb_dxbc_psv0_stage_layout layout)
{
    return NAME_AT(stage_layout_names, (uint32_t)layout);
}

struct psv_parse {
    struct sb_reader *reader;
    struct sb_cursor *data;
    struct sb_dxbc_psv0 *psv;
    struct sb_cursor strings; /* window over the string table */
};

static enum sb_dxbc_psv0_stage_layout layout_for_kind(uint32_t kind)
{
    switch (kind) {
    case SB_DXIL_SHADER_KIND_PIXEL: return SB_DXBC_PSV0_STAGE_PIXEL;
    case SB_DXIL_SHADER_KIND_VERTEX: return SB_DXBC_PSV0_STAGE_VERTEX;
    case SB_DXIL_SHADER_KIND_GEOMETRY: return SB_DXBC_PSV0_STAGE_GEOMETRY;
    case SB_DXIL_SHADER_KIND_HULL: return SB_DXBC_PSV0_STAGE_HULL;
    case SB_DXIL_SHADER_KIND_DOMAIN: return SB_DXBC_PSV0_STAGE_DOMAIN;
    case SB_DXIL_SHADER_KIND_MESH: return SB_DXBC_PSV0_STAGE_MESH;
    case SB_DXIL_SHADER_KIND_AMPLIFICATION: return SB_DXBC_PSV0_STAGE_AMPLIFICATION;
    case SB_DXIL_SHADER_KIND_COMPUTE: case SB_DXIL_SHADER_KIND_LIBRARY:
    case SB_DXIL_SHADER_KIND_RAY_GENERATION: case SB_DXIL_SHADER_KIND_INTERSECTION:
    case SB_DXIL_SHADER_KIND_ANY_HIT: case SB_DXIL_SHADER_KIND_CLOSEST_HIT:
    case SB_DXIL_SHADER_KIND_MISS: case SB_DXIL_SHADER_KIND_CALLABLE:
    case SB_DXIL_SHADER_KIND_NODE:
        return SB_DXBC_PSV0_STAGE_NONE;
    default: return SB_DXBC_PSV0_STAGE_RAW;
    }
}

/* The union's bytes are already bounds-checked (a 16-byte array). */
static void interpret_stage(struct sb_dxbc_psv0_runtime_info *info)
{
    const uint8_t *u = info->stage_raw;
    union sb_dxbc_psv0_stage_info *s = &info->stage;
    switch (info->stage_layout) {
    case SB_DXBC_PSV0_STAGE_VERTEX:
        s->vs.output_position_present = u[0];
        break;
    case SB_DXBC_PSV0_STAGE_HULL:
        s->hs.input_control_point_count = sb_load_u32(u);
        s->hs.output_control_point_count = sb_load_u32(u + 4);
        s->hs.tessellator_domain = sb_load_u32(u + 8);
        s->hs.tessellator_output_primitive = sb_load_u32(u + 12);
        break;
    case SB_DXBC_PSV0_STAGE_DOMAIN:
        s->ds.input_control_point_count = sb_load_u32(u);
        s->ds.output_position_present = u[4];
        s->ds.tessellator_domain = sb_load_u32(u + 8);
        break;
    case SB_DXBC_PSV0_STAGE_GEOMETRY:
        s->gs.input_primitive = sb_load_u32(u);
        s->gs.output_topology = sb_load_u32(u + 4);
        s->gs.output_stream_mask = sb_load_u32(u + 8);
        s->gs.output_position_present = u[12];
        break;
    case SB_DXBC_PSV0_STAGE_PIXEL:
        s->ps.depth_output = u[0];
        s->ps.sample_frequency = u[1];
        break;
    case SB_DXBC_PSV0_STAGE_MESH:
        s->ms.group_shared_bytes_used = sb_load_u32(u);
        s->ms.group_shared_bytes_dependent_on_view_id = sb_load_u32(u + 4);
        s->ms.payload_size_in_bytes = sb_load_u32(u + 8);
        s->ms.max_output_vertices = sb_load_u16(u + 12);
        s->ms.max_output_primitives = sb_load_u16(u + 14);
        break;
    case SB_DXBC_PSV0_STAGE_AMPLIFICATION:
        s->as.payload_size_in_bytes = sb_load_u32(u);
        break;
    default:
        break;
    }
}

static bool read_runtime_info(struct psv_parse *p, const struct sb_dxbc_program *program)
{
    struct sb_dxbc_psv0_runtime_info *info = &p->psv->info;
    size_t size_field = p->data->pos;
    info->size = sb_cursor_u32(p->data, "PSV0 RuntimeInfo size");
    if (!sb_cursor_ok(p->data))
        return false;
    if (info->size == 0) {
        /* An empty record (yaml2obj writes one when the YAML omits it): nothing to
         * decode, and without a version there are no string or element tables. */
        sb_reader_warn(p->reader, size_field, "PSV0 RuntimeInfo is empty (size 0)");
        info->version = 0;
        info->stage_kind = program ? program->shader_kind : SB_DXIL_SHADER_KIND_INVALID;
        info->stage_layout = layout_for_kind(info->stage_kind);
        return true;
    }
    if (info->size < SB_DXBC_PSV0_RUNTIME_INFO_V0_SIZE)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_SIZE, size_field,
                              "PSV0 RuntimeInfo size %u is below the v0 size %u", info->size,
                              SB_DXBC_PSV0_RUNTIME_INFO_V0_SIZE);
    if (!sb_cursor_need(p->data, info->size, "PSV0 RuntimeInfo"))
        return false;
    struct sb_cursor rt = sb_cursor_window(p->data, sb_cursor_tell(p->data), info->size,
                                           "PSV0 RuntimeInfo");
    sb_cursor_skip(p->data, info->size, "PSV0 RuntimeInfo");
    uint32_t s = info->size;
    info->version = s >= SB_DXBC_PSV0_RUNTIME_INFO_V4_SIZE   ? 4
                    : s >= SB_DXBC_PSV0_RUNTIME_INFO_V3_SIZE ? 3
                    : s >= SB_DXBC_PSV0_RUNTIME_INFO_V2_SIZE ? 2
                    : s >= SB_DXBC_PSV0_RUNTIME_INFO_V1_SIZE ? 1 : 0;
    const uint8_t *raw = sb_cursor_bytes(&rt, 16, "PSV0 stage info");
    if (raw)
        memcpy(info->stage_raw, raw, 16);
    info->min_wave_lane_count = sb_cursor_u32(&rt, "PSV0 MinimumWaveLaneCount");
    info->max_wave_lane_count = sb_cursor_u32(&rt, "PSV0 MaximumWaveLaneCount");
    size_t stage_field = rt.pos;
    if (info->version >= 1) {
        info->shader_stage = sb_cursor_u8(&rt, "PSV0 ShaderStage");
        info->uses_view_id = sb_cursor_u8(&rt, "PSV0 UsesViewID");
        info->stage_union1_raw = sb_cursor_u16(&rt, "PSV0 stage union");
        info->sig_input_elements = sb_cursor_u8(&rt, "PSV0 SigInputElements");
        info->sig_output_elements = sb_cursor_u8(&rt, "PSV0 SigOutputElements");
        info->sig_patch_const_or_prim_elements = sb_cursor_u8(&rt, "PSV0 SigPatchConstOrPrimElements");
        info->sig_input_vectors = sb_cursor_u8(&rt, "PSV0 SigInputVectors");
        for (unsigned i = 0; i < 4; i++)
            info->sig_output_vectors[i] = sb_cursor_u8(&rt, "PSV0 SigOutputVectors");
    }
    if (info->version >= 2) {
        info->num_threads_x = sb_cursor_u32(&rt, "PSV0 NumThreadsX");
        info->num_threads_y = sb_cursor_u32(&rt, "PSV0 NumThreadsY");
        info->num_threads_z = sb_cursor_u32(&rt, "PSV0 NumThreadsZ");
    }
    if (info->version >= 3)
        info->entry_function_name_offset = sb_cursor_u32(&rt, "PSV0 EntryFunctionName");
    if (info->version >= 4)
        info->num_bytes_group_shared_memory = sb_cursor_u32(&rt, "PSV0 NumBytesGroupSharedMemory");
    if (!sb_cursor_ok(&rt))
        return false;

    if (program) {
        info->stage_kind = program->shader_kind;
        if (info->version >= 1 && info->shader_stage != program->shader_kind)
            sb_reader_warn(p->reader, stage_field,
                           "PSV0 ShaderStage %u differs from the DXIL shader kind %u; the "
                           "DXIL kind is used", info->shader_stage, program->shader_kind);
    } else {
        info->stage_kind = info->version >= 1 ? info->shader_stage : SB_DXIL_SHADER_KIND_INVALID;
    }
    info->stage_layout = layout_for_kind(info->stage_kind);
    interpret_stage(info);
    switch (info->stage_kind) {
    case SB_DXIL_SHADER_KIND_GEOMETRY:
        info->max_vertex_count = info->stage_union1_raw;
        break;
    case SB_DXIL_SHADER_KIND_MESH:
        info->mesh_output_topology = (uint8_t)(info->stage_union1_raw >> 8);
        info->sig_patch_const_or_prim_vectors = (uint8_t)info->stage_union1_raw;
        break;
    case SB_DXIL_SHADER_KIND_HULL:
    case SB_DXIL_SHADER_KIND_DOMAIN:
        info->sig_patch_const_or_prim_vectors = (uint8_t)info->stage_union1_raw;
        break;
    default:
        break;
    }
    return true;
}

static bool read_resources(struct psv_parse *p)
{
    struct sb_dxbc_psv0 *psv = p->psv;
    psv->resource_count = sb_cursor_u32(p->data, "PSV0 resource count");
    psv->resource_stride = psv->info.version >= 2 ? SB_DXBC_PSV0_RESOURCE_V2_SIZE
                                                  : SB_DXBC_PSV0_RESOURCE_V0_SIZE;
    if (!sb_cursor_ok(p->data) || psv->resource_count == 0)
        return sb_cursor_ok(p->data);
    size_t stride_field = p->data->pos;
    psv->resource_stride = sb_cursor_u32(p->data, "PSV0 resource bind-info size");
    psv->resource_stride_stored = true;
    if (!sb_cursor_ok(p->data))
        return false;
    if (psv->resource_stride < SB_DXBC_PSV0_RESOURCE_V0_SIZE)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_SIZE, stride_field,
                              "PSV0 resource bind-info size %u is below the v0 size %u",
                              psv->resource_stride, SB_DXBC_PSV0_RESOURCE_V0_SIZE);
    if (!sb_cursor_fits(p->data, psv->resource_count, psv->resource_stride, "PSV0 resources"))
        return false;
    struct sb_dxbc_psv0_resource *res = sb_reader_alloc(p->reader, psv->resource_count,
                                                        sizeof(*res));
    if (!res)
        return false;
    for (uint32_t i = 0; i < psv->resource_count; i++) {
        struct sb_cursor rec = sb_cursor_window(p->data, sb_cursor_tell(p->data),
                                                psv->resource_stride, "PSV0 resource");
        sb_cursor_skip(p->data, psv->resource_stride, "PSV0 resource");
        res[i].type = sb_cursor_u32(&rec, "PSV0 resource type");
        res[i].space = sb_cursor_u32(&rec, "PSV0 resource space");
        res[i].lower_bound = sb_cursor_u32(&rec, "PSV0 resource lower bound");
        res[i].upper_bound = sb_cursor_u32(&rec, "PSV0 resource upper bound");
        if (psv->resource_stride >= SB_DXBC_PSV0_RESOURCE_V2_SIZE) {
            res[i].kind = sb_cursor_u32(&rec, "PSV0 resource kind");
            res[i].flags = sb_cursor_u32(&rec, "PSV0 resource flags");
        }
    }
    psv->resources = res;
    return sb_cursor_ok(p->data);
}

/* A string-table string; offset 0 of an empty table reads as "". */
static const char *table_string(struct psv_parse *p, uint32_t offset, size_t field_pos,
                                const char *field)
{
    if (p->psv->string_table_size == 0 && offset == 0)
        return "";
    if (offset >= p->psv->string_table_size) {
        sb_reader_fail(p->reader, SB_ERROR_BAD_OFFSET, field_pos,
                       "%s: string offset %u is outside the %u-byte PSV0 string table", field,
                       offset, p->psv->string_table_size);
        return NULL;
    }
    return sb_cursor_string_at(&p->strings, offset, field);
}

static bool read_string_and_index_tables(struct psv_parse *p)
{
    struct sb_dxbc_psv0 *psv = p->psv;
    size_t size_field = p->data->pos;
    psv->string_table_size = sb_cursor_u32(p->data, "PSV0 string table size");
    if (!sb_cursor_ok(p->data))
        return false;
    if (psv->string_table_size % 4)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_SIZE, size_field,
                              "PSV0 string table size %u is not a multiple of 4",
                              psv->string_table_size);
    if (!sb_cursor_need(p->data, psv->string_table_size, "PSV0 string table"))
        return false;
    p->strings = sb_cursor_window(p->data, sb_cursor_tell(p->data), psv->string_table_size,
                                  "PSV0 string table");
    psv->string_table = (const char *)sb_cursor_bytes(p->data, psv->string_table_size,
                                                      "PSV0 string table");
    if (psv->string_table_size && psv->string_table[psv->string_table_size - 1] != 0)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_STRING, p->data->pos - 1,
                              "PSV0 string table of %u bytes does not end with a NUL byte",
                              psv->string_table_size);

    psv->semantic_index_count = sb_cursor_u32(p->data, "PSV0 semantic index count");
    if (!sb_cursor_fits(p->data, psv->semantic_index_count, 4, "PSV0 semantic index table"))
        return false;
    uint32_t *indexes = sb_reader_alloc(p->reader, psv->semantic_index_count ? psv->semantic_index_count : 1,
                                        sizeof(*indexes));
    if (!indexes)
        return false;
    for (uint32_t i = 0; i < psv->semantic_index_count; i++)
        indexes[i] = sb_cursor_u32(p->data, "PSV0 semantic index");
    psv->semantic_index_table = indexes;
    return sb_cursor_ok(p->data);
}

static bool read_element(struct psv_parse *p, struct sb_dxbc_psv0_element *e)
{
    struct sb_cursor rec = sb_cursor_window(p->data, sb_cursor_tell(p->data),
                                            p->psv->element_size, "PSV0 signature element");
    sb_cursor_skip(p->data, p->psv->element_size, "PSV0 signature element");
    size_t at = rec.begin;
    e->name_offset = sb_cursor_u32(&rec, "PSV0 element name");
    e->semantic_indexes_offset = sb_cursor_u32(&rec, "PSV0 element semantic indexes");
    e->rows = sb_cursor_u8(&rec, "PSV0 element rows");
    e->start_row = sb_cursor_u8(&rec, "PSV0 element start row");
    uint8_t cols = sb_cursor_u8(&rec, "PSV0 element columns");
    e->semantic_kind = sb_cursor_u8(&rec, "PSV0 element semantic kind");
    e->component_type = sb_cursor_u8(&rec, "PSV0 element component type");
    e->interpolation_mode = sb_cursor_u8(&rec, "PSV0 element interpolation mode");
    uint8_t dyn = sb_cursor_u8(&rec, "PSV0 element dynamic mask and stream");
    if (!sb_cursor_ok(&rec))
        return false;
    e->cols = cols & 0xf;
    e->start_col = (cols >> 4) & 0x3;
    e->allocated = (cols >> 6) & 1;
    e->dynamic_index_mask = dyn & 0xf;
    e->output_stream = (dyn >> 4) & 0x3;
    e->name = table_string(p, e->name_offset, at, "PSV0 element name");
    if (!e->name)
        return false;
    uint64_t end = (uint64_t)e->semantic_indexes_offset + e->rows;
    if (end > p->psv->semantic_index_count)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_OFFSET, at + 4,
                              "PSV0 element semantic indexes %u..%llu leave the %u-entry "
                              "semantic index table", e->semantic_indexes_offset,
                              (unsigned long long)end, p->psv->semantic_index_count);
    e->semantic_indexes = p->psv->semantic_index_table + e->semantic_indexes_offset;
    return true;
}

static bool read_element_list(struct psv_parse *p, uint32_t count,
                              const struct sb_dxbc_psv0_element **out)
{
    struct sb_dxbc_psv0_element *list = sb_reader_alloc(p->reader, count ? count : 1, sizeof(*list));
    if (!list)
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (!read_element(p, &list[i]))
            return false;
    *out = list;
    return true;
}

static bool read_elements(struct psv_parse *p)
{
    struct sb_dxbc_psv0 *psv = p->psv;
    const struct sb_dxbc_psv0_runtime_info *info = &psv->info;
    psv->input_element_count = info->sig_input_elements;
    psv->output_element_count = info->sig_output_elements;
    psv->patch_const_or_prim_element_count = info->sig_patch_const_or_prim_elements;
    uint32_t total = psv->input_element_count + psv->output_element_count +
                     psv->patch_const_or_prim_element_count;
    if (total == 0)
        return true;
    size_t size_field = p->data->pos;
    psv->element_size = sb_cursor_u32(p->data, "PSV0 signature element size");
    if (!sb_cursor_ok(p->data))
        return false;
    if (psv->element_size < SB_DXBC_PSV0_ELEMENT_SIZE)
        return sb_reader_fail(p->reader, SB_ERROR_BAD_SIZE, size_field,
                              "PSV0 signature element size %u is below %u", psv->element_size,
                              SB_DXBC_PSV0_ELEMENT_SIZE);
    if (!sb_cursor_fits(p->data, total, psv->element_size, "PSV0 signature elements"))
        return false;
    return read_element_list(p, psv->input_element_count, &psv->input_elements) &&
           read_element_list(p, psv->output_element_count, &psv->output_elements) &&
           read_element_list(p, psv->patch_const_or_prim_element_count,
                             &psv->patch_const_or_prim_elements);
}

static bool read_bitset(struct psv_parse *p, uint64_t dword_count, struct sb_dxbc_psv0_bitset *set,
                        const char *field)
{
    if (!sb_cursor_fits(p->data, dword_count, 4, field))
        return false;
    uint32_t *dwords = sb_reader_alloc(p->reader, dword_count ? (size_t)dword_count : 1,
                                       sizeof(*dwords));
    if (!dwords)
        return false;
    for (uint64_t i = 0; i < dword_count; i++)
        dwords[i] = sb_cursor_u32(p->data, field);
    set->present = true;
    set->dword_count = (uint32_t)dword_count;
    set->dwords = dwords;
    return sb_cursor_ok(p->data);
}

static uint32_t mask_dwords(uint32_t vectors)
{
    return (vectors + 7) >> 3;
}

static uint64_t io_table_dwords(uint32_t in_vectors, uint32_t out_vectors)
{
    return (uint64_t)mask_dwords(out_vectors) * in_vectors * 4;
}

/* The order and the presence rules of §6.1 steps 4-7. */
static bool read_dependency_tables(struct psv_parse *p)
{
    struct sb_dxbc_psv0 *psv = p->psv;
    const struct sb_dxbc_psv0_runtime_info *info = &psv->info;
    uint32_t kind = info->stage_kind;
    unsigned streams = kind == SB_DXIL_SHADER_KIND_GEOMETRY ? 4 : 1;
    uint32_t inputs = info->sig_input_vectors;
    uint32_t patch = info->sig_patch_const_or_prim_vectors;
    if (info->uses_view_id) {
        for (unsigned i = 0; i < streams; i++)
            if (info->sig_output_vectors[i] &&
                !read_bitset(p, mask_dwords(info->sig_output_vectors[i]),
                             &psv->view_id_output_masks[i], "PSV0 ViewID output mask"))
                return false;
        if ((kind == SB_DXIL_SHADER_KIND_HULL || kind == SB_DXIL_SHADER_KIND_MESH) && patch &&
            !read_bitset(p, mask_dwords(patch), &psv->view_id_patch_const_or_prim_mask,
                         "PSV0 ViewID patch-constant mask"))
            return false;
    }
    if (kind != SB_DXIL_SHADER_KIND_MESH)
        for (unsigned i = 0; i < streams; i++)
            if (inputs && info->sig_output_vectors[i] &&
                !read_bitset(p, io_table_dwords(inputs, info->sig_output_vectors[i]),
                             &psv->input_to_output[i], "PSV0 input-to-output table"))
                return false;
    if (kind == SB_DXIL_SHADER_KIND_HULL && patch && inputs &&
        !read_bitset(p, io_table_dwords(inputs, patch), &psv->input_to_patch_const,
                     "PSV0 input-to-patch-constant table"))
        return false;
    if (kind == SB_DXIL_SHADER_KIND_DOMAIN && info->sig_output_vectors[0] && patch &&
        !read_bitset(p, io_table_dwords(patch, info->sig_output_vectors[0]),
                     &psv->patch_const_to_output, "PSV0 patch-constant-to-output table"))
        return false;
    return true;
}

bool sb_dxbc_decode_psv0(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_psv0 *psv = sb_reader_alloc(ctx->reader, 1, sizeof(*psv));
    if (!psv)
        return false;
    struct psv_parse p = { .reader = ctx->reader, .data = data, .psv = psv };
    if (!read_runtime_info(&p, ctx->dxil_program) || !read_resources(&p))
        return false;
    if (psv->info.version >= 1) {
        if (!read_string_and_index_tables(&p) || !read_elements(&p))
            return false;
        if (psv->info.version >= 3) {
            psv->info.entry_function_name =
                table_string(&p, psv->info.entry_function_name_offset, data->begin + 4 + 48,
                             "PSV0 EntryFunctionName");
            if (!psv->info.entry_function_name)
                return false;
        }
        if (!read_dependency_tables(&p))
            return false;
    }
    psv->trailing_bytes = (uint32_t)sb_cursor_left(data);
    part->decoded.psv0 = psv;
    return true;
}
