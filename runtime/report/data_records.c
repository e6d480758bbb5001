/* data_records.c - the data-centric records of the report (SPEC §5).

   One record per group and kind that loaded at least one element: a
   static object, or a heap allocation path (groups of several threads with
   the same path merged).  A record's size, never-loaded and always-zero
   bytes add up its objects, live ones and those that are gone; its byte
   map is the OR of its objects' maps by offset (so "x" at an offset if any
   allocation of the path had a non-zero byte there), as long as the
   largest object.  Nothing here changes the groups: the report may be
   written more than once (exec, then exit).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

struct build {
  struct zi_data_record *recs;
  size_t n, cap;
  int in_place;                      /* maps may be used in place */
};

static struct zi_data_record *
new_record (struct build *b)
{
  if (b->n == b->cap)
    {
      b->cap = b->cap ? 2 * b->cap : 64;
      b->recs = realloc (b->recs, b->cap * sizeof *b->recs);
      if (!b->recs)
        abort ();
    }
  struct zi_data_record *r = &b->recs[b->n++];
  memset (r, 0, sizeof *r);
  return r;
}

static void
copy_map (struct zi_map *dst, const struct zi_map *src)
{
  if (src->bits)
    zi_map_fold (dst, src->bits, src->granules << src->shift, src->shift);
}

/* OR R's states, from whichever source it has (zi_data_record), into
   DST.  */
static void
fold_record (struct zi_map *dst, const struct zi_data_record *r)
{
  if (r->single)
    zi_object_fold (dst, &r->object, r->kind);
  else
    copy_map (dst, r->borrowed ? r->borrowed : &r->map);
}

static int
has_states (const struct zi_data_record *r)
{
  return r->single || r->borrowed || r->map.bits;
}

/* R's map, its own from now on.  */
static struct zi_map *
own_map (struct zi_data_record *r)
{
  if (r->single || r->borrowed)
    fold_record (&r->map, r);
  r->single = 0;
  r->borrowed = NULL;
  return &r->map;
}

/* Add live object O to its group's records (lock held).  */
static void
add_object (struct zi_object *o, void *arg)
{
  struct build *b = arg;
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    {
      long slot = o->group->report_slot[k];
      if (slot < 0)
        continue;
      struct zi_data_record *r = &b->recs[slot];
      uint64_t never, zero;
      zi_object_count (o, k, &never, &zero);
      r->size += o->size;
      r->never_loaded += never;
      r->always_zero += zero;
      if (o->size > r->length)
        r->length = o->size;
      if (!(o->kinds & (1u << k)))
        continue;                 /* no states of this kind */
      if (b->in_place && !r->map.bits && !r->borrowed && !r->single && zi_map_shift (o->size) == 0)
        {
          r->single = 1;
          r->object = *o;
          continue;
        }
      zi_object_fold (own_map (r), o, k);
    }
}

/* A static symbol as the source names it: C++ demangled, GCC's ".N"
   suffixes of function-local statics dropped, Fortran module variables
   "module::name", common blocks "/name/".  */
static const char *
display_name (const struct zi_group *g)
{
  const char *sym = g->symbol;
  const char *mod = strstr (sym, "_MOD_");
  char *name;
  if (sym[0] == '_' && sym[1] == '_' && mod && mod > sym + 2)
    {
      size_t n = strlen (sym) + 4;
      name = malloc (n);
      if (!name)
        return sym;
      snprintf (name, n, "%.*s::%s", (int) (mod - sym - 2), sym + 2, mod + 5);
    }
  else if (!g->thread_local && zi_is_common_block (g->address, sym))
    {
      size_t n = strlen (sym) + 2;
      name = malloc (n);
      if (!name)
        return sym;
      snprintf (name, n, "/%.*s/", (int) (strlen (sym) - 1), sym);
    }
  else
    name = (char *) zi_clean_name (sym, NULL);
  /* "counts.0", "table.lto_priv.3": drop numeric suffixes.  */
  for (;;)
    {
      char *dot = strrchr (name, '.');
      if (!dot || dot == name || !dot[1] || strspn (dot + 1, "0123456789") != strlen (dot + 1))
        break;
      *dot = '\0';
    }
  return name;
}

/* The path table by_redundancy reads (qsort has no argument for it; the
   report is built under zi_lock).  */
static const struct zi_paths *sort_paths;

static int
by_kind_and_path (const void *a, const void *b)
{
  const struct zi_data_record *x = a, *y = b;
  ZI_ORDER (x->storage, y->storage);
  ZI_ORDER (x->kind, y->kind);
  if (x->storage == ZI_STORAGE_STATIC)
    return x < y ? -1 : x > y;      /* statics are never merged */
  return x->path < y->path ? -1 : x->path > y->path;
}

