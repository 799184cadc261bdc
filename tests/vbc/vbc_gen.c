/* SPDX-License-Identifier: MIT */
/*
 * Writes three of the test .vbc files (basic, full, formats) into a folder
 * of the build tree, for the CLI test (check_cli.py) and for anyone who
 * wants a VBC file to look at: there are no public ones (../shared/docs/vbc.md §10).
 *
 * Usage: vbc_gen SPV_DIR OUT_DIR
 */
#include "vbc_writer.h"

#include <stdio.h>
#include <stdlib.h>

static bool write_file(const char *dir, const char *name, const struct vw_spec *spec)
{
    size_t size = 0;
    uint8_t *bytes = vw_write(spec, &size, NULL);
    if (!bytes)
        return false;
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(bytes, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "vbc_gen: cannot write %s\n", path);
    free(bytes);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: vbc_gen SPV_DIR OUT_DIR\n");
        return 2;
    }
    struct vw_modules modules;
    if (!vw_modules_load(&modules, argv[1]))
        return 1;
    static struct vw_spec spec;
    bool ok = true;
    vw_spec_basic(&spec, &modules);
    ok &= write_file(argv[2], "basic.vbc", &spec);
    vw_spec_full(&spec, &modules);
    ok &= write_file(argv[2], "full.vbc", &spec);
    vw_spec_formats(&spec, &modules);
    ok &= write_file(argv[2], "formats.vbc", &spec);
    vw_modules_free(&modules);
    return ok ? 0 : 1;
}
