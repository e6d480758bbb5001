/* dwarf_units.c - the tables of per unit state of scopes.c and lines.c
   (dwarf.h).  A report symbolizes addresses in few units (the
   program's sources with instrumented code), so a linear search.  */
#include <stdlib.h>
#include <string.h>
#include "symbols/dwarf.h"

void *
zi_units_get (struct zi_units *t, size_t size, struct zi_unit_key key, int *fresh)
{
  *fresh = 0;
  for (size_t i = 0; i < t->n; i++)
    {
      struct zi_unit_key *k = zi_units_at (t, size, i);
      if (k->dbg == key.dbg && k->off == key.off)
        return k;
    }
  if (t->n == t->cap)
    {
      size_t cap = t->cap ? 2 * t->cap : 16;
      char *at = realloc (t->at, cap * size);
      if (!at)
        return NULL;
      t->at = at;
      t->cap = cap;
    }
  struct zi_unit_key *k = zi_units_at (t, size, t->n++);
  memset (k, 0, size);
  *k = key;
  *fresh = 1;
  return k;
}

void
zi_units_free (struct zi_units *t)
{
  free (t->at);
  memset (t, 0, sizeof *t);
}
