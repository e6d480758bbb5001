/* Every integer width, signed and unsigned, one load per element (-O1: no
   vectorization).  Redundant bytes = leading zero bytes from the most
   significant byte; derivations beside each array.
   zeroinst-flags: -O1
   expect-records: 6
   expect-lines: 27 28 29 30 31 32
   expect-total: int.elements=40 int.bytes=192 int.redundant_bytes=105 int.zero_elements=9
   expect-total: float.elements=0 other.loads=0 */
#include <stdint.h>
#include <stdio.h>

#define N 8
/* 0->1, others 0: red 2, zero 2 */
uint8_t u8[N] = { 0, 1, 2, 3, 0x80, 0xff, 0, 7 };
/* 0->2, 1->1, ff->1, 100->0, 1234->0, ffff->0, 0->2, 2->1: red 7, zero 2 */
uint16_t u16[N] = { 0, 1, 0xff, 0x100, 0x1234, 0xffff, 0, 2 };
/* 4, 3, 2, 1, 0, 0, 3, 4: red 17, zero 2 */
uint32_t u32[N] = { 0, 1, 0x100, 0x10000, 0x1000000, 0xffffffff, 0x7f, 0 };
/* 8, 7, 0, 7, 6, 3, 0, 7: red 38, zero 1 */
int64_t i64[N] = { 0, 1, -1, 255, 256, 0x100000000ll, INT64_MIN, 42 };
/* -1 = ffff -> 0, -256 = ff00 -> 0, 255 -> 1, 0 -> 2: red 3, zero 1 */
int16_t s16[4] = { -1, -256, 255, 0 };
/* 0 -> 16, 1 -> 15, 2^64 -> 7, 2^127 -> 0: red 38, zero 1 */
unsigned __int128 u128[4];

#define NOINLINE __attribute__ ((noinline))
NOINLINE uint64_t sum8 (int n) { uint64_t s = 0; for (int i = 0; i < n; i++) s += u8[i]; return s; }  // expect: elements=8 bytes=8 redundant_bytes=2 zero_elements=2 redmap=x elem_type=i8 function=sum8 expr=u8[i]
NOINLINE uint64_t sum16 (int n) { uint64_t s = 0; for (int i = 0; i < n; i++) s += u16[i]; return s; }  // expect: elements=8 bytes=16 redundant_bytes=7 zero_elements=2 redmap=xx elem_type=i16
NOINLINE uint64_t sum32 (int n) { uint64_t s = 0; for (int i = 0; i < n; i++) s += u32[i]; return s; }  // expect: elements=8 bytes=32 redundant_bytes=17 zero_elements=2 redmap=xxxx elem_type=i32
NOINLINE uint64_t sum64 (int n) { uint64_t s = 0; for (int i = 0; i < n; i++) s += i64[i]; return s; }  // expect: elements=8 bytes=64 redundant_bytes=38 zero_elements=1 redmap=xxxxxxxx elem_type=i64
NOINLINE int64_t sums16 (int n) { int64_t s = 0; for (int i = 0; i < n; i++) s += s16[i]; return s; }  // expect: elements=4 bytes=8 redundant_bytes=3 zero_elements=1 redmap=xx elem_type=i16
NOINLINE unsigned __int128 sum128 (int n) { unsigned __int128 s = 0; for (int i = 0; i < n; i++) s ^= u128[i]; return s; }  // expect: elements=4 bytes=64 redundant_bytes=38 zero_elements=1 redmap=x000000x0000000x elem_type=i128

int
main (void)
{
  u128[0] = 0;
  u128[1] = 1;
  u128[2] = (unsigned __int128) 1 << 64;
  u128[3] = (unsigned __int128) 1 << 127;
  unsigned __int128 x = sum128 (4);
  printf ("%llu %llu %llu %llu %lld %llx %llx\n", (unsigned long long) sum8 (N),
          (unsigned long long) sum16 (N), (unsigned long long) sum32 (N),
          (unsigned long long) sum64 (N), (long long) sums16 (4),
          (unsigned long long) (x >> 64), (unsigned long long) x);
  return 0;
}
