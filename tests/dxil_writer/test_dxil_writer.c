/* SPDX-License-Identifier: MIT */
/*
 * Tests of the DXIL writer in tests/common (dxil_bitcode_writer.h,
 * dxil_module_writer.h, dxil_program_writer.h, dxil_programs.h).
 *
 *   test_dxil_writer bitstream        the bit packing, against bytes computed by hand
 *                                     (../shared/docs/dxil.md §2.1-§2.2, §8.2)
 *   test_dxil_writer module           a program built wrong makes dm_write() fail
 *   test_dxil_writer container        every program through our own container reader:
 *                                     checksum, DXIL header, ISG1/OSG1, PSV0
 *   test_dxil_writer llvm-dis TOOL DIR  every program's bitcode through LLVM's
 *                                     disassembler (llvm-dis-14, an oracle only: never
 *                                     linked); the function body and the metadata lines
 *                                     must equal the listings below. Exit 77 (SKIPPED)
 *                                     when TOOL is empty (not installed).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxil_bitcode_writer.h"
#include "dxil_module_writer.h"
#include "dxil_programs.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/dxbc_fxc.h"

static void check_bytes(const struct bw *w, size_t from, const uint8_t *want, size_t count,
                        const char *what)
{
    for (size_t i = 0; i < count; i++)
        CHECK(from + i < w->capacity && w->data[from + i] == want[i],
              "%s: byte %zu is 0x%02x, expected 0x%02x", what, from + i,
              from + i < w->capacity ? w->data[from + i] : 0, want[i]);
}

static void test_bitstream(void)
{
    struct bw w;

    /* fixed3 5 = 101, then vbr6 100 = chunks 36 (100100, "more") and 3 (000011). */
    bw_begin(&w);
    bw_fixed(&w, 5, 3);
    bw_vbr(&w, 100, 6);
    static const uint8_t fixed_vbr[2] = { 0x25, 0x07 };
    CHECK(w.bit == 15, "fixed3 + two vbr6 chunks take 15 bits, not %zu", w.bit);
    check_bytes(&w, 0, fixed_vbr, 2, "fixed/vbr");
    bw_free(&w);

    /* char6: 'a' = 0, 'Z' = 51, '.' = 62. */
    bw_begin(&w);
    bw_char6(&w, 'a');
    bw_char6(&w, 'Z');
    bw_char6(&w, '.');
    static const uint8_t char6[3] = { 0xC0, 0xEC, 0x03 };
    check_bytes(&w, 0, char6, 3, "char6");
    CHECK(!w.failed, "char6 of valid characters");
    CHECK(bw_is_char6("dx.op.threadId.i32") && !bw_is_char6("\001?g@@"), "char6 alphabet");
    bw_char6(&w, '?');
    CHECK(w.failed, "'?' has no char6 code");
    bw_free(&w);

    /* The first words of every DXIL module (docs §8.2): ENTER_SUBBLOCK 8 width 3,
     * length 1 word, [VERSION: 1], END_BLOCK. */
    bw_begin(&w);
    bw_enter_block(&w, 8, 3);
    uint64_t one = 1;
    bw_record(&w, 1, &one, 1);
    bw_end_block(&w);
    static const uint8_t module[12] = { 0x21, 0x0C, 0, 0, 1, 0, 0, 0, 0x0B, 0x82, 0, 0 };
    CHECK(bw_size(&w) == 12 && w.depth == 0 && w.width == 2, "block of 12 bytes");
    check_bytes(&w, 0, module, 12, "module block");
    bw_free(&w);

    /* DEFINE_ABBREV [literal 4, vbr8] in a width-4 block, then that record with 300. */
    bw_begin(&w);
    bw_enter_block(&w, 11, 4);
    const struct bw_abbrev integer = { 2, { { BW_OP_LITERAL, 4 }, { BW_OP_VBR, 8 } } };
    bw_define_abbrev(&w, &integer);
    uint64_t fields[2] = { 4, 300 };
    bw_abbrev_record(&w, 4, &integer, fields, 2);
    static const uint8_t abbrev[6] = { 0x22, 0x12, 0x10, 0x22, 0x56, 0x01 };
    CHECK(w.bit == 111, "abbreviation + record end at bit 111, not %zu", w.bit);
    check_bytes(&w, 8, abbrev, 6, "abbreviation");
    uint64_t wrong[2] = { 5, 300 };
    bw_abbrev_record(&w, 4, &integer, wrong, 2);
    CHECK(w.failed, "a record whose code differs from the abbreviation's literal");
    bw_free(&w);

    /* A blob: vbr6 length 2, align32, the bytes, align32. */
    bw_begin(&w);
    bw_enter_block(&w, 11, 4);
    const struct bw_abbrev blob = { 2, { { BW_OP_LITERAL, 7 }, { BW_OP_BLOB, 0 } } };
    uint64_t blob_fields[3] = { 7, 0xAB, 0xCD };
    bw_abbrev_record(&w, 4, &blob, blob_fields, 3);
    static const uint8_t blob_bytes[8] = { 0x24, 0, 0, 0, 0xAB, 0xCD, 0, 0 };
    CHECK(w.bit == 128, "blob ends aligned at bit 128, not %zu", w.bit);
    check_bytes(&w, 8, blob_bytes, 8, "blob");
    bw_free(&w);
}

