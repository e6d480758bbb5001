/* Data-centric analysis under heavy churn of small blocks: 51200
   allocations of 1 to 256 bytes from two call sites, 20000 of them live at
   a time, freed in a pseudo-random order, so that addresses are reused
   over and over, blocks of both groups sit side by side in one 256-byte
   chunk and the small-block table grows several times and deletes from
   the middle of its probe runs.  A load found in the wrong block, or in
   none, moves bytes between the groups or to "unknown".
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data

   Allocation i (0..51199) has size 1 + i % 256 and is read byte by byte
   once, right after it is filled, as uint8:
   - even i (alloc_ones, filled with 1): sizes 1, 3, ..., 255, each 200
     times: 200 * 128^2 = 3276800 elements and bytes, no redundant byte;
     the group's map is the union of its blocks: 255 bytes seen non-zero;
   - odd i (alloc_zeros, filled with 0): sizes 2, 4, ..., 256, each 200
     times: 200 * 128 * 129 = 3302400 elements, every one zero (1 redundant
     byte each); map: 256 bytes always zero.
   No byte of any block is left unread.
   expect-data: heap@alloc_ones int path=fresh@alloc_ones,main@call_fresh allocations=25600 size=3276800 elements=3276800 bytes=3276800 redundant_bytes=0 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=0 map=255x allocator=malloc
   expect-data: heap@alloc_zeros int path=fresh@alloc_zeros,main@call_fresh allocations=25600 size=3302400 elements=3302400 bytes=3302400 redundant_bytes=3302400 zero_elements=3302400 never_loaded_bytes=0 always_zero_bytes=3302400 map=256z allocator=malloc
   expect-data-total: heap.int.elements=6579200 heap.int.bytes=6579200 heap.int.redundant_bytes=3302400 heap.int.zero_elements=3302400
   expect-data-total: heap.float.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 20000
#define ALLOCATIONS 51200
static unsigned char *pool[LIVE];

__attribute__ ((noinline)) uint64_t
sum8 (const unsigned char *p, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

__attribute__ ((noinline)) unsigned char *
fresh (int i)
{
  int size = 1 + i % 256;
  unsigned char *p;
  if (i % 2 == 0)
    {
      p = malloc (size);  // [[alloc_ones]]
      memset (p, 1, size);
    }
  else
    {
      p = malloc (size);  // [[alloc_zeros]]
      memset (p, 0, size);
    }
  return p;
}

int
main (void)
{
  uint64_t s = 0, x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < ALLOCATIONS; i++)
    {
      unsigned char *p = fresh (i);  // [[call_fresh]]
      s += sum8 (p, 1 + i % 256);
      if (i < LIVE)
        {
          pool[i] = p;
          continue;
        }
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      int k = (int) (x % LIVE);
      free (pool[k]);
      pool[k] = p;
    }
  for (int k = 0; k < LIVE; k += 2)
    free (pool[k]);       /* half freed, half live at exit */
  printf ("%llu\n", (unsigned long long) s);
  return 0;
}
