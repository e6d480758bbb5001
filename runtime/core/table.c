/* table.c - counters per (site slot, calling context), in an
   open-addressing hash table: a thread's records, filled from its
   calling-context slots (zi_contexts_fold) and by the elements the runtime
   counts one at a time (__zeroinst_count).  And a map from pointers to
   indices, for numbering nodes and sites when a report is written.  */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"

static size_t
hash_key (int32_t slot, const void *ctx)
{
  uint64_t h = (uint64_t) (uintptr_t) ctx * 0x9e3779b97f4a7c15ull ^ (uint64_t) slot * 0xc2b2ae3d27d4eb4full;
  return (size_t) (h ^ (h >> 29));
}

static int
used (const char *e, size_t size)
{
  for (size_t i = 0; i < size; i++)
    if (e[i])
      return 1;
  return 0;
}

void *
zi_open_grow (void *old, size_t *mask, size_t size, size_t first,
              size_t (*hash) (const void *entry))
{
  size_t n = old ? 2 * (*mask + 1) : first;
  char *at = calloc (n, size);
  if (!at)
    return NULL;
  for (size_t i = 0; old && i <= *mask; i++)
    {
      const char *e = (const char *) old + i * size;
      if (!used (e, size))
        continue;
      size_t j = hash (e) & (n - 1);
      while (used (at + j * size, size))
        j = (j + 1) & (n - 1);
      memcpy (at + j * size, e, size);
    }
  free (old);
  *mask = n - 1;
  return at;
}

static size_t
cell_hash (const void *e)
{
  const struct zi_cell *c = e;
  return hash_key (c->slot, c->ctx);
}

static void
grow (struct zi_table *t)
{
  t->cells = zi_open_grow (t->cells, &t->mask, sizeof *t->cells, 256, cell_hash);
  if (!t->cells)
    abort ();
}

struct zi_counters *
zi_table_get (struct zi_table *t, int32_t slot, const void *ctx)
{
  if (2 * (t->count + 1) > (t->mask ? t->mask + 1 : 0))
    grow (t);
  size_t i = hash_key (slot, ctx) & t->mask;
  while (t->cells[i].slot)
    {
      if (t->cells[i].slot == slot && t->cells[i].ctx == ctx)
        return &t->cells[i].c;
      i = (i + 1) & t->mask;
    }
  t->cells[i].slot = slot;
  t->cells[i].ctx = ctx;
  t->count++;
  return &t->cells[i].c;
}

void
zi_table_fold (void *table, int32_t slot, const struct zi_site_info *site, const void *ctx,
               const struct zi_counters *c)
{
  (void) site;
  zi_counters_add (zi_table_get (table, slot, ctx), c);
}

void
zi_table_add (struct zi_table *dst, const struct zi_table *src, const void *(*map) (const void *))
{
  for (size_t i = 0; src->cells && i <= src->mask; i++)
    {
      const struct zi_cell *s = &src->cells[i];
      if (!s->slot)
        continue;
      zi_table_fold (dst, s->slot, NULL, map ? map (s->ctx) : s->ctx, &s->c);
    }
}

void
zi_table_free (struct zi_table *t)
{
  free (t->cells);
  memset (t, 0, sizeof *t);
}

static size_t
ptr_hash (const void *key)
{
  uint64_t h = (uint64_t) (uintptr_t) key * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 29));
}

int32_t *
zi_ptrmap_at (struct zi_ptrmap *m, const void *key)
{
  if (2 * (m->count + 1) > (m->keys ? m->mask + 1 : 0))
    {
      size_t n = m->keys ? 2 * (m->mask + 1) : 1024;
      const void **keys = calloc (n, sizeof *keys);
      int32_t *vals = calloc (n, sizeof *vals);
      if (!keys || !vals)
        abort ();
      for (size_t i = 0; m->keys && i <= m->mask; i++)
        if (m->keys[i])
          {
            size_t j = ptr_hash (m->keys[i]) & (n - 1);
            while (keys[j])
              j = (j + 1) & (n - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
          }
      free (m->keys);
      free (m->vals);
      m->keys = keys;
      m->vals = vals;
      m->mask = n - 1;
    }
  size_t i = ptr_hash (key) & m->mask;
  for (; m->keys[i]; i = (i + 1) & m->mask)
    if (m->keys[i] == key)
      return &m->vals[i];
  m->keys[i] = key;
  m->vals[i] = ZI_PTRMAP_NEW;
  m->count++;
  return &m->vals[i];
}

void
zi_ptrmap_free (struct zi_ptrmap *m)
{
  free (m->keys);
  free (m->vals);
  memset (m, 0, sizeof *m);
}
