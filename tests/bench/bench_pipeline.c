/* SPDX-License-Identifier: MIT */
/*
 * Our SPIR-V against vkd3d-shader's on the device (lavapipe): module bytes, the
 * cost of a pipeline's creation and first use (compute, vertex, pixel), and the run
 * time of a large dispatch, per corpus shader, for shaderbridge, shaderbridge -O
 * (SB_TRANSLATE_OPTIMIZE) and one vkd3d-shader release loaded at run time
 * (vkd3d_peer.h; the current release is 1.17).
 *
 * Usage: bench_pipeline CORPUS_DIR [--peer LIB] [--reps N] [--limit N]
 *                       [--stages cs,vs,ps] [--csv FILE] [--dxil]
 *   --peer LIB    the vkd3d-shader library (default "libvkd3d-shader.so.1": the loader's
 *                 choice; give the path of a 1.17 build to measure 1.17)
 *   --reps N      device measurements per shader and engine (default 3)
 *   --limit N     an evenly spaced, deterministic sample of N of the selected shaders
 *   --stages L    which manifest program types to take (default cs,vs,ps)
 *   --csv FILE    one row per shader: bytes, times and why an engine did not run
 *   --dxil        the DXIL corpus (corpus/dxil/MANIFEST.tsv) instead of DXBC; the peer
 *                 compiles it as DXBC_DXIL (vkd3d-shader 1.9 and later)
 *
 * Bindings: vkd3d-shader is given our binding (set, binding) of every register
 * through its interface info, UAV counters included, so one set of resources serves
 * every module. Its descriptor types may differ (by default vkd3d declares buffer
 * UAVs as storage texel buffers and raw / structured SRVs as uniform texel buffers,
 * where we use storage buffers): they are read back from its module
 * (tests/vulkan/vk_spirv_reflect.h) and the layout and the resources are built to
 * match (raw / structured buffers then bound as R32_UINT texel buffers over the
 * same bytes).
 *
 * Per compute shader that every engine translates: resources of the sizes our
 * reflection asks for (sb_rt_inputs_create's shapes), zero-filled; then --reps
 * rounds, each engine in turn (the first engine rotates from round to round, so load
 * from other processes spreads over the engines), each measurement in a forked
 * child on a VkDevice of its own (bench_pipeline_vk.c): module + pipeline creation,
 * the first dispatch of 1x1x1 groups, then one dispatch of 256x1x1 groups. Per
 * shader and engine the report keeps the best (lowest) creation + first use of the
 * rounds and the median of the large dispatches, wall time and the process's CPU time
 * (every thread: lavapipe runs the groups on worker threads; on a loaded machine the
 * wall time also counts waiting for a core, the CPU time barely does). A shader has
 * "enough work" for the run-time comparison when some engine's median large dispatch
 * takes >= 1 ms.
 * Vertex and pixel shaders every engine translates: the same rounds, each measurement
 * sb_validate's device side on a fresh device (bench_pipeline_vk.c): the partner stage
 * it generates (a capture geometry stage after a vertex shader, a feeder vertex stage
 * before a pixel shader, both ours for every engine), its seeded inputs, one point
 * draw; creation = modules + layouts + render pass + pipeline, first use = the first
 * draw submitted and waited for. The peer's module goes in through
 * sb_validate_options::gpu_spirv, which needs our stage interface, bindings and
 * descriptor types: a module that differs is counted as not run.
 * Children: vkd3d-shader aborts on some inputs and lavapipe crashes on some modules,
 * so translation by the peer and every device measurement run in forked children; a
 * shader an engine cannot run is counted with the reason and left out of the
 * comparison. The Mesa shader disk cache is switched off (MESA_SHADER_CACHE_DISABLE),
 * otherwise every round after the first would reload the first round's code.
 *
 * Nothing asserts a time. Exit: 0; 1 usage, I/O, or a peer that does not load; 77
 * without the corpus.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_pipeline.h"
#include "corpus_list.h"
#include "test_file.h"
#include "shaderbridge/validate.h"
#include "spirv_strip.h"
#include "translator/ir.h"
#include "vk_spirv_reflect.h"
#include "vkd3d_peer.h"

#define MAX_REPS 51
#define ENOUGH_WORK_NS 1000000.0  /* the run-time comparison's rule: 1 ms */
#define CHILD_SECONDS 120         /* a measurement that takes longer is killed and counted */

/* VkDescriptorType values of the texel buffers (the runtime keeps Vulkan out of its public headers). */
enum { VK_UNIFORM_TEXEL_BUFFER = 4, VK_STORAGE_TEXEL_BUFFER = 5 };

enum engine { OURS, OURS_O, PEER, ENGINE_COUNT };

/* The large dispatch: 256 groups in a row. */
static const uint32_t large_groups[3] = { 256, 1, 1 };

