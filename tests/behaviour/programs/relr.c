/* relr.c - a table of pointers into ones (relative relocations, packed
   as DT_RELR where the toolchain can); 3 loads of load_ones.  Built as
   a library with -DENTRY=lib_main.  Returns 0.  */
#include "prelude.h"
#ifndef ENTRY
#define ENTRY main
#endif
int64_t *table[] = { &ones[1], &ones[2], &ones[3] };
volatile int at = 2;
int ENTRY (void) { init (); return (int) load_ones (3) + *table[at] - 4; }
