/* segv.c - A NULL dereference after 5 loads.  Expected: death by SIGSEGV,
   and a report of the 5 elements.  */
#include "prelude.h"
int *volatile nil;
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout);
  return *nil; }
