# Shared part of the Debian cross toolchain files (aarch64-linux-gnu.cmake,
# riscv64-linux-gnu.cmake): the caller sets ZEROINST_CROSS_TRIPLE,
# ZEROINST_CROSS_PROCESSOR and ZEROINST_CROSS_QEMU (the emulator command),
# then includes this file.
#
# What a cross build of zeroinst is (see README.md in this directory):
#   * the runtime (libzeroinst) is compiled by the cross compiler set here;
#   * the plugin and the `zeroinst` report tool are host programs: the top
#     CMakeLists.txt builds them in an ExternalProject (build-*/host) with the
#     host compilers ZEROINST_HOST_CC/ZEROINST_HOST_CXX (gcc/g++), the plugin
#     against the cross compiler's plugin headers;
#   * the wrappers bin/zeroinst-cc/-cxx/-fortran call the cross drivers;
#   * tests run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR; no binfmt).
# Compiler names stay bare (found on PATH) so the wrappers stay relocatable.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${ZEROINST_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${ZEROINST_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${ZEROINST_CROSS_TRIPLE}-g++)
set(CMAKE_Fortran_COMPILER ${ZEROINST_CROSS_TRIPLE}-gfortran)
set(ZEROINST_TARGET_GCC ${ZEROINST_CROSS_TRIPLE}-gcc CACHE STRING
    "GCC whose plugin is built and which the wrappers call")

# Running target programs: qemu-user, given explicitly (no binfmt here).
# ZEROINST_CROSS_QEMU is the whole command: for aarch64 the target's shared
# libraries come from Debian multiarch (libc6:arm64, libstdc++6:arm64, ...,
# found like native ones), for riscv64 from the cross toolchain's own
# /usr/riscv64-linux-gnu (qemu -L).  Never mix the two: the cross
# toolchain's ld.so with a multiarch libc.so.6 of another Debian revision
# hangs in pthread_create.
set(CMAKE_CROSSCOMPILING_EMULATOR ${ZEROINST_CROSS_QEMU}
    CACHE STRING "How to run a target program on this host (a command list)")

# pkg-config for target libraries: Debian's <triple>-pkg-config (pkgconf:<arch>)
# reads only the target's .pc files.  Without it, point pkg-config at the
# target's multiarch directory anyway, so that a missing target library is
# reported as missing instead of silently resolving to the host's.
#
# ZEROINST_TARGET_LIBS (optional): the prefix of target libraries built from
# Debian's sources by cmake/toolchains/build-target-libs.sh, for a target
# Debian 12 has no packages of (riscv64): its .pc files come first.
find_program(ZEROINST_CROSS_PKG_CONFIG ${ZEROINST_CROSS_TRIPLE}-pkg-config)
if(ZEROINST_CROSS_PKG_CONFIG)
  set(ENV{PKG_CONFIG} ${ZEROINST_CROSS_PKG_CONFIG})
else()
  set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${ZEROINST_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
endif()
if(ZEROINST_TARGET_LIBS)
  if(NOT EXISTS ${ZEROINST_TARGET_LIBS}/lib/pkgconfig)
    message(FATAL_ERROR "ZEROINST_TARGET_LIBS=${ZEROINST_TARGET_LIBS} has no lib/pkgconfig: "
            "build it with cmake/toolchains/build-target-libs.sh")
  endif()
  set(ENV{PKG_CONFIG_PATH} ${ZEROINST_TARGET_LIBS}/lib/pkgconfig)
endif()
