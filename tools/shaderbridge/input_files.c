/* SPDX-License-Identifier: MIT */
/*
 * `--input REG=FILE` for draws and `validate`: the register name parsed, the file read by
 * its kind (bytes; a DDS or PNG texture; sampler text; a vertex stream's bytes) into one
 * provided entry. The entries' fit to the program is the library's check
 * (sb_rt_inputs_provide, sb_validate), so `run` and `validate` refuse the same files the
 * same way; this file only reports those refusals against the spec the user typed.
 */
#include "input_files.h"
#include "dds_input.h"
#include "png_image.h"
#include "sampler_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "cb0", "t3", "u1@space2", "s0", "v2": the register an --input names; false when it names none. */
static bool parse_register(const char *name, size_t len, struct sb_rt_resource *r)
{
    static const struct { const char *prefix; uint32_t cls; bool spaces; } classes[] = {
        { "cb", SB_IR_RESOURCE_CBV, true }, { "t", SB_IR_RESOURCE_SRV, true }, { "u", SB_IR_RESOURCE_UAV, true },
        { "s", SB_IR_RESOURCE_SAMPLER, true }, { "v", SB_VALIDATE_CLASS_VERTEX_INPUT, false },
    };
    for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++) {
        size_t n = strlen(classes[c].prefix);
        if (len <= n || strncmp(name, classes[c].prefix, n) != 0)
            continue;
        char text[48];
        memcpy(text, name + n, len - n);
        text[len - n] = 0;
        unsigned long reg = 0, space = 0;
        int used = 0;
        /* Digits only: sscanf's %lu would take a sign or spaces. */
        if (text[0] < '0' || text[0] > '9')
            return false;
        if (sscanf(text, "%lu%n", &reg, &used) != 1 || reg > 0xFFFFFFFFul)
            return false;
        if (text[used]) {
            int more = 0;
            const char *at = text + used;
            if (!classes[c].spaces || strncmp(at, "@space", 6) != 0 || at[6] < '0' || at[6] > '9' ||
                sscanf(at + 6, "%lu%n", &space, &more) != 1 || at[6 + more] || space > 0xFFFFFFFFul)
                return false;
        }
        memset(r, 0, sizeof(*r));
        r->resource_class = (enum sb_ir_resource_class)classes[c].cls;
        r->register_index = (uint32_t)reg;
        r->space = (uint32_t)space;
        return true;
    }
    return false;
}

/* A t# named *.png: the file's bytes become its texels (owned by `file`). */
static bool load_png(const char *path, struct cli_file *file, struct sb_rt_resource *r)
{
    void *texels = NULL;
    struct sb_error error = { 0 };
    if (cli_png_read_texture(file->bytes, file->size, r, &texels, &error) != SB_SUCCESS) {
        cli_report_error(path, &error);
        return false;
    }
    free(file->bytes);
    file->bytes = texels;
    file->size = r->size;
    return true;
}

/* An s#: the sampler text parsed into the entry's state; no bytes travel with it. */
static bool load_sampler(const char *path, const struct cli_file *file, struct sb_rt_resource *r)
{
    struct sb_error error = { 0 };
    if (cli_sampler_text_parse(file->bytes, file->size, &r->sampler, &error) != SB_SUCCESS) {
        cli_report_error(path, &error);
        return false;
    }
    r->data = NULL;
    r->size = 0;
    return true;
}

int cli_input_load(const char *command, const char *spec, struct sb_rt_resource *r, struct cli_file *file)
{
    memset(file, 0, sizeof(*file));
    const char *eq = strchr(spec, '=');
    size_t len = eq ? (size_t)(eq - spec) : 0;
    if (len == 0 || len >= 48 || !parse_register(spec, len, r)) {
        cli_usage_error("%s: --input '%s': takes cb#, t#, u#, s# (u1@space2 in a space) or v# (vertex "
                        "shaders) before '='", command, spec);
        return CLI_EXIT_USAGE;
    }
    const char *path = eq + 1;
    if (!cli_file_load(path, file)) /* it says why; exit 2 as for a dispatch's --input */
        return CLI_EXIT_USAGE;
    bool ok = true;
    /* A UAV texture starts from a file's texels as a read-only one does. */
    bool textured = r->resource_class == SB_IR_RESOURCE_SRV || r->resource_class == SB_IR_RESOURCE_UAV;
    if (r->resource_class == SB_IR_RESOURCE_SAMPLER) {
        ok = load_sampler(path, file, r);
    } else if (textured && cli_dds_input_named(path)) {
        ok = cli_dds_input_load(path, file, r); /* shaped: sb_validate checks it against the declaration */
    } else if (textured && cli_png_input_named(path)) {
        ok = load_png(path, file, r);
    } else {
        r->data = file->bytes;
        r->size = file->size;
    }
    if (!ok) {
        cli_file_free(file);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

void cli_input_free(struct cli_file *files, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++)
        cli_file_free(&files[k]);
}

bool cli_input_report_refusal(const char *command, enum sb_result r, const struct sb_error *error,
                              const char *const *specs, uint32_t count)
{
    if (r == SB_SUCCESS || error->offset >= count || strncmp(error->message, "provided input", 14) != 0)
        return false;
    /* The library names the entry by index; the user knows it by its --input. */
    fprintf(stderr, "shaderbridge: error: %s: --input %s: %s [%s]\n", command, specs[error->offset], error->message,
            sb_result_name(r));
    return true;
}
