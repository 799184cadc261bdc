/* SPDX-License-Identifier: MIT */
/*
 * Foreign shader bytes to SPIR-V (layer/README.md §Formats): detection by
 * content (reflect's sb_format_detect), DXBC through sb_translate and SHBIN
 * through sb_translate_shbin (the program type gives the stage; a SHBIN's
 * first DVLE, in the PICA mode SHADERBRIDGE_LAYER_PICA asks for), VBC by
 * taking the SPIR-V of each stage the file carries (no translation). Each
 * DXBC/SHBIN request looks in the in-process cache, then the disk cache,
 * before translating, and every outcome is logged with the content hash.
 * A hit in the in-process cache is the path to keep cheap (layer/README.md
 * §Cache hit path): the configuration hash was computed at vkCreateDevice, the
 * content hash and its hex come from the entry or are made only when a log
 * line or a dump will use them, and the cached module is handed on by reference.
 */
#include "layer_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/reflect.h"
#include "shaderbridge/vbc.h"

enum sb_layer_kind sb_layer_detect(const void *code, size_t size)
{
    switch (sb_format_detect(code, size)) {
    case SB_FORMAT_DXCONTAINER: return SB_LAYER_KIND_DXBC;
    case SB_FORMAT_SHBIN: return SB_LAYER_KIND_SHBIN;
    case SB_FORMAT_VBC: return SB_LAYER_KIND_VBC;
    default: return SB_LAYER_KIND_PASS;
    }
}

static const char *const kind_names[] = {
    [SB_LAYER_KIND_PASS] = "spirv", [SB_LAYER_KIND_DXBC] = "dxbc",
    [SB_LAYER_KIND_SHBIN] = "shbin", [SB_LAYER_KIND_VBC] = "vbc",
};

const char *sb_layer_kind_name(enum sb_layer_kind kind)
{
    return kind_names[kind];
}

/* VkShaderStageFlagBits of each enum sb_ir_stage value. */
static const uint32_t ir_stage_bits[] = {
    [SB_IR_STAGE_VERTEX] = VK_SHADER_STAGE_VERTEX_BIT,
    [SB_IR_STAGE_PIXEL] = VK_SHADER_STAGE_FRAGMENT_BIT,
    [SB_IR_STAGE_GEOMETRY] = VK_SHADER_STAGE_GEOMETRY_BIT,
    [SB_IR_STAGE_HULL] = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
    [SB_IR_STAGE_DOMAIN] = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
    [SB_IR_STAGE_COMPUTE] = VK_SHADER_STAGE_COMPUTE_BIT,
};

void sb_layer_output_free(struct sb_layer_output *out)
{
    for (uint32_t i = 0; i < out->count; i++)
        sb_layer_spirv_unref(out->stages[i]);
    out->count = 0;
    out->cached = false;
}

const struct sb_layer_spirv *sb_layer_output_stage(const struct sb_layer_output *out, uint32_t vk_stage)
{
    for (uint32_t i = 0; i < out->count; i++)
        if (out->stages[i]->vk_stage == vk_stage)
            return out->stages[i];
    return NULL;
}

static void log_failure(enum sb_layer_kind kind, const char *hex, enum sb_result code, const struct sb_error *err)
{
    sb_layer_stat_add(SB_LAYER_STAT_FAILURES);
    sb_layer_log(SB_LAYER_LOG_ERROR, "%s %s: translation failed: %s (%d) at byte offset %llu: %s",
                 sb_layer_kind_name(kind), hex, sb_result_name(code), (int)code,
                 (unsigned long long)err->offset, err->message);
}

static enum sb_target_env device_env(const struct sb_layer_device *dev)
{
    return dev->config.target_env_set ? dev->config.target_env : dev->target_env;
}

/* ---- VBC: the stages' SPIR-V as stored --------------------------------------------------------------- */

/* vkCreateShaderModule sizes are multiples of 4, so an application pads a VBC file
 * with zero bytes; the parser rejects trailing data, so up to 3 zero bytes go. */
static enum sb_result parse_vbc(const uint8_t *bytes, size_t size, struct sb_vbc **vbc, struct sb_error *err)
{
    enum sb_result r = sb_vbc_parse(bytes, size, vbc, err);
    for (size_t cut = 1; r == SB_ERROR_TRAILING_DATA && cut <= 3 && cut < size && !bytes[size - cut]; cut++)
        r = sb_vbc_parse(bytes, size - cut, vbc, err);
    return r;
}

