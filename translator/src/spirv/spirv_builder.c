/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V builder core: word streams per module section, ids, module-level
 * instructions, functions/blocks and instruction emission. Types, constants
 * and their hash cache live in spirv_builder_types.c. The layout follows the
 * SPIR-V specification §2.3 (physical layout) and §2.4 (logical layout).
 */
#include "spirv_builder.h"

#include <stdlib.h>
#include <string.h>

#define SB_SPV_GENERATOR 0u /* no registered generator id: tool 0, version 0 */

/* Out of line and cold: keeps the callers' fast paths small (few registers to save). */
#if defined(__GNUC__)
#define SB_SPV_COLD __attribute__((noinline, cold))
#else
#define SB_SPV_COLD
#endif


/* The hot path of every emission: room is almost always there already. */
static inline bool stream_reserve(struct sb_spv_builder *b, struct sb_spv_stream *s, size_t extra)
{
    if (s->count + extra <= s->capacity && !b->failed)
        return true;
    return sb_spv_stream_grow(b, s, extra);
}

/* Room for `words` more words at the end of `s` (counted as written); NULL after a failure. */
static inline uint32_t *stream_words(struct sb_spv_builder *b, struct sb_spv_stream *s, uint32_t words)
{
    if (!stream_reserve(b, s, words))
        return NULL;
    uint32_t *w = s->words + s->count;
    s->count += words;
    return w;
}

/* Inline: most callers pass a constant count, so the copy below unrolls into stores. */
static inline void stream_instruction(struct sb_spv_builder *b, struct sb_spv_stream *s, SpvOp op,
                                      const uint32_t *operands, uint32_t count)
{
    if (count >= 0xFFFFu) { /* the word count field has 16 bits */
        b->failed = true;
        return;
    }
    if (!stream_reserve(b, s, (size_t)count + 1))
        return;
    uint32_t *w = s->words + s->count;
    w[0] = ((count + 1) << SpvWordCountShift) | (uint32_t)op;
    for (uint32_t i = 0; i < count; i++)
        w[1 + i] = operands[i];
    s->count += count + 1;
}

uint32_t sb_spv_string_words(const char *str)
{
    return (uint32_t)(strlen(str) / 4 + 1);
}

void sb_spv_stream_string(struct sb_spv_builder *b, struct sb_spv_stream *s, const char *str)
{
    size_t len = strlen(str), words = len / 4 + 1;
    if (!stream_reserve(b, s, words))
        return;
    memset(s->words + s->count, 0, words * 4);
    memcpy(s->words + s->count, str, len);
    s->count += words;
}

/* Instruction with leading ids, then a string, then trailing literals. */
static void stream_with_string(struct sb_spv_builder *b, struct sb_spv_stream *s, SpvOp op,
                               const uint32_t *head, uint32_t head_count, const char *str,
                               const uint32_t *tail, uint32_t tail_count)
{
    uint32_t total = 1 + head_count + sb_spv_string_words(str) + tail_count;
    if (total > 0xFFFFu) { /* the word count field has 16 bits */
        b->failed = true;
        return;
    }
    if (!stream_reserve(b, s, total))
        return;
    s->words[s->count++] = (total << SpvWordCountShift) | (uint32_t)op;
    for (uint32_t i = 0; i < head_count; i++)
        s->words[s->count++] = head[i];
    sb_spv_stream_string(b, s, str);
    for (uint32_t i = 0; i < tail_count; i++)
        s->words[s->count++] = tail[i];
}

void sb_spv_builder_init(struct sb_spv_builder *b, uint32_t version)
{
    memset(b, 0, sizeof(*b));
    b->version = version;
    b->next_id = 1;
    b->origin = SB_SPV_NO_ORIGIN;
    sb_spv_storage_borrow(b);
}

