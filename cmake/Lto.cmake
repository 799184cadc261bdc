# SPDX-License-Identifier: MIT
# Link-time optimisation of the translation path (issue #4's speed goal).
#
# The reflect and translator objects are compiled with both LTO bytecode and
# machine code (-ffat-lto-objects). What ships and what measures the shipped
# speed (the shared library, the CLI, the Vulkan layer, bench_translate) links
# with -flto, so the container reader, decoder, IR lowering and SPIR-V back end
# are inlined across their files; every other binary (the tests) links the
# machine code and does not pay for LTO at link time. That takes an explicit
# -fno-lto: given objects with LTO bytecode and no LTO flag, GCC's linker plugin
# runs the whole link-time optimisation anyway (12 s of CPU per test binary
# that pulls in SPIRV-Tools, against 0.4 s without: most of a CI build's time).
# GCC only, optimised builds only, and never with the sanitizers (their reports
# want the plain build).
option(SB_LTO "Link-time optimisation of the translator in the shipped binaries" ON)
set(SB_LTO_ACTIVE OFF)
if(SB_LTO AND NOT SB_SANITIZE AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND
   NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
  include(CheckIPOSupported)
  check_ipo_supported(RESULT sb_lto_supported OUTPUT sb_lto_output LANGUAGES C)
  if(sb_lto_supported)
    set(SB_LTO_ACTIVE ON)
    # Every target made after this point but those sb_lto_link marks (GCC 12
    # ignores a later -flto once -fno-lto is on the command line).
    add_link_options($<$<NOT:$<BOOL:$<TARGET_PROPERTY:SB_LTO_LINK>>>:-fno-lto>)
  else()
    message(STATUS "shaderbridge: no link-time optimisation (${sb_lto_output})")
  endif()
endif()

# Objects that carry LTO bytecode beside their machine code.
function(sb_lto_objects target)
  if(SB_LTO_ACTIVE)
    target_compile_options(${target} PRIVATE -flto=auto -ffat-lto-objects)
  endif()
endfunction()

# A binary linked with LTO (over the objects above).
function(sb_lto_link target)
  if(SB_LTO_ACTIVE)
    set_target_properties(${target} PROPERTIES SB_LTO_LINK ON)
    target_link_options(${target} PRIVATE -flto=auto)
  endif()
endfunction()
