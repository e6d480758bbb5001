/* blocks.c - millions of small heap blocks: a store of sparse records,
   each its own 68-byte malloc (the shape of a dictionary of small structs,
   a parser's nodes, an object-per-entity simulation).

   Kernel.  n records of 17 uint32_t words: a key, and 16 value words of
   which two are non-zero (the rest could be a sparse list).  Three passes
   read every record in a scattered order (the keys through an index
   array, values summed), then a quarter of the records are freed and
   allocated again with new values (churn: the allocator hands the same
   addresses to new blocks), and two more passes read them.  The output is
   a checksum of the sums.

   Redundant zeros zeroinst should find:
   - 14 of the 16 value words of every record are zero (whole zero
     elements), and the non-zero ones are below 2^16: two zero high bytes;
   - data-centric: the records' allocation paths, each with millions of
     allocations of 68 bytes, 56 of them always zero.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n, the
   number of records.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS 17

static long
problem_size (int argc, char **argv, long quick, long dflt)
{
  const char *s = argc > 1 ? argv[1] : getenv ("EXAMPLE_SIZE");
  if (!s || !strcmp (s, "default"))
    return dflt;
  if (!strcmp (s, "quick"))
    return quick;
  char *end;
  long v = strtol (s, &end, 10);
  if (end == s || *end || v <= 0)
    {
      fprintf (stderr, "usage: %s [quick|default|N]\n", argv[0]);
      exit (2);
    }
  return v;
}

static uint64_t
mix64 (uint64_t z)
{
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint32_t *
new_record (long i, uint64_t salt)
{
  uint32_t *r = malloc (WORDS * sizeof *r);
  if (!r)
    {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  memset (r, 0, WORDS * sizeof *r);
  uint64_t h = mix64 ((uint64_t) i ^ salt);
  r[0] = (uint32_t) i;
  r[1 + h % 16] = (uint32_t) (h >> 32) & 0xffff;
  r[1 + (h >> 8) % 16] += (uint32_t) (h >> 48) | 1;
  return r;
}

/* One pass: every record once, in the order of ORDER.  */
static uint64_t
pass (uint32_t **recs, const uint32_t *order, long n)
{
  uint64_t sum = 0;
  for (long k = 0; k < n; k++)
    {
      const uint32_t *r = recs[order[k]];
      uint64_t s = r[0];
      for (int w = 1; w < WORDS; w++)
        s += r[w];
      sum = sum * 31 + s;
    }
  return sum;
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 100000, 2000000);
  uint32_t **recs = malloc (n * sizeof *recs);
  uint32_t *order = malloc (n * sizeof *order);
  if (!recs || !order)
    {
      fprintf (stderr, "out of memory\n");
      return 1;
    }
  for (long i = 0; i < n; i++)
    recs[i] = new_record (i, 0);
  /* A scattered order: a random permutation (Fisher-Yates).  */
  for (long i = 0; i < n; i++)
    order[i] = (uint32_t) i;
  for (long i = n - 1; i > 0; i--)
    {
      long j = (long) (mix64 ((uint64_t) i * 7) % (uint64_t) (i + 1));
      uint32_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  uint64_t check = 0;
  for (int p = 0; p < 3; p++)
    check = check * 1000003 + pass (recs, order, n);
  for (long i = 0; i < n; i += 4)
    {
      free (recs[i]);
      recs[i] = NULL;
    }
  for (long i = 0; i < n; i += 4)
    recs[i] = new_record (i, 12345);
  for (int p = 0; p < 2; p++)
    check = check * 1000003 + pass (recs, order, n);
  printf ("records %ld checksum %016llx\n", n, (unsigned long long) check);
  for (long i = 0; i < n; i++)
    free (recs[i]);
  free (recs);
  free (order);
  return 0;
}
