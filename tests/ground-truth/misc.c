/* Loads that are not plain scalars, and the rules for them:
   - aggregate copies (struct assignment) are "other" loads: counted with
     their bytes, values not analysed;
   - a bit-field read is one integer element of its type's storage size (1
     byte for :3 and :4), value zero-extended from its bits;
   - atomic loads (__atomic_load_N) and volatile loads are ordinary elements.
   zeroinst-flags: -O1
   expect-lines: 31 32 33 34 35
   expect-total: other.loads=2 other.bytes=64
   expect-total: int.elements=13 int.bytes=32 int.redundant_bytes=17 int.zero_elements=3 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

struct s32 { int a, b; char pad[24]; };   /* 32 bytes */
struct s32 src[2], dst[2];

/* x: 1, 0, 7, 2 -> one zero byte.  z (signed :4): -1, 0, 7, -8 are the bit
   patterns f, 0, 7, 8 -> one zero byte. */
struct bits { unsigned x : 3; unsigned y : 5; signed z : 4; } bf[4] = {
  { 1, 0, -1 }, { 0, 0, 0 }, { 7, 31, 7 }, { 2, 3, -8 }
};

/* 5 as a 64-bit value: 7 redundant bytes */
_Atomic long counter = 5;
/* 0 -> 4, 1 -> 3, 0x10000 -> 1: 8 redundant, 1 zero */
volatile int vflag[3] = { 0, 1, 0x10000 };

#define NOINLINE __attribute__ ((noinline))
NOINLINE void copy (void) { dst[0] = src[0]; dst[1] = src[1]; }
NOINLINE int sumx (int n) { int s = 0; for (int i = 0; i < n; i++) s += bf[i].x; return s; }  // expect: elements=4 bytes=4 redundant_bytes=1 zero_elements=1 elem_type=i8
NOINLINE int sumz (int n) { int s = 0; for (int i = 0; i < n; i++) s += bf[i].z; return s; }  // expect: elements=4 bytes=4 redundant_bytes=1 zero_elements=1 redmap=x elem_type=i8
NOINLINE long get (void) { return atomic_load (&counter); }  // expect: elements=1 bytes=8 redundant_bytes=7 zero_elements=0 redmap=0000000x expr=counter
NOINLINE int readv (void) { return vflag[0] + vflag[1] + vflag[2]; }  // expect: elements=3 bytes=12 redundant_bytes=8 zero_elements=1 redmap=0x0x
NOINLINE int first (void) { return dst[1].a; }  // expect: elements=1 bytes=4 redundant_bytes=0 zero_elements=0

int
main (void)
{
  src[1].a = 0x01020304;
  copy ();
  printf ("%d %d %ld %d %d\n", sumx (4), sumz (4), get (), readv (), first ());
  return 0;
}
