/* SPDX-License-Identifier: MIT */
/*
 * The container side of dxil_program_writer.h: dx.* metadata and the SFI0,
 * ISG1/OSG1, PSV0 and DXIL parts from one program description
 * (../shared/docs/dxil.md §1, §4; ../shared/docs/dxcontainer.md §2, §4-§6).
 */
#include "dxil_program_writer.h"

#include <stdio.h>
#include <string.h>

#include "shaderbridge/dxbc_dxil.h"

/* dx.shaderModel's stage names, by shader kind (docs/dxil.md §4.1). */
static const char *const STAGE_NAMES[] = {
    [SB_DXIL_SHADER_KIND_PIXEL] = "ps", [SB_DXIL_SHADER_KIND_VERTEX] = "vs",
    [SB_DXIL_SHADER_KIND_GEOMETRY] = "gs", [SB_DXIL_SHADER_KIND_HULL] = "hs",
    [SB_DXIL_SHADER_KIND_DOMAIN] = "ds", [SB_DXIL_SHADER_KIND_COMPUTE] = "cs",
    [SB_DXIL_SHADER_KIND_MESH] = "ms", [SB_DXIL_SHADER_KIND_AMPLIFICATION] = "as",
};
/* Signature rows a description may use (D3D's 32 input/output registers). */
enum { MAX_ROWS = 32, MAX_ELEMENTS = 16, MAX_RESOURCES = 16 };
/* Input->output table: MaskDwords(32 rows) * 32 rows * 4 components (container §6.1). */
enum { MAX_IO_TABLE_DWORDS = ((MAX_ROWS + 7) >> 3) * MAX_ROWS * 4 };

/* ---- metadata (docs/dxil.md §4) ------------------------------------------ */

static uint32_t md_i8(struct dxil_module *m, int8_t v) { return dm_md_value(m, dm_i8(m, v)); }

/* One element record, 11 fields (docs/dxil.md §4.4). Field 10 is the tag list
 * {3 UsageCompMask, mask}: every column is used (the programs read and write whole
 * elements, as ISG1/OSG1 say too). */
static uint32_t md_element(struct dxil_module *m, uint32_t id, const struct dxil_sig_element *e)
{
    uint32_t index = dm_md_i32(m, (int32_t)e->semantic_index);
    uint32_t usage[2] = { dm_md_i32(m, 3), dm_md_i32(m, (1 << e->cols) - 1) };
    uint32_t ops[11] = {
        dm_md_i32(m, (int32_t)id), dm_md_string(m, e->semantic),
        md_i8(m, (int8_t)e->component_type),
        md_i8(m, (int8_t)e->semantic_kind), dm_md_node(m, &index, 1),
        md_i8(m, (int8_t)e->interpolation), dm_md_i32(m, 1), md_i8(m, (int8_t)e->cols),
        dm_md_i32(m, e->start_row), md_i8(m, 0), dm_md_node(m, usage, 2),
    };
    return dm_md_node(m, ops, 11);
}

static uint32_t md_signature(struct dxil_module *m, const struct dxil_sig_element *e,
                             unsigned count)
{
    if (count == 0)
        return DM_NONE;
    uint32_t ops[MAX_ELEMENTS];
    for (unsigned i = 0; i < count; i++)
        ops[i] = md_element(m, i, &e[i]);
    return dm_md_node(m, ops, count);
}

/* The tag list of an SRV or UAV (docs/dxil.md §4.5): element type, structure stride;
 * DM_NONE (null) when it has neither. */
static uint32_t md_view_tags(struct dxil_module *m, const struct dxil_resource *r)
{
    uint32_t tags[4];
    unsigned n = 0;
    if (r->element_type) {
        tags[n++] = dm_md_i32(m, 0);
        tags[n++] = dm_md_i32(m, (int32_t)r->element_type);
    }
    if (r->struct_stride) {
        tags[n++] = dm_md_i32(m, 1);
        tags[n++] = dm_md_i32(m, (int32_t)r->struct_stride);
    }
    return n ? dm_md_node(m, tags, n) : DM_NONE;
}

