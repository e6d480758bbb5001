/* Floating elements: a zero element is +0.0 or -0.0 and has all its bytes
   redundant; any other value (NaN, denormals included) has none.  The
   float redmap is "S|E|M...": sign, exponent, mantissa bytes from the most
   significant, '0' where that part was zero in every element.
   zeroinst-flags: -O1
   expect-lines: 40 41 42 43 44
   expect-total: float.elements=19 float.bytes=136 float.redundant_bytes=64 float.zero_elements=9
   expect-total: int.elements=0
   aarch64: long double is binary128 (16 bytes, see ld below): 18 more
   bytes, 12 more redundant.
   expect-total[aarch64]: float.bytes=154 float.redundant_bytes=76 */
#include <math.h>
#include <stdio.h>

/* zeros: 0.0, -0.0 -> red 16.  sign: -0.0; exponent: 1.0; mantissa: NaN
   (0x7ff8...) sets the top group (bits 48-51), the smallest denormal
   (bits = 1) the lowest byte: redmap x|x|x00000x */
double d[6] = { 0.0, -0.0, 1.0, __builtin_nan (""), 4.9406564584124654e-324, 2.0 };
/* zeros 2 -> red 8.  -2.5f = 0xc0200000: mantissa bit 21 (top group);
   1e-45f = 0x00000001: lowest byte: x|x|x0x */
float f[5] = { 0.0f, -0.0f, 1.0f, 1e-45f, -2.5f };
/* x87 extended, 10 bytes per element: zeros 2 -> red 20; 1.0L has the
   explicit integer bit (mantissa bit 63): x|x|x0000000.
   aarch64: IEEE binary128, 16 bytes per element: zeros 2 -> red 32;
   1.0L = 0x3fff0000... has an implicit integer bit, so the mantissa is
   zero in every element; -0.0L sets the sign: x|x|00000000000000 */
long double ld[3] = { 0.0L, -0.0L, 1.0L };
/* binary128: zero 1 -> red 16; 1.0Q = 0x3fff0000...: 0|x|00000000000000.
   x86-64 calls it __float128; aarch64 has only _Float128 (the same format). */
#ifdef __x86_64__
typedef __float128 f128;
#else
typedef _Float128 f128;
#endif
f128 q[2] = { 0, 1 };
/* binary16: zeros 2 -> red 4; 1.0 = 0x3c00: x|x|00 */
_Float16 h[3] = { 0, 1, -0.0f16 };

#define NOINLINE __attribute__ ((noinline))
NOINLINE double sumd (void) { double s = 0; for (int i = 0; i < 6; i++) s += d[i]; return s; }  // expect: elements=6 bytes=48 redundant_bytes=16 zero_elements=2 redmap=x|x|x00000x elem_type=f64
NOINLINE float sumf (void) { float s = 0; for (int i = 0; i < 5; i++) s += f[i]; return s; }  // expect: elements=5 bytes=20 redundant_bytes=8 zero_elements=2 redmap=x|x|x0x elem_type=f32
NOINLINE long double sumld (void) { long double s = 0; for (int i = 0; i < 3; i++) s += ld[i]; return s; }  // expect: elements=3 bytes=30 redundant_bytes=20 zero_elements=2 redmap=x|x|x0000000 elem_type=f80 elem_bytes=10 [aarch64] bytes=48 redundant_bytes=32 redmap=x|x|00000000000000 elem_type=f128 elem_bytes=16
NOINLINE double sumq (void) { f128 s = 0; for (int i = 0; i < 2; i++) s += q[i]; return (double) s; }  // expect: elements=2 bytes=32 redundant_bytes=16 zero_elements=1 redmap=0|x|00000000000000 elem_type=f128
NOINLINE float sumh (void) { float s = 0; for (int i = 0; i < 3; i++) s += h[i]; return s; }  // expect: elements=3 bytes=6 redundant_bytes=4 zero_elements=2 redmap=x|x|00 elem_type=f16

int
main (void)
{
  printf ("%g %g %g %g %g\n", sumd (), sumf (), (double) sumld (), sumq (), sumh ());
  return 0;
}
