# Cross build of zeroinst for riscv64 Linux on an x86-64 Debian 12 host
# (see README.md in this directory for what differs from aarch64):
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-linux-gnu.cmake
#   cmake --build build-riscv64 && ctest --test-dir build-riscv64
set(ZEROINST_CROSS_TRIPLE riscv64-linux-gnu)
set(ZEROINST_CROSS_PROCESSOR riscv64)
# Debian 12 has no riscv64 multiarch archive: the target libraries are the
# cross toolchain's (libc6-riscv64-cross, libstdc++6-riscv64-cross, ...).
set(ZEROINST_CROSS_QEMU qemu-riscv64 -L /usr/riscv64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
