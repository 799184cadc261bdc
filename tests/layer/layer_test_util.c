/* SPDX-License-Identifier: MIT */
/* Helpers of the layer tests (layer_test_util.h): files, the captured log, directories. */
#define _POSIX_C_SOURCE 200809L
#include "layer_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lt_failures, lt_checks;

static char log_path[4096];
static int saved_stderr = -1;

uint8_t *lt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0)
        data = calloc(1, (size_t)n + 4);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = data ? (size_t)n : 0;
    return data;
}

bool lt_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

bool lt_log_start(const char *path)
{
    snprintf(log_path, sizeof(log_path), "%s", path);
    fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return false;
    saved_stderr = dup(2);
    dup2(fd, 2);
    close(fd);
    return true;
}

void lt_log_stop(void)
{
    if (saved_stderr < 0)
        return;
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
}

int lt_log_count(const char *needle)
{
    fflush(stderr);
    size_t size = 0;
    char *text = (char *)lt_read_file(log_path, &size);
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    free(text);
    return n;
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t a = strlen(name), b = strlen(suffix);
    return a >= b && !strcmp(name + a - b, suffix);
}

int lt_dir_count(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.' && has_suffix(e->d_name, suffix);
    closedir(d);
    return n;
}

bool lt_dir_first(const char *dir, const char *suffix, char *out, size_t size)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.' && has_suffix(e->d_name, suffix)) {
            snprintf(out, size, "%s/%s", dir, e->d_name);
            found = true;
        }
    if (d)
        closedir(d);
    return found;
}

void lt_dir_reset(const char *dir)
{
    mkdir(dir, 0755);
    DIR *d = opendir(dir);
    char path[4096];
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
}
