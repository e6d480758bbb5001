/* exec.c - 5 loads, then execv /bin/echo.  Expected: the report of the
   part before exec (5 elements); the new image prints "replaced".  */
#include "prelude.h"
int main (void) { init (); printf ("%lld\n", (long long) load_ones (5)); fflush (stdout);
  char *argv[] = { "echo", "replaced", 0 }; execv ("/bin/echo", argv); return 1; }
