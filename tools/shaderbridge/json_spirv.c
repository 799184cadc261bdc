/* SPDX-License-Identifier: MIT */
/* The SPIR-V module header (SPIR-V spec §2.3), for `reflect` and `info`. */
#include "cli.h"

static uint32_t word_at(const uint8_t *bytes, size_t index, bool swapped)
{
    const uint8_t *p = bytes + 4 * index;
    return swapped ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
                   : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

json_object *cli_json_spirv(const uint8_t *bytes, size_t size)
{
    json_object *o = json_object_new_object();
    bool swapped = word_at(bytes, 0, false) != 0x07230203u;
    uint32_t version = word_at(bytes, 1, swapped);
    char text[16];
    snprintf(text, sizeof(text), "%u.%u", (version >> 16) & 0xff, (version >> 8) & 0xff);
    cli_json_add_str(o, "byte_order", swapped ? "big-endian" : "little-endian");
    cli_json_add_str(o, "version", text);
    cli_json_add_u64(o, "generator", word_at(bytes, 2, swapped));
    cli_json_add_u64(o, "id_bound", word_at(bytes, 3, swapped));
    cli_json_add_u64(o, "schema", word_at(bytes, 4, swapped));
    cli_json_add_u64(o, "word_count", size / 4);
    return o;
}
