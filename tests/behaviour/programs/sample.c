/* sample.c - 4 x 64 loads of ones (a static array).  Expected in data
   mode: 256 elements of static data, every load counted whatever
   ZEROINST_SAMPLE and ZEROINST_BUFFER say.  */
#include "prelude.h"
int main (void) { init (); for (int r = 0; r < 4; r++) load_ones (64); printf ("ok\n"); return 0; }
