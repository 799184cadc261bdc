/* SPDX-License-Identifier: MIT */
/*
 * Corpus pipeline test (issue #4 acceptance: pipelines on lavapipe with zero
 * validation-layer errors for >= 99% of the corpus, every failure explained).
 *
 * For every SM4/5 shader of corpus/dxbc/MANIFEST.tsv (program types vs, ps,
 * gs, hs, ds, cs; effects, expression blobs and root signatures are not
 * shaders) and every fxc container of corpus/dxcontainer (kind
 * real-dxbc-sm5): sb_translate, check the module with SPIRV-Tools (an
 * invalid module could crash the driver, and the validation layer would
 * only repeat the verdict), then vk_pipeline_build.c creates its pipeline
 * with generated partner stages under the Khronos validation layer. Before
 * that, the translation's report (bindings, interface, built-ins: what the
 * partners are built from) is compared with the module itself
 * (vk_spirv_reflect.c), since partners built from an incomplete report
 * would let interface mistakes pass unseen. A shader passes when every step
 * succeeds with zero validation errors.
 *
 * Prints totals per stage, the clean rate, failures grouped by their first
 * message (VUIDs and numbers folded so one cause is one group), and times.
 *
 * Shaders that must currently fail are listed in the expected-failure TSV
 * (path, outcome, reason); outcome is one of translate, spirv-invalid,
 * report, pipeline, validation, device-limit (a validation error or failed
 * call that says the device lacks a feature or limit the module needs). A listed shader that passes, or fails differently,
 * fails the test, so the list shrinks as the translator improves.
 *
 * Like an application on this device, the test fits translations to what the
 * device offers (device_fit): without runtimeDescriptorArray, unbounded SM5.1
 * ranges are translated as fixed arrays (sb_translate_options::
 * unbounded_descriptor_count = VKH_UNBOUNDED_ARRAY_SIZE, lowered to the smallest
 * per-stage descriptor limit), and a shader whose register spaces need sets
 * beyond maxBoundDescriptorSets is translated again with binding_overrides that
 * put its spaces densely on sets 0..n-1 (same bindings), or, with more spaces
 * than sets, every binding into set 0 (fit_sets). What no translation
 * choice can fix (too many descriptors of one type, missing shader features)
 * stays a device-limit failure. The translate options also carry the device's
 * profile (sb_translate_options::device): non-uniform range indices the device
 * cannot take are translated as waterfall loops, and raw/structured registers past
 * maxPerStageDescriptorStorageBuffers as R32_UINT texel buffers, and `_cl` clamps without
 * shaderResourceMinLod as a per-lane choice between two samples.
 *
 * `--peer-dir DIR` replaces sb_translate with another translator's modules,
 * DIR/<path with '/' turned into '_'>.spv (e.g. written by vkd3d-compiler),
 * whose report is read back from the SPIR-V (vk_spirv_reflect.c): a check
 * of the harness and a reference figure, independent of our translator.
 *
 * `--optimize` translates with SB_TRANSLATE_OPTIMIZE (SPIRV-Tools -O) and
 * `--target-env vulkan1.X` for another target, to check those modules too;
 * `--optimize-off` creates pipelines with DISABLE_OPTIMIZATION.
 *
 * Usage: test_vk_pipelines CORPUS_DIR EXPECTED_TSV [--only SUBSTRING]
 *                          [--write-expected FILE] [--optimize-off] [--peer-dir DIR]
 *                          [--optimize] [--target-env vulkan1.X]
 * Exit: 0 all as expected, 1 otherwise, 77 corpus or Vulkan missing.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shaderbridge/translate.h"
#include "vk_pipeline_build.h"
#include "vk_spirv_reflect.h"

#define MAX_COLUMNS 32
#define LINE_BYTES 8192
#define MAX_EXPECTED 512
#define MAX_GROUPS 256

enum outcome {
    O_PASS, O_TRANSLATE, O_SPIRV_INVALID, O_REPORT, O_PIPELINE, O_VALIDATION, O_DEVICE, O_COUNT
};
static const char *const outcome_names[O_COUNT] = {
    "pass", "translate", "spirv-invalid", "report", "pipeline", "validation", "device-limit",
};

/* Messages that say the device lacks a feature or a limit is too small for
 * the module (not that the module or pipeline is wrong): a capability whose
 * feature is missing, per-stage descriptor limits (also when the translator,
 * given them in the profile, refuses), more sets than the device binds. They are failures all the same; the report counts them apart. */
