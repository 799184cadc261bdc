/* SPDX-License-Identifier: MIT */
/*
 * Writes SHBIN files built by the test writer into a folder, so the CLI
 * test (test_shbin_cli.py) can check `info` and `reflect --json` on cases
 * the corpus lacks (../shared/docs/pica200.md §12.9 Nintendo layout with labels and
 * filenames, a geometry shader, non-finite float24 constants).
 *
 * Usage: shbin_make_files OUTDIR
 */
#include "shbin_writer.h"

#include <stdio.h>

static const uint32_t code[6] = {
    0x4E000000, 0x4C210007, 0x88000000, 0x4C000000, 0xA8000000, 0x88000000,
};
static const uint32_t descriptors[2] = { 0x0000036F, 0x0000034E };

static int write_file(const char *dir, const char *name, const struct shbin_writer_program *prog)
{
    struct shbin_writer_file f;
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof(path) || !shbin_writer_build(prog, &f))
        return 1;
    FILE *out = fopen(path, "wb");
    int failed = !out || fwrite(f.bytes, 1, f.size, out) != f.size;
    if (out && fclose(out) != 0)
        failed = 1;
    shbin_writer_free(&f);
    if (failed)
        fprintf(stderr, "cannot write %s\n", path);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    static const struct shbin_writer_label vs_labels[] = { { 1, 0, 0, "main" } };
    static const struct shbin_writer_label gs_labels[] = { { 2, 3, 0, "gmain" } };
    static const struct shbin_writer_output vs_outputs[] = { { 0, 0, 0xF }, { 3, 1, 0x3 } };
    static const struct shbin_writer_output gs_outputs[] = { { 9, 0, 0xF } };
    static const struct shbin_writer_uniform uniforms[] = { { "mvp", 0x10, 0x13 },
                                                            { "enable", 0x79, 0x79 } };
    static const struct shbin_writer_constant constants[] = {
        { 2, 90, { 0x7F0000, 0xFF0000, 0x7F8000, 0x3B9999 } }, /* inf, -inf, NaN, 0.1 */
        { 1, 1, { 0x00FF0203, 0, 0, 0 } },
        { 0, 2, { 1, 0, 0, 0 } },
    };
    const struct shbin_writer_dvle dvles[2] = {
        { .version = 0x0102, .type = 0, .main_address = 0, .end_address = 3,
          .labels = vs_labels, .label_count = 1, .outputs = vs_outputs, .output_count = 2,
          .uniforms = uniforms, .uniform_count = 2, .constants = constants,
          .constant_count = 3 },
        { .version = 0x0102, .type = 1, .flags = 1, .main_address = 3, .end_address = 6,
          .gs_mode = 2, .gs_fixed_start = 0x20, .gs_fixed_count = 3, .labels = gs_labels,
          .label_count = 1, .outputs = gs_outputs, .output_count = 1 },
    };
    static const char *const filenames[] = { "shader.vsh", "shader.gsh" };
    const struct shbin_writer_program nintendo = {
        .layout = SHBIN_WRITER_NINTENDO, .dvlp_version = 0x0102, .code = code,
        .code_word_count = 6, .descriptors = descriptors, .descriptor_count = 2,
        .filenames = filenames, .filename_count = 2, .unknown_words = { 1, 2, 3 },
        .dvles = dvles, .dvle_count = 2,
    };
    return write_file(argv[1], "nintendo.shbin", &nintendo);
}
