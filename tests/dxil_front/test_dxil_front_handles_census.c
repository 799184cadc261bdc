/* SPDX-License-Identifier: MIT */
/*
 * Census of resource handles and bindings over CORPUS/dxil (the DXIL front
 * end's concern 1). A file refuses at its first gap, so the whole-file census
 * (dxil_front_corpus) hides how much of this concern works; this one runs the
 * concern's parts of the front end alone on every entry point: the binding part
 * of the resource declarations (dxil_front_declare_bindings; the kinds are
 * another concern's), then every createHandle,
 * createHandleFromBinding, annotateHandle and createHandleFromHeap call of the
 * entry function through dxil_front_call, in body order (an annotateHandle
 * reads the handle its creator recorded). It prints, per operation, the files
 * that use it, its uses and how many translate, and the refusal reasons. Fails
 * when a refusal is not a structured SB_ERROR_TRANSLATE_* error with a byte
 * offset. SKIPPED without the corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_dxil.h"
#include "corpus_list.h"
#include "dxil/ir_from_dxil_private.h"
#include "refusal_tally.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_opcodes.h"

/* The operations of the concern, in the order printed (createHandleForLib, which only
 * libraries keep, is counted to explain the annotateHandles of its handles). */
#define OPERATION_COUNT 5
static const struct {
    uint32_t opcode;
    const char *name;
} operations[OPERATION_COUNT] = {
    { SB_DXIL_OP_CREATE_HANDLE, "createHandle" },
    { SB_DXIL_OP_CREATE_HANDLE_FROM_BINDING, "createHandleFromBinding" },
    { SB_DXIL_OP_ANNOTATE_HANDLE, "annotateHandle" },
    { SB_DXIL_OP_CREATE_HANDLE_FROM_HEAP, "createHandleFromHeap" },
    { SB_DXIL_OP_CREATE_HANDLE_FOR_LIB, "createHandleForLib" },
};

struct census {
    uint32_t files, unread, entries;
    uint32_t record_files, records, ranged_files, declared_files, declared_records;
    /* per operation: files using it, uses, uses translated, uses in entries whose
     * declarations refused (not tried) */
    uint32_t op_files[OPERATION_COUNT], op_uses[OPERATION_COUNT];
    uint32_t op_translated[OPERATION_COUNT], op_blocked[OPERATION_COUNT];
    uint32_t unstructured;
    struct refusal_tally reasons;
};

/* A refusal must be structured: a translate code and the instruction's byte offset. */
static void check_refusal(struct census *c, const struct dxil_front *f, const char *relative)
{
    if ((f->error.code != SB_ERROR_TRANSLATE_UNSUPPORTED &&
         f->error.code != SB_ERROR_TRANSLATE_INVALID) || f->error.offset == 0) {
        fprintf(stderr, "%s: unstructured refusal (code %d, offset %llu): %s\n", relative,
                (int)f->error.code, (unsigned long long)f->error.offset, f->error.message);
        c->unstructured++;
    }
}

/* The index of the concern's operation a call makes, or -1. */
static int operation_of(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_bc_function *callee = sb_bc_callee(f->module, f->function, in);
    uint32_t value = 0;
    uint64_t opcode = 0;
    if (in->opcode != SB_BC_OP_CALL || !callee || !callee->name ||
        strncmp(callee->name, "dx.op.", 6) != 0 || in->operand_count < 2)
        return -1;
    value = in->operands[1];
    if (!dxil_front_const_int(f, value, &opcode))
        return -1;
    for (int k = 0; k < OPERATION_COUNT; k++)
        if (operations[k].opcode == opcode)
            return k;
    return -1;
}

/* One entry point: its declarations, then the concern's calls in body order. True when
 * the declarations were accepted. */
