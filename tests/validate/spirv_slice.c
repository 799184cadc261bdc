/* SPDX-License-Identifier: MIT */
/*
 * Which values of a SPIR-V module a device's progress and memory safety hang on
 * (spirv_slice.h), so that test_validate_mutants.c mutates nothing that could stall or
 * crash the device it runs on (a mutant has no instruction budget there: a loop that no
 * longer ends runs until the runtime gives the device up).
 *
 * Roots: the conditions of the branches inside loops (a loop is the blocks from its
 * header's OpLabel up to its merge block's, by layout, which structured SPIR-V as our
 * back end writes it satisfies), of the branches before a function's last barrier or
 * call when the module has a barrier (whether every invocation reaches it), the indices
 * of access chains into Function, Private, Workgroup, Input and Output variables (no
 * robustness feature guards those: a changed index writes past them), and the operands
 * of integer divisions (a CPU device traps on a zero divisor, and on INT_MIN / -1).
 *
 * The slice follows operands backwards, component by component through vector
 * extracts, inserts, shuffles, constructs and component-wise operations (fxc's code
 * keeps unrelated values in the lanes of one register, so a whole-vector slice takes in
 * nearly everything); through memory, where a load depends on every write into its
 * variable (the written lanes only, for whole vectors stored into the variable itself);
 * through calls (parameters on every call's arguments, results on every return value);
 * and through control: a write, or an OpPhi, depends on the conditions of the
 * constructs around it, of the constructs before it holding a return, and, for a
 * function's writes, on those around its call sites. Every other operand word that
 * names a defined id counts as an operand: the slice over-approximates, which only
 * leaves more sites out.
 */
#include "spirv_slice.h"

#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* An external definition of the header's inline helper, so an unoptimised build links. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#define MAX_BOUND (1u << 22)

bool spirv_module_parse(const uint32_t *words, size_t count, struct spirv_module *m)
{
    memset(m, 0, sizeof(*m));
    if (count < 5 || words[0] != SpvMagicNumber || words[3] == 0 || words[3] > MAX_BOUND)
        return false;
    m->words = words;
    m->bound = words[3];
    m->insts = malloc((count - 5) * sizeof(*m->insts) + sizeof(*m->insts));
    m->def = malloc(m->bound * sizeof(*m->def));
    if (!m->insts || !m->def)
        return false;
    for (uint32_t id = 0; id < m->bound; id++)
        m->def[id] = SPIRV_NO_INSTRUCTION;
    uint32_t function = SPIRV_NO_INSTRUCTION;
    for (size_t i = 5; i < count;) {
        uint32_t length = words[i] >> 16, op = words[i] & 0xffffu;
        if (!length || length > count - i)
            return false;
        bool has_result = false, has_type = false;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        struct spirv_inst *n = &m->insts[m->count];
        n->word = i;
        n->op = (uint16_t)op;
        n->length = (uint16_t)length;
        n->first_operand = 1u + has_result + has_type;
        n->result = has_result && length > (uint32_t)has_type + 1 ? words[i + 1 + has_type] : 0;
        if (op == SpvOpFunction)
            function = m->count;
        n->function = function;
        if (op == SpvOpFunctionEnd)
            function = SPIRV_NO_INSTRUCTION;
        if (n->result) {
            if (n->result >= m->bound)
                return false;
            m->def[n->result] = m->count;
        }
        if (op == SpvOpExtInstImport && length >= 5 && !memcmp(&words[i + 2], "GLSL.std.450", 12))
            m->glsl_set = n->result;
        if (op == SpvOpControlBarrier)
            m->has_barrier = true;
        m->count++;
        i += length;
    }
    return true;
}

void spirv_module_free(struct spirv_module *m)
{
    free(m->insts);
    free(m->def);
}

const struct spirv_inst *spirv_module_def(const struct spirv_module *m, uint32_t id)
{
    return id && id < m->bound && m->def[id] != SPIRV_NO_INSTRUCTION ? &m->insts[m->def[id]] : NULL;
}

/* Component masks: bit k stands for component k of a vector value. Scalars, and values the
 * slice does not split (structs, arrays, pointers), use ALL. */
#define ALL 0xfu

