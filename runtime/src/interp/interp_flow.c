/* SPDX-License-Identifier: MIT */
/*
 * Structured control flow of the CPU interpreter (translator/IR.md §Control
 * flow) over a whole thread group in lockstep. Each lane has an active bit;
 * IF/LOOP/SWITCH/CALL push a frame remembering which lanes resume after the
 * construct (`keep`) and which wait inside it (`wait`: the else lanes, the
 * lanes still looping, the lanes whose case label is still to come).
 * BREAK/CONTINUE/RET take lanes out of `active` and out of every frame up to
 * the construct they leave, so those lanes reappear exactly where D3D says:
 * after ENDLOOP/ENDSWITCH, at the next iteration, after the CALL.
 *
 * Whenever no lane is active the walk jumps straight to the marker that can
 * bring lanes back (the top frame's `resume`: ELSE/ENDIF, ENDLOOP, the next
 * case label, the end of the function), so a region no lane runs costs one
 * step. Every executed instruction (markers included) is counted against
 * the budget, which is what stops a loop that never ends.
 */
#include "interp_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

static bool is_label(uint32_t op)
{
    return op == SB_IR_OP_CASE || op == SB_IR_OP_DEFAULT;
}

/* match[]: IF -> its ELSE or ENDIF; ELSE -> ENDIF; LOOP <-> ENDLOOP; SWITCH -> ENDSWITCH;
 * CASE/DEFAULT -> the next label of the same switch, or its ENDSWITCH. */
static enum sb_result prepare_function(struct interp_state *s, const struct sb_ir_function *fn,
                                       struct interp_function *out)
{
    uint32_t n = fn->instruction_count;
    out->match = malloc((n ? n : 1) * sizeof(uint32_t));
    uint32_t *stack = malloc((n ? n : 1) * sizeof(uint32_t)), depth = 0;
    if (!out->match || !stack) {
        free(stack);
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct sb_ir_instruction *in = &fn->instructions[i];
        uint32_t op = in->op, open = depth ? stack[depth - 1] : UINT32_MAX;
        uint32_t open_op = open != UINT32_MAX ? fn->instructions[open].op : SB_IR_OP_NOP;
        out->match[i] = UINT32_MAX;
        s->inst = in;
        switch (op) {
        case SB_IR_OP_IF: case SB_IR_OP_LOOP: case SB_IR_OP_SWITCH:
            stack[depth++] = i;
            if (depth > out->depth)
                out->depth = depth;
            break;
        case SB_IR_OP_ELSE:
            if (open_op != SB_IR_OP_IF)
                goto unbalanced;
            out->match[open] = i;
            stack[depth - 1] = i;
            break;
        case SB_IR_OP_ENDIF:
            if (open_op != SB_IR_OP_IF && open_op != SB_IR_OP_ELSE)
                goto unbalanced;
            out->match[open] = i;
            depth--;
            break;
        case SB_IR_OP_ENDLOOP:
            if (open_op != SB_IR_OP_LOOP)
                goto unbalanced;
            out->match[open] = i;
            out->match[i] = open;
            depth--;
            break;
        case SB_IR_OP_CASE: case SB_IR_OP_DEFAULT: case SB_IR_OP_ENDSWITCH:
            if (open_op != SB_IR_OP_SWITCH && !is_label(open_op))
                goto unbalanced;
            if (is_label(open_op)) {
                out->match[open] = i; /* the previous label's successor */
                depth--;
            }
            if (op == SB_IR_OP_ENDSWITCH) {
                out->match[stack[depth - 1]] = i;
                depth--;
            } else {
                stack[depth++] = i; /* the current label sits on the stack above its SWITCH */
                if (depth > out->depth)
                    out->depth = depth;
            }
            break;
        default: break;
        }
    }
    free(stack);
    s->inst = NULL;
    if (depth)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "unclosed IF/LOOP/SWITCH in function %u",
                              (unsigned)(fn - s->program->functions));
    return SB_SUCCESS;
unbalanced:
    free(stack);
    return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' does not close an open construct",
                          sb_ir_op_name(s->inst->op));
}

