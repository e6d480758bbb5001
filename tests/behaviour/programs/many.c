/* many.c - 2000 short-lived threads, one after another, each loading 1
   value.  Expected: 2000 elements, one thread row of 1 element each (plus
   main's).  */
#include "prelude.h"
static void *t (void *a) { load_ones (1); return 0; }
int main (void) { init ();
  for (int i = 0; i < 2000; i++) { pthread_t th; pthread_create (&th, 0, t, 0); pthread_join (th, 0); }
  printf ("done\n"); return 0; }