/* The backward slice; `mask` and `tainted_inst` are its result. */
struct slice {
    const struct spirv_module *m;
    uint8_t *mask;            /* per id: the components the guarded values depend on */
    uint8_t *var_mask;        /* per variable: the components of its memory they depend on */
    uint32_t *root;           /* per id: the variable a pointer id derives from, 0 otherwise */
    uint32_t *writer_start;   /* per variable (bound + 1 entries): its range in `writers` */
    uint32_t *writers;        /* instructions that take a pointer into the variable */
    bool *tainted_inst;       /* writers into guarded memory: stores that may not be dropped */
    uint32_t *work;
    uint32_t work_count, work_capacity;
    struct construct *constructs;
    uint32_t construct_count;
    bool *controlled;         /* per instruction: its control dependences are in the slice */
};

/* A selection or loop construct, by layout: [start, end) are the instruction indices of its
 * header block's OpLabel and its merge block's. */
struct construct {
    uint32_t start, end;
    uint32_t condition;       /* the header's branch condition or switch selector; 0 when none */
    uint32_t function;        /* index of the OpFunction it is in */
    bool has_exit;            /* holds a return or kill */
};

/* Components of a vector-typed value, 0 for anything else. */
static uint32_t components(const struct spirv_module *m, uint32_t id)
{
    const struct spirv_inst *d = spirv_module_def(m, id);
    if (!d || d->first_operand != 3)
        return 0; /* no result type */
    const struct spirv_inst *t = spirv_module_def(m, m->words[d->word + 1]);
    return t && t->op == SpvOpTypeVector && t->length >= 4 && m->words[t->word + 3] <= 4 ? m->words[t->word + 3] : 0;
}

static void push(struct slice *s, uint32_t id, uint8_t mask)
{
    const struct spirv_module *m = s->m;
    if (!id || id >= m->bound || m->def[id] == SPIRV_NO_INSTRUCTION || !mask)
        return;
    if (!components(m, id))
        mask = ALL;
    uint8_t grown = s->mask[id] | mask;
    if (grown == s->mask[id])
        return;
    s->mask[id] = grown;
    if (s->work_count < s->work_capacity) /* a mask grows at most 4 times: room for all */
        s->work[s->work_count++] = id;
}

static void push_all(struct slice *s, const struct spirv_inst *n, uint32_t from)
{
    for (uint32_t k = from; k < n->length; k++)
        push(s, s->m->words[n->word + k], ALL);
}

/* The indices of the access chains leading to pointer `id` (not the variable: what a load
 * reads depends on where, and on what was stored there, which var_add follows). */
static void push_indices(struct slice *s, uint32_t id)
{
    for (int depth = 0; depth < 64; depth++) {
        const struct spirv_inst *d = spirv_module_def(s->m, id);
        if (!d || d->op == SpvOpVariable || d->length < 4)
            return;
        if (d->op != SpvOpCopyObject)
            push_all(s, d, 4);
        id = s->m->words[d->word + 3];
    }
}

/* Component-wise operations: component k of the result depends on component k of each
 * vector operand of the same width (and on every scalar operand) only. */
static bool componentwise(const struct spirv_module *m, const struct spirv_inst *n)
{
    uint32_t op = n->op;
    if (op == SpvOpExtInst) {
        uint32_t e = n->length >= 5 ? m->words[n->word + 4] : 0;
        return m->glsl_set && m->words[n->word + 3] == m->glsl_set &&
               ((e >= GLSLstd450Round && e <= GLSLstd450InverseSqrt) ||
                (e >= GLSLstd450FMin && e <= GLSLstd450Fma) || e == GLSLstd450Ldexp ||
                (e >= GLSLstd450FindILsb && e <= GLSLstd450FindUMsb) ||
                (e >= GLSLstd450NMin && e <= GLSLstd450NClamp));
    }
    return op == SpvOpCopyObject || op == SpvOpPhi || (op >= SpvOpConvertFToU && op <= SpvOpBitcast) ||
           (op >= SpvOpSNegate && op <= SpvOpVectorTimesScalar) || (op >= SpvOpIsNan && op <= SpvOpSignBitSet) ||
           (op >= SpvOpLogicalEqual && op <= SpvOpFUnordGreaterThanEqual) ||
           (op >= SpvOpShiftRightLogical && op <= SpvOpBitCount);
}

