/* Interleaved data: arrays of structs whose fields a loop reads together.
   aarch64 vectorizes these loops with LD2/LD3/LD4 (.LOAD_LANES: vector k
   of N holds field k of consecutive elements); each vector is counted at
   its lanes' own addresses, with its field's text.  x86-64 loads the
   memory in order and permutes; riscv64 (rv64gc) loads scalars: the same
   counts and byte maps everywhere.  The trip counts are run-time values.
   Every field holds one value in every element, so the byte maps show
   each field's bytes where they are.
   zeroinst-flags: -O3 -g
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=main
   expect-data-records: 5

   v2 (32 of { int32 x = 1, y = 0x100 }): x 3 redundant bytes, y 2 (bytes
   00 01 00 00): 64 elements, 256 bytes, 32 * 5 = 160 redundant, no zero.
   Map per element "1x3z" "1z1x2z": "1x4z1x2z" 32 times.  Always zero 6
   bytes of 8 (y's byte 0 too): 192.
   expect-data: static=v2 int size=256 elements=64 bytes=256 redundant_bytes=160 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=192 map=1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z

   v3 (16 of { int32 x = 0, y = 1, z = 0x10000 }): x 4 redundant and
   zero, y 3, z 1 (00 00 01 00): 48 elements, 192 bytes, 16 * 8 = 128
   redundant, 16 zero.  Map per element "4z" "1x3z" "2z1x1z": "4z1x5z1x1z",
   joined: "4z1x5z1x", then "5z1x5z1x" 15 times, then "1z".  Always zero
   10 bytes of 12: 160.
   expect-data: static=v3 int size=192 elements=48 bytes=192 redundant_bytes=128 zero_elements=16 never_loaded_bytes=0 always_zero_bytes=160 map=4z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x5z1x1z

   v4 (16 of { int16 a = 1, b = 0, c = 0x100, d = -1 }): a 1 redundant
   byte, b 2 and zero, c and d none: 64 elements, 128 bytes, 16 * 3 = 48
   redundant, 16 zero.  Map per element "1x1z" "2z" "1z1x" "2x":
   "1x4z3x", joined: "1x4z", then "4x4z" 15 times, then "3x".  Always
   zero 4 bytes of 8: 64.
   expect-data: static=v4 int size=128 elements=64 bytes=128 redundant_bytes=48 zero_elements=16 never_loaded_bytes=0 always_zero_bytes=64 map=1x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z4x4z3x

   w4 (16 of { int32 a = 7, b = 1, c = 0x100, d = 0x10000 }), of which
   sum_gap reads b, c and d: LD4 from b on (its fourth vector, the next
   element's a, unused).  b 3 redundant bytes, c 2, d 1: 48 elements, 192
   bytes, 16 * 6 = 96 redundant, no zero.  Never loaded: a, 64 bytes.
   Always zero 3 bytes of b, c and d each: 144.  Map per element "4n"
   "1x3z" "1z1x2z" "2z1x1z": "4n1x4z1x4z1x1z", 16 times.
   expect-data: static=w4 int size=256 elements=48 bytes=192 redundant_bytes=96 zero_elements=0 never_loaded_bytes=64 always_zero_bytes=144 map=4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z4n1x4z1x4z1x1z

   e (int32[64], e[2i] = 1, e[2i + 1] = 0x100), read in pairs by
   sum_pairs: LD2 of an array's elements, named by their indices.  32 *
   (3 + 2) = 160 redundant; always zero 6 bytes of each pair: 192; map
   "1x4z1x2z" 32 times.
   expect-data: static=e int size=256 elements=64 bytes=256 redundant_bytes=160 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=192 map=1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z1x4z1x2z
*/
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__ ((noinline))

struct p2 { int32_t x, y; } v2[32];
struct p3 { int32_t x, y, z; } v3[16];
struct p4 { int16_t a, b, c, d; } v4[16];

NOINLINE int32_t
sum2 (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += v2[i].x * v2[i].y;  // expect: elements=64 bytes=256 redundant_bytes=160 zero_elements=0 [aarch64] expr=v2[i].x|v2[i].y
  return s;
}

NOINLINE int32_t
sum3 (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += v3[i].x + 2 * v3[i].y - v3[i].z;  // expect: elements=48 bytes=192 redundant_bytes=128 zero_elements=16 [aarch64] expr=v3[i].x|v3[i].y|v3[i].z
  return s;
}

NOINLINE int32_t
sum4 (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += v4[i].a ^ v4[i].b ^ v4[i].c ^ v4[i].d;  // expect: elements=64 bytes=128 redundant_bytes=48 zero_elements=16 [aarch64] expr=v4[i].a|v4[i].b|v4[i].c|v4[i].d
  return s;
}

struct p4i { int32_t a, b, c, d; } w4[16];

/* x86-64 would load the a fields too, in whole vectors (every lane the
   machine loads counts): scalar loads there.  */
#ifdef __x86_64__
__attribute__ ((optimize ("no-tree-vectorize")))
#endif
NOINLINE int32_t
sum_gap (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += w4[i].b + 2 * w4[i].c + 3 * w4[i].d;  // expect: elements=48 bytes=192 redundant_bytes=96 zero_elements=0 [aarch64] expr=w4[i].b|w4[i].c|w4[i].d
  return s;
}

int32_t e[64];

NOINLINE int32_t
sum_pairs (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += e[2 * i] * e[2 * i + 1];  // expect: elements=64 bytes=256 redundant_bytes=160 zero_elements=0 [aarch64] expr="e[i * 2]|e[i * 2 + 1]"
  return s;
}

volatile int n2 = 32, n16 = 16;

int
main (void)
{
  for (int i = 0; i < 32; i++)
    v2[i] = (struct p2) { 1, 0x100 };
  for (int i = 0; i < 16; i++)
    {
      v3[i] = (struct p3) { 0, 1, 0x10000 };
      v4[i] = (struct p4) { 1, 0, 0x100, -1 };
    }
  for (int i = 0; i < 16; i++)
    w4[i] = (struct p4i) { 7, 1, 0x100, 0x10000 };
  for (int i = 0; i < 32; i++)
    e[2 * i] = 1, e[2 * i + 1] = 0x100;
  printf ("%d %d %d %d %d\n", sum2 (n2), sum3 (n16), sum4 (n16), sum_gap (n16), sum_pairs (n2));
  return 0;
}