/* PSV ResType (dxcontainer.md §6) of a resource. */
static uint32_t psv_resource_type(const struct dxil_resource *r)
{
    bool raw = r->kind == DXIL_KIND_RAW_BUFFER, structured = r->kind == DXIL_KIND_STRUCTURED_BUFFER;
    switch (r->resource_class) {
    case DXIL_CLASS_SAMPLER: return 1;
    case DXIL_CLASS_CBV: return 2;
    case DXIL_CLASS_SRV: return structured ? 5 : raw ? 4 : 3;
    default: return structured ? (r->has_counter ? 9 : 8) : raw ? 7 : 6;
    }
}

/* dx.resources: !{SRVs, UAVs, CBVs, Samplers} (docs/dxil.md §4.5); DM_NONE when empty. */
static uint32_t md_resources(struct dxil_module *m, const struct dxil_program_desc *d)
{
    if (d->resource_count == 0)
        return DM_NONE;
    uint32_t lists[4];
    for (uint8_t cls = 0; cls < 4; cls++) {
        uint32_t records[MAX_RESOURCES];
        unsigned n = 0;
        for (unsigned i = 0; i < d->resource_count; i++) {
            const struct dxil_resource *r = &d->resources[i];
            if (r->resource_class != cls)
                continue;
            uint32_t i32 = dm_type_int(m, 32);
            uint32_t handle_type = dm_type_struct(m, r->type_name, &i32, 1);
            uint32_t variable = dm_undef(m, dm_type_ptr(m, handle_type, 0));
            uint32_t ops[11] = {
                dm_md_i32(m, (int32_t)n), dm_md_value(m, variable),
                dm_md_string(m, ""), dm_md_i32(m, (int32_t)r->space),
                dm_md_i32(m, (int32_t)r->lower_bound), dm_md_i32(m, 1),
            };
            unsigned count;
            if (cls == DXIL_CLASS_UAV) {
                uint32_t no = dm_md_value(m, dm_i1(m, false));
                ops[6] = dm_md_i32(m, (int32_t)r->kind);
                ops[7] = no; /* globally coherent */
                ops[8] = dm_md_value(m, dm_i1(m, r->has_counter));
                ops[9] = no; /* rasterizer ordered */
                ops[10] = md_view_tags(m, r);
                count = 11;
            } else if (cls == DXIL_CLASS_SRV) {
                ops[6] = dm_md_i32(m, (int32_t)r->kind);
                ops[7] = dm_md_i32(m, (int32_t)r->sample_count);
                ops[8] = md_view_tags(m, r);
                count = 9;
            } else if (cls == DXIL_CLASS_SAMPLER) {
                ops[6] = dm_md_i32(m, (int32_t)r->sampler_kind);
                ops[7] = DM_NONE;
                count = 8;
            } else { /* DXIL_CLASS_CBV */
                ops[6] = dm_md_i32(m, (int32_t)r->cbuffer_size);
                ops[7] = DM_NONE;
                count = 8;
            }
            records[n++] = dm_md_node(m, ops, count);
        }
        lists[cls] = n ? dm_md_node(m, records, n) : DM_NONE;
    }
    return dm_md_node(m, lists, 4);
}

