/* Data-centric analysis of an address that is freed and at once handed to
   a block of another allocation path, read by the same loop: 100 rounds
   of a 64-byte block from alloc_ones, read by sum32, freed, and a 64-byte
   block from alloc_zeros (glibc's tcache gives it the same address), read
   by sum32 too.  sum32's loop keeps its cached object in registers, read
   from its data slot before the loop, where the slot's generation is
   compared: a loop that kept the freed block's range would count the new
   block's elements to alloc_ones.  The runtime's lookup tries the
   thread's last object first, which is the freed block: kept past the
   free, it would do the same.  (The counts do not depend on the addresses
   being reused; the test only tests something when they are.)
   Then churn's loop frees the block it read and allocates the next at
   once (free and malloc are leaf builtins: the loop still keeps its
   counters in registers); its cached object must not stay in registers
   across them.  Last, pick's loop reads a local table through no address
   (the analysis's address 0, the stack): a fresh data slot is stale at
   the loop's entry, and the range it then gets must miss at 0 too, or
   the table's elements reach no class.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data

   alloc_ones: 100 blocks, 16 int32 of value 1 each, every one read once:
   1600 elements, 6400 bytes, 3 redundant bytes each (4800), no zero
   element; bytes 1-3 of each element always zero: 48 per block.
   alloc_zeros: 100 blocks, 16 int32 of value 0, every one read once:
   1600 elements, 6400 bytes, all redundant, 1600 zero elements.
   expect-data: heap@alloc_ones int path=main@alloc_ones allocations=100 size=6400 elements=1600 bytes=6400 redundant_bytes=4800 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=4800 map=1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z allocator=malloc
   expect-data: heap@alloc_zeros int path=main@alloc_zeros allocations=100 size=6400 elements=1600 bytes=6400 redundant_bytes=6400 zero_elements=1600 never_loaded_bytes=0 always_zero_bytes=6400 map=64z allocator=malloc
   alloc_first: one 64-byte block of int32 1, of which churn reads the
   first: 1 element, 3 redundant bytes; bytes 1-3 always zero, 60 never
   loaded.  alloc_loop: 100 blocks, each with a first int32 0; churn's
   iterations 1-99 read the first of the one before (99 zero elements);
   the last is not read: never loaded 99 * 60 + 64.
   expect-data: heap@alloc_first int path=main@alloc_first allocations=1 size=64 elements=1 bytes=4 redundant_bytes=3 zero_elements=0 never_loaded_bytes=60 always_zero_bytes=3
   expect-data: heap@alloc_loop int path=churn@alloc_loop,main@call_churn allocations=100 size=6400 elements=99 bytes=396 redundant_bytes=396 zero_elements=99 never_loaded_bytes=6004 always_zero_bytes=396
   pick: 64 int32 of the table {0, 0x100, 0, 0x100}: 32 zero elements, 32
   with two zero high bytes.
   expect-data-total: heap.int.elements=3300 heap.int.bytes=13200 heap.int.redundant_bytes=11599 heap.int.zero_elements=1699
   expect-data-total: stack.int.elements=64 stack.int.bytes=256 stack.int.redundant_bytes=192 stack.int.zero_elements=32
   expect-data-total: heap.float.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile int32_t zero;
int64_t total;
unsigned char keys[64];

__attribute__ ((noinline)) int64_t
sum32 (const int32_t *p, const int32_t *end)
{
  int64_t s = 0;
  while (p < end)
    s += *p++;
  return s;
}

/* Read Q's first word, free Q and allocate the next, N times; returns the
   last block, adds the words read to TOTAL.  */
__attribute__ ((noinline)) int32_t *
churn (int32_t *q, int n, int32_t v)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    {
      s += q[0];
      free (q);
      q = malloc (64);  // [[alloc_loop]]
      if (!q)
        break;
      q[0] = v;
    }
  total += s;
  return q;
}

/* The sum of LUT[KEYS[I] & 3] over N keys, LUT a table of its own.  */
__attribute__ ((noinline)) int64_t
pick (int32_t a, int32_t b, int n)
{
  int32_t lut[4] = { a, b, a, b };
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += lut[keys[i] & 3];
  return s;
}

int
main (void)
{
  int64_t s = 0;
  unsigned reused = 0;
  for (int r = 0; r < 100; r++)
    {
      int32_t *a = malloc (64);  // [[alloc_ones]]
      if (!a)
        return 1;
      for (int j = 0; j < 16; j++)
        a[j] = 1 + zero;
      s += sum32 (a, a + 16);
      uintptr_t at = (uintptr_t) a;
      free (a);
      int32_t *b = malloc (64);  // [[alloc_zeros]]
      if (!b)
        return 1;
      reused += (uintptr_t) b == at;
      for (int j = 0; j < 16; j++)
        b[j] = zero;
      s += sum32 (b, b + 16);
      free (b);
    }
  int32_t *first = malloc (64);  // [[alloc_first]]
  if (!first)
    return 1;
  for (int j = 0; j < 16; j++)
    first[j] = 1 + zero;
  free (churn (first, 100, zero));  // [[call_churn]]
  for (int j = 0; j < 64; j++)
    keys[j] = (unsigned char) j;
  s += total + pick (zero, 0x100 + zero, 64);
  printf ("%lld, %u of 100 addresses reused\n", (long long) s, reused);
  return 0;
}