/* One shader's figures; times in ns. */
struct row {
    char *path;
    char type[3];
    bool translated[ENGINE_COUNT];
    size_t raw_bytes[ENGINE_COUNT], stripped_bytes[ENGINE_COUNT];
    bool timed;                        /* a compute shader every engine translated */
    bool ran[ENGINE_COUNT];            /* every round ran */
    double create_first[ENGINE_COUNT]; /* best round's creation + first dispatch */
    double create[ENGINE_COUNT], first[ENGINE_COUNT]; /* of that round */
    double large[ENGINE_COUNT];        /* median of the rounds' large dispatches */
    double large_cpu[ENGINE_COUNT];    /* median of their process CPU times (bp_sample::large_cpu_ns) */
    char why[ENGINE_COUNT][256];       /* why it did not translate or run */
};

struct options {
    const char *corpus, *peer, *stages, *csv;
    long reps, limit;
    bool dxil;
};

/* VKD3D_SHADER_SOURCE_DXBC_DXIL of vkd3d_shader.h 1.9+ (Debian's 1.2 header lacks the name,
 * and its library refuses the value as an unknown source type). */
#define PEER_SOURCE_DXBC_DXIL ((enum vkd3d_shader_source_type)4)

/* The corpus folder of the manifest: "dxbc" or "dxil". */
static const char *corpus_top(const struct options *o)
{
    return o->dxil ? "dxil" : "dxbc";
}

static struct vkd3d_peer peer;
static char device_name[96];

static const char *engine_name(enum engine e)
{
    return e == OURS ? "shaderbridge" : e == OURS_O ? "shaderbridge -O" : peer.label;
}

/* Reasons are cut to fit their row (a report line, a CSV cell): truncation is intended. */
static void say(char *why, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(why, size, format, args);
    va_end(args);
}

/* "killed by signal 6", "exit status 3" */
static void describe_status(int status, char *why, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(why, size, "killed by signal %d%s", WTERMSIG(status),
                 WTERMSIG(status) == SIGALRM ? " (over the time limit)" : "");
    else
        snprintf(why, size, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* ---- the peer's module -------------------------------------------------------------------- */

static const struct sb_ir_resource *declaration_of(const struct sb_ir_program *ir,
                                                   const struct sb_translated_binding *b)
{
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *r = &ir->resources[i];
        if (r->resource_class == b->resource_class && r->space == b->space && r->lower_bound == b->lower_bound)
            return r;
    }
    return NULL;
}

static bool is_buffer(const struct sb_ir_resource *r)
{
    return r->resource_class == SB_IR_RESOURCE_CBV || r->kind != SB_IR_RESOURCE_KIND_TYPED || r->dimension == 1;
}

/* Child: compiles with our bindings and writes the word count, then the words, to fd. */
static void peer_compile_child(int fd, const struct sb_rt_program *p, const void *dxbc, size_t size,
                               enum vkd3d_shader_source_type source_type)
{
    const struct sb_translation *t = p->translation;
    struct vkd3d_shader_resource_binding *bindings = calloc(t->binding_count + 1, sizeof(*bindings));
    struct vkd3d_shader_uav_counter_binding *counters = calloc(t->binding_count + 1, sizeof(*counters));
    if (!bindings || !counters)
        _exit(2);
    static const enum vkd3d_shader_descriptor_type types[] = {
        [SB_IR_RESOURCE_CBV] = VKD3D_SHADER_DESCRIPTOR_TYPE_CBV,
        [SB_IR_RESOURCE_SRV] = VKD3D_SHADER_DESCRIPTOR_TYPE_SRV,
        [SB_IR_RESOURCE_SAMPLER] = VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER,
        [SB_IR_RESOURCE_UAV] = VKD3D_SHADER_DESCRIPTOR_TYPE_UAV,
    };
    unsigned binding_count = 0, counter_count = 0;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        const struct sb_ir_resource *r = declaration_of(p->ir, b);
        if (!r)
            continue; /* nothing declared to bind: vkd3d-shader keeps its default */
        bindings[binding_count++] = (struct vkd3d_shader_resource_binding){
            .type = types[b->resource_class & 3], .register_space = b->space,
            .register_index = b->lower_bound, .shader_visibility = VKD3D_SHADER_VISIBILITY_ALL,
            .flags = is_buffer(r) ? VKD3D_SHADER_BINDING_FLAG_BUFFER : VKD3D_SHADER_BINDING_FLAG_IMAGE,
            .binding = { .set = b->set, .binding = b->binding, .count = b->count },
        };
        if (b->has_counter)
            counters[counter_count++] = (struct vkd3d_shader_uav_counter_binding){
                .register_space = b->space, .register_index = b->lower_bound,
                .shader_visibility = VKD3D_SHADER_VISIBILITY_ALL,
                .binding = { .set = b->set, .binding = b->counter_binding, .count = b->count },
                .offset = 0,
            };
    }
    struct vkd3d_shader_spirv_target_info target = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO,
        .entry_point = "main",
        .environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0,
    };
    struct vkd3d_shader_interface_info interface = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO, .next = &target,
        .bindings = bindings, .binding_count = binding_count,
        .uav_counters = counters, .uav_counter_count = counter_count,
    };
    struct vkd3d_shader_compile_info info = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO, .next = &interface,
        .source = { dxbc, size }, .source_type = source_type,
        .target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY, .log_level = VKD3D_SHADER_LOG_ERROR,
    };
    struct vkd3d_shader_code code = { 0 };
    char *messages = NULL;
    int result = peer.compile(&info, &code, &messages);
    uint64_t words = result < 0 || code.size % 4 ? 0 : code.size / 4;
    bool ok = sb_test_write_all(fd, &words, sizeof(words));
    if (words)
        ok = ok && sb_test_write_all(fd, code.code, words * 4);
    else { /* its first message says why, for the report */
        char first[200] = "";
        snprintf(first, sizeof(first), "%s", messages ? messages : "");
        first[strcspn(first, "\r\n")] = 0;
        ok = ok && sb_test_write_all(fd, first, sizeof(first));
    }
    peer.free_messages(messages);
    _exit(ok ? 0 : 1);
}