/* Builds `void main() { <body> }` with the first block filled by `body`; returns
 * what dm_write() says. */
static bool write_body(void (*body)(struct dxil_module *m), size_t *size)
{
    struct dxil_module *m = dm_create();
    dm_entry(m, "main");
    dm_at(m, dm_block(m));
    body(m);
    struct tbuf out = { 0 };
    bool ok = dm_write(m, &out);
    *size = out.size;
    tb_free(&out);
    dm_destroy(m);
    return ok;
}

static void just_ret(struct dxil_module *m) { dm_ret_void(m); }

static void no_terminator(struct dxil_module *m)
{
    dm_binop(m, DM_ADD, dm_i32(m, 1), dm_i32(m, 2), DM_FLAGS_NONE);
}

static void wrong_argument_type(struct dxil_module *m)
{
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t fn = dm_declare(m, "dx.op.threadId.i32", dm_type_function(m, i32, &i32, 1),
                             DM_ATTR_READNONE);
    uint32_t arg = dm_f32(m, 1.0f);
    dm_call(m, fn, &arg, 1);
    dm_ret_void(m);
}

static void mixed_binop(struct dxil_module *m)
{
    dm_binop(m, DM_ADD, dm_i32(m, 1), dm_f32(m, 2.0f), DM_FLAGS_NONE);
    dm_ret_void(m);
}

static void extract_past_end(struct dxil_module *m)
{
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t pair[2] = { i32, i32 };
    uint32_t ret = dm_type_struct(m, "dx.types.twoi32", pair, 2);
    uint32_t fn = dm_declare(m, "dx.op.binaryWithTwoOuts.i32",
                             dm_type_function(m, ret, NULL, 0), DM_ATTR_READNONE);
    dm_extractvalue(m, dm_call(m, fn, NULL, 0), 2);
    dm_ret_void(m);
}

static void test_module_misuse(void)
{
    size_t size = 0;
    CHECK(write_body(just_ret, &size) && size > 0 && size % 4 == 0,
          "the smallest module is written in whole words (%zu bytes)", size);
    CHECK(!write_body(no_terminator, &size), "a block without br/ret is refused");
    CHECK(!write_body(wrong_argument_type, &size), "a float passed as an i32 is refused");
    CHECK(!write_body(mixed_binop, &size), "an i32 + float binop is refused");
    CHECK(!write_body(extract_past_end, &size), "extractvalue past the last member is refused");
}

/* What our own reader must find in each program's container. */
struct expected {
    const char *name;
    uint16_t kind;
    uint32_t threads[3];
    uint8_t inputs, outputs, in_vectors, out_vectors;
    uint32_t resources;
    uint32_t first_resource_type, first_resource_kind;
    const char *first_input, *first_output;
    /* PSV0 input->output table: one mask of output components per input component,
     * (out_vectors + 7) / 8 dwords each (container §6.1). */
    uint32_t io_dwords;
    uint32_t io[8];
};

