/* compact.c - load_ones is reached through mid1 (twice, 3 elements each)
   and mid2 (4 and 5 from two calls; without -g both calls are the same
   frame "mid2", line 0).  Expected: two records, paths load_ones <- mid1
   <- main (6 elements) and load_ones <- mid2 <- main (9).  */
#include "prelude.h"
__attribute__ ((noinline)) void mid1 (void) { load_ones (3); sink = 1; }
__attribute__ ((noinline)) void mid2 (void) { load_ones (4); load_ones (5); sink = 2; }
int main (void) { init (); mid1 (); mid2 (); mid1 (); return 0; }
