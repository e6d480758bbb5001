/* Data-centric analysis of a thread whose stack is a heap block of the
   program's (pthread_attr_setstack), one page longer than the stack.
   First the thread reads the page past its stack (heap: the block becomes
   the thread's last object) and then, at the same site, a local array on
   its stack, which lies in that block too.  The stack is classed first,
   also when the block is the last object the thread found
   (object_cache.c).  Then it reads the page and the array alternately
   through ONE call site of sum (one context): the site's data slot caches
   the block after a page read, and the array's loads must not hit that
   range (it stops at the thread's stack) nor the block's group ids (a
   block that could hold a stack has none, shadow.c).  The block is 48
   KiB + 4 KiB where the C library allows a 48 KiB stack (x86-64,
   riscv64: small enough for group ids otherwise), larger where it needs
   more (aarch64: 128 KiB).
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join:pick

   Ten rounds of: the page's first 8 uint64 (values 1..8: 7 redundant
   bytes each), then the local array {1, 0, 0, 0} (7 + 3 * 8 = 31
   redundant bytes, 3 zero elements); then twenty rounds alternating the
   same two reads.  Heap: 2 * 80 = 160 elements, 1120 redundant; stack:
   2 * 40 = 80 elements, 640 bytes, 620 redundant, 60 zero.  The block
   has 64 bytes loaded, 56 of them always zero (the high 7 bytes of each
   value); the rest is never loaded as far as its own loads go (the stack
   part's loads are the stack's).
   expect-data: heap@alloc_stack int allocations=1 elements=160 bytes=1280 redundant_bytes=1120 zero_elements=0 always_zero_bytes=56 allocator=aligned_alloc
   expect-data-total: heap.int.elements=160 heap.int.redundant_bytes=1120 stack.int.elements=80 stack.int.bytes=640 stack.int.redundant_bytes=620 stack.int.zero_elements=60
   expect-data-total: static.int.elements=0 unknown.int.elements=0 heap.float.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Excluded, and noipa: the selection is not folded into two call sites
   of sum.  */
__attribute__ ((noipa)) const uint64_t *
pick (int round, const uint64_t *page, const uint64_t *local)
{
  return round & 1 ? local : page;
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
  for (int round = 0; round < 20; round++)
    s += sum (pick (round, page, local), round & 1 ? 4 : 8);
  return (void *) (uintptr_t) s;
}

/* 48 KiB, or the C library's least stack if larger.  */
static size_t
stack_size (void)
{
  long min = sysconf (_SC_THREAD_STACK_MIN);
  size_t size = 48 << 10;
  if (min > 0 && (size_t) min > size)
    size = ((size_t) min + PAGE - 1) & ~(size_t) (PAGE - 1);
  return size;
}

/* Not in spawn_join: an excluded function's frames have no lines.  */
__attribute__ ((noinline)) void *
new_stack (size_t size)
{
  void *block = aligned_alloc (PAGE, size + PAGE);  // [[alloc_stack]]
  if (!block)
    exit (1);
  return block;
}

__attribute__ ((noinline)) uint64_t
spawn_join (void)
{
  size_t size = stack_size ();
  void *block = new_stack (size);
  uint64_t *page = (uint64_t *) ((char *) block + size);
  for (int i = 0; i < 8; i++)
    page[i] = (uint64_t) i + 1;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  if (pthread_attr_setstack (&attr, block, size))
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
