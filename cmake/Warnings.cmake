# SPDX-License-Identifier: MIT
# Warning and sanitizer flags shared by every target of the project.
function(sb_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes
                         -Wmissing-prototypes -Wno-unused-parameter)
  if(SB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  sb_target_sanitizers(${target})
endfunction()

function(sb_target_sanitizers target)
  if(SB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                           -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
