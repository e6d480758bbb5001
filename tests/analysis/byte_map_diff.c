/* byte_map_diff.c - report.json's byte maps (runtime/data/byte_map.c) against
   a plain writer: each granule's letter spelled out at every coarsening,
   the first coarsening with at most 65536 runs written run by run.

   Random maps of 0 to 5000 granules (any count, not a multiple of the 32
   in a map word), made of runs of random lengths, some of whole words of
   one state (which the writer skips a word at a time), with both
   encodings of "seen non-zero" (2 and 3); objects longer than their map
   (the rest never loaded) and maps without bits; and maps of a million
   granules alternating states, which only a coarser granule writes in
   65536 runs, some in long runs there (whole words skipped at the
   coarser granule); maps of just 65536 runs, one more or one less;
   and maps read straight from the shadow's states of
   objects at every alignment to its lines, with neighbours marked.  Exit
   status 0 when every map is written alike.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/data.h"
#include "data/shadow.h"
#include "random.h"

void zi_warn (const char *fmt, ...) { (void) fmt; }

#define MAX_RUNS 65536

/* The letter of map granule G: n beyond the map.  */
static char
letter (const struct zi_map *m, size_t g)
{
  if (!m->bits || g >= m->granules)
    return 'n';
  unsigned s = (m->bits[g / 32] >> (2 * (g % 32))) & 3;
  return s & 2 ? 'x' : s ? 'z' : 'n';
}

/* The reference: letters of output granules of 2^EXTRA map granules.  */
static char *
spell (const struct zi_map *m, unsigned shift, unsigned extra, size_t length, size_t *n)
{
  *n = (length + ((size_t) 1 << (shift + extra)) - 1) >> (shift + extra);
  char *out = malloc (*n + 1);
  for (size_t i = 0; i < *n; i++)
    {
      char c = 'n';
      for (size_t g = i << extra; g < (i + 1) << extra; g++)
        {
          char l = letter (m, g);
          if (l == 'x' || (l == 'z' && c == 'n'))
            c = l;
        }
      out[i] = c;
    }
  return out;
}

static char *
reference (const struct zi_map *m, unsigned shift, size_t length)
{
  for (unsigned extra = 0;; extra++)
    {
      size_t n, runs = 0;
      char *l = spell (m, shift, extra, length, &n);
      for (size_t i = 0; i < n; i++)
        runs += i == 0 || l[i] != l[i - 1];
      if (runs > MAX_RUNS)
        {
          free (l);
          continue;
        }
      char *out = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&out, &size);
      fprintf (f, "{\"granule\": %llu, \"length\": %zu, \"runs\": \"",
               1ull << (shift + extra), length);
      for (size_t i = 0; i < n;)
        {
          size_t j = i + 1;
          while (j < n && l[j] == l[i])
            j++;
          fprintf (f, "%zu%c", j - i, l[i]);
          i = j;
        }
      fputs ("\"}", f);
      fclose (f);
      free (l);
      return out;
    }
}

static void
set (struct zi_map *m, size_t g, unsigned s)
{
  m->bits[g / 32] &= ~(3ull << (2 * (g % 32)));
  m->bits[g / 32] |= (uint64_t) s << (2 * (g % 32));
}

static long bad;

/* Check the writer of map M, or (OBJECT_SIZE > 0) of the shadow's states
   of KIND at BASE, whose reference map is M.  */
static void
check_source (int iter, const struct zi_map *m, unsigned shift, size_t length, int kind,
              uintptr_t base, size_t object_size)
{
  char *got = NULL, *want = reference (m, shift, length);
  size_t size = 0;
  FILE *f = open_memstream (&got, &size);
  if (object_size)
    zi_write_object_map (f, kind, base, object_size, length);
  else
    zi_write_byte_map (f, m, shift, length);
  fclose (f);
  if (strcmp (got, want) && bad++ < 5)
    printf ("map %d (%zu granules, shift %u, length %zu):\n  got  %.200s\n  want %.200s\n", iter,
            m->granules, shift, length, got, want);
  free (got);
  free (want);
}

static void
check (int iter, const struct zi_map *m, unsigned shift, size_t length)
{
  check_source (iter, m, shift, length, 0, 0, 0);
}

