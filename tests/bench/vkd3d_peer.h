/* SPDX-License-Identifier: MIT */
/*
 * A vkd3d-shader library loaded at run time (dlopen), so that one benchmark run
 * can measure several releases side by side and nothing links against them:
 * the name "libvkd3d-shader.so.1" finds whatever the loader finds (Debian's 1.2,
 * or a newer build through LD_LIBRARY_PATH); a path loads that file, so two
 * builds with the same soname load as two libraries. The entry points used here
 * have kept their ABI since 1.2, and so have the structures the callers chain
 * (compile, interface and SPIR-V target info), so the header found at build
 * time (pkg-config libvkd3d-shader: Debian's 1.2) serves a 1.17 library too.
 * Used by bench_translate and bench_pipeline. Tests only.
 */
#ifndef SB_BENCH_VKD3D_PEER_H
#define SB_BENCH_VKD3D_PEER_H

#include <stdbool.h>
#include <stddef.h>

#include <vkd3d_shader.h>

struct vkd3d_peer {
    void *library;          /**< dlopen handle; vkd3d_peer_unload closes it */
    const char *(*get_version)(unsigned int *major, unsigned int *minor);
    int (*compile)(const struct vkd3d_shader_compile_info *info, struct vkd3d_shader_code *out,
                   char **messages);
    void (*free_messages)(char *messages);
    void (*free_shader_code)(struct vkd3d_shader_code *code);
    unsigned int major, minor;  /**< what get_version returned */
    char label[32];         /**< "vkd3d 1.17" */
    char version[128];      /**< get_version's string */
    char file[1024];        /**< the file the library was loaded from (dladdr), else the name asked for */
};

/**
 * Loads `name` (a soname the loader searches, or a path) and its four entry points.
 * False with `why` (a sentence) filled when it does not load or lacks one of them;
 * nothing is left open then.
 */
bool vkd3d_peer_load(const char *name, struct vkd3d_peer *peer, char *why, size_t why_size);
/** Closes the library; a zeroed or already unloaded peer is a no-op. */
void vkd3d_peer_unload(struct vkd3d_peer *peer);

#endif
