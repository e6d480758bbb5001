/* Vector loads from auto-vectorized loops: a vector of K lanes is K
   elements of the lane type, so the totals are the same as for scalar
   loads; lanes>=N checks the loads really were vectorized.  Fixed-size
   global arrays with N a multiple of every vector width: no epilogue.
   riscv64 (rv64gc; GCC 12 cannot vectorize for the V extension): the
   same elements in scalar loads, lanes=1.
   zeroinst-flags: -O3
   expect-total: int.elements=2048 int.bytes=12288 int.redundant_bytes=9477 int.zero_elements=5
   expect-total: float.elements=2050 float.bytes=12304 float.redundant_bytes=9728 float.zero_elements=1664 */
#include <stdint.h>
#include <stdio.h>

#define N 1024
int32_t a[N];     /* i % 256: per 256 values 4 + 255*3 = 769 redundant, x4 = 3076; 4 zeros */
int64_t b[N];     /* i: 0 -> 8, 1..255 -> 7 (1785), 256..1023 -> 6 (4608): 6401; 1 zero */
double x[N];      /* 1.0 when i % 4 == 0, else 0.0: 768 zeros -> 6144 */
double y[N];      /* 2 * x: main reads y[0] and y[4], both 2.0 */
float f[N];       /* 1.5f (00 00 c0 3f) when i % 8 == 1 (a word's high lane), else 0: 896 zeros -> 3584 */
float g[N];

#define NOINLINE __attribute__ ((noinline))
NOINLINE int32_t suma (void) { int32_t s = 0; for (int i = 0; i < N; i++) s += a[i]; return s; }  // expect: elements=1024 bytes=4096 redundant_bytes=3076 zero_elements=4 redmap=000x lanes>=4 [riscv64] lanes=1
NOINLINE int64_t sumb (void) { int64_t s = 0; for (int i = 0; i < N; i++) s += b[i]; return s; }  // expect: elements=1024 bytes=8192 redundant_bytes=6401 zero_elements=1 redmap=000000xx lanes>=2 [riscv64] lanes=1
NOINLINE void scale (void) { for (int i = 0; i < N; i++) y[i] = x[i] * 2.0; }  // expect: elements=1024 bytes=8192 redundant_bytes=6144 zero_elements=768 redmap=0|x|0000000 lanes>=2 [riscv64] lanes=1
/* Float lanes of 4 bytes: in this register loop of a known bound,
   counted with vector operations, a lane per lane, and folded at the
   loop's exit (vectors_counts.c); where the bound is not known, eight
   bytes (two lanes) at a time.  */
NOINLINE void scalef (void) { for (int i = 0; i < N; i++) g[i] = f[i] * 2.0f; }  // expect: elements=1024 bytes=4096 redundant_bytes=3584 zero_elements=896 redmap=0|x|x00 lanes>=4 [riscv64] lanes=1

int
main (void)
{
  for (int i = 0; i < N; i++)
    {
      a[i] = i % 256;
      b[i] = i;
      x[i] = i % 4 == 0 ? 1.0 : 0.0;
      f[i] = i % 8 == 1 ? 1.5f : 0.0f;
    }
  scale ();
  scalef ();
  printf ("%d %lld %g %g\n", suma (), (long long) sumb (), y[0], y[4]);  // expect: elements=2 bytes=16 redundant_bytes=0 zero_elements=0
  return 0;
}
