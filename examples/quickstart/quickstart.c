/* quickstart.c - the first program to try zeroinst on.

   Build and run it with the compiler wrapper:

       zeroinst-cc -O2 -g quickstart.c -o quickstart
       ./quickstart
       cat zeroinst-quickstart-<pid>/summary.txt     (<pid>: the process id)

   It prints the same three lines as a plain `gcc -O2` build, and runs in a
   few milliseconds.  It contains three textbook cases of redundant zeros,
   one per function.  What zeroinst should report for each is written above
   the function; the load sites are marked "ZEROINST:" in the code.

   1. sum_small_counts: an int64_t array whose values are all below 256.
      Every 8-byte element loaded carries 7 zero bytes (the high ones), so
      that load site is ~87.5% redundant (7/8), with redmap 0000000x (seven
      bytes always zero, the lowest byte sometimes non-zero).  Most
      elements are not zero themselves, so this is "too wide a type", not
      "empty data": uint8_t would do.

   2. dense_matvec: a 256 x 256 double matrix with only its diagonal and one
      off-diagonal band filled (~0.8% non-zero), multiplied by a vector as
      if it were dense.  The load of m[i][j] is ~99% zero elements, and it
      dominates the floating-point report: a sparse format (or a banded
      loop) would skip almost all of that work.

   3. count_active: a flag array that only ever holds 0 or 1, stored as
      int.  Three of the four bytes of each element are always zero (75%
      redundant, redmap 000x) and most elements are 0 (only every 16th
      flag is set), so the load is both too wide and mostly empty: a bit
      set or an index list of the active entries would do.

   The loop-invariant values that live in registers (loop counters, sums)
   are not loads and do not appear in the report: zeroinst sees the loads
   that remain in the optimized program.  */
#include <stdint.h>
#include <stdio.h>

#define NCOUNTS 100000
#define N 256
#define NFLAGS 200000
#define REPEAT 20

static int64_t counts[NCOUNTS];   /* values 0..255: 7 high bytes always 0 */
static double m[N][N];            /* mostly 0.0 */
static double x[N], y[N];
static int active[NFLAGS];        /* only 0 or 1 */

/* Fill the data.  The stores are not instrumented (zeroinst looks at
   loads); everything here only writes.  */
static void
init (void)
{
  uint32_t seed = 12345;
  for (int i = 0; i < NCOUNTS; i++)
    {
      seed = seed * 1103515245u + 12345u;     /* a small LCG */
      counts[i] = (seed >> 16) & 0xff;        /* 0..255 in an int64_t */
    }
  for (int i = 0; i < N; i++)
    {
      m[i][i] = 2.0;                          /* the diagonal ... */
      if (i + 7 < N)
        m[i][i + 7] = -0.5;                   /* ... and one band */
      x[i] = 1.0 + (double) (i % 10) / 10.0;
    }
  for (int i = 0; i < NFLAGS; i++)
    active[i] = (i % 16 == 0);                /* 1 in 16 is set */
}

/* Case 1: expect one integer record, elem_bytes 8, local redundancy
   ~87.5%, redmap 0000000x, a few zero elements (values that happen to be
   0, about 1 in 256).  */
static int64_t
sum_small_counts (void)
{
  int64_t s = 0;
  for (int r = 0; r < REPEAT; r++)
    for (int i = 0; i < NCOUNTS; i++)
      s += counts[i] * (r + 1);               /* ZEROINST: counts[i] */
  return s;
}

/* Case 2: expect the m[i][j] load on top of the floating-point records,
   ~99% of its elements zero; x[j] (never zero) shows up with 0%.  */
static double
dense_matvec (void)
{
  double total = 0.0;
  for (int r = 0; r < REPEAT; r++)
    {
      for (int i = 0; i < N; i++)
        {
          double acc = 0.0;
          for (int j = 0; j < N; j++)
            acc += m[i][j] * x[j];            /* ZEROINST: m[i][j], x[j] */
          y[i] = acc;
        }
      for (int i = 0; i < N; i++)
        x[i] = 0.5 * x[i] + 0.25 * y[i];      /* keep x bounded */
    }
  for (int i = 0; i < N; i++)
    total += y[i];
  return total;
}

/* Case 3: expect an integer record with elem_bytes 4, redmap 000x: the
   three high bytes are always zero (75%), plus ~94% zero elements, which
   makes the site ~98% redundant overall.  */
static long
count_active (void)
{
  long n = 0;
  for (int r = 0; r < REPEAT; r++)
    for (int i = 0; i < NFLAGS; i++)
      if (active[i])                          /* ZEROINST: active[i] */
        n += (i >> 4) % 5;
  return n;
}

int
main (void)
{
  init ();
  long long s = (long long) sum_small_counts ();
  double t = dense_matvec ();
  long a = count_active ();
  printf ("sum of small counts: %lld\n", s);
  printf ("dense matvec total:  %.6f\n", t);
  printf ("active weight:       %ld\n", a);
  return 0;
}
