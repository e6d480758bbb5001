# Cross build of zeroinst for aarch64 (arm64) Linux on an x86-64 Debian 12
# host, with Debian's cross compilers (see README.md in this directory):
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#   cmake --build build-aarch64 && ctest --test-dir build-aarch64
set(ZEROINST_CROSS_TRIPLE aarch64-linux-gnu)
set(ZEROINST_CROSS_PROCESSOR aarch64)
# Target libraries through multiarch (libc6:arm64, libstdc++6:arm64,
# libgfortran5:arm64, libgomp1:arm64, libunwind/libdw:arm64): no -L.
set(ZEROINST_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