static bool build_constructs(struct slice *s)
{
    const struct spirv_module *m = s->m;
    uint32_t last_label = 0;
    s->constructs = calloc(m->count + 1u, sizeof(*s->constructs));
    if (!s->constructs)
        return false;
    for (uint32_t i = 0; i < m->count; i++) {
        const struct spirv_inst *n = &m->insts[i];
        if (n->op == SpvOpLabel)
            last_label = i;
        if ((n->op != SpvOpSelectionMerge && n->op != SpvOpLoopMerge) || n->length < 2)
            continue;
        const struct spirv_inst *merge = spirv_module_def(m, m->words[n->word + 1]);
        struct construct *c = &s->constructs[s->construct_count++];
        c->start = last_label;
        c->end = merge ? (uint32_t)(merge - m->insts) : m->count;
        c->function = n->function;
        const struct spirv_inst *branch = i + 1 < m->count ? &m->insts[i + 1] : NULL;
        if (branch && (branch->op == SpvOpBranchConditional || branch->op == SpvOpSwitch) && branch->length >= 2)
            c->condition = m->words[branch->word + 1];
        for (uint32_t k = c->start; k < c->end && k < m->count; k++) {
            uint16_t op = m->insts[k].op;
            c->has_exit |= op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
                           op == SpvOpTerminateInvocation;
        }
    }
    return true;
}

/* Instruction `i` (a write into guarded memory, or an OpPhi) joins the slice: whether and
 * how it runs depends on the constructs around it, the constructs before it that may
 * return, the choice a phi's merge makes, and, for code in a called function, the
 * constructs around its call sites. */
static void control(struct slice *s, uint32_t i)
{
    const struct spirv_module *m = s->m;
    if (s->controlled[i] || m->insts[i].function == SPIRV_NO_INSTRUCTION)
        return;
    s->controlled[i] = true;
    uint32_t function = m->insts[i].function, block = i;
    while (block > function && m->insts[block].op != SpvOpLabel)
        block--;
    bool phi = m->insts[i].op == SpvOpPhi;
    for (uint32_t k = 0; k < s->construct_count; k++) {
        const struct construct *c = &s->constructs[k];
        if (c->function == function &&
            ((c->start <= i && i < c->end) || (c->has_exit && c->start < i) || (phi && c->end == block)))
            push(s, c->condition, ALL);
    }
    if (s->controlled[function])
        return;
    s->controlled[function] = true; /* the OpFunction stands for "its call sites are done" */
    uint32_t id = m->insts[function].result;
    for (uint32_t k = 0; k < m->count; k++)
        if (m->insts[k].op == SpvOpFunctionCall && m->insts[k].length >= 4 && m->words[m->insts[k].word + 3] == id)
            control(s, k);
}

/* Memory: the guarded components of variable `var` grew by `mask`; its writers follow. */
static void var_add(struct slice *s, uint32_t var, uint8_t mask)
{
    const struct spirv_module *m = s->m;
    uint8_t grown = s->var_mask[var] | mask;
    if (grown == s->var_mask[var])
        return;
    s->var_mask[var] = grown;
    for (uint32_t k = s->writer_start[var]; k < s->writer_start[var + 1]; k++) {
        uint32_t i = s->writers[k];
        const struct spirv_inst *n = &m->insts[i];
        const uint32_t *w = &m->words[n->word];
        s->tainted_inst[i] = true;
        control(s, i);
        if (n->op == SpvOpStore && n->length >= 3) {
            /* A whole vector stored into the variable itself keeps its components apart. */
            push(s, w[2], w[1] == var && components(m, w[2]) ? grown : ALL);
            push_indices(s, w[1]);
        } else {
            push_all(s, n, 1); /* atomics, copies, calls: everything, the variable too */
        }
    }
}

