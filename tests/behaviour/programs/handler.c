/* handler.c - The program's own SIGSEGV handler, installed in main (after
   the runtime's), recovers from a NULL dereference; then 4 loads.
   Expected: status 0, "recovered 4", 4 elements.  */
#include "prelude.h"
#include <setjmp.h>
static sigjmp_buf env;
static void h (int s) { siglongjmp (env, 1); }
int *volatile nil;
int main (void) { init (); signal (SIGSEGV, h);
  if (!sigsetjmp (env, 1)) { int x = *nil; printf ("no fault %d\n", x); }
  else printf ("recovered %lld\n", (long long) load_ones (4));
  return 0; }
