/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for DXIL program reflection (translator/dxil_program_info.h)
 * behind `reflect`: a DirectX Container through sb_dxbc_parse, then its DXIL
 * part through the bitcode reader, the dx.* metadata decoder, the PSV0 /
 * ISG1 / OSG1 / PSG1 cross-check and the "dxil_program" JSON builder. A
 * decode failure must be a structured error whose offset lies in the input
 * and whose message is not empty. Built like the other targets: a libFuzzer
 * binary with SB_BUILD_FUZZERS, a replay ctest over the corpus's dxc
 * containers otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "translator/dxil_program_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_dxbc *dxbc = NULL;
    if (sb_dxbc_parse(data, size, &dxbc, NULL) != SB_SUCCESS)
        return 0;
    if (dxbc->is_dxil) {
        struct sb_dxil_program_info *info = NULL;
        struct sb_error error = { 0 };
        enum sb_result result = sb_dxil_program_info_from_container(dxbc, &info, &error);
        if (result != SB_SUCCESS && (error.offset > size || !error.message[0] || info))
            abort();
        if (info)
            sb_dxil_program_info_check(info, dxbc, NULL, NULL);
        sb_dxil_program_info_destroy(info);
        char summary[256];
        json_object *program = cli_json_dxil_program(dxbc, summary, sizeof(summary));
        if (!json_object_to_json_string(program) || !summary[0])
            abort();
        json_object_put(program);
    }
    sb_dxbc_destroy(dxbc);
    return 0;
}
