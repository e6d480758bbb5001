/* Data-centric analysis with threads marking neighbouring bytes: eight
   workers, released together by a barrier, read one 256 KiB heap block
   in the same order, worker t the bytes at offsets t, t + 8, t + 16, ...
   Every 16-byte line of the block's byte states is then marked by all
   eight at about the same time (and again, with tiny buffers, in
   separate flushes): a state bit lost to a race shows as a never-loaded
   or a wrongly non-zero byte.  -O1: one byte load per element.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join:worker
   expect-records: 1
   expect-data-records: 1

   p[i] = i & 1: each byte is read once; the even ones are zero.  An
   element of one byte is redundant exactly when zero: 131072 of 262144.
   expect-data: heap@alloc_a int path=main@alloc_a allocations=1 size=262144 elements=262144 bytes=262144 redundant_bytes=131072 zero_elements=131072 never_loaded_bytes=0 always_zero_bytes=131072 allocator=malloc
   expect-data-total: heap.int.elements=262144 heap.int.zero_elements=131072
   expect-data-total: static.int.elements=0 stack.int.elements=0 unknown.int.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define W 8
#define N (256 * 1024)
#define NOINLINE __attribute__ ((noinline))

static pthread_barrier_t start;

struct job {
  const uint8_t *p;
  int t;
  long sum;
};

NOINLINE long
every_eighth (const uint8_t *p, int t)
{
  long s = 0;
  for (int i = t; i < N; i += W)
    s += p[i];  // expect: elements=262144 bytes=262144 redundant_bytes=131072 zero_elements=131072
  return s;
}

static void *
worker (void *arg)
{
  struct job *j = arg;
  pthread_barrier_wait (&start);
  j->sum = every_eighth (j->p, j->t);
  return NULL;
}

/* worker and spawn_join are not instrumented: they load the jobs (on the
   stack) and the thread handles.  */
NOINLINE long
spawn_join (const uint8_t *p)
{
  pthread_t th[W];
  struct job jobs[W];
  long total = 0;
  pthread_barrier_init (&start, NULL, W);
  for (int t = 0; t < W; t++)
    {
      jobs[t] = (struct job) { p, t, 0 };
      pthread_create (&th[t], NULL, worker, &jobs[t]);
    }
  for (int t = 0; t < W; t++)
    {
      pthread_join (th[t], NULL);
      total += jobs[t].sum;
    }
  return total;
}

int
main (void)
{
  uint8_t *p = malloc (N);  // [[alloc_a]]
  if (!p)
    abort ();
  for (int i = 0; i < N; i++)
    p[i] = (uint8_t) (i & 1);
  long total = spawn_join (p);
  free (p);
  printf ("%ld\n", total);
  return total != N / 2;
}