/* The peer's module (malloc'd) in a child, or NULL with `why`. */
static uint32_t *peer_compile(const struct sb_rt_program *p, const void *dxbc, size_t size,
                              enum vkd3d_shader_source_type source_type, size_t *count, char *why, size_t why_size)
{
    int fds[2];
    if (pipe(fds) != 0)
        return say(why, why_size, "pipe failed"), NULL;
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return say(why, why_size, "fork failed"), NULL;
    }
    if (child == 0) {
        close(fds[0]);
        peer_compile_child(fds[1], p, dxbc, size, source_type);
    }
    close(fds[1]);
    uint64_t words = 0;
    uint32_t *module = NULL;
    char first[200] = "";
    bool got = sb_test_read_all(fds[0], &words, sizeof(words)) && words > 0 && words < (1u << 28) &&
               (module = malloc(words * 4)) && sb_test_read_all(fds[0], module, words * 4);
    if (!got && words == 0 && sb_test_read_all(fds[0], first, sizeof(first)))
        first[sizeof(first) - 1] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (got && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        *count = (size_t)words;
        return module;
    }
    free(module);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        say(why, why_size, "%s failed to translate it: %s", peer.label, first[0] ? first : "(no message)");
    else {
        char status_text[64];
        describe_status(status, status_text, sizeof(status_text));
        say(why, why_size, "%s: %s", peer.label, status_text);
    }
    return NULL;
}

/*
 * The peer's module as a translation the runtime can bind: our report (registers, sets,
 * bindings) with the descriptor types its module declares. NULL `why` filled when it
 * cannot share our resources: what the runtime binds differently from what vkd3d-shader
 * declares (descriptor arrays, its texel-buffer UAV counters, class linkage), an invalid
 * module (lavapipe's compiler crashes on some), or a binding ours does not have.
 */
static struct sb_translated_binding *peer_bindings(const struct sb_rt_program *p, const uint32_t *words,
                                                   size_t count, char *why, size_t why_size)
{
    const struct sb_translation *t = p->translation;
    if (p->ir->interface_count)
        return say(why, why_size, "class linkage"), NULL;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        if (t->bindings[i].count != 1)
            return say(why, why_size, "a descriptor array (the runtime binds ours only)"), NULL;
        if (t->bindings[i].has_counter)
            return say(why, why_size, "a UAV counter (vkd3d-shader's is a texel buffer, the runtime "
                            "binds a storage buffer)"), NULL;
    }
    struct sb_error error = { 0 };
    if (sb_spirv_validate(words, count, SB_TARGET_VULKAN_1_0, &error) != SB_SUCCESS)
        return say(why, why_size, "its module is invalid SPIR-V: %s", error.message), NULL;
    static struct vkr_storage storage;
    struct sb_translation reflected = { 0 };
    if (!vkr_translation_from_spirv(words, count, &storage, &reflected))
        return say(why, why_size, "its module cannot be reflected"), NULL;
    struct sb_translated_binding *bindings = calloc(t->binding_count + 1, sizeof(*bindings));
    if (!bindings)
        return say(why, why_size, "out of memory"), NULL;
    for (uint32_t i = 0; i < t->binding_count; i++)
        bindings[i] = t->bindings[i];
    for (uint32_t k = 0; k < reflected.binding_count; k++) {
        const struct sb_translated_binding *theirs = &reflected.bindings[k];
        bool found = false;
        for (uint32_t i = 0; i < t->binding_count && !found; i++)
            if (bindings[i].set == theirs->set && bindings[i].binding == theirs->binding) {
                bindings[i].descriptor_type = theirs->descriptor_type;
                found = true;
            }
        if (!found) {
            say(why, why_size, "its module declares set %u binding %u, which ours does not", theirs->set,
                     theirs->binding);
            free(bindings);
            return NULL;
        }
    }
    return bindings;
}

