/* lu.c - dense LU factorization with partial pivoting, then a solve (the
   dense-LU pattern of Rodinia's lud and of LINPACK).  OpenMP.

   Kernel.  A is n x n, row-major, and banded: a[i][j] is non-zero only for
   |i - j| <= BW (a random value), with a dominant diagonal.  It is stored
   and factored as a dense matrix by the textbook right-looking algorithm:
   for each column k, find the pivot (largest |a[i][k]|, i >= k), swap
   rows, store the multipliers l[i] = a[i][k] / a[k][k] and update the
   whole trailing matrix a[i][j] -= l[i] * a[k][j] (rows in parallel).  The
   factors are then used to solve A x = b with b = A * (1, ..., 1), so x
   should be all ones; the program prints sum(x), max |x - 1| and
   log |det A|.  Every element is updated in the same order by any number
   of threads, so the output does not depend on the thread count.

   Redundant zeros zeroinst should find: a band of width 2*BW+1 = n/8 + 1
   keeps its shape under LU without pivoting across the band (the diagonal
   dominates, so pivots stay on the diagonal and fill-in stays inside the
   band), but the dense loops do not know that.
   - the multiplier loads a[i][k] are 0.0 for every row below the band:
     most of them;
   - the update loads a[k][j] and a[i][j] are 0.0 outside the band: ~85%
     of the floating-point bytes loaded by the update are zero -- the
     textbook case for a banded solver;
   - the pivot search loads the mostly zero column below the diagonal.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n.  */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 560, 2000);
  if (n < 16 || n > 20000)
    {
      fprintf (stderr, "lu: n must be in [16, 20000]\n");
      return 2;
    }
  long bw = n / 16;
  double *a = malloc (n * n * sizeof *a);
  double *b = malloc (n * sizeof *b);
  double *x = malloc (n * sizeof *x);
  long *perm = malloc (n * sizeof *perm);

  /* Banded matrix with a dominant diagonal; b = A * ones.  */
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    {
      double rowsum = 0.0;
      for (long j = 0; j < n; j++)
        {
          double v = 0.0;
          if (j != i && labs (i - j) <= bw)
            v = (double) (mix64 ((uint64_t) (i * n + j)) >> 11) * 0x1p-53 - 0.5;
          a[i * n + j] = v;
          rowsum += fabs (v);
        }
      a[i * n + i] = rowsum + 1.0;
      double s = 0.0;
      for (long j = 0; j < n; j++)
        s += a[i * n + j];
      b[i] = s;
    }

  /* Factor: P A = L U, L unit lower (below the diagonal), U upper.  */
  double logdet = 0.0;
  for (long k = 0; k < n; k++)
    perm[k] = k;
  for (long k = 0; k < n; k++)
    {
      long p = k;
      double best = fabs (a[k * n + k]);
      for (long i = k + 1; i < n; i++)
        if (fabs (a[i * n + k]) > best)
          {
            best = fabs (a[i * n + k]);
            p = i;
          }
      if (p != k)
        {
          for (long j = 0; j < n; j++)
            {
              double t = a[k * n + j];
              a[k * n + j] = a[p * n + j];
              a[p * n + j] = t;
            }
          long t = perm[k]; perm[k] = perm[p]; perm[p] = t;
        }
      double piv = a[k * n + k];
      logdet += log (fabs (piv));
      const double *rowk = a + k * n;
      #pragma omp parallel for schedule(static)
      for (long i = k + 1; i < n; i++)
        {
          double *rowi = a + i * n;
          double l = rowi[k] / piv;
          rowi[k] = l;
          for (long j = k + 1; j < n; j++)
            rowi[j] -= l * rowk[j];
        }
    }

  /* Solve L y = P b, then U x = y.  */
  for (long i = 0; i < n; i++)
    {
      double s = b[perm[i]];
      for (long j = 0; j < i; j++)
        s -= a[i * n + j] * x[j];
      x[i] = s;
    }
  for (long i = n - 1; i >= 0; i--)
    {
      double s = x[i];
      for (long j = i + 1; j < n; j++)
        s -= a[i * n + j] * x[j];
      x[i] = s / a[i * n + i];
    }
  double sum = 0.0, err = 0.0;
  for (long i = 0; i < n; i++)
    {
      sum += x[i];
      err = fmax (err, fabs (x[i] - 1.0));
    }
  printf ("lu: n=%ld band=%ld\n", n, bw);
  printf ("lu: log|det| %.12e\n", logdet);
  printf ("lu: sum(x) %.12e  max|x-1| %.3e\n", sum, err);
  free (a); free (b); free (x); free (perm);
  return 0;
}
