/* Data-centric analysis of realloc racing with malloc in another thread:
   one allocator arena and no thread caches (GLIBC_TUNABLES), so that the
   chunk a moving realloc gives back is often the next one the other
   thread's malloc gets, right away.  The mover reallocates its block
   between 32 and 100 bytes (growing moves it: glibc 2.36, every time)
   and reads its four words after each realloc; the churner
   mallocs, reads and frees 32-byte blocks.  Neither block may be taken
   for the other (heap.c, zi_heap_realloc): every load is counted for its
   own group, none for unknown memory.  The window is short: with the
   C library's realloc outside the lock, 3 of 18 runs failed.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data GLIBC_TUNABLES=glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0
   zeroinst-plugin-args: exclude=main

   ROUNDS = 100000 each.  The mover's words are 1, 2, 3, 4 (int64: 7
   redundant bytes each): 400000 elements, 2800000 redundant; the
   churner's 1 << 8 .. 4 << 8 (6 each): 400000, 2400000.
   expect-data: heap@alloc_p int allocations=1 elements=400000 bytes=3200000 redundant_bytes=2800000 zero_elements=0
   expect-data: heap@alloc_q int allocations=100000 elements=400000 bytes=3200000 redundant_bytes=2400000 zero_elements=0
   expect-data-total: heap.int.elements=800000 heap.int.redundant_bytes=5200000 unknown.int.elements=0 static.int.elements=0 stack.int.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 100000
static pthread_barrier_t start;     /* both threads at once */

/* noipa: each call made, its four loads in it.  */
__attribute__ ((noipa)) int64_t
sum4 (const int64_t *p)
{
  return p[0] + p[1] + p[2] + p[3];
}

static void *
mover (void *arg)
{
  int64_t s = 0, *p = malloc (32);  // [[alloc_p]]
  pthread_barrier_wait (&start);
  for (int i = 0; i < ROUNDS && p; i++)
    {
      int64_t *q = realloc (p, i % 2 ? 32 : 100);
      if (!q)
        break;
      p = q;
      for (int k = 0; k < 4; k++)
        p[k] = k + 1;
      s += sum4 (p);
    }
  free (p);
  *(int64_t *) arg = s;
  return NULL;
}

static void *
churner (void *arg)
{
  int64_t s = 0;
  pthread_barrier_wait (&start);
  for (int i = 0; i < ROUNDS; i++)
    {
      int64_t *q = malloc (32);  // [[alloc_q]]
      if (!q)
        break;
      for (int k = 0; k < 4; k++)
        q[k] = (int64_t) (k + 1) << 8;
      s += sum4 (q);
      free (q);
    }
  *(int64_t *) arg = s;
  return NULL;
}

int
main (void)
{
  pthread_t a, b;
  int64_t sa = 0, sb = 0;
  pthread_barrier_init (&start, NULL, 2);
  if (pthread_create (&a, NULL, mover, &sa) || pthread_create (&b, NULL, churner, &sb))
    return 1;
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  printf ("%lld %lld\n", (long long) sa, (long long) sb);
  return sa != 10LL * ROUNDS || sb != 10LL * 256 * ROUNDS;
}
