/* SPDX-License-Identifier: MIT */
/* Shared body of the fuzz targets and the mutation test (fuzz_exercise.h). */
#include "fuzz_exercise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reflect/bitcode.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "shaderbridge/translate.h"

static void check_error(const struct sb_error *error, enum sb_result result, size_t size)
{
    const char *problem = NULL;
    if (result >= 0)
        problem = "failure code is not negative";
    else if (error->code != result)
        problem = "error code differs from the returned code";
    else if (!strcmp(sb_result_name(result), "SB_RESULT_UNKNOWN"))
        problem = "error code is not a member of enum sb_result";
    else if (error->offset > size)
        problem = "error offset lies beyond the input";
    else if (error->message[0] == 0 || !memchr(error->message, 0, sizeof(error->message)))
        problem = "error message is empty or unterminated";
    if (problem) {
        fprintf(stderr, "malformed error (%s): code %d offset %llu message '%.*s'\n", problem,
                (int)result, (unsigned long long)error->offset, (int)sizeof(error->message),
                error->message);
        abort();
    }
}

/*
 * A container that parses (DXBC or SHBIN) is also translated, with the SPIR-V validator on:
 * any bytes must end in SPIR-V or a well-formed error, never a crash. A
 * validator rejection is a structured SB_ERROR_SPIRV_INVALID, so it passes
 * here; the corpus tests are where invalid output counts as a failure.
 */
struct fuzz_translate_counts fuzz_translate_counts;

static void translate_container(const uint8_t *data, size_t size)
{
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1,
                                            .flags = SB_TRANSLATE_VALIDATE };
    struct sb_translation *translation = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = sb_translate(data, size, &options, &translation, &error);
    if (result == SB_ERROR_SPIRV_INVALID)
        fuzz_translate_counts.invalid_spirv++;
    else if (result != SB_SUCCESS)
        fuzz_translate_counts.rejected++;
    else
        fuzz_translate_counts.translated++;
    if (result != SB_SUCCESS) {
        check_error(&error, result, size);
    } else if (!translation || translation->word_count < 5 || translation->words[0] != 0x07230203u) {
        fprintf(stderr, "sb_translate succeeded without a SPIR-V module\n");
        abort();
    }
    sb_translation_destroy(translation);
}

/*
 * sb_ir_from_dxbc() (the fused decode + lowering translation uses) must agree with
 * sb_sm4_decode_container() + sb_ir_from_sm4() on any container: result, error and
 * the printed program.
 */
static void compare_fused_lowering(const struct sb_dxbc *dxbc)
{
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *general = NULL, *fused = NULL;
    struct sb_error eg, ef;
    memset(&eg, 0, sizeof(eg));
    memset(&ef, 0, sizeof(ef));
    enum sb_result rg = sb_sm4_decode_container(dxbc, &sm4, &eg);
    if (rg == SB_SUCCESS)
        rg = sb_ir_from_sm4(sm4, dxbc, &general, &eg);
    enum sb_result rf = sb_ir_from_dxbc(dxbc, &fused, &ef);
    bool same = rg == rf && eg.code == ef.code && eg.offset == ef.offset &&
                eg.instr == ef.instr && !strcmp(eg.message, ef.message);
    if (same && rg == SB_SUCCESS) {
        char *a = sb_ir_print(general), *b = sb_ir_print(fused);
        same = a && b && !strcmp(a, b);
        free(a);
        free(b);
    }
    if (!same) {
        fprintf(stderr, "sb_ir_from_dxbc differs from decode + sb_ir_from_sm4: %s / %s\n",
                eg.message, ef.message);
        abort();
    }
    sb_ir_program_destroy(general);
    sb_ir_program_destroy(fused);
    sb_sm4_program_destroy(sm4);
}

static void walk_json(json_object *tree)
{
    /* Serialising visits every node; the length is used so it is not optimised away. */
    const char *text = json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PLAIN);
    if (!text || text[0] != '{')
        abort();
    json_object_put(tree);
}

/*
 * Every subresource of a parsed DDS file must lie inside the input, in file
 * order; its first and last bytes are read so that ASan checks the pointer.
 */
static void check_dds_layout(const struct sb_dds *dds, const uint8_t *data, size_t size)
{
    uint64_t at = dds->data_offset;
    unsigned sum = 0;
    for (uint32_t i = 0; i < dds->subresource_count; i++) {
        const struct sb_dds_subresource *s = &dds->subresources[i];
        if (s->offset != at || s->size == 0 || s->size > size - at || s->data != data + at) {
            fprintf(stderr, "DDS subresource %u at %llu (%llu bytes) is not where it should be\n",
                    i, (unsigned long long)s->offset, (unsigned long long)s->size);
            abort();
        }
        sum += s->data[0] + s->data[s->size - 1];
        at += s->size;
    }
    if (at + dds->trailing_size != size || sum == 0xFFFFFFFFu)
        abort();
}

/*
 * A module the bitcode reader accepted must be consistent: every instruction operand
 * resolves to a value, every block index and attachment to its table, every metadata
 * operand to an item, every type reference to a type. Anything else aborts.
 */
