/* prelude.h - shared by the behaviour programs: load_ones (N) sums N
   int64 ones (7 redundant bytes each) in a function of its own, so every
   case can count what it loaded.  The sum is also stored to a volatile
   sink: a call to a pure function whose result is unused is deleted by
   GCC, and then the optimized program loads nothing.  */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int64_t ones[1000];
volatile int64_t sink;
__attribute__ ((noinline)) int64_t load_ones (int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += ones[i]; sink = s; return s; }
static void init (void) { for (int i = 0; i < 1000; i++) ones[i] = 1; }
