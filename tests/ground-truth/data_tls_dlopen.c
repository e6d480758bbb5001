/* Thread-local variables of a library loaded with dlopen after the
   threads' first loads: the loader allocates a thread's block of the
   library's TLS at its first use (a heap block allocated by the
   loader), and the thread's instances are objects from then on, exact
   from the first load.  main reads g (so it has looked objects up before
   the library exists), loads the library, reads a page from mmap (unknown
   memory: the runtime looks for new libraries, finds this one and its
   thread-local variables, but no block of main's yet), reads h, and runs
   lsum (3) itself and lsum (5) in a worker.  Then it closes the library,
   opens it again and runs lsum (9): the loader gives main's new block
   the address of the old one, whose instances went with the old library.
   -O1: one scalar load per element.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-dlopen: zidtls data_tls_dlopen_lib.c
   zeroinst-plugin-args: exclude=run_worker
   expect-records: 6
   expect-data-records: 3

   lsum (k) reads ltl whole: ltl[0..1] = k (3 redundant bytes each), 14
   zeros (4 each): 16/64/62/14 (elements/bytes/redundant/zero); three
   calls, three instances of 64 bytes: 48/192/186/42, size 192, always
   zero 3 * 62; map by offset "1x3z1x3z" and 56 z.  One record: the
   library opened again has the group of the first opening.  Code: three
   records (main's two calls are on two lines).
   expect@ltl_load: elements=48 bytes=192 redundant_bytes=186 zero_elements=42
   On aarch64 the loader puts the library's TLS in the static TLS area
   (TLS descriptors), and a thread that existed at the dlopen does not
   see its block (dl_iterate_phdr gives none: its TLS vector is not
   updated by descriptor accesses): main's instances are unknown memory,
   2 * 16/64/62/14, and the records have the worker's alone.
   expect-data: static=ltl int thread_local=True module=libzidtls.so size=192 allocations=3 elements=48 bytes=192 redundant_bytes=186 zero_elements=42 never_loaded_bytes=0 always_zero_bytes=186 map=1x3z1x59z [aarch64] size=64 allocations=1 elements=16 bytes=64 redundant_bytes=62 zero_elements=14 always_zero_bytes=62

   g = {1, 0, ...} (int32[8]): 8/32/31/7; always zero 3 + 28.
   expect-data: static=g int size=32 elements=8 bytes=32 redundant_bytes=31 zero_elements=7 never_loaded_bytes=0 always_zero_bytes=31 map=1x31z

   h = {0, 0, 0, 7}: 4/16/15/3; always zero 12 + 3.
   expect-data: static=h int size=16 elements=4 bytes=16 redundant_bytes=15 zero_elements=3 never_loaded_bytes=0 always_zero_bytes=15 map=12z1x3z
   expect-data-total: static.int.elements=60 static.int.bytes=240 static.int.redundant_bytes=232 static.int.zero_elements=52

   The page: {0, 0x100, 0x10000, 0}: 4/16/11/2, unknown memory.
   expect-data-total: unknown.int.elements=4 unknown.int.bytes=16 unknown.int.redundant_bytes=11 unknown.int.zero_elements=2
   expect-data-total: heap.int.elements=0 stack.int.elements=0
   expect-data-total[aarch64]: static.int.elements=28 static.int.bytes=112 static.int.redundant_bytes=108 static.int.zero_elements=24 unknown.int.elements=36 unknown.int.bytes=144 unknown.int.redundant_bytes=135 unknown.int.zero_elements=30
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define NOINLINE __attribute__ ((noinline))

int g[8] = { 1 };
int h[4] = { 0, 0, 0, 7 };

NOINLINE int
sum_g (void)
{
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += g[i];  // expect: elements=8 bytes=32 redundant_bytes=31 zero_elements=7
  return s;
}

NOINLINE int
sum_h (void)
{
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += h[i];  // expect: elements=4 bytes=16 redundant_bytes=15 zero_elements=3
  return s;
}

NOINLINE int
sum_mapped (const int *p)
{
  int s = 0;
  for (int i = 0; i < 4; i++)
    s += p[i];  // expect: elements=4 bytes=16 redundant_bytes=11 zero_elements=2
  return s;
}

static void *
worker (void *f)
{
  return (void *) (long) ((int (*) (int)) f) (5);
}

/* Not instrumented: pthread_join's result is loaded from the stack.  */
NOINLINE long
run_worker (int (*f) (int))
{
  pthread_t t;
  void *r;
  if (pthread_create (&t, NULL, worker, (void *) f) || pthread_join (t, &r))
    return -1;
  return (long) r;
}

int
main (void)
{
  int s = sum_g ();
  const char *path = getenv ("ZI_TEST_DLOPEN_zidtls");
  void *lib = path ? dlopen (path, RTLD_NOW) : NULL;
  if (!lib)
    {
      printf ("dlopen failed: %s\n", dlerror ());
      return 1;
    }
  int (*f) (int) = (int (*) (int)) dlsym (lib, "lsum");
  if (!f)
    return 1;
  int *m = mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 1;
  m[1] = 0x100;
  m[2] = 0x10000;
  s += sum_mapped (m) - 0x10100;
  s += sum_h ();
  int a = f (3);
  long b = run_worker (f);
  dlclose (lib);
  lib = dlopen (path, RTLD_NOW);
  f = lib ? (int (*) (int)) dlsym (lib, "lsum") : NULL;
  if (!f)
    return 1;
  int c = f (9);
  printf ("%d %d %ld %d\n", s, a, b, c);
  return !(s == 8 && a == 6 && b == 10 && c == 18);
}