static void check_bitcode_module(const struct sb_bc_module *m)
{
    for (uint32_t t = 0; t < m->type_count; t++)
        for (uint32_t k = 0; k < m->types[t].member_count; k++)
            if (m->types[t].members[k] >= m->type_count)
                abort();
    for (uint32_t i = 0; i < m->function_count; i++) {
        const struct sb_bc_function *f = &m->functions[i];
        for (uint32_t k = 0; k < f->instruction_count; k++) {
            const struct sb_bc_instruction *in = &f->instructions[k];
            for (uint32_t o = 0; o < in->operand_count; o++)
                if (!sb_bc_value_get(m, f, in->operands[o]))
                    abort();
            for (uint32_t b = 0; b < in->block_count; b++)
                if (in->blocks[b] >= f->block_count)
                    abort();
            if (in->type != SB_BC_NONE && in->type >= m->type_count)
                abort();
        }
        for (uint32_t a = 0; a < f->attachment_count; a++)
            if (!sb_bc_metadata_get(m, f, f->attachments[a].node))
                abort();
    }
    for (uint32_t i = 0; i < m->metadata_count; i++)
        for (uint32_t o = 0; o < m->metadata[i].operand_count; o++)
            if (m->metadata[i].kind == SB_BC_MD_NODE && m->metadata[i].operands[o] != SB_BC_NONE &&
                !sb_bc_metadata_get(m, NULL, m->metadata[i].operands[o]))
                abort();
}

/* A DXContainer's DXIL part, or (for any other bytes) the input itself as a DXIL part. */
static enum sb_result exercise_dxil_bitcode(const uint8_t *data, size_t size,
                                            struct sb_error *error)
{
    struct sb_dxbc *dxbc = NULL;
    const uint8_t *part = data;
    size_t part_size = size;
    uint64_t base = 0;
    if (size >= 4 && !memcmp(data, "DXBC", 4)) {
        enum sb_result result = sb_dxbc_parse(data, size, &dxbc, error);
        if (result != SB_SUCCESS)
            return result;
        const struct sb_dxbc_part *found = sb_dxbc_find_part(dxbc, SB_FOURCC('D', 'X', 'I', 'L'));
        if (!found) {
            sb_dxbc_destroy(dxbc);
            return SB_SUCCESS;
        }
        part = found->data;
        part_size = found->size;
        base = found->data_offset;
    }
    struct sb_bc_module *module = NULL;
    enum sb_result result = sb_bc_read_dxil_part(part, part_size, base, &module, error);
    if (result == SB_SUCCESS)
        check_bitcode_module(module);
    sb_bc_module_destroy(module);
    sb_dxbc_destroy(dxbc);
    return result;
}

enum sb_result fuzz_exercise(enum fuzz_reader reader, const uint8_t *data, size_t size)
{
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result result = SB_ERROR_INVALID_ARGUMENT;
    switch (reader) {
    case FUZZ_READER_DXBC: {
        struct sb_dxbc *dxbc = NULL;
        result = sb_dxbc_parse(data, size, &dxbc, &error);
        if (result == SB_SUCCESS) {
            char line[512];
            cli_describe_dxbc(dxbc, line, sizeof(line));
            walk_json(cli_json_dxbc(dxbc));
            compare_fused_lowering(dxbc);
            translate_container(data, size);
        }
        sb_dxbc_destroy(dxbc);
        break;
    }
    case FUZZ_READER_SHBIN: {
        struct sb_shbin *shbin = NULL;
        result = sb_shbin_parse(data, size, &shbin, &error);
        if (result == SB_SUCCESS) {
            char line[512];
            cli_describe_shbin(shbin, line, sizeof(line));
            walk_json(cli_json_shbin(shbin));
            translate_container(data, size); /* the PICA200 front end and back end */
        }
        sb_shbin_destroy(shbin);
        break;
    }
    case FUZZ_READER_VBC: {
        struct sb_vbc *vbc = NULL;
        result = sb_vbc_parse(data, size, &vbc, &error);
        if (result == SB_SUCCESS) {
            char line[512];
            cli_describe_vbc(vbc, line, sizeof(line));
            walk_json(cli_json_vbc(vbc));
        }
        sb_vbc_destroy(vbc);
        break;
    }
    case FUZZ_READER_DDS: {
        struct sb_dds *dds = NULL;
        result = sb_dds_parse(data, size, &dds, &error);
        if (result == SB_SUCCESS) {
            char line[512];
            cli_describe_dds(dds, line, sizeof(line));
            walk_json(cli_json_dds(dds));
            check_dds_layout(dds, data, size);
        }
        sb_dds_destroy(dds);
        break;
    }
    case FUZZ_READER_DXIL_BITCODE:
        result = exercise_dxil_bitcode(data, size, &error);
        break;
    default:
        abort();
    }
    if (result != SB_SUCCESS)
        check_error(&error, result, size);
    return result;
}

enum fuzz_reader fuzz_reader_for_format(enum sb_format format)
{
    switch (format) {
    case SB_FORMAT_DXCONTAINER: return FUZZ_READER_DXBC;
    case SB_FORMAT_SHBIN: return FUZZ_READER_SHBIN;
    case SB_FORMAT_VBC: return FUZZ_READER_VBC;
    case SB_FORMAT_DDS: return FUZZ_READER_DDS;
    default: return FUZZ_READER_COUNT;
    }
}

const char *fuzz_reader_name(enum fuzz_reader reader)
{
    static const char *const names[FUZZ_READER_COUNT] = { "dxbc", "shbin", "vbc", "dds",
                                                                  "dxil_bitcode" };
    return reader < FUZZ_READER_COUNT ? names[reader] : "none";
}

uint8_t *fuzz_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *bytes = NULL;
    size_t used = 0, capacity = 0, got;
    do {
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            uint8_t *grown = realloc(bytes, capacity);
            if (!grown) {
                free(bytes);
                fclose(f);
                return NULL;
            }
            bytes = grown;
        }
        got = fread(bytes + used, 1, capacity - used, f);
        used += got;
    } while (got > 0);
    fclose(f);
    *size = used;
    return bytes;
}
