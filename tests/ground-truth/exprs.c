/* Source expressions as written (plugin/site.cc): at -O2 the loop
   optimizers turn p[i].flag into MEM[ivtmp + 4] and r[i].w into
   MEM[ivtmp + 8], which name neither the index nor the field; the site
   takes the text the function's early GIMPLE had at the load's location
   (p[i].flag, not p[?]).  The same at -O0 (p + i * 16: p[i].id, not
   p->id) and -O3.  noipa keeps n unknown, and r has more elements than
   the program uses (a constant n, or r's bound, would let GCC peel the
   loops into r[0].w ... r[7].w, which are right too).
   zeroinst-flags: -O2 -g
   r[i] = { i, i & 1, i * 0.5 } for i < 8: weigh reads w and id of the 4
   odd ones.
   expect-records: 5 */
#include <stdint.h>
#include <stdio.h>

#define N 8
#define NOIPA __attribute__ ((noipa))

struct rec { int32_t id; int8_t flag; double w; };
struct rec r[8 * N];   /* larger than N: GCC peels a loop bounded by the array */

NOIPA double
weigh (const struct rec *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    if (p[i].flag)  // expect: elements=8 expr=p[i].flag
      s += p[i].w  // expect: elements=4 expr=p[i].w
           * p[i].id;  // expect: elements=4 expr=p[i].id
  return s;
}

NOIPA double
total (int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += r[i].w  // expect: elements=8 expr=r[i].w
         + r[i].id;  // expect: elements=8 expr=r[i].id
  return s;
}

int
main (void)
{
  for (int i = 0; i < N; i++)
    {
      r[i].id = i;
      r[i].flag = i & 1;
      r[i].w = i * 0.5;
    }
  printf ("%g %g\n", weigh (r, N), total (N));
  return 0;
}