static void add_metadata(struct dxil_module *m, const struct dxil_program_desc *d)
{
    uint32_t ident = dm_md_string(m, "shaderbridge tests/common DXIL writer");
    uint32_t ident_node = dm_md_node(m, &ident, 1);
    uint32_t version_ops[2] = { dm_md_i32(m, 1), dm_md_i32(m, d->sm_minor) };
    uint32_t version = dm_md_node(m, version_ops, 2);
    uint32_t valver_ops[2] = { dm_md_i32(m, 1), dm_md_i32(m, 8) };
    uint32_t valver = dm_md_node(m, valver_ops, 2);
    uint32_t sm_ops[3] = { dm_md_string(m, STAGE_NAMES[d->shader_kind]), dm_md_i32(m, 6),
                           dm_md_i32(m, d->sm_minor) };
    uint32_t shader_model = dm_md_node(m, sm_ops, 3);
    uint32_t resources = md_resources(m, d);

    uint32_t in = md_signature(m, d->inputs, d->input_count);
    uint32_t out = md_signature(m, d->outputs, d->output_count);
    uint32_t primitive = md_signature(m, d->primitive_outputs, d->primitive_output_count);
    uint32_t sigs = DM_NONE;
    if (in != DM_NONE || out != DM_NONE || primitive != DM_NONE) {
        uint32_t sig_ops[3] = { in, out, primitive };
        sigs = dm_md_node(m, sig_ops, 3);
    }
    /* Properties: tag 0 shader flags (i64), tag 4 thread-group size (docs §4.2). */
    uint32_t props_ops[4];
    unsigned props_count = 0;
    if (d->shader_flags) {
        props_ops[props_count++] = dm_md_i32(m, 0);
        props_ops[props_count++] = dm_md_value(m, dm_const_int(m, dm_type_int(m, 64),
                                                               (int64_t)d->shader_flags));
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_COMPUTE) {
        uint32_t threads[3];
        for (unsigned i = 0; i < 3; i++)
            threads[i] = dm_md_i32(m, (int32_t)d->num_threads[i]);
        props_ops[props_count++] = dm_md_i32(m, 4);
        props_ops[props_count++] = dm_md_node(m, threads, 3);
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_MESH ||
        d->shader_kind == SB_DXIL_SHADER_KIND_AMPLIFICATION) {
        /* Tag 9 MSState !{!{x,y,z}, maxVertices, maxPrimitives, topology, payload bytes};
         * tag 10 ASState !{!{x,y,z}, payload bytes} (docs/dxil.md §4.2). */
        bool is_mesh = d->shader_kind == SB_DXIL_SHADER_KIND_MESH;
        uint32_t threads[3];
        for (unsigned i = 0; i < 3; i++)
            threads[i] = dm_md_i32(m, (int32_t)d->num_threads[i]);
        uint32_t state[5] = { dm_md_node(m, threads, 3) };
        unsigned n = 1;
        if (is_mesh) {
            state[n++] = dm_md_i32(m, (int32_t)d->max_vertices);
            state[n++] = dm_md_i32(m, (int32_t)d->max_primitives);
            state[n++] = dm_md_i32(m, d->mesh_topology);
        }
        state[n++] = dm_md_i32(m, (int32_t)d->payload_size);
        props_ops[props_count++] = dm_md_i32(m, is_mesh ? 9 : 10);
        props_ops[props_count++] = dm_md_node(m, state, n);
    }
    uint32_t props = props_count ? dm_md_node(m, props_ops, props_count) : DM_NONE;
    uint32_t entry_ops[5] = { dm_md_value(m, d->entry), dm_md_string(m, d->entry_name), sigs,
                              resources, props };
    uint32_t entry = dm_md_node(m, entry_ops, 5);

    dm_md_named(m, "llvm.ident", &ident_node, 1);
    dm_md_named(m, "dx.version", &version, 1);
    dm_md_named(m, "dx.valver", &valver, 1);
    dm_md_named(m, "dx.shaderModel", &shader_model, 1);
    if (resources != DM_NONE)
        dm_md_named(m, "dx.resources", &resources, 1);
    dm_md_named(m, "dx.entryPoints", &entry, 1);
}

/* ---- container parts ------------------------------------------------------ */

/* Signature component type: DXIL's ComponentType -> container §5.2. */
static uint32_t container_component_type(uint8_t dxil)
{
    switch (dxil) {
    case DXIL_COMP_F32: return 3;
    case DXIL_COMP_U32: return 1;
    default: return 0;
    }
}

/* D3D_NAME (container §5.1) of a DXIL semantic kind. */
static uint32_t d3d_system_value(uint8_t kind)
{
    switch (kind) {
    case DXIL_SEM_POSITION: return 1;
    case DXIL_SEM_TARGET: return 64;
    default: return 0;
    }
}

/* ISG1 / OSG1 (container §5). Inputs: every component is read; outputs: none is
 * left unwritten (the test programs use whole elements). */
