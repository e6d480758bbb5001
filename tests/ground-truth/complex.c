/* Complex values are two floating elements (real, imaginary), whether GCC
   loads them whole or as two parts.
   zeroinst-flags: -O1
   expect-lines: 15 16
   expect-total: float.elements=12 float.bytes=80 float.redundant_bytes=40 float.zero_elements=6 */
#include <complex.h>
#include <stdio.h>

/* parts 0,0 | 1,0 | 0,2 | 3,4: 4 zero parts of 8 -> 32 redundant bytes */
double _Complex z[4];
/* float complex 0,1 | 2,0: 2 zero parts of 4 -> 8 redundant bytes */
float _Complex w[2];

#define NOINLINE __attribute__ ((noinline))
NOINLINE double _Complex sumz (int n) { double _Complex s = 0; for (int i = 0; i < n; i++) s += z[i]; return s; }  // expect: elements=8 bytes=64 redundant_bytes=32 zero_elements=4
NOINLINE float _Complex sumw (int n) { float _Complex s = 0; for (int i = 0; i < n; i++) s += w[i]; return s; }  // expect: elements=4 bytes=16 redundant_bytes=8 zero_elements=2

int
main (int argc, char **argv)
{
  (void) argv;
  z[0] = __builtin_complex (0.0, 0.0);
  z[1] = __builtin_complex (1.0, 0.0);
  z[2] = __builtin_complex (0.0, 2.0);
  z[3] = __builtin_complex (3.0, 4.0);
  w[0] = __builtin_complex (0.0f, 1.0f);
  w[1] = __builtin_complex (2.0f, 0.0f);
  double _Complex s = sumz (argc + 3);
  float _Complex t = sumw (argc + 1);
  printf ("%g %g %g %g\n", creal (s), cimag (s), crealf (t), cimagf (t));
  return 0;
}
