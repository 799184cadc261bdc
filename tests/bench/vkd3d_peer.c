/* SPDX-License-Identifier: MIT */
/*
 * vkd3d_peer_load (vkd3d_peer.h): dlopen with RTLD_LOCAL, so two releases that
 * export the same symbol names never bind to each other, then dlsym of each entry
 * point. dladdr of one of them names the file the loader actually picked, which is
 * what a report must say when the name was a soname.
 */
#define _GNU_SOURCE /* dladdr */

#include "vkd3d_peer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* dlsym's object pointer to a function pointer goes through memcpy (ISO C forbids the cast). */
static bool symbol(void *library, const char *name, void *function_pointer, size_t size)
{
    void *found = dlsym(library, name);
    if (!found)
        return false;
    memcpy(function_pointer, &found, size);
    return true;
}

bool vkd3d_peer_load(const char *name, struct vkd3d_peer *peer, char *why, size_t why_size)
{
    memset(peer, 0, sizeof(*peer));
    if (!(peer->library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(why, why_size, "cannot load %s: %s", name, dlerror());
        return false;
    }
    if (!symbol(peer->library, "vkd3d_shader_get_version", &peer->get_version, sizeof(peer->get_version)) ||
        !symbol(peer->library, "vkd3d_shader_compile", &peer->compile, sizeof(peer->compile)) ||
        !symbol(peer->library, "vkd3d_shader_free_messages", &peer->free_messages, sizeof(peer->free_messages)) ||
        !symbol(peer->library, "vkd3d_shader_free_shader_code", &peer->free_shader_code,
                sizeof(peer->free_shader_code))) {
        snprintf(why, why_size, "%s is not a vkd3d-shader library (an entry point is missing)", name);
        vkd3d_peer_unload(peer);
        return false;
    }
    snprintf(peer->version, sizeof(peer->version), "%s", peer->get_version(&peer->major, &peer->minor));
    snprintf(peer->label, sizeof(peer->label), "vkd3d %u.%u", peer->major, peer->minor);
    Dl_info where = { 0 };
    void *compile_symbol = dlsym(peer->library, "vkd3d_shader_compile");
    snprintf(peer->file, sizeof(peer->file), "%s",
             compile_symbol && dladdr(compile_symbol, &where) && where.dli_fname ? where.dli_fname : name);
    return true;
}

void vkd3d_peer_unload(struct vkd3d_peer *peer)
{
    if (peer->library)
        dlclose(peer->library);
    memset(peer, 0, sizeof(*peer));
}
