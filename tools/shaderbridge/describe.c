/* SPDX-License-Identifier: MIT */
/*
 * One-line summary of a DirectX Container for `info`: container flavour,
 * profile (from SHDR/SHEX, or from the DXIL program header), parts, the
 * checksum verdict and the number of warnings.
 */
#include "cli.h"

#include <string.h>

/* Profile prefixes of the DXIL shader kinds that have one (../shared/docs/dxcontainer.md §2). */
static const char *const dxil_profile_prefix[] = {
    "ps", "vs", "gs", "hs", "ds", "cs", "lib", NULL, NULL, NULL, NULL, NULL, NULL, "ms", "as",
};

static void describe_program(const struct sb_dxbc *dxbc, char *buf, size_t size)
{
    buf[0] = 0;
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        const struct sb_dxbc_part *part = &dxbc->parts[i];
        if ((part->kind == SB_DXBC_PART_SHDR || part->kind == SB_DXBC_PART_SHEX) &&
            part->decoded.shader) {
            if (sb_dxbc_shader_header_profile(part->decoded.shader, buf, size) != SB_SUCCESS)
                snprintf(buf, size, "program type %u", part->decoded.shader->program_type);
            return;
        }
        if (part->kind == SB_DXBC_PART_DXIL && part->decoded.program) {
            const struct sb_dxbc_program *program = part->decoded.program;
            uint32_t kind = program->shader_kind;
            const char *prefix = kind < sizeof(dxil_profile_prefix) / sizeof(dxil_profile_prefix[0])
                                     ? dxil_profile_prefix[kind] : NULL;
            const char *name = sb_dxil_shader_kind_name(kind);
            if (prefix)
                snprintf(buf, size, "%s_%u_%u (DXIL %u.%u)", prefix, program->major_version,
                         program->minor_version, program->dxil_major_version,
                         program->dxil_minor_version);
            else
                snprintf(buf, size, "%s %u.%u (DXIL %u.%u)", name ? name : "unknown kind",
                         program->major_version, program->minor_version,
                         program->dxil_major_version, program->dxil_minor_version);
            return;
        }
    }
    if (sb_dxbc_find_part(dxbc, SB_FOURCC('F', 'X', '1', '0')))
        snprintf(buf, size, "effect");
    else if (sb_dxbc_find_part(dxbc, SB_FOURCC('F', 'X', 'L', 'C')))
        snprintf(buf, size, "effect expression");
    else if (sb_dxbc_find_part(dxbc, SB_FOURCC('R', 'T', 'S', '0')))
        snprintf(buf, size, "root signature");
    else
        snprintf(buf, size, "no program");
}

void cli_describe_dxbc(const struct sb_dxbc *dxbc, char *buf, size_t size)
{
    char program[64];
    describe_program(dxbc, program, sizeof(program));
    size_t used = (size_t)snprintf(buf, size, "%s %s, %u part%s [",
                                   dxbc->is_dxil ? "DXIL" : "DXBC", program, dxbc->part_count,
                                   dxbc->part_count == 1 ? "" : "s");
    for (uint32_t i = 0; i < dxbc->part_count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                                 dxbc->parts[i].name);
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, "], digest %s",
                                 sb_dxbc_digest_status_name(dxbc->digest_status));
    if (used < size && dxbc->warning_count)
        snprintf(buf + used, size - used, ", %u warning%s", dxbc->warning_count,
                 dxbc->warning_count == 1 ? "" : "s");
}