static const struct expected EXPECTED[5] = {
    { "cs_store", 5, { 8, 1, 1 }, 0, 0, 0, 0, 1, SB_DXBC_PSV0_RESOURCE_UAV_RAW, 11, NULL, NULL,
      0, { 0 } },
    /* v0.xyzw -> o0.xyzw, v1.xy -> o1.xy: input component c feeds output component c */
    { "vs_passthrough", 1, { 0, 0, 0 }, 2, 2, 2, 2, 0, 0, 0, "POSITION", "SV_Position",
      8, { 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0, 0 } },
    /* TEXCOORD.x -> SV_Target.x, .y -> .y; z and w come from the cbuffer alone */
    { "ps_scale", 0, { 0, 0, 0 }, 1, 1, 1, 1, 1, SB_DXBC_PSV0_RESOURCE_CBV, 13, "TEXCOORD",
      "SV_Target", 4, { 0x1, 0x2, 0, 0 } },
    { "cs_loop", 5, { 1, 1, 1 }, 0, 0, 0, 0, 2, SB_DXBC_PSV0_RESOURCE_UAV_RAW, 11, NULL, NULL,
      0, { 0 } },
    { "cs_groupshared", 5, { 8, 1, 1 }, 0, 0, 0, 0, 1, SB_DXBC_PSV0_RESOURCE_UAV_RAW, 11, NULL,
      NULL, 0, { 0 } },
};

static const struct sb_dxbc_part *find_part(const struct sb_dxbc *c, const char *fourcc)
{
    for (uint32_t i = 0; i < c->part_count; i++)
        if (memcmp(c->parts[i].name, fourcc, 4) == 0)
            return &c->parts[i];
    return NULL;
}

static void check_signature(const struct sb_dxbc_part *part, unsigned count, const char *first,
                            const char *what)
{
    CHECK(part && part->decoded.signature, "%s decoded", what);
    if (!part || !part->decoded.signature)
        return;
    const struct sb_dxbc_signature *s = part->decoded.signature;
    CHECK(s->element_size == 32 && s->element_count == count, "%s: %u elements of %u bytes",
          what, s->element_count, s->element_size);
    if (first && s->element_count)
        CHECK(strcmp(s->elements[0].semantic_name, first) == 0, "%s: first element %s", what,
              s->elements[0].semantic_name);
}

/* PSV0's copy of a signature must match ISG1/OSG1 element by element: row, columns,
 * semantic index, component type, and the system value (Position 3 <-> D3D 1, Target
 * 16 <-> 64, arbitrary 0 <-> 0 with the name kept). */
static void check_psv_agrees(const struct sb_dxbc_psv0_element *psv, uint32_t psv_count,
                             const struct sb_dxbc_part *part, const char *what)
{
    const struct sb_dxbc_signature *s = part ? part->decoded.signature : NULL;
    if (!s || s->element_count != psv_count) {
        CHECK(false, "%s: PSV0 and the signature part differ in element count", what);
        return;
    }
    for (uint32_t i = 0; i < psv_count; i++) {
        const struct sb_dxbc_psv0_element *p = &psv[i];
        const struct sb_dxbc_signature_element *g = &s->elements[i];
        CHECK(p->allocated && p->start_row == g->register_index && p->start_col == 0 &&
              g->mask == (1u << p->cols) - 1 && p->rows == 1,
              "%s element %u: PSV0 row %u cols %u vs register %u mask 0x%x", what, i,
              p->start_row, p->cols, g->register_index, g->mask);
        CHECK(p->semantic_indexes[0] == g->semantic_index &&
              p->component_type == g->component_type, "%s element %u: index/type", what, i);
        uint32_t want_sv = p->semantic_kind == 3 ? 1 : p->semantic_kind == 16 ? 64 : 0;
        CHECK(g->system_value == want_sv, "%s element %u: PSV0 kind %u vs system value %u",
              what, i, p->semantic_kind, g->system_value);
        if (p->semantic_kind == 0)
            CHECK(strcmp(p->name, g->semantic_name) == 0, "%s element %u: name %s vs %s", what,
                  i, p->name, g->semantic_name);
    }
}

