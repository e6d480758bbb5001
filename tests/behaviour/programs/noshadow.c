/* noshadow.c - 100 loads, prints "ok", status 7 (run in data mode under
   a `ulimit -v` too small for the shadow).  Expected: a code-centric
   report of 100 elements.  */
#include "prelude.h"
int main (void) { init (); load_ones (100); printf ("ok\n"); return 7; }