static bool extract_vbc(const struct sb_layer_device *dev, const void *code, size_t size, const char *hex,
                        struct sb_layer_output *out)
{
    struct sb_vbc *vbc = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = parse_vbc(code, size, &vbc, &err);
    if (r != SB_SUCCESS) {
        log_failure(SB_LAYER_KIND_VBC, hex, r, &err);
        return false;
    }
    bool ok = vbc->spirv_count > 0;
    for (uint32_t i = 0; ok && i < vbc->spirv_count; i++) {
        const struct sb_vbc_spirv *s = &vbc->spirv[i];
        /* an aligned copy: the blob in the file is only byte-aligned */
        struct sb_layer_spirv *dst = sb_layer_spirv_new(1u << s->stage, s->bytes, s->word_count);
        ok = dst != NULL;
        if (ok) {
            out->stages[out->count++] = dst;
            r = sb_layer_spirv_check(dst->words, dst->word_count, device_env(dev), &err);
        }
        if (r != SB_SUCCESS) {
            err.offset += s->offset; /* the blob's offset in the file */
            log_failure(SB_LAYER_KIND_VBC, hex, r, &err);
            sb_layer_output_free(out);
            sb_vbc_destroy(vbc);
            return false;
        }
    }
    if (!ok) {
        err = (struct sb_error){ .code = SB_ERROR_OUT_OF_MEMORY, .offset = 0 };
        snprintf(err.message, sizeof(err.message), "%s", vbc->spirv_count ? "out of memory" : "no stage");
        log_failure(SB_LAYER_KIND_VBC, hex, vbc->spirv_count ? SB_ERROR_OUT_OF_MEMORY : SB_ERROR_BAD_VALUE, &err);
        sb_layer_output_free(out);
    }
    sb_vbc_destroy(vbc);
    return ok;
}

/* ---- DXBC / SHBIN: sb_translate ------------------------------------------------------------------- */

/* SHADERBRIDGE_LAYER_SET_BASE: the bindings are known only after one translation, so a
 * second one applies them as overrides (set + base) to every register. */
static enum sb_result translate_one(const void *code, size_t size, enum sb_layer_kind kind, uint32_t pica_flags,
                                    const struct sb_translate_options *opts, struct sb_translation **tr,
                                    struct sb_error *err)
{
    /* SHBIN: its first DVLE, in the mode SHADERBRIDGE_LAYER_PICA asks for (fast by default). */
    return kind == SB_LAYER_KIND_SHBIN ? sb_translate_shbin(code, size, 0, pica_flags, opts, tr, err)
                                       : sb_translate(code, size, opts, tr, err);
}

static enum sb_result translate_rebased(const void *code, size_t size, enum sb_layer_kind kind,
                                        uint32_t pica_flags, struct sb_translate_options *opts,
                                        uint32_t set_base, struct sb_translation **tr, struct sb_error *err)
{
    enum sb_result r = translate_one(code, size, kind, pica_flags, opts, tr, err);
    if (r != SB_SUCCESS || !set_base || !(*tr)->binding_count)
        return r;
    uint32_t n = (*tr)->binding_count;
    struct sb_binding_override *o = calloc(n, sizeof(*o));
    if (!o)
        return SB_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        const struct sb_translated_binding *b = &(*tr)->bindings[i];
        o[i] = (struct sb_binding_override){ b->resource_class, b->space, b->lower_bound,
                                             b->set + set_base, b->binding, b->counter_binding };
    }
    sb_translation_destroy(*tr);
    *tr = NULL;
    opts->binding_overrides = o;
    opts->binding_override_count = n;
    r = translate_one(code, size, kind, pica_flags, opts, tr, err);
    free(o);
    return r;
}

static struct sb_layer_spirv *translate_dxbc(const struct sb_layer_device *dev, const void *code, size_t size,
                                             enum sb_layer_kind kind, const char *hex)
{
    struct sb_layer_spirv *out = NULL;
    struct sb_translate_options opts;
    sb_layer_config_options(&dev->config, dev->target_env, &opts);
    opts.device = dev->profile;
    struct sb_translation *tr = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = translate_rebased(code, size, kind, dev->config.pica_flags, &opts, dev->config.set_base,
                                         &tr, &err);
    if (r == SB_SUCCESS && (tr->stage == SB_IR_STAGE_MESH || tr->stage == SB_IR_STAGE_AMPLIFICATION)) {
        /* The layer hands only the stages the runtime has run and validated to the driver. */
        r = SB_ERROR_TRANSLATE_UNSUPPORTED;
        err = (struct sb_error){ .code = r, .offset = 0 };
        snprintf(err.message, sizeof(err.message), "not run: %s shaders are not passed to Vulkan by the layer",
                 tr->stage == SB_IR_STAGE_MESH ? "mesh" : "amplification");
    } else if (r == SB_SUCCESS && tr->stage >= sizeof(ir_stage_bits) / sizeof(ir_stage_bits[0])) {
        r = SB_ERROR_TRANSLATE_UNSUPPORTED;
        err = (struct sb_error){ .code = r, .offset = 0 };
        snprintf(err.message, sizeof(err.message), "program type %u has no Vulkan stage", tr->stage);
    }
    if (r == SB_SUCCESS) {
        out = sb_layer_spirv_new(ir_stage_bits[tr->stage], tr->words, tr->word_count);
        if (!out) {
            r = SB_ERROR_OUT_OF_MEMORY;
            snprintf(err.message, sizeof(err.message), "out of memory");
        }
    }
    sb_translation_destroy(tr);
    if (r != SB_SUCCESS)
        log_failure(kind, hex, r, &err);
    return out;
}

