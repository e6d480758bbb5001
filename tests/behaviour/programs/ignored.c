/* ignored.c - raise (SIGTERM) and then 2 loads: run with SIGTERM ignored
   by the parent, raise does nothing.  Expected: status 0, "2", 2
   elements.  */
#include "prelude.h"
int main (void) { init (); raise (SIGTERM); printf ("%lld\n", (long long) load_ones (2)); return 0; }
