/* SPDX-License-Identifier: MIT */
/*
 * Cross-check of the known-answer expectations with another translator:
 * `test_vk_known_answer --peer-dir DIR` runs DIR/<case>.spv (for example
 * vkd3d-compiler's output for the containers `test_ka_listing --dump`
 * writes) instead of our translation. This module recovers the bindings
 * such a module uses: each OpVariable with a Binding decoration, its
 * descriptor type from its type and storage class, and its register from
 * its OpName ("cb0_0", "u1", "t0", "s0"). A case that fails with both
 * translators points at the expectation; one that fails only with ours
 * points at the translator.
 */
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ka_peer.h"

#define MAX_IDS 4096

struct id_info {
    uint32_t op;         /* defining opcode */
    uint32_t a, b, c;    /* operands of interest */
    uint32_t set, binding;
    bool has_binding, block, buffer_block;
    char name[16];
};

static uint32_t descriptor_type(const struct id_info *ids, uint32_t bound, uint32_t var)
{
    uint32_t ptr = ids[var].a, sc = ids[var].b;
    if (ptr >= bound || ids[ptr].op != SpvOpTypePointer)
        return UINT32_MAX;
    uint32_t type = ids[ptr].b;
    while (type < bound && (ids[type].op == SpvOpTypeArray || ids[type].op == SpvOpTypeRuntimeArray))
        type = ids[type].a;
    if (type >= bound)
        return UINT32_MAX;
    const struct id_info *t = &ids[type];
    if (sc == SpvStorageClassStorageBuffer || (sc == SpvStorageClassUniform && t->buffer_block))
        return 7; /* VK_DESCRIPTOR_TYPE_STORAGE_BUFFER */
    if (sc == SpvStorageClassUniform)
        return 6; /* UNIFORM_BUFFER */
    if (t->op == SpvOpTypeSampler)
        return 0; /* SAMPLER */
    if (t->op == SpvOpTypeSampledImage)
        return 1; /* COMBINED_IMAGE_SAMPLER */
    if (t->op == SpvOpTypeImage) {
        bool buffer = t->b == SpvDimBuffer, storage = t->c == 2;
        return buffer ? (storage ? 5 : 4) : (storage ? 3 : 2);
    }
    return UINT32_MAX;
}

/* "cb0_0" -> CBV 0, "u12" -> UAV 12 ... */
static bool register_of(const char *name, uint32_t *cls, uint32_t *reg)
{
    static const struct {
        const char *prefix;
        uint32_t cls;
    } prefixes[] = { { "cb", 0 }, { "t", 1 }, { "s", 2 }, { "u", 3 } };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        size_t n = strlen(prefixes[i].prefix);
        if (strncmp(name, prefixes[i].prefix, n) == 0 && name[n] >= '0' && name[n] <= '9') {
            *cls = prefixes[i].cls;
            *reg = (uint32_t)strtoul(name + n, NULL, 10);
            return true;
        }
    }
    return false;
}

uint32_t ka_peer_bindings(const uint32_t *words, size_t count, struct sb_translated_binding *out,
                          uint32_t max)
{
    if (count < 5 || words[0] != SpvMagicNumber || words[3] > MAX_IDS)
        return 0;
    uint32_t bound = words[3];
    struct id_info *ids = calloc(bound, sizeof(*ids));
    if (!ids)
        return 0;
    for (size_t i = 5; i < count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffff;
        if (len == 0 || i + len > count)
            break;
        const uint32_t *w = &words[i];
        if (op == SpvOpName && len >= 3 && w[1] < bound)
            snprintf(ids[w[1]].name, sizeof(ids[0].name), "%s", (const char *)&w[2]);
        else if (op == SpvOpDecorate && len >= 3 && w[1] < bound) {
            struct id_info *d = &ids[w[1]];
            if (w[2] == SpvDecorationBinding && len >= 4) {
                d->binding = w[3];
                d->has_binding = true;
            } else if (w[2] == SpvDecorationDescriptorSet && len >= 4) {
                d->set = w[3];
            } else if (w[2] == SpvDecorationBlock) {
                d->block = true;
            } else if (w[2] == SpvDecorationBufferBlock) {
                d->buffer_block = true;
            }
        } else if ((op == SpvOpTypePointer || op == SpvOpTypeArray ||
                    op == SpvOpTypeRuntimeArray) && len >= 3 && w[1] < bound) {
            /* pointer: a = storage class, b = pointee; arrays: a = element */
            ids[w[1]].op = op;
            ids[w[1]].a = w[2];
            ids[w[1]].b = op == SpvOpTypePointer && len >= 4 ? w[3] : 0;
        } else if (op == SpvOpTypeImage && len >= 9 && w[1] < bound) {
            ids[w[1]].op = op;
            ids[w[1]].b = w[3]; /* Dim */
            ids[w[1]].c = w[7]; /* Sampled */
        } else if ((op == SpvOpTypeSampler || op == SpvOpTypeSampledImage ||
                    op == SpvOpTypeStruct) && len >= 2 && w[1] < bound) {
            ids[w[1]].op = op;
        } else if (op == SpvOpVariable && len >= 4 && w[2] < bound) {
            ids[w[2]].op = op;
            ids[w[2]].a = w[1];
            ids[w[2]].b = w[3];
        }
        i += len;
    }
    uint32_t n = 0;
    for (uint32_t id = 1; id < bound && n < max; id++) {
        const struct id_info *v = &ids[id];
        uint32_t cls, reg;
        if (v->op != SpvOpVariable || !v->has_binding || !register_of(v->name, &cls, &reg))
            continue;
        out[n++] = (struct sb_translated_binding){
            .resource_class = cls, .lower_bound = reg, .count = 1,
            .set = v->set, .binding = v->binding,
            .descriptor_type = descriptor_type(ids, bound, id),
        };
    }
    free(ids);
    return n;
}