static const char *const device_limit_markers[] = {
    "VUID-VkShaderModuleCreateInfo-pCode-01091",
    "VUID-VkPipelineLayoutCreateInfo-descriptorType-030",
    "VUID-VkPipelineLayoutCreateInfo-pSetLayouts-030",
    "maxBoundDescriptorSets",
    "maxPerStageDescriptorStorageBuffers", /* the translator's refusal (translate.h) */
};

static bool is_device_limit(const char *message)
{
    for (size_t i = 0; i < sizeof(device_limit_markers) / sizeof(device_limit_markers[0]); i++)
        if (strstr(message, device_limit_markers[i]))
            return true;
    return false;
}

static const char *const stage_names[6] = { "vs", "ps", "gs", "hs", "ds", "cs" };

struct expected {
    char path[512];
    enum outcome outcome;
    bool seen;
};

struct group {
    char key[200];
    char example[256];
    unsigned count;
};

/* How translations are fitted to the device (see the file comment). */
struct device_fit {
    uint32_t unbounded;       /**< unbounded_descriptor_count used; 0 = runtime arrays */
    uint32_t max_sets;        /**< descriptor sets a layout may use */
    unsigned remapped;        /**< shaders translated again with spaces moved to lower sets */
};

struct run {
    struct vkh h;
    struct device_fit fit;
    const char *corpus, *only, *peer_dir;
    struct sb_translate_options options;
    struct expected expected[MAX_EXPECTED];
    unsigned expected_count;
    struct group groups[MAX_GROUPS], warning_groups[MAX_GROUPS];
    unsigned group_count, warning_group_count;
    unsigned total[7], clean[7], by_outcome[O_COUNT];
    unsigned unexpected, expected_confirmed, warnings_total, warned_shaders;
    double translate_s, pipeline_s;
    FILE *write_expected;
};

/* The shader being worked on, named if the translator or the driver crashes. */
static char current[1100];

