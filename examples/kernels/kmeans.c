/* kmeans.c - k-means clustering of points with mostly-zero features (the
   pattern of Rodinia's kmeans: a distance computation from every point to
   every centre, then a recomputation of the centres).  OpenMP.

   Kernel.  n points with D = 34 float features (as in the KDD Cup data set
   Rodinia uses): features 0..9 are continuous values around one of K
   hidden centres; features 10..33 are 0/1 indicator features (one-hot
   categories and flags), about 1 in 10 of them set.  Lloyd's
   algorithm with K clusters, starting from K evenly spaced points, until
   no point changes cluster (at most MAXIT iterations):
     - assignment: every point (in parallel) finds its nearest centre by
       squared Euclidean distance over all D features;
     - update: per-cluster sums of the features, computed in NBLK fixed
       blocks of points and added in block order, so the centres are the
       same for any number of threads.

   Redundant zeros zeroinst should find:
   - the distance loop loads x[i][f] for all D features: 24 of the 34 are
     indicator features, ~90% of which are 0.0f, so roughly 2/3 of the
     floating-point elements loaded from the points are zero -- a dense
     representation of sparse data;
   - the membership array is int with values < K = 12: three zero bytes
     per load, and cluster 0 gives whole zero elements.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n, the
   number of points.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D 34
#define NCONT 10       /* continuous features; the rest are 0/1 */
#define K 12
#define MAXIT 30
#define NBLK 64

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

static double
uniform (uint64_t key)
{
  return (double) (mix64 (key) >> 11) * 0x1p-53;
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 20000, 220000);
  if (n < K * NBLK || n > (1L << 26))
    {
      fprintf (stderr, "kmeans: n must be in [%d, 2^26]\n", K * NBLK);
      return 2;
    }
  float *x = malloc (n * D * sizeof *x);
  int *member = malloc (n * sizeof *member);
  float centre[K][D];
  static double bsum[NBLK][K][D];
  static long bcount[NBLK][K];

  /* Points around K hidden centres (continuous part); sparse indicators
     whose probability depends on the hidden centre.  */
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    {
      uint64_t base = (uint64_t) i * 64;
      int hidden = (int) (mix64 (base) % K);
      for (int f = 0; f < NCONT; f++)
        {
          double c = 10.0 * uniform (0x5eed0000 + hidden * D + f);
          double noise = uniform (base + 1 + f) + uniform (base + 17 + f) - 1.0;
          x[i * D + f] = (float) (c + 2.0 * noise);
        }
      for (int f = NCONT; f < D; f++)
        {
          double p = (f - NCONT) % K == hidden ? 0.6 : 0.06;
          x[i * D + f] = uniform (base + 33 + f) < p ? 1.0f : 0.0f;
        }
      member[i] = -1;
    }
  for (int k = 0; k < K; k++)
    memcpy (centre[k], x + (n / K) * k * D, sizeof centre[k]);

  int it;
  long changed = 0;
  for (it = 1; it <= MAXIT; it++)
    {
      changed = 0;
      #pragma omp parallel for schedule(static) reduction(+:changed)
      for (long i = 0; i < n; i++)
        {
          const float *p = x + i * D;
          int best = 0;
          float bestd = 0.0f;
          for (int k = 0; k < K; k++)
            {
              float d = 0.0f;
              for (int f = 0; f < D; f++)
                {
                  float t = p[f] - centre[k][f];
                  d += t * t;
                }
              if (k == 0 || d < bestd)
                {
                  bestd = d;
                  best = k;
                }
            }
          if (member[i] != best)
            {
              member[i] = best;
              changed++;
            }
        }

      #pragma omp parallel for schedule(static)
      for (int b = 0; b < NBLK; b++)
        {
          memset (bsum[b], 0, sizeof bsum[b]);
          memset (bcount[b], 0, sizeof bcount[b]);
          for (long i = n * b / NBLK; i < n * (b + 1) / NBLK; i++)
            {
              int m = member[i];
              bcount[b][m]++;
              for (int f = 0; f < D; f++)
                bsum[b][m][f] += x[i * D + f];
            }
        }
      for (int k = 0; k < K; k++)
        {
          double s[D] = { 0.0 };
          long cnt = 0;
          for (int b = 0; b < NBLK; b++)
            {
              cnt += bcount[b][k];
              for (int f = 0; f < D; f++)
                s[f] += bsum[b][k][f];
            }
          if (cnt > 0)
            for (int f = 0; f < D; f++)
              centre[k][f] = (float) (s[f] / cnt);
        }
      if (changed == 0)
        break;
    }

  long size[K] = { 0 };
  for (long i = 0; i < n; i++)
    size[member[i]]++;
  double csum = 0.0;
  for (int k = 0; k < K; k++)
    for (int f = 0; f < D; f++)
      csum += centre[k][f];
  printf ("kmeans: n=%ld D=%d K=%d iterations=%d (last changed %ld)\n",
          n, D, K, it > MAXIT ? MAXIT : it, changed);
  printf ("kmeans: centre checksum %.9e\n", csum);
  printf ("kmeans: cluster sizes");
  for (int k = 0; k < K; k++)
    printf (" %ld", size[k]);
  printf ("\n");
  free (x); free (member);
  return 0;
}
