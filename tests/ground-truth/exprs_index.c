/* Array indices as the source computes them (plugin/site.cc,
   index_text): sums, differences, products, shifts and remainders of
   named variables and constants, an index loaded from another array, two
   dimensions.  At -O2 the loop optimizers rewrite the addresses, and the
   early GIMPLE's text is used (same location, same element size).
   GCC writes 2 * i as i * 2; p[1] is p + 4 in bytes.  The p[...] loads
   never read one element twice (-O3 unrolls the loop and would share
   such a load).
   n = 8 (argc = 1); each line loads 7 elements (i = 0 .. 6).
   zeroinst-flags: -O0 -g  */
#include <stddef.h>
#include <stdio.h>

int a[16], b[16], c[40], idx[16];
unsigned char tab[256];
struct vec3 { double x, y, z; };
long g[8][8];

__attribute__ ((noipa)) long
second (const int *p)
{
  return p[1];  // expect: elements=1 expr=p[1]
}

/* Offsets the front end folded (24-byte elements: (k & 7) * 24 + 24;
   16-byte steps of doubles), operands of * and / that need their
   parentheses, a narrowing cast (GCC adds in unsigned char), a negative
   constant index.  One load each.  */
__attribute__ ((noipa)) double
edges (const struct vec3 *v, size_t k, const double *buf, int i, int j, int n, unsigned h,
       const int *q)
{
  double s = v[(k & 7) + 1].y;  // expect: elements=1 expr="v[(k & 7) + 1].y"
  s += buf[k / 3 * 2 + 1];  // expect: elements=1 expr="buf[k / 3 * 2 + 1]"
  s += a[(i + 1) * (j % n)];  // expect: elements=1 expr="a[(i + 1) * (j % n)]"
  s += tab[(unsigned char) (h + k)];  // expect: elements=1 expr="tab[(unsigned char) ((unsigned char) h + (unsigned char) k)]"
  s += q[-1];  // expect: elements=1 expr=q[-1]
  return s;
}

__attribute__ ((noipa)) long
walk (const int *p, int n, int m)
{
  long s = 0;
  for (int i = 0; i < n - 1; i++)
    {
      s += a[i + 1];  // expect: elements=7 expr="a[i + 1]"
      s += b[n - 1 - i];  // expect: elements=7 expr="b[n - 1 - i]"
      s += p[i * m + 3];  // expect: elements=7 expr="p[i * m + 3]"
      s += a[(i + 3) % n];  // expect: elements=7 expr="a[(i + 3) % n]"
      s += b[i << 1];  // expect: elements=7 expr="b[i << 1]"
      s += a[idx[i]];  // expect: elements=14 expr="a[idx[i]]|idx[i]"
      s += g[i][i + 1];  // expect: elements=7 expr="g[i][i + 1]"
      s += p[2 * i + 24];  // expect: elements=7 expr="p[i * 2 + 24]"
    }
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  for (int i = 0; i < 16; i++)
    {
      a[i] = i;
      b[i] = 2 * i;
      idx[i] = 15 - i;
    }
  for (int i = 0; i < 40; i++)
    c[i] = 3 * i;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g[i][j] = i * j;
  struct vec3 v[16] = { { 0, 0, 0 } };
  double buf[8] = { 0 };
  printf ("%ld %g\n", walk (c, argc + 7, 3) + second (c),
          edges (v, 3, buf, 2, 3, 5, 7, c + 2));
  return 0;
}