/* Raw and structured buffers behind the peer's texel-buffer descriptors: R32_UINT texels. */
static void as_texel_buffers(const struct sb_translation *ours, const struct sb_translated_binding *theirs,
                             struct sb_rt_inputs *inputs)
{
    for (uint32_t i = 0; i < ours->binding_count; i++) {
        uint32_t type = theirs[i].descriptor_type;
        if (type == ours->bindings[i].descriptor_type ||
            (type != VK_UNIFORM_TEXEL_BUFFER && type != VK_STORAGE_TEXEL_BUFFER))
            continue;
        for (uint32_t r = 0; r < inputs->count; r++) {
            struct sb_rt_resource *res = &inputs->resources[r];
            if (res->resource_class == theirs[i].resource_class && res->space == theirs[i].space &&
                res->register_index == theirs[i].lower_bound && !res->dimension) {
                res->format = SB_RT_FORMAT_R32_UINT;
                res->width = (uint32_t)(res->size / 4);
            }
        }
    }
}

/* ---- device measurements ------------------------------------------------------------------ */

/* What one measurement runs: a compute translation over resources, or a vertex / pixel
 * program, with another compiler's module in place of its translation when spirv is set. */
struct job {
    const struct sb_translation *translation;
    struct sb_rt_inputs *inputs;
    const struct sb_rt_program *program;
    const uint32_t *spirv;
    size_t spirv_words;
};

/* One measurement in a child; false with `why` when it did not run. */
static bool measure_in_child(const struct job *job, struct bp_sample *out, char *why, size_t why_size)
{
    int fds[2];
    if (pipe(fds) != 0)
        return say(why, why_size, "pipe failed"), false;
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return say(why, why_size, "fork failed"), false;
    }
    if (child == 0) {
        close(fds[0]);
        alarm(CHILD_SECONDS);
        struct bp_sample sample;
        if (job->program)
            bp_measure_graphics(job->program, job->spirv, job->spirv_words, &sample);
        else
            bp_measure_compute(job->translation, job->inputs->resources, job->inputs->count, large_groups, &sample);
        _exit(sb_test_write_all(fds[1], &sample, sizeof(sample)) ? 0 : 1);
    }
    close(fds[1]);
    bool got = sb_test_read_all(fds[0], out, sizeof(*out));
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char status_text[64];
        describe_status(status, status_text, sizeof(status_text));
        say(why, why_size, "the measuring process died: %s", status_text);
        return false;
    }
    out->message[sizeof(out->message) - 1] = 0;
    out->device[sizeof(out->device) - 1] = 0;
    if (!device_name[0] && out->device[0])
        snprintf(device_name, sizeof(device_name), "%s", out->device);
    if (!out->ran)
        say(why, why_size, "%s", out->message);
    return out->ran;
}

/* --reps rounds over the engines that can run; fills ran / create_first / large. */
static void time_rounds(struct row *row, const struct job jobs[ENGINE_COUNT], const bool runnable[ENGINE_COUNT],
                        long reps)
{
    double large[ENGINE_COUNT][MAX_REPS], large_cpu[ENGINE_COUNT][MAX_REPS];
    long rounds[ENGINE_COUNT] = { 0 };
    for (int e = 0; e < ENGINE_COUNT; e++) {
        row->ran[e] = runnable[e];
        row->create_first[e] = -1.0;
    }
    for (long r = 0; r < reps; r++)
        for (int k = 0; k < ENGINE_COUNT; k++) {
            int e = (int)((k + r) % ENGINE_COUNT);
            if (!row->ran[e])
                continue;
            struct bp_sample s;
            if (!measure_in_child(&jobs[e], &s, row->why[e], sizeof(row->why[e]))) {
                row->ran[e] = false;
                continue;
            }
            double total = (double)(s.create_ns + s.first_ns);
            if (row->create_first[e] < 0 || total < row->create_first[e]) {
                row->create_first[e] = total;
                row->create[e] = (double)s.create_ns;
                row->first[e] = (double)s.first_ns;
            }
            large_cpu[e][rounds[e]] = (double)s.large_cpu_ns;
            large[e][rounds[e]++] = (double)s.large_ns;
        }
    for (int e = 0; e < ENGINE_COUNT; e++)
        if (row->ran[e]) {
            row->large[e] = bp_median(large[e], (size_t)rounds[e]);
            row->large_cpu[e] = bp_median(large_cpu[e], (size_t)rounds[e]);
        }
}

/* ---- one shader ---------------------------------------------------------------------------- */

static size_t stripped_words(const uint32_t *words, size_t count, char *why, size_t why_size)
{
    size_t kept = 0;
    struct sb_error error = { 0 };
    if (spirv_strip_debug(words, count, NULL, &kept, &error) != SB_SUCCESS) {
        say(why, why_size, "module not walkable at byte %llu: %s", (unsigned long long)error.offset,
                 error.message);
        return 0;
    }
    return kept;
}

