/* analyze.c - fold a buffer of entries into per-site counters (SPEC §3).

   Integer element of n bytes: redundant bytes = leading zero bytes from
   the most significant byte down; zero element = all n bytes zero.
   Float element: zero element = +0.0 or -0.0 (all bits but the sign zero);
   redundant bytes = n for a zero element, else 0.
   Each counter also keeps the OR of all values, from which the redmap
   (bytes or float parts zero in every element) is derived at report time.

   One loop body serves all classes: analyze_loop is specialised per class
   by constant arguments from a small table of wrappers.  Counters are kept
   per (site, calling context) in the thread's table.  */
#include <string.h>
#include "runtime.h"

/* Entries are zi_entry (32 bytes) or, for the 128-bit classes,
   zi_entry_wide (48 bytes): STRIDE is the size, WIDE says which.  The
   context is ignored when ZEROINST_CONTEXTS=0.

   Loads of several sites interleave in a buffer (a sparse matvec reads an
   index, a value and a vector element per step), so counters are found
   through a 2-way set-associative cache keyed by site and context before the
   thread's hash table; the cache is dropped if the table grows (its cells
   move).  */
#define CACHE_SETS 128    /* unrolled loops interleave dozens of sites */
struct cache_line {
  const struct zi_site *site;
  const void *ctx;
  struct zi_counters *c;
};

static inline __attribute__ ((always_inline)) void
analyze_loop (struct zi_thread *t, const char *p, const char *end, int is_float,
              unsigned bytes, int wide, uint64_t hi_mask, uint64_t sign_lo, uint64_t sign_hi)
{
  const unsigned stride = wide ? sizeof (struct zi_entry_wide) : sizeof (struct zi_entry);
  /* Two lines per set, the most recently used first: two (site, context)
     pairs that hash to one set and alternate in a loop do not evict each
     other.  */
  _Static_assert (CACHE_SETS == 128, "the set is the top 7 bits of the hash");
  struct cache_line cache[CACHE_SETS][2];
  memset (cache, 0, sizeof cache);
  size_t table_mask = t->counters.mask;
  const int contexts = zi_config.contexts;
  for (; p < end; p += stride)
    {
      const struct zi_entry *e = (const struct zi_entry *) p;
      const void *ctx = contexts ? e->ctx : NULL;
      uint64_t h = ((uint64_t) (uintptr_t) e->site ^ (uint64_t) (uintptr_t) ctx >> 3)
                   * 0x9e3779b97f4a7c15ull;
      struct cache_line *set = cache[h >> 57];
      if (__builtin_expect (set[0].site != e->site || set[0].ctx != ctx, 0))
        {
          struct cache_line older = set[0];
          if (set[1].site == e->site && set[1].ctx == ctx)
            set[0] = set[1];
          else
            {
              struct zi_counters *c = zi_table_get (&t->counters, zi_site_slot (e->site), ctx);
              if (t->counters.mask != table_mask)
                {
                  memset (cache, 0, sizeof cache);
                  table_mask = t->counters.mask;
                  older.site = NULL;
                }
              set[0] = (struct cache_line) { e->site, ctx, c };
            }
          set[1] = older;
        }
      struct cache_line *line = &set[0];
      struct zi_counters *c = line->c;
      uint64_t lo = e->lo, hi = wide ? ((const struct zi_entry_wide *) p)->hi & hi_mask : 0;
      c->elements++;
      if (is_float)
        /* redundant bytes = zero elements * bytes: derived when the loop ends */
        c->zero_elements += ((lo & ~sign_lo) | (hi & ~sign_hi)) == 0;
      else
        {
          unsigned red = zi_int_redundant (lo, hi, bytes);
          c->redundant_bytes += red;
          c->zero_elements += red == bytes;
        }
      c->or_lo |= lo;
      if (wide)
        c->or_hi |= hi;
    }
}

#define ANALYZER(NAME, CLASS, ...)                                       \
  static void analyze_##NAME (struct zi_thread *t, const char *b, const char *e) \
  { analyze_loop (t, b, e, __VA_ARGS__); }
ZI_VALUE_CLASSES (ANALYZER)
/* Not analysed: count loads only; bytes come from the site.  */
static void
analyze_other (struct zi_thread *t, const char *b, const char *e)
{
  analyze_loop (t, b, e, 0, 0, 0, 0, 0, 0);
}

typedef void analyzer_fn (struct zi_thread *, const char *, const char *);
#define ENTRY(NAME, CLASS, ...) [CLASS] = analyze_##NAME,
static analyzer_fn *const analyzers[ZI_NTYPES] = {
  ZI_VALUE_CLASSES (ENTRY)
  [ZI_OTHER] = analyze_other,
};
#undef ENTRY

/* Fold the entries in [BEGIN, END) of class TYPE into T's counters.  */
void
zi_analyze (struct zi_thread *t, enum zi_type type, const void *begin, const void *end)
{
  analyzers[type] (t, begin, end);
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

/* Is any bit in [FROM, FROM+COUNT) of the 128-bit OR set?  */
static int
any_bit (const struct zi_counters *c, unsigned from, unsigned count)
{
  for (unsigned b = from; b < from + count; b++)
    if (b < 64 ? (c->or_lo >> b) & 1 : (c->or_hi >> (b - 64)) & 1)
      return 1;
  return 0;
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