enum sb_result sb_interp_flow_prepare(struct interp_state *s)
{
    const struct sb_ir_program *p = s->program;
    s->functions = calloc(p->function_count, sizeof(*s->functions));
    if (!s->functions)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t deepest = 0;
    for (uint32_t f = 0; f < p->function_count; f++) {
        if (prepare_function(s, &p->functions[f], &s->functions[f]) != SB_SUCCESS)
            return s->result;
        if (s->functions[f].depth > deepest)
            deepest = s->functions[f].depth;
    }
    /* Calls cannot recurse (IR.md), so a chain visits each function at most once. */
    uint64_t capacity = (uint64_t)p->function_count * (deepest + 1) + 1;
    if (capacity > 4096)
        capacity = 4096;
    s->frame_capacity = (uint32_t)capacity;
    s->frames = calloc(capacity, sizeof(*s->frames));
    if (!s->frames)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return SB_SUCCESS;
}

static struct interp_frame *push(struct interp_state *s, uint32_t kind, uint32_t function, uint32_t pc)
{
    if (s->frame_count == s->frame_capacity) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "control flow nested deeper than %u", s->frame_capacity);
        return NULL;
    }
    struct interp_frame *fr = &s->frames[s->frame_count];
    if (!fr->keep) {
        fr->keep = malloc(2 * (size_t)s->lanes);
        if (!fr->keep) {
            sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        fr->wait = fr->keep + s->lanes;
    }
    s->frame_count++;
    fr->kind = kind;
    fr->function = function;
    fr->pc = pc;
    memcpy(fr->keep, s->active, s->lanes);
    return fr;
}

/* Lane loops below copy s->active and s->lanes into locals: byte stores may alias anything,
 * so the compiler would otherwise reload both on every lane. */
static void set_active(struct interp_state *s, const uint8_t *mask)
{
    uint32_t count = 0, n = s->lanes;
    memcpy(s->active, mask, n);
    for (uint32_t l = 0; l < n; l++)
        count += mask[l];
    s->active_count = count;
}

/* The active lanes whose condition holds (IF, BREAKC, CALLC, ...) into `out`; returns how many. */
static uint32_t condition(struct interp_state *s, const struct sb_ir_instruction *in, uint8_t *out)
{
    if (in->src_count < 1) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' without a condition", sb_ir_op_name(in->op));
        return 0;
    }
    const uint32_t *c = sb_interp_load_scalar(s, &in->src[0], SB_IR_TYPE_UINT);
    if (!c)
        return 0;
    if (s->prec)
        sb_interp_precision_branch(s, c);
    uint32_t count = 0, n = s->lanes;
    uint8_t z = (in->flags & SB_IR_FLAG_TEST_NZ) ? 0 : 1;
    const uint8_t *restrict active = s->active;
    for (uint32_t l = 0; l < n; l++) {
        uint8_t t = (uint8_t)(active[l] & ((c[l] != 0) ^ z));
        out[l] = t;
        count += t;
    }
    return count;
}

/* Takes `lanes` out of the active set and out of the frames above frames[stop]
 * (all frames for stop = UINT32_MAX). */
static void leave(struct interp_state *s, const uint8_t *lanes, uint32_t stop)
{
    uint32_t count = 0, first = stop == UINT32_MAX ? 0 : stop + 1, n = s->lanes;
    for (uint32_t f = s->frame_count; f-- > first;) {
        uint8_t *restrict keep = s->frames[f].keep, *restrict wait = s->frames[f].wait;
        for (uint32_t l = 0; l < n; l++) {
            keep[l] &= (uint8_t)~lanes[l];
            wait[l] &= (uint8_t)~lanes[l];
        }
    }
    uint8_t *restrict active = s->active;
    for (uint32_t l = 0; l < n; l++) {
        active[l] &= (uint8_t)~lanes[l];
        count += active[l];
    }
    s->active_count = count;
}

/* Innermost frame of one of the kinds (bits of 1 << kind); UINT32_MAX for "none" (below all). */
static uint32_t innermost(const struct interp_state *s, uint32_t kinds)
{
    for (uint32_t f = s->frame_count; f-- > 0;) {
        if (kinds & (1u << s->frames[f].kind))
            return f;
        if (s->frames[f].kind == FRAME_CALL)
            break;
    }
    return UINT32_MAX;
}

