/* hotspot.c - transient chip temperature on a 2-D grid (the pattern of
   Rodinia's hotspot: an explicit 5-point stencil with a per-cell power
   input).  OpenMP.

   Kernel.  The chip is an N x N grid of cells.  Each step computes, for
   every cell, the heat flowing in from its four neighbours (through the
   lateral thermal resistances RX, RY), from the ambient (through RZ) and
   from the power dissipated in the cell, and advances the temperature by
   an explicit Euler step:

     T' = T + DT/CAP * (P + (T_e + T_w - 2T)/RX + (T_n + T_s - 2T)/RY
                          + (T_amb - T)/RZ)

   Edge cells use their own temperature for the missing neighbour (no flow
   through the chip's edge).  Two grids are swapped each step; rows are
   updated in parallel, and every cell's result is computed the same way
   by any number of threads.

   Redundant zeros zeroinst should find:
   - the power map is dense (one double per cell) but only a few
     rectangular "functional units" dissipate power: ~8.5% of the cells
     are non-zero, so the load of power[i][j] in the stencil is ~91% zero
     elements, every step;
   - the temperatures are never zero and show ~0% redundancy: the report
     should single out the power map.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or N.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSTEP 300
#define T_AMB 318.15          /* K */
#define T_INIT 323.15

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

/* Functional units: rectangles in fractions of the chip, with their power
   density (W per cell).  */
static const struct { double r0, r1, c0, c1, watts; } units[] = {
  { 0.10, 0.20, 0.10, 0.25, 0.020 },   /* integer unit */
  { 0.10, 0.18, 0.60, 0.80, 0.030 },   /* floating-point unit */
  { 0.50, 0.56, 0.15, 0.45, 0.010 },   /* load/store queue */
  { 0.70, 0.76, 0.55, 0.70, 0.045 },   /* issue logic */
  { 0.85, 0.88, 0.05, 0.95, 0.005 },   /* clock spine */
};

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 256, 1024);
  if (n < 8 || n > 32768)
    {
      fprintf (stderr, "hotspot: N must be in [8, 32768]\n");
      return 2;
    }
  double *temp = malloc (n * n * sizeof *temp);
  double *next = malloc (n * n * sizeof *next);
  double *power = calloc (n * n, sizeof *power);

  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
    for (long i = (long) (units[u].r0 * n); i < (long) (units[u].r1 * n); i++)
      for (long j = (long) (units[u].c0 * n); j < (long) (units[u].c1 * n); j++)
        power[i * n + j] = units[u].watts * (1.0 + 0.1 * ((i + j) % 5));
  for (long i = 0; i < n * n; i++)
    temp[i] = T_INIT;

  /* Thermal constants of a 1 cm x 1 cm chip, 0.5 mm thick (silicon).  */
  double cell = 0.01 / n, thick = 0.0005;
  double cap = 1.75e6 * thick * cell * cell;     /* J/K per cell */
  double rx = 1.0 / (100.0 * thick);             /* K/W, lateral */
  double ry = rx;
  double rz = thick / (100.0 * cell * cell);    /* K/W, vertical */
  double dt = 0.2 * cap / (2.0 / rx + 2.0 / ry + 1.0 / rz); /* stable step */
  double k = dt / cap;

  for (int step = 0; step < NSTEP; step++)
    {
      #pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
        {
          const double *row = temp + i * n;
          const double *up = i > 0 ? row - n : row;
          const double *down = i < n - 1 ? row + n : row;
          const double *pw = power + i * n;
          double *out = next + i * n;
          for (long j = 0; j < n; j++)
            {
              double t = row[j];
              double w = j > 0 ? row[j - 1] : t;
              double e = j < n - 1 ? row[j + 1] : t;
              out[j] = t + k * (pw[j] + (e + w - 2.0 * t) / rx
                                + (up[j] + down[j] - 2.0 * t) / ry
                                + (T_AMB - t) / rz);
            }
        }
      double *swap = temp;
      temp = next;
      next = swap;
    }

  double sum = 0.0, tmax = 0.0;
  for (long i = 0; i < n * n; i++)
    {
      sum += temp[i];
      if (temp[i] > tmax)
        tmax = temp[i];
    }
  printf ("hotspot: N=%ld steps=%d\n", n, NSTEP);
  printf ("hotspot: mean temperature %.12e K  max %.12e K\n", sum / (n * n), tmax);
  free (temp); free (next); free (power);
  return 0;
}
