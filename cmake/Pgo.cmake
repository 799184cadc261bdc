# SPDX-License-Identifier: MIT
# Profile-guided optimisation (issue #17's speed goal), in two configurations of
# one build directory:
#
#   cmake -S . -B build-pgo -DSB_PGO=generate && make -C build-pgo shaderbridge_cli bench_translate
#   build-pgo/bin/shaderbridge translate -o /tmp/out SHADER...   # the training run
#   cmake -B build-pgo -DSB_PGO=use && make -C build-pgo ...
#
# generate: every C object counts its branches and calls, and a program that exits
# normally writes the counts (.gcda) beside the objects. use: the objects are
# compiled again, the compiler reading those counts: it inlines and lays out the
# paths the training took, moves the rest out of the way, and optimises the code
# the training never ran as it would without a profile (-fprofile-partial-training).
# The training must exit normally (bench_translate's timed children _exit: they
# write nothing); the CLI's translate over a set of shaders does. Figures:
# tests/bench/README.md. GCC only; off by default; not with the sanitizers.
set(SB_PGO "" CACHE STRING "Profile-guided optimisation: empty (off), generate or use")
set_property(CACHE SB_PGO PROPERTY STRINGS "" generate use)
if(SB_PGO AND NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "SB_PGO needs GCC")
endif()
if(SB_PGO AND SB_SANITIZE)
  message(FATAL_ERROR "SB_PGO and SB_SANITIZE do not go together")
endif()
if(SB_PGO STREQUAL "generate")
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fprofile-generate> $<$<COMPILE_LANGUAGE:C>:-fprofile-update=single>)
  add_link_options(-fprofile-generate)
elseif(SB_PGO STREQUAL "use")
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fprofile-use> $<$<COMPILE_LANGUAGE:C>:-fprofile-partial-training>
                      $<$<COMPILE_LANGUAGE:C>:-Wno-missing-profile>
                      # A function edited since the training keeps its warning but builds
                      # (GCC ignores its stale counts) under SB_WERROR.
                      $<$<COMPILE_LANGUAGE:C>:-Wno-error=coverage-mismatch>
                      # The profile's inlining makes GCC lose track of arrays filled for the
                      # first n lanes and read for n lanes (load_lanes' callers): false
                      # positives; the builds without a profile keep the warning.
                      $<$<COMPILE_LANGUAGE:C>:-Wno-maybe-uninitialized>)
elseif(SB_PGO)
  message(FATAL_ERROR "SB_PGO is empty, generate or use, not '${SB_PGO}'")
endif()
