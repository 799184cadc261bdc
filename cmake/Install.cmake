# SPDX-License-Identifier: MIT
# Installs headers, both libraries, the program, a pkg-config file and a
# CMake package (find_package(shaderbridge) -> shaderbridge::shaderbridge).
include(CMakePackageConfigHelpers)

# Each module's public headers (a module may have none yet: git keeps no empty folder).
foreach(module reflect translator runtime layer)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${module}/include/shaderbridge)
    install(DIRECTORY ${module}/include/shaderbridge DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endforeach()
install(TARGETS shaderbridge shaderbridge_static EXPORT shaderbridgeTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT shaderbridgeTargets NAMESPACE shaderbridge::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shaderbridge)

configure_package_config_file(cmake/shaderbridgeConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/shaderbridgeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shaderbridge)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/shaderbridgeConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/shaderbridgeConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/shaderbridgeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shaderbridge)

# The .pc file finds its prefix relative to itself, so a staged or relocated install works.
file(RELATIVE_PATH SB_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" SB_PC_TO_PREFIX "${SB_PC_TO_PREFIX}")
configure_file(cmake/shaderbridge.pc.in ${CMAKE_CURRENT_BINARY_DIR}/shaderbridge.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/shaderbridge.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
