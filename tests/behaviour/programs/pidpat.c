/* pidpat.c - Prints its pid and loads 1 (ZEROINST_OUTPUT with %p).  */
#include "prelude.h"
int main (void) { init (); printf ("%d\n", (int) getpid ()); load_ones (1); return 0; }
