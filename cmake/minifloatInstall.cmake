# Install rules and the exported package: find_package(minifloat CONFIG) then
# target_link_libraries(app minifloat::minifloat).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/minifloat" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS minifloat EXPORT minifloatTargets)
set(minifloat_config_dir "${CMAKE_INSTALL_DATADIR}/cmake/minifloat")
install(EXPORT minifloatTargets NAMESPACE minifloat:: DESTINATION "${minifloat_config_dir}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/minifloatConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/minifloatConfig.cmake"
                              INSTALL_DESTINATION "${minifloat_config_dir}")
# Header-only: any architecture may use the package.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/minifloatConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/minifloatConfig.cmake"
              "${PROJECT_BINARY_DIR}/minifloatConfigVersion.cmake"
        DESTINATION "${minifloat_config_dir}")

# pkg-config: header-only, so only Cflags; arch-independent, so under share/.
configure_file("${PROJECT_SOURCE_DIR}/cmake/minifloat.pc.in" "${PROJECT_BINARY_DIR}/minifloat.pc"
               @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/minifloat.pc" DESTINATION "${CMAKE_INSTALL_DATADIR}/pkgconfig")
