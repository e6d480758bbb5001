/* Data-centric analysis of a function reached through one call site in
   two contexts that read different objects: sum, called by helper, which
   via_a and via_b call with a block of alloc_a and one of alloc_b, in
   turn.  In data mode alone the two contexts of sum share the slots of
   its call site (contexts.c) and evict each other's cached object at
   every call; after a number of runtime lookups the second context gets
   slots of its own (then neither misses again).  The counts must not
   depend on which slots counted them.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-data-records: 2

   300 rounds of via_a (a) then via_b (b), each reading the four uint64 of
   its block once.  a = {1, 0, 0, 2}: redundant 7 + 8 + 8 + 7 = 30, two
   zero elements; b = {0x10000, 5, 0, 0}: 5 + 7 + 8 + 8 = 28, two zero
   elements.  Per block: 1200 elements, 9600 bytes; a 9000 redundant, 600
   zero; b 8400 redundant, 600 zero.  (The second context of sum makes
   4 lookups per call until it has slots of its own, after 1,024.)  Maps: a 1x7z, 8z, 8z, 1x7z; b
   2z1x5z, 1x7z, 16z; always zero 30 each.
   expect-data: heap@alloc_a int allocations=1 size=32 elements=1200 bytes=9600 redundant_bytes=9000 zero_elements=600 never_loaded_bytes=0 always_zero_bytes=30 map=1x23z1x7z allocator=malloc
   expect-data: heap@alloc_b int allocations=1 size=32 elements=1200 bytes=9600 redundant_bytes=8400 zero_elements=600 never_loaded_bytes=0 always_zero_bytes=30 map=2z1x5z1x23z allocator=malloc
   expect-data-total: heap.int.elements=2400 heap.int.bytes=19200 heap.int.redundant_bytes=17400 heap.int.zero_elements=1200
   expect-data-total: heap.float.elements=0 static.int.elements=0 stack.int.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct rec
{
  uint64_t v[4];
};

static struct rec *
checked (struct rec *r)
{
  if (!r)
    exit (1);
  return r;
}

__attribute__ ((noinline)) struct rec *
new_a (void)
{
  return checked (malloc (sizeof (struct rec)));  // [[alloc_a]]
}

__attribute__ ((noinline)) struct rec *
new_b (void)
{
  return checked (malloc (sizeof (struct rec)));  // [[alloc_b]]
}

__attribute__ ((noipa)) uint64_t
sum (const uint64_t *p)
{
  return p[0] + p[1] + p[2] + p[3];
}

/* One call site of sum, whatever the caller.  */
__attribute__ ((noipa)) uint64_t
helper (const struct rec *r)
{
  return sum (r->v) + 1;
}

__attribute__ ((noipa)) uint64_t
via_a (const struct rec *r)
{
  return helper (r) + 1;
}

__attribute__ ((noipa)) uint64_t
via_b (const struct rec *r)
{
  return helper (r) + 2;
}

int
main (void)
{
  struct rec *a = new_a (), *b = new_b ();
  a->v[0] = 1, a->v[1] = 0, a->v[2] = 0, a->v[3] = 2;
  b->v[0] = 0x10000, b->v[1] = 5, b->v[2] = 0, b->v[3] = 0;
  uint64_t s = 0;
  for (int round = 0; round < 300; round++)
    s += via_a (a) + via_b (b);
  printf ("%llu\n", (unsigned long long) s);
  free (a);
  free (b);
  return 0;
}