static void on_crash(int sig)
{
    static const char prefix[] = "\nCRASH (signal) while processing ";
    ssize_t ignored = write(2, prefix, sizeof(prefix) - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
    signal(sig, SIG_DFL);
    raise(sig);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = n > 0 ? malloc((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static unsigned split_tsv(char *line, char **cols)
{
    line[strcspn(line, "\r\n")] = 0;
    unsigned n = 0;
    for (char *p = line; n < MAX_COLUMNS;) {
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = 0;
        p = tab + 1;
    }
    return n;
}

static int column(char **header, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return (int)i;
    return -1;
}

static bool load_expected(struct run *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open expected-failure list %s\n", path);
        return false;
    }
    char line[LINE_BYTES];
    bool ok = true;
    while (ok && fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *cols[MAX_COLUMNS];
        unsigned n = split_tsv(line, cols);
        int outcome = -1;
        for (int o = 1; n >= 3 && o < O_COUNT; o++)
            if (strcmp(cols[1], outcome_names[o]) == 0)
                outcome = o;
        if (outcome < 0 || r->expected_count == MAX_EXPECTED) {
            fprintf(stderr, "%s: bad line (want path, outcome, reason): %s\n", path, cols[0]);
            ok = false;
            break;
        }
        struct expected *e = &r->expected[r->expected_count++];
        snprintf(e->path, sizeof(e->path), "%s", cols[0]);
        e->outcome = (enum outcome)outcome;
    }
    fclose(f);
    return ok;
}

/* Folds a message into a group key: the VUID (or first words) plus the text
 * after the layer's "| " separator, with numbers and handles replaced. */
static void group_key(const char *prefix, const char *message, char *key, size_t size)
{
    const char *text = message;
    const char *bar = strrchr(message, '|');
    if (bar && bar[1] == ' ')
        text = bar + 2;
    char vuid[96] = "";
    const char *open = strstr(message, "[ ");
    if (open) {
        const char *close = strstr(open, " ]");
        if (close && close - open - 2 < (long)sizeof(vuid))
            snprintf(vuid, sizeof(vuid), "%.*s ", (int)(close - open - 2), open + 2);
    }
    size_t n = (size_t)snprintf(key, size, "%s: %s", prefix, vuid);
    for (const char *p = text; *p && n + 1 < size && p - text < 110; p++) {
        if (*p >= '0' && *p <= '9') {
            if (n == 0 || key[n - 1] != 'N')
                key[n++] = 'N';
            while ((p[1] >= '0' && p[1] <= '9') || p[1] == 'x' || (p[1] >= 'a' && p[1] <= 'f'))
                p++;
            continue;
        }
        /* one line, single spaces: keys go into TSV files and one-line reports */
        char ch = (*p == '\n' || *p == '\t' || *p == '\r') ? ' ' : *p;
        if (ch == ' ' && n > 0 && key[n - 1] == ' ')
            continue;
        key[n++] = ch;
    }
    key[n] = 0;
}

static void add_group(struct group *groups, unsigned *count, const char *key, const char *rel)
{
    for (unsigned i = 0; i < *count; i++)
        if (strcmp(groups[i].key, key) == 0) {
            groups[i].count++;
            return;
        }
    if (*count == MAX_GROUPS)
        return;
    struct group *g = &groups[(*count)++];
    snprintf(g->key, sizeof(g->key), "%s", key);
    snprintf(g->example, sizeof(g->example), "%s", rel);
    g->count = 1;
}

static struct expected *find_expected(struct run *r, const char *rel)
{
    for (unsigned i = 0; i < r->expected_count; i++)
        if (strcmp(r->expected[i].path, rel) == 0)
            return &r->expected[i];
    return NULL;
}

/* --peer-dir: the peer's module for `rel` and its report; false when there is none. */
static bool peer_translation(struct run *r, const char *rel, struct sb_translation *t)
{
    static uint32_t words[1 << 18];
    static struct vkr_storage storage;
    char path[1024];
    int n = snprintf(path, sizeof(path), "%s/", r->peer_dir);
    for (const char *p = rel; *p && n + 5 < (int)sizeof(path); p++)
        path[n++] = *p == '/' ? '_' : *p;
    snprintf(path + n, sizeof(path) - (size_t)n, ".spv");
    FILE *f = fopen(path, "rb");
    size_t count = f ? fread(words, 4, sizeof(words) / 4, f) : 0;
    if (f)
        fclose(f);
    return count && vkr_translation_from_spirv(words, count, &storage, t);
}

/* Builds the pipeline of a translation; returns its outcome and the failure text. */
static enum outcome build_one(struct run *r, const struct sb_translation *t, char *why,
                              size_t why_size)
{
    vkh_reset_messages(&r->h);
    struct vkpb_outcome out;
    double t0 = now();
    bool built = vkpb_build(&r->h, t, &out);
    r->pipeline_s += now() - t0;
    if (r->h.messages.warnings) {
        r->warnings_total += r->h.messages.warnings;
        r->warned_shaders++;
        char key[200];
        group_key("warning", r->h.messages.first_warning, key, sizeof(key));
        add_group(r->warning_groups, &r->warning_group_count, key, current);
    }
    if (r->h.messages.errors) {
        snprintf(why, why_size, "%s", r->h.messages.first_error);
        return is_device_limit(why) ? O_DEVICE : O_VALIDATION;
    }
    if (!built) {
        snprintf(why, why_size, "%s", out.failure);
        return is_device_limit(why) ? O_DEVICE : O_PIPELINE;
    }
    return O_PASS;
}

/* Reads the device's descriptor-indexing support and limits into r->fit and sets the
 * translate options that follow from them. */
static void fit_to_device(struct run *r)
{
    const VkPhysicalDeviceLimits *l = &r->h.properties.limits;
    VkPhysicalDeviceDescriptorIndexingFeatures indexing = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                           .pNext = &indexing };
    /* The struct is core in 1.2; older devices are taken as lacking the feature. */
    if (r->h.properties.apiVersion >= VK_API_VERSION_1_2)
        vkGetPhysicalDeviceFeatures2(r->h.physical, &features);
    /* The harness builds at most 8 set layouts (struct vkh_layout). */
    r->fit.max_sets = l->maxBoundDescriptorSets < 8 ? l->maxBoundDescriptorSets : 8;
    if (!indexing.runtimeDescriptorArray) {
        /* The size the layout gives unbounded ranges anyway, but never more descriptors
         * than one stage may use of the scarcest type, so one range always fits. */
        const uint32_t limits[] = { l->maxPerStageDescriptorSamplers,
                                    l->maxPerStageDescriptorUniformBuffers,
                                    l->maxPerStageDescriptorStorageBuffers,
                                    l->maxPerStageDescriptorSampledImages,
                                    l->maxPerStageDescriptorStorageImages };
        uint32_t n = VKH_UNBOUNDED_ARRAY_SIZE;
        for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
            if (limits[i] && limits[i] < n)
                n = limits[i];
        r->fit.unbounded = n;
        r->options.unbounded_descriptor_count = n;
    }
    VkPhysicalDeviceFeatures core;
    vkGetPhysicalDeviceFeatures(r->h.physical, &core);
    /* The translator's device profile (translate.h): non-uniform range indices the device
     * cannot take become waterfall loops; raw/structured registers past the per-stage
     * storage-buffer limit become R32_UINT texel buffers, `_cl` clamps without
     * shaderResourceMinLod a per-lane choice of two samples. This test binds no views, so it has no typed-UAV
     * format to give: reads without format stay (validate covers that fallback). Interlock
     * and FullyCoveredEXT have no fallback, only the translator's refusal: they are left to
     * the pipeline step, which lists a device without them as device-limit. */
    r->options.device = (struct sb_device_profile){
        .described = true,
        .storage_image_read_without_format = true,
        .shader_resource_min_lod = core.shaderResourceMinLod == VK_TRUE,
        .sampled_image_array_non_uniform_indexing = indexing.shaderSampledImageArrayNonUniformIndexing,
        .storage_image_array_non_uniform_indexing = indexing.shaderStorageImageArrayNonUniformIndexing,
        .uniform_texel_buffer_array_non_uniform_indexing = indexing.shaderUniformTexelBufferArrayNonUniformIndexing,
        .storage_texel_buffer_array_non_uniform_indexing = indexing.shaderStorageTexelBufferArrayNonUniformIndexing,
        .storage_buffer_array_non_uniform_indexing = indexing.shaderStorageBufferArrayNonUniformIndexing,
        .max_per_stage_storage_buffers = l->maxPerStageDescriptorStorageBuffers,
        .max_per_stage_storage_images = l->maxPerStageDescriptorStorageImages,
        .max_per_stage_sampled_images = l->maxPerStageDescriptorSampledImages,
        .fragment_shader_pixel_interlock = true,
        .fragment_fully_covered = true,
    };
    printf("device fit: runtimeDescriptorArray %s (unbounded ranges: %s%u), %u descriptor sets, "
           "shaderResourceMinLod %s\n",
           indexing.runtimeDescriptorArray ? "yes" : "no",
           r->fit.unbounded ? "arrays of " : "runtime arrays", r->fit.unbounded, r->fit.max_sets,
           core.shaderResourceMinLod ? "yes" : "no (the `_cl` fallback)");
}

/*
 * When a translation's register spaces need sets the device cannot bind,
 * translates again with overrides: space k (the k-th lowest used) moves to
 * set k with every binding kept; when there are more spaces than sets, all
 * bindings go to set 0, numbered 0, 1, ... in report order (a UAV's counter
 * right after it). Returns the new translation, or `t` when nothing needs
 * moving or the new translation failed (then the failure stands); a new one
 * replaces `t`, which is destroyed.
 */
static struct sb_translation *fit_sets(struct run *r, const uint8_t *data, size_t size,
                                       struct sb_translation *t)
{
    uint32_t spaces[64], space_count = 0;
    bool beyond = false;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        beyond |= b->set >= r->fit.max_sets;
        uint32_t k = 0;
        while (k < space_count && spaces[k] != b->space)
            k++;
        if (k == space_count && space_count < 64)
            spaces[space_count++] = b->space;
    }
    if (!beyond || t->binding_count > 1024 || space_count == 64)
        return t;
    static struct sb_binding_override overrides[1024];
    bool pack = space_count > r->fit.max_sets;
    for (uint32_t i = 0, next = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        struct sb_binding_override *o = &overrides[i];
        *o = (struct sb_binding_override){ b->resource_class, b->space, b->lower_bound, 0,
                                           b->binding, b->counter_binding };
        if (pack) {
            o->binding = next++;
            o->counter_binding = b->has_counter ? next++ : 0;
            continue;
        }
        for (uint32_t k = 0; k < space_count; k++) /* rank of its space among the used ones */
            o->set += spaces[k] < b->space;
    }
    struct sb_translate_options options = r->options;
    options.binding_override_count = t->binding_count;
    options.binding_overrides = overrides;
    struct sb_translation *moved = NULL;
    struct sb_error err = { 0 };
    if (sb_translate(data, size, &options, &moved, &err) != SB_SUCCESS)
        return t;
    sb_translation_destroy(t);
    r->fit.remapped++;
    return moved;
}

/* Translates and builds one shader; returns its outcome and the failure text. */
static enum outcome run_one(struct run *r, const char *rel, const uint8_t *data, size_t size,
                            uint32_t *stage, char *why, size_t why_size)
{
    if (r->peer_dir) {
        struct sb_translation peer;
        if (!peer_translation(r, rel, &peer)) {
            snprintf(why, why_size, "no peer module");
            return O_TRANSLATE;
        }
        *stage = peer.stage;
        return build_one(r, &peer, why, why_size);
    }
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    double t0 = now();
    enum sb_result res = sb_translate(data, size, &r->options, &t, &err);
    r->translate_s += now() - t0;
    if (res != SB_SUCCESS) {
        snprintf(why, why_size, "%s at %llu: %s", sb_result_name(res),
                 (unsigned long long)err.offset, err.message);
        /* The device's profile made the translator refuse: no module fits its limits. */
        return res == SB_ERROR_TRANSLATE_UNSUPPORTED && is_device_limit(why) ? O_DEVICE : O_TRANSLATE;
    }
    t = fit_sets(r, data, size, t);
    *stage = t->stage;
    res = sb_spirv_validate(t->words, t->word_count, r->options.target_env, &err);
    if (res != SB_SUCCESS) {
        snprintf(why, why_size, "spirv-val: %s", err.message);
        sb_translation_destroy(t);
        return O_SPIRV_INVALID;
    }
    enum outcome o = vkr_check_report(t, why, why_size) ? build_one(r, t, why, why_size) : O_REPORT;
    sb_translation_destroy(t);
    return o;
}

static uint32_t stage_from_name(const char *s)
{
    for (uint32_t i = 0; i < 6; i++)
        if (strncmp(s, stage_names[i], 2) == 0)
            return i;
    return 6;
}

static void shader(struct run *r, const char *rel, uint32_t manifest_stage)
{
    if (r->only && !strstr(rel, r->only))
        return;
    char path[1024], why[1200] = "";
    snprintf(path, sizeof(path), "%s/%s", r->corpus, rel);
    snprintf(current, sizeof(current), "%s", rel);
    size_t size = 0;
    uint8_t *data = load(path, &size);
    uint32_t stage = manifest_stage;
    enum outcome o = O_TRANSLATE;
    if (data)
        o = run_one(r, rel, data, size, &stage, why, sizeof(why));
    else
        snprintf(why, sizeof(why), "cannot read %s", path);
    free(data);
    if (stage > 5)
        stage = 6;
    r->total[stage]++;
    r->by_outcome[o]++;
    if (o == O_PASS)
        r->clean[stage]++;
    else {
        char key[200];
        group_key(outcome_names[o], why, key, sizeof(key));
        add_group(r->groups, &r->group_count, key, rel);
        if (r->write_expected)
            fprintf(r->write_expected, "%s\t%s\t%.160s\n", rel, outcome_names[o], key);
    }
    struct expected *e = find_expected(r, rel);
    if (e) {
        e->seen = true;
        if (o == e->outcome) {
            r->expected_confirmed++;
        } else {
            r->unexpected++;
            fprintf(stderr, "UNEXPECTED %s: listed as %s, got %s%s%s\n", rel,
                    outcome_names[e->outcome], outcome_names[o], o ? ": " : "", o ? why : "");
        }
    } else if (o != O_PASS) {
        r->unexpected++;
        fprintf(stderr, "FAIL %s (%s): %s\n", rel, outcome_names[o], why);
    }
}

static void dxbc_manifest(struct run *r)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dxbc/MANIFEST.tsv", r->corpus);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static char header_line[LINE_BYTES], line[LINE_BYTES];
    char *header[MAX_COLUMNS], *cols[MAX_COLUMNS];
    if (fgets(header_line, sizeof(header_line), f)) {
        unsigned hn = split_tsv(header_line, header);
        int c_file = column(header, hn, "file"), c_type = column(header, hn, "program_type");
        while (c_file >= 0 && c_type >= 0 && fgets(line, sizeof(line), f)) {
            unsigned n = split_tsv(line, cols);
            if (n < hn || strlen(cols[c_type]) != 2 || stage_from_name(cols[c_type]) > 5)
                continue;
            char rel[600];
            snprintf(rel, sizeof(rel), "dxbc/%s", cols[c_file]);
            shader(r, rel, stage_from_name(cols[c_type]));
        }
    }
    fclose(f);
}

