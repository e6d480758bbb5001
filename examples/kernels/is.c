/* is.c - integer sort: counting ("bucket") sort of small integer keys
   (the pattern of NPB IS: histogram, prefix sum, ranking; no floating
   point at all).  OpenMP.

   Kernel.  n keys in [0, MAXKEY) with a bell-shaped distribution (the
   average of four uniform numbers, as NPB IS draws them).  Each of NITER
   ranking iterations changes two keys (as NPB IS does, so the work cannot
   be hoisted), builds a histogram of the keys (one private histogram per
   thread, then merged per bucket), turns it into bucket start positions
   with a prefix sum, and checks the rank of five test keys.  A final full
   sort scatters the keys into order and verifies it.

   Redundant zeros zeroinst should find:
   - the keys are int32_t but below MAXKEY = 2^19: the high byte of every
     key loaded is zero, the third byte mostly so (redmap 0xxx-like);
   - the bucket counts average n / MAXKEY (about 32) and the buckets at both
     tails of the bell are empty: the histogram loads are mostly three
     zero bytes, and many whole zero elements;
   - the private histograms of the threads are mostly zero in the tails.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n, the
   number of keys.  Integer arithmetic only: the output does not depend on
   the number of threads.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXKEY (1 << 19)
#define NITER 10
#define NTEST 5

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

static int
num_threads (void)
{
#ifdef _OPENMP
  return omp_get_max_threads ();
#else
  return 1;
#endif
}

static int
thread_id (void)
{
#ifdef _OPENMP
  return omp_get_thread_num ();
#else
  return 0;
#endif
}

/* Build start[k] = number of keys smaller than k, for k in [0, MAXKEY].
   priv holds nthreads private histograms of MAXKEY counters each.  */
static void
rank_keys (const int32_t *key, long n, int32_t *priv, int nthreads,
           int32_t *start)
{
  #pragma omp parallel
  {
    int32_t *h = priv + (size_t) thread_id () * MAXKEY;
    memset (h, 0, MAXKEY * sizeof *h);
    #pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
      h[key[i]]++;
    /* Merge: each bucket is summed over the threads by one thread.  */
    #pragma omp for schedule(static)
    for (long k = 0; k < MAXKEY; k++)
      {
        int32_t c = 0;
        for (int t = 0; t < nthreads; t++)
          c += priv[(size_t) t * MAXKEY + k];
        start[k + 1] = c;
      }
  }
  start[0] = 0;
  for (long k = 1; k <= MAXKEY; k++)
    start[k] += start[k - 1];
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 1L << 19, 20000000);
  if (n < 64 || n > (1L << 30))
    {
      fprintf (stderr, "is: n must be in [64, 2^30]\n");
      return 2;
    }
  int nthreads = num_threads ();
  int32_t *key = malloc (n * sizeof *key);
  int32_t *sorted = malloc (n * sizeof *sorted);
  int32_t *start = malloc ((MAXKEY + 1) * sizeof *start);
  int32_t *priv = malloc ((size_t) nthreads * MAXKEY * sizeof *priv);

  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    {
      uint64_t h1 = mix64 (2 * (uint64_t) i), h2 = mix64 (2 * (uint64_t) i + 1);
      /* four 32-bit uniform numbers, averaged: a bell in [0, MAXKEY) */
      uint64_t s = (h1 & 0xffffffff) + (h1 >> 32) + (h2 & 0xffffffff) + (h2 >> 32);
      key[i] = (int32_t) (s >> (34 - 19));
    }

  long test_index[NTEST];
  for (int t = 0; t < NTEST; t++)
    test_index[t] = (long) (mix64 (1000 + t) % (uint64_t) n);

  uint64_t rank_sum = 0;
  for (int it = 1; it <= NITER; it++)
    {
      key[it] = it;
      key[it + NITER] = MAXKEY - 1 - it;
      rank_keys (key, n, priv, nthreads, start);
      for (int t = 0; t < NTEST; t++)
        rank_sum += (uint64_t) start[key[test_index[t]]] * (uint64_t) (t + it);
    }

  /* Full sort: scatter every key to the next free slot of its bucket.  */
  for (long i = 0; i < n; i++)
    sorted[start[key[i]]++] = key[i];
  long unsorted = 0;
  uint64_t check = 0;
  for (long i = 0; i < n; i++)
    {
      if (i > 0 && sorted[i - 1] > sorted[i])
        unsorted++;
      check = check * 31 + (uint64_t) sorted[i];
    }
  long empty = 0;
  for (long k = 0; k < MAXKEY; k++)
    if ((k == 0 ? start[0] : start[k] - start[k - 1]) == 0)
      empty++;   /* start[] now holds the bucket ends */

  printf ("is: n=%ld maxkey=%d iterations=%d\n", n, MAXKEY, NITER);
  printf ("is: rank checksum %llu  sorted checksum %llu\n",
          (unsigned long long) rank_sum, (unsigned long long) check);
  printf ("is: empty buckets %ld  out of order %ld  %s\n", empty, unsorted,
          unsorted ? "FAILED" : "verified");
  free (key); free (sorted); free (start); free (priv);
  return unsorted != 0;
}
