/* SPDX-License-Identifier: MIT */
/*
 * The runtime context (runtime.h) on lavapipe: the default device is the
 * llvmpipe one, a device can be named by index or name (options and
 * SHADERBRIDGE_DEVICE), a name that matches nothing is SB_ERROR_NO_DEVICE
 * listing the devices (also with allow_cpu_only), and CPU-only mode has no
 * device and refuses sb_rt_dispatch with SB_ERROR_NO_DEVICE.
 *
 * `--no-loader`: run with SHADERBRIDGE_VULKAN_LOADER naming a library that
 * does not exist, i.e. a machine without a Vulkan loader: a plain create
 * fails with SB_ERROR_NO_DEVICE naming the variable, allow_cpu_only gives a
 * CPU-only context.
 *
 * Exit: 0 pass, 1 fail, 77 no Vulkan device (default mode only).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/runtime.h"

static unsigned failures;

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

/* A CPU-only context refuses GPU work with SB_ERROR_NO_DEVICE. */
static void check_cpu_only(struct sb_rt_context *c)
{
    check(!sb_rt_context_has_device(c), "CPU-only context has no device");
    check(strcmp(sb_rt_context_device_name(c), "cpu-only") == 0, "CPU-only device name is cpu-only");
    check(sb_rt_context_validation_errors(c) == 0, "CPU-only context has no validation errors");
    static const uint32_t words[5] = { 0x07230203, 0x00010300, 0, 1, 0 };
    struct sb_translation t = { .stage = SB_IR_STAGE_COMPUTE, .words = words, .word_count = 5,
                                .entry_point = "main" };
    struct sb_error err = { 0 };
    enum sb_result r = sb_rt_dispatch(c, &t, NULL, 0, (const uint32_t[3]){ 1, 1, 1 }, NULL, &err);
    check(r == SB_ERROR_NO_DEVICE, "sb_rt_dispatch on a CPU-only context is SB_ERROR_NO_DEVICE");
    check(err.code == SB_ERROR_NO_DEVICE && err.message[0], "the dispatch error is filled in");
}

static int no_loader(void)
{
    const char *loader = getenv("SHADERBRIDGE_VULKAN_LOADER");
    if (!loader || !*loader) {
        fprintf(stderr, "--no-loader needs SHADERBRIDGE_VULKAN_LOADER set to a missing library\n");
        return 1;
    }
    struct sb_rt_context *c = NULL;
    struct sb_error err = { 0 };
    struct sb_rt_context_options o = { .validation = true };
    enum sb_result r = sb_rt_context_create(&o, &c, &err);
    printf("plain create: %s: %s\n", sb_result_name(r), err.message);
    check(r == SB_ERROR_NO_DEVICE && !c, "create without a loader is SB_ERROR_NO_DEVICE");
    check(strstr(err.message, "SHADERBRIDGE_VULKAN_LOADER") != NULL, "the message names the loader variable");
    check(strstr(err.message, "no Vulkan loader") != NULL, "the message says there is no loader");
    o.allow_cpu_only = true;
    memset(&err, 0, sizeof(err));
    r = sb_rt_context_create(&o, &c, &err);
    check(r == SB_SUCCESS && c, "allow_cpu_only without a loader gives a context");
    if (c)
        check_cpu_only(c);
    sb_rt_context_destroy(c);
    printf("runtime no-loader: %u failures\n", failures);
    return failures ? 1 : 0;
}

/* Creates a context for `device` (NULL: default) and returns the result; *name gets its device. */
static enum sb_result try_device(const char *device, bool allow_cpu_only, char *name, size_t name_size,
                                 struct sb_error *err)
{
    struct sb_rt_context *c = NULL;
    struct sb_rt_context_options o = { .device = device, .allow_cpu_only = allow_cpu_only, .validation = true };
    memset(err, 0, sizeof(*err));
    enum sb_result r = sb_rt_context_create(&o, &c, err);
    snprintf(name, name_size, "%s", c ? sb_rt_context_device_name(c) : "");
    if (c) {
        check(sb_rt_context_validation_errors(c) == 0, "no validation errors creating a context");
        check(strcmp(sb_rt_context_first_validation_error(c), "") == 0, "no first validation error");
    }
    sb_rt_context_destroy(c);
    return r;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "--no-loader") == 0)
        return no_loader();
    unsetenv("SHADERBRIDGE_DEVICE");
    char name[256], again[256];
    struct sb_error err;
    enum sb_result r = try_device(NULL, false, name, sizeof(name), &err);
    if (r == SB_ERROR_NO_DEVICE) {
        printf("SKIPPED: no Vulkan device (%s)\n", err.message);
        return 77;
    }
    printf("default device: %s\n", name);
    check(r == SB_SUCCESS, "default context");
    check(strstr(name, "llvmpipe") != NULL, "the default device is llvmpipe");

    check(try_device("0", false, again, sizeof(again), &err) == SB_SUCCESS, "device by index 0");
    check(try_device("LLVMPIPE", false, again, sizeof(again), &err) == SB_SUCCESS &&
              strcmp(again, name) == 0, "device by case-insensitive name");
    r = try_device("no-such-gpu-xyz", false, again, sizeof(again), &err);
    printf("bad name: %s: %s\n", sb_result_name(r), err.message);
    check(r == SB_ERROR_NO_DEVICE, "an unknown device name is SB_ERROR_NO_DEVICE");
    check(strstr(err.message, "llvmpipe") != NULL, "the message lists the devices found");
    check(try_device("no-such-gpu-xyz", true, again, sizeof(again), &err) == SB_ERROR_NO_DEVICE,
          "an unknown device name is an error even with allow_cpu_only");
    check(try_device("99", false, again, sizeof(again), &err) == SB_ERROR_NO_DEVICE,
          "an index past the devices is SB_ERROR_NO_DEVICE");

    setenv("SHADERBRIDGE_DEVICE", "llvm", 1);
    check(try_device(NULL, false, again, sizeof(again), &err) == SB_SUCCESS && strcmp(again, name) == 0,
          "SHADERBRIDGE_DEVICE names the device");
    setenv("SHADERBRIDGE_DEVICE", "no-such-gpu-xyz", 1);
    check(try_device(NULL, false, again, sizeof(again), &err) == SB_ERROR_NO_DEVICE,
          "a SHADERBRIDGE_DEVICE that matches nothing is SB_ERROR_NO_DEVICE");
    check(try_device("0", false, again, sizeof(again), &err) == SB_SUCCESS,
          "options->device wins over SHADERBRIDGE_DEVICE");
    unsetenv("SHADERBRIDGE_DEVICE");

    struct sb_rt_context *c = NULL;
    struct sb_rt_context_options cpu = { .cpu_only = true, .validation = true };
    check(sb_rt_context_create(&cpu, &c, &err) == SB_SUCCESS && c, "cpu_only context");
    if (c)
        check_cpu_only(c);
    sb_rt_context_destroy(c);
    check(sb_rt_context_create(NULL, NULL, &err) == SB_ERROR_INVALID_ARGUMENT, "NULL out is rejected");
    sb_rt_context_destroy(NULL);
    check(!sb_rt_context_has_device(NULL) && strcmp(sb_rt_context_first_validation_error(NULL), "") == 0,
          "queries accept NULL");
    printf("runtime context: %u failures\n", failures);
    return failures ? 1 : 0;
}