static void check_container(const struct expected *e, const struct tbuf *file)
{
    struct sb_dxbc *c = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(file->data, file->size, &c, &error);
    CHECK(r == SB_SUCCESS, "%s: parse: %s at %llu: %s", e->name, sb_result_name(r),
          (unsigned long long)error.offset, error.message);
    if (r != SB_SUCCESS)
        return;
    CHECK(c->checksum_ok && c->digest_status == SB_DXBC_DIGEST_VALID, "%s: checksum", e->name);
    CHECK(c->is_dxil && c->part_count == 5 && c->warning_count == 0,
          "%s: a DXIL container of 5 parts, no warning", e->name);

    const struct sb_dxbc_part *dxil = find_part(c, "DXIL");
    const struct sb_dxbc_program *p = dxil ? dxil->decoded.program : NULL;
    CHECK(p != NULL, "%s: DXIL part decoded", e->name);
    if (p) {
        CHECK(p->shader_kind == e->kind && p->major_version == 6 && p->minor_version == 0,
              "%s: kind %u, SM %u.%u", e->name, p->shader_kind, p->major_version,
              p->minor_version);
        CHECK(p->dxil_major_version == 1 && p->dxil_minor_version == 0 &&
              p->bitcode_offset == 16 && p->bitcode_is_wrapped &&
              p->size_in_words * 4 == dxil->size && p->bitcode_size % 4 == 0,
              "%s: DXIL 1.0 header around whole-word bitcode", e->name);
    }
    check_signature(find_part(c, "ISG1"), e->inputs, e->first_input, "ISG1");
    check_signature(find_part(c, "OSG1"), e->outputs, e->first_output, "OSG1");

    const struct sb_dxbc_part *psv_part = find_part(c, "PSV0");
    const struct sb_dxbc_psv0 *psv = psv_part ? psv_part->decoded.psv0 : NULL;
    CHECK(psv != NULL, "%s: PSV0 decoded", e->name);
    if (psv) {
        const struct sb_dxbc_psv0_runtime_info *info = &psv->info;
        CHECK(info->version == 3 && info->shader_stage == e->kind && info->stage_kind == e->kind,
              "%s: PSV0 v%u stage %u", e->name, info->version, info->shader_stage);
        CHECK(info->num_threads_x == e->threads[0] && info->num_threads_y == e->threads[1] &&
              info->num_threads_z == e->threads[2], "%s: thread group %ux%ux%u", e->name,
              info->num_threads_x, info->num_threads_y, info->num_threads_z);
        CHECK(info->sig_input_elements == e->inputs && info->sig_output_elements == e->outputs &&
              psv->input_element_count == e->inputs && psv->output_element_count == e->outputs,
              "%s: PSV0 element counts %u/%u", e->name, info->sig_input_elements,
              info->sig_output_elements);
        CHECK(info->sig_input_vectors == e->in_vectors &&
              info->sig_output_vectors[0] == e->out_vectors, "%s: PSV0 vectors", e->name);
        CHECK(info->entry_function_name && strcmp(info->entry_function_name, "main") == 0,
              "%s: entry name", e->name);
        CHECK(psv->resource_count == e->resources, "%s: %u resources", e->name,
              psv->resource_count);
        if (psv->resource_count && e->resources)
            CHECK(psv->resources[0].type == e->first_resource_type &&
                  psv->resources[0].kind == e->first_resource_kind &&
                  psv->resources[0].lower_bound == 0 && psv->resources[0].upper_bound == 0,
                  "%s: first resource type %u kind %u", e->name, psv->resources[0].type,
                  psv->resources[0].kind);
        CHECK(psv->trailing_bytes == 0, "%s: PSV0 has no bytes beyond its tables", e->name);
        const struct sb_dxbc_psv0_bitset *io = &psv->input_to_output[0];
        CHECK(io->present == (e->io_dwords != 0) && io->dword_count == e->io_dwords,
              "%s: input->output table of %u dwords", e->name, io->dword_count);
        for (uint32_t k = 0; io->present && k < io->dword_count && k < 8; k++)
            CHECK(io->dwords[k] == e->io[k], "%s: input->output dword %u is 0x%x, expected 0x%x",
                  e->name, k, io->dwords[k], e->io[k]);
        check_psv_agrees(psv->input_elements, psv->input_element_count, find_part(c, "ISG1"),
                         "inputs");
        check_psv_agrees(psv->output_elements, psv->output_element_count,
                         find_part(c, "OSG1"), "outputs");
        if (e->kind == 1) /* vertex: writes SV_Position */
            CHECK(info->stage.vs.output_position_present == 1, "%s: position output", e->name);
    }
    sb_dxbc_destroy(c);
}

static void test_containers(void)
{
    for (unsigned i = 0; i < 5; i++) {
        struct tbuf file = { 0 };
        CHECK(strcmp(dxil_programs[i].name, EXPECTED[i].name) == 0, "program order");
        bool ok = dxil_programs[i].write(&file);
        CHECK(ok, "%s: written", dxil_programs[i].name);
        if (ok)
            check_container(&EXPECTED[i], &file);
        tb_free(&file);
    }
}

/* ---- llvm-dis: the listings each program must disassemble to --------------------- */

