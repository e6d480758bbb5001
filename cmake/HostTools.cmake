# Cross builds (CMAKE_CROSSCOMPILING, e.g. -DCMAKE_TOOLCHAIN_FILE=
# cmake/toolchains/aarch64-linux-gnu.cmake): CMAKE_C/CXX_COMPILER are the
# cross compilers, which build the runtime.  The plugin is loaded by the
# cross compiler, a host program, and the report tool reads reports on the
# host: both are built for the host, by the host compilers, in their own
# CMake project (cmake/host) run as an ExternalProject in build-*/host.  Their
# outputs land where a native build puts them:
#   lib/zeroinst/<triple>/zeroinst.so, bin/zeroinst and the compiler
#   wrappers bin/zeroinst-cc, -cxx, -fortran.
set(ZEROINST_HOST_CC "gcc" CACHE STRING "Host C compiler (the report tool, in cross builds)")
set(ZEROINST_HOST_CXX "g++" CACHE STRING
    "Host C++ compiler that builds the plugin in cross builds (GCC-compatible with the cross gcc's own build)")
option(ZEROINST_BUILD_TOOL "Build the zeroinst report tool (a host program, needs jansson)" ON)

set(zeroinst_host_plugin ${CMAKE_BINARY_DIR}/${ZEROINST_PLUGIN_SUBDIR}/zeroinst.so)
set(zeroinst_host_tool ${CMAKE_BINARY_DIR}/bin/zeroinst)
set(zeroinst_host_wrappers ${CMAKE_BINARY_DIR}/bin/zeroinst-cc ${CMAKE_BINARY_DIR}/bin/zeroinst-cxx
    ${CMAKE_BINARY_DIR}/bin/zeroinst-fortran)
set(zeroinst_host_byproducts ${zeroinst_host_plugin} ${zeroinst_host_wrappers})
if(ZEROINST_BUILD_TOOL AND EXISTS ${PROJECT_SOURCE_DIR}/tool/CMakeLists.txt)
  list(APPEND zeroinst_host_byproducts ${zeroinst_host_tool})
endif()

include(ExternalProject)
ExternalProject_Add(zeroinst_host
  SOURCE_DIR ${PROJECT_SOURCE_DIR}/cmake/host
  BINARY_DIR ${CMAKE_BINARY_DIR}/host
  PREFIX ${CMAKE_BINARY_DIR}/host-ep
  CMAKE_CACHE_ARGS
    -DCMAKE_TOOLCHAIN_FILE:FILEPATH=
    -DCMAKE_C_COMPILER:STRING=${ZEROINST_HOST_CC}
    -DCMAKE_CXX_COMPILER:STRING=${ZEROINST_HOST_CXX}
    -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
    -DCMAKE_INSTALL_LIBDIR:STRING=${CMAKE_INSTALL_LIBDIR}
    -DZEROINST_TARGET_GCC:STRING=${ZEROINST_TARGET_GCC}
    -DZEROINST_OUTPUT_DIR:PATH=${CMAKE_BINARY_DIR}
    -DZEROINST_VERSION:STRING=${PROJECT_VERSION}
    -DZEROINST_BUILD_TOOL:BOOL=${ZEROINST_BUILD_TOOL}
    -DZEROINST_WRAPPER_CONFIG_DIR:PATH=${CMAKE_BINARY_DIR}/wrapper-config
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON          # the sub-build decides what is out of date
  BUILD_BYPRODUCTS ${zeroinst_host_byproducts})

install(FILES ${zeroinst_host_plugin} DESTINATION ${ZEROINST_PLUGIN_SUBDIR}
        PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                    WORLD_READ WORLD_EXECUTE)
install(PROGRAMS ${zeroinst_host_wrappers} DESTINATION ${CMAKE_INSTALL_BINDIR})
if(zeroinst_host_tool IN_LIST zeroinst_host_byproducts)
  install(PROGRAMS ${zeroinst_host_tool} DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
