/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge reflect [--json] [--target T [--VERSION-OPTION V]]
 * [--unbounded-descriptors N] [--device-profile lavapipe|FILE.json] FILE`: everything
 * decoded from one file; for a DXBC shader also the Vulkan bindings its translation uses
 * (json_translate.c) and, with --target, what SPIRV-Cross made of each in that text
 * target (target_options.h). The last two options translate as `translate` does with them,
 * so the listed bindings are those of that module (a device profile may move register
 * spaces onto other sets and buffers onto texel buffers): `validate --spirv --bindings`
 * takes the listing. A DXIL container also gets "dxil_program": its dx.* metadata
 * reflection and cross-check (json_dxil_program.c); the text output prints its summary line.
 */
#include "commands.h"
#include "device_profile.h"
#include "document.h"
#include "target_options.h"

#include <string.h>

int cli_cmd_reflect(int argc, char **argv)
{
    bool json = false;
    const char *name = NULL;
    bool options_done = false, usage_failed = false;
    struct cli_target_choice target = { .target = SB_TRANSLATE_TARGET_SPIRV };
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct cli_device_profile profile = { 0 };
    int status = CLI_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && !strcmp(arg, "--json")) {
            json = true;
        } else if (!options_done && !strcmp(arg, "--unbounded-descriptors") && i + 1 < argc) {
            if (!cli_parse_unbounded_descriptors("reflect", argv[++i], &options.unbounded_descriptor_count))
                goto done;
        } else if (!options_done && !strcmp(arg, "--device-profile") && i + 1 < argc) {
            cli_device_profile_free(&profile);
            if (!cli_device_profile_load(argv[++i], &profile)) {
                status = CLI_EXIT_INVALID_INPUT;
                goto done;
            }
        } else if (!options_done && cli_target_option(argc, argv, &i, "reflect", &target, &usage_failed)) {
            if (usage_failed)
                goto done;
        } else if (!options_done && !strcmp(arg, "--")) {
            options_done = true;
        } else if (!options_done && arg[0] == '-' && arg[1] != 0) {
            cli_usage_error("reflect: unknown option '%s'", arg);
            goto done;
        } else if (name) {
            cli_usage_error("reflect: takes one file ('%s' and '%s' given)", name, arg);
            goto done;
        } else {
            name = arg;
        }
    }
    if (!name) {
        cli_usage_error("reflect: no input file");
        goto done;
    }
    cli_device_profile_apply(&profile, &options);
    if (!cli_target_apply("reflect", &target, &options))
        goto done;
    struct cli_document doc;
    if (!cli_document_open(name, &doc)) {
        status = CLI_EXIT_INVALID_INPUT;
        goto done;
    }
    json_object *tree = cli_document_json(&doc);
    if (doc.format == SB_FORMAT_DXCONTAINER || doc.format == SB_FORMAT_SHBIN) {
        json_object *bindings = cli_json_vulkan_bindings(doc.format == SB_FORMAT_DXCONTAINER ? doc.dxbc : NULL,
                                                         doc.file.bytes, doc.file.size, &options);
        if (bindings)
            cli_json_add(tree, "vulkan_bindings", bindings);
    }
    char dxil_summary[256] = "";
    if (doc.format == SB_FORMAT_DXCONTAINER && doc.dxbc->is_dxil)
        cli_json_add(tree, "dxil_program",
                     cli_json_dxil_program(doc.dxbc, dxil_summary, sizeof(dxil_summary)));
    if (json) {
        puts(json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PRETTY |
                                                      JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE));
    } else {
        /* The program's reflection in full is for --json; the text gets its summary. */
        json_object_object_del(tree, "dxil_program");
        cli_json_print_text(stdout, tree);
        if (dxil_summary[0])
            puts(dxil_summary);
    }
    json_object_put(tree);
    cli_document_close(&doc);
    status = CLI_EXIT_OK;
done:
    cli_device_profile_free(&profile);
    return status;
}