/* Lines every listing shares: the named nodes every program has, the compiler
 * string, DXIL 1.0, validator 1.8; and the record of a RWByteAddressBuffer at u0. */
#define NAMED_HEAD                                                                         \
    "!llvm.ident = !{!0}\n"                                                                \
    "!dx.version = !{!1}\n"                                                                \
    "!dx.valver = !{!2}\n"                                                                 \
    "!dx.shaderModel = !{!3}\n"
#define MD_HEAD                                                                            \
    "!0 = !{!\"shaderbridge tests/common DXIL writer\"}\n"                                 \
    "!1 = !{i32 1, i32 0}\n"                                                               \
    "!2 = !{i32 1, i32 8}\n"
#define RAW_U0_RECORD                                                                      \
    "!{i32 0, %struct.RWByteAddressBuffer* undef, !\"\", i32 0, i32 0, i32 1, i32 11, "      \
    "i1 false, i1 false, i1 false, null}\n"

/* The metadata of cs_store and cs_groupshared: the same interface (8x1x1 threads,
 * shader flag 0x10 for raw buffers, u0). */
#define CS_8_RAW_U0_METADATA                                                               \
    NAMED_HEAD                                                                             \
    "!dx.resources = !{!4}\n"                                                              \
    "!dx.entryPoints = !{!7}\n"                                                            \
    MD_HEAD                                                                                \
    "!3 = !{!\"cs\", i32 6, i32 0}\n"                                                      \
    "!4 = !{null, !5, null, null}\n"                                                       \
    "!5 = !{!6}\n"                                                                         \
    "!6 = " RAW_U0_RECORD                                                                  \
    "!7 = !{void ()* @main, !\"main\", null, !4, !8}\n"                                    \
    "!8 = !{i32 0, i64 16, i32 4, !9}\n"                                                   \
    "!9 = !{i32 8, i32 1, i32 1}\n"

/* The function body and every metadata line, as LLVM 14 prints them. Signature
 * elements end in {3 UsageCompMask, mask}: 15 = xyzw, 3 = xy. */
