/* symbols.h - symbolization (runtime/symbols/): code addresses to
   functions, files, lines and inlined frames (symbols.c), and what DWARF
   says of static objects.  symbols.c asks its source of names
   (source.h): with libdw symbols_dwarf.c, whose helpers are scopes.c,
   lines.c and dwarf_units.c (dwarf.h); else symbols_dladdr.c.  */
#ifndef ZEROINST_SYMBOLS_H
#define ZEROINST_SYMBOLS_H

#include "core/core.h"

/* symbols.c: one symbolized frame (and the frames GCC inlined into it).  */
struct zi_frame {
  const char *function, *file;
  unsigned line;
  unsigned inlined : 1, omp_region : 1;
};
/* Frames at return address RA (innermost first, inlined ones marked);
   FULL: lines and inlined frames (for instrumented code), else the name
   only.  *N gets their number.  Cached (an address is always in the same
   kind of frame); never NULL.  */
const struct zi_frame *zi_symbolize (uintptr_t ra, int full, size_t *n) ZI_HIDDEN;
void zi_symbols_reset (void) ZI_HIDDEN;
const char *zi_clean_name (const char *name, unsigned *omp_region) ZI_HIDDEN;
/* Is SYMBOL (at ADDR) a Fortran common block (from DWARF)?  */
int zi_is_common_block (uintptr_t addr, const char *symbol) ZI_HIDDEN;
/* Is the static object SYMBOL at ADDR, of SIZE bytes, a Fortran array
   descriptor (from DWARF)?  */
int zi_is_descriptor (uintptr_t addr, const char *symbol, uint64_t size) ZI_HIDDEN;

#endif