static int
by_redundancy (const void *a, const void *b)
{
  const struct zi_data_record *x = a, *y = b;
  ZI_ORDER (y->c.redundant_bytes, x->c.redundant_bytes);
  ZI_ORDER (y->c.bytes, x->c.bytes);
  ZI_ORDER (x->kind, y->kind);
  ZI_ORDER (x->storage, y->storage);
  if (x->storage == ZI_STORAGE_STATIC)
    {
      int c = strcmp (x->name, y->name);
      return c ? c : x->thread_local - y->thread_local;
    }
  return zi_paths_cmp (sort_paths, x->path, y->path);
}

/* Merge heap records with the same kind and path (several threads).  */
static void
merge (struct build *b)
{
  qsort (b->recs, b->n, sizeof *b->recs, by_kind_and_path);
  size_t out = 0;
  for (size_t i = 0; i < b->n; i++)
    {
      struct zi_data_record *r = &b->recs[i];
      struct zi_data_record *prev = out ? &b->recs[out - 1] : NULL;
      if (prev && r->storage == ZI_STORAGE_HEAP && by_kind_and_path (prev, r) == 0)
        {
          prev->allocations += r->allocations;
          prev->size += r->size;
          if (!prev->variable)
            prev->variable = r->variable;
          zi_totals_add (&prev->c, &r->c);
          prev->never_loaded += r->never_loaded;
          prev->always_zero += r->always_zero;
          if (r->length > prev->length)
            prev->length = r->length;
          if (!has_states (prev))
            {
              /* R's source becomes PREV's: no copy.  */
              prev->map = r->map;
              prev->borrowed = r->borrowed;
              prev->single = r->single;
              prev->object = r->object;
              r->map.bits = NULL;
            }
          else if (has_states (r))
            fold_record (own_map (prev), r);
          zi_map_release (r->map.bits, r->map.granules << r->map.shift, r->map.shift);
          continue;
        }
      b->recs[out++] = *r;
    }
  b->n = out;
}

/* Fill R's data records and data totals.  zi_lock held (threads are
   flushed).  A record's map is used in place (zi_data_record) unless a
   thread was left inside the runtime at the report (finish.c):
   that one could bury an object of the group, and change its map, while
   the report is written.  A single object's map is read from the shadow
   as the report is written: a thread still loading from it meanwhile
   (the report does not stop generated code) can make it disagree with
   the counts taken here.  */
void
zi_data_records (struct zi_report *rep)
{
  struct build b = { NULL, 0, 0, 1 };
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    b.in_place &= !t->busy_at_report;
  int held = zi_objects_rdlock ();
  for (struct zi_group *g = zi_groups; g; g = g->next)
    for (int k = 0; k < ZI_DATA_KINDS; k++)
      {
        g->report_slot[k] = -1;
        if (!g->c[k].elements)
          continue;
        g->report_slot[k] = (long) b.n;
        struct zi_data_record *r = new_record (&b);
        r->kind = k;
        r->storage = g->storage;
        r->group = g;
        r->allocations = g->allocations;
        r->c = g->c[k];
        r->size = g->dead_size;
        r->never_loaded = g->dead_never[k];
        r->always_zero = g->dead_zero[k];
        r->length = g->max_size;
        if (!b.in_place)
          copy_map (&r->map, &g->dead_map[k]);
        else if (g->dead_map[k].bits)
          r->borrowed = &g->dead_map[k];
      }
  zi_statics_each (add_object, &b);
  zi_heap_each (add_object, &b);
  zi_objects_unlock (held);
  for (size_t i = 0; i < b.n; i++)
    {
      struct zi_data_record *r = &b.recs[i];
      if (r->storage == ZI_STORAGE_STATIC)
        {
          r->name = display_name (r->group);
          r->module = r->group->module;
          r->thread_local = r->group->thread_local;
          r->descriptor = !r->thread_local
                          && zi_is_descriptor (r->group->address, r->group->symbol, r->size);
        }
      else
        {
          r->allocator = r->group->allocator;
          r->variable = __atomic_load_n (&r->group->variable, __ATOMIC_ACQUIRE);
          r->path = zi_node_path (&rep->paths, r->group->alloc_node);
        }
    }
  merge (&b);
  sort_paths = &rep->paths;
  qsort (b.recs, b.n, sizeof *b.recs, by_redundancy);
  rep->data = b.recs;
  rep->ndata = b.n;
}

void
zi_data_records_free (struct zi_report *rep)
{
  for (size_t i = 0; i < rep->ndata; i++)
    {
      struct zi_data_record *r = &rep->data[i];
      zi_map_release (r->map.bits, r->map.granules << r->map.shift, r->map.shift);
    }
  free (rep->data);
}
