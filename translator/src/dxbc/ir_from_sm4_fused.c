/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_dxbc(): SM4/5 decoding and IR lowering fused, for translation.
 *
 * The general path decodes every instruction into the public 272-byte
 * sb_sm4_instruction (and 152-byte operands) and the lowering reads them
 * back; for the ordinary instructions that make up nearly all of a program
 * that round trip cost more than the conversion itself. Here those are
 * lowered straight from the tokens (sb_ir_lower_tokens()), every other
 * instruction (declarations, custom data, extended or long forms, relative
 * or modified operands, ...) is decoded into one reused instruction and
 * lowered as the general path does. The fused attempt only ever succeeds
 * where the general path would, with the same program; on anything it does
 * not finish (every error included) the general path runs from the start,
 * so errors are reported by exactly one implementation. What it made of each
 * opcode and operand token is kept per thread for the next time the token
 * comes (struct thread_forms).
 */
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "ir_from_sm4_private.h"
#include "sm4_private.h"
#include "error.h"

/*
 * The forms this thread has met, kept from one program to the next: a corpus repeats its
 * opcode and operand tokens across programs far more than a small program repeats them
 * itself. An opcode form depends on the token alone; an operand form also on whether the
 * program is SM5.1 (its index counts), so those are forgotten when that changes.
 */
struct thread_forms {
    bool ready;      /* opcode keys cleared */
    bool has_model;  /* operand keys cleared, for programs of model is_sm51 */
    bool is_sm51;
    struct sb_ir_opcode_forms opcodes;
    struct sb_ir_operand_forms operands;
};

static _Thread_local struct thread_forms thread_forms;

/* This thread's forms, their opcode forms ready. */
static struct thread_forms *forms_of_thread(void)
{
    struct thread_forms *f = &thread_forms;
    if (!f->ready) {
        memset(f->opcodes.key, 0xff, sizeof(f->opcodes.key));
        f->ready = true;
    }
    return f;
}

/* The thread's operand forms, for a program of the given model. */
static struct sb_ir_operand_forms *operand_forms_for(struct thread_forms *f, bool is_sm51)
{
    if (!f->has_model || f->is_sm51 != is_sm51) {
        memset(f->operands.token, 0xff, sizeof(f->operands.token));
        f->is_sm51 = is_sm51;
        f->has_model = true;
    }
    return &f->operands;
}

/* The slot of the opcode-form table for `key`, hashed like the operand forms'. */
static inline uint32_t opcode_form_slot(uint32_t key)
{
    return (key * 0x9e3779b1u) >> (32u - SB_IR_OPCODE_FORM_BITS);
}

/* The form of the opcode token `token`, made on its first sight. */
static inline const struct sb_ir_opcode_form *opcode_form(struct sb_ir_opcode_forms *forms,
                                                          uint32_t token)
{
    uint32_t key = token & SB_IR_OPCODE_FORM_KEY;
    uint32_t slot = opcode_form_slot(key);
    if (forms->key[slot] != key) {
        sb_ir_opcode_form_prepare(token, &forms->form[slot]);
        forms->key[slot] = key;
    }
    return &forms->form[slot];
}

/* The ordinary instruction at `pos` straight from its tokens, when its form (`forms`,
 * filled on first sight of the token) is direct and it has a short length inside the
 * program; SB_IR_FAST_DECLINED otherwise. */
static enum sb_ir_fast lower_direct(struct sb_ir_sm4_context *ctx,
                                    struct sb_ir_opcode_forms *forms,
                                    const struct sb_sm4_reader *reader, uint32_t pos,
                                    struct sb_sm4_instruction *head)
{
    uint32_t token = sb_sm4_load(reader, pos);
    const struct sb_ir_opcode_form *form = opcode_form(forms, token);
    uint32_t length = (token >> 24) & 0x7fu;
    if (!form->direct || length == 0 || length > reader->dword_count - pos)
        return SB_IR_FAST_DECLINED;
    /* What an error report or an icb[] use would read of the instruction. */
    head->offset = sb_sm4_offset(reader, pos);
    head->index = reader->instr;
    head->opcode = token & 0x7ffu;
    ctx->inst = head;
    return sb_ir_lower_tokens(ctx, form, reader->data, pos, length);
}