static struct sb_rt_inputs *zeroed_inputs(const struct sb_rt_program *p, char *why, size_t why_size)
{
    const struct sb_rt_input_options options = { .seed = 1 };
    struct sb_rt_inputs *inputs = NULL;
    struct sb_error error = { 0 };
    if (sb_rt_inputs_create(p, &options, &inputs, &error) != SB_SUCCESS) {
        say(why, why_size, "no inputs: %s", error.message);
        return NULL;
    }
    for (uint32_t i = 0; i < inputs->count; i++) {
        if (inputs->resources[i].data)
            memset(inputs->resources[i].data, 0, inputs->resources[i].size);
        inputs->resources[i].counter = 0;
    }
    return inputs;
}

/* Compute: zero-filled resources shared by our modules; the peer's own descriptor types. */
static void time_compute(const struct options *o, struct row *row, struct sb_rt_program *const programs[2],
                         const struct sb_translation *const translations[2], const uint32_t *peer_words,
                         size_t peer_count)
{
    row->timed = true;
    struct sb_translation theirs = *translations[OURS];
    bool runnable[ENGINE_COUNT] = { true, true, true };
    struct job jobs[ENGINE_COUNT] = {
        { .translation = translations[OURS] }, { .translation = translations[OURS_O] }, { .translation = &theirs },
    };
    jobs[OURS].inputs = jobs[OURS_O].inputs = zeroed_inputs(programs[OURS], row->why[OURS], sizeof(row->why[OURS]));
    struct sb_translated_binding *bindings = peer_bindings(programs[OURS], peer_words, peer_count,
                                                           row->why[PEER], sizeof(row->why[PEER]));
    struct sb_error error = { 0 };
    if (!jobs[OURS].inputs) {
        runnable[OURS] = runnable[OURS_O] = runnable[PEER] = false;
        say(row->why[OURS_O], sizeof(row->why[OURS_O]), "%s", row->why[OURS]);
        say(row->why[PEER], sizeof(row->why[PEER]), "%s", row->why[OURS]);
    } else if (!bindings) {
        runnable[PEER] = false;
    } else if (sb_rt_inputs_clone(jobs[OURS].inputs, &jobs[PEER].inputs, &error) != SB_SUCCESS) {
        runnable[PEER] = false;
        say(row->why[PEER], sizeof(row->why[PEER]), "%s", error.message);
    } else {
        theirs.bindings = bindings;
        theirs.words = peer_words;
        theirs.word_count = peer_count;
        /* our capabilities' origins say nothing about the peer's module */
        theirs.capability_origin_count = 0;
        theirs.capability_origins = NULL;
        as_texel_buffers(translations[OURS], bindings, jobs[PEER].inputs);
    }
    time_rounds(row, jobs, runnable, o->reps);
    sb_rt_inputs_destroy(jobs[OURS].inputs);
    sb_rt_inputs_destroy(jobs[PEER].inputs);
    free(bindings);
}

/* Vertex and pixel: sb_validate's device side with the peer's module in place of ours
 * (checked first as sb_validate checks it: stage interface, bindings, descriptor types). */
static void time_graphics(const struct options *o, struct row *row, struct sb_rt_program *const programs[2],
                          const uint32_t *peer_words, size_t peer_count)
{
    row->timed = true;
    bool runnable[ENGINE_COUNT] = { true, true, true };
    const struct job jobs[ENGINE_COUNT] = {
        { .program = programs[OURS] }, { .program = programs[OURS_O] },
        { .program = programs[OURS], .spirv = peer_words, .spirv_words = peer_count },
    };
    const struct sb_validate_options check = { .gpu_spirv = peer_words, .gpu_spirv_words = peer_count };
    struct sb_error error = { 0 };
    if (sb_validate_gpu_module_check(programs[OURS], &check, &error) != SB_SUCCESS) {
        runnable[PEER] = false;
        say(row->why[PEER], sizeof(row->why[PEER]), "the runtime does not take its module: %s: %s",
            sb_result_name(error.code), error.message);
    }
    time_rounds(row, jobs, runnable, o->reps);
}