static struct tbuf signature_part(const struct dxil_sig_element *e, unsigned count, bool input)
{
    struct tbuf b = { 0 };
    tb_u32(&b, count);
    tb_u32(&b, 8);
    uint32_t name_offset = 8 + 32 * count;
    for (unsigned i = 0; i < count; i++) {
        uint8_t mask = (uint8_t)((1u << e[i].cols) - 1);
        tb_u32(&b, 0); /* stream */
        tb_u32(&b, name_offset);
        tb_u32(&b, e[i].semantic_index);
        tb_u32(&b, d3d_system_value(e[i].semantic_kind));
        tb_u32(&b, container_component_type(e[i].component_type));
        tb_u32(&b, e[i].start_row);
        tb_u8(&b, mask);
        tb_u8(&b, input ? mask : 0);
        tb_u16(&b, 0);
        tb_u32(&b, 0); /* default precision */
        name_offset += (uint32_t)strlen(e[i].semantic) + 1;
    }
    for (unsigned i = 0; i < count; i++)
        tb_str(&b, e[i].semantic);
    tb_align4(&b);
    return b;
}

/* PSV0's SigInputVectors / SigOutputVectors: the rows the elements reach. */
static uint8_t vectors(const struct dxil_sig_element *e, unsigned count)
{
    uint8_t rows = 0;
    for (unsigned i = 0; i < count; i++)
        if (e[i].start_row + 1u > rows)
            rows = (uint8_t)(e[i].start_row + 1);
    return rows;
}

/* PSV0 elements (container §6.4); element i's one semantic index is entry
 * first_index + i of the semantic-index table. */
static void psv_elements(struct tbuf *b, const struct dxil_sig_element *e, unsigned count,
                         const uint32_t *name_offsets, uint32_t first_index)
{
    for (unsigned i = 0; i < count; i++) {
        tb_u32(b, name_offsets[i]);
        tb_u32(b, first_index + i);
        tb_u8(b, 1);                         /* rows */
        tb_u8(b, e[i].start_row);
        tb_u8(b, (uint8_t)(e[i].cols | 1u << 6)); /* cols, start column 0, allocated */
        tb_u8(b, e[i].semantic_kind);
        tb_u8(b, (uint8_t)container_component_type(e[i].component_type));
        tb_u8(b, e[i].interpolation);
        tb_u8(b, 0);                         /* no dynamic indexing, stream 0 */
        tb_u8(b, 0);
    }
}

/* Offset of `s` in the PSV string table, appended unless already there (names repeat
 * across the input and output signatures). */
static uint32_t psv_string(struct tbuf *strings, const char *s)
{
    size_t at = 0;
    while (at < strings->size) {
        const char *present = (const char *)strings->data + at;
        if (strcmp(present, s) == 0)
            return (uint32_t)at;
        at += strlen(present) + 1;
    }
    uint32_t offset = (uint32_t)strings->size;
    tb_str(strings, s);
    return offset;
}

/* PSV0 at RuntimeInfo v3 (container §6), resources in the 24-byte form. */
static struct tbuf psv0_part(const struct dxil_program_desc *d)
{
    struct tbuf b = { 0 }, strings = { 0 };
    uint8_t in_vectors = vectors(d->inputs, d->input_count);
    uint8_t out_vectors = vectors(d->outputs, d->output_count);
    tb_u8(&strings, 0); /* offset 0: the empty name of system values */
    uint32_t in_names[MAX_ELEMENTS] = { 0 }, out_names[MAX_ELEMENTS] = { 0 };
    for (unsigned i = 0; i < d->input_count; i++)
        if (d->inputs[i].semantic_kind == DXIL_SEM_ARBITRARY)
            in_names[i] = psv_string(&strings, d->inputs[i].semantic);
    for (unsigned i = 0; i < d->output_count; i++)
        if (d->outputs[i].semantic_kind == DXIL_SEM_ARBITRARY)
            out_names[i] = psv_string(&strings, d->outputs[i].semantic);
    uint32_t entry_name = psv_string(&strings, d->entry_name);
    tb_align4(&strings);

