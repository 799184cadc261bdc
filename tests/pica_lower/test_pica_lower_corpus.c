/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_pica over the corpus (the corpus dir pica/bin, every .shbin read in
 * place) and samples/simple_tri.shbin: every DVLE lowers, passes
 * sb_ir_validate, and sb_translate_shbin gives SPIR-V that spirv-val accepts
 * for vulkan1.0-1.3. The worked example of ../shared/docs/pica200.md §12.10 is also run
 * on the interpreter. Exits 77 when the corpus is absent.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica_lower_util.h"
#include "shaderbridge/shbin.h"
#include "shaderbridge/translate.h"

struct counts {
    uint32_t files, dvles, lowered, valid, structured, dispatch, spirv_ok, spirv_total;
};

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) != NULL &&
            fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        *size = n > 0 ? (size_t)n : 0;
    }
    fclose(f);
    return data;
}

/* §12.10: c0-c3 = identity rows, v0 = (x, y, z, *) -> o0 = (x, y, z, 1), o1 = (0, 1, 0, 1). */
static void worked_example(const struct sb_ir_program *ir)
{
    struct uniforms u;
    memset(&u, 0, sizeof(u));
    for (int k = 0; k < 4; k++)
        u.c[k][k] = 1.0f;
    float in[1][4][4], out[1][4][4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    in[0][0][0] = 2.5f;
    in[0][0][1] = -3.0f;
    in[0][0][2] = 0.25f;
    in[0][0][3] = 7.0f;
    CHECK(run(ir, &u, 1, (const float (*)[4][4])in, out), "run");
    const float o0[4] = { 2.5f, -3.0f, 0.25f, 1.0f }, o1[4] = { 0, 1, 0, 1 };
    for (int l = 0; l < 4; l++) {
        CHECK(out[0][0][l] == o0[l], "worked example o0[%d] = %g want %g", l, out[0][0][l], o0[l]);
        CHECK(out[0][1][l] == o1[l], "worked example o1[%d] = %g want %g", l, out[0][1][l], o1[l]);
    }
}

static void check_file(const char *path, struct counts *n)
{
    size_t size = 0;
    uint8_t *data = read_file(path, &size);
    CHECK(data != NULL, "cannot read %s", path);
    if (!data)
        return;
    n->files++;
    struct sb_shbin *shbin = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    CHECK(sb_shbin_parse(data, size, &shbin, &e) == SB_SUCCESS, "%s: parse: %s", path, e.message);
    for (uint32_t d = 0; shbin && d < shbin->dvle_count; d++) {
        n->dvles++;
        struct sb_ir_program *ir = NULL;
        enum sb_result r = sb_ir_from_pica(shbin, d, 0, &ir, &e);
        CHECK(r == SB_SUCCESS, "%s[%u]: lowering: %s", path, d, e.message);
        if (r != SB_SUCCESS)
            continue;
        n->lowered++;
        r = sb_ir_validate(ir, &e);
        CHECK(r == SB_SUCCESS, "%s[%u]: sb_ir_validate: %s", path, d, e.message);
        n->valid += r == SB_SUCCESS;
        if (is_dispatch(ir))
            n->dispatch++;
        else
            n->structured++;
        if (strstr(path, "aroulin_simple_tri__vshader_9cc2852d"))
            worked_example(ir);
        for (int env = SB_TARGET_VULKAN_1_0; env <= SB_TARGET_VULKAN_1_3; env++) {
            struct sb_translate_options options = { .target_env = (enum sb_target_env)env,
                                                    .flags = SB_TRANSLATE_VALIDATE };
            struct sb_translation *t = NULL;
            r = sb_translate_shbin(data, size, d, 0, &options, &t, &e);
            n->spirv_total++;
            CHECK(r == SB_SUCCESS, "%s[%u] env %d: %s", path, d, env, e.message);
            n->spirv_ok += r == SB_SUCCESS;
            if (t && ir->resource_count)
                CHECK(t->binding_count == 1 && t->bindings[0].binding == 0 && t->bindings[0].set == 0,
                      "%s: uniform buffer binding", path);
            sb_translation_destroy(t);
        }
        sb_ir_program_destroy(ir);
    }
    /* sb_translate takes SHBIN bytes too (the first DVLE); a missing DVLE is an argument error. */
    struct sb_translation *t = NULL;
    CHECK(sb_translate(data, size, NULL, &t, &e) == SB_SUCCESS, "%s: sb_translate: %s", path, e.message);
    sb_translation_destroy(t);
    t = NULL;
    CHECK(sb_translate_shbin(data, size, 99, 0, NULL, &t, &e) == SB_ERROR_INVALID_ARGUMENT && !t,
          "%s: DVLE 99", path);
    sb_shbin_destroy(shbin);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/pica/bin", argv[1]);
    DIR *d = opendir(dir);
    if (!d) {
        printf("SKIPPED: corpus not found at %s\n", dir);
        return 77;
    }
    struct counts n;
    memset(&n, 0, sizeof(n));
    struct dirent *ent;
    char path[8192];
    while ((ent = readdir(d)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len < 6 || strcmp(ent->d_name + len - 6, ".shbin"))
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, ent->d_name);
        check_file(path, &n);
    }
    closedir(d);
    check_file(argv[2], &n);
    printf("pica_lower_corpus: %u files, %u DVLEs: %u lowered (%u structured, %u dispatch), %u valid IR, "
           "%u/%u translations spirv-val clean (vulkan1.0-1.3)\n",
           n.files, n.dvles, n.lowered, n.structured, n.dispatch, n.valid, n.spirv_ok, n.spirv_total);
    CHECK(n.files >= 20, "expected the 19 corpus files and the sample, found %u", n.files);
    if (g_failures) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    return 0;
}
