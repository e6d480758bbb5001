/* abort.c - abort () after 5 loads.  Expected: death by SIGABRT, and a
   report of the 5 elements.  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout);
  abort (); }
