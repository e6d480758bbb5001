/* pthreads: four workers, each reading its own 64 int32 values, all equal
   to the worker's index k (k = 0: 4 redundant bytes and a zero element
   each; k = 1..3: 3 redundant bytes each); they end before main does, so
   their data must survive their end.  The main thread reads 8 int64 ones
   (7 redundant bytes each).  main itself is not instrumented (its
   pthread_join(t[k]) loads pthread_t addresses, which depend on the
   memory layout): this also tests the exclude option.
   zeroinst-flags: -O1 -pthread
   zeroinst-plugin-args: exclude=ma*
   expect-records: 2
   expect-threads: 8,64,56,0;64,256,256,64;64,256,192,0;64,256,192,0;64,256,192,0
   expect-total: int.elements=264 int.bytes=1088 int.redundant_bytes=888 int.zero_elements=64 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define W 4
#define M 64
int32_t seg[W][M];
int64_t ones[8];
int64_t result[W];

#define NOINLINE __attribute__ ((noinline))
NOINLINE int64_t sum_seg (int k) { int64_t s = 0; for (int i = 0; i < M; i++) s += seg[k][i]; return s; }  // expect: elements=256 bytes=1024 redundant_bytes=832 zero_elements=64
NOINLINE int64_t sum_ones (int n) { int64_t s = 0; for (int i = 0; i < n; i++) s += ones[i]; return s; }  // expect: elements=8 bytes=64 redundant_bytes=56 zero_elements=0

static void *
worker (void *arg)
{
  int k = (int) (intptr_t) arg;
  result[k] = sum_seg (k);
  return NULL;
}

int
main (void)
{
  for (int k = 0; k < W; k++)
    for (int i = 0; i < M; i++)
      seg[k][i] = k;
  for (int i = 0; i < 8; i++)
    ones[i] = 1;
  pthread_t t[W];
  for (int k = 0; k < W; k++)
    pthread_create (&t[k], NULL, worker, (void *) (intptr_t) k);
  for (int k = 0; k < W; k++)
    pthread_join (t[k], NULL);
  printf ("%lld", (long long) sum_ones (8));
  for (int k = 0; k < W; k++)
    printf (" %lld", (long long) result[k]);
  printf ("\n");
  return 0;
}