static const char *const LISTINGS[5] = {
    /* cs_store */
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)\n"
    "  %2 = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n"
    "  %3 = shl i32 %2, 2\n"
    "  %4 = shl i32 %2, 1\n"
    "  %5 = or i32 %4, 1\n"
    "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %3, i32 undef, "
    "i32 %5, i32 undef, i32 undef, i32 undef, i8 1)\n"
    "  ret void\n"
    "}\n"
    CS_8_RAW_U0_METADATA,

    /* vs_passthrough */
    "define void @main() {\n"
    "  %1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)\n"
    "  %2 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 undef)\n"
    "  %3 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 undef)\n"
    "  %4 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 3, i32 undef)\n"
    "  %5 = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 0, i32 undef)\n"
    "  %6 = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 1, i32 undef)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %1)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %2)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %3)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float %4)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 0, float %5)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 1, float %6)\n"
    "  ret void\n"
    "}\n"
    NAMED_HEAD
    "!dx.entryPoints = !{!4}\n"
    MD_HEAD
    "!3 = !{!\"vs\", i32 6, i32 0}\n"
    "!4 = !{void ()* @main, !\"main\", !5, null, null}\n"
    "!5 = !{!6, !12, null}\n"
    "!6 = !{!7, !10}\n"
    "!7 = !{i32 0, !\"POSITION\", i8 9, i8 0, !8, i8 0, i32 1, i8 4, i32 0, i8 0, !9}\n"
    "!8 = !{i32 0}\n"
    "!9 = !{i32 3, i32 15}\n"
    "!10 = !{i32 1, !\"TEXCOORD\", i8 9, i8 0, !8, i8 0, i32 1, i8 2, i32 1, i8 0, !11}\n"
    "!11 = !{i32 3, i32 3}\n"
    "!12 = !{!13, !14}\n"
    "!13 = !{i32 0, !\"SV_Position\", i8 9, i8 3, !8, i8 4, i32 1, i8 4, i32 0, i8 0, !9}\n"
    "!14 = !{i32 1, !\"TEXCOORD\", i8 9, i8 0, !8, i8 2, i32 1, i8 2, i32 1, i8 0, !11}\n",

    /* ps_scale */
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)\n"
    "  %2 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)\n"
    "  %3 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 undef)\n"
    "  %4 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, "
    "%dx.types.Handle %1, i32 0)\n"
    "  %5 = extractvalue %dx.types.CBufRet.f32 %4, 0\n"
    "  %6 = extractvalue %dx.types.CBufRet.f32 %4, 1\n"
    "  %7 = extractvalue %dx.types.CBufRet.f32 %4, 2\n"
    "  %8 = extractvalue %dx.types.CBufRet.f32 %4, 3\n"
    "  %9 = fmul fast float %2, %5\n"
    "  %10 = fmul fast float %3, %6\n"
    "  %11 = fmul fast float %7, 0.000000e+00\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %9)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %10)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %11)\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float %8)\n"
    "  ret void\n"
    "}\n"
    NAMED_HEAD
    "!dx.resources = !{!4}\n"
    "!dx.entryPoints = !{!7}\n"
    MD_HEAD
    "!3 = !{!\"ps\", i32 6, i32 0}\n"
    "!4 = !{null, null, !5, null}\n"
    "!5 = !{!6}\n"
    "!6 = !{i32 0, %cb0* undef, !\"\", i32 0, i32 0, i32 1, i32 16, null}\n"
    "!7 = !{void ()* @main, !\"main\", !8, !4, null}\n"
    "!8 = !{!9, !13, null}\n"
    "!9 = !{!10}\n"
    "!10 = !{i32 0, !\"TEXCOORD\", i8 9, i8 0, !11, i8 2, i32 1, i8 2, i32 0, i8 0, !12}\n"
    "!11 = !{i32 0}\n"
    "!12 = !{i32 3, i32 3}\n"
    "!13 = !{!14}\n"
    "!14 = !{i32 0, !\"SV_Target\", i8 9, i8 16, !11, i8 0, i32 1, i8 4, i32 0, i8 0, !15}\n"
    "!15 = !{i32 3, i32 15}\n",

    /* cs_loop: the phis of block %6 name %9 and %10 before they are defined */
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)\n"
    "  %2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)\n"
    "  %3 = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, "
    "%dx.types.Handle %2, i32 0)\n"
    "  %4 = extractvalue %dx.types.CBufRet.i32 %3, 0\n"
    "  %5 = icmp eq i32 %4, 0\n"
    "  br i1 %5, label %12, label %6\n"
    "\n"
    "6:                                                ; preds = %6, %0\n"
    "  %7 = phi i32 [ 0, %0 ], [ %10, %6 ]\n"
    "  %8 = phi i32 [ 0, %0 ], [ %9, %6 ]\n"
    "  %9 = add i32 %8, %7\n"
    "  %10 = add i32 %7, 1\n"
    "  %11 = icmp ult i32 %10, %4\n"
    "  br i1 %11, label %6, label %12\n"
    "\n"
    "12:                                               ; preds = %6, %0\n"
    "  %13 = phi i32 [ 0, %0 ], [ %9, %6 ]\n"
    "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 0, i32 undef, "
    "i32 %13, i32 undef, i32 undef, i32 undef, i8 1)\n"
    "  ret void\n"
    "}\n"
    NAMED_HEAD
    "!dx.resources = !{!4}\n"
    "!dx.entryPoints = !{!9}\n"
    MD_HEAD
    "!3 = !{!\"cs\", i32 6, i32 0}\n"
    "!4 = !{null, !5, !7, null}\n"
    "!5 = !{!6}\n"
    "!6 = " RAW_U0_RECORD
    "!7 = !{!8}\n"
    "!8 = !{i32 0, %cb0* undef, !\"\", i32 0, i32 0, i32 1, i32 16, null}\n"
    "!9 = !{void ()* @main, !\"main\", null, !4, !10}\n"
    "!10 = !{i32 0, i64 16, i32 4, !11}\n"
    "!11 = !{i32 1, i32 1, i32 1}\n",

    /* cs_groupshared */
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)\n"
    "  %2 = call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)\n"
    "  %3 = mul i32 %2, %2\n"
    "  %4 = getelementptr [8 x i32], [8 x i32] addrspace(3)* "
    "@\"\\01?g_values@@3PAIA\", i32 0, i32 %2\n"
    "  store i32 %3, i32 addrspace(3)* %4, align 4\n"
    "  call void @dx.op.barrier(i32 80, i32 9)\n"
    "  %5 = sub i32 7, %2\n"
    "  %6 = getelementptr [8 x i32], [8 x i32] addrspace(3)* "
    "@\"\\01?g_values@@3PAIA\", i32 0, i32 %5\n"
    "  %7 = load i32, i32 addrspace(3)* %6, align 4\n"
    "  %8 = shl i32 %2, 2\n"
    "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %8, i32 undef, "
    "i32 %7, i32 undef, i32 undef, i32 undef, i8 1)\n"
    "  ret void\n"
    "}\n"
    CS_8_RAW_U0_METADATA,
};

