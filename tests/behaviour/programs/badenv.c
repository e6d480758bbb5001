/* badenv.c - 3 loads, prints "3" (run with bad ZEROINST_* values).
   Expected: the output and status of the plain build, 3 elements.  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (3)); return 0; }