/* BREAK(C), CONTINUE(C), RET(C). */
static void jump_out(struct interp_state *s, const struct sb_ir_instruction *in, uint8_t *lanes)
{
    bool conditional = in->op == SB_IR_OP_BREAKC || in->op == SB_IR_OP_CONTINUEC || in->op == SB_IR_OP_RETC;
    if (conditional) {
        if (!condition(s, in, lanes))
            return;
    } else {
        memcpy(lanes, s->active, s->lanes);
    }
    uint32_t stop;
    if (in->op == SB_IR_OP_BREAK || in->op == SB_IR_OP_BREAKC) {
        stop = innermost(s, (1u << FRAME_LOOP) | (1u << FRAME_SWITCH));
        if (stop != UINT32_MAX && s->frames[stop].kind == FRAME_LOOP)
            for (uint32_t l = 0; l < s->lanes; l++)
                s->frames[stop].wait[l] &= (uint8_t)~lanes[l];
    } else if (in->op == SB_IR_OP_CONTINUE || in->op == SB_IR_OP_CONTINUEC) {
        stop = innermost(s, 1u << FRAME_LOOP);
    } else {
        /* Leaving the entry function (no CALL frame) ends the invocations: every frame forgets them. */
        leave(s, lanes, innermost(s, 1u << FRAME_CALL));
        return;
    }
    if (stop == UINT32_MAX) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' outside the construct it leaves",
                       sb_ir_op_name(in->op));
        return;
    }
    leave(s, lanes, stop);
}

/* SWITCH: each lane's entry label; all lanes wait until their label comes. */
static void enter_switch(struct interp_state *s, const struct sb_ir_function *fn, uint32_t pc,
                         struct interp_frame *fr)
{
    const uint32_t *sel = sb_interp_load_scalar(s, &fn->instructions[pc].src[0], SB_IR_TYPE_INT);
    if (!sel)
        return;
    if (s->prec)
        sb_interp_precision_branch(s, sel);
    if (!fr->target && !(fr->target = malloc(s->lanes * sizeof(uint32_t)))) {
        sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return;
    }
    const uint32_t *match = s->functions[fn - s->program->functions].match;
    uint32_t fallback = match[pc]; /* ENDSWITCH: no label matched, no default */
    for (uint32_t q = pc + 1; q < fn->instruction_count && is_label(fn->instructions[q].op); q = match[q])
        if (fn->instructions[q].op == SB_IR_OP_DEFAULT) {
            fallback = q;
            break;
        }
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t t = fallback;
        for (uint32_t q = pc + 1; q < fn->instruction_count && is_label(fn->instructions[q].op); q = match[q])
            if (fn->instructions[q].op == SB_IR_OP_CASE && fn->instructions[q].case_value == sel[l]) {
                t = q;
                break;
            }
        fr->target[l] = t;
    }
    memcpy(fr->wait, s->active, s->lanes);
    memset(s->active, 0, s->lanes);
    s->active_count = 0;
    fr->resume = pc + 1;
}

/* A CASE/DEFAULT label: the waiting lanes that enter here join the running ones. */
static void enter_label(struct interp_state *s, struct interp_frame *fr, uint32_t pc, uint32_t next)
{
    uint32_t count = 0;
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (fr->wait[l] && fr->target[l] == pc) {
            fr->wait[l] = 0;
            s->active[l] = 1;
        }
        count += s->active[l];
    }
    s->active_count = count;
    fr->resume = next;
}

struct walk {
    uint32_t f, pc;
    bool done;
};

static struct interp_frame *top(struct interp_state *s, uint32_t kind)
{
    if (s->frame_count && s->frames[s->frame_count - 1].kind == kind)
        return &s->frames[s->frame_count - 1];
    sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "flow marker '%s' out of place",
                   s->inst ? sb_ir_op_name(s->inst->op) : "?");
    return NULL;
}

/* The function an fcall runs under the default class instances (IR.md §Class linkage): the
 * SPIR-V back end's specialisation constants default every slot to its interface's first table,
 * so fcall fp n[e][site] runs body tables[0].bodies[site] whatever e is. UINT32_MAX (recorded)
 * when the declarations do not lead to a body. */
static uint32_t interface_target(struct interp_state *s, const struct sb_ir_instruction *in)
{
    const struct sb_ir_program *p = s->program;
    const struct sb_ir_operand *op = in->src_count ? &in->src[0] : NULL;
    const struct sb_ir_interface *fp = NULL;
    const struct sb_ir_function_table *table = NULL;
    for (uint32_t i = 0; op && op->index_count >= 1 && i < p->interface_count; i++)
        if (p->interfaces[i].id == op->index[0].offset)
            fp = &p->interfaces[i];
    for (uint32_t i = 0; fp && fp->table_count && i < p->function_table_count; i++)
        if (p->function_tables[i].id == fp->tables[0])
            table = &p->function_tables[i];
    uint32_t body = table && in->target < table->body_count ? table->bodies[in->target] : UINT32_MAX;
    if (body >= p->function_body_count || !p->function_body_label) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "fcall site %u leads to no function body", in->target);
        return UINT32_MAX;
    }
    return p->function_body_label[body];
}

