/* unwritable.c - 3 loads, prints "3", status 7 (run with a report
   directory that cannot be created).  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (3)); return 7; }