void sb_spv_builder_release(struct sb_spv_builder *b)
{
    if (b->borrowed) {
        sb_spv_storage_return(b);
        /* Its pointers now belong to the thread's workspace (the rest of the builder holds
         * no storage: init clears it all again). */
        memset(b->sections, 0, sizeof(b->sections));
        b->keys = b->fn_header = b->fn_vars = b->fn_body = (struct sb_spv_stream){ 0 };
        b->cache = NULL;
        b->consts = NULL;
        b->globals = NULL;
        b->fn_done = NULL;
        b->cache_capacity = b->const_capacity = b->global_capacity = b->fn_done_capacity = 0;
        b->fn_done_count = b->global_count = 0;
        return;
    }
    for (int i = 0; i < SB_SPV_SECTION_COUNT; i++)
        free(b->sections[i].words);
    free(b->cache);
    free(b->consts);
    free(b->keys.words);
    free(b->globals);
    free(b->fn_header.words);
    free(b->fn_vars.words);
    free(b->fn_body.words);
    for (uint32_t i = 0; i < b->fn_done_count; i++)
        free(b->fn_done[i].words);
    free(b->fn_done);
    memset(b, 0, sizeof(*b));
}

size_t sb_spv_builder_word_count(const struct sb_spv_builder *b)
{
    if (b->failed || b->in_function)
        return 0;
    size_t total = 5;
    for (int i = 0; i < SB_SPV_SECTION_COUNT; i++)
        total += b->sections[i].count;
    for (uint32_t i = 0; i < b->fn_done_count; i++)
        total += b->fn_done[i].count;
    return total;
}

void sb_spv_builder_finish(const struct sb_spv_builder *b, uint32_t *out)
{
    out[0] = SpvMagicNumber;
    out[1] = b->version;
    out[2] = SB_SPV_GENERATOR;
    out[3] = b->next_id;
    out[4] = 0;
    size_t at = 5;
    for (int i = 0; i < SB_SPV_SECTION_COUNT; i++) {
        if (b->sections[i].count)
            memcpy(out + at, b->sections[i].words, b->sections[i].count * sizeof(*out));
        at += b->sections[i].count;
    }
    for (uint32_t i = 0; i < b->fn_done_count; i++) {
        if (b->fn_done[i].count)
            memcpy(out + at, b->fn_done[i].words, b->fn_done[i].count * sizeof(*out));
        at += b->fn_done[i].count;
    }
}

uint32_t sb_spv_id(struct sb_spv_builder *b)
{
    return b->next_id++;
}

void sb_spv_emit(struct sb_spv_builder *b, enum sb_spv_section section, SpvOp op,
                 const uint32_t *operands, uint32_t count)
{
    stream_instruction(b, &b->sections[section], op, operands, count);
}

void sb_spv_emit_joined(struct sb_spv_builder *b, enum sb_spv_section section, SpvOp op,
                        const uint32_t *head, uint32_t head_count, const uint32_t *tail, uint32_t tail_count)
{
    struct sb_spv_stream *s = &b->sections[section];
    size_t total = 1 + (size_t)head_count + tail_count;
    if (total > 0xFFFFu) { /* the word count field has 16 bits */
        b->failed = true;
        return;
    }
    if (!stream_reserve(b, s, total))
        return;
    uint32_t *w = s->words + s->count;
    w[0] = ((uint32_t)total << SpvWordCountShift) | (uint32_t)op;
    memcpy(w + 1, head, head_count * sizeof(*w));
    if (tail_count)
        memcpy(w + 1 + head_count, tail, tail_count * sizeof(*w));
    s->count += total;
}

/* ---- module-level ---------------------------------------------------------------------- */