    tb_u32(&b, 52);
    uint8_t stage[16] = { 0 };
    if (d->shader_kind == SB_DXIL_SHADER_KIND_VERTEX)
        for (unsigned i = 0; i < d->output_count; i++)
            stage[0] |= d->outputs[i].semantic_kind == DXIL_SEM_POSITION;
    tb_bytes(&b, stage, 16);
    tb_u32(&b, 0);           /* min wave lanes: unused */
    tb_u32(&b, 0xFFFFFFFFu); /* max wave lanes: unused */
    tb_u8(&b, (uint8_t)d->shader_kind);
    tb_u8(&b, 0);            /* no ViewID */
    tb_u16(&b, 0);
    tb_u8(&b, (uint8_t)d->input_count);
    tb_u8(&b, (uint8_t)d->output_count);
    tb_u8(&b, 0);
    tb_u8(&b, in_vectors);
    tb_u8(&b, out_vectors);
    tb_u8(&b, 0);
    tb_u8(&b, 0);
    tb_u8(&b, 0);
    for (unsigned i = 0; i < 3; i++)
        tb_u32(&b, d->num_threads[i]);
    tb_u32(&b, entry_name);

    tb_u32(&b, d->resource_count);
    if (d->resource_count)
        tb_u32(&b, 24);
    for (unsigned i = 0; i < d->resource_count; i++) {
        const struct dxil_resource *r = &d->resources[i];
        tb_u32(&b, psv_resource_type(r));
        tb_u32(&b, r->space);
        tb_u32(&b, r->lower_bound);
        tb_u32(&b, r->lower_bound);
        tb_u32(&b, r->kind);
        tb_u32(&b, 0);
    }

    tb_u32(&b, (uint32_t)strings.size);
    tb_bytes(&b, strings.data, strings.size);
    tb_u32(&b, d->input_count + d->output_count); /* one semantic index per element */
    for (unsigned i = 0; i < d->input_count; i++)
        tb_u32(&b, d->inputs[i].semantic_index);
    for (unsigned i = 0; i < d->output_count; i++)
        tb_u32(&b, d->outputs[i].semantic_index);
    if (d->input_count || d->output_count) {
        tb_u32(&b, 16);
        psv_elements(&b, d->inputs, d->input_count, in_names, 0);
        psv_elements(&b, d->outputs, d->output_count, out_names, d->input_count);
    }
    /* Input -> output table: one mask of the output components per input component. */
    if (in_vectors && out_vectors) {
        uint32_t mask_dwords = (out_vectors + 7u) >> 3;
        uint32_t dwords = mask_dwords * in_vectors * 4u;
        uint32_t table[MAX_IO_TABLE_DWORDS] = { 0 };
        for (unsigned i = 0; i < d->dependency_count; i++) {
            const struct dxil_io_dependency *dep = &d->dependencies[i];
            uint32_t word = dep->input * mask_dwords + dep->output / 32u;
            if (word < dwords)
                table[word] |= 1u << (dep->output % 32u);
        }
        for (uint32_t i = 0; i < dwords; i++)
            tb_u32(&b, table[i]);
    }
    tb_free(&strings);
    return b;
}

/* The DXIL part: 24-byte program header, then the bitcode (docs/dxil.md §1.1). */
static struct tbuf dxil_part(const struct dxil_program_desc *d, const struct tbuf *bitcode)
{
    struct tbuf b = { 0 };
    tb_u8(&b, (uint8_t)(0x60 | d->sm_minor));
    tb_u8(&b, 0);
    tb_u16(&b, d->shader_kind);
    tb_u32(&b, (uint32_t)(6 + (bitcode->size + 3) / 4));
    tb_bytes(&b, "DXIL", 4);
    tb_u8(&b, d->sm_minor); /* DXIL 1.minor */
    tb_u8(&b, 1);
    tb_u16(&b, 0);
    tb_u32(&b, 16);
    tb_u32(&b, (uint32_t)bitcode->size);
    tb_bytes(&b, bitcode->data, bitcode->size);
    tb_align4(&b);
    return b;
}