/* Lowers every instruction; false when the general path has to take over. */
static bool lower_stream(struct sb_ir_sm4_context *ctx, struct sb_sm4_reader *reader,
                         struct sb_ir_opcode_forms *forms)
{
    /* Zeroed once: only the fields lower_direct() sets are ever read. */
    struct sb_sm4_instruction head = { 0 };
    struct sb_sm4_instruction decoded;
    struct sb_sm4_operand scratch[SB_SM4_MAX_OPERANDS];
    reader->scratch_operands = scratch;
    uint32_t pos = 2;
    for (uint32_t index = 0; pos < reader->dword_count; index++) {
        reader->instr = index;
        reader->instr_start = pos;
        enum sb_ir_fast r = lower_direct(ctx, forms, reader, pos, &head);
        if (r == SB_IR_FAST_FAILED)
            return false;
        if (r == SB_IR_FAST_DONE) {
            pos += (sb_sm4_load(reader, pos) >> 24) & 0x7fu;
            continue;
        }
        uint32_t length = sb_sm4_read_instruction(reader, &decoded, pos);
        if (!length)
            return false;
        ctx->inst = &decoded;
        if (!sb_ir_sm4_lower_one(ctx, &decoded))
            return false;
        pos += length;
    }
    return !ctx->failed && !reader->failed;
}

/* The fused attempt: the program, or NULL where the general path must run. */
static struct sb_ir_program *try_fused(const struct sb_dxbc *container)
{
    const struct sb_dxbc_part *part = sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'E', 'X'));
    if (!part)
        part = sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'D', 'R'));
    if (!part || !part->data)
        return NULL;
    /* The header fields sb_ir_sm4_start() checks; no instruction list (the failure
     * paths that search it never run here: any failure hands over). */
    struct sb_sm4_program program = { 0 };
    program.base_offset = part->data_offset;
    struct sb_sm4_reader reader = { .data = part->data, .base_offset = part->data_offset,
                                    .instr = SB_ERROR_NO_INSTR };
    if (!sb_sm4_read_header(&reader, part->size, &program))
        return NULL;
    /* Every instruction and every operand takes at least one DWORD after the two of the
     * header: pools of that size never run out, and need no pass over the program first
     * (that pass was the first touch of each input line and a table lookup per
     * instruction). Uninitialised arena space, so only the slots used are touched. */
    uint32_t instructions = reader.dword_count > 2 ? reader.dword_count - 2 : 0, operands = instructions;
    struct sb_ir_sm4_context ctx;
    if (!sb_ir_sm4_start(&ctx, &program, container, true))
        return NULL;
    struct thread_forms *forms = forms_of_thread();
    ctx.operand_forms = operand_forms_for(forms, ctx.is_sm51);
    /* Payloads the general decoder allocates (declaration id lists, relative operands)
     * live as long as the IR program: a few bytes, gone with it. */
    reader.arena = ctx.arena;
    if (!sb_ir_sm4_open(&ctx, instructions, operands) ||
        !lower_stream(&ctx, &reader, &forms->opcodes) || !sb_ir_sm4_finish(&ctx)) {
        sb_ir_program_destroy(ctx.program);
        return NULL;
    }
    return ctx.program;
}

enum sb_result sb_ir_from_dxbc(const struct sb_dxbc *container, struct sb_ir_program **out,
                               struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (container && out && (*out = try_fused(container)) != NULL)
        return SB_SUCCESS;
    struct sb_sm4_program *sm4 = NULL;
    enum sb_result r = sb_sm4_decode_container(container, &sm4, error);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(sm4, container, out, error);
    sb_sm4_program_destroy(sm4);
    return r;
}