void sb_spv_capability(struct sb_spv_builder *b, SpvCapability cap)
{
    uint32_t c = (uint32_t)cap;
    if (c < 192) {
        uint64_t bit = 1ull << (c & 63);
        if (b->capability_bits[c >> 6] & bit)
            return;
        b->capability_bits[c >> 6] |= bit;
    } else {
        for (uint32_t i = 0; i < b->capability_extra_count; i++)
            if (b->capability_extra[i] == c)
                return;
        if (b->capability_extra_count < sizeof(b->capability_extra) / sizeof(b->capability_extra[0]))
            b->capability_extra[b->capability_extra_count++] = c;
    }
    if (b->origin != SB_SPV_NO_ORIGIN && b->origin_count < SB_SPV_MAX_ORIGINS) {
        b->origin_capability[b->origin_count] = c;
        b->origin_offset[b->origin_count++] = b->origin;
    }
    sb_spv_emit(b, SB_SPV_SECTION_CAPABILITY, SpvOpCapability, &c, 1);
}

void sb_spv_extension(struct sb_spv_builder *b, const char *name)
{
    /* Few extensions ever: a scan of the section finds repeats. */
    const struct sb_spv_stream *s = &b->sections[SB_SPV_SECTION_EXTENSION];
    uint32_t words = sb_spv_string_words(name);
    for (size_t at = 0; at < s->count;) {
        uint32_t len = s->words[at] >> SpvWordCountShift;
        if (!len)
            break;
        if (len == words + 1 && !strncmp((const char *)(s->words + at + 1), name, words * 4))
            return;
        at += len;
    }
    stream_with_string(b, &b->sections[SB_SPV_SECTION_EXTENSION], SpvOpExtension, NULL, 0, name,
                       NULL, 0);
}

uint32_t sb_spv_glsl(struct sb_spv_builder *b)
{
    if (!b->glsl_std450) {
        b->glsl_std450 = sb_spv_id(b);
        stream_with_string(b, &b->sections[SB_SPV_SECTION_EXT_INST_IMPORT], SpvOpExtInstImport,
                           &b->glsl_std450, 1, "GLSL.std.450", NULL, 0);
    }
    return b->glsl_std450;
}

void sb_spv_memory_model(struct sb_spv_builder *b)
{
    const uint32_t ops[2] = { SpvAddressingModelLogical, SpvMemoryModelGLSL450 };
    sb_spv_emit(b, SB_SPV_SECTION_MEMORY_MODEL, SpvOpMemoryModel, ops, 2);
}

void sb_spv_entry_point(struct sb_spv_builder *b, SpvExecutionModel model, uint32_t function,
                        const char *name)
{
    bool all = b->version >= 0x00010400;
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->global_count; i++) {
        uint32_t sc = b->globals[i].storage_class;
        if (all || sc == SpvStorageClassInput || sc == SpvStorageClassOutput)
            n++;
    }
    /* Written in place: the interface list goes straight from the globals to the words. */
    struct sb_spv_stream *s = &b->sections[SB_SPV_SECTION_ENTRY_POINT];
    uint64_t total = 3ull + sb_spv_string_words(name) + n;
    if (total > 0xFFFFu) { /* the word count field has 16 bits */
        b->failed = true;
        return;
    }
    if (!stream_reserve(b, s, (size_t)total))
        return;
    s->words[s->count++] = ((uint32_t)total << SpvWordCountShift) | (uint32_t)SpvOpEntryPoint;
    s->words[s->count++] = (uint32_t)model;
    s->words[s->count++] = function;
    sb_spv_stream_string(b, s, name);
    for (uint32_t i = 0; i < b->global_count; i++) {
        uint32_t sc = b->globals[i].storage_class;
        if (all || sc == SpvStorageClassInput || sc == SpvStorageClassOutput)
            s->words[s->count++] = b->globals[i].id;
    }
}

void sb_spv_execution_mode(struct sb_spv_builder *b, uint32_t function, SpvExecutionMode mode,
                           const uint32_t *literals, uint32_t count)
{
    uint32_t ops[5] = { function, (uint32_t)mode };
    if (count > 3)
        count = 3;
    for (uint32_t i = 0; i < count; i++)
        ops[2 + i] = literals[i];
    sb_spv_emit(b, SB_SPV_SECTION_EXECUTION_MODE, SpvOpExecutionMode, ops, 2 + count);
}

