/* OpenMP regions: their loads are attributed to the source function
   (marked as a parallel region) and, in every thread, to the path through
   GOMP_parallel to the function that started the region and on to main;
   the threads' records of one context are merged.  A region directly in
   main is no different: its body (main._omp_fn.N, shown as main [parallel
   region]) is not main's own frame, where paths end.  Each region loads
   v[i] = i % 2 as int64 (0: 8 redundant bytes and a zero element; 1: 7),
   each thread half of v.
   zeroinst-flags: -O1 -g -fopenmp
   zeroinst-env: OMP_NUM_THREADS=2 OMP_DYNAMIC=false
   main then prints both sums, 500 = 0x1f4: 6 redundant bytes each, in the
   master thread (thread 0).
   expect-records: 4
   expect-threads: 1002,8016,7512,500;1000,8000,7500,500 */
#include <stdint.h>
#include <stdio.h>

#define N 1000
int64_t v[N];
int64_t total, total_main;

__attribute__ ((noinline)) void
par (void)
{
  /* GCC gives the GOMP_parallel call the line of the function's opening
     brace, not of the pragma, and at -O2 par tail-calls GOMP_parallel (its
     frame is gone): the path allows any frames between GOMP_parallel and main.  */
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int i = 0; i < N; i++)
    total += v[i];  // [[omp_load]]
}
// expect@omp_load: path=par@omp_load,GOMP_parallel:?,*,main@main_par elements=1000 redundant_bytes=7500 zero_elements=500 function=par

int
main (void)
{
  for (int i = 0; i < N; i++)
    v[i] = i % 2;
  par ();  // [[main_par]]
  /* Here GCC gives the GOMP_parallel call the line of a statement before
     the pragma: main's line is not checked.  */
#pragma omp parallel for reduction(+ : total_main) schedule(static)
  for (int i = 0; i < N; i++)
    total_main += v[i];  // [[omp_main_load]]
// expect@omp_main_load: path=main@omp_main_load,GOMP_parallel:?,main:? elements=1000 redundant_bytes=7500 zero_elements=500 function=main
  printf ("%lld\n", (long long) total);  // expect: elements=1 redundant_bytes=6 path=main:?
  printf ("%lld\n", (long long) total_main);  // expect: elements=1 redundant_bytes=6 path=main:?
  return 0;
}