static void dxcontainer_manifest(struct run *r)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dxcontainer/MANIFEST.tsv", r->corpus);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static char header_line[LINE_BYTES], line[LINE_BYTES];
    char *header[MAX_COLUMNS], *cols[MAX_COLUMNS];
    if (fgets(header_line, sizeof(header_line), f)) {
        unsigned hn = split_tsv(header_line, header);
        int c_file = column(header, hn, "file"), c_kind = column(header, hn, "kind");
        int c_stages = column(header, hn, "stages");
        while (c_file >= 0 && c_kind >= 0 && c_stages >= 0 && fgets(line, sizeof(line), f)) {
            unsigned n = split_tsv(line, cols);
            if (n < hn || strcmp(cols[c_kind], "real-dxbc-sm5") != 0)
                continue;
            char rel[600];
            snprintf(rel, sizeof(rel), "dxcontainer/%s", cols[c_file]);
            shader(r, rel, stage_from_name(cols[c_stages]));
        }
    }
    fclose(f);
}

static int compare_groups(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : strcmp(x->key, y->key);
}

static void report(struct run *r, double wall)
{
    unsigned all = 0, clean = 0;
    printf("\nstage  shaders  clean\n");
    for (int s = 0; s < 7; s++) {
        if (!r->total[s])
            continue;
        printf("%-5s  %7u  %5u\n", s < 6 ? stage_names[s] : "?", r->total[s], r->clean[s]);
        all += r->total[s];
        clean += r->clean[s];
    }
    printf("outcomes:");
    for (int o = 0; o < O_COUNT; o++)
        printf(" %s %u", outcome_names[o], r->by_outcome[o]);
    printf("\nclean pipelines (zero validation errors): %u / %u = %.2f%% (acceptance >= 99%%: %s)\n",
           clean, all, all ? 100.0 * clean / all : 0.0,
           all && clean * 100 >= all * 99 ? "met" : "NOT met");
    unsigned limited = r->by_outcome[O_DEVICE];
    printf("needing what %s lacks (device-limit): %u; clean among the other %u: %.2f%%\n",
           r->h.properties.deviceName, limited, all - limited,
           all > limited ? 100.0 * clean / (all - limited) : 0.0);
    printf("fitted to the device: %u shaders translated again with register spaces on lower "
           "sets; unbounded ranges as arrays of %u\n", r->fit.remapped, r->fit.unbounded);
    printf("validation warnings: %u in %u shaders (not failures)\n", r->warnings_total,
           r->warned_shaders);
    printf("time: %.1f s wall, %.2f s translating, %.1f s creating pipelines\n", wall,
           r->translate_s, r->pipeline_s);
    qsort(r->groups, r->group_count, sizeof(r->groups[0]), compare_groups);
    if (r->group_count)
        printf("\nfailures by first message (count, example, message):\n");
    for (unsigned i = 0; i < r->group_count; i++)
        printf("%5u  %s\n       %s\n", r->groups[i].count, r->groups[i].example, r->groups[i].key);
    qsort(r->warning_groups, r->warning_group_count, sizeof(r->groups[0]), compare_groups);
    if (r->warning_group_count)
        printf("\nshaders with validation warnings, by first warning:\n");
    for (unsigned i = 0; i < r->warning_group_count; i++)
        printf("%5u  %s\n       %s\n", r->warning_groups[i].count, r->warning_groups[i].example,
               r->warning_groups[i].key);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3) {
        fprintf(stderr, "usage: %s CORPUS_DIR EXPECTED_TSV [--only S] [--write-expected F] "
                        "[--optimize-off] [--peer-dir DIR] [--optimize] [--target-env ENV]\n",
                argv[0]);
        return 2;
    }
    static struct run r;
    r.corpus = argv[1];
    r.options.target_env = SB_TARGET_VULKAN_1_1;
    bool optimize_off = false;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            r.only = argv[++i];
        else if (strcmp(argv[i], "--write-expected") == 0 && i + 1 < argc)
            r.write_expected = fopen(argv[++i], "w");
        else if (strcmp(argv[i], "--optimize-off") == 0)
            optimize_off = true;
        else if (strcmp(argv[i], "--peer-dir") == 0 && i + 1 < argc)
            r.peer_dir = argv[++i];
        else if (strcmp(argv[i], "--optimize") == 0)
            r.options.flags |= SB_TRANSLATE_OPTIMIZE;
        else if (strcmp(argv[i], "--target-env") == 0 && i + 1 < argc &&
                 !sb_target_env_parse(argv[++i], &r.options.target_env)) {
            fprintf(stderr, "unknown target env %s\n", argv[i]);
            return 2;
        }
    }
    char probe[1024];
    struct stat st;
    snprintf(probe, sizeof(probe), "%s/dxbc/MANIFEST.tsv", r.corpus);
    if (stat(probe, &st) != 0) {
        printf("SKIPPED: corpus not found at %s\n", r.corpus);
        return 77;
    }
    if (!load_expected(&r, argv[2]))
        return 1;
    int status = vkh_init(&r.h);
    if (status != 0)
        return status;
    if (!r.peer_dir)
        fit_to_device(&r);
    if (optimize_off)
        r.h.pipeline_flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
    signal(SIGSEGV, on_crash);
    signal(SIGABRT, on_crash);
    signal(SIGBUS, on_crash);
    double t0 = now();
    dxbc_manifest(&r);
    dxcontainer_manifest(&r);
    double wall = now() - t0;
    if (r.write_expected)
        fclose(r.write_expected);
    report(&r, wall);
    vkh_destroy(&r.h);
    for (unsigned i = 0; i < r.expected_count && !r.only; i++)
        if (!r.expected[i].seen) {
            fprintf(stderr, "UNEXPECTED: %s is listed but not in the corpus\n", r.expected[i].path);
            r.unexpected++;
        }
    printf("\n%u expected failures confirmed, %u unexpected results\n", r.expected_confirmed,
           r.unexpected);
    return r.unexpected ? 1 : 0;
}
