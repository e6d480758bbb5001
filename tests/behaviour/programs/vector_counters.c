/* vector_counters.c - which register loops count their vector lanes with
   vector operations: vi (4-byte integers, a known bound) and vd (8-byte
   floats, whatever the bound: their lanes cannot overflow) do; vany
   (4-byte lanes, the bound unknown: a long count), vh (2-byte lanes) and
   vf (4-byte floats, the bound unknown) do not.  */
#include <stdint.h>
typedef uint32_t v4u __attribute__ ((vector_size (16)));
typedef uint16_t v8h __attribute__ ((vector_size (16)));
typedef float v4f __attribute__ ((vector_size (16)));
typedef double v2d __attribute__ ((vector_size (16)));
v4u u[64]; v8h h[64];
v4u vi (void) { v4u s = {0}; for (int i = 0; i < 64; i++) s += u[i]; return s; }
v4u vany (const v4u *p, long n) { v4u s = {0}; for (long i = 0; i < n; i++) s += p[i]; return s; }
v8h vh (void) { v8h s = {0}; for (int i = 0; i < 64; i++) s += h[i]; return s; }
v2d vd (const v2d *p, long n) { v2d s = {0}; for (long i = 0; i < n; i++) s += p[i]; return s; }
v4f vf (const v4f *p, long n) { v4f s = {0}; for (long i = 0; i < n; i++) s += p[i]; return s; }
