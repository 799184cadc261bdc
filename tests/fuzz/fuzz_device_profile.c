/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the device-profile file of `translate --device-profile FILE.json`
 * (tools/shaderbridge/device_profile.c): any bytes are parsed; a success must give a
 * described profile whose format list fits its count (every entry read), a failure an error
 * whose offset lies inside the text and no list left behind. Built with clang as a fuzzer
 * (SB_BUILD_FUZZERS) and, with replay_main.c, as a ctest program replaying
 * tests/fuzz/device_profile_seeds under ASan+UBSan.
 */
#include <stdint.h>
#include <stdlib.h>

#include "device_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cli_device_profile p;
    struct sb_error error = { 0 };
    if (cli_device_profile_parse((const char *)data, size, &p, &error)) {
        if (!p.device.described || (p.format_count && !p.formats) ||
            p.format_count > CLI_DEVICE_PROFILE_MAX_FORMATS)
            abort(); /* a profile that says nothing, or a count without its list: a parser bug */
        uint64_t sum = 0;
        for (uint32_t i = 0; i < p.format_count; i++) /* read every entry: ASan checks the list */
            sum += p.formats[i].vk_format + p.formats[i].space + p.formats[i].register_index;
        (void)sum;
        cli_device_profile_free(&p);
    } else if (error.offset > size || p.formats || p.format_count) {
        abort(); /* an error pointing outside the text, or a list left after a failure */
    }
    return 0;
}