/* ---- debug and annotations -------------------------------------------------------------- */

uint32_t sb_spv_string(struct sb_spv_builder *b, const char *str)
{
    uint32_t id = sb_spv_id(b);
    stream_with_string(b, &b->sections[SB_SPV_SECTION_DEBUG_STRING], SpvOpString, &id, 1, str,
                       NULL, 0);
    return id;
}

void sb_spv_source(struct sb_spv_builder *b, SpvSourceLanguage language, uint32_t version,
                   uint32_t file)
{
    const uint32_t ops[3] = { (uint32_t)language, version, file };
    sb_spv_emit(b, SB_SPV_SECTION_DEBUG_STRING, SpvOpSource, ops, file ? 3 : 2);
}

void sb_spv_name(struct sb_spv_builder *b, uint32_t id, const char *name)
{
    stream_with_string(b, &b->sections[SB_SPV_SECTION_DEBUG_NAME], SpvOpName, &id, 1, name, NULL, 0);
}

void sb_spv_member_name(struct sb_spv_builder *b, uint32_t type, uint32_t member, const char *name)
{
    const uint32_t head[2] = { type, member };
    stream_with_string(b, &b->sections[SB_SPV_SECTION_DEBUG_NAME], SpvOpMemberName, head, 2, name,
                       NULL, 0);
}

void sb_spv_decorate(struct sb_spv_builder *b, uint32_t id, SpvDecoration decoration,
                     const uint32_t *literals, uint32_t count)
{
    uint32_t ops[5] = { id, (uint32_t)decoration };
    if (count > 3)
        count = 3;
    for (uint32_t i = 0; i < count; i++)
        ops[2 + i] = literals[i];
    sb_spv_emit(b, SB_SPV_SECTION_ANNOTATION, SpvOpDecorate, ops, 2 + count);
}

void sb_spv_decorate1(struct sb_spv_builder *b, uint32_t id, SpvDecoration decoration, uint32_t literal)
{
    uint32_t *w = stream_words(b, &b->sections[SB_SPV_SECTION_ANNOTATION], 4);
    if (!w)
        return;
    w[0] = (4u << SpvWordCountShift) | (uint32_t)SpvOpDecorate;
    w[1] = id;
    w[2] = (uint32_t)decoration;
    w[3] = literal;
}

void sb_spv_member_decorate(struct sb_spv_builder *b, uint32_t type, uint32_t member,
                            SpvDecoration decoration, const uint32_t *literals, uint32_t count)
{
    uint32_t ops[6] = { type, member, (uint32_t)decoration };
    if (count > 3)
        count = 3;
    for (uint32_t i = 0; i < count; i++)
        ops[3 + i] = literals[i];
    sb_spv_emit(b, SB_SPV_SECTION_ANNOTATION, SpvOpMemberDecorate, ops, 3 + count);
}

/* ---- variables ---------------------------------------------------------------------------- */

uint32_t sb_spv_variable_global(struct sb_spv_builder *b, uint32_t pointer_type,
                                SpvStorageClass storage, uint32_t initializer)
{
    if (b->failed)
        return 0;
    if (b->global_count == b->global_capacity) {
        uint32_t cap = b->global_capacity ? b->global_capacity * 2 : 32;
        struct sb_spv_global *g = realloc(b->globals, cap * sizeof(*g));
        if (!g) {
            b->failed = true;
            return 0;
        }
        b->globals = g;
        b->global_capacity = cap;
    }
    uint32_t words = initializer ? 5 : 4;
    uint32_t *w = stream_words(b, &b->sections[SB_SPV_SECTION_GLOBAL], words);
    if (!w)
        return 0;
    uint32_t id = b->next_id++;
    w[0] = (words << SpvWordCountShift) | (uint32_t)SpvOpVariable;
    w[1] = pointer_type;
    w[2] = id;
    w[3] = (uint32_t)storage;
    if (initializer)
        w[4] = initializer;
    b->globals[b->global_count].id = id;
    b->globals[b->global_count].storage_class = (uint32_t)storage;
    b->global_count++;
    return id;
}

