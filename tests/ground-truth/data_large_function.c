/* Data-centric analysis of a function of many load sites reached through
   one call site in two contexts that read blocks of two allocation
   paths.  In data mode alone a function with this many slots gets them
   in zero pages, each data slot set up at its first miss (contexts.c):
   big's first context has such slots, its second one shares them, misses
   at each of its 128 sites at every call (the blocks alternate), and
   after 1,024 lookups (its ninth call) gets slots of its own, made the
   same way.  In code,data mode every context has its slots from the
   start.  The counts must be the same either way.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-data-records: 2

   300 rounds of via_a (block a) then via_b (block b), each reading the
   128 uint64 of its block once: 38,400 elements and 307,200 bytes per
   block.
   a[i] = i: a[0] is zero (8 redundant bytes), a[1..127] have one
   significant byte (7 each): 897 per call, 269,100 in all; 300 zero
   elements; always zero 8 + 127 * 7 = 897 bytes.
   b is zero but b[5] = 0x10000 (three significant bytes: 5 redundant)
   and b[100] = 1 << 56 (eight: 0): 126 * 8 + 5 = 1,013 per call, 303,900
   in all; 37,800 zero elements; always zero 126 * 8 + 7 + 7 = 1,022.
   expect-data: heap@alloc_a int allocations=1 size=1024 elements=38400 bytes=307200 redundant_bytes=269100 zero_elements=300 never_loaded_bytes=0 always_zero_bytes=897 allocator=malloc
   expect-data: heap@alloc_b int allocations=1 size=1024 elements=38400 bytes=307200 redundant_bytes=303900 zero_elements=37800 never_loaded_bytes=0 always_zero_bytes=1022 allocator=malloc
   expect-data-total: heap.int.elements=76800 heap.int.bytes=614400 heap.int.redundant_bytes=573000 heap.int.zero_elements=38100
   expect-data-total: heap.float.elements=0 static.int.elements=0 stack.int.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 128

static uint64_t *
checked (uint64_t *p)
{
  if (!p)
    exit (1);
  return p;
}

__attribute__ ((noinline)) uint64_t *
new_a (void)
{
  return checked (malloc (N * sizeof (uint64_t)));  // [[alloc_a]]
}

__attribute__ ((noinline)) uint64_t *
new_b (void)
{
  return checked (malloc (N * sizeof (uint64_t)));  // [[alloc_b]]
}

/* 128 loads, one site each (no vectorization at -O1).  */
#define X(i) s = s * 3 + p[i];
#define X2(i) X (i) X (i + 1)
#define X4(i) X2 (i) X2 (i + 2)
#define X8(i) X4 (i) X4 (i + 4)
#define X16(i) X8 (i) X8 (i + 8)
#define X32(i) X16 (i) X16 (i + 16)
#define X64(i) X32 (i) X32 (i + 32)
#define X128(i) X64 (i) X64 (i + 64)

__attribute__ ((noipa)) uint64_t
big (const uint64_t *p)
{
  uint64_t s = 0;
  X128 (0)
  return s;
}

/* One call site of big, whatever the caller.  */
__attribute__ ((noipa)) uint64_t
helper (const uint64_t *p)
{
  return big (p) + 1;
}

__attribute__ ((noipa)) uint64_t
via_a (const uint64_t *p)
{
  return helper (p) + 1;
}

__attribute__ ((noipa)) uint64_t
via_b (const uint64_t *p)
{
  return helper (p) + 2;
}

int
main (void)
{
  uint64_t *a = new_a (), *b = new_b ();
  for (int i = 0; i < N; i++)
    {
      a[i] = (uint64_t) i;
      b[i] = 0;
    }
  b[5] = 0x10000;
  b[100] = (uint64_t) 1 << 56;
  uint64_t s = 0;
  for (int round = 0; round < 300; round++)
    s += via_a (a) + via_b (b);
  printf ("%llu\n", (unsigned long long) s);
  free (a);
  free (b);
  return 0;
}
