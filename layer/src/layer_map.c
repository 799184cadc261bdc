/* SPDX-License-Identifier: MIT */
/*
 * The dispatch maps: each instance's and device's record (the next layer's
 * entry points, the configuration) under the dispatch key of its handle (the
 * loader's table pointer it starts with). Read on every intercepted call from
 * any thread and written only at create/destroy (layer_dispatch.c): a
 * read-write lock guards each map. This file calls nothing else of the layer,
 * so every file that looks a handle up (chaining, modules, pipelines, shader
 * objects) sits above it.
 */
#define _POSIX_C_SOURCE 200809L
#include "layer_private.h"

#include <pthread.h>
#include <stdlib.h>

/* Few instances and devices live at once: linear arrays beat a hash table here. */
struct map {
    pthread_rwlock_t lock;
    void **keys;
    void **values;
    size_t count, capacity;
};

static struct map instances = { PTHREAD_RWLOCK_INITIALIZER, NULL, NULL, 0, 0 };
static struct map devices = { PTHREAD_RWLOCK_INITIALIZER, NULL, NULL, 0, 0 };

static void *map_find(struct map *m, void *key)
{
    void *found = NULL;
    pthread_rwlock_rdlock(&m->lock);
    for (size_t i = 0; i < m->count && !found; i++)
        if (m->keys[i] == key)
            found = m->values[i];
    pthread_rwlock_unlock(&m->lock);
    return found;
}

static bool map_insert(struct map *m, void *key, void *value)
{
    bool ok = true;
    pthread_rwlock_wrlock(&m->lock);
    if (m->count == m->capacity) {
        size_t cap = m->capacity ? 2 * m->capacity : 4;
        void **k = realloc(m->keys, cap * sizeof(*k));
        if (k)
            m->keys = k;
        void **v = k ? realloc(m->values, cap * sizeof(*v)) : NULL;
        if (v)
            m->values = v;
        if (k && v)
            m->capacity = cap;
        else
            ok = false;
    }
    if (ok) {
        m->keys[m->count] = key;
        m->values[m->count++] = value;
    }
    pthread_rwlock_unlock(&m->lock);
    return ok;
}

static void *map_remove(struct map *m, void *key)
{
    void *value = NULL;
    pthread_rwlock_wrlock(&m->lock);
    for (size_t i = 0; i < m->count; i++)
        if (m->keys[i] == key) {
            value = m->values[i];
            m->keys[i] = m->keys[m->count - 1];
            m->values[i] = m->values[m->count - 1];
            m->count--;
            break;
        }
    if (!m->count) { /* the last object gone: nothing left for LSan to call a leak */
        free(m->keys);
        free(m->values);
        m->keys = m->values = NULL;
        m->capacity = 0;
    }
    pthread_rwlock_unlock(&m->lock);
    return value;
}

struct sb_layer_instance *sb_layer_instance_find(const void *dispatchable)
{
    return map_find(&instances, sb_layer_key(dispatchable));
}

bool sb_layer_instance_add(const void *dispatchable, struct sb_layer_instance *inst)
{
    return map_insert(&instances, sb_layer_key(dispatchable), inst);
}

struct sb_layer_instance *sb_layer_instance_remove(const void *dispatchable)
{
    return map_remove(&instances, sb_layer_key(dispatchable));
}

struct sb_layer_device *sb_layer_device_find(const void *dispatchable)
{
    return map_find(&devices, sb_layer_key(dispatchable));
}

bool sb_layer_device_add(const void *dispatchable, struct sb_layer_device *dev)
{
    return map_insert(&devices, sb_layer_key(dispatchable), dev);
}

struct sb_layer_device *sb_layer_device_remove(const void *dispatchable)
{
    return map_remove(&devices, sb_layer_key(dispatchable));
}
