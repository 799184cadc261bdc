/* SPDX-License-Identifier: MIT */
/*
 * The helpers every part of the `shaderbridge` program shares, below the
 * subcommands that call them: file loading and error printing in the
 * `FILE:OFFSET: error: ...` form (cli.c), the JSON helpers (json_util.c), the
 * JSON builders of each format (one json_<format>.c each) and the one-line
 * summaries of `info`. The text form of `reflect` is a rendering of the same
 * JSON tree, so both outputs always agree. Nothing declared here calls a
 * subcommand: those are in commands.h, called by main.c alone.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "shaderbridge/reflect.h"

/** Exit codes of every subcommand. */
enum cli_exit { CLI_EXIT_OK = 0, CLI_EXIT_INVALID_INPUT = 1, CLI_EXIT_USAGE = 2 };

struct cli_file {
    const char *name; /**< as given on the command line; "-" is stdin */
    uint8_t *bytes;   /**< malloc'd contents */
    size_t size;
};

/** Reads FILE (or stdin for "-"); prints an error and returns false on failure (errno then
 *  holds the failure of opening the file, when that was it). */
bool cli_file_load(const char *name, struct cli_file *file);
void cli_file_free(struct cli_file *file);

/** Prints `NAME:OFFSET: error: MESSAGE` to stderr. */
void cli_report_error(const char *name, const struct sb_error *error);

/** Prints `shaderbridge: error: ...` and a pointer to `help` for a usage problem. */
void cli_usage_error(const char *format, ...);

/* JSON helpers (json_util.c). */
json_object *cli_json_u64(uint64_t value);
json_object *cli_json_hex_bytes(const uint8_t *bytes, size_t size);
json_object *cli_json_string_or_null(const char *s);
json_object *cli_json_u32_array(const uint32_t *values, uint32_t count);
/** {"code", "offset", "message"} of a failed call. */
json_object *cli_json_error(enum sb_result result, const struct sb_error *error);
json_object *cli_json_flag_names(uint64_t flags, const char *const *names, unsigned name_count);
void cli_json_add(json_object *object, const char *key, json_object *value);
void cli_json_add_u64(json_object *object, const char *key, uint64_t value);
void cli_json_add_str(json_object *object, const char *key, const char *value);
void cli_json_add_bool(json_object *object, const char *key, bool value);
/** Prints a JSON tree as indented `key: value` text. */
void cli_json_print_text(FILE *out, json_object *value);

/* Per-format JSON builders: each returns a new object describing everything decoded. */
json_object *cli_json_dxbc(const struct sb_dxbc *dxbc);
json_object *cli_json_shbin(const struct sb_shbin *shbin);
json_object *cli_json_vbc(const struct sb_vbc *vbc);
json_object *cli_json_dds(const struct sb_dds *dds);
json_object *cli_json_spirv(const uint8_t *bytes, size_t size);

/**
 * `vulkan_bindings` of `reflect` (json_translate.c): translates a DXBC
 * container with SHDR/SHEX and lists the Vulkan set/binding/descriptor type
 * given to each resource: {"target_env", "bindings": [...]}, or
 * {"target_env", "error": {...}} when translation fails (reflect itself still
 * succeeds). For a SHBIN (dxbc NULL, bytes starting "DVLB"): the same for DVLE 0,
 * plus "inputs" and "outputs" (location, components, type, semantic). NULL for
 * containers without an SM4/5 program. `options` chooses the translation; with a text
 * target (options->target) the object also holds "target", "target_version" and
 * "target_bindings": kind, set, binding, location, name and slot of each binding and
 * stage variable as the text declares it (sb_translation::target_bindings).
 */
struct sb_translate_options;
json_object *cli_json_vulkan_bindings(const struct sb_dxbc *dxbc, const uint8_t *bytes,
                                      size_t size, const struct sb_translate_options *options);

/** Per-part JSON for FXC-era parts (json_dxbc_fxc.c); NULL when the part is not one. */
json_object *cli_json_dxbc_fxc_part(const struct sb_dxbc *dxbc, const struct sb_dxbc_part *part);
/**
 * `reflect`'s "dxil_program" object for a container with a DXIL part (json_dxil_program.c):
 * the dx.* metadata reflection and its cross-check with PSV0 and ISG1/OSG1/PSG1, or an
 * "error" object; writes the one-line text summary to `summary`.
 */
json_object *cli_json_dxil_program(const struct sb_dxbc *dxbc, char *summary, size_t summary_size);
/** Per-part JSON for DXC-era parts (json_dxbc_dxil.c); NULL when the part is not one. */
json_object *cli_json_dxbc_dxil_part(const struct sb_dxbc *dxbc, const struct sb_dxbc_part *part);

/* One-line summaries for `info` (written into buf). */
void cli_describe_dxbc(const struct sb_dxbc *dxbc, char *buf, size_t size);
void cli_describe_shbin(const struct sb_shbin *shbin, char *buf, size_t size);
void cli_describe_vbc(const struct sb_vbc *vbc, char *buf, size_t size);
void cli_describe_dds(const struct sb_dds *dds, char *buf, size_t size);

#endif
