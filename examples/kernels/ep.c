/* ep.c - "embarrassingly parallel": Gaussian random pairs counted in
   square annuli (the pattern of NPB EP: random-number generation, log and
   sqrt, almost no memory traffic).  OpenMP.

   Kernel.  nbatch * NB uniform pairs (x, y) in (-1, 1) are drawn in
   batches of NB = 2^16 pairs.  A batch first fills a buffer with 2*NB uniform numbers, then
   applies the Marsaglia polar method: if t = x^2 + y^2 is in (0, 1],
   X = x*sqrt(-2 ln t / t) and Y = y*sqrt(-2 ln t / t) are independent
   Gaussians; the pair is counted in annulus l = floor(max(|X|, |Y|)) and
   X and Y are summed.  The generator is counter-based (a 64-bit mixing
   function of the number's global index), so every batch is independent
   and the result does not depend on how batches are spread over threads;
   per-batch sums are combined in batch order.

   Redundant zeros zeroinst should find: very few, and that is the point of
   including it.  The uniform numbers in the buffer are never zero and have
   random mantissas, so the floating-point loads show ~0% redundancy.  The
   only integer loads of note are the per-batch annulus counts (int64_t,
   values below NB = 2^16: six high bytes zero) and the empty annuli 6..9
   (whole zero elements) when the batches are combined.  A profile of this
   program should be short and boring: a control case next to the others.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or nbatch,
   the number of batches of 2^16 pairs.  */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG2_NB 16
#define NB (1L << LOG2_NB)     /* pairs per batch */
#define NQ 10                  /* annuli */

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

static inline uint64_t
mix64 (uint64_t z)
{
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct batch_result
{
  int64_t q[NQ];
  double sx, sy;
};

static void
run_batch (long b, double *buf, struct batch_result *res)
{
  /* 2*NB uniform numbers in (0, 1): 53 random bits, never exactly 0.  */
  uint64_t base = (uint64_t) b * 2 * NB;
  for (long k = 0; k < 2 * NB; k++)
    buf[k] = ((double) (mix64 (base + k) >> 11) + 0.5) * 0x1p-53;

  memset (res, 0, sizeof *res);
  for (long k = 0; k < NB; k++)
    {
      double x = 2.0 * buf[2 * k] - 1.0;
      double y = 2.0 * buf[2 * k + 1] - 1.0;
      double t = x * x + y * y;
      if (t <= 1.0 && t > 0.0)
        {
          double f = sqrt (-2.0 * log (t) / t);
          double gx = x * f, gy = y * f;
          double m = fmax (fabs (gx), fabs (gy));
          int l = (int) m;
          if (l < NQ)
            res->q[l]++;
          res->sx += gx;
          res->sy += gy;
        }
    }
}

int
main (int argc, char **argv)
{
  long nbatch = problem_size (argc, argv, 32, 1024);
  if (nbatch > (1L << 24))
    {
      fprintf (stderr, "ep: at most 2^24 batches\n");
      return 2;
    }
  struct batch_result *res = malloc (nbatch * sizeof *res);

  #pragma omp parallel
  {
    double *buf = malloc (2 * NB * sizeof *buf);
    #pragma omp for schedule(dynamic)
    for (long b = 0; b < nbatch; b++)
      run_batch (b, buf, &res[b]);
    free (buf);
  }

  int64_t q[NQ] = { 0 };
  double sx = 0.0, sy = 0.0;
  for (long b = 0; b < nbatch; b++)
    {
      for (int l = 0; l < NQ; l++)
        q[l] += res[b].q[l];
      sx += res[b].sx;
      sy += res[b].sy;
    }
  int64_t total = 0;
  printf ("ep: batches=%ld pairs=%ld\n", nbatch, nbatch * NB);
  printf ("ep: sum X %.12e  sum Y %.12e\n", sx, sy);
  for (int l = 0; l < NQ; l++)
    {
      printf ("ep: annulus %d  %lld\n", l, (long long) q[l]);
      total += q[l];
    }
  printf ("ep: gaussian pairs %lld\n", (long long) total);
  free (res);
  return 0;
}
