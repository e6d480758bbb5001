/* Data-centric analysis of static objects (SPEC 5): global and file-static
   arrays read fully and partly, a function-local static, an object read
   both as integers and as floats, a thread-local array (an object with
   one instance: only main reads it), plus loads from the stack and from
   mmap memory, which belong to no object and are counted in the
   summary's stack and unknown classes.  Every array is written by main at
   run time and read by noinline functions (-O1: one scalar load per
   element).  Little-endian: byte 0 of an element is its least significant
   byte, so a small integer's map is "1x" then its zero high bytes.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-records: 10
   expect-data-records: 8

   Totals, int: full 16 + part 8 + small 8 + counts 9 + pun.u 2 + tl 4
   (static, below) + stack 8 + mmap 4.
     elements 16+8+8+9+2+4 = 47 static, 8 stack, 4 unknown: 59
     bytes 64+32+64+36+16+32 = 244 static, 32 stack, 16 unknown: 292
     redundant 49+24+56+30+8+24 = 191 static, 25 stack, 11 unknown: 227
     zero 1+0+0+3+1+1 = 6 static, 1 stack, 2 unknown: 9
   Totals, float: mostly0 100 + pun.d 4, all static.
     elements 104, bytes 832, redundant 720+16 = 736, zero 90+2 = 92
   expect-total: int.elements=59 int.bytes=292 int.redundant_bytes=227 int.zero_elements=9
   expect-total: float.elements=104 float.bytes=832 float.redundant_bytes=736 float.zero_elements=92
   expect-total: other.loads=0
   expect-data-total: static.int.elements=47 static.int.bytes=244 static.int.redundant_bytes=191 static.int.zero_elements=6
   expect-data-total: stack.int.elements=8 stack.int.bytes=32 stack.int.redundant_bytes=25 stack.int.zero_elements=1
   expect-data-total: unknown.int.elements=4 unknown.int.bytes=16 unknown.int.redundant_bytes=11 unknown.int.zero_elements=2
   expect-data-total: heap.int.elements=0 heap.float.elements=0 stack.float.elements=0 unknown.float.elements=0
   expect-data-total: static.float.elements=104 static.float.bytes=832 static.float.redundant_bytes=736 static.float.zero_elements=92
*/
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define NOINLINE __attribute__ ((noinline))

/* full[i] = i, all 16 read.  Element 0 is zero (4 redundant bytes, a zero
   element), 1..15 have 3 zero high bytes: redundant 4 + 15 * 3 = 49,
   always zero 49 bytes; map: "4z" then "1x3z" 15 times.
   expect-data: static=full int size=64 elements=16 bytes=64 redundant_bytes=49 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=49 map=4z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z granule=1 module=inst
   expect-data: static=full float absent */
int32_t full[16];

/* A file-static (local symbol) read partly: part[i] = i + 1, only
   elements 4..11 read (8 elements, 3 redundant bytes each, 24).  Bytes
   0..15 and 48..127 never loaded: 16 + 80 = 96.
   expect-data: static=part int size=128 elements=8 bytes=32 redundant_bytes=24 zero_elements=0 never_loaded_bytes=96 always_zero_bytes=24 map=16n1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z80n */
static int32_t part[32];

/* Small values in int64: small[i] = i + 1 (1..8), 7 zero high bytes each.
   expect-data: static=small int size=64 elements=8 bytes=64 redundant_bytes=56 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=56 map=1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z */
int64_t small[8];

/* Mostly zero doubles: mostly0[10k+3] = k + 1.5 (k = 0..9), mostly0[50] =
   -0.0, all others +0.0; all 100 read.  Zero elements: 90 (89 +0.0 and the
   -0.0), redundant 90 * 8 = 720.  The byte map is about bytes, not float
   parts: k + 1.5 for k = 0..9 is 0x3FF8, 0x4004, 0x400C, 0x4012, 0x4016,
   0x401A, 0x401E, 0x4021, 0x4023, 0x4025 followed by six zero bytes: "6z2x"
   each; -0.0 is 0x8000000000000000: "7z1x"; +0.0: "8z".
   always zero: 89 * 8 + 10 * 6 + 7 = 779.  Runs: elements 0..2 and the low
   6 bytes of 3: 30z, then 2x; 4..12 (72) + 6 of 13: 78z, 2x; the same for
   23, 33, 43; 44..49 (48) + 7 of 50: 55z, 1x; 51, 52 (16) + 6 of 53: 22z,
   2x; 63, 73, 83, 93: 78z 2x each; 94..99: 48z.
   expect-data: static=mostly0 float size=800 elements=100 bytes=800 redundant_bytes=720 zero_elements=90 never_loaded_bytes=0 always_zero_bytes=779 map=30z2x78z2x78z2x78z2x78z2x55z1x22z2x78z2x78z2x78z2x78z2x48z
   expect-data: static=mostly0 int absent */
double mostly0[100];

