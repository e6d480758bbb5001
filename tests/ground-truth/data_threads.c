/* Data-centric analysis with threads: four workers read one global array
   and one heap array main allocated, and each allocates, reads and frees
   a small object of its own at one line (one group, four allocations,
   path ending at the start routine).  The records aggregate all threads.
   spawn_join is not instrumented: pthread_join loads pthread_t values,
   which are addresses.  -O1: one scalar load per element.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join
   expect-records: 3
   expect-data-records: 3

   Per worker: shared 64/256/208/16 + own 2/16/15/1 = 66/272/223/17 (int),
   h 32/256/224/28 (float)  (elements/bytes/redundant/zero)
   expect-threads: 66,272,223,17;66,272,223,17;66,272,223,17;66,272,223,17
   expect-total: int.elements=264 int.bytes=1088 int.redundant_bytes=892 int.zero_elements=68
   expect-total: float.elements=128 float.bytes=1024 float.redundant_bytes=896 float.zero_elements=112
   expect-data-total: static.int.elements=256 static.int.bytes=1024 static.int.redundant_bytes=832 static.int.zero_elements=64
   expect-data-total: heap.int.elements=8 heap.int.bytes=64 heap.int.redundant_bytes=60 heap.int.zero_elements=4
   expect-data-total: heap.float.elements=128 heap.float.bytes=1024 heap.float.redundant_bytes=896 heap.float.zero_elements=112
   expect-data-total: static.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0

   shared[i] = i & 3, read whole by each of 4 threads: per read 16 zero
   elements (4 redundant bytes) and 48 with 3: 208; x4: 256 elements,
   832 redundant, 64 zero.  The map is the same whatever the thread:
   element 0 "4z", then for elements 4k+1..4k+4 (k = 0..14) "1x3z1x3z1x7z"
   (element 4k+4 is zero: its 4z joins the 3z before), and "1x3z1x3z1x3z"
   for 61..63.  Always zero 16 * 4 + 48 * 3 = 208.
   expect-data: static=shared int size=256 elements=256 bytes=1024 redundant_bytes=832 zero_elements=64 never_loaded_bytes=0 always_zero_bytes=208 map=4z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x3z

   h (main's malloc of 32 doubles): 1.0 (0x3FF0..: "6z2x") at 0, 8, 16,
   24, zeros elsewhere, read whole by each thread: per read 28 zero
   elements (224 redundant); x4: 128 elements, 896 redundant, 112 zero.
   Always zero 28 * 8 + 4 * 6 = 248; map "6z2x", then 7 zero elements and
   the next 1.0's 6 zero bytes: "62z2x" three times, then 56z.
   expect-data: heap@alloc_h float path=main@alloc_h allocations=1 size=256 elements=128 bytes=1024 redundant_bytes=896 zero_elements=112 never_loaded_bytes=0 always_zero_bytes=248 map=6z2x62z2x62z2x62z2x56z allocator=malloc

   Each worker's own = {7, 0} (int64): 7 + 8 redundant, one zero element;
   four allocations of 16 bytes: size 64; always zero 15 each (60); the
   map (16 bytes) "1x15z".
   expect-data: heap@alloc_w int path=worker@alloc_w allocations=4 size=64 elements=8 bytes=64 redundant_bytes=60 zero_elements=4 never_loaded_bytes=0 always_zero_bytes=60 map=1x15z allocator=malloc
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define W 4
#define NOINLINE __attribute__ ((noinline))

int32_t shared[64];

NOINLINE int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=256 bytes=1024 redundant_bytes=832 zero_elements=64
  return s;
}

NOINLINE int64_t
sum64 (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=8 bytes=64 redundant_bytes=60 zero_elements=4
  return s;
}

NOINLINE double
sumd (const double *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=128 bytes=1024 redundant_bytes=896 zero_elements=112
  return s;
}

/* The results travel back through pthread_join (in spawn_join, not
   instrumented), so the calls are not dead and nothing more is loaded.  */
static void *
worker (void *arg)
{
  const double *h = arg;
  int64_t *own = malloc (2 * sizeof *own);  // [[alloc_w]]
  if (!own)
    abort ();
  own[0] = 7;
  own[1] = 0;
  int64_t s = sum32 (shared, 64) + sum64 (own, 2);
  free (own);
  s += (int64_t) sumd (h, 32);
  return (void *) (intptr_t) s;
}

NOINLINE int64_t
spawn_join (double *h)
{
  pthread_t t[W];
  int64_t total = 0;
  for (int k = 0; k < W; k++)
    pthread_create (&t[k], NULL, worker, h);
  for (int k = 0; k < W; k++)
    {
      void *r;
      pthread_join (t[k], &r);
      total += (intptr_t) r;
    }
  return total;
}

int
main (int argc, char **argv)
{
  (void) argv;
  int z = argc - 1;  /* 0: values cannot be folded */
  for (int i = 0; i < 64; i++)
    shared[i] = (i & 3) + z;
  double *h = malloc (32 * sizeof *h);  // [[alloc_h]]
  if (!h)
    abort ();
  for (int i = 0; i < 32; i++)
    h[i] = i % 8 == 0 ? 1.0 + z : 0.0;
  int64_t total = spawn_join (h);
  free (h);
  printf ("%lld\n", (long long) total);
  return 0;
}