static bool census_entry(struct census *c, struct dxil_front *f, bool seen[OPERATION_COUNT],
                         const char *relative)
{
    uint32_t values = f->function->value_count;
    f->value_temp = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    f->value_resource = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    f->program = sb_ir_program_create(&f->arena);
    if (!f->value_temp || !f->value_resource || !f->program) {
        fprintf(stderr, "%s: out of memory\n", relative);
        c->unstructured++;
        return false;
    }
    for (uint32_t i = 0; i < values; i++)
        f->value_temp[i] = f->value_resource[i] = DXIL_FRONT_NONE;
    /* The bindings alone: what each resource kind becomes is another concern's. */
    uint32_t records = f->entry->resources.count;
    struct sb_ir_resource *declarations = dxil_front_alloc(f, records, sizeof(*declarations));
    bool declared = declarations && dxil_front_declare_bindings(f, declarations);
    if (declared) {
        c->declared_records += records;
        f->program->resources = declarations;
        f->program->resource_count = records;
    } else {
        refusal_tally_add(&c->reasons, "declaration", f->error.message);
        check_refusal(c, f, relative);
    }
    for (uint32_t i = 0; i < f->function->instruction_count; i++) {
        const struct sb_bc_instruction *in = &f->function->instructions[i];
        int k = operation_of(f, in);
        if (k < 0)
            continue;
        seen[k] = true;
        c->op_uses[k]++;
        if (!declared) {
            c->op_blocked[k]++;
            continue;
        }
        f->failed = false;
        f->offset = in->offset;
        if (dxil_front_call(f, in)) {
            c->op_translated[k]++;
        } else {
            refusal_tally_add(&c->reasons, operations[k].name, f->error.message);
            check_refusal(c, f, relative);
        }
    }
    return declared;
}

static void census_file(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    struct corpus_dxil d;
    struct sb_dxil_program_info *info = NULL;
    struct sb_error err;
    c->files++;
    bool read = corpus_dxil_open(path, &d);
    const struct sb_dxbc_part *part = d.part;
    struct sb_bc_module *module = d.module;
    if (!read || !part->decoded.program ||
        sb_dxil_program_info_read(module, part->decoded.program->bitcode_file_offset, &info,
                                  &err) != SB_SUCCESS) {
        c->unread++;
    } else {
        bool seen[OPERATION_COUNT] = { false }, ranged = false, any_records = false, all_declared = true;
        for (uint32_t e = 0; e < info->entry_point_count; e++) {
            const struct sb_dxil_entry_point *entry = &info->entry_points[e];
            if (entry->function == SB_BC_NONE || entry->function >= module->function_count ||
                module->functions[entry->function].is_declaration)
                continue;
            c->entries++;
            c->records += entry->resources.count;
            any_records |= entry->resources.count != 0;
            for (uint32_t r = 0; r < entry->resources.count; r++)
                ranged |= entry->resources.resources[r].space != 0 ||
                          entry->resources.resources[r].range_size != 1;
            struct dxil_front f;
            memset(&f, 0, sizeof(f));
            f.module = module;
            f.entry = entry;
            f.function = &module->functions[entry->function];
            f.offset = part->decoded.program->bitcode_file_offset;
            all_declared &= census_entry(c, &f, seen, relative);
            free(f.code);
            free(f.value_temp);
            free(f.value_resource);
            sb_ir_program_destroy(f.program);
        }
        c->record_files += any_records;
        c->ranged_files += ranged;
        c->declared_files += any_records && all_declared;
        for (int k = 0; k < OPERATION_COUNT; k++)
            c->op_files[k] += seen[k];
    }
    sb_dxil_program_info_destroy(info);
    corpus_dxil_close(&d);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    static struct census c;
    if (corpus_manifest_each(argv[1], "dxil", census_file, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", argv[1]);
        return 77;
    }
    printf("dxil_front_handles_census: %u files (%u unreadable), %u entry functions\n", c.files,
           c.unread, c.entries);
    printf("  declarations: %u files with resources (%u with ranges or spaces), all declared "
           "in %u; %u records, %u declared\n", c.record_files, c.ranged_files, c.declared_files,
           c.records, c.declared_records);
    for (int k = 0; k < OPERATION_COUNT; k++)
        printf("  %-24s %3u files, %5u uses, %5u translated, %5u not tried (declarations "
               "refused)\n", operations[k].name, c.op_files[k], c.op_uses[k],
               c.op_translated[k], c.op_blocked[k]);
    refusal_tally_sort(&c.reasons);
    refusal_tally_print(&c.reasons, REFUSAL_REASONS_MAX);
    return c.unstructured || c.unread ? 1 : 0;
}