/* One object, two kinds: d = {0.0, 1.0, 0.0, 2.0} read as 4 doubles, and
   u[0], u[1] (the bits of 0.0 and 1.0) read as 2 uint64.
   1.0 = 0x3FF0000000000000: "6z2x"; 2.0 = 0x4000000000000000: "7z1x".
   float: 2 zero elements, redundant 16, always zero 8 + 6 + 8 + 7 = 29,
     map 8z 6z 2x 8z 7z 1x = "14z2x15z1x".
   int: u[0] = 0 (8 redundant, zero element), u[1] = 0x3FF0... (0
     redundant): redundant 8, zero 1; bytes 16..31 never loaded; always
     zero 8 + 6 = 14; map "14z2x16n".
   expect-data: static=pun float size=32 elements=4 bytes=32 redundant_bytes=16 zero_elements=2 never_loaded_bytes=0 always_zero_bytes=29 map=14z2x15z1x
   expect-data: static=pun int size=32 elements=2 bytes=16 redundant_bytes=8 zero_elements=1 never_loaded_bytes=16 always_zero_bytes=14 map=14z2x16n */
union pun
{
  double d[4];
  uint64_t u[4];
} pun;

/* A thread-local array (STT_TLS): one instance, main's, read whole (the
   loads below).  Always zero: 8 + 7 + 7 + 7 = 29 bytes; map 8z, 1x7z,
   1z1x6z, 4z1x3z.
   expect-data: static=tl int thread_local=True size=32 allocations=1 elements=4 bytes=32 redundant_bytes=24 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=29 map=8z1x8z1x10z1x3z */
__thread int64_t tl[4];

/* Not loaded at all: no record.
   expect-data: static=never int absent */
int32_t never[4];

NOINLINE int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=32 bytes=128 redundant_bytes=98 zero_elements=2
  return s;
}
/* sum32 reads full (16: 49 redundant, 1 zero), part[4..11] (8: 24) and the
   stack array (8: 25, 1 zero): 32 elements, 98 redundant, 2 zero.  */

NOINLINE int64_t
sum64 (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=10 bytes=80 redundant_bytes=64 zero_elements=1
  return s;
}
/* sum64 reads small (8: 56 redundant) and pun.u[0..1] (2: 8 redundant,
   1 zero).  */

NOINLINE double
sumd (const double *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=104 bytes=832 redundant_bytes=736 zero_elements=92
  return s;
}

/* A function-local static: the symbol is "counts.0", the record's name
   "counts".  tally (i % 3) for i = 0..8 loads counts[0], [1], [2] three
   times each, seeing 0, 1, 2: per element 4 + 3 + 3 = 10 redundant bytes
   and one zero element; 9 elements, 36 bytes, 30 redundant, 3 zero.
   Bytes 0, 4, 8 were 1 and 2: x; 1..3, 5..7, 9..11 always zero (9);
   12..39 never loaded (28).
   expect-data: static=counts int size=40 elements=9 bytes=36 redundant_bytes=30 zero_elements=3 never_loaded_bytes=28 always_zero_bytes=9 map=1x3z1x3z1x3z28n */
NOINLINE int32_t
tally (int i)
{
  static int32_t counts[10];
  return ++counts[i];  // expect: elements=9 bytes=36 redundant_bytes=30 zero_elements=3
}

/* A stack array (its address escapes to sum32): loc[i] = i, i = 0..7:
   redundant 4 + 7 * 3 = 25, one zero element (class stack).  */
NOINLINE int64_t
on_stack (int n)
{
  int32_t loc[8];
  for (int i = 0; i < 8; i++)
    loc[i] = i + n;
  return sum32 (loc, 8);
}

/* mmap memory (unknown class): 4 int32 {0, 0x100, 0x10000, 0}:
   redundant 4 + 2 + 1 + 4 = 11, 2 zero elements, 16 bytes.  */
NOINLINE int64_t
sum_mapped (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=4 bytes=16 redundant_bytes=11 zero_elements=2
  return s;
}

/* Thread-local: tl = {0, 1, 0x100, 1 << 32} (int64): redundant
   8 + 7 + 6 + 3 = 24 (1 << 32 has byte 4 set, bytes 5..7 zero), one zero
   element, 32 bytes.  */
NOINLINE int64_t
sum_tls (int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += tl[i];  // expect: elements=4 bytes=32 redundant_bytes=24 zero_elements=1
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  int z = argc - 1;  /* 0: values cannot be folded */
  for (int i = 0; i < 16; i++)
    full[i] = i + z;
  for (int i = 0; i < 32; i++)
    part[i] = i + 1 + z;
  for (int i = 0; i < 8; i++)
    small[i] = i + 1 + z;
  for (int k = 0; k < 10; k++)
    mostly0[10 * k + 3] = k + 1.5 + z;
  mostly0[50] = -0.0;
  pun.d[1] = 1.0 + z;
  pun.d[3] = 2.0 + z;
  tl[1] = 1 + z;
  tl[2] = 0x100 + z;
  tl[3] = ((int64_t) 1 << 32) + z;
  int32_t *m = mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 1;
  m[1] = 0x100 + z;
  m[2] = 0x10000 + z;

  int64_t a = sum32 (full, 16);
  int64_t b = sum32 (part + 4, 8);
  int64_t c = sum64 (small, 8);
  double d = sumd (mostly0, 100);
  double e = sumd (pun.d, 4);
  int64_t f = sum64 ((const int64_t *) pun.u, 2);
  int32_t t = 0;
  for (int i = 0; i < 9; i++)
    t += tally (i % 3);
  int64_t g = on_stack (z);
  int64_t h = sum_mapped (m, 4);
  int64_t k = sum_tls (4);
  printf ("%lld %lld %lld %g %g %lld %d %lld %lld %lld\n", (long long) a, (long long) b,
          (long long) c, d, e, (long long) f, t, (long long) g, (long long) h, (long long) k);
  return 0;
}
