# Facts about the target compiler (ZEROINST_TARGET_GCC): its triple, its
# plugin headers, and the names of its C++ and Fortran drivers.  The plugin
# goes to lib/zeroinst/<triple>/zeroinst.so: one directory per target, the
# file always named zeroinst.so (GCC derives the option prefix from it).
execute_process(COMMAND ${ZEROINST_TARGET_GCC} -dumpmachine
                OUTPUT_VARIABLE ZEROINST_TRIPLE OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ZEROINST_TARGET_GCC='${ZEROINST_TARGET_GCC}' does not run")
endif()
execute_process(COMMAND ${ZEROINST_TARGET_GCC} -print-file-name=plugin
                OUTPUT_VARIABLE ZEROINST_GCC_PLUGIN_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${ZEROINST_GCC_PLUGIN_DIR}/include/gcc-plugin.h")
  message(FATAL_ERROR "No GCC plugin headers for ${ZEROINST_TARGET_GCC} in "
          "${ZEROINST_GCC_PLUGIN_DIR}/include: install gcc-12-plugin-dev "
          "(or gcc-12-plugin-dev-<target> for a cross compiler)")
endif()
# The C++ and Fortran drivers of the same compiler: gcc -> g++/gfortran,
# aarch64-linux-gnu-gcc-12 -> aarch64-linux-gnu-g++-12 / -gfortran-12.
string(REGEX MATCH "(-[0-9]+)$" version_suffix "${ZEROINST_TARGET_GCC}")
string(REGEX REPLACE "gcc(-[0-9]+)$|gcc$" "g++${version_suffix}" ZEROINST_TARGET_GXX "${ZEROINST_TARGET_GCC}")
string(REGEX REPLACE "gcc(-[0-9]+)$|gcc$" "gfortran${version_suffix}" ZEROINST_TARGET_GFORTRAN "${ZEROINST_TARGET_GCC}")
set(ZEROINST_PLUGIN_SUBDIR ${CMAKE_INSTALL_LIBDIR}/zeroinst/${ZEROINST_TRIPLE})
message(STATUS "zeroinst: target ${ZEROINST_TRIPLE}, plugin headers ${ZEROINST_GCC_PLUGIN_DIR}")
