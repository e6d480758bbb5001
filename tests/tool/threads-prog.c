/* threads-prog.c - loads of known counts in three threads, for the per-
   thread records of report.json and `zeroinst show --thread`
   (thread_check.py).

   data[] holds i % 200 (uint64_t).  sum(n) loads data[0..n-1]: n loads of
   8 bytes; the values 0 (i = 0, 200, ...: ceil(n / 200) of them) are zero
   elements with 8 redundant bytes, the others (< 256) have 7.  So sum(n)
   has n + ceil(n / 200) * 1 + 6 * n ... precisely 7 n + ceil(n / 200)
   redundant bytes:
     worker A, sum(300): 300 loads, 2400 bytes, 2102 redundant, 2 zero;
     worker B, sum(500): 500 loads, 4000 bytes, 3503 redundant, 3 zero;
     main,     sum(100): 100 loads,  800 bytes,  701 redundant, 1 zero.
   The workers' loads are one record (site and call path worker -> sum)
   with each worker's share; main's are another (main -> sum).  The
   workers are still running when main calls exit, so both have threads of
   their own in the report (threads that ended would be merged).  Results
   are stored, never loaded, so that no other load depends on timing.  */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t data[1000];
uint64_t results[3]; /* not static: the stores must stay */
static pthread_barrier_t started;

__attribute__ ((noinline)) static uint64_t
sum (int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += data[i];
  return s;
}

static void *
worker (void *arg)
{
  int n = (int) (intptr_t) arg;
  results[n / 250] = sum (n);
  pthread_barrier_wait (&started);
  for (;;)
    pthread_barrier_wait (&started); /* never returns: blocks at exit */
  return NULL;
}

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    data[i] = (uint64_t) (i % 200);
  pthread_barrier_init (&started, NULL, 3);
  pthread_t a, b;
  if (pthread_create (&a, NULL, worker, (void *) (intptr_t) 300)
      || pthread_create (&b, NULL, worker, (void *) (intptr_t) 500))
    return 1;
  pthread_barrier_wait (&started); /* both workers have summed */
  uint64_t s = sum (100);
  printf ("%llu\n", (unsigned long long) s);
  exit (0);
}
