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
#include "data/data.h"
#include "data/shadow.h"

#define MAX_RUNS 65536

/* Where the map's words (32 granules of 2 bits) come from: a map's bits,
   or (M NULL) the shadow of KIND at BASE, a granule a byte.  GRANULES:
   those with states; beyond them everything is never loaded.  The last
   word read is kept: a run that starts in it reads it again.  */
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

/* The 2-bit fields of each output granule's first map granule in a map
   word, for output granules of 2^EXTRA map granules (EXTRA <= 5).  */
static const uint64_t firsts[6] = {
  0xffffffffffffffffull, 0x3333333333333333ull, 0x0303030303030303ull,
  0x0003000300030003ull, 0x0000000300000003ull, 0x0000000000000003ull
};

/* The letters of the output granules of 2^EXTRA (at most 32) map
   granules in the map word W, each in its first granule's 2 bits as 0
   (n), 1 (z) or 2 (x); the other granules' bits are garbage.  */
static uint64_t
word_letters (uint64_t w, unsigned extra)
{
  for (unsigned i = 0; i < extra; i++)
    w |= w >> (2u << i);
  uint64_t x = (w >> 1) & 0x5555555555555555ull, z = w & 0x5555555555555555ull;
  return x << 1 | (z & ~x);
}

/* word_letters of map word W of SRC, granules from SRC->granules on
   never loaded whatever the word holds (W * 32 < SRC->granules).  */
static uint64_t
letters_at (struct source *src, size_t w, unsigned extra)
{
  uint64_t word = word_at (src, w);
  size_t valid = src->granules - 32 * w;
  if (valid < 32)
    word &= (1ull << (2 * valid)) - 1;
  return word_letters (word, extra);
}

/* The end of the run of output granules (of 2^EXTRA map granules, GRANULES
   of them) that starts at I, and its *LETTER (read once: the shadow may
   change while it is read).  Up to 32 map granules are compared at a
   time (output granules of at most 32 map granules fill words exactly):
   a large object's map has hundreds of millions of granules, and one of
   integers below 256 a run every few bytes.  */
static size_t
run_end (struct source *src, size_t i, unsigned extra, size_t granules, char *letter)
{
  size_t g = i << extra;
  if (extra > 5 || g >= src->granules)
    {
      char c = *letter = letters[coarse_state (src, i, extra)];
      if (g >= src->granules)
        return granules;                /* beyond the map: never loaded */
      size_t j = i + 1;
      while (j < granules && letters[coarse_state (src, j, extra)] == c)
        j++;
      return j;
    }
  size_t w = g / 32;
  uint64_t lw = letters_at (src, w, extra);
  unsigned code = (unsigned) (lw >> (2 * (g % 32))) & 3;
  char c = *letter = "nzx"[code];
  uint64_t pattern = code * 0x5555555555555555ull;
  uint64_t diff = (lw ^ pattern) & firsts[extra] & (~0ull << (2 * (g % 32)));
  while (!diff)
    {
      w++;
      size_t j = (32 * w) >> extra;
      if (j >= granules)
        return granules;
      if (32 * w >= src->granules)
        return c == 'n' ? granules : j;     /* beyond the map: never loaded */
      diff = (letters_at (src, w, extra) ^ pattern) & firsts[extra];
    }
  size_t j = (32 * w + (size_t) __builtin_ctzll (diff) / 2) >> extra;
  return j < granules ? j : granules;
}

/* The number of runs of output granules of 2^EXTRA map granules
   (GRANULES of them), or some number above LIMIT: letters compared with
   their predecessors a map word at a time, whatever the runs' lengths.  */
static size_t
count_runs (struct source *src, unsigned extra, size_t granules, size_t limit)
{
  size_t runs = 0;
  if (extra > 5)
    {
      char c;
      for (size_t i = 0; i < granules && runs <= limit; i = run_end (src, i, extra, granules, &c))
        runs++;
      return runs;
    }
  unsigned step = 2u << extra;          /* bits per output granule */
  size_t fields = granules << extra;    /* map granules the output covers */
  size_t end = src->granules < fields ? src->granules : fields;
  uint64_t prev = 3;                    /* no letter: the first granule starts a run */
  size_t w = 0;
  for (; 32 * w < end && runs <= limit; w++)
    {
      uint64_t lw = letters_at (src, w, extra);
      uint64_t before = (step < 64 ? lw << step : 0) | prev;
      uint64_t d = (lw ^ before) & firsts[extra];
      if (fields - 32 * w < 32)
        d &= (1ull << (2 * (fields - 32 * w))) - 1;
      runs += (size_t) __builtin_popcountll ((d | d >> 1) & 0x5555555555555555ull);
      prev = (lw >> (64 - step)) & 3;
    }
  /* Output granules past the map's words are never loaded: one more run
     unless the last letter was n.  */
  if (32 * w < fields && prev != 0)
    runs++;
  return runs;
}

static void
write_map (FILE *f, struct source *src, unsigned shift, size_t length)
{
  unsigned extra = 0;
  for (;; extra++)
    {
      size_t granules = (length + ((size_t) 1 << (shift + extra)) - 1) >> (shift + extra);
      if (count_runs (src, extra, granules, MAX_RUNS) <= MAX_RUNS)
        break;
    }
  size_t granules = (length + ((size_t) 1 << (shift + extra)) - 1) >> (shift + extra);
  fprintf (f, "{\"granule\": %llu, \"length\": %zu, \"runs\": \"",
           1ull << (shift + extra), length);
  for (size_t i = 0; i < granules;)
    {
      /* "<count><letter>", up to 65536 of them: not through fprintf.  */
      char run[24], *p = run + sizeof run;
      size_t j = run_end (src, i, extra, granules, --p);
      size_t count = j - i;
      do
        *--p = (char) ('0' + count % 10);
      while (count /= 10);
      fwrite (p, 1, (size_t) (run + sizeof run - p), f);
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
