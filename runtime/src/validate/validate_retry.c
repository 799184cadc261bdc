/* SPDX-License-Identifier: MIT */
/*
 * Inputs real shaders can run with (validate.h, sb_validate; runtime/README.md
 * "Validation"). Seeded data knows nothing of what a program does with it: a
 * bindless shader indexes a descriptor range with it, a loop counts to it. When
 * the interpreter (which runs before the device in compute and geometry
 * validation) stops on such data, the run is repeated with inputs changed just
 * enough, and the report says what changed:
 *
 *   a range index out of range (SB_ERROR_RUN_BINDING at an instruction that
 *   indexes an SM5.1 range): the words the index is computed from
 *   (inputs_index.c) are reseeded in [0, range); if that was done already,
 *   unbounded ranges get eight times the descriptors (the program is translated
 *   again for the new count, since the module declares fixed arrays); last, the
 *   words are set to 0;
 *   the instruction budget: every seeded number made small and positive
 *   (SB_RT_INPUTS_SMALL), which ends loops that count to, divide by or double
 *   past a seeded value.
 *
 * Asking the interpreter first instead of analysing every program up front keeps
 * the inputs of the shaders that run as they are: only a program that stops gets
 * other inputs, and only the words that stopped it. One exception, fixed up front
 * by the geometry, hull and domain harnesses (sb_validate_fit_input_arrays): an
 * index into a stage's input arrays (v[n][r], vicp, vocp) computed from seeded
 * words does not stop the interpreter (it reads 0 past the array, the device some
 * element: D3D leaves both undefined), so its words are put inside the array
 * before every run but the small-values one.
 *
 * sb_validate (validate.c) holds the loop: prepare (a translation for the new
 * descriptor count), run, refit; this file decides and describes, and calls
 * nothing above it.
 */
#include "validate_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "program/program_private.h"
#include "translator/ir.h"

/* Runs after the first, at most: each retry changes something, and there are few things. */
#define MAX_RETRIES 8u
/* Resources the inputs may hold in all (inputs.c refuses more). */
#define MAX_RESOURCES 4096u
/* Growth of unbounded ranges per retry: 8, 64, 512, 4096 descriptors. */
#define GROWTH 8u

/* The descriptor count the program's translation gives unbounded ranges: 0 when it declares
 * none, UINT32_MAX for runtime arrays (any count binds). */
static uint32_t translated_unbounded(const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    const struct sb_translation *t = program->translation;
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *d = &ir->resources[i];
        if (d->count != UINT32_MAX)
            continue;
        for (uint32_t b = 0; t && b < t->binding_count; b++)
            if ((uint32_t)t->bindings[b].resource_class == d->resource_class && t->bindings[b].space == d->space &&
                t->bindings[b].lower_bound == d->lower_bound)
                return t->bindings[b].count;
        return SB_RT_UNBOUNDED_DESCRIPTORS;
    }
    return 0;
}

/* The most descriptors each unbounded range can get: all of them together and the bounded
 * registers stay within MAX_RESOURCES. 0 when the program cannot be translated again. */
static uint32_t most_unbounded(const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    uint64_t bounded = 0, unbounded = 0;
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        uint32_t count = ir->resources[i].count;
        if (count == UINT32_MAX)
            unbounded++;
        else
            bounded += count ? count : 1;
    }
    if (!unbounded || bounded >= MAX_RESOURCES || !program->internal)
        return 0;
    return (uint32_t)((MAX_RESOURCES - bounded) / unbounded);
}

static struct sb_rt_index_mark *find_mark(struct sb_validate_fit *fit, const struct sb_rt_index_word *w)
{
    for (uint32_t m = 0; m < fit->mark_count; m++)
        if (fit->marks[m].at.decl == w->decl && fit->marks[m].at.word == w->word)
            return &fit->marks[m];
    return NULL;
}

