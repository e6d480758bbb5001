/* symbols_dladdr.c - symbols.c's source of names without libdw
   (ZEROINST_HAVE_UNWIND unset: riscv64 on Debian 12): the dynamic symbol
   dladdr finds, no file or line, no inlined frames, and nothing from
   DWARF about static objects.  */
#include <dlfcn.h>
#include "symbols/source.h"

struct zi_frame *
zi_source_frames (uintptr_t ra, int full, size_t *n)
{
  struct zi_frame *f = NULL;
  size_t cap = 0;
  Dl_info info;
  const char *name = dladdr ((void *) (ra - 1), &info) && info.dli_sname ? info.dli_sname : "??";
  *n = 0;
  zi_frames_push (&f, n, &cap, name, "", 0, 0);
  return f;
}

void
zi_source_reset (void)
{
}

int
zi_source_descriptor (uintptr_t addr)
{
  return 0;
}

int
zi_source_common_block (uintptr_t addr, const char *name, size_t len)
{
  return 0;
}
