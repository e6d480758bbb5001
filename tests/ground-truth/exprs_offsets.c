/* A neighbour's element, p[i + 1] or p[i - 1], reads as the source
   writes it, never p[i].w (plugin/site.cc, index_text), and p[i].id
   keeps its index.  At -O2 GCC carries
   p[i - 1].w over from the previous iteration (a load without a
   location of its own): only the lines below are checked.
   zeroinst-flags: -O0 -g
   a[i] = { i, i } for i < 100; sten (a, 100) reads i = 1 .. 98.  */
#include <stdio.h>

struct pt { long id; double w; };
struct pt a[100];

__attribute__ ((noipa)) double
sten (const struct pt *p, int n)
{
  double s = 0;
  for (int i = 1; i < n - 1; i++)
    s += p[i + 1].w  // expect: expr="p[i + 1].w"
         - p[i - 1].w
         + p[i].id;  // expect: elements=98 expr=p[i].id
  return s;
}

int
main (void)
{
  for (int i = 0; i < 100; i++)
    {
      a[i].id = i;
      a[i].w = i;
    }
  printf ("%g\n", sten (a, 100));
  return 0;
}
