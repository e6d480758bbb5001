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
#include "period.h"

/* Counters are updated with scalar read-modify-writes: GCC's SLP
   vectorizer would pair adjacent fields into 16-byte loads that cannot be
   forwarded from the scalar stores of the previous update (a stall per
   entry on irregular code).  */
#pragma GCC optimize ("no-tree-slp-vectorize")

/* Entries are zi_entry (32 bytes) or, for the 128-bit classes,
   zi_entry_wide (48 bytes): STRIDE is the size, WIDE says which.  The
   context is ignored when ZEROINST_CONTEXTS=0.

   Counters are found through a 2-way set-associative cache keyed by site
   and context before the thread's hash table (lookup); the cache is
   dropped if the table grows (its cells move).

   The buffer is cut into periodic stretches of (site, context) keys
   (period.h).  In a stretch the keys are checked and the values folded
   into per-position accumulators in registers, and each position's
   counters are updated once at the end of the stretch.  Entries outside
   such stretches take the per-entry path.  */
#define CACHE_SETS 128    /* unrolled loops interleave dozens of sites */
struct cache_line {
  const struct zi_site *site;
  const void *ctx;
  struct zi_counters *c;
};
struct cache {
  /* Two lines per set, the most recently used first: two (site, context)
     pairs that hash to one set and alternate in a loop do not evict each
     other.  */
  struct cache_line set[CACHE_SETS][2];
  size_t table_mask;       /* of the table the cached pointers point into */
};

static inline __attribute__ ((always_inline)) struct zi_counters *
lookup (struct zi_thread *t, struct cache *cache, const struct zi_site *site, const void *ctx)
{
  _Static_assert (CACHE_SETS == 128, "the set is the top 7 bits of the hash");
  uint64_t h = ((uint64_t) (uintptr_t) site ^ (uint64_t) (uintptr_t) ctx >> 3)
               * 0x9e3779b97f4a7c15ull;
  struct cache_line *set = cache->set[h >> 57];
  if (__builtin_expect (set[0].site != site || set[0].ctx != ctx, 0))
    {
      struct cache_line older = set[0];
      if (set[1].site == site && set[1].ctx == ctx)
        set[0] = set[1];
      else
        {
          struct zi_counters *c = zi_table_get (&t->counters, zi_site_slot (site), ctx);
          if (t->counters.mask != cache->table_mask)
            {
              memset (cache->set, 0, sizeof cache->set);
              cache->table_mask = t->counters.mask;
              older.site = NULL;
            }
          set[0] = (struct cache_line) { site, ctx, c };
        }
      set[1] = older;
    }
  return set[0].c;
}

/* Per-position accumulators of a stretch.  */
struct acc {
  uint64_t zero, red, or_lo, or_hi;
};

/* The per-element rule, into A.  */
static inline __attribute__ ((always_inline)) void
fold (struct acc *a, const char *p, int is_float, unsigned bytes, int wide, uint64_t hi_mask,
      uint64_t sign_lo, uint64_t sign_hi)
{
  uint64_t lo = ((const struct zi_entry *) p)->lo;
  uint64_t hi = wide ? ((const struct zi_entry_wide *) p)->hi & hi_mask : 0;
  unsigned red, zero;
  zi_element_rule (lo, hi, is_float, bytes, sign_lo, sign_hi, &red, &zero);
  a->zero += zero;
  a->red += red;     /* 0 for floats: derived at report time */
  a->or_lo |= lo;
  if (wide)
    a->or_hi |= hi;
}

static inline __attribute__ ((always_inline)) void
add_acc (struct zi_counters *c, const struct acc *a, uint64_t n, int is_float, int wide)
{
  c->elements += n;
  c->zero_elements += a->zero;
  if (!is_float)
    c->redundant_bytes += a->red;
  c->or_lo |= a->or_lo;
  if (wide)
    c->or_hi |= a->or_hi;
}

