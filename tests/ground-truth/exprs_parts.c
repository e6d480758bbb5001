/* Texts of loads the optimizers moved away from their statement
   (plugin/site.cc, zi_note_early_texts): a complex value loaded whole and
   then used by parts (GCC loads each part where it is used: the text is
   the part of the element, at the line of creal/cimag), and a loop of
   four fully unrolled (its copies read as the loop's load: one record,
   "copies": 4).  n = 4 (3 + argc).
   zeroinst-flags: -O2 -g  */
#include <complex.h>
#include <stdio.h>

__attribute__ ((noipa)) double
parts (const double complex *w, int n, int step)
{
  double s = 0;
  for (int k = 0; k < n; k++)
    {
      double complex wk = w[k * step];
      double re = creal (wk);  // expect: elements=4 expr="__real w[k * step]"
      double im = cimag (wk);  // expect: elements=4 expr="__imag w[k * step]"
      s += re * 2 + im;
    }
  return s;
}

__attribute__ ((noipa)) double
total (int n)
{
  double part[4];
  for (int b = 0; b < 4; b++)
    part[b] = b * n;
  __asm__ ("" : : "r" (part) : "memory");   /* keeps part in memory */
  double s = 0;
  for (int b = 0; b < 4; b++)
    s += part[b];  // expect: elements=4 expr=part[b] copies=4
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  double complex w[8] = { 1 + 2 * I, 3 + 4 * I, 5, 6, 7, 8, 9, 10 };
  printf ("%g %g\n", parts (w, argc + 3, 2), total (argc + 3));
  return 0;
}
