/* defdir.c - Prints its pid, changes directory to /, loads 1.  Expected:
   the default report directory, ./zeroinst-<program>-<pid>, in the
   starting directory.  */
#include "prelude.h"
int main (void) { init (); printf ("%d\n", (int) getpid ()); chdir ("/"); load_ones (1); return 0; }
