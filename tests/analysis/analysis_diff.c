/* analysis_diff.c - the code-centric counter rules (runtime/counters/analyze.c:
   zi_slot_record, applied per element, and zi_slot_add, which turns slots
   into record counters) against a one-element-at-a-time reference written
   from SPEC §3, on generated elements of every class: zeros, single high
   bits, random widths, and the sign bits of every float format.  Exit
   status 0 when every site's counters are equal.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters/counters.h"
#include "random.h"
#include "reference.h"

struct zi_config zi_config;
void zi_warn (const char *fmt, ...) { (void) fmt; }

#define NSITES 8
static struct zi_site sites[ZI_NTYPES][NSITES];
/* SPEC §3, one element.  */
static void
reference (struct zi_table *tab, enum zi_type type, const struct ref_element *e, int n)
{
  const struct zi_type_info *ti = &zi_types[type];
  for (; n-- > 0; e++)
    {
      struct zi_counters *c = zi_table_get (tab, zi_site_slot (e->site), NULL);
      unsigned char bytes[16];
      uint64_t lo, hi;
      ref_value (type, e, &lo, &hi, bytes);
      c->elements++;
      c->or_lo |= lo;
      c->or_hi |= hi;
      if (type == ZI_OTHER)
        continue;
      unsigned red, zero;
      ref_rule (type, bytes, &red, &zero);
      c->zero_elements += zero;
      if (ti->kind == ZI_KIND_INT)
        c->redundant_bytes += red;   /* floats: derived at report time */
    }
}

int
main (void)
{
  rs = 0x9e3779b97f4a7c15ull;
  static struct ref_element buf[6000];
  long bad = 0, cases = 0;
  for (unsigned t = 0; t < ZI_NTYPES; t++)
    for (int k = 0; k < NSITES; k++)
      sites[t][k].type = (uint8_t) t, sites[t][k].lanes = 1, sites[t][k].access_bytes = 8;
  for (int iter = 0; iter < 2000; iter++)
    {
      enum zi_type type = (enum zi_type) (rnd () % ZI_NTYPES);
      int n = rnd () % 6000;
      for (int i = 0; i < n; i++)
        {
          struct ref_element *e = &buf[i];
          e->site = &sites[type][rnd () % NSITES];
          e->addr = 0;
          int k = rnd () % 6;
          unsigned eb = zi_types[type].elem_bytes;
          uint64_t sign = eb && eb <= 8 ? 1ull << (8 * eb - 1) : 1ull << 63;
          e->lo = k == 0 ? 0 : k == 1 ? rnd () >> (rnd () % 64)
                  : k == 2 ? sign : k == 3 ? 1ull << (rnd () % 64) : rnd ();
          e->hi = k == 0 || rnd () % 2 ? 0 : k == 2 ? 1ull << (rnd () % 2 ? 15 : 63)
                  : rnd () >> (rnd () % 64);
          /* values narrower than 64 bits are zero-extended (ABI) */
          if (eb && eb < 8)
            e->lo &= (1ull << (8 * eb)) - 1;
        }
      /* The runtime's way: per-site slots, then records.  */
      struct zi_slot slots[NSITES][2];
      memset (slots, 0, sizeof slots);
      for (int i = 0; i < n; i++)
        {
          const struct ref_element *e = &buf[i];
          size_t k = (size_t) (e->site - sites[type]);
          zi_slot_record (slots[k], e->site, e->lo, ZI_WIDE_TYPE (type) ? e->hi : 0);
        }
      struct zi_table got_tab = { 0 }, ref = { 0 };
      for (int k = 0; k < NSITES; k++)
        if (slots[k][0].elements)
          {
            int32_t id = zi_site_slot (&sites[type][k]);
            zi_slot_add (zi_table_get (&got_tab, id, NULL), zi_site_get (id), slots[k]);
          }
      reference (&ref, type, buf, n);
      cases++;
      for (size_t x = 0; ref.cells && x <= ref.mask; x++)
        {
          if (!ref.cells[x].slot)
            continue;
          struct zi_counters want = ref.cells[x].c;
          struct zi_counters *got = zi_table_get (&got_tab, ref.cells[x].slot, NULL);
          if (zi_types[type].kind == ZI_KIND_FLOAT)
            want.redundant_bytes = got->redundant_bytes;  /* derived at report time */
          if (!ZI_WIDE_TYPE (type))
            want.or_hi = got->or_hi;
          if (type == ZI_OTHER)
            {
              /* not analysed: only the loads count */
              want = (struct zi_counters) { .elements = want.elements };
            }
          if (memcmp (got, &want, sizeof want))
            {
              if (bad++ < 5)
                printf ("case %d (class %d): slot %d: elements %lu/%lu zero %lu/%lu "
                        "redundant %lu/%lu or %lx/%lx\n", iter, type,
                        ref.cells[x].slot, got->elements, want.elements, got->zero_elements,
                        want.zero_elements, got->redundant_bytes, want.redundant_bytes,
                        got->or_lo, want.or_lo);
            }
        }
      if (got_tab.count != ref.count && bad++ < 5)
        printf ("case %d: %zu counters, expected %zu\n", iter, got_tab.count, ref.count);
      zi_table_free (&got_tab);
      zi_table_free (&ref);
    }
  printf ("%ld cases, %ld mismatches\n", cases, bad);
  return bad != 0;
}
