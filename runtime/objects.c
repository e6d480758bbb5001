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
   that were loaded.  Maps of 64 KiB or more are mmap-ed, so pages of a map
   whose part of the object is never loaded cost nothing.

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
  uint64_t *spare = __atomic_exchange_n (&o->spare, NULL, __ATOMIC_ACQ_REL);
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

/* Free O's map of KIND (write lock held), unless it lives in O.  */
void
zi_object_map_release (struct zi_object *o, int kind)
{
  if (o->inline_kind != (unsigned) kind + 1)
    map_free (o->map[kind], object_granules (o->size, o->shift));
  else
    o->inline_kind = 0;
  o->map[kind] = NULL;
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
      zi_map_count (o->map[k], o->size, o->shift, &never, &zero);
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
