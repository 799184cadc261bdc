/* SPDX-License-Identifier: MIT */
/*
 * Every program of CORPUS/dxil/MANIFEST.tsv reflected from its dx.* metadata
 * (translator/dxil_program_info.h) and cross-checked against its PSV0 and
 * ISG1/OSG1/PSG1 parts: each file must reflect and agree on every field
 * (issue #18, deliverable 2). Prints the counts of files, entry points,
 * resources, signature elements and struct layouts, and every disagreement
 * with its file and field.
 *
 * usage: test_dxil_reflect_corpus CORPUS_DIR; exit 77 (SKIPPED) without the corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_list.h"
#include "shaderbridge/dxbc.h"
#include "translator/dxil_program_info.h"

struct totals {
    unsigned files, reflected, agreed, entries, resources, elements, structs, psv0, signature_parts;
};

static const char *current_file;

static void print_mismatch(void *user, const char *field, const char *detail)
{
    (void)user;
    fprintf(stderr, "%s: %s: %s\n", current_file, field, detail);
}

static void count(const struct sb_dxil_program_info *info, const struct sb_dxbc *dxbc,
                  struct totals *t)
{
    t->entries += info->entry_point_count;
    t->structs += info->struct_count;
    for (uint32_t e = 0; e < info->entry_point_count; e++) {
        t->resources += info->entry_points[e].resources.count;
        for (uint32_t s = 0; s < SB_DXIL_SIGNATURE_LIST_COUNT; s++)
            t->elements += info->entry_points[e].signatures[s].element_count;
    }
    t->psv0 += sb_dxbc_find_part(dxbc, SB_FOURCC('P', 'S', 'V', '0')) != NULL;
    t->signature_parts += (sb_dxbc_find_part(dxbc, SB_FOURCC('I', 'S', 'G', '1')) != NULL) +
                          (sb_dxbc_find_part(dxbc, SB_FOURCC('O', 'S', 'G', '1')) != NULL) +
                          (sb_dxbc_find_part(dxbc, SB_FOURCC('P', 'S', 'G', '1')) != NULL);
}

static void reflect_one(const char *path, const char *relative, void *user)
{
    struct totals *t = user;
    current_file = relative;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    t->files++;
    CHECK(bytes != NULL, "%s: cannot read", relative);
    if (!bytes)
        return;
    struct sb_error error = { 0 };
    struct sb_dxbc *dxbc = NULL;
    struct sb_dxil_program_info *info = NULL;
    enum sb_result result = sb_dxbc_parse(bytes, size, &dxbc, &error);
    if (result == SB_SUCCESS)
        result = sb_dxil_program_info_from_container(dxbc, &info, &error);
    CHECK(result == SB_SUCCESS, "%s: %s at byte %llu: %s", relative, sb_result_name(result),
          (unsigned long long)error.offset, error.message);
    if (info) {
        t->reflected++;
        count(info, dxbc, t);
        uint32_t mismatches = sb_dxil_program_info_check(info, dxbc, print_mismatch, NULL);
        CHECK(mismatches == 0, "%s: %u disagreements with PSV0/ISG1/OSG1/PSG1", relative,
              mismatches);
        t->agreed += mismatches == 0;
    }
    sb_dxil_program_info_destroy(info);
    sb_dxbc_destroy(dxbc);
    free(bytes);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    struct totals t = { 0 };
    if (corpus_manifest_each(argv[1], "dxil", reflect_one, &t) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", argv[1]);
        return 77;
    }
    printf("dxil_reflect_corpus: %u files, %u reflected, %u agree with PSV0/ISG1/OSG1/PSG1 "
           "(%u PSV0 parts, %u signature parts compared)\n",
           t.files, t.reflected, t.agreed, t.psv0, t.signature_parts);
    printf("dxil_reflect_corpus: %u entry points, %u resources, %u signature elements, %u "
           "annotated struct layouts\n", t.entries, t.resources, t.elements, t.structs);
    printf("dxil_reflect_corpus: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
