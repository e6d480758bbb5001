/* analyze.c - code-centric counters (SPEC section 3): the per-element
   rules the generated code applies to its counter slots, applied here to
   the elements it leaves to the runtime (out-of-line mode, 128-bit
   classes), the conversion of slots to per-record counters, and the
   derived figures of a record (bytes, redundant bytes, redmap).

   Integer element v of B bytes: zero element when v == 0; h = index of
   the highest non-zero byte of (v | 1), so that its leading zero bytes are
   B - 1 - h + (v == 0).  A slot sums h (hb) and the zero elements, and a
   record's redundant bytes are (B - 1) * elements - hb + zeros.
   Float element: zero element when every bit but the sign is zero; its
   redundant bytes are B when zero, derived at report time.
   Each slot also keeps the OR of all raw values, from which the redmap
   (bytes or float parts zero in every element) is derived.  */
#include <string.h>
#include "counters/counters.h"

void
zi_element_counts (enum zi_type type, uint64_t lo, uint64_t hi, unsigned *red, unsigned *zero)
{
  const struct zi_type_info *t = &zi_types[type];
  int is_float = t->kind == ZI_KIND_FLOAT;
  zi_element_rule (lo, hi & t->hi_mask, is_float, t->elem_bytes, t->sign_lo, t->sign_hi, red,
                   zero);
  if (is_float)
    *red = *zero ? t->elem_bytes : 0;
}

/* Apply the rules to one element of SITE (raw bits LO, HI) in slot S.  */
void
zi_slot_record (struct zi_slot *s, const struct zi_site *site, uint64_t lo, uint64_t hi)
{
  unsigned type = site->type < ZI_NTYPES ? site->type : ZI_OTHER;
  s->elements++;
  if (type == ZI_OTHER)
    return;
  unsigned red, zero;
  zi_element_counts ((enum zi_type) type, lo, hi, &red, &zero);
  s->zeros += zero;
  if (zi_types[type].kind == ZI_KIND_INT)
    s->hb += zi_types[type].elem_bytes - 1 - red + zero;
  s->or_lo |= lo;
  if (ZI_WIDE_TYPE (type))
    s[1].or_lo |= hi & zi_types[type].hi_mask;
}

/* C += the slot(s) S of a site of SI's type.  */
void
zi_slot_add (struct zi_counters *c, const struct zi_site_info *si, const struct zi_slot *s)
{
  const struct zi_type_info *ti = &zi_types[si->type];
  c->elements += s->elements;
  if (ti->kind == ZI_KIND_OTHER)
    return;
  c->zero_elements += s->zeros;
  c->or_lo |= s->or_lo;
  if (ZI_WIDE_TYPE (si->type))
    c->or_hi |= s[1].or_lo;
  if (ti->kind == ZI_KIND_INT)
    c->redundant_bytes += (uint64_t) (ti->elem_bytes - 1) * s->elements - s->hb + s->zeros;
}

/* Redundant bytes of C: counted for integers; for floats every zero
   element is redundant in full, so the analysis counts zero elements only.  */
uint64_t
zi_counters_redundant (const struct zi_site_info *site, const struct zi_counters *c)
{
  const struct zi_type_info *ti = &zi_types[site->type];
  return ti->kind == ZI_KIND_FLOAT ? c->zero_elements * ti->elem_bytes : c->redundant_bytes;
}

uint64_t
zi_counters_bytes (const struct zi_site_info *site, const struct zi_counters *c)
{
  unsigned eb = zi_types[site->type].elem_bytes;
  return c->elements * (eb ? eb : site->access_bytes);
}

uint64_t
zi_counters_loads (const struct zi_site_info *site, const struct zi_counters *c)
{
  return site->lanes ? c->elements / site->lanes : c->elements;
}

void
zi_counters_total (struct zi_totals *totals, const struct zi_site_info *site,
                   const struct zi_counters *c)
{
  struct zi_totals *t = &totals[zi_types[site->type].kind];
  t->elements += c->elements;
  t->bytes += zi_counters_bytes (site, c);
  t->redundant_bytes += zi_counters_redundant (site, c);
  t->zero_elements += c->zero_elements;
}

/* Is any bit in [FROM, FROM+COUNT) of the 128-bit OR set?  (COUNT <= 64.)  */
static int
any_bit (const struct zi_counters *c, unsigned from, unsigned count)
{
  uint64_t mask = count < 64 ? (1ull << count) - 1 : ~0ull;
  uint64_t lo = from < 64 ? c->or_lo >> from : 0;
  uint64_t hi = from == 0 ? 0 : from < 64 ? c->or_hi << (64 - from) : c->or_hi >> (from - 64);
  return ((lo | hi) & mask) != 0;
}

/* The redmap of a record, into OUT:
   integers: one character per byte, most significant first, '0' for a byte
     that was zero in every element, 'x' otherwise ("000x" = values < 256);
   floats: "S|E|M...": sign, exponent, then the mantissa in bytes from the
     most significant (a partial top byte counts as one), same characters.  */
void
zi_redmap (const struct zi_site_info *site, const struct zi_counters *c, char *out, size_t size)
{
  const struct zi_type_info *ti = &zi_types[site->type];
  size_t n = 0;
#define PUT(ch) do { if (n + 1 < size) out[n++] = (ch); } while (0)
  if (ti->kind == ZI_KIND_INT)
    for (unsigned i = ti->elem_bytes; i-- > 0;)
      PUT (any_bit (c, 8 * i, 8) ? 'x' : '0');
  else if (ti->kind == ZI_KIND_FLOAT)
    {
      unsigned m = ti->mant_bits, e = ti->exp_bits;
      PUT (any_bit (c, m + e, 1) ? 'x' : '0');
      PUT ('|');
      PUT (any_bit (c, m, e) ? 'x' : '0');
      PUT ('|');
      for (unsigned g = (m + 7) / 8; g-- > 0;)
        {
          unsigned from = 8 * g, count = m - from < 8 ? m - from : 8;
          PUT (any_bit (c, from, count) ? 'x' : '0');
        }
    }
#undef PUT
  out[n] = '\0';
}
