/* objects.c - what the data-centric analysis knows about memory: the lock
   over all objects, byte maps, and address -> object lookup.

   Byte maps (one per object and kind, made on the object's first load of
   that kind) keep 2 bits per granule:
       00  never loaded      01  loaded, always zero      11  seen non-zero
   so folding maps of several objects (a heap group's allocations, a
   realloc) is a bitwise OR.  A granule is one byte, except for objects
   larger than ZI_MAP_MAX_GRANULES bytes, whose granule is the smallest
   power of two that keeps the map at ZI_MAP_MAX_GRANULES granules (64 MiB
   per kind): memory for maps is at most 2 bits per byte of the objects
   that were loaded.  Such a coarse map cannot say which bytes of a
   granule were loaded, so these objects also keep a byte-exact map that
   only counts (struct zi_fine).  Maps of 64 KiB or more are mmap-ed, so
   pages of a map whose part of the object is never loaded cost nothing.

   The lookup structure costs memory per object, not per byte: statics.c
   keeps a sorted array of static objects, heap.c a balanced tree of live
   heap blocks.  */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "runtime.h"

pthread_rwlock_t zi_objects_lock;
struct zi_group *zi_groups;
int zi_data_on;
/* The same for generated code, which appends to the buffers only then.  */
int __zeroinst_data_on __attribute__ ((visibility ("default")));

