/* uexit.c - _exit (4) after 5 loads: it cannot be caught.  Expected:
   status 4 and no report.  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout); _exit (4); }