uint32_t sb_spv_variable_local(struct sb_spv_builder *b, uint32_t pointer_type, uint32_t initializer)
{
    uint32_t id = sb_spv_id(b);
    const uint32_t ops[4] = { pointer_type, id, SpvStorageClassFunction, initializer };
    stream_instruction(b, &b->fn_vars, SpvOpVariable, ops, initializer ? 4 : 3);
    return id;
}

/* ---- functions and blocks ------------------------------------------------------------------ */

uint32_t sb_spv_function_begin(struct sb_spv_builder *b, uint32_t id, uint32_t return_type,
                               uint32_t function_type)
{
    if (!id)
        id = sb_spv_id(b);
    b->fn_header.count = b->fn_vars.count = b->fn_body.count = 0;
    const uint32_t ops[4] = { return_type, id, SpvFunctionControlMaskNone, function_type };
    stream_instruction(b, &b->fn_header, SpvOpFunction, ops, 4);
    b->in_function = true;
    b->current_function = id;
    b->block_open = false;
    b->current_block = 0;
    return id;
}

void sb_spv_function_reserve(struct sb_spv_builder *b, size_t words)
{
    if (b->in_function && words > b->fn_body.capacity)
        sb_spv_stream_grow(b, &b->fn_body, words - b->fn_body.count);
}

uint32_t sb_spv_function_parameter(struct sb_spv_builder *b, uint32_t type)
{
    uint32_t id = sb_spv_id(b);
    const uint32_t ops[2] = { type, id };
    stream_instruction(b, &b->fn_header, SpvOpFunctionParameter, ops, 2);
    return id;
}

/* The first block's label goes into the header, before the variables. */
static void open_first_block(struct sb_spv_builder *b)
{
    if (b->current_block)
        return;
    b->current_block = sb_spv_id(b);
    stream_instruction(b, &b->fn_header, SpvOpLabel, &b->current_block, 1);
    b->block_open = true;
}

/*
 * Hands the finished function's streams to `fn_done` rather than copying them
 * into the function section: bodies are the bulk of a module, and finish()
 * copies them once into the result. The next function starts on streams kept from an
 * earlier module (spirv_builder_storage.c) or on empty ones.
 */
static void keep_function(struct sb_spv_builder *b)
{
    if (b->failed)
        return;
    if (b->fn_done_count + 3 > b->fn_done_capacity) {
        uint32_t cap = b->fn_done_capacity ? b->fn_done_capacity * 2 : 6;
        struct sb_spv_stream *done = realloc(b->fn_done, cap * sizeof(*done));
        if (!done) {
            b->failed = true;
            return;
        }
        b->fn_done = done;
        b->fn_done_capacity = cap;
    }
    b->fn_done[b->fn_done_count++] = b->fn_header;
    b->fn_done[b->fn_done_count++] = b->fn_vars;
    b->fn_done[b->fn_done_count++] = b->fn_body;
    b->fn_header = sb_spv_storage_function_stream(b, 0);
    b->fn_vars = sb_spv_storage_function_stream(b, 1);
    b->fn_body = sb_spv_storage_function_stream(b, 2);
}

void sb_spv_function_end(struct sb_spv_builder *b)
{
    if (!b->in_function)
        return;
    open_first_block(b);
    if (b->block_open)
        sb_spv_terminate(b, SpvOpReturn);
    stream_instruction(b, &b->fn_body, SpvOpFunctionEnd, NULL, 0);
    keep_function(b);
    b->in_function = false;
    b->block_open = false;
}

