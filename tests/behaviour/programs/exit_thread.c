/* exit_thread.c - exit(3) from a second thread while main waits: main
   loads 10 ones, the thread 20.  Expected: status 3, 30 elements of
   load_ones, 210 redundant bytes (7 per int64 one).  */
#include "prelude.h"
static void *t (void *a) { load_ones (20); exit (3); }
int main (void) { init (); load_ones (10); pthread_t th; pthread_create (&th, 0, t, 0);
  pthread_join (th, 0); return 0; }
