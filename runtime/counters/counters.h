/* counters.h - the code-centric counting rules (runtime/counters/):
   SPEC section 3 for one element, and what the runtime derives from the
   counter slots generated code fills (analyze.c: redundant bytes, loads,
   redmaps, totals).  */
#ifndef ZEROINST_COUNTERS_H
#define ZEROINST_COUNTERS_H

#include "core/core.h"

/* Leading zero bytes of an integer element of BYTES bytes (SPEC §3);
   LO holds the low 64 bits, HI the rest of a 16-byte element.  */
static inline unsigned
zi_int_redundant (uint64_t lo, uint64_t hi, unsigned bytes)
{
  if (bytes == 16)
    {
      if (hi)
        return __builtin_clzll (hi) >> 3;
      return lo ? 8 + (__builtin_clzll (lo) >> 3) : 16;
    }
  return lo ? (__builtin_clzll (lo) >> 3) - (8 - bytes) : bytes;
}

/* SPEC §3 for one element of BYTES bytes, value LO (and HI for 16-byte
   elements): *ZERO whether it is a zero element -- for floats, every bit
   but the sign (SIGN_LO, SIGN_HI) zero -- and *RED its redundant bytes for
   integers (0 for floats, whose redundant bytes are zero elements * BYTES,
   derived where they are added up).  */
static inline __attribute__ ((always_inline)) void
zi_element_rule (uint64_t lo, uint64_t hi, int is_float, unsigned bytes, uint64_t sign_lo,
                 uint64_t sign_hi, unsigned *red, unsigned *zero)
{
  if (is_float)
    {
      *zero = ((lo & ~sign_lo) | (hi & ~sign_hi)) == 0;
      *red = 0;
    }
  else
    {
      *red = zi_int_redundant (lo, hi, bytes);
      *zero = *red == bytes;
    }
}

/* analyze.c */
/* The redundant bytes and whether it is a zero element (SPEC section 3)
   of one element of class TYPE (not ZI_OTHER) with raw bits LO, HI.  */
void zi_element_counts (enum zi_type type, uint64_t lo, uint64_t hi, unsigned *red,
                        unsigned *zero) ZI_HIDDEN;
void zi_slot_record (struct zi_slot *s, const struct zi_site *site, uint64_t lo, uint64_t hi)
    ZI_HIDDEN;
void zi_slot_add (struct zi_counters *c, const struct zi_site_info *si, const struct zi_slot *s)
    ZI_HIDDEN;
void zi_redmap (const struct zi_site_info *site, const struct zi_counters *c,
                char *out, size_t size) ZI_HIDDEN;
uint64_t zi_counters_bytes (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;
uint64_t zi_counters_redundant (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;
uint64_t zi_counters_loads (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;
/* TOTALS[the kind of SITE] += C (a table's counters or a record's).  */
void zi_counters_total (struct zi_totals *totals, const struct zi_site_info *site,
                        const struct zi_counters *c) ZI_HIDDEN;

#endif