/* Call and return (also falling off the end of a function); `target` is the callee's index. */
static void call(struct interp_state *s, const struct sb_ir_instruction *in, struct walk *w, uint8_t *lanes,
                 uint32_t target)
{
    const struct sb_ir_program *p = s->program;
    if (target == 0 || target >= p->function_count) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "call target %u is no subroutine", target);
        return;
    }
    uint32_t count = s->active_count;
    if (in->op == SB_IR_OP_CALLC)
        count = condition(s, in, lanes);
    if (!count || s->result != SB_SUCCESS) {
        w->pc++;
        return;
    }
    struct interp_frame *fr = push(s, FRAME_CALL, w->f, w->pc);
    if (!fr)
        return;
    if (in->op == SB_IR_OP_CALLC)
        set_active(s, lanes);
    fr->resume = p->functions[target].instruction_count;
    w->f = target;
    w->pc = 0;
}

static void function_end(struct interp_state *s, struct walk *w)
{
    if (!s->frame_count) {
        w->done = true;
        return;
    }
    struct interp_frame *fr = top(s, FRAME_CALL);
    if (!fr)
        return;
    set_active(s, fr->keep);
    s->frame_count--;
    w->f = fr->function;
    w->pc = fr->pc + 1;
}

/* One flow marker; returns false when `in` is no flow op. */
static bool flow_op(struct interp_state *s, const struct sb_ir_function *fn, const struct sb_ir_instruction *in,
                    struct walk *w, uint8_t *lanes)
{
    const uint32_t *match = s->functions[w->f].match;
    struct interp_frame *fr;
    switch (in->op) {
    case SB_IR_OP_IF:
        condition(s, in, lanes);
        if (!(fr = push(s, FRAME_IF, w->f, w->pc)))
            break;
        for (uint32_t l = 0; l < s->lanes; l++)
            fr->wait[l] = s->active[l] & (uint8_t)!lanes[l];
        set_active(s, lanes);
        fr->resume = match[w->pc];
        break;
    case SB_IR_OP_ELSE:
        if ((fr = top(s, FRAME_IF))) {
            set_active(s, fr->wait);
            fr->resume = match[w->pc];
        }
        break;
    case SB_IR_OP_ENDIF:
        if ((fr = top(s, FRAME_IF))) {
            set_active(s, fr->keep);
            s->frame_count--;
        }
        break;
    case SB_IR_OP_LOOP:
        if ((fr = push(s, FRAME_LOOP, w->f, w->pc))) {
            memcpy(fr->wait, s->active, s->lanes);
            fr->resume = match[w->pc];
        }
        break;
    case SB_IR_OP_ENDLOOP:
        if ((fr = top(s, FRAME_LOOP))) {
            set_active(s, fr->wait);
            if (s->active_count) {
                w->pc = fr->pc + 1;
                return true;
            }
            set_active(s, fr->keep);
            s->frame_count--;
        }
        break;
    case SB_IR_OP_SWITCH:
        if (in->src_count >= 1 && (fr = push(s, FRAME_SWITCH, w->f, w->pc)))
            enter_switch(s, fn, w->pc, fr);
        break;
    case SB_IR_OP_CASE: case SB_IR_OP_DEFAULT:
        if ((fr = top(s, FRAME_SWITCH)))
            enter_label(s, fr, w->pc, match[w->pc]);
        break;
    case SB_IR_OP_ENDSWITCH:
        if ((fr = top(s, FRAME_SWITCH))) {
            set_active(s, fr->keep);
            s->frame_count--;
        }
        break;
    case SB_IR_OP_BREAK: case SB_IR_OP_BREAKC: case SB_IR_OP_CONTINUE: case SB_IR_OP_CONTINUEC:
    case SB_IR_OP_RET: case SB_IR_OP_RETC:
        jump_out(s, in, lanes);
        break;
    case SB_IR_OP_CALL: case SB_IR_OP_CALLC:
        call(s, in, w, lanes, in->target);
        return true;
    case SB_IR_OP_INTERFACE_CALL: {
        uint32_t target = interface_target(s, in);
        if (target != UINT32_MAX)
            call(s, in, w, lanes, target);
        return true;
    }
    default:
        return false;
    }
    w->pc++;
    return true;
}