uint32_t sb_spv_label(struct sb_spv_builder *b, uint32_t id)
{
    if (!id)
        id = sb_spv_id(b);
    if (!b->current_block) {
        /* The entry block must be the first; give it a branch to `id`. */
        open_first_block(b);
    }
    if (b->block_open)
        sb_spv_branch(b, id);
    stream_instruction(b, &b->fn_body, SpvOpLabel, &id, 1);
    b->current_block = id;
    b->block_open = true;
    return id;
}

bool sb_spv_is_terminator(SpvOp op)
{
    switch (op) {
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
    case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable:
    case SpvOpTerminateInvocation: case SpvOpEmitMeshTasksEXT:
        return true;
    default:
        return false;
    }
}

SB_SPV_COLD uint32_t *sb_spv_body_words_slow(struct sb_spv_builder *b, uint32_t words)
{
    if (!b->block_open) {
        if (!b->current_block)
            open_first_block(b);
        else
            sb_spv_label(b, 0);
    }
    struct sb_spv_stream *s = &b->fn_body;
    if (!stream_reserve(b, s, words))
        return NULL;
    uint32_t *w = s->words + s->count;
    s->count += words;
    return w;
}

void sb_spv_op(struct sb_spv_builder *b, SpvOp op, const uint32_t *operands, uint32_t count)
{
    uint32_t *w = sb_spv_body_words(b, count + 1);
    if (!w)
        return;
    w[0] = ((count + 1) << SpvWordCountShift) | (uint32_t)op;
    for (uint32_t i = 0; i < count; i++)
        w[1 + i] = operands[i];
    if (sb_spv_is_terminator(op))
        b->block_open = false;
}




uint32_t sb_spv_glsl_op(struct sb_spv_builder *b, uint32_t type, uint32_t inst, const uint32_t *args,
                        uint32_t count)
{
    uint32_t ops[8];
    if (count > 6)
        return 0;
    ops[0] = sb_spv_glsl(b);
    ops[1] = inst;
    memcpy(ops + 2, args, count * sizeof(uint32_t));
    return sb_spv_op_result(b, SpvOpExtInst, type, ops, count + 2);
}

uint32_t sb_spv_glsl1(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a)
{
    return sb_spv_glsl_op(b, type, inst, &a, 1);
}

uint32_t sb_spv_glsl2(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a, uint32_t c)
{
    const uint32_t args[2] = { a, c };
    return sb_spv_glsl_op(b, type, inst, args, 2);
}

uint32_t sb_spv_glsl3(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a, uint32_t c,
                      uint32_t d)
{
    const uint32_t args[3] = { a, c, d };
    return sb_spv_glsl_op(b, type, inst, args, 3);
}



uint32_t sb_spv_construct(struct sb_spv_builder *b, uint32_t type, const uint32_t *parts, uint32_t count)
{
    return sb_spv_op_result(b, SpvOpCompositeConstruct, type, parts, count);
}

void sb_spv_branch(struct sb_spv_builder *b, uint32_t target)
{
    sb_spv_op(b, SpvOpBranch, &target, 1);
}

void sb_spv_branch_conditional(struct sb_spv_builder *b, uint32_t condition, uint32_t true_label,
                               uint32_t false_label)
{
    const uint32_t ops[3] = { condition, true_label, false_label };
    sb_spv_op(b, SpvOpBranchConditional, ops, 3);
}

void sb_spv_selection_merge(struct sb_spv_builder *b, uint32_t merge)
{
    const uint32_t ops[2] = { merge, SpvSelectionControlMaskNone };
    sb_spv_op(b, SpvOpSelectionMerge, ops, 2);
}

void sb_spv_loop_merge(struct sb_spv_builder *b, uint32_t merge, uint32_t continue_target)
{
    const uint32_t ops[3] = { merge, continue_target, SpvLoopControlMaskNone };
    sb_spv_op(b, SpvOpLoopMerge, ops, 3);
}

void sb_spv_terminate(struct sb_spv_builder *b, SpvOp op)
{
    sb_spv_op(b, op, NULL, 0);
}