static void run_shader(const struct options *o, struct row *row)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s/%s", o->corpus, corpus_top(o), row->path);
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_rt_program *programs[2] = { NULL, NULL };
    const struct sb_translate_options translate[2] = {
        { .target_env = SB_TARGET_VULKAN_1_1 },
        { .target_env = SB_TARGET_VULKAN_1_1, .flags = SB_TRANSLATE_OPTIMIZE },
    };
    for (int e = OURS; e <= OURS_O; e++) {
        struct sb_error error = { 0 };
        if (!bytes)
            say(row->why[e], sizeof(row->why[e]), "cannot read %s", path);
        else if (sb_rt_program_load(bytes, size, &translate[e], &programs[e], &error) != SB_SUCCESS)
            say(row->why[e], sizeof(row->why[e]), "%s", error.message);
        else
            row->translated[e] = true;
    }
    uint32_t *peer_words = NULL;
    size_t peer_count = 0;
    if (programs[OURS])
        peer_words = peer_compile(programs[OURS], bytes, size,
                                  o->dxil ? PEER_SOURCE_DXBC_DXIL : VKD3D_SHADER_SOURCE_DXBC_TPF, &peer_count,
                                  row->why[PEER], sizeof(row->why[PEER]));
    else
        say(row->why[PEER], sizeof(row->why[PEER]), "not tried: our bindings are needed");
    row->translated[PEER] = peer_words != NULL;
    const struct sb_translation *translations[ENGINE_COUNT] = {
        programs[OURS] ? programs[OURS]->translation : NULL,
        programs[OURS_O] ? programs[OURS_O]->translation : NULL, NULL,
    };
    for (int e = 0; e < ENGINE_COUNT; e++) {
        if (!row->translated[e])
            continue;
        const uint32_t *words = e == PEER ? peer_words : translations[e]->words;
        size_t count = e == PEER ? peer_count : translations[e]->word_count;
        row->raw_bytes[e] = count * 4;
        row->stripped_bytes[e] = stripped_words(words, count, row->why[e], sizeof(row->why[e])) * 4;
        if (!row->stripped_bytes[e])
            row->translated[e] = false;
    }
    bool every = row->translated[OURS] && row->translated[OURS_O] && row->translated[PEER];
    if (every && !strcmp(row->type, "cs"))
        time_compute(o, row, programs, translations, peer_words, peer_count);
    else if (every)
        time_graphics(o, row, programs, peer_words, peer_count);
    free(peer_words);
    sb_rt_program_destroy(programs[OURS]);
    sb_rt_program_destroy(programs[OURS_O]);
    free(bytes);
}

/* ---- report ------------------------------------------------------------------------------- */

/* Per-shader ratio engine / peer of one measure over the rows `use` selects. */
struct ratio {
    double median, p10, p90;
    size_t n;
};

static struct ratio ratios(const double *ours, const double *theirs, size_t n)
{
    double *values = malloc((n ? n : 1) * sizeof(*values));
    struct ratio r = { 0 };
    for (size_t i = 0; values && i < n; i++)
        if (theirs[i] > 0)
            values[r.n++] = ours[i] / theirs[i];
    if (values && r.n) {
        r.p10 = bp_percentile(values, r.n, 10.0);
        r.p90 = bp_percentile(values, r.n, 90.0);
        r.median = bp_median(values, r.n);
    }
    free(values);
    return r;
}

/* The values of one measure for every row selected, per engine, with their sums. */
struct column {
    double *values[ENGINE_COUNT];
    double sum[ENGINE_COUNT];
    size_t n;
};

enum measure { RAW_BYTES, STRIPPED_BYTES, CREATE_FIRST, CREATE, FIRST, LARGE, LARGE_CPU };

static double value_of(const struct row *row, int e, enum measure m)
{
    switch (m) {
    case RAW_BYTES: return (double)row->raw_bytes[e];
    case STRIPPED_BYTES: return (double)row->stripped_bytes[e];
    case CREATE_FIRST: return row->create_first[e];
    case CREATE: return row->create[e];
    case FIRST: return row->first[e];
    case LARGE: return row->large[e];
    case LARGE_CPU: return row->large_cpu[e];
    }
    return 0.0;
}

/* Which rows a figure is over: a predicate and the program type it asks for (NULL: any). */
struct selection {
    bool (*use)(const struct row *row);
    const char *type;
};

static bool selected(const struct selection *sel, const struct row *row)
{
    return sel->use(row) && (!sel->type || !strcmp(sel->type, row->type));
}

static bool column_build(const struct row *rows, size_t count, const struct selection *sel, enum measure m,
                         struct column *c)
{
    memset(c, 0, sizeof(*c));
    for (int e = 0; e < ENGINE_COUNT; e++)
        if (!(c->values[e] = calloc(count ? count : 1, sizeof(double))))
            return false;
    for (size_t i = 0; i < count; i++) {
        if (!selected(sel, &rows[i]))
            continue;
        for (int e = 0; e < ENGINE_COUNT; e++) {
            c->values[e][c->n] = value_of(&rows[i], e, m);
            c->sum[e] += c->values[e][c->n];
        }
        c->n++;
    }
    return true;
}

static void column_free(struct column *c)
{
    for (int e = 0; e < ENGINE_COUNT; e++)
        free(c->values[e]);
}

static bool all_translated(const struct row *row)
{
    return row->translated[OURS] && row->translated[OURS_O] && row->translated[PEER];
}

static bool all_ran(const struct row *row)
{
    return row->timed && row->ran[OURS] && row->ran[OURS_O] && row->ran[PEER];
}

static bool enough_work(const struct row *row)
{
    return all_ran(row) &&
           (row->large[OURS] >= ENOUGH_WORK_NS || row->large[OURS_O] >= ENOUGH_WORK_NS ||
            row->large[PEER] >= ENOUGH_WORK_NS);
}

