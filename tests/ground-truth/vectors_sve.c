/* SVE's scalable vectors (aarch64, -march=armv8.2-a+sve).  GCC vectorizes
   these loops with vectors whose number of lanes is a multiple of the
   vector length, which is known only when the program runs, in
   fully-masked loops (.MASK_LOAD under a WHILELO mask, so the last vector
   is partial); with --param vect-partial-vector-usage=0 (the _unmasked
   variant) as plain loads of whole vectors and a scalar epilogue.  The
   plugin stores each vector and its mask on the stack, and the runtime
   counts the active lanes at their own addresses (__zeroinst_count_lanes):
   the counts are the scalar program's whatever the vector length.  Each
   active lane is one load of one element (lanes=1), as for a masked load
   of fixed vectors.  masked.c and gather.c run with SVE too (conditional
   loads, gathers).
   zeroinst-flags: -O3 -g -march=armv8.2-a+sve
   zeroinst-env: ZEROINST_MODE=code,data

   N = 37, each array read once, b twice (sumb, sumb64).
   b[i] = i % 3: 13 zeros (i = 0, 3, ..., 36), 1 redundant byte each.
   h[i] = 100 * i: 0 (2 redundant bytes), 100 and 200 (1 each), the
     other 34 above 255 (0): 4; the zero bytes are h[0]'s two and the
     high bytes of h[1] and h[2].
   d[i] = i odd ? 0.0 : 1.0: 18 zeros (144 redundant bytes); 1.0 is
     0x3ff0000000000000, six zero bytes in each of the 19: 258 always zero.
   f[i] = i % 3 ? 0.0f : 1.5f: 24 zeros (96); 1.5f is 0x3fc00000, two
     zero bytes in each of the 13: 122 always zero.
   main loads nothing else: the sums are printed from registers.

   expect-total: int.elements=111 int.bytes=148 int.redundant_bytes=30 int.zero_elements=27
   expect-total: float.elements=74 float.bytes=444 float.redundant_bytes=240 float.zero_elements=42
   expect-data-records: 4
   expect-data: static=b int elements=74 bytes=74 redundant_bytes=26 zero_elements=26 never_loaded_bytes=0 always_zero_bytes=13
   expect-data: static=h int elements=37 bytes=74 redundant_bytes=4 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=4
   expect-data: static=d float elements=37 bytes=296 redundant_bytes=144 zero_elements=18 never_loaded_bytes=0 always_zero_bytes=258
   expect-data: static=f float elements=37 bytes=148 redundant_bytes=96 zero_elements=24 never_loaded_bytes=0 always_zero_bytes=122
   expect-data-total: static.int.elements=111 static.float.elements=74 heap.int.elements=0 heap.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0 */
#include <stdint.h>
#include <stdio.h>

#define N 37
#define NOINLINE __attribute__ ((noinline))

uint8_t b[N];
int16_t h[N];
double d[N];
float f[N];

NOINLINE unsigned sumb (void) { unsigned s = 0; for (int i = 0; i < N; i++) s += b[i]; return s; }  // expect: elements=37 bytes=37 redundant_bytes=13 zero_elements=13 lanes=1 expr=b[i]
/* Bytes summed into 64-bit lanes: SVE's partial vector of bytes in
   64-bit containers (VNx2QI), which GCC 12 cannot keep live across a call
   (the plugin's runtime call goes at the end of the block).  */
NOINLINE uint64_t sumb64 (void) { uint64_t s = 0; for (int i = 0; i < N; i++) s += b[i]; return s; }  // expect: elements=37 bytes=37 redundant_bytes=13 zero_elements=13 lanes=1 expr=b[i]
NOINLINE int16_t sumh (void) { int16_t s = 0; for (int i = 0; i < N; i++) s += h[i]; return s; }  // expect: elements=37 bytes=74 redundant_bytes=4 zero_elements=1 lanes=1 expr=h[i]
NOINLINE void scaled (double *out) { for (int i = 0; i < N; i++) out[i] = d[i] * 2.0; }  // expect: elements=37 bytes=296 redundant_bytes=144 zero_elements=18 lanes=1 expr=d[i]
NOINLINE void scalef (float *out) { for (int i = 0; i < N; i++) out[i] = f[i] * 2.0f; }  // expect: elements=37 bytes=148 redundant_bytes=96 zero_elements=24 lanes=1 expr=f[i]

int
main (void)
{
  static double od[N];
  static float of[N];
  for (int i = 0; i < N; i++)
    {
      b[i] = i % 3;
      h[i] = 100 * i;
      d[i] = i % 2 ? 0.0 : 1.0;
      f[i] = i % 3 ? 0.0f : 1.5f;
    }
  scaled (od);
  scalef (of);
  unsigned sb = sumb ();
  unsigned long long sb64 = sumb64 ();
  int sh = sumh ();  /* 66600 wraps to 1064 */
  printf ("%u %llu %d\n", sb, sb64, sh);
  return 0;
}
