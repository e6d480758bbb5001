/* failexec.c - 5 loads, an exec that fails (its report is written), 3
   more loads, exit.  Expected: the report at exit holds all 8 (the first
   report took nothing away from the counters).  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout);
  char *argv[] = { "x", 0 }; execv ("/nonexistent/zeroinst-no-such-program", argv);
  printf ("%lld\n", (long long) load_ones (3)); return 0; }