/* One id whose mask grew: what it depends on. */
static void propagate(struct slice *s, uint32_t id)
{
    const struct spirv_module *m = s->m;
    const struct spirv_inst *d = spirv_module_def(m, id);
    const uint32_t *w = &m->words[d->word];
    uint8_t mask = s->mask[id];
    uint32_t width = components(m, id);
    switch (d->op) {
    case SpvOpVariable:
        var_add(s, id, ALL);
        return;
    case SpvOpPhi:
        control(s, m->def[id]);
        break; /* and its values, component-wise below */
    case SpvOpLoad:
        if (d->length >= 4 && w[3] < m->bound && s->root[w[3]]) {
            var_add(s, s->root[w[3]], w[3] == s->root[w[3]] && width ? mask : ALL);
            push_indices(s, w[3]);
        } else {
            push_all(s, d, 3);
        }
        return;
    case SpvOpCompositeExtract:
        if (d->length == 5 && components(m, w[3]) && w[4] < 4)
            push(s, w[3], (uint8_t)(1u << w[4]));
        else
            push_all(s, d, 3);
        return;
    case SpvOpCompositeInsert:
        if (d->length == 6 && width && w[5] < 4) {
            if (mask & (1u << w[5]))
                push(s, w[3], ALL);
            push(s, w[4], (uint8_t)(mask & ~(1u << w[5])));
        } else {
            push_all(s, d, 3);
        }
        return;
    case SpvOpVectorShuffle: {
        uint32_t first = components(m, w[3]);
        for (uint32_t j = 0; j + 5 < d->length; j++) {
            uint32_t c = w[5 + j];
            if (!first || !width || j >= 4)
                push_all(s, d, 3);
            else if ((mask & (1u << j)) && c != 0xffffffffu)
                push(s, c < first ? w[3] : w[4], c < first ? (uint8_t)(1u << c) : c - first < 4 ? (uint8_t)(1u << (c - first)) : ALL);
        }
        return;
    }
    case SpvOpCompositeConstruct:
        for (uint32_t k = 3; k < d->length; k++)
            push(s, w[k], width && d->length - 3u == width && !components(m, w[k]) ? ((mask >> (k - 3)) & 1u ? ALL : 0)
                                                                                  : ALL);
        return;
    case SpvOpFunctionParameter:
    case SpvOpFunctionCall:
        /* A parameter depends on every call's arguments, a call on every return value. */
        for (uint32_t i = 0; i < m->count; i++) {
            const struct spirv_inst *n = &m->insts[i];
            if (n->op == SpvOpFunctionCall)
                push_all(s, n, 3);
            if (d->op == SpvOpFunctionCall && n->op == SpvOpReturnValue)
                push_all(s, n, 1);
        }
        return;
    default:
        break;
    }
    if (!componentwise(m, d) || !width) {
        push_all(s, d, d->first_operand);
        return;
    }
    for (uint32_t k = d->op == SpvOpExtInst ? 5 : d->first_operand; k < d->length; k++)
        push(s, w[k], components(m, w[k]) == width ? mask : ALL);
}

/* Roots and writers of every variable, before the slice runs. */
static bool index_memory(struct slice *s)
{
    const struct spirv_module *m = s->m;
    for (uint32_t i = 0; i < m->count; i++) {
        const struct spirv_inst *n = &m->insts[i];
        const uint32_t *w = &m->words[n->word];
        if (n->op == SpvOpVariable && n->result)
            s->root[n->result] = n->result;
        bool chain = n->op == SpvOpAccessChain || n->op == SpvOpInBoundsAccessChain ||
                     n->op == SpvOpPtrAccessChain || n->op == SpvOpCopyObject || n->op == SpvOpImageTexelPointer;
        if (chain && n->length >= 4 && n->result && w[3] < m->bound)
            s->root[n->result] = s->root[w[3]]; /* bases are defined before use in a function */
        /* An image is written through the loaded object (OpImageWrite), not a pointer: the
         * object stands for its variable, so image writes are the variable's writers. */
        const struct spirv_inst *type = n->op == SpvOpLoad && n->length >= 4 ? spirv_module_def(m, w[1]) : NULL;
        if (type && type->op == SpvOpTypeImage && w[3] < m->bound)
            s->root[n->result] = s->root[w[3]];
    }
    /* Writers: counted, then placed (two passes over the same test). */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t total = 0;
        for (uint32_t i = 0; i < m->count; i++) {
            const struct spirv_inst *n = &m->insts[i];
            if (n->function == SPIRV_NO_INSTRUCTION || n->op == SpvOpLoad || n->op == SpvOpAccessChain ||
                n->op == SpvOpInBoundsAccessChain || n->op == SpvOpPtrAccessChain || n->op == SpvOpVariable ||
                n->op == SpvOpCopyObject)
                continue;
            uint32_t last = 0;
            for (uint32_t k = 1; k < n->length; k++) {
                uint32_t word = m->words[n->word + k];
                uint32_t var = word < m->bound && m->def[word] != SPIRV_NO_INSTRUCTION ? s->root[word] : 0;
                if (!var || var == last)
                    continue;
                last = var;
                if (pass == 0)
                    s->writer_start[var + 1]++;
                else
                    s->writers[s->writer_start[var]++] = i;
                total++;
            }
        }
        if (pass == 0) {
            for (uint32_t v = 0; v < m->bound; v++)
                s->writer_start[v + 1] += s->writer_start[v];
            if (!(s->writers = malloc((total ? total : 1) * sizeof(uint32_t))))
                return false;
        } else {
            for (uint32_t v = m->bound; v > 0; v--) /* placing advanced every start to its end */
                s->writer_start[v] = s->writer_start[v - 1];
            s->writer_start[0] = 0;
        }
    }
    return true;
}