/* Totals per engine (scaled to `unit`), then each of ours over the peer per shader. */
static void print_measure(const char *title, const struct row *rows, size_t count, const struct selection *sel,
                          enum measure m, double unit, const char *unit_name)
{
    struct column c;
    if (!column_build(rows, count, sel, m, &c)) {
        column_free(&c);
        printf("%s: out of memory\n", title);
        return;
    }
    printf("%-34s over %zu shaders, total %s:", title, c.n, unit_name);
    for (int e = 0; e < ENGINE_COUNT; e++)
        printf("  %s %.2f", engine_name(e), c.sum[e] / unit);
    printf("\n");
    for (int e = OURS; e <= OURS_O; e++) {
        struct ratio r = ratios(c.values[e], c.values[PEER], c.n);
        printf("    %-16s / %-10s sum %.3f  per shader: median %.3f  p10 %.3f  p90 %.3f\n", engine_name(e),
               engine_name(PEER), c.sum[PEER] > 0 ? c.sum[e] / c.sum[PEER] : 0.0, r.median, r.p10, r.p90);
    }
    column_free(&c);
}

/* Counts of engines that did not translate / run, with the first reasons. */
static void print_failures(const struct row *rows, size_t count, bool timing, const char *type)
{
    for (int e = 0; e < ENGINE_COUNT; e++) {
        size_t n = 0;
        for (size_t i = 0; i < count; i++)
            n += (!type || !strcmp(type, rows[i].type)) &&
                 (timing ? rows[i].timed && !rows[i].ran[e] : !rows[i].translated[e]);
        if (!n)
            continue;
        printf("  %s %s %zu:", engine_name(e), timing ? "did not run" : "did not translate", n);
        size_t shown = 0;
        for (size_t i = 0; i < count && shown < 3; i++)
            if ((!type || !strcmp(type, rows[i].type)) &&
                (timing ? rows[i].timed && !rows[i].ran[e] : !rows[i].translated[e]))
                printf("%s %s (%s)", shown++ ? ";" : "", rows[i].path, rows[i].why[e]);
        printf("%s\n", n > shown ? "; ..." : "");
    }
}

static void csv_text(FILE *f, const char *text)
{
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

static bool write_csv(const char *file, const struct row *rows, size_t count)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    static const char *const prefixes[ENGINE_COUNT] = { "ours", "ours_o", "peer" };
    fprintf(f, "path,type");
    for (int e = 0; e < ENGINE_COUNT; e++)
        fprintf(f, ",%s_raw_bytes,%s_stripped_bytes,%s_create_ns,%s_first_ns,%s_create_first_ns,%s_large_ns",
                prefixes[e], prefixes[e], prefixes[e], prefixes[e], prefixes[e], prefixes[e]);
    for (int e = 0; e < ENGINE_COUNT; e++)
        fprintf(f, ",%s_note", prefixes[e]);
    for (int e = 0; e < ENGINE_COUNT; e++)
        fprintf(f, ",%s_large_cpu_ns", prefixes[e]);
    fprintf(f, "\n");
    for (size_t i = 0; i < count; i++) {
        const struct row *r = &rows[i];
        csv_text(f, r->path);
        fprintf(f, ",%s", r->type);
        for (int e = 0; e < ENGINE_COUNT; e++) {
            if (r->translated[e])
                fprintf(f, ",%zu,%zu", r->raw_bytes[e], r->stripped_bytes[e]);
            else
                fprintf(f, ",,");
            if (r->timed && r->ran[e])
                fprintf(f, ",%.0f,%.0f,%.0f,%.0f", r->create[e], r->first[e], r->create_first[e], r->large[e]);
            else
                fprintf(f, ",,,,");
        }
        for (int e = 0; e < ENGINE_COUNT; e++) {
            fputc(',', f);
            csv_text(f, r->why[e]);
        }
        for (int e = 0; e < ENGINE_COUNT; e++) {
            if (r->timed && r->ran[e])
                fprintf(f, ",%.0f", r->large_cpu[e]);
            else
                fprintf(f, ",");
        }
        fprintf(f, "\n");
    }
    return fclose(f) == 0;
}

/* The device figures of one program type. */
static void report_stage(const struct options *o, const struct row *rows, size_t count, const char *type)
{
    size_t timed = 0, ran = 0, enough = 0;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(rows[i].type, type))
            continue;
        timed += rows[i].timed;
        ran += all_ran(&rows[i]);
        enough += enough_work(&rows[i]);
    }
    bool compute = !strcmp(type, "cs");
    printf("\n%s: %zu shaders every engine translates, %zu ran on every engine, %ld round(s) each, a fresh "
           "VkDevice per measurement%s\n", type, timed, ran, o->reps,
           compute ? "" : " (sb_validate's device side: partner stage, seeded inputs, a point draw)");
    print_failures(rows, count, true, type);
    const struct selection ran_sel = { all_ran, type }, enough_sel = { enough_work, type };
    print_measure(compute ? "creation + first dispatch (best)" : "creation + first draw (best)", rows, count,
                  &ran_sel, CREATE_FIRST, 1e6, "ms");
    print_measure(compute ? "  of which module + pipeline" : "  of which modules, pass, pipeline", rows, count,
                  &ran_sel, CREATE, 1e6, "ms");
    print_measure(compute ? "  of which first 1x1x1 dispatch" : "  of which first draw", rows, count, &ran_sel,
                  FIRST, 1e6, "ms");
    if (!compute)
        return;
    printf("large dispatch (256x1x1 groups after first use, median of rounds): %zu shaders with some "
           "engine >= %.0f ms\n", enough, ENOUGH_WORK_NS / 1e6);
    print_measure("run time of the large dispatch", rows, count, &enough_sel, LARGE, 1e6, "ms");
    print_measure("  its CPU time (all threads)", rows, count, &enough_sel, LARGE_CPU, 1e6, "ms");
}