int
main (void)
{
  rs = 0x2545f4914f6cdd1dull;
  for (int iter = 0; iter < 3000; iter++)
    {
      struct zi_map m = { NULL, rnd () % 5001, rnd () % 4 };
      int none = rnd () % 20 == 0;
      if (!none)
        {
          m.bits = calloc (m.granules / 32 + 1, sizeof *m.bits);
          for (size_t g = 0; g < m.granules;)
            {
              /* A run: short, or of whole words, of one state.  */
              size_t len = rnd () % 3 ? 1 + rnd () % 8 : 32 * (1 + rnd () % 4) + rnd () % 2;
              unsigned s = rnd () % 4;
              for (size_t k = 0; k < len && g < m.granules; k++, g++)
                set (&m, g, s == 3 && rnd () % 2 ? 2 : s);
            }
        }
      /* The object's length: its map's granules, a part of the last one,
         or more (never loaded beyond the map).  */
      size_t length = (m.granules << m.shift) - (m.granules && m.shift ? rnd () % (1u << m.shift) : 0);
      if (rnd () % 4 == 0)
        length += rnd () % 300;
      if (none)
        m.granules = 0;
      check (iter, &m, m.shift, length);
      free (m.bits);
    }
  /* Too many runs at the map's granule: coarser ones.  */
  for (int iter = 0; iter < 4; iter++)
    {
      struct zi_map m = { NULL, (1u << 20) + rnd () % 1000, 0 };
      m.bits = calloc (m.granules / 32 + 1, sizeof *m.bits);
      unsigned period = 1 + iter * 3;
      for (size_t g = 0; g < m.granules; g++)
        set (&m, g, (g / period) % 3 == 0 ? 1 : (g / period) % 3 == 1 ? 2 + rnd () % 2 : 0);
      check (3000 + iter, &m, 0, m.granules);
      free (m.bits);
    }
  /* Too many runs at the map's granule, few at a coarser one: blocks
     alternating two states every 2^period granules (x and z: x when
     coarse; z and n: z; x and n: x), blocks of one state, long or short,
     short random ones.  */
  for (int iter = 0; iter < 40; iter++)
    {
      struct zi_map m = { NULL, (1u << 20) + rnd () % 1000, 0 };
      m.bits = calloc (m.granules / 32 + 1, sizeof *m.bits);
      unsigned period = iter % 5;     /* 2^period granules each: coarsened period + 1 times */
      for (size_t g = 0; g < m.granules;)
        {
          unsigned kind = rnd () % 6, a = 2 + rnd () % 2, b = 1, len = 1 + rnd () % 3000;
          if (kind == 1)
            a = 1, b = 0;
          else if (kind == 2)
            b = 0;
          else if (kind == 3)
            b = a = rnd () % 4;
          else if (kind == 4)
            len = 1 + rnd () % 20;
          else if (kind == 5)
            b = a = rnd () % 4, len = 1 + rnd () % 12;
          for (unsigned k = 0; k < len && g < m.granules; k++, g++)
            set (&m, g, kind == 4 ? rnd () % 4 : (g >> period) % 2 ? a : b);
        }
      check (3004 + iter, &m, rnd () % 3, (m.granules << 2) + rnd () % 50);
      free (m.bits);
    }
  /* Run counts at the limit: MAX_RUNS - 1, MAX_RUNS and MAX_RUNS + 1
     runs, the last of them in some maps the never-loaded bytes past the
     map; runs of 1 to 70 granules, across map words, or of whole words.
     Runs counted one too many or too few pick the other granule.  */
  for (int iter = 0; iter < 12; iter++)
    {
      size_t runs = MAX_RUNS - 1 + iter % 3;
      int tail = iter / 3 % 2, words = iter >= 6;
      size_t map_runs = runs - tail;
      struct zi_map m = { NULL, 0, 0 };
      m.bits = calloc (map_runs * 70 / 32 + 2, sizeof *m.bits);
      unsigned last = 3;
      for (size_t r = 0; r < map_runs; r++)
        {
          unsigned s;
          do
            s = rnd () % 3;
          while (s == last || (tail && r == map_runs - 1 && s == 0));
          size_t len = words ? 32 * (1 + rnd () % 2) : 1 + rnd () % 70;
          for (size_t k = 0; k < len; k++)
            set (&m, m.granules++, s == 2 && rnd () % 2 ? 3 : s);
          last = s;
        }
      check (3044 + iter, &m, 0, m.granules + (tail ? 1 + rnd () % 100 : 0));
      free (m.bits);
    }
  /* Maps read from the shadow: objects at every alignment to its lines,
     with random marks, neighbours marked in their first and last lines,
     some longer maps than the object (never loaded beyond).  */
  if (zi_shadow_init () < 0)
    return 1;
  uintptr_t area = (uintptr_t) 9 << 32;
  for (int iter = 0; iter < 2000; iter++)
    {
      int kind = rnd () % 2;
      uintptr_t base = area + rnd () % 64;
      size_t size = 1 + rnd () % 3000, length = size + (rnd () % 4 ? 0 : rnd () % 100);
      struct zi_map m = { calloc (length / 32 + 1, sizeof (uint64_t)), length, 0 };
      zi_shadow_mark (kind, base - 16, 16, ~0ull, ~0ull);
      zi_shadow_mark (kind, base + size, 16, ~0ull, ~0ull);
      for (int k = rnd () % 200; k > 0; k--)
        {
          unsigned n = 1 + rnd () % 16;
          size_t off = rnd () % size;
          if (off + n > size)
            n = (unsigned) (size - off);
          uint64_t lo = rnd () % 2 ? rnd () >> (rnd () % 64) : 0, hi = rnd () >> (rnd () % 64);
          zi_shadow_mark (kind, base + off, n, lo, hi);
          for (unsigned b = 0; b < n; b++)
            {
              unsigned byte = (b < 8 ? lo >> (8 * b) : hi >> (8 * (b - 8))) & 0xff;
              size_t g = off + b;
              m.bits[g / 32] |= (uint64_t) (ZI_MAP_LOADED | (byte ? ZI_MAP_NONZERO : 0)) << (2 * (g % 32));
            }
        }
      check_source (4000 + iter, &m, 0, length, kind, base, size);
      zi_shadow_clear (kind, base - 16, size + 32);
      free (m.bits);
    }
  printf ("byte_map_diff: %ld difference(s)\n", bad);
  return bad != 0;
}
