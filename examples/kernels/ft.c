/* ft.c - 2-D FFT time evolution of a diffusion equation (the pattern of
   NPB FT: a forward FFT, then per time step a pointwise multiplication in
   frequency space and an inverse FFT, with a checksum per step).  OpenMP.

   Kernel.  The field is an N x N array of double complex.  The initial
   field is real (every imaginary part is 0.0) and zero-padded: only the
   central N/2 x N/2 block is non-zero, as when a signal is padded to avoid
   wrap-around.  It is transformed once (u0 = FFT(u)).  Step t multiplies
   u0 by the heat kernel exp(-DIFF * t * (kx^2 + ky^2)) -- a product of one
   factor per axis -- and transforms back; the checksum adds 1024 fixed
   entries of the result.  The 2-D FFT is an iterative radix-2 FFT over
   the rows (in place), then over the columns (gathered into a buffer per
   thread).  Every row and column is independent, so the result does not
   depend on the number of threads.

   Redundant zeros zeroinst should find:
   - the forward FFT loads the padded input: 3/4 of its elements are
     0.0 + 0.0i, and the imaginary half of the rest is 0.0 as well;
   - the heat kernel underflows: exp(x) is exactly 0.0 below x ~ -745, and
     DIFF is chosen so that from the first step on, the highest
     frequencies are multiplied by 0.0, and by the last step most of the
     spectrum is.  The inverse FFTs then transform arrays that are mostly
     exact zeros -- dense work on an empty spectrum;
   - the per-axis factor tables themselves are mostly 0.0 in late steps.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or N (a power
   of two).  */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NSTEP 24
#define NCHECK 1024

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

/* In-place radix-2 FFT of x[0..n) (n a power of two).  w[k] =
   exp(-2 pi i k / n) for k < n/2; sign = -1 forward, +1 inverse
   (unscaled).  */
static void
fft1d (double complex *x, long n, const double complex *w, int sign)
{
  /* bit-reversal permutation */
  for (long i = 1, j = 0; i < n; i++)
    {
      long bit = n >> 1;
      for (; j & bit; bit >>= 1)
        j ^= bit;
      j |= bit;
      if (i < j)
        {
          double complex t = x[i];
          x[i] = x[j];
          x[j] = t;
        }
    }
  for (long len = 2; len <= n; len <<= 1)
    {
      long half = len >> 1, step = n / len;
      for (long s = 0; s < n; s += len)
        for (long k = 0; k < half; k++)
          {
            double complex wk = w[k * step];
            double wr = creal (wk), wi = sign < 0 ? cimag (wk) : -cimag (wk);
            double complex a = x[s + k], b = x[s + k + half];
            double br = creal (b) * wr - cimag (b) * wi;
            double bi = creal (b) * wi + cimag (b) * wr;
            x[s + k] = CMPLX (creal (a) + br, cimag (a) + bi);
            x[s + k + half] = CMPLX (creal (a) - br, cimag (a) - bi);
          }
    }
}

/* 2-D FFT of the n x n row-major array u.  */
static void
fft2d (double complex *u, long n, const double complex *w, int sign)
{
  #pragma omp parallel
  {
    double complex *col = malloc (n * sizeof *col);
    #pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
      fft1d (u + i * n, n, w, sign);
    #pragma omp for schedule(static)
    for (long j = 0; j < n; j++)
      {
        for (long i = 0; i < n; i++)
          col[i] = u[i * n + j];
        fft1d (col, n, w, sign);
        for (long i = 0; i < n; i++)
          u[i * n + j] = col[i];
      }
    free (col);
  }
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 256, 1024);
  if (n < 16 || (n & (n - 1)) || n > (1L << 14))
    {
      fprintf (stderr, "ft: N must be a power of two in [16, 16384]\n");
      return 2;
    }
  double complex *u0 = malloc (n * n * sizeof *u0);
  double complex *u = malloc (n * n * sizeof *u);
  double complex *w = malloc (n / 2 * sizeof *w);
  double *fx = malloc (n * sizeof *fx);
  for (long k = 0; k < n / 2; k++)
    w[k] = CMPLX (cos (2 * M_PI * k / n), -sin (2 * M_PI * k / n));

  /* Real, zero-padded initial field.  */
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      {
        double v = 0.0;
        if (i >= n / 4 && i < 3 * n / 4 && j >= n / 4 && j < 3 * n / 4)
          v = sin (0.05 * i * j / n) + cos (0.3 * i) + (double) ((i * 7 + j * 13) % 17) / 17.0;
        u0[i * n + j] = CMPLX (v, 0.0);
      }
  fft2d (u0, n, w, -1);

  /* exp(-DIFF * t * k^2) reaches exp(-745) (= 0.0) at |k| = 0.9 * n/2
     for t = 1, at |k| = 0.18 * n/2 for t = NSTEP = 24.  */
  double diff = 745.0 / (0.81 * (n / 2.0) * (n / 2.0));
  double scale = 1.0 / ((double) n * n);
  for (int t = 1; t <= NSTEP; t++)
    {
      for (long k = 0; k < n; k++)
        {
          long kk = k < n / 2 ? k : k - n;     /* signed frequency */
          fx[k] = exp (-diff * t * (double) (kk * kk));
        }
      #pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
          {
            double f = fx[i] * fx[j] * scale;
            double complex a = u0[i * n + j];
            u[i * n + j] = CMPLX (creal (a) * f, cimag (a) * f);
          }
      fft2d (u, n, w, +1);
      double cr = 0.0, ci = 0.0;
      for (long q = 0; q < NCHECK; q++)
        {
          long i = (q * 37) % n, j = (q * 91 + 5) % n;
          cr += creal (u[i * n + j]);
          ci += cimag (u[i * n + j]);
        }
      printf ("ft: step %2d  checksum %.12e %+.12e\n", t, cr, ci);
    }
  free (u0); free (u); free (w); free (fx);
  return 0;
}