static void report(const struct options *o, const struct row *rows, size_t count)
{
    size_t translated = 0;
    for (size_t i = 0; i < count; i++)
        translated += all_translated(&rows[i]);
    printf("\nmodule bytes: %zu of %zu shaders translated by every engine\n", translated, count);
    print_failures(rows, count, false, NULL);
    const struct selection every = { all_translated, NULL };
    print_measure("raw bytes", rows, count, &every, RAW_BYTES, 1024.0, "KiB");
    print_measure("stripped bytes (no debug instr.)", rows, count, &every, STRIPPED_BYTES, 1024.0, "KiB");
    printf("\ndevice: %s\n", device_name[0] ? device_name : "(nothing ran)");
    static const char *const types[] = { "cs", "vs", "ps" };
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
        if (strstr(o->stages, types[t]))
            report_stage(o, rows, count, types[t]);
}

static long parse_count(const char *text, long max)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return end && *end == 0 && value >= 1 && value <= max ? value : -1;
}

static bool stages_valid(const char *stages)
{
    char copy[64];
    if (strlen(stages) >= sizeof(copy))
        return false;
    snprintf(copy, sizeof(copy), "%s", stages);
    char *save = NULL;
    for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save))
        if (strcmp(s, "cs") && strcmp(s, "vs") && strcmp(s, "ps"))
            return false;
    return stages[0] != 0;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .peer = "libvkd3d-shader.so.1", .stages = "cs,vs,ps", .reps = 3, .limit = MAX_SHADERS };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--reps") && next)
            o->reps = parse_count(argv[++i], MAX_REPS);
        else if (!strcmp(a, "--limit") && next)
            o->limit = parse_count(argv[++i], MAX_SHADERS);
        else if (!strcmp(a, "--peer") && next)
            o->peer = argv[++i];
        else if (!strcmp(a, "--stages") && next)
            o->stages = argv[++i];
        else if (!strcmp(a, "--csv") && next)
            o->csv = argv[++i];
        else if (!strcmp(a, "--dxil"))
            o->dxil = true;
        else if (a[0] != '-' && !o->corpus)
            o->corpus = a;
        else
            return false;
    }
    return o->corpus && o->reps > 0 && o->limit > 0 && stages_valid(o->stages);
}

int main(int argc, char **argv)
{
    struct options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: bench_pipeline CORPUS_DIR [--peer LIB] [--reps 1..%d] [--limit N] "
                        "[--stages cs,vs,ps] [--csv FILE] [--dxil]\n", MAX_REPS);
        return 1;
    }
    /* Each round must compile afresh (see the opening comment); vkd3d's FIXME lines off. */
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    setenv("VKD3D_SHADER_DEBUG", "none", 0);
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t found = corpus_shaders_in(o.corpus, corpus_top(&o), o.stages, 1, paths, types);
    if (!found) {
        printf("SKIPPED: no %s shaders in %s/%s/MANIFEST.tsv\n", o.stages, o.corpus, corpus_top(&o));
        return 77;
    }
    char why[512];
    if (!vkd3d_peer_load(o.peer, &peer, why, sizeof(why))) {
        fprintf(stderr, "bench_pipeline: %s\n", why);
        return 1;
    }
    size_t count = o.limit < (long)found ? (size_t)o.limit : found;
    struct row *rows = calloc(count, sizeof(*rows));
    if (!rows)
        return 1;
    /* An evenly spaced sample, so a short run still sees every stage of the list. */
    for (size_t i = 0; i < count; i++) {
        size_t pick = i * found / count;
        rows[i].path = paths[pick];
        memcpy(rows[i].type, types[pick], sizeof(rows[i].type));
    }
    printf("bench_pipeline: %zu of %u %s shaders; peer %s (%s) from %s; MESA_SHADER_CACHE_DISABLE=true\n",
           count, found, o.stages, peer.label, peer.version, peer.file);
    for (size_t i = 0; i < count; i++) {
        run_shader(&o, &rows[i]);
        if ((i + 1) % 100 == 0 && i + 1 < count) /* a whole-corpus run takes most of an hour */
            fprintf(stderr, "bench_pipeline: %zu of %zu shaders done\n", i + 1, count);
    }
    report(&o, rows, count);
    int status = 0;
    if (o.csv && !write_csv(o.csv, rows, count)) {
        fprintf(stderr, "bench_pipeline: cannot write %s\n", o.csv);
        status = 1;
    }
    free(rows);
    for (uint32_t i = 0; i < found; i++)
        free(paths[i]);
    vkd3d_peer_unload(&peer);
    return status;
}
