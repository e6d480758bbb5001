/* byte_map.c - an object's byte map as report.json writes it.

   {"granule": G, "length": L, "runs": R}.  R is the map of the object's
   first L bytes as maximal runs "<count><state>", counts in granules of
   G bytes, states n (never loaded), z (loaded, always zero), x (seen
   non-zero): "1x7z1x7z16n" is two 8-byte integers below 256, then 16
   bytes never loaded.  A map with more than MAX_RUNS runs is written at
   twice the granule (states OR-ed: x wins over z, z over n) until it has
   no more; its counts stay exact.

   The map comes from a group's map (struct zi_map), or, for a record of
   one live object at the granule of a byte, straight from the shadow: a
   large array's record then needs no map as large as its shadow.  */
#include <stdio.h>
#include "runtime.h"
#include "shadow.h"

#define MAX_RUNS 65536

/* Where the map's words (32 granules of 2 bits) come from: a map's bits,
   or (M NULL) the shadow of KIND at BASE, a granule a byte.  GRANULES:
   those with states; beyond them everything is never loaded.  The last
   word read is kept: the writer goes granule by granule.  */
struct source {
  const struct zi_map *m;
  int kind;
  uintptr_t base;
  size_t granules;
  size_t cached;                /* index + 1 of WORD; 0: none */
  uint64_t word;
};

/* Word W of SRC (W * 32 < SRC->granules).  */
static uint64_t
word_at (struct source *src, size_t w)
{
  if (src->m)
    return src->m->bits[w];
  if (src->cached == w + 1)
    return src->word;
  /* States past the object's end are read too (a neighbour's): the
     writer never looks at granules from SRC->granules on.  */
  uintptr_t a = src->base + 32 * w;
  uint64_t v = 0;
  if (!(a & 15))
    for (unsigned i = 0; i < 2; i++)
      v |= (uint64_t) zi_shadow_states (zi_shadow_line (src->kind, a + 16 * i), 0xffff) << (32 * i);
  else
    for (unsigned k = 0; k < 32; k++)
      v |= (uint64_t) zi_shadow_state (src->kind, a + k) << (2 * k);
  src->cached = w + 1;
  src->word = v;
  return v;
}

static unsigned
state_at (struct source *src, size_t g)
{
  if (g >= src->granules)
    return 0;
  return (unsigned) (word_at (src, g / 32) >> (2 * (g % 32))) & 3;
}

/* State of output granule I of 2^EXTRA map granules.  */
static unsigned
coarse_state (struct source *src, size_t i, unsigned extra)
{
  unsigned s = 0;
  for (size_t g = i << extra; g < ((i + 1) << extra) && g < src->granules; g++)
    s |= state_at (src, g);
  return s;
}

static const char letters[4] = { 'n', 'z', 'x', 'x' };

/* Do the output granules of 2^EXTRA (at most 32) map granules in the
   map word W all have letter C?  */
static int
word_all (uint64_t w, char c, unsigned extra)
{
  static const uint64_t starts[6] = {   /* each output granule's first map granule */
    0x5555555555555555ull, 0x1111111111111111ull, 0x0101010101010101ull,
    0x0001000100010001ull, 0x0000000100000001ull, 0x0000000000000001ull
  };
  uint64_t x = (w >> 1) & 0x5555555555555555ull, z = w & 0x5555555555555555ull;
  if (c == 'n')
    return w == 0;
  if (c == 'z' && x)
    return 0;
  /* Each output granule's states OR-ed into its first map granule.  */
  uint64_t g = c == 'x' ? x : z;
  for (unsigned i = 0; i < extra; i++)
    g |= g >> (2u << i);
  return (g & starts[extra]) == starts[extra];
}

/* The end of the run of output granules (of 2^EXTRA map granules, GRANULES
   of them) that starts at I, and its *LETTER (read once: the shadow may
   change while it is read).  Whole words of the map (32 map granules)
   are skipped where they are one run: a large object's map has hundreds
   of millions of granules.  */
static size_t
run_end (struct source *src, size_t i, unsigned extra, size_t granules, char *letter)
{
  char c = *letter = letters[coarse_state (src, i, extra)];
  size_t j = i + 1, per_word = extra <= 5 ? (size_t) 32 >> extra : 0;
  while (j < granules)
    {
      size_t g = j << extra;
      if (g >= src->granules)
        return c == 'n' ? granules : j;     /* beyond the map: never loaded */
      if (per_word && g % 32 == 0 && g + 32 <= src->granules
          && word_all (word_at (src, g / 32), c, extra))
        {
          j += per_word;
          continue;
        }
      if (letters[coarse_state (src, j, extra)] != c)
        break;
      j++;
    }
  return j < granules ? j : granules;
}

static void
write_map (FILE *f, struct source *src, unsigned shift, size_t length)
{
  unsigned extra = 0;
  for (;; extra++)
    {
      size_t granules = (length + ((size_t) 1 << (shift + extra)) - 1) >> (shift + extra);
      size_t runs = 0;
      char c;
      for (size_t i = 0; i < granules && runs <= MAX_RUNS; i = run_end (src, i, extra, granules, &c))
        runs++;
      if (runs <= MAX_RUNS)
        break;
    }
  size_t granules = (length + ((size_t) 1 << (shift + extra)) - 1) >> (shift + extra);
  fprintf (f, "{\"granule\": %llu, \"length\": %zu, \"runs\": \"",
           1ull << (shift + extra), length);
  for (size_t i = 0; i < granules;)
    {
      char c;
      size_t j = run_end (src, i, extra, granules, &c);
      fprintf (f, "%zu%c", j - i, c);
      i = j;
    }
  fputs ("\"}", f);
}

void
zi_write_byte_map (FILE *f, const struct zi_map *m, unsigned shift, size_t length)
{
  struct source src = { m, 0, 0, m->bits ? m->granules : 0, 0, 0 };
  write_map (f, &src, shift, length);
}

void
zi_write_object_map (FILE *f, int kind, uintptr_t base, size_t size, size_t length)
{
  struct source src = { NULL, kind, base, size < length ? size : length, 0, 0 };
  write_map (f, &src, 0, length);
}
