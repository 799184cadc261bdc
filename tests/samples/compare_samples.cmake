# Regenerates the samples and requires them to equal the checked-in files byte for byte.
file(MAKE_DIRECTORY ${OUT_DIR})
execute_process(COMMAND ${GENERATOR} ${OUT_DIR} ${VS} ${FS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_samples failed (${rc})")
endif()
foreach(name passthrough_vs_4_0.dxbc simple_tri.shbin textured_quad.vbc)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT_DIR}/${name} ${EXPECTED_DIR}/${name}
                  RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "samples/${name} differs from what make_samples writes now "
                        "(regenerate with: make_samples samples <vs.spv> <fs.spv>)")
  endif()
  message(STATUS "samples/${name}: reproduced")
endforeach()
