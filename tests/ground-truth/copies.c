/* Copies of one load are one site (runtime/core/sites.c): GCC duplicates a
   load when it unswitches a loop on an invariant condition (weigh's
   p[i]: one loop for twice != 0, one for twice == 0, and both run), and
   a macro argument used twice is loaded twice at one location (TWICE (v),
   v volatile).  Each is one record, its counts summed, with "copies": 2
   (copies that counted something: a loop's data-mode version does not
   in code mode).  The loop is not vectorized (-fno-tree-vectorize): a
   vector copy would differ in its lanes and stay a record of its own.
   zeroinst-flags: -O3 -g -fno-tree-vectorize
   p[i] = i for i < 99, read twice: 0 (4 redundant bytes, a zero), 1..98
   (3 each): 298 per pass; v = 5: 3 redundant bytes per load.
   expect-records: 2 */
#include <stdint.h>
#include <stdio.h>

#define TWICE(x) ((x) + (x))
#define NOINLINE __attribute__ ((noinline))

volatile int32_t v = 5;
int32_t a[100];

NOINLINE int64_t
weigh (const int32_t *p, int n, int twice)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    {
      int32_t x = p[i];  // expect: elements=198 loads=198 redundant_bytes=596 zero_elements=2 copies=2
      if (twice)
        s += (int64_t) x * x;
      else
        s -= x;
    }
  return s;
}

int
main (void)
{
  for (int i = 0; i < 100; i++)
    a[i] = i;
  int32_t t = TWICE (v);  // expect: elements=2 loads=2 redundant_bytes=6 copies=2
  printf ("%d %lld %lld\n", t, (long long) weigh (a, 99, 1), (long long) weigh (a, 99, 0));
  return 0;
}
