/* Data-centric analysis of sites that change group at every element:
   a site that reads blocks of two allocation paths in turn (an
   interpreter's values, a list of two kinds of nodes).  The group ids
   (zeroinst-abi.h) cannot serve such a miss, which goes to the runtime:
   the counts since the slot's last change must go to the group of the
   blocks they were read from, from a loop whose counters are registers
   (added to the slot before each runtime call), from a function called
   per element, and from two threads at once.
   zeroinst-flags: -O2 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join

   Every block is 16 bytes {key, w, x, y} of int32, of which only w is
   ever loaded (bytes 0-3 and 8-15 never loaded); N = 100 blocks a group.

   walk_w, a loop without calls (its counters, range and chunk in
   registers), sums v[i]->w over an array that alternates a block of
   ones (w = 0) and one of twos (w = 0x100), 3 times: the group changes
   at every element.
   ones: 300 zero elements, 4 redundant bytes each; w always zero.
   expect-data: heap@ones int path=main@ones allocations=100 size=1600 elements=300 bytes=1200 redundant_bytes=1200 zero_elements=300 never_loaded_bytes=1200 always_zero_bytes=400 map=4n4z8n
   twos: 0x100 has 2 redundant bytes; bytes 4, 6 and 7 always zero.
   expect-data: heap@twos int path=main@twos allocations=100 size=1600 elements=300 bytes=1200 redundant_bytes=600 zero_elements=0 never_loaded_bytes=1200 always_zero_bytes=300 map=4n1z1x2z8n

   get_w, a function called for each element (counters in memory), over
   the same alternation of threes (w = 0) and fours (w = 0x1000000), 2
   times: 200 elements each.  0x1000000 has no redundant byte.
   expect-data: heap@threes int path=main@threes allocations=100 size=1600 elements=200 bytes=800 redundant_bytes=800 zero_elements=200 never_loaded_bytes=1200 always_zero_bytes=400 map=4n4z8n
   expect-data: heap@fours int path=main@fours allocations=100 size=1600 elements=200 bytes=800 redundant_bytes=0 zero_elements=0 never_loaded_bytes=1200 always_zero_bytes=300 map=4n3z1x8n

   Two threads each run walk_w 3 times over one alternation of fives
   (w = 0) and sixes (w = 0x10000), at once (they start their walks
   together, at a barrier), each with data slots of its own: 600
   elements each.  0x10000 has 1 redundant byte.
   expect-data: heap@fives int path=main@fives allocations=100 size=1600 elements=600 bytes=2400 redundant_bytes=2400 zero_elements=600 never_loaded_bytes=1200 always_zero_bytes=400 map=4n4z8n
   expect-data: heap@sixes int path=main@sixes allocations=100 size=1600 elements=600 bytes=2400 redundant_bytes=600 zero_elements=0 never_loaded_bytes=1200 always_zero_bytes=300 map=4n2z1x1z8n

   Sums: 2200 elements, 8800 bytes, 5600 redundant, 1100 zero.  The
   records: the six groups and the static zero.
   expect-data-total: heap.int.elements=2200 heap.int.bytes=8800 heap.int.redundant_bytes=5600 heap.int.zero_elements=1100
   expect-data-records: 7
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100
#define NOIPA __attribute__ ((noipa))

volatile int zero;
static pthread_barrier_t start;
struct rec {
  int32_t key, w, x, y;
};

NOIPA int32_t get_w (const struct rec *r) { return r->w; }

/* No calls: a register loop.  */
NOIPA int64_t
walk_w (struct rec *const *v, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += v[i]->w;
  return s;
}

static struct rec *
xmalloc (void *p)
{
  if (!p)
    abort ();
  return p;
}

struct work {
  struct rec *const *v;
  int n;
  int64_t s;
};

static void *
worker (void *arg)
{
  struct work *w = arg;
  pthread_barrier_wait (&start);
  for (int r = 0; r < 3 + zero; r++)
    w->s += walk_w (w->v, w->n);
  return NULL;
}

NOIPA int64_t
spawn_join (struct rec *const *v, int n)
{
  pthread_t t[2];
  struct work w[2] = { { v, n, 0 }, { v, n, 0 } };
  if (pthread_barrier_init (&start, NULL, 2))
    abort ();
  for (int i = 0; i < 2; i++)
    if (pthread_create (&t[i], NULL, worker, &w[i]))
      abort ();
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  return w[0].s + w[1].s;
}

int
main (void)
{
  /* Locals: stack memory, no record.  */
  struct rec *v[2 * N], *u[2 * N], *x[2 * N];
  int n = N + zero;
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    {
      v[2 * i] = xmalloc (malloc (sizeof (struct rec)));  // [[ones]]
      *v[2 * i] = (struct rec) { i + 1, 0, 0, 0 };
      v[2 * i + 1] = xmalloc (malloc (sizeof (struct rec)));  // [[twos]]
      *v[2 * i + 1] = (struct rec) { 0, 0x100, 0, 0 };
      u[2 * i] = xmalloc (malloc (sizeof (struct rec)));  // [[threes]]
      *u[2 * i] = (struct rec) { i + 1, 0, 0, 0 };
      u[2 * i + 1] = xmalloc (malloc (sizeof (struct rec)));  // [[fours]]
      *u[2 * i + 1] = (struct rec) { 0, 0x1000000, 0, 0 };
      x[2 * i] = xmalloc (malloc (sizeof (struct rec)));  // [[fives]]
      *x[2 * i] = (struct rec) { i + 1, 0, 0, 0 };
      x[2 * i + 1] = xmalloc (malloc (sizeof (struct rec)));  // [[sixes]]
      *x[2 * i + 1] = (struct rec) { 0, 0x10000, 0, 0 };
    }
  for (int r = 0; r < 3 + zero; r++)
    s += walk_w (v, 2 * n);
  for (int r = 0; r < 2 + zero; r++)
    for (int i = 0; i < 2 * n; i++)
      s += get_w (u[i]);
  s += spawn_join (x, 2 * n);
  printf ("%lld\n", (long long) s);
  return 0;
}
