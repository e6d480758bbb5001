/* dump.c - load_ones: one load of one element (the plugin's statistics
   line: "1 loads, 1 elements, 0 not analysed").  */
#include "prelude.h"
int main (void) { init (); return (int) load_ones (3) - 3; }
