/* scopes.c - the DWARF scopes of a code address, for symbols_dwarf.c.

   dwarf_getscopes searches a compilation unit's DIE tree from its root for
   every address.  On a program built as one large unit (sqlite3's
   amalgamation: some 6,000 functions) that made the report spend seconds
   per thousand return addresses.  Here the functions of each unit
   (DW_TAG_subprogram DIEs with code, also inside namespaces, modules and
   classes) are indexed once by address range; an address then costs a
   binary search and a descent through its function's lexical blocks and
   inlined subroutines.

   zi_scopes_at returns what symbols_dwarf.c reads of dwarf_getscopes' answer:
   the DW_TAG_inlined_subroutine DIEs containing the address, innermost
   first, then the innermost DW_TAG_subprogram (a nested function, such as
   a Fortran internal procedure, is innermost).  -1 if the address is in no
   indexed function: symbols_dwarf.c then asks dwarf_getscopes.  */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include "symbols/dwarf.h"

struct fn_range {
  Dwarf_Addr lo, hi;
  Dwarf_Off die;
};

/* One compilation unit's functions, sorted by LO (they do not overlap).  */
struct unit {
  struct zi_unit_key key;
  struct fn_range *r;
  size_t n, cap;
};

static struct zi_units units;

static void
add_ranges (struct unit *u, Dwarf_Die *fn)
{
  Dwarf_Addr base, lo, hi;
  ptrdiff_t it = 0;
  while ((it = dwarf_ranges (fn, it, &base, &lo, &hi)) > 0)
    {
      if (u->n == u->cap)
        {
          size_t cap = u->cap ? 2 * u->cap : 64;
          struct fn_range *r = realloc (u->r, cap * sizeof *r);
          if (!r)
            return;
          u->r = r;
          u->cap = cap;
        }
      u->r[u->n++] = (struct fn_range) { lo, hi, dwarf_dieoffset (fn) };
    }
}

/* Index the functions among PARENT's children (and in the namespaces,
   modules and classes there).  */
static void
index_children (struct unit *u, Dwarf_Die *parent, int depth)
{
  Dwarf_Die child;
  if (dwarf_child (parent, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);
      if (tag == DW_TAG_subprogram)
        add_ranges (u, &child);
      else if (depth < 8
               && (tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type
                   || tag == DW_TAG_structure_type || tag == DW_TAG_union_type))
        index_children (u, &child, depth + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

static int
by_lo (const void *a, const void *b)
{
  const struct fn_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The index of compilation unit CU, made on first use (NULL if memory ran
   out).  */
static struct unit *
unit_of (Dwarf_Die *cu)
{
  int fresh;
  struct zi_unit_key key = { dwarf_cu_getdwarf (cu->cu), dwarf_dieoffset (cu) };
  struct unit *u = zi_units_get (&units, sizeof *u, key, &fresh);
  if (u && fresh)
    {
      index_children (u, cu, 0);
      qsort (u->r, u->n, sizeof *u->r, by_lo);
    }
  return u;
}

/* Scopes that may hold inlined subroutines or nested functions.  */
static int
is_scope (int tag)
{
  return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block
         || tag == DW_TAG_subprogram || tag == DW_TAG_try_block || tag == DW_TAG_catch_block;
}

int
zi_scopes_at (Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
  *scopes = NULL;
  struct unit *u = unit_of (cu);
  if (!u || !u->n)
    return -1;
  size_t lo = 0, hi = u->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (u->r[mid].lo <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (!lo || pc >= u->r[lo - 1].hi)
    return -1;
  /* The chain from the function down, outermost first.  */
  Dwarf_Die chain[64], cur;
  int n = 0;
  if (!dwarf_offdie (u->key.dbg, u->r[lo - 1].die, &cur))
    return -1;
  chain[n++] = cur;
  for (;;)
    {
      Dwarf_Die child;
      int found = 0;
      if (dwarf_child (&cur, &child) != 0)
        break;
      do
        if (is_scope (dwarf_tag (&child)) && dwarf_haspc (&child, pc) == 1)
          {
            found = 1;
            break;
          }
      while (dwarf_siblingof (&child, &child) == 0);
      if (!found)
        break;
      int tag = dwarf_tag (&child);
      if (tag == DW_TAG_subprogram)
        n = 0;                   /* a nested function: the outer one is not a frame */
      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
        {
          if (n == (int) (sizeof chain / sizeof *chain))
            return -1;
          chain[n++] = child;
        }
      cur = child;
    }
  *scopes = malloc (n * sizeof **scopes);
  if (!*scopes)
    return -1;
  for (int i = 0; i < n; i++)
    (*scopes)[i] = chain[n - 1 - i];
  return n;
}

/* Forget every index (the DWARF session ends).  */
void
zi_scopes_reset (void)
{
  for (size_t i = 0; i < units.n; i++)
    free (((struct unit *) zi_units_at (&units, sizeof (struct unit), i))->r);
  zi_units_free (&units);
}
