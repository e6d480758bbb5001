/* OpenMP: a parallel loop over 1000 int64 values i % 2 (0: 8 redundant
   bytes, a zero element; 1: 7 redundant bytes) with two threads and a
   static schedule, so each thread reads 500 values, 250 of them zero:
   3750 redundant bytes per thread.  The main thread then reads the sum,
   500 = 0x1f4: 6 redundant bytes.
   zeroinst-flags: -O1 -fopenmp
   zeroinst-env: OMP_NUM_THREADS=2 OMP_DYNAMIC=false
   expect-lines: 25 26
   expect-threads: 500,4000,3750,250;501,4008,3756,250
   expect-total: int.elements=1001 int.bytes=8008 int.redundant_bytes=7506 int.zero_elements=500 */
#include <stdint.h>
#include <stdio.h>

#define N 1000
int64_t v[N];
int64_t total;

int
main (void)
{
  for (int i = 0; i < N; i++)
    v[i] = i % 2;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int i = 0; i < N; i++)
    total += v[i];  // expect: elements=1000 bytes=8000 redundant_bytes=7500 zero_elements=500 redmap=0000000x
  printf ("%lld\n", (long long) total);  // expect: elements=1 bytes=8 redundant_bytes=6 zero_elements=0 redmap=000000xx
  return 0;
}
