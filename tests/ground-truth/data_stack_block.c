/* Data-centric analysis of a thread whose stack is a heap block of the
   program's (pthread_attr_setstack), one page longer than the stack: the
   thread reads the page past its stack (heap: the block becomes the
   thread's last object) and then, at the same site, a local array on its
   stack, which lies in that block too.  The stack is classed first, also
   when the block is the last object the thread found (object_cache.c).
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join

   Ten rounds of: the page's first 8 uint64 (values 1..8: 7 redundant
   bytes each), then the local array {1, 0, 0, 0} (7 + 3 * 8 = 31
   redundant bytes, 3 zero elements).  Heap: 80 elements, 560 redundant;
   stack: 40 elements, 310 redundant, 30 zero.  The block (1 MiB + 4 KiB)
   has 64 bytes loaded: the rest never loaded as far as its own loads go
   (the stack part's loads are the stack's).
   expect-data: heap@alloc_stack int allocations=1 size=1052672 elements=80 bytes=640 redundant_bytes=560 zero_elements=0 never_loaded_bytes=1052608 always_zero_bytes=56 allocator=aligned_alloc
   expect-data-total: heap.int.elements=80 heap.int.redundant_bytes=560 stack.int.elements=40 stack.int.bytes=320 stack.int.redundant_bytes=310 stack.int.zero_elements=30
   expect-data-total: static.int.elements=0 unknown.int.elements=0 heap.float.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STACK (1 << 20)
#define PAGE 4096

/* noipa: not found pure and called once for all rounds.  */
__attribute__ ((noipa)) uint64_t
sum (const uint64_t *p, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

static void *
worker (void *arg)
{
  const uint64_t *page = arg;
  uint64_t local[4] = { 1, 0, 0, 0 };
  uint64_t s = 0;
  for (int round = 0; round < 10; round++)
    {
      s += sum (page, 8);
      s += sum (local, 4);
    }
  return (void *) (uintptr_t) s;
}

/* Not in spawn_join: an excluded function's frames have no lines.  */
__attribute__ ((noinline)) void *
new_stack (void)
{
  void *block = aligned_alloc (PAGE, STACK + PAGE);  // [[alloc_stack]]
  if (!block)
    exit (1);
  return block;
}

__attribute__ ((noinline)) uint64_t
spawn_join (void)
{
  void *block = new_stack ();
  uint64_t *page = (uint64_t *) ((char *) block + STACK);
  for (int i = 0; i < 8; i++)
    page[i] = (uint64_t) i + 1;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  if (pthread_attr_setstack (&attr, block, STACK))
    exit (1);
  pthread_t t;
  if (pthread_create (&t, &attr, worker, page))
    exit (1);
  void *r;
  pthread_join (t, &r);
  pthread_attr_destroy (&attr);
  free (block);
  return (uint64_t) (uintptr_t) r;
}

int
main (void)
{
  printf ("%llu\n", (unsigned long long) spawn_join ());  // [[call_spawn]]
  return 0;
}
