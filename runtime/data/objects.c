/* objects.c - what the data-centric analysis knows about memory: the lock
   over all objects, their byte states, and address -> object lookup.

   The states of an object's bytes (never loaded / loaded, always zero /
   seen non-zero, per kind) live in the shadow (shadow.h), byte-exact
   whatever the object's size, so an object costs its struct and nothing
   per byte; only shadow pages of lines that loads touched take memory.
   When an object goes away (free, dlclose) its never-loaded and
   always-zero bytes and its states go to its group, and its range of the
   shadow is cleared; realloc moves the states of the bytes that survive.  Groups and report records keep byte maps of 2 bits
   per granule (struct zi_map):
       00  never loaded      01  loaded, always zero      11  seen non-zero
   so folding the states of several objects (a heap group's allocations)
   is a bitwise OR.  A granule is one byte, except in maps longer than
   ZI_MAP_MAX_GRANULES bytes, whose granule is the smallest power of two
   that keeps them at ZI_MAP_MAX_GRANULES granules (64 MiB).

   The lookup structure costs memory per object, not per byte: statics.c
   keeps a sorted array of static objects; heap.c finds live heap blocks
   of up to ZI_CHUNK_MAX bytes in chunks.c's hash tables, larger ones in
   a treap.  */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "data/data.h"
#include "data/shadow.h"

pthread_rwlock_t zi_objects_lock;
struct zi_group *zi_groups;
int zi_data_on;
/* The same for generated code, which runs its data path only then.  */
int __zeroinst_data_on __attribute__ ((visibility ("default")));
/* Data slots filled before the last change are stale (object_cache.c).  */
uint64_t __zeroinst_gen __attribute__ ((visibility ("default"))) = 1;

uint64_t zi_stale_all_gen;

void
zi_dslots_stale (struct zi_group *g)
{
  /* A lookup that reads the new generation must not read the old value
     of this one (still_current): the highest value first, so that no
     slot is kept while the generation changes.  */
  uint64_t *since = g ? &g->end_gen : &zi_stale_all_gen;
  __atomic_store_n (since, UINT64_MAX, __ATOMIC_RELAXED);
  uint64_t now = __atomic_add_fetch (&__zeroinst_gen, 1, __ATOMIC_RELEASE);
  __atomic_store_n (since, now, __ATOMIC_RELEASE);
}

void
zi_dslots_stale_stack (void)
{
  __atomic_fetch_add (&__zeroinst_gen, 1, __ATOMIC_RELEASE);
}

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

/* Called once the options are read (core/lifecycle.c).  */
void
zi_objects_init (void)
{
  init_lock ();
  if (!zi_config.mode_data)
    return;
  if (zi_shadow_init () < 0)
    {
      /* Said why (shadow.c); the report is then a code-centric one.  */
      zi_config.mode_code = 1;
      return;
    }
  zi_statics_refresh ();
  __atomic_store_n (&zi_data_on, 1, __ATOMIC_RELEASE);
  __atomic_store_n (&__zeroinst_data_on, 1, __ATOMIC_RELEASE);
}

void
zi_objects_after_fork_child (void)
{
  init_lock ();
}

/* In a forked child (core/lifecycle.c): no group has counts, states or
   buried objects.  A group's allocations stay: the blocks allocated
   through its path since the program started, the parent's included, as
   the blocks the child inherits are.  */
