/* term.c - raise (SIGTERM) after 5 loads.  Expected: death by SIGTERM,
   and a report of the 5 elements.  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout);
  raise (SIGTERM); return 0; }
