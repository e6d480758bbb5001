/* envhelp.c - 5 loads, prints "ok", status 3.  */
#include "prelude.h"
int main (void) { init (); load_ones (5); printf ("ok\n"); return 3; }