/* Fold the stretch of rows of P entries from *PP whose keys repeat those
   of the first row (period.h).  */
static inline __attribute__ ((always_inline)) void
stretch (struct zi_thread *t, struct cache *cache, const char **pp, const char *end,
         const unsigned P, int contexts, int is_float, unsigned bytes, int wide,
         uint64_t hi_mask, uint64_t sign_lo, uint64_t sign_hi)
{
  const unsigned stride = wide ? sizeof (struct zi_entry_wide) : sizeof (struct zi_entry);
  const char *row0 = *pp, *p = row0;
  struct acc acc[ZI_MAX_PERIOD];
  for (unsigned j = 0; j < P; j++)
    acc[j] = (struct acc) { 0, 0, 0, 0 };
  /* The first row is the reference (the caller checked the second
     against it); every later row must match it.  */
#pragma GCC unroll 4
  for (unsigned j = 0; j < P; j++)
    fold (&acc[j], p + j * stride, is_float, bytes, wide, hi_mask, sign_lo, sign_hi);
  uint64_t rows = 1;
  p += P * stride;
  unsigned partial = 0;      /* entries of a last, incomplete row */
#define IN(J, Q) zi_same_key ((Q), row0 + (J) * stride, contexts)
#define FOLD(J, Q) fold (&acc[J], (Q), is_float, bytes, wide, hi_mask, sign_lo, sign_hi)
  ZI_FOLD_ROWS (p, end, P, stride, IN, FOLD, rows, partial);
#undef IN
#undef FOLD
  /* Counters of each position; a lookup may grow the table and move the
     cells found before it, so look them up again until none moved.  */
  struct zi_counters *c[ZI_MAX_PERIOD];
  size_t mask;
  do
    {
      mask = t->counters.mask;
#pragma GCC unroll 4
      for (unsigned j = 0; j < P; j++)
        {
          const struct zi_entry *e = (const struct zi_entry *) (row0 + j * stride);
          c[j] = lookup (t, cache, e->site, contexts ? e->ctx : NULL);
        }
    }
  while (t->counters.mask != mask);
#pragma GCC unroll 4
  for (unsigned j = 0; j < P; j++)
    add_acc (c[j], &acc[j], rows + (j < partial), is_float, wide);
  *pp = p;
}

/* One entry at P on its own.  */
static inline __attribute__ ((always_inline)) void
alone (struct zi_thread *t, struct cache *cache, const char *p, int contexts, int is_float,
       unsigned bytes, int wide, uint64_t hi_mask, uint64_t sign_lo, uint64_t sign_hi)
{
  const struct zi_entry *e = (const struct zi_entry *) p;
  struct zi_counters *c = lookup (t, cache, e->site, contexts ? e->ctx : NULL);
  struct acc a = { 0, 0, 0, 0 };
  fold (&a, p, is_float, bytes, wide, hi_mask, sign_lo, sign_hi);
  add_acc (c, &a, 1, is_float, wide);
}

static inline __attribute__ ((always_inline)) void
analyze_loop (struct zi_thread *t, const char *p, const char *end, int is_float,
              unsigned bytes, int wide, uint64_t hi_mask, uint64_t sign_lo, uint64_t sign_hi)
{
  const unsigned stride = wide ? sizeof (struct zi_entry_wide) : sizeof (struct zi_entry);
  struct cache cache;
  memset (&cache, 0, sizeof cache);
  cache.table_mask = t->counters.mask;
  const int contexts = zi_config.contexts;
#define STRETCH(P)                                                                  \
  stretch (t, &cache, &p, end, P, contexts, is_float, bytes, wide, hi_mask, sign_lo, sign_hi)
#define ALONE(Q)                                                                    \
  alone (t, &cache, (Q), contexts, is_float, bytes, wide, hi_mask, sign_lo, sign_hi)
  ZI_FOLD_BUFFER (p, end, stride, contexts, STRETCH, ALONE);
#undef ALONE
#undef STRETCH
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