/* Keeps what the listings hold: from "define" to the closing brace, and lines
 * starting with '!'. Returns a malloc'ed string. */
static char *listing_of(FILE *in)
{
    size_t cap = 4096, size = 0;
    char *text = malloc(cap), line[4096];
    if (!text)
        return NULL;
    text[0] = '\0';
    bool in_body = false;
    while (fgets(line, sizeof(line), in)) {
        bool keep = in_body || strncmp(line, "define ", 7) == 0 || line[0] == '!';
        if (strncmp(line, "define ", 7) == 0)
            in_body = true;
        if (in_body && strcmp(line, "}\n") == 0)
            in_body = false;
        if (!keep)
            continue;
        size_t n = strlen(line);
        if (size + n + 1 > cap) {
            cap = (size + n + 1) * 2;
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                return NULL;
            }
            text = grown;
        }
        memcpy(text + size, line, n + 1);
        size += n;
    }
    return text;
}

/* Prints the first line where two listings part, for a readable failure. */
static void show_difference(const char *name, const char *got, const char *want)
{
    size_t at = 0, line_start = 0;
    while (got[at] && got[at] == want[at]) {
        if (got[at] == '\n')
            line_start = at + 1;
        at++;
    }
    fprintf(stderr, "%s: listing differs at line starting\n  got:  %.160s\n  want: %.160s\n",
            name, got + line_start, want + line_start);
}

static int test_llvm_dis(const char *tool, const char *dir)
{
    if (!tool[0]) {
        printf("SKIPPED: llvm-dis-14 is not installed (Debian package llvm-14)\n");
        return 77;
    }
    for (unsigned i = 0; i < 5; i++) {
        struct tbuf file = { 0 };
        struct sb_dxbc *c = NULL;
        bool ok = dxil_programs[i].write(&file) &&
                  sb_dxbc_parse(file.data, file.size, &c, NULL) == SB_SUCCESS;
        const struct sb_dxbc_part *dxil = ok ? find_part(c, "DXIL") : NULL;
        CHECK(dxil && dxil->decoded.program, "%s: written and parsed", dxil_programs[i].name);
        if (dxil && dxil->decoded.program) {
            char path[4096], command[8400];
            snprintf(path, sizeof(path), "%s/%s.bc", dir, dxil_programs[i].name);
            FILE *out = fopen(path, "wb");
            const struct sb_dxbc_program *p = dxil->decoded.program;
            CHECK(out && fwrite(p->bitcode, 1, p->bitcode_size, out) == p->bitcode_size,
                  "writing %s", path);
            if (out)
                fclose(out);
            snprintf(command, sizeof(command), "'%s' '%s' -o -", tool, path);
            FILE *dis = popen(command, "r");
            char *got = dis ? listing_of(dis) : NULL;
            int status = dis ? pclose(dis) : -1;
            CHECK(status == 0, "%s: %s exited with %d", dxil_programs[i].name, tool, status);
            CHECK(got && strcmp(got, LISTINGS[i]) == 0, "%s: listing", dxil_programs[i].name);
            if (got && strcmp(got, LISTINGS[i]) != 0)
                show_difference(dxil_programs[i].name, got, LISTINGS[i]);
            free(got);
        }
        sb_dxbc_destroy(c);
        tb_free(&file);
    }
    printf("test_dxil_writer llvm-dis: %u checks, %u failures\n", checks, failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "llvm-dis") == 0)
        return test_llvm_dis(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "bitstream") == 0)
        test_bitstream();
    else if (argc == 2 && strcmp(argv[1], "module") == 0)
        test_module_misuse();
    else if (argc == 2 && strcmp(argv[1], "container") == 0)
        test_containers();
    else {
        fprintf(stderr, "usage: test_dxil_writer bitstream | module | container | "
                        "llvm-dis TOOL DIR\n");
        return 2;
    }
    printf("test_dxil_writer %s: %u checks, %u failures\n", argv[1], checks, failures);
    return failures ? 1 : 0;
}
