/* SPDX-License-Identifier: MIT */
/*
 * Bindings of a SPIR-V module written by another translator, recovered from
 * its decorations and names (ka_peer.c); used by test_vk_known_answer's
 * --peer-dir mode to cross-check the known-answer expectations.
 */
#ifndef SB_TEST_KA_PEER_H
#define SB_TEST_KA_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/translate.h"

/** Fills at most `max` bindings; returns how many were found. */
uint32_t ka_peer_bindings(const uint32_t *words, size_t count, struct sb_translated_binding *out,
                          uint32_t max);

#endif