void sb_layer_device_keys(struct sb_layer_device *dev)
{
    struct sb_translate_options opts;
    sb_layer_config_options(&dev->config, dev->target_env, &opts);
    for (int kind = 0; kind < SB_LAYER_KIND_COUNT; kind++) {
        const uint64_t parts[] = { dev->config.version_hash, (uint64_t)kind, (uint64_t)opts.target_env,
                                   opts.flags, dev->config.set_base, opts.unbounded_descriptor_count,
                                   kind == SB_LAYER_KIND_SHBIN ? dev->config.pica_flags : 0,
                                   sb_layer_device_profile_bits(&dev->profile),
                                   (uint64_t)dev->profile.max_per_stage_storage_buffers << 32 |
                                       dev->profile.max_per_stage_storage_images,
                                   dev->profile.max_per_stage_sampled_images };
        dev->config_hash[kind] = sb_layer_hash_bytes(parts, sizeof(parts), 1).lo;
    }
}

/* A miss of the in-process cache: the disk cache, else a translation; the result is
 * kept where the configuration says. */
static struct sb_layer_spirv *load_or_translate(const struct sb_layer_device *dev, const void *code, size_t size,
                                                enum sb_layer_kind kind, const struct sb_layer_cache_key *key,
                                                bool *cached)
{
    const struct sb_layer_config *cfg = &dev->config;
    char hex[33];
    sb_layer_hash_hex(key->content, hex);
    struct sb_layer_spirv *spirv = cfg->cache_dir ? sb_layer_cache_load(cfg->cache_dir, key) : NULL;
    if (spirv) {
        sb_layer_stat_add(SB_LAYER_STAT_DISK_HITS);
        sb_layer_log(SB_LAYER_LOG_INFO, "%s %s: disk cache hit", sb_layer_kind_name(kind), hex);
    } else if ((spirv = translate_dxbc(dev, code, size, kind, hex)) != NULL) {
        sb_layer_stat_add(SB_LAYER_STAT_TRANSLATIONS);
        sb_layer_log(SB_LAYER_LOG_INFO, "%s %s: translated (%zu bytes -> %zu SPIR-V words)",
                     sb_layer_kind_name(kind), hex, size, spirv->word_count);
        if (cfg->cache_dir)
            sb_layer_cache_store(cfg->cache_dir, key, spirv);
    } else {
        return NULL;
    }
    *cached = cfg->memory_cache && sb_layer_memory_store(key->config, code, size, &key->content, spirv);
    return spirv;
}

static bool translate_cached(const struct sb_layer_device *dev, const void *code, size_t size,
                             enum sb_layer_kind kind, struct sb_layer_hash *content, struct sb_layer_output *out)
{
    struct sb_layer_cache_key key = { { 0, 0 }, dev->config_hash[kind] };
    struct sb_layer_spirv *spirv = NULL;
    if (dev->config.memory_cache && (spirv = sb_layer_memory_find(key.config, code, size, content)) != NULL) {
        out->cached = true;
        sb_layer_stat_add(SB_LAYER_STAT_MEMORY_HITS);
        if (sb_layer_log_on(SB_LAYER_LOG_INFO)) {
            char hex[33];
            sb_layer_hash_hex(*content, hex);
            sb_layer_log(SB_LAYER_LOG_INFO, "%s %s: memory cache hit", sb_layer_kind_name(kind), hex);
        }
    } else {
        key.content = *content = sb_layer_hash_bytes(code, size, 0);
        spirv = load_or_translate(dev, code, size, kind, &key, &out->cached);
    }
    if (!spirv)
        return false;
    out->stages[0] = spirv;
    out->count = 1;
    return true;
}

bool sb_layer_translate(const struct sb_layer_device *dev, const void *code, size_t size,
                        enum sb_layer_kind kind, struct sb_layer_output *out)
{
    out->kind = kind;
    out->count = 0;
    out->cached = false;
    struct sb_layer_hash content;
    bool ok;
    if (kind == SB_LAYER_KIND_VBC) {
        char hex[33];
        content = sb_layer_hash_bytes(code, size, 0);
        sb_layer_hash_hex(content, hex);
        ok = extract_vbc(dev, code, size, hex, out);
    } else {
        ok = translate_cached(dev, code, size, kind, &content, out);
    }
    /* A failing input is dumped too: it is the one a user wants to look at. */
    if (dev->config.dump_dir)
        sb_layer_dump(dev->config.dump_dir, &content, sb_layer_kind_name(kind), code, size, ok ? out : NULL);
    return ok;
}
