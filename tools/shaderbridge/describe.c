/* SPDX-License-Identifier: MIT */
/* One-line summaries of a DirectX Container for `info`. */
#include "cli.h"

#include <string.h>

void cli_describe_dxbc(const struct sb_dxbc *dxbc, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s container, %u parts [",
                                   dxbc->is_dxil ? "DXIL" : "DXBC", dxbc->part_count);
    for (uint32_t i = 0; i < dxbc->part_count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                                 dxbc->parts[i].name);
    if (used < size)
        snprintf(buf + used, size - used, "], digest %s",
                 sb_dxbc_digest_status_name(dxbc->digest_status));
}
