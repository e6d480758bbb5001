/* fold_diff.c - objects' byte states folded into byte maps
   (runtime/data/objects.c: zi_object_fold, zi_object_count, zi_object_bury,
   zi_object_resize) against per-byte references.

   Objects at every alignment relative to the shadow's 16-byte lines, of
   odd sizes, some across the end of a 64 MiB region of the shadow, get
   random marks (runtime/data/shadow.h); then each is folded
   into a group map, as at a report, and compared entry by entry with the
   reference's states.  Maps of byte granules take the line-at-a-time
   path; a group whose map is coarse (granules of 2 to 64 bytes, as after
   an object above 256 MiB) takes the granule-by-granule path, or for
   granules of whole lines a line-at-a-time one: there an entry is the OR
   of its bytes' states.  Burying an object adds its never-loaded and
   always-zero bytes and its states to its group (4 MiB of addresses at a
   time: objects across a region's end cross such a piece too) and leaves
   its range of the shadow clear.
   Exit status 0 when everything agrees.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/data.h"
#include "data/shadow.h"
#include "random.h"

/* What objects.c needs of the rest of the runtime.  */
struct zi_config zi_config;
void zi_warn (const char *fmt, ...) { (void) fmt; }
void zi_statics_refresh (void) {}
struct zi_object *zi_heap_big_at (uintptr_t addr) { (void) addr; return NULL; }
uint64_t zi_statics_gen;
int zi_threaded;
struct zi_object *zi_static_at (uintptr_t addr, struct zi_static_gap *gap)
{ (void) addr; (void) gap; return NULL; }
int zi_chunks_find (uintptr_t addr, struct zi_block *b) { (void) addr; (void) b; return 0; }
void zi_chunks_touch (const struct zi_block *b, int kind) { (void) b; (void) kind; }

static long bad;

static unsigned
map_state (const struct zi_map *m, size_t g)
{
  return g < m->granules ? (unsigned) (m->bits[g / 32] >> (2 * (g % 32))) & 3 : 0;
}

int
main (void)
{
  rs = 0x5851f42d4c957f2dull;
  if (zi_shadow_init () < 0)
    return 1;
  uintptr_t area = (uintptr_t) 7 << 32;
  for (int iter = 0; iter < 4000; iter++)
    {
      struct zi_group g;
      memset (&g, 0, sizeof g);
      struct zi_object o = { 0 };
      o.base = area + rnd () % 64;
      o.size = 1 + (rnd () % 4 ? rnd () % 100 : rnd () % 5000);
      if (rnd () % 4 == 0)
        /* Across the end of a region: the walk takes the next region's
           words (or skips a region that has none).  */
        o.base = area + ((uintptr_t) 1 << ZI_SHADOW_REGION_BITS) - rnd () % o.size;
      o.group = &g;
      int kind = rnd () % 2;
      unsigned coarse = rnd () % 3 ? 0 : 1 + rnd () % 6;
      if (coarse)
        {
          /* Folding a map of granule 1 << COARSE into the group's map
             makes it that coarse (as a group's largest object does).  */
          uint64_t empty = 0;
          zi_map_fold (&g.dead_map[kind], &empty, (size_t) 1 << coarse, coarse);
        }
      unsigned char *ref = calloc (o.size, 1);
      int marks = rnd () % 3 ? (int) (rnd () % 40) : 0;
      if (marks)
        zi_object_touch (&o, kind);
      for (int k = 0; k < marks; k++)
        {
          unsigned n = 1 + rnd () % 16;
          size_t off = rnd () % o.size;
          if (off + n > o.size)
            n = (unsigned) (o.size - off);
          uint64_t lo = rnd () % 2 ? rnd () >> (rnd () % 64) : 0, hi = rnd () >> (rnd () % 64);
          zi_shadow_mark (kind, o.base + off, n, lo, hi);
          for (unsigned b = 0; b < n; b++)
            ref[off + b] |= ZI_MAP_LOADED
                            | (((b < 8 ? lo >> (8 * b) : hi >> (8 * (b - 8))) & 0xff) ? ZI_MAP_NONZERO : 0);
        }
      /* Neighbours in the object's first and last lines (packed static
         objects): their states are not the object's.  */
      int neighbours = rnd () % 2;
      if (neighbours)
        {
          zi_shadow_mark (kind, o.base - 16, 16, ~0ull, ~0ull);
          zi_shadow_mark (kind, o.base + o.size, 16, ~0ull, ~0ull);
        }
      /* Folded as at a report, or only by the burial below (which folds
         a piece at a time, clearing each piece's shadow after it): the
         map is checked after the burial.  */
      struct zi_map *m = &g.dead_map[kind];
      if (rnd () % 2)
        zi_object_fold (m, &o, kind);
      uint64_t never = 0, zero = 0;
      for (size_t b = 0; b < o.size; b++)
        never += !ref[b], zero += ref[b] == ZI_MAP_LOADED;
      /* Bury it: counts and states to the group, states gone from the
         shadow.  */
      zi_object_bury (&o);
      if ((g.dead_never[kind] != never || g.dead_zero[kind] != zero) && bad++ < 5)
        printf ("iter %d: buried never %lu/%lu zero %lu/%lu\n", iter, g.dead_never[kind], never,
                g.dead_zero[kind], zero);
      for (size_t b = 0; b < o.size; b++)
        if (zi_shadow_state (kind, o.base + b) && bad++ < 5)
          printf ("iter %d: byte %zu still has a state after the burial\n", iter, b);
      unsigned shift = m->bits ? m->shift : 0;
      if (coarse && shift != coarse && bad++ < 5)
        printf ("iter %d: map granule shift %u, expected %u\n", iter, shift, coarse);
      for (size_t gr = 0; gr < (o.size >> shift) + 1; gr++)
        {
          unsigned want = 0;
          for (size_t b = gr << shift; b < ((gr + 1) << shift) && b < o.size; b++)
            want |= ref[b];
          unsigned got = m->bits ? map_state (m, gr) : 0;
          if (got != want && bad++ < 5)
            printf ("iter %d: base %#lx size %zu shift %u: granule %zu is %u, expected %u\n", iter,
                    (unsigned long) o.base, o.size, shift, gr, got, want);
        }
      if (neighbours)
        {
          zi_shadow_clear (kind, o.base - 16, 16);
          zi_shadow_clear (kind, o.base + o.size, 16);
        }
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        zi_map_release (g.dead_map[k].bits, g.dead_map[k].granules << g.dead_map[k].shift,
                        g.dead_map[k].shift);
      free (ref);
    }
  printf ("%ld mismatches\n", bad);
  return bad != 0;
}
