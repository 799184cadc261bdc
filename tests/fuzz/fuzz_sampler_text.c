/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the sampler text of `--input sN=FILE` (tools/shaderbridge/
 * sampler_text.c): any bytes are parsed; a success must give a state the runtime accepts
 * (enums in range, min_lod <= max_lod, anisotropy 0 or 1..16), a failure an error whose
 * offset lies inside the text. Built with clang as a fuzzer (SB_BUILD_FUZZERS) and, with
 * replay_main.c, as a ctest program replaying tests/fuzz/sampler_seeds under ASan+UBSan.
 */
#include <stdint.h>
#include <stdlib.h>

#include "sampler_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_rt_sampler s;
    struct sb_error error = { 0 };
    if (cli_sampler_text_parse(data, size, &s, &error) == SB_SUCCESS) {
        bool sane = s.min_filter <= SB_RT_FILTER_LINEAR && s.mag_filter <= SB_RT_FILTER_LINEAR &&
                    s.mip_filter <= SB_RT_FILTER_LINEAR && s.compare_op <= 7 && s.min_lod <= s.max_lod &&
                    (s.max_anisotropy == 0.0f || (s.max_anisotropy >= 1.0f && s.max_anisotropy <= 16.0f));
        for (int a = 0; a < 3; a++)
            sane = sane && s.address[a] <= SB_RT_ADDRESS_MIRROR_ONCE;
        if (!sane)
            abort(); /* a state the runtime would refuse: a parser bug */
    } else if (error.offset > size) {
        abort(); /* an error pointing outside the text */
    }
    return 0;
}