/* After a range index outside its range: the next change, or false when none is left. */
static bool refit_index(struct sb_validate_fit *fit, const struct sb_rt_program *program, uint32_t most,
                        const struct sb_error *error)
{
    struct sb_rt_index_sources src;
    if (error->offset > UINT32_MAX || !sb_rt_index_sources(program->ir, (uint32_t)error->offset, &src))
        return false;
    uint32_t limit = src.smallest_range;
    if (src.unbounded && (!limit || fit->unbounded < limit))
        limit = fit->unbounded;
    bool changed = false;
    for (uint32_t k = 0; k < src.word_count && fit->mark_count < SB_VALIDATE_FIT_MARKS; k++)
        if (!find_mark(fit, &src.words[k])) {
            fit->marks[fit->mark_count++] =
                (struct sb_rt_index_mark){ .at = src.words[k], .limit = limit ? limit : 1, .integer = false };
            changed = true;
        }
    if (changed) {
        fit->changes |= SB_VALIDATE_INPUTS_INDEX_DATA;
        return true;
    }
    if (src.unbounded && fit->unbounded < most) {
        uint32_t n = fit->unbounded * GROWTH > src.literal_end ? fit->unbounded * GROWTH : src.literal_end;
        fit->unbounded = n < most ? n : most;
        fit->changes |= SB_VALIDATE_INPUTS_DESCRIPTORS;
        return true;
    }
    for (uint32_t k = 0; k < src.word_count; k++) {
        struct sb_rt_index_mark *m = find_mark(fit, &src.words[k]);
        if (m && m->limit > 1) {
            m->limit = 1;
            changed = true;
        }
    }
    if (changed)
        fit->changes |= SB_VALIDATE_INPUTS_INDEX_ZERO;
    return changed;
}

/* "cb0[2].y", "t3 (space 1)": a marked word as the interpreter's messages name registers. */
static int name_mark(char *out, size_t size, const struct sb_ir_program *ir, const struct sb_rt_index_mark *m)
{
    static const char prefixes[4][3] = { "cb", "t", "s", "u" };
    const struct sb_ir_resource *d = &ir->resources[m->at.decl];
    char space[24] = "";
    if (d->space)
        snprintf(space, sizeof(space), " (space %u)", d->space);
    if (m->at.word == UINT32_MAX)
        return snprintf(out, size, "%s%u%s%s", prefixes[d->resource_class & 3], d->lower_bound,
                        d->count != 1 ? "[]" : "", space);
    return snprintf(out, size, "%s%u[%u].%c%s", prefixes[d->resource_class & 3], d->lower_bound, m->at.word / 4,
                    "xyzw"[m->at.word % 4], space);
}

/* Appends printf output to the note, keeping what fits. */
static void note(char *out, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void note(char *out, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + *used, size - *used, fmt, ap);
    va_end(ap);
    *used = n < 0 ? size : *used + (size_t)n;
}

static void describe(struct sb_validate_report *report, const struct sb_rt_program *program,
                     const struct sb_validate_fit *fit, uint32_t retries, bool unbounded)
{
    report->input_retries = retries;
    report->input_changes = fit->changes;
    report->unbounded_descriptors = unbounded ? fit->unbounded : 0;
    char *out = report->input_note;
    size_t size = sizeof(report->input_note), used = 0;
    if (!retries)
        return;
    note(out, size, &used, "%u %s:", retries, retries == 1 ? "retry" : "retries");
    if (fit->changes & SB_VALIDATE_INPUTS_INDEX_DATA) {
        bool zeroed = fit->changes & SB_VALIDATE_INPUTS_INDEX_ZERO;
        note(out, size, &used, " range-index data %s", zeroed ? "in range, then 0:" : "in range:");
        for (uint32_t m = 0; m < fit->mark_count && m < 3; m++) {
            char name[64];
            name_mark(name, sizeof(name), program->ir, &fit->marks[m]);
            note(out, size, &used, "%s %s [0, %u)", m ? "," : "", name, fit->marks[m].limit);
        }
        if (fit->mark_count > 3)
            note(out, size, &used, " +%u more", fit->mark_count - 3);
        note(out, size, &used, ";");
    }
    if (fit->changes & SB_VALIDATE_INPUTS_DESCRIPTORS)
        note(out, size, &used, " %u descriptors per unbounded range;", fit->unbounded);
    if (fit->changes & SB_VALIDATE_INPUTS_SMALL)
        note(out, size, &used, " seeded numbers small and positive;");
    note(out, size, &used, " first stop: %s", fit->first_stop);
}

void sb_validate_retry_init(struct sb_validate_retry *retry, const struct sb_rt_program *program,
                            const struct sb_validate_options *options)
{
    memset(retry, 0, sizeof(*retry));
    retry->program = program;
    retry->run = *program;
    retry->options = *options;
    retry->fit.unbounded = options->inputs.unbounded_descriptors ? options->inputs.unbounded_descriptors
                                                                 : SB_RT_UNBOUNDED_DESCRIPTORS;
    retry->fit.flags = options->inputs.flags;
    retry->translated = translated_unbounded(program);
    /* A caller's module (sb_validate_options::gpu_spirv) is what the GPU runs: translating
     * again for more descriptors would replace it, so its ranges keep their size. */
    retry->most_unbounded = options->gpu_spirv ? 0 : most_unbounded(program);
}

