/* Data-centric analysis of many live blocks resized by realloc: 64 blocks
   of 1 KiB grown to 128 KiB (from the chunk tables into the block tree,
   with an object of another shape: heap.c) and 32 blocks of 16 bytes
   grown to 2 KiB (from one chunk tier to another), all live at once and
   interleaved, so the blocks that move have neighbours in both
   structures.  Each object keeps its group and its allocator (malloc)
   across realloc; its size is the final one.  The big blocks are read
   before they grow (8 elements) and after (the first 4 only): the states
   of bytes 16..31 survive the move only if realloc carries them.  Then
   the odd ones shrink back to 1 KiB (from the block tree into the chunk
   tables: heap.c copies their objects into slab objects) and their
   first 4 are read once more.
   (A block re-inserted with its old tree links once made a cycle in the
   tree: the next allocation never returned.)
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-data-records: 5
   (the two groups, and the statics bigs, smalls and zero)

   big block i (0..63): its first 8 int32 are i, read before the growth,
   and the first 4 again after: 12 elements a block, and 4 more for the
   32 odd blocks after the shrink.  Block 0's are zero (48 redundant
   bytes, 12 zero elements), blocks 1..63 have 3 zero high bytes per
   element (63 * 12 * 3 + 32 * 4 * 3 = 2652): 896 elements, 3584 bytes,
   2700 redundant, 12 zero.  Loaded bytes are the first 32 of each
   block: always zero 32 + 63 * 24 = 1544; final sizes 32 * 131072 +
   32 * 1024 = 4227072, never loaded 32 * (131072 - 32) + 32 * (1024 -
   32) = 4225024.
   small block i (0..31): its 4 int32 are 0x101 * (i + 1) (both low bytes
   non-zero, 2 redundant): 128 elements, 512 bytes, 256 redundant;
   never loaded 32 * (2048 - 16).
   expect-data: heap@alloc_big int path=main@alloc_big allocations=64 size=4227072 elements=896 bytes=3584 redundant_bytes=2700 zero_elements=12 never_loaded_bytes=4225024 always_zero_bytes=1544 map=1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z131040n allocator=malloc
   expect-data: heap@alloc_small int path=main@alloc_small allocations=32 size=65536 elements=128 bytes=512 redundant_bytes=256 zero_elements=0 never_loaded_bytes=65024 always_zero_bytes=256 map=2x2z2x2z2x2z2x2z2032n allocator=malloc
   expect-data: heap@realloc_big int absent
   expect-data: heap@realloc_small int absent
   expect-data: heap@shrink_big int absent
   expect-data-total: heap.int.elements=1024 heap.int.bytes=4096 heap.int.redundant_bytes=2956 heap.int.zero_elements=12
   expect-data-total: heap.float.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int32_t *bigs[64], *smalls[32];
volatile int32_t zero;

__attribute__ ((noinline)) int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

int
main (void)
{
  int32_t z = zero;
  for (int i = 0; i < 64; i++)
    {
      bigs[i] = malloc (1024);  // [[alloc_big]]
      for (int j = 0; j < 8; j++)
        bigs[i][j] = i + z;
      if (i % 2 == 0)
        {
          int32_t *q = malloc (16);  // [[alloc_small]]
          for (int j = 0; j < 4; j++)
            q[j] = 0x101 * (i / 2 + 1) + z;
          smalls[i / 2] = q;
        }
    }
  int64_t s = 0;
  for (int i = 0; i < 64; i++)
    s += sum32 (bigs[i], 8);
  /* Grow them in an order that is neither the allocation order nor
     address order.  */
  for (int k = 0; k < 64; k++)
    {
      int i = (k * 37) % 64;
      bigs[i] = realloc (bigs[i], 131072);  // [[realloc_big]]
      if (i % 2 == 0)
        smalls[i / 2] = realloc (smalls[i / 2], 2048);  // [[realloc_small]]
    }
  for (int i = 0; i < 64; i++)
    s += sum32 (bigs[i], 4);
  for (int i = 0; i < 32; i++)
    s += sum32 (smalls[i], 4);
  for (int i = 1; i < 64; i += 2)
    {
      bigs[i] = realloc (bigs[i], 1024);  // [[shrink_big]]
      s += sum32 (bigs[i], 4);
    }
  for (int i = 0; i < 64; i++)
    free (bigs[i]);
  for (int i = 0; i < 32; i++)
    free (smalls[i]);
  printf ("%lld\n", (long long) s);
  return 0;
}
