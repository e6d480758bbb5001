/* Source expressions as written (plugin/site.cc): at -O2 the loop
   optimizers turn p[i].flag into MEM[ivtmp + 4] and r[i].w into
   MEM[ivtmp + 8], which name neither the index nor the field; the site
   takes the text the function's early GIMPLE had at the load's location
   (p[i].flag, not p[?]).  The same at -O0 (p + i * 16: p[i].id, not
   p->id) and -O3.  noipa keeps n unknown, and r has more elements than
   the program uses (a constant n, or r's bound, would let GCC peel the
   loops into r[0].w ... r[7].w, which are right too).  A pointer loaded
   from a field and indexed is named by that field (g->adj[e], not ?[e]),
   and a variable an OpenMP region shares by its name (its body reads it
   through .omp_data_i: scale, not ?->scale; GCC gives those loads the
   line of the pragma: n and scale in the region, s after it).
   zeroinst-flags: -O2 -g -fopenmp
   zeroinst-env: OMP_NUM_THREADS=1
   r[i] = { i, i & 1, i * 0.5 } for i < 8: weigh reads w and id of the 4
   odd ones.
   How often g->n, g->adj and the region's variables are loaded depends
   on the -O level: only their texts are checked.
   expect-records: 11 */
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

struct graph { int n; int32_t *adj; };
int32_t adj[8 * N];

NOIPA int64_t
adjacent (const struct graph *g)
{
  int64_t s = 0;
  for (int e = 0; e < g->n; e++)  // expect: expr=g->n
    s += g->adj[e];  // expect: expr=g->adj|g->adj[e]
  return s;
}

NOIPA int64_t
scaled (int64_t scale, int n)
{
  int64_t s = 0;
#pragma omp parallel for reduction(+ : s)  // expect: expr=n|s|scale
  for (int i = 0; i < n; i++)
    s += scale * i;
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
  for (int e = 0; e < N; e++)
    adj[e] = e + 1;
  struct graph g = { N, adj };
  printf ("%g %g %lld %lld\n", weigh (r, N), total (N), (long long) adjacent (&g),
          (long long) scaled (3, N));
  return 0;
}
