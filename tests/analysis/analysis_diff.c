/* analysis_diff.c - the buffer analysis (runtime/analyze.c) against a
   one-entry-at-a-time reference written from SPEC §3, on generated buffers
   of every class: periodic stretches of many periods (the lanes of vector
   loads, unrolled loops), stretches cut at any entry, noise between them,
   several contexts, ZEROINST_CONTEXTS=0, buffers split as flushes split
   them, and a counter table that grows in the middle of a buffer.  Exit
   status 0 when every (site, context) counter is equal.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "random.h"
#include "reference.h"

struct zi_config zi_config = { .contexts = 1 };
void zi_warn (const char *fmt, ...) { (void) fmt; }

#define NSITES 300
static struct zi_site sites[NSITES];

/* SPEC §3, one element.  */
static void
reference (struct zi_table *tab, enum zi_type type, const char *p, const char *end)
{
  const struct zi_type_info *ti = &zi_types[type];
  unsigned stride = zi_entry_bytes (type);
  for (; p < end; p += stride)
    {
      const struct zi_entry_wide *e = (const struct zi_entry_wide *) p;
      struct zi_counters *c = zi_table_get (tab, zi_site_slot (e->e.site),
                                            zi_config.contexts ? e->e.ctx : NULL);
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
  static char buf[48 * 6000];
  long bad = 0, cases = 0;
  for (int iter = 0; iter < 4000; iter++)
    {
      enum zi_type type = (enum zi_type) (rnd () % ZI_NTYPES);
      if (type == ZI_F16 || type == ZI_BF16)
        continue;    /* same rule as the other float classes, 2 bytes */
      unsigned stride = zi_entry_bytes (type);
      zi_config.contexts = rnd () % 4 != 0;
      int n = rnd () % 6000, i = 0;
      while (i < n)
        {
          int P = 1 + rnd () % (rnd () % 2 ? 8 : 80), rows = 1 + rnd () % 40,
              base = rnd () % (NSITES - 60);
          int keys[80], ctxs[80];
          for (int j = 0; j < P; j++)
            {
              keys[j] = base + rnd () % (rnd () % 2 ? 3 : 50);
              ctxs[j] = rnd () % 3;
            }
          for (int r = 0; r < rows && i < n; r++)
            for (int j = 0; j < P && i < n; j++, i++)
              {
                struct zi_entry_wide *e = (struct zi_entry_wide *) (buf + (size_t) i * stride);
                int noise = rnd () % 50 == 0;
                e->e.site = &sites[noise ? rnd () % NSITES : (uint64_t) keys[j]];
                e->e.ctx = (const struct zi_ctx *) (uintptr_t) (0x1000 + 64 * (noise ? rnd () % 3 : (uint64_t) ctxs[j]));
                e->e.addr = 0;
                int k = rnd () % 5;
                e->e.lo = k == 0 ? 0 : k == 1 ? rnd () >> (rnd () % 64)
                        : k == 2 ? 1ull << 63 : k == 3 ? 1ull << 31 : rnd ();
                e->hi = k == 0 || rnd () % 2 ? 0 : rnd () >> (rnd () % 64);
                /* values narrower than 64 bits are zero-extended (ABI) */
                unsigned eb = zi_types[type].elem_bytes;
                if (eb && eb < 8)
                  e->e.lo &= (1ull << (8 * eb)) - 1;
              }
        }
      struct zi_thread *t = calloc (1, sizeof *t);
      struct zi_table ref = { 0 };
      int cut = n ? rnd () % (n + 1) : 0;
      zi_analyze (t, type, buf, buf + (size_t) cut * stride);
      zi_analyze (t, type, buf + (size_t) cut * stride, buf + (size_t) n * stride);
      reference (&ref, type, buf, buf + (size_t) n * stride);
      cases++;
      for (size_t x = 0; ref.cells && x <= ref.mask; x++)
        {
          if (!ref.cells[x].slot)
            continue;
          struct zi_counters want = ref.cells[x].c;
          struct zi_counters *got = zi_table_get (&t->counters, ref.cells[x].slot, ref.cells[x].ctx);
          if (zi_types[type].kind == ZI_KIND_FLOAT)
            want.redundant_bytes = got->redundant_bytes;  /* derived at report time */
          if (!ZI_WIDE_TYPE (type))
            want.or_hi = got->or_hi;
          if (type == ZI_OTHER)
            {
              /* not analysed: only the loads count */
              want.zero_elements = got->zero_elements;
              want.redundant_bytes = got->redundant_bytes;
            }
          if (memcmp (got, &want, sizeof want))
            {
              if (bad++ < 5)
                printf ("case %d (class %d, contexts %d): slot %d: elements %lu/%lu zero %lu/%lu "
                        "redundant %lu/%lu or %lx/%lx\n", iter, type, zi_config.contexts,
                        ref.cells[x].slot, got->elements, want.elements, got->zero_elements,
                        want.zero_elements, got->redundant_bytes, want.redundant_bytes,
                        got->or_lo, want.or_lo);
            }
        }
      if (t->counters.count != ref.count && bad++ < 5)
        printf ("case %d: %zu counters, expected %zu\n", iter, t->counters.count, ref.count);
      zi_table_free (&t->counters);
      zi_table_free (&ref);
      free (t);
    }
  printf ("%ld cases, %ld mismatches\n", cases, bad);
  return bad != 0;
}
