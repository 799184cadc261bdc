/* SPDX-License-Identifier: MIT */
/*
 * JSON for a DirectX Container: header, digest verdict, warnings and the
 * part table; each part's decoded content comes from json_dxbc_fxc.c or
 * json_dxbc_dxil.c.
 */
#include "cli.h"

#include <string.h>

static json_object *part_json(const struct sb_dxbc *dxbc, const struct sb_dxbc_part *part)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", part->name);
    cli_json_add_str(o, "kind", sb_dxbc_part_kind_description(part->kind));
    cli_json_add_u64(o, "offset", part->header_offset);
    cli_json_add_u64(o, "size", part->size);
    json_object *decoded = cli_json_dxbc_fxc_part(dxbc, part);
    if (!decoded)
        decoded = cli_json_dxbc_dxil_part(dxbc, part);
    if (decoded)
        cli_json_add(o, "decoded", decoded);
    return o;
}

json_object *cli_json_dxbc(const struct sb_dxbc *dxbc)
{
    json_object *o = json_object_new_object();
    json_object *header = json_object_new_object();
    cli_json_add_u64(header, "major_version", dxbc->major_version);
    cli_json_add_u64(header, "minor_version", dxbc->minor_version);
    cli_json_add_u64(header, "file_size", dxbc->file_size);
    cli_json_add_u64(header, "part_count", dxbc->part_count);
    cli_json_add(header, "digest", cli_json_hex_bytes(dxbc->digest, 16));
    cli_json_add(header, "computed_digest", cli_json_hex_bytes(dxbc->computed_digest, 16));
    cli_json_add_str(header, "digest_status", sb_dxbc_digest_status_name(dxbc->digest_status));
    cli_json_add_bool(header, "checksum_ok", dxbc->checksum_ok);
    cli_json_add(o, "header", header);
    cli_json_add_str(o, "container", dxbc->is_dxil ? "dxil" : "dxbc");

    json_object *parts = json_object_new_array();
    for (uint32_t i = 0; i < dxbc->part_count; i++)
        json_object_array_add(parts, part_json(dxbc, &dxbc->parts[i]));
    cli_json_add(o, "parts", parts);

    json_object *warnings = json_object_new_array();
    for (uint32_t i = 0; i < dxbc->warning_count; i++) {
        json_object *w = json_object_new_object();
        cli_json_add_u64(w, "offset", dxbc->warnings[i].offset);
        cli_json_add_str(w, "message", dxbc->warnings[i].message);
        json_object_array_add(warnings, w);
    }
    cli_json_add(o, "warnings", warnings);
    return o;
}
