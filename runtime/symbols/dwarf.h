/* dwarf.h - the DWARF side of symbolization: symbols_dwarf.c's helpers
   scopes.c (inlined subroutines at an address) and lines.c (line
   programs), and the table of per-unit state both keep (dwarf_units.c).
   Only with libdw (ZEROINST_HAVE_UNWIND).  */
#ifndef ZEROINST_DWARF_H
#define ZEROINST_DWARF_H
#include <elfutils/libdw.h>
#include "symbols/symbols.h"

/* State per compilation unit (scopes.c: the unit's Dwarf and DIE
   offset) or per line program (lines.c: its .debug_line offset, which
   units may share): entries of one size, each beginning with its key.  */
struct zi_unit_key {
  Dwarf *dbg;
  Dwarf_Off off;
};
struct zi_units {
  char *at;
  size_t n, cap;
};
/* KEY's entry of SIZE bytes in T: *FRESH is 1 if it was just added (all
   zero but its key), else 0.  NULL if memory ran out.  */
void *zi_units_get (struct zi_units *t, size_t size, struct zi_unit_key key, int *fresh) ZI_HIDDEN;
/* The N-th entry of SIZE bytes of T.  */
static inline void *
zi_units_at (const struct zi_units *t, size_t size, size_t n)
{
  return t->at + n * size;
}
void zi_units_free (struct zi_units *t) ZI_HIDDEN;

/* scopes.c: the DW_TAG_inlined_subroutine DIEs containing PC, innermost
   first, then the innermost DW_TAG_subprogram; -1 if PC is in no
   indexed function.  */
int zi_scopes_at (Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes) ZI_HIDDEN;
void zi_scopes_reset (void) ZI_HIDDEN;

/* lines.c: PC's line, 1 (0: none) as libdw's dwfl_module_getsrc would
   answer, or -1 when lines.c does not read CU's line program (then ask
   libdw); the name of file INDEX of CU's table likewise (NULL past it).  */
int zi_line_at (Dwarf_Die *cu, Dwarf_Addr pc, const char **file, int *line) ZI_HIDDEN;
int zi_line_file (Dwarf_Die *cu, uint64_t index, const char **file) ZI_HIDDEN;
void zi_lines_reset (void) ZI_HIDDEN;

#endif