/* Storage classes whose arrays no robustness feature guards. */
static bool unguarded_storage(const struct spirv_module *m, uint32_t var)
{
    const struct spirv_inst *d = spirv_module_def(m, var);
    if (!d || d->length < 4)
        return true;
    uint32_t sc = m->words[d->word + 3];
    return sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate || sc == SpvStorageClassWorkgroup ||
           sc == SpvStorageClassInput || sc == SpvStorageClassOutput;
}

/* Loop regions by layout: instruction i is in a loop when it lies between a loop
 * header's OpLabel and its merge block's. */
static bool *loop_regions(const struct spirv_module *m)
{
    bool *in_loop = calloc(m->count + 1, sizeof(bool));
    uint32_t last_label = 0;
    for (uint32_t i = 0; in_loop && i < m->count; i++) {
        const struct spirv_inst *n = &m->insts[i];
        if (n->op == SpvOpLabel)
            last_label = i;
        if (n->op != SpvOpLoopMerge || n->length < 3)
            continue;
        const struct spirv_inst *merge = spirv_module_def(m, m->words[n->word + 1]);
        uint32_t end = merge ? (uint32_t)(merge - m->insts) : m->count;
        for (uint32_t k = last_label; k < end && k < m->count; k++)
            in_loop[k] = true;
    }
    return in_loop;
}

/* The slice's roots (see the opening comment). A branch decides whether a barrier is
 * reached when it comes before the function's last barrier (or call, which may hold one). */
static bool seed_slice(struct slice *s)
{
    const struct spirv_module *m = s->m;
    bool *in_loop = loop_regions(m);
    if (!in_loop)
        return false;
    uint32_t last_sync = 0, function_start = 0;
    for (uint32_t i = 0; i < m->count; i++) {
        const struct spirv_inst *n = &m->insts[i];
        const uint32_t *w = &m->words[n->word];
        if (n->op == SpvOpFunction) {
            function_start = i;
            last_sync = i;
            for (uint32_t k = i; k < m->count && m->insts[k].op != SpvOpFunctionEnd; k++)
                if (m->insts[k].op == SpvOpControlBarrier || (m->has_barrier && m->insts[k].op == SpvOpFunctionCall))
                    last_sync = k;
        }
        switch (n->op) {
        case SpvOpBranchConditional:
        case SpvOpSwitch:
            if (n->length >= 2 && (in_loop[i] || (i > function_start && i < last_sync)))
                push(s, w[1], ALL);
            break;
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            if (n->length >= 4 && unguarded_storage(m, w[3] < m->bound ? s->root[w[3]] : 0))
                push_all(s, n, 4);
            break;
        case SpvOpUDiv: case SpvOpUMod:
            if (n->length >= 5)
                push(s, w[4], ALL); /* the divisor */
            break;
        case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod:
            push_all(s, n, 3); /* the divisor, and the dividend for INT_MIN / -1 */
            break;
        default:
            break;
        }
    }
    free(in_loop);
    while (s->work_count)
        propagate(s, s->work[--s->work_count]);
    return true;
}


bool spirv_guard_find(const struct spirv_module *m, struct spirv_guard *out)
{
    memset(out, 0, sizeof(*out));
    struct slice s = { .m = m };
    s.mask = calloc(m->bound, 1);
    s.var_mask = calloc(m->bound, 1);
    s.root = calloc(m->bound, sizeof(uint32_t));
    s.writer_start = calloc(m->bound + 1u, sizeof(uint32_t));
    s.tainted_inst = calloc(m->count + 1u, sizeof(bool));
    s.controlled = calloc(m->count + 1u, sizeof(bool));
    s.work_capacity = m->bound * 5u;
    s.work = malloc(s.work_capacity * sizeof(uint32_t));
    bool ok = s.mask && s.var_mask && s.root && s.writer_start && s.tainted_inst && s.controlled && s.work &&
              index_memory(&s) && build_constructs(&s) && seed_slice(&s);
    if (ok) {
        out->id = s.mask;
        out->inst = s.tainted_inst;
        s.mask = NULL;
        s.tainted_inst = NULL;
    }
    free(s.mask);
    free(s.var_mask);
    free(s.root);
    free(s.writer_start);
    free(s.writers);
    free(s.tainted_inst);
    free(s.controlled);
    free(s.work);
    free(s.constructs);
    return ok;
}

void spirv_guard_free(struct spirv_guard *guard)
{
    free(guard->id);
    free(guard->inst);
    memset(guard, 0, sizeof(*guard));
}