/* What the writer covers: vertex, pixel and compute programs, element rows below 32,
 * at most 16 elements per signature and 16 resources of the four classes. */
static bool description_ok(const struct dxil_program_desc *d)
{
    if (d->shader_kind != SB_DXIL_SHADER_KIND_PIXEL &&
        d->shader_kind != SB_DXIL_SHADER_KIND_VERTEX &&
        d->shader_kind != SB_DXIL_SHADER_KIND_COMPUTE &&
        d->shader_kind != SB_DXIL_SHADER_KIND_MESH &&
        d->shader_kind != SB_DXIL_SHADER_KIND_AMPLIFICATION)
        return false;
    if (d->primitive_output_count > MAX_ELEMENTS ||
        (d->primitive_output_count && d->shader_kind != SB_DXIL_SHADER_KIND_MESH))
        return false;
    for (unsigned i = 0; i < d->primitive_output_count; i++)
        if (d->primitive_outputs[i].start_row >= MAX_ROWS || d->primitive_outputs[i].cols < 1 ||
            d->primitive_outputs[i].cols > 4)
            return false;
    if (d->input_count > MAX_ELEMENTS || d->output_count > MAX_ELEMENTS ||
        d->resource_count > MAX_RESOURCES)
        return false;
    for (unsigned i = 0; i < d->input_count; i++)
        if (d->inputs[i].start_row >= MAX_ROWS || d->inputs[i].cols < 1 || d->inputs[i].cols > 4)
            return false;
    for (unsigned i = 0; i < d->output_count; i++)
        if (d->outputs[i].start_row >= MAX_ROWS || d->outputs[i].cols < 1 ||
            d->outputs[i].cols > 4)
            return false;
    for (unsigned i = 0; i < d->resource_count; i++)
        if (d->resources[i].resource_class > DXIL_CLASS_SAMPLER)
            return false;
    return true;
}

bool dxil_program_write(struct dxil_module *m, const struct dxil_program_desc *d,
                        struct tbuf *out)
{
    if (!description_ok(d)) {
        fprintf(stderr, "dxil program writer: unsupported description\n");
        return false;
    }
    add_metadata(m, d);
    struct tbuf bitcode = { 0 };
    if (!dm_write(m, &bitcode)) {
        tb_free(&bitcode);
        return false;
    }
    struct tbuf sfi0 = { 0 };
    for (unsigned i = 0; i < 8; i++)
        tb_u8(&sfi0, 0); /* no optional feature needed */
    struct tbuf isg1 = signature_part(d->inputs, d->input_count, true);
    struct tbuf osg1 = signature_part(d->outputs, d->output_count, false);
    struct tbuf psv0 = psv0_part(d);
    struct tbuf dxil = dxil_part(d, &bitcode);
    const struct tpart parts[] = {
        { DXIL_FOURCC("SFI0"), &sfi0 }, { DXIL_FOURCC("ISG1"), &isg1 },
        { DXIL_FOURCC("OSG1"), &osg1 }, { DXIL_FOURCC("PSV0"), &psv0 },
        { DXIL_FOURCC("DXIL"), &dxil },
    };
    /* Mesh and amplification programs: SFI0 and DXIL only (the PSV0 written here is the
     * vs/ps/cs RuntimeInfo; the DXIL front end reads the metadata). */
    bool mesh_kind = d->shader_kind == SB_DXIL_SHADER_KIND_MESH ||
                     d->shader_kind == SB_DXIL_SHADER_KIND_AMPLIFICATION;
    const struct tpart mesh_parts[] = { parts[0], parts[4] };
    struct tbuf container = mesh_kind ? make_container(mesh_parts, 2) : make_container(parts, 5);
    tb_bytes(out, container.data, container.size);
    tb_free(&container);
    tb_free(&sfi0);
    tb_free(&isg1);
    tb_free(&osg1);
    tb_free(&psv0);
    tb_free(&dxil);
    tb_free(&bitcode);
    return true;
}