/* Does the instruction write a UAV (stores, atomics, counters: the u# is a destination)? */
static bool writes_uav(const struct sb_ir_instruction *in)
{
    for (uint32_t k = 0; k < in->dst_count; k++)
        if (in->dst[k].file == SB_IR_FILE_UAV)
            return true;
    return false;
}

static void run_op(struct interp_state *s, const struct sb_ir_instruction *in)
{
    enum sb_result r = sb_interp_alu(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        r = sb_interp_memory(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        r = sb_interp_atomic64(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        r = sb_interp_texture(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        r = sb_interp_eval(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        r = sb_interp_wave(s, in);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && s->result == SB_SUCCESS)
        sb_interp_unsupported(s, "this operation");
}

/* A UAV write in a pixel batch: Vulkan's helper invocations (and, here, discarded lanes, which
 * OpKill ends on a device) have no effect on memory, so only the other active lanes run it;
 * `saved` (s->lanes bytes) keeps the active mask meanwhile. */
static void run_uav_write(struct interp_state *s, const struct sb_ir_instruction *in, uint8_t *saved)
{
    uint32_t count = 0, before = s->active_count;
    memcpy(saved, s->active, s->lanes);
    for (uint32_t l = 0; l < s->lanes; l++) {
        s->active[l] = (uint8_t)(s->active[l] && !s->helper[l] && !s->discarded[l]);
        count += s->active[l];
    }
    s->active_count = count;
    if (count)
        run_op(s, in);
    memcpy(s->active, saved, s->lanes);
    s->active_count = before;
}

/* Everything else: ALU, memory, texture; SYNC and debug ops do nothing in lockstep (SYNC only
 * moves the race detector's epochs). */
static void execute(struct interp_state *s, const struct sb_ir_instruction *in, uint8_t *lanes)
{
    s->scratch_used = 0;
    s->double_used = 0;
    s->bind_op = NULL;
    if (s->prec)
        sb_interp_precision_begin(s);
    switch (in->op) {
    case SB_IR_OP_SYNC:
        if (s->race)
            sb_interp_race_sync(s, in->sync_flags);
        return;
    case SB_IR_OP_NOP: case SB_IR_OP_ABORT: case SB_IR_OP_DEBUG_BREAK:
        return;
    case SB_IR_OP_DISCARD:
        sb_interp_discard(s, in);
        return;
    case SB_IR_OP_EMIT: case SB_IR_OP_CUT: case SB_IR_OP_EMIT_THEN_CUT:
        sb_interp_geometry_emit(s, in);
        return;
    default: break;
    }
    if (s->quad && s->helper && s->discarded && writes_uav(in))
        run_uav_write(s, in, lanes);
    else
        run_op(s, in);
}

enum sb_result sb_interp_flow_run(struct interp_state *s)
{
    const struct sb_ir_program *p = s->program;
    uint8_t *lanes = malloc(s->lanes);
    if (!lanes)
        return sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    struct walk w = { s->entry_function < p->function_count ? s->entry_function : 0, 0, false };
    while (!w.done && s->result == SB_SUCCESS) {
        const struct sb_ir_function *fn = &p->functions[w.f];
        if (w.pc >= fn->instruction_count) {
            function_end(s, &w);
        } else {
            const struct sb_ir_instruction *in = &fn->instructions[w.pc];
            s->inst = in;
            if (++s->executed > s->budget) {
                sb_interp_fail(s, SB_ERROR_RUN_BUDGET,
                               "instruction budget of %llu exhausted (at '%s'; a loop that does not end?)",
                               (unsigned long long)s->budget, sb_ir_op_name(in->op));
                break;
            }
            s->stats.lane_instructions += s->active_count;
            if (!flow_op(s, fn, in, &w, lanes)) {
                execute(s, in, lanes);
                w.pc++;
            }
        }
        /* No lane left here: go to the marker that can bring some back. */
        if (!s->active_count && !w.done && s->result == SB_SUCCESS) {
            if (!s->frame_count)
                w.done = true;
            else
                w.pc = s->frames[s->frame_count - 1].resume;
        }
    }
    free(lanes);
    return s->result;
}