void
zi_groups_forget (void)
{
  for (struct zi_group *g = zi_groups; g; g = g->next)
    {
      memset (g->c, 0, sizeof g->c);
      g->dead_size = 0;
      g->max_size = 0;
      memset (g->dead_never, 0, sizeof g->dead_never);
      memset (g->dead_zero, 0, sizeof g->dead_zero);
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        {
          struct zi_map *m = &g->dead_map[k];
          zi_map_release (m->bits, m->granules << m->shift, m->shift);
          memset (m, 0, sizeof *m);
        }
    }
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

void
zi_map_release (uint64_t *bits, size_t size, unsigned shift)
{
  map_free (bits, object_granules (size, shift));
}

/* O is loaded as KIND: its states are in the shadow from now on.  At
   the first such load of a large object in a threaded program its
   shadow pages are made writable (zi_shadow_populate).  */
void
zi_object_touch (struct zi_object *o, int kind)
{
  unsigned bit = 1u << kind;
  if (!((__atomic_load_n (&o->word, __ATOMIC_RELAXED) >> ZI_OBJECT_KINDS_SHIFT) & bit)
      && !((__atomic_fetch_or (&o->word, (uint64_t) bit << ZI_OBJECT_KINDS_SHIFT, __ATOMIC_RELAXED)
            >> ZI_OBJECT_KINDS_SHIFT) & bit)
      && o->size >= ZI_POPULATE_MIN && __atomic_load_n (&zi_threaded, __ATOMIC_RELAXED))
    zi_shadow_populate (kind, o->base, o->size);
}

void
zi_object_count (const struct zi_object *o, int kind, uint64_t *never, uint64_t *zero)
{
  if (!(o->kinds & (1u << kind)))
    {
      *never = o->size;
      *zero = 0;
      return;
    }
  zi_shadow_count (kind, o->base, o->size, never, zero);
}

/* O's bytes move to BASE and its size becomes SIZE (write lock held): the
   bytes that survive keep their states, new bytes start never loaded.  */
void
zi_object_resize (struct zi_object *o, uintptr_t base, size_t size)
{
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    if (o->kinds & (1u << k))
      {
        /* The new range's group ids come with its next lookup.  */
        zi_gids_clear (k, o->base, o->size);
        zi_shadow_resize (k, o->base, o->size, base, size);
      }
  /* After the ids: a slot that reads the generation, then an entry,
     never takes the old range's ids for current.  */
  if (o->kinds)
    zi_dslots_stale (o->group);
  o->base = base;
  o->size = size;
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

/* The 16 2-bit states of PAT OR-ed in groups of 2^SHIFT (SHIFT 1..3),
   packed: 16 >> SHIFT states.  */
static inline uint32_t
coarsen (uint32_t pat, unsigned shift)
{
  for (unsigned i = 0; i < shift; i++)
    {
      uint32_t x = (pat | pat >> 2) & 0x33333333u;   /* pairs, in the even places */
      x = (x | x >> 2) & 0x0f0f0f0fu;
      x = (x | x >> 4) & 0x00ff00ffu;
      pat = (x | x >> 8) & 0xffffu;
    }
  return pat;
}

/* The bits of the bytes of [BASE, END) in the line at LINE.  */
static inline uint32_t
line_bytes (uintptr_t base, uintptr_t end, uintptr_t line)
{
  uint32_t in = 0xffff;
  if (line < base)
    in &= 0xffffu << (base - line);
  if (end - line < 16)
    in &= (1u << (end - line)) - 1;
  return in;
}

/* The states of the bytes IN of the line at LINE (shadow word V) into
   DST, a map of byte granules of an object at BASE: the line's 16 map
   entries at once.  */
static inline void
fold_line (struct zi_map *dst, uintptr_t base, uintptr_t line, uint32_t v, uint32_t in)
{
  uint64_t pat = zi_shadow_states (v, in);
  size_t bit;
  if (line < base)
    {
      pat >>= 2 * (base - line);
      bit = 0;
    }
  else
    bit = 2 * (line - base);
  dst->bits[bit / 64] |= pat << (bit % 64);
  if (bit % 64 > 32 && pat >> (64 - bit % 64))
    dst->bits[bit / 64 + 1] |= pat >> (64 - bit % 64);
}

/* The lines [LINE, TO) of O (whole lines of it) into DST, whose granules
   are whole lines (shift >= 4) from O's start (line-aligned): the words
   of a granule OR-ed, its state set once.  A large object has millions
   of lines and a coarse map.  */
static void
fold_whole_lines (struct zi_map *dst, const struct zi_object *o, int kind, uintptr_t line,
                  uintptr_t to)
{
  unsigned shift = dst->shift;
  for (uintptr_t stop; line < to; line = stop)
    {
      const uint32_t *w = zi_shadow_words (kind, line, &stop);
      if (stop > to)
        stop = to;
      while (w && line < stop)
        {
          size_t g = (line - o->base) >> shift;
          uintptr_t gend = o->base + ((uintptr_t) (g + 1) << shift);
          if (gend > stop)
            gend = stop;
          uint32_t v = 0;
          for (; line < gend; line += 16)
            v |= __atomic_load_n (w++, __ATOMIC_RELAXED);
          v = zi_shadow_swap (v);
          uint64_t st = (v & 0xffff ? ZI_MAP_LOADED : 0) | (v >> 16 ? ZI_MAP_NONZERO : 0);
          dst->bits[g / 32] |= st << (2 * (g % 32));
        }
    }
}

/* OR the states of object O's bytes of KIND into DST, offset by offset:
   a line of the shadow at a time into a map of byte granules (the states
   of a line are its 16 map entries once interleaved), else granule by
   granule; the lines from FROM to TO (16-aligned, or O's ends) only.  DST
   covers O (map_reserve).  */
static void
fold_lines (struct zi_map *dst, const struct zi_object *o, int kind, uintptr_t from, uintptr_t to)
{
  unsigned shift = dst->shift;
  uintptr_t end = o->base + o->size, line = from & ~(uintptr_t) 15, stop = line, first = 0;
  const uint32_t *words = NULL;
  if (shift >= 4 && !(o->base & 15))
    {
      uintptr_t whole = to < (end & ~(uintptr_t) 15) ? to : end & ~(uintptr_t) 15;
      if (line < whole)
        {
          fold_whole_lines (dst, o, kind, line, whole);
          line = stop = whole;
        }
    }
  for (; line < to; line += 16)
    {
      if (line == stop)
        {
          /* The next region's words; none: skip the region.  */
          if (!(words = zi_shadow_words (kind, line, &stop)))
            {
              line = stop - 16;
              continue;
            }
          first = line;
        }
      uint32_t v = __atomic_load_n (&words[(line - first) / 16], __ATOMIC_RELAXED);
      if (!v)
        continue;
      v = zi_shadow_swap (v);
      if (shift == 0)
        {
          fold_line (dst, o->base, line, v, line_bytes (o->base, end, line));
          continue;
        }
      if (!(o->base & 15))
        {
          /* A line-aligned object (a large one's map is coarse): its
             lines hold whole granules, or lie in one.  */
          if (end - line < 16)
            v &= ((1u << (end - line)) - 1) * 0x10001u;
          size_t g = (line - o->base) >> shift;
          uint64_t st;
          if (shift >= 4)
            st = (v & 0xffff ? ZI_MAP_LOADED : 0) | (v >> 16 ? ZI_MAP_NONZERO : 0);
          else
            st = coarsen (zi_shadow_states (v, 0xffff), shift);
          dst->bits[g / 32] |= st << (2 * (g % 32));
          continue;
        }
      /* Coarse granules: the pieces of the line in one granule each.  */
      uintptr_t at = line > o->base ? line : o->base, lend = line + 16 < end ? line + 16 : end;
      while (at < lend)
        {
          size_t g = (at - o->base) >> shift;
          uintptr_t next = o->base + ((g + 1) << shift);
          if (next > lend)
            next = lend;
          uint32_t m = ((1u << (next - line)) - 1) & ~((1u << (at - line)) - 1);
          uint64_t st = (v & m ? ZI_MAP_LOADED : 0) | (v >> 16 & m ? ZI_MAP_NONZERO : 0);
          dst->bits[g / 32] |= st << (2 * (g % 32));
          at = next;
        }
    }
}

/* All of O's states of KIND into DST (fold_lines).  */
void
zi_object_fold (struct zi_map *dst, const struct zi_object *o, int kind)
{
  if ((o->kinds & (1u << kind)) && map_reserve (dst, o->size, 0))
    fold_lines (dst, o, kind, o->base, o->base + o->size);
}

/* Kind KIND of O, a small object of one shadow region, into DST, a map of
   byte granules that covers it: each line read once, its bytes counted
   (*NEVER, *ZERO as zi_object_count), their states folded (as
   fold_lines) and cleared (as zi_shadow_clear_part).  A program of
   millions of small blocks frees as many: one pass instead of three.  */
#define ZI_BURY_SMALL ((size_t) 64 << 10)
static void
bury_small (struct zi_map *dst, const struct zi_object *o, int kind, uint64_t *never,
            uint64_t *zero)
{
  uintptr_t base = o->base, end = base + o->size, line = base & ~(uintptr_t) 15, stop;
  uint32_t *w = zi_shadow_words (kind, line, &stop);
  uint64_t loaded = 0, nonzero = 0;
  for (; w && line < end; line += 16, w++)
    {
      uint32_t v = zi_shadow_swap (__atomic_load_n (w, __ATOMIC_RELAXED));
      uint32_t in = line_bytes (base, end, line);
      if (!(v & (in | in << 16)))
        continue;
      loaded += zi_bits16 (v & in);
      nonzero += zi_bits16 ((v >> 16) & in);
      fold_line (dst, base, line, v, in);
      if (in == 0xffff)
        __atomic_store_n (w, 0, __ATOMIC_RELAXED);
      else
        __atomic_fetch_and (w, ~zi_shadow_swap (in | in << 16), __ATOMIC_RELAXED);
    }
  *never = o->size - loaded;
  *zero = loaded - nonzero;
}

/* O is gone (freed, unloaded): fold its states into its group and clear
   them.  Write lock held.  */
void
zi_object_bury (struct zi_object *o)
{
  struct zi_group *g = o->group;
  if (!g)
    return;
  g->dead_size += o->size;
  if (o->size > g->max_size)
    g->max_size = o->size;
  uintptr_t last = o->base + (o->size ? o->size - 1 : 0);
  int one_region = !((o->base ^ last) >> ZI_SHADOW_REGION_BITS);
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    {
      int loaded = (o->kinds >> k) & 1, ok = 0;
      if (loaded)
        {
          zi_gids_clear (k, o->base, o->size);
          ok = map_reserve (&g->dead_map[k], o->size, 0);
        }
      int small = ok && !g->dead_map[k].shift && one_region && o->size <= ZI_BURY_SMALL;
      uint64_t never, zero;
      if (small)
        bury_small (&g->dead_map[k], o, k, &never, &zero);
      else
        zi_object_count (o, k, &never, &zero);
      g->dead_never[k] += never;
      g->dead_zero[k] += zero;
      if (!loaded || small)
        continue;
      /* 4 MiB of addresses at a time, their shadow (1 MiB) cleared and
         given back right after: a large object's map and its shadow are
         never both whole in memory.  */
      uintptr_t end = o->base + o->size, piece = (uintptr_t) 4 << 20;
      for (uintptr_t from = o->base, to; from < end; from = to)
        {
          to = (from | (piece - 1)) + 1;
          if (to > end)
            to = end;
          if (ok)
            fold_lines (&g->dead_map[k], o, k, from, to);
          zi_shadow_clear_part (k, o->base, o->size, from, to);
        }
    }
  /* After the ids, as in zi_object_resize.  */
  if (o->kinds)
    zi_dslots_stale (g);
  o->kinds = 0;
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

int
zi_object_find (uintptr_t addr, struct zi_block *b, struct zi_static_gap *gap)
{
  /* Statics first: a heap block inside a static object
     (the pool of a program's own allocator, linked -static) counts for
     the static object.  */
  struct zi_object *o = gap && zi_in_static_gap (gap, addr) ? NULL : zi_static_at (addr, gap);
  if (!o && zi_chunks_find (addr, b))
    return 1;
  if (!o)
    o = zi_heap_big_at (addr);
  if (!o)
    return 0;
  *b = (struct zi_block) { o, o->base, o->size, o->group,
                           (unsigned) (__atomic_load_n (&o->word, __ATOMIC_RELAXED)
                                       >> ZI_OBJECT_KINDS_SHIFT), NULL };
  return 1;
}

void
zi_block_touch_new (struct zi_block *b, int kind)
{
  /* The object first: a slot's bit says the object has it.  */
  zi_object_touch (b->o, kind);
  if (b->slot)
    zi_chunks_touch (b, kind);
  b->kinds |= 1u << kind;
}
