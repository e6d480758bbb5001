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
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data

   alloc_ones: 100 blocks, 16 int32 of value 1 each, every one read once:
   1600 elements, 6400 bytes, 3 redundant bytes each (4800), no zero
   element; bytes 1-3 of each element always zero: 48 per block.
   alloc_zeros: 100 blocks, 16 int32 of value 0, every one read once:
   1600 elements, 6400 bytes, all redundant, 1600 zero elements.
   expect-data: heap@alloc_ones int path=main@alloc_ones allocations=100 size=6400 elements=1600 bytes=6400 redundant_bytes=4800 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=4800 map=1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z allocator=malloc
   expect-data: heap@alloc_zeros int path=main@alloc_zeros allocations=100 size=6400 elements=1600 bytes=6400 redundant_bytes=6400 zero_elements=1600 never_loaded_bytes=0 always_zero_bytes=6400 map=64z allocator=malloc
   expect-data-total: heap.int.elements=3200 heap.int.bytes=12800 heap.int.redundant_bytes=11200 heap.int.zero_elements=1600
   expect-data-total: heap.float.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile int32_t zero;

__attribute__ ((noinline)) int64_t
sum32 (const int32_t *p, const int32_t *end)
{
  int64_t s = 0;
  while (p < end)
    s += *p++;
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
  printf ("%lld, %u of 100 addresses reused\n", (long long) s, reused);
  return 0;
}