enum sb_result sb_validate_retry_prepare(struct sb_validate_retry *retry, struct sb_error *error)
{
    retry->options.inputs.unbounded_descriptors = retry->fit.unbounded;
    retry->options.inputs.flags = retry->fit.flags;
    /* Runtime arrays (UINT32_MAX) bind however many descriptors the inputs give. */
    if (!retry->translated || retry->translated == UINT32_MAX || retry->translated == retry->fit.unbounded)
        return SB_SUCCESS;
    sb_translation_destroy(retry->translation);
    retry->translation = NULL;
    enum sb_result r = sb_rt_program_translate_unbounded(retry->program, retry->fit.unbounded, &retry->translation,
                                                         error);
    if (r != SB_SUCCESS)
        return r;
    retry->run.translation = retry->translation;
    retry->translated = retry->fit.unbounded;
    return SB_SUCCESS;
}

bool sb_validate_retry_refit(struct sb_validate_retry *retry, enum sb_result r, const struct sb_error *error)
{
    struct sb_validate_fit *fit = &retry->fit;
    /* Only the interpreter's stops say what to change: a run without it is not retried. */
    if (!error || retry->retries == MAX_RETRIES || !(retry->options.sides & SB_VALIDATE_SIDE_CPU))
        return false;
    if (!fit->first_stop[0])
        snprintf(fit->first_stop, sizeof(fit->first_stop), "%s", error->message);
    bool changed = false;
    if (r == SB_ERROR_RUN_BUDGET && !(fit->flags & SB_RT_INPUTS_SMALL)) {
        fit->flags |= SB_RT_INPUTS_SMALL;
        fit->changes |= SB_VALIDATE_INPUTS_SMALL;
        changed = true;
    } else if (r == SB_ERROR_RUN_BINDING) {
        changed = refit_index(fit, retry->program, retry->most_unbounded, error);
    }
    retry->retries += changed;
    return changed;
}

void sb_validate_retry_finish(struct sb_validate_retry *retry, struct sb_validate_report *report)
{
    if (report)
        describe(report, retry->program, &retry->fit, retry->retries, translated_unbounded(retry->program) != 0);
    sb_translation_destroy(retry->translation);
    retry->translation = NULL;
}

enum sb_result sb_validate_fit_inputs(const struct sb_rt_program *program, const struct sb_rt_input_options *options,
                                      const struct sb_validate_fit *fit, struct sb_rt_inputs **out,
                                      struct sb_error *error)
{
    enum sb_result r = sb_rt_inputs_create(program, options, out, error);
    if (r == SB_SUCCESS && fit && fit->mark_count)
        sb_rt_inputs_fit_indices(program->ir, *out, fit->marks, fit->mark_count,
                                 options->unbounded_descriptors ? options->unbounded_descriptors
                                                                : SB_RT_UNBOUNDED_DESCRIPTORS,
                                 options->seed);
    return r;
}

/* Whether the caller provided the resource of declaration `decl` (its bytes are theirs). */
static bool provided(const struct sb_ir_program *ir, const struct sb_validate_options *o, uint32_t decl)
{
    const struct sb_ir_resource *d = &ir->resources[decl];
    for (uint32_t i = 0; i < o->provided_count; i++) {
        const struct sb_rt_resource *r = &o->provided[i];
        if (r->resource_class == d->resource_class && r->space == d->space && r->register_index >= d->lower_bound &&
            (d->count == UINT32_MAX || r->register_index - d->lower_bound < (d->count ? d->count : 1)))
            return true;
    }
    return false;
}

uint32_t sb_validate_fit_input_arrays(const struct sb_ir_program *ir, const struct sb_validate_options *o,
                                      struct sb_validate_report *report)
{
    /* Indices in range may make a loop bound they also feed run away (SubD11's HS loops up
     * to a word minus 1, which 0 turns into 2^32 - 1): the retry with small values after a
     * budget stop runs without the fit, as before it existed. */
    if (o->inputs.flags & SB_RT_INPUTS_SMALL)
        return 0;
    struct sb_rt_index_mark marks[SB_VALIDATE_FIT_MARKS];
    uint32_t found = sb_rt_input_index_marks(ir, marks, SB_VALIDATE_FIT_MARKS), n = 0;
    for (uint32_t m = 0; m < found; m++)
        if (marks[m].at.decl < ir->resource_count && !provided(ir, o, marks[m].at.decl))
            marks[n++] = marks[m];
    if (n) {
        sb_rt_inputs_fit_indices(ir, report->gpu, marks, n, UINT32_MAX, o->inputs.seed);
        sb_rt_inputs_fit_indices(ir, report->cpu, marks, n, UINT32_MAX, o->inputs.seed);
    }
    return n;
}