/* Writers (malloc, free) must not starve while threads keep flushing.  */
static void
init_lock (void)
{
  pthread_rwlockattr_t a;
  pthread_rwlockattr_init (&a);
  pthread_rwlockattr_setkind_np (&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init (&zi_objects_lock, &a);
  pthread_rwlockattr_destroy (&a);
}

/* Called once the options are read (lifecycle.c).  */
void
zi_objects_init (void)
{
  init_lock ();
  if (!zi_config.mode_data)
    return;
  zi_statics_refresh ();
  __atomic_store_n (&zi_data_on, 1, __ATOMIC_RELEASE);
  __atomic_store_n (&__zeroinst_data_on, 1, __ATOMIC_RELEASE);
}

void
zi_objects_after_fork_child (void)
{
  init_lock ();
}

/* The granule shift for an object of SIZE bytes.  */
unsigned
zi_map_shift (size_t size)
{
  unsigned shift = 0;
  while ((size >> shift) > ZI_MAP_MAX_GRANULES)
    shift++;
  return shift;
}

static size_t
object_granules (size_t size, unsigned shift)
{
  return (size + ((size_t) 1 << shift) - 1) >> shift;
}

static size_t
map_words (size_t granules)
{
  return (granules + 31) / 32;
}

static uint64_t *
map_new (size_t granules)
{
  size_t bytes = map_words (granules) * sizeof (uint64_t);
  if (bytes < 65536)
    return calloc (1, bytes ? bytes : sizeof (uint64_t));
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void
map_free (uint64_t *bits, size_t granules)
{
  size_t bytes = map_words (granules) * sizeof (uint64_t);
  if (!bits)
    return;
  if (bytes < 65536)
    free (bits);
  else
    munmap (bits, bytes);
}

/* A cleared map for an object of SIZE bytes at granule shift SHIFT, and
   its release.  */
uint64_t *
zi_map_alloc (size_t size, unsigned shift)
{
  return map_new (object_granules (size, shift));
}

void
zi_map_release (uint64_t *bits, size_t size, unsigned shift)
{
  map_free (bits, object_granules (size, shift));
}

/* Objects of at most this many bytes get their first map inline.  */
#define INLINE_MAP_MAX 256

/* A zeroed object for SIZE bytes (shift set), with room for an inline
   map if it is small; NULL if memory ran out.  Freed with free().  */
struct zi_object *
zi_object_alloc (size_t size)
{
  size_t words = size <= INLINE_MAP_MAX ? map_words (size) : 0;
  struct zi_object *o = calloc (1, sizeof *o + words * sizeof (uint64_t));
  if (!o)
    return NULL;
  o->size = size;
  o->shift = zi_map_shift (size);
  if (words)
    o->spare = (uint64_t *) (o + 1);
  return o;
}

/* Make the counting map of KIND of coarse object O (before its map, so
   that a map implies it).  0 if memory ran out.  */
static int
make_fine (struct zi_object *o, int kind)
{
  struct zi_fine *f = __atomic_load_n (&o->fine, __ATOMIC_ACQUIRE);
  if (!f)
    {
      struct zi_fine *expected = NULL;
      if (!(f = calloc (1, sizeof *f)))
        return 0;
      if (!__atomic_compare_exchange_n (&o->fine, &expected, f, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
        {
          free (f);
          f = expected;
        }
    }
  if (__atomic_load_n (&f->bits[kind], __ATOMIC_ACQUIRE))
    return 1;
  uint64_t *b = map_new (o->size), *expected = NULL;
  if (!b)
    return 0;
  if (!__atomic_compare_exchange_n (&f->bits[kind], &expected, b, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    map_free (b, o->size);
  return 1;
}

/* O's map of KIND, made on first use: the spare inline one if still
   free, else a new one (several threads may race: one map wins).  NULL
   if memory ran out (the loads are still counted).  */
uint64_t *
zi_object_map (struct zi_object *o, int kind)
{
  uint64_t *m = __atomic_load_n (&o->map[kind], __ATOMIC_ACQUIRE);
  if (m)
    return m;
  size_t granules = object_granules (o->size, o->shift);
  if (o->shift && !make_fine (o, kind))
    return NULL;
  uint64_t *spare = o->shift ? NULL : __atomic_exchange_n (&o->spare, NULL, __ATOMIC_ACQ_REL);
  m = spare ? spare : map_new (granules);
  if (!m)
    return NULL;
  uint64_t *expected = NULL;
  if (!__atomic_compare_exchange_n (&o->map[kind], &expected, m, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    {
      if (spare)
        __atomic_store_n (&o->spare, spare, __ATOMIC_RELEASE);
      else
        map_free (m, granules);
      return expected;
    }
  if (spare)
    o->inline_kind = (unsigned) kind + 1;   /* read under the write lock only */
  return m;
}

/* Free O's map of KIND (write lock held), unless it lives in O, and its
   counting map.  */
void
zi_object_map_release (struct zi_object *o, int kind)
{
  if (o->inline_kind != (unsigned) kind + 1)
    map_free (o->map[kind], object_granules (o->size, o->shift));
  else
    o->inline_kind = 0;
  o->map[kind] = NULL;
  if (o->shift && o->fine)
    {
      struct zi_fine *f = o->fine;
      map_free (f->bits[kind], o->size);
      f->bits[kind] = NULL;
      f->loaded[kind] = f->nonzero[kind] = 0;
      int any = 0;
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        any |= f->bits[k] != NULL;
      if (!any)
        {
          free (f);
          o->fine = NULL;
        }
    }
}

/* Coarse granules cover several bytes, and loading one byte of a granule
   marks it loaded: its other bytes may never have been loaded.  The
   counting map knows each byte, and its counts move only when a byte's
   state does.  */
void
zi_object_mark_coarse (struct zi_object *o, int kind, uint64_t *m, size_t off, unsigned n,
                       uint64_t lo, uint64_t hi)
{
  uint64_t *fb = o->fine ? __atomic_load_n (&o->fine->bits[kind], __ATOMIC_ACQUIRE) : NULL;
  uint64_t loaded = 0, nonzero = 0;
  for (unsigned k = 0; k < n; k++)
    {
      uint64_t byte = (k < 8 ? lo >> (8 * k) : hi >> (8 * (k - 8))) & 0xff;
      uint64_t state = ZI_MAP_LOADED | (byte ? ZI_MAP_NONZERO : 0);
      size_t g = (off + k) >> o->shift;
      uint64_t pat = state << (2 * (g % 32));
      if ((m[g / 32] & pat) != pat)
        __atomic_fetch_or (&m[g / 32], pat, __ATOMIC_RELAXED);
      if (!fb)
        continue;
      size_t b = off + k;
      unsigned sh = 2 * (b % 32);
      pat = state << sh;
      if ((fb[b / 32] & pat) != pat)
        {
          uint64_t old = __atomic_fetch_or (&fb[b / 32], pat, __ATOMIC_RELAXED) >> sh;
          loaded += !(old & ZI_MAP_LOADED);
          nonzero += byte && !(old & ZI_MAP_NONZERO);
        }
    }
  if (loaded)
    __atomic_fetch_add (&o->fine->loaded[kind], loaded, __ATOMIC_RELAXED);
  if (nonzero)
    __atomic_fetch_add (&o->fine->nonzero[kind], nonzero, __ATOMIC_RELAXED);
}

/* Never-loaded and always-zero bytes of an object of SIZE bytes with map
   BITS (NULL: never loaded) of granule 1 << SHIFT.  */
void
zi_map_count (const uint64_t *bits, size_t size, unsigned shift, uint64_t *never, uint64_t *zero)
{
  *never = *zero = 0;
  if (!bits)
    {
      *never = size;
      return;
    }
  size_t granules = object_granules (size, shift);
  const uint64_t low = 0x5555555555555555ull;
  uint64_t loaded = 0, zeros = 0;
  size_t full = granules / 32;
  for (size_t w = 0; w < full; w++)
    {
      uint64_t x = bits[w];
      loaded += (uint64_t) __builtin_popcountll (x & low);
      zeros += (uint64_t) __builtin_popcountll (x & ~(x >> 1) & low);
    }
  /* The last word, and the last granule (possibly partial) in bytes.  */
  for (size_t g = full * 32; g < granules; g++)
    {
      unsigned s = (unsigned) (bits[g / 32] >> (2 * (g % 32))) & 3;
      loaded += s != 0;
      zeros += s == ZI_MAP_LOADED;
    }
  if (shift == 0)
    {
      *never = size - loaded;
      *zero = zeros;
      return;
    }
  /* Coarse granules: count bytes; the last granule may be partial.  */
  size_t g = granules - 1, last_bytes = size - (g << shift);
  unsigned s = (unsigned) (bits[g / 32] >> (2 * (g % 32))) & 3;
  uint64_t gb = (uint64_t) 1 << shift;
  uint64_t loaded_bytes = loaded * gb, zero_bytes = zeros * gb;
  if (s)
    loaded_bytes -= gb - last_bytes;
  if (s == ZI_MAP_LOADED)
    zero_bytes -= gb - last_bytes;
  *never = size - loaded_bytes;
  *zero = zero_bytes;
}

void
zi_object_count (const struct zi_object *o, int kind, uint64_t *never, uint64_t *zero)
{
  if (o->shift && o->map[kind] && o->fine)
    {
      uint64_t loaded = o->fine->loaded[kind];
      *never = o->size - loaded;
      *zero = loaded - o->fine->nonzero[kind];
      return;
    }
  zi_map_count (o->map[kind], o->size, o->shift, never, zero);
}

uint64_t *
zi_map_resized (const uint64_t *bits, size_t old_size, unsigned old_shift, size_t new_size,
                unsigned new_shift)
{
  if (!bits)
    return NULL;
  uint64_t *nb = zi_map_alloc (new_size, new_shift);
  if (!nb)
    return NULL;
  size_t keep = old_size < new_size ? old_size : new_size;
  if (old_shift == new_shift)
    {
      /* Word by word; the words of untouched pages stay untouched.  */
      size_t g = object_granules (keep, old_shift), w;
      for (w = 0; w < g / 32; w++)
        if (bits[w])
          nb[w] = bits[w];
      if (g % 32)
        nb[w] = bits[w] & ((1ull << (2 * (g % 32))) - 1);
      return nb;
    }
  for (size_t b = 0; b < keep;)
    {
      size_t g = b >> old_shift;
      uint64_t s = (bits[g / 32] >> (2 * (g % 32))) & 3;
      size_t to = b >> new_shift;
      nb[to / 32] |= s << (2 * (to % 32));
      /* Next byte that starts a new old or new granule.  */
      size_t step = (size_t) 1 << (old_shift < new_shift ? old_shift : new_shift);
      b = (b / step + 1) * step;
    }
  return nb;
}

/* The bytes that survive keep their state, new bytes start never loaded.
   A map that cannot be made is lost (its bytes count as never loaded).  */
void
zi_object_resize (struct zi_object *o, size_t size)
{
  unsigned shift = zi_map_shift (size);
  uint64_t *map[ZI_DATA_KINDS], *fine[ZI_DATA_KINDS];
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    {
      /* The byte-exact map, wherever the object keeps it.  */
      const uint64_t *exact = !o->shift ? o->map[k] : o->fine && o->map[k] ? o->fine->bits[k] : NULL;
      fine[k] = NULL;
      if (!shift)
        map[k] = zi_map_resized (exact, o->size, 0, size, 0);
      else
        {
          map[k] = zi_map_resized (o->map[k], o->size, o->shift, size, shift);
          fine[k] = map[k] ? zi_map_resized (exact, o->size, 0, size, 0) : NULL;
          if (map[k] && !fine[k])
            {
              map_free (map[k], object_granules (size, shift));
              map[k] = NULL;
            }
        }
    }
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    zi_object_map_release (o, k);
  o->spare = NULL;          /* sized for the old size */
  o->fine = NULL;
  o->size = size;
  o->shift = shift;
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    {
      o->map[k] = map[k];
      if (!fine[k])
        continue;
      if (!o->fine && !(o->fine = calloc (1, sizeof *o->fine)))
        {
          map_free (fine[k], size);
          map_free (map[k], object_granules (size, shift));
          o->map[k] = NULL;
          continue;
        }
      uint64_t never, zero;
      zi_map_count (fine[k], size, 0, &never, &zero);
      o->fine->bits[k] = fine[k];
      o->fine->loaded[k] = size - never;
      o->fine->nonzero[k] = size - never - zero;
    }
}

/* Make DST (the union map of a group) at least GRANULES long at granule
   shift at least SHIFT; coarsening ORs neighbours together.  0 on failure.  */
static int
map_reserve (struct zi_map *dst, size_t size, unsigned shift)
{
  if (dst->bits && shift <= dst->shift && object_granules (size, dst->shift) <= dst->granules)
    return 1;
  unsigned nshift = shift > dst->shift || !dst->bits ? shift : dst->shift;
  size_t cover = size;
  if (dst->bits && (dst->granules << dst->shift) > cover)
    cover = dst->granules << dst->shift;
  while (object_granules (cover, nshift) > ZI_MAP_MAX_GRANULES)
    nshift++;
  size_t ng = object_granules (cover, nshift);
  uint64_t *nb = map_new (ng);
  if (!nb)
    return 0;
  struct zi_map old = *dst;
  dst->bits = nb;
  dst->granules = ng;
  dst->shift = nshift;
  if (old.bits)
    {
      zi_map_fold (dst, old.bits, old.granules << old.shift, old.shift);
      map_free (old.bits, old.granules);
    }
  return 1;
}

/* OR the map BITS (an object of SIZE bytes, granule shift SHIFT) into DST,
   offset by offset.  */
void
zi_map_fold (struct zi_map *dst, const uint64_t *bits, size_t size, unsigned shift)
{
  if (!bits || !map_reserve (dst, size, shift))
    return;
  size_t granules = object_granules (size, shift);
  if (dst->shift == shift)
    {
      for (size_t w = 0; w < map_words (granules); w++)
        if (bits[w])
          dst->bits[w] |= bits[w];   /* untouched map pages stay untouched */
      return;
    }
  unsigned d = dst->shift - shift;
  for (size_t g = 0; g < granules; g++)
    {
      uint64_t s = (bits[g / 32] >> (2 * (g % 32))) & 3;
      size_t to = g >> d;
      if (s)
        dst->bits[to / 32] |= s << (2 * (to % 32));
    }
}

/* O is gone (freed, unloaded): fold what its maps say into its group and
   free them.  Write lock held.  */
void
zi_object_bury (struct zi_object *o)
{
  struct zi_group *g = o->group;
  if (!g)
    return;
  g->dead_size += o->size;
  if (o->size > g->max_size)
    g->max_size = o->size;
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    {
      uint64_t never, zero;
      zi_object_count (o, k, &never, &zero);
      g->dead_never[k] += never;
      g->dead_zero[k] += zero;
      if (o->map[k])
        {
          zi_map_fold (&g->dead_map[k], o->map[k], o->size, o->shift);
          zi_object_map_release (o, k);
        }
    }
}

/* Add G to the list of all groups (any lock side held: lock-free).  */
void
zi_group_publish (struct zi_group *g)
{
  struct zi_group *head = __atomic_load_n (&zi_groups, __ATOMIC_ACQUIRE);
  do
    g->next = head;
  while (!__atomic_compare_exchange_n (&zi_groups, &head, g, 1, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
}

struct zi_object *
zi_object_at (uintptr_t addr)
{
  struct zi_object *o = zi_static_at (addr);
  return o ? o : zi_heap_at (addr);
}
