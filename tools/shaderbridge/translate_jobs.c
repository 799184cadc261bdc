/* SPDX-License-Identifier: MIT */
/*
 * Running `shaderbridge translate` over many inputs in one process
 * (translate_jobs.h): N worker threads take the next input from a shared
 * cursor, translate it and write its output; the thread that finishes an
 * input reports every finished input in order from the first unreported one,
 * so errors come out in command-line order whatever the thread count, and
 * the output files are the same bytes for --jobs 1 and --jobs N.
 *
 * Outputs are written to a temporary name beside the target and renamed, so
 * an interrupted run leaves no half-written .spv behind a complete-looking
 * name, and a failed input writes nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include "translate_jobs.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

struct run_state {
    struct translate_run *run;
    pthread_mutex_t lock;
    size_t next_job;      /* first input no thread has taken */
    size_t next_report;   /* first input not yet reported */
    size_t finished, failed;
    bool progress;        /* a bar on stderr (a terminal) */
    bool bar_drawn;
};

/* Reads a whole input; stdin for "-". */
static bool load_input(const char *name, uint8_t **bytes, size_t *size, struct sb_error *error)
{
    bool is_stdin = !strcmp(name, "-");
    FILE *in = is_stdin ? stdin : fopen(name, "rb");
    if (!in) {
        sb_error_set(error, SB_ERROR_IO, 0, SB_ERROR_NO_INSTR, "cannot open: %s", strerror(errno));
        return false;
    }
    uint8_t *data = NULL;
    size_t used = 0, capacity = 0;
    bool ok = true;
    for (;;) {
        if (used == capacity) {
            size_t grown = capacity ? capacity * 2 : 65536;
            uint8_t *bigger = realloc(data, grown);
            if (!bigger) {
                sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR,
                             "out of memory reading the file");
                ok = false;
                break;
            }
            data = bigger;
            capacity = grown;
        }
        size_t got = fread(data + used, 1, capacity - used, in);
        used += got;
        if (got == 0)
            break;
    }
    if (ok && ferror(in)) {
        sb_error_set(error, SB_ERROR_IO, 0, SB_ERROR_NO_INSTR, "read failed: %s", strerror(errno));
        ok = false;
    }
    if (!is_stdin)
        fclose(in);
    if (!ok) {
        free(data);
        return false;
    }
    *bytes = data;
    *size = used;
    return true;
}

/* Writes bytes to `path` through a temporary name, or to stdout when path is NULL. */
static bool write_output(const char *path, const void *data, size_t size, struct sb_error *error)
{
    if (!path) {
        if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
            sb_error_set(error, SB_ERROR_IO, 0, SB_ERROR_NO_INSTR,
                         "cannot write to standard output: %s", strerror(errno));
            return false;
        }
        return true;
    }
    size_t length = strlen(path) + 32;
    char *temporary = malloc(length);
    if (!temporary) {
        sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory naming %s",
                     path);
        return false;
    }
    snprintf(temporary, length, "%s.tmp%ld", path, (long)getpid());
    FILE *out = fopen(temporary, "wb");
    bool ok = out && fwrite(data, 1, size, out) == size;
    if (out && fclose(out) != 0)
        ok = false;
    if (ok && rename(temporary, path) != 0)
        ok = false;
    if (!ok) {
        sb_error_set(error, SB_ERROR_IO, 0, SB_ERROR_NO_INSTR, "cannot write %s: %s", path,
                     strerror(errno));
        remove(temporary);
    }
    free(temporary);
    return ok;
}

/* Translates one input and writes its output; false with item->error set on failure. */
static bool translate_item(const struct translate_run *run, struct translate_item *item)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (!load_input(item->input, &bytes, &size, &item->error))
        return false;
    struct sb_translation *translation = NULL;
    enum sb_result result = sb_translate(bytes, size, &run->options, &translation, &item->error);
    free(bytes);
    if (result != SB_SUCCESS) {
        item->error.code = result;
        sb_translation_destroy(translation);
        return false;
    }
    bool ok;
    if (translation->text) { /* a text target (sb_translate_options::target) */
        ok = write_output(item->output, translation->text, translation->text_size, &item->error);
    } else if (run->text) {
        char *text = sb_spirv_disassemble(translation->words, translation->word_count,
                                          run->options.target_env);
        if (text) {
            ok = write_output(item->output, text, strlen(text), &item->error);
        } else {
            sb_error_set(&item->error, SB_ERROR_SPIRV_INVALID, 0, SB_ERROR_NO_INSTR,
                         "the translated module does not disassemble");
            ok = false;
        }
        free(text);
    } else {
        ok = write_output(item->output, translation->words,
                          translation->word_count * sizeof(uint32_t), &item->error);
    }
    sb_translation_destroy(translation);
    return ok;
}

static void clear_bar(struct run_state *state)
{
    if (state->bar_drawn) {
        fputs("\r\033[K", stderr);
        state->bar_drawn = false;
    }
}

static void draw_bar(struct run_state *state)
{
    enum { WIDTH = 40 };
    size_t total = state->run->count;
    size_t filled = total ? state->finished * WIDTH / total : WIDTH;
    char bar[WIDTH + 1];
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = 0;
    fprintf(stderr, "\r[%s] %zu/%zu %3zu%%", bar, state->finished, total,
            total ? state->finished * 100 / total : 100);
    if (state->failed)
        fprintf(stderr, "  %zu failed", state->failed);
    fflush(stderr);
    state->bar_drawn = true;
}

/* Called with the lock held after an input finished: report in order, then redraw. */
static void report_finished(struct run_state *state)
{
    struct translate_run *run = state->run;
    while (state->next_report < run->count && run->items[state->next_report].done) {
        const struct translate_item *item = &run->items[state->next_report++];
        if (item->failed) {
            clear_bar(state);
            cli_report_error(item->input, &item->error);
        }
    }
    if (state->progress)
        draw_bar(state);
}

static void *worker(void *arg)
{
    struct run_state *state = arg;
    for (;;) {
        pthread_mutex_lock(&state->lock);
        size_t index = state->next_job++;
        pthread_mutex_unlock(&state->lock);
        if (index >= state->run->count)
            return NULL;
        struct translate_item *item = &state->run->items[index];
        bool ok = translate_item(state->run, item);
        pthread_mutex_lock(&state->lock);
        item->done = true;
        item->failed = !ok;
        state->finished++;
        state->failed += !ok;
        report_finished(state);
        pthread_mutex_unlock(&state->lock);
    }
}

size_t cli_translate_run(struct translate_run *run)
{
    struct run_state state = { .run = run };
    pthread_mutex_init(&state.lock, NULL);
    state.progress = run->count > 1 && isatty(STDERR_FILENO);
    unsigned jobs = run->jobs ? run->jobs : 1;
    if (jobs > run->count)
        jobs = (unsigned)run->count;
    /* The calling thread is one of the `jobs` workers. */
    pthread_t *threads = jobs > 1 ? calloc(jobs - 1, sizeof(*threads)) : NULL;
    unsigned started = 0;
    if (threads)
        for (; started < jobs - 1; started++)
            if (pthread_create(&threads[started], NULL, worker, &state) != 0)
                break;
    /* A thread that failed to start only costs speed: the calling thread takes its share. */
    worker(&state);
    for (unsigned i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pthread_mutex_lock(&state.lock);
    clear_bar(&state);
    pthread_mutex_unlock(&state.lock);
    pthread_mutex_destroy(&state.lock);
    return state.failed;
}
