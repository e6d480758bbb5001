/* reference.h - SPEC §3 for one element, byte by byte and written
   independently of runtime/: the tests compare the runtime's analyses
   against it.  */
#ifndef ZEROINST_TEST_REFERENCE_H
#define ZEROINST_TEST_REFERENCE_H
#include <string.h>
#include "counters/counters.h"

/* One generated element: what generated code hands the runtime for it.
   Values narrower than 64 bits are zero-extended raw bits in lo; hi is
   the upper half of the 128-bit classes (ZI_WIDE_TYPE).  */
struct ref_element {
  const struct zi_site *site;
  uint64_t addr;             /* address of the element, 0 when not in addressable memory */
  uint64_t lo, hi;
};

/* The raw value of element E of class TYPE: *LO, *HI (0 below 128 bits;
   the x87 class keeps 16 bits of it) and its bytes, least significant
   first.  */
static inline void
ref_value (enum zi_type type, const struct ref_element *e, uint64_t *lo, uint64_t *hi,
           unsigned char bytes[16])
{
  *lo = e->lo;
  *hi = ZI_WIDE_TYPE (type) ? e->hi : 0;
  if (type == ZI_F80)
    *hi &= 0xffff;
  memcpy (bytes, lo, 8);
  memcpy (bytes + 8, hi, 8);
}

/* For an element of class TYPE with BYTES: *ZERO whether it is a zero
   element and *RED its redundant bytes.  Integers: leading zero bytes,
   zero if all are.  Floats: zero if every bit but the sign (the top bit)
   is zero, and then redundant in full.  */
static inline void
ref_rule (enum zi_type type, const unsigned char *bytes, unsigned *red, unsigned *zero)
{
  unsigned n = zi_types[type].elem_bytes;
  *red = 0;
  if (zi_types[type].kind == ZI_KIND_FLOAT)
    {
      *zero = 1;
      for (unsigned b = 0; b < n; b++)
        if (bytes[b] & (b == n - 1 ? 0x7f : 0xff))
          *zero = 0;
      *red = *zero ? n : 0;
      return;
    }
  while (*red < n && bytes[n - 1 - *red] == 0)
    ++*red;
  *zero = *red == n;
}

#endif
