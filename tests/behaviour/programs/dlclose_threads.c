/* dlclose_threads.c - a thread loads through a dlopen-ed instrumented
   library and is still alive, its counter slots holding the library's
   counts, when main unloads the library; then it ends and the process
   exits, its report naming sites of a library that is gone.  Prints 6,
   in every mode, and the report is written.
   Usage: dlclose_threads /path/to/libdlclose_lib.so  */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static long (*lib_sum) (void);
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int stage;
static long result;

static void *
worker (void *arg)
{
  result = lib_sum ();
  pthread_mutex_lock (&m);
  stage = 1;
  pthread_cond_broadcast (&c);
  while (stage != 2)
    pthread_cond_wait (&c, &m);
  pthread_mutex_unlock (&m);
  return NULL;
}

int
main (int argc, char **argv)
{
  void *h = dlopen (argv[1], RTLD_NOW);
  if (!h)
    return 2;
  lib_sum = (long (*) (void)) dlsym (h, "lib_sum");
  pthread_t t;
  pthread_create (&t, NULL, worker, NULL);
  pthread_mutex_lock (&m);
  while (stage != 1)
    pthread_cond_wait (&c, &m);
  pthread_mutex_unlock (&m);
  dlclose (h);
  pthread_mutex_lock (&m);
  stage = 2;
  pthread_cond_broadcast (&c);
  pthread_mutex_unlock (&m);
  pthread_join (t, NULL);
  printf ("%ld\n", result);
  return 0;
}
