/* cg.c - conjugate gradient on a sparse symmetric positive definite matrix
   (the pattern of NPB CG: sparse matrix-vector products dominate, plus dot
   products and vector updates).  OpenMP.

   Kernel.  As in NPB CG, an inverse power iteration estimates the smallest
   eigenvalue of A: each outer iteration solves A z = x approximately with
   25 unpreconditioned CG iterations starting from z = 0, then sets
   zeta = SHIFT + 1 / (x . z) and x = z / |z|.  A is n x n in CSR format.
   Row i holds the diagonal and the neighbours i +- o (mod n) for a fixed
   set of offsets o, so every row has 2*NOFF+1 entries.  The coupling
   between i and j is -w(min(i,j), max(i,j)) with w from a hash in [0, 1),
   so A is symmetric; the diagonal is 1 + the sum of |couplings| (strict
   diagonal dominance, hence positive definite).

   Redundant zeros zeroinst should find:
   - col[] and rowptr[] are int64_t although n < 2^24: the five high bytes
     of every index loaded in the matrix-vector product are zero (62.5%).
   - a quarter of the stored couplings are exactly 0.0: "explicit zeros"
     that an assembly step left in the sparsity pattern (a cancelled
     coupling), loaded and multiplied in every product.
   - z starts at 0.0 in every outer iteration, so the first update of z
     loads zeros.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n, the
   number of rows.  The output is bit-identical for any thread count: the
   dot products add fixed blocks in a fixed order.  */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOFF 5
#define NITER 15          /* outer (power) iterations */
#define CGIT 25           /* CG iterations per outer iteration */
#define SHIFT 20.0
#define NBLK 256          /* fixed reduction blocks */

static const long offsets[NOFF] = { 1, 7, 61, 547, 4999 };

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

/* The coupling between rows i and j (symmetric); 1 in 4 is exactly 0.  */
static double
coupling (long i, long j)
{
  long lo = i < j ? i : j, hi = i < j ? j : i;
  uint64_t h = mix64 ((uint64_t) lo * 0x100000001b3ull + (uint64_t) hi);
  if ((h & 3) == 0)
    return 0.0;
  return -(double) (h >> 11) * 0x1p-53;
}

struct csr
{
  long n;
  int64_t *rowptr;    /* n + 1 entries */
  int64_t *col;       /* column of each entry */
  double *val;
};

static void
build_matrix (struct csr *a, long n)
{
  long per_row = 2 * NOFF + 1;
  a->n = n;
  a->rowptr = malloc ((n + 1) * sizeof *a->rowptr);
  a->col = malloc (n * per_row * sizeof *a->col);
  a->val = malloc (n * per_row * sizeof *a->val);
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    {
      int64_t cols[2 * NOFF + 1];
      double vals[2 * NOFF + 1];
      int m = 0;
      double diag = 1.0;
      for (int k = 0; k < NOFF; k++)
        for (int sgn = -1; sgn <= 1; sgn += 2)
          {
            long j = ((i + sgn * offsets[k]) % n + n) % n;
            cols[m] = j;
            vals[m] = coupling (i, j);
            diag += fabs (vals[m]);
            m++;
          }
      cols[m] = i;
      vals[m] = diag;
      m++;
      /* Sort the row by column (insertion sort of 11 entries).  */
      for (int p = 1; p < m; p++)
        for (int q = p; q > 0 && cols[q - 1] > cols[q]; q--)
          {
            int64_t tc = cols[q]; cols[q] = cols[q - 1]; cols[q - 1] = tc;
            double tv = vals[q]; vals[q] = vals[q - 1]; vals[q - 1] = tv;
          }
      a->rowptr[i] = i * per_row;
      memcpy (a->col + i * per_row, cols, sizeof cols);
      memcpy (a->val + i * per_row, vals, sizeof vals);
    }
  a->rowptr[n] = n * per_row;
}

/* y = A x */
static void
matvec (const struct csr *a, const double *x, double *y)
{
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < a->n; i++)
    {
      double s = 0.0;
      for (int64_t e = a->rowptr[i]; e < a->rowptr[i + 1]; e++)
        s += a->val[e] * x[a->col[e]];
      y[i] = s;
    }
}

/* x . y, summed in NBLK fixed blocks: the same result for any number of
   threads.  */
static double
dot (const double *x, const double *y, long n)
{
  double part[NBLK];
  #pragma omp parallel for schedule(static)
  for (int b = 0; b < NBLK; b++)
    {
      long lo = n * b / NBLK, hi = n * (b + 1) / NBLK;
      double s = 0.0;
      for (long i = lo; i < hi; i++)
        s += x[i] * y[i];
      part[b] = s;
    }
  double s = 0.0;
  for (int b = 0; b < NBLK; b++)
    s += part[b];
  return s;
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 15000, 200000);
  if (n <= 2 * offsets[NOFF - 1])
    {
      fprintf (stderr, "cg: n must be more than %ld\n", 2 * offsets[NOFF - 1]);
      return 2;
    }
  struct csr a;
  build_matrix (&a, n);

  double *x = malloc (n * sizeof *x), *z = malloc (n * sizeof *z);
  double *r = malloc (n * sizeof *r), *p = malloc (n * sizeof *p);
  double *q = malloc (n * sizeof *q);
  for (long i = 0; i < n; i++)
    x[i] = 1.0;

  double zeta = 0.0, rnorm = 0.0;
  for (int it = 1; it <= NITER; it++)
    {
      /* CG on A z = x, from z = 0.  */
      #pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
        {
          z[i] = 0.0;
          r[i] = x[i];
          p[i] = x[i];
        }
      double rho = dot (r, r, n);
      for (int k = 0; k < CGIT; k++)
        {
          matvec (&a, p, q);
          double alpha = rho / dot (p, q, n);
          #pragma omp parallel for schedule(static)
          for (long i = 0; i < n; i++)
            {
              z[i] += alpha * p[i];
              r[i] -= alpha * q[i];
            }
          double rho_new = dot (r, r, n);
          double beta = rho_new / rho;
          rho = rho_new;
          #pragma omp parallel for schedule(static)
          for (long i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
        }
      /* |x - A z| */
      matvec (&a, z, q);
      #pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
        r[i] = x[i] - q[i];
      rnorm = sqrt (dot (r, r, n));
      zeta = SHIFT + 1.0 / dot (x, z, n);
      double znorm = 1.0 / sqrt (dot (z, z, n));
      #pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
        x[i] = znorm * z[i];
      if (it == 1 || it == NITER)
        printf ("cg: iteration %2d  residual %.10e  zeta %.13e\n", it, rnorm, zeta);
    }
  printf ("cg: n=%ld nnz=%ld  final zeta %.13e\n", n, (long) a.rowptr[n], zeta);

  free (x); free (z); free (r); free (p); free (q);
  free (a.rowptr); free (a.col); free (a.val);
  return 0;
}
