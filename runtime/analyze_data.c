/* analyze_data.c - fold entries into data objects (SPEC §5): the
   runtime's path for the elements that generated code does not attribute
   through its data slots (object_cache.c): the 128-bit classes, sites
   beyond a function's slots, out-of-line mode, one element at a time (and
   the analysis tests, on generated batches).

   Each element is attributed by the address of its first byte to a static
   object or a live heap block (objects.c), or classed as stack (the
   thread's own stack, the main thread's, or no address: a non-addressable
   local) or unknown memory.  Per object it adds the element's metrics
   (the same as analyze.c's) to the object's group, and marks the bytes it
   covered in the shadow (shadow.h): loaded, and non-zero where the byte
   was non-zero.  Bytes of an element past the object's end are not
   marked.  Aggregate copies (ZI_OTHER) have no values: not counted here.

   The objects' lock is held (read side) for the whole batch.  Loads of
   one site usually hit one object, so a per-site cache of the last object
   (or stack range) spares most lookups; in periodic stretches of the
   buffer (period.h) each position's object is taken from it once per
   stretch.  Counter updates are batched per group (added atomically at
   the end: several threads may read one object).  */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "period.h"
#include "shadow.h"

/* Scalar counter updates, as in analyze.c: SLP-vectorized pairs of
   counters are 16-byte loads that stall behind the previous element's
   scalar stores.  */
#pragma GCC optimize ("no-tree-slp-vectorize")

/* Mark the N bytes at ADDR (values LO, then HI) in the shadow, but not
   those past the end of their object, ROOM bytes from ADDR.  CHUNK is the
   shadow chunk of the object's region when the object lies in one.  */
static inline __attribute__ ((always_inline)) void
mark (uint32_t *chunk, int kind, uintptr_t addr, size_t room, unsigned n, uint64_t lo,
      uint64_t hi)
{
  if (n > room)
    n = (unsigned) room;
  if (chunk)
    zi_shadow_mark_word (chunk + zi_shadow_index (addr), kind, addr, n, lo, hi);
  else
    zi_shadow_mark (kind, addr, n, lo, hi);
}

/* Where ADDR, loaded by thread T, is (zi_data_find).  */
static inline enum zi_class
find (const struct zi_thread *t, uintptr_t addr, struct zi_block *b, struct zi_static_gap *gap)
{
  *b = (struct zi_block) { 0 };
  if (!addr)
    {
      b->size = 1;
      return ZI_CLASS_STACK;
    }
  if (addr - t->stack_lo < t->stack_hi - t->stack_lo)
    {
      b->base = t->stack_lo, b->size = t->stack_hi - t->stack_lo;
      return ZI_CLASS_STACK;
    }
  if (zi_object_find (addr, b, gap))
    return b->group->cls;
  if (addr - zi_main_stack_lo < zi_main_stack_hi - zi_main_stack_lo)
    {
      b->base = zi_main_stack_lo, b->size = zi_main_stack_hi - zi_main_stack_lo;
      return ZI_CLASS_STACK;
    }
  return ZI_CLASS_UNKNOWN;
}

static inline enum zi_class
classify (const struct zi_thread *t, uintptr_t addr, struct zi_object **o, uintptr_t *lo,
          uintptr_t *hi)
{
  struct zi_block b;
  enum zi_class cls = find (t, addr, &b, NULL);
  *o = b.o;
  *lo = b.base, *hi = b.base + b.size;
  return cls;
}

enum zi_class
zi_data_classify (const struct zi_thread *t, uintptr_t addr, struct zi_object **o, uintptr_t *lo,
                  uintptr_t *hi)
{
  return classify (t, addr, o, lo, hi);
}

enum zi_class
zi_data_find (struct zi_thread *t, uintptr_t addr, struct zi_block *b)
{
  return find (t, addr, b, &t->static_gap);
}

/* The site cache: one line per set.  A thread keeps its cache from
   buffer to buffer (zi_thread.data_cache), empty in between: the lines a
   buffer filled are listed, retired and emptied at its end, so that a
   buffer costs nothing for the lines it did not use (programs that free
   often flush small buffers often).  Large, because an irregular program
   (a database engine) interleaves loads of thousands of sites.  */
#define SITE_SETS 1024
#define SMALL_SETS 16     /* a cache on the stack, when there is no other */
#define PENDING 16

/* The last place a site's loads went, and what they added since.  */
struct site_line {
  const struct zi_site *site;
  uintptr_t lo, span;        /* the object (or stack) is [lo, lo + span) */
  struct zi_object *obj;
  uint32_t *chunk;           /* the object's shadow chunk, if it lies in one */
  enum zi_class cls;
  uint64_t elements, redundant_bytes, zero_elements;
};

struct site_cache {
  size_t mask;               /* sets - 1 */
  unsigned nfilled;
  uint16_t *filled;          /* the sets filled in this buffer */
  struct site_line *line;
};

/* Move what line S counted to the class totals and its object's group.  */
static void
retire (struct site_line *s, struct zi_totals *cls, struct zi_pending *pend, int kind, unsigned bytes)
{
  if (!s->elements)
    return;
  struct zi_totals d = { s->elements, s->elements * bytes, s->redundant_bytes, s->zero_elements };
  zi_totals_add (&cls[s->cls], &d);
  s->elements = s->redundant_bytes = s->zero_elements = 0;
  if (s->obj)
    zi_pending_add (pend, PENDING, s->obj->group, kind, &d);
}

/* The line of site cache SC for the element at E (its site, address
   ADDR): the cached one if the element is in its object, else the line
   retired and filled anew.  */
static inline __attribute__ ((always_inline)) struct site_line *
site_line_for (struct zi_thread *t, struct site_cache *sc, struct zi_totals *cls,
               struct zi_pending *pend, int kind, unsigned bytes, const struct zi_entry *e,
               uintptr_t addr)
{
  size_t set = (size_t) (((uintptr_t) e->site * 0x9e3779b97f4a7c15ull) >> 40) & sc->mask;
  struct site_line *s = &sc->line[set];
  if (__builtin_expect (s->site != e->site || addr - s->lo >= s->span, 0))
    {
      if (!s->site)
        sc->filled[sc->nfilled++] = (uint16_t) set;
      retire (s, cls, pend, kind, bytes);
      uintptr_t hi_addr;
      s->site = e->site;
      s->cls = classify (t, addr, &s->obj, &s->lo, &hi_addr);
      s->span = hi_addr - s->lo;
      s->chunk = NULL;
      if (s->obj)
        {
          zi_object_touch (s->obj, kind);
          if (s->lo >> ZI_SHADOW_REGION_BITS == (hi_addr - 1) >> ZI_SHADOW_REGION_BITS)
            {
              uint32_t *w = zi_shadow_word (kind, s->lo);
              if (w)
                s->chunk = w - zi_shadow_index (s->lo);
            }
        }
    }
  return s;
}

/* Fold the stretch of rows of P entries from *PP whose sites repeat those
   of the first row (period.h), for as long as each position's elements
   stay in the object (or stack) its first element is in.  Each position
   works on a copy of its site's cache line, so no lookup is made per
   element; its counts go to the object's group at the end.  */
static inline __attribute__ ((always_inline)) void
data_stretch (struct zi_thread *t, struct site_cache *sc, struct zi_totals *cls,
              struct zi_pending *pend, const char **pp, const char *end, const unsigned P,
              int is_float, unsigned bytes, int wide, uint64_t hi_mask, uint64_t sign_lo,
              uint64_t sign_hi)
{
  const unsigned stride = wide ? sizeof (struct zi_entry_wide) : sizeof (struct zi_entry);
  const int kind = is_float ? ZI_KIND_FLOAT : ZI_KIND_INT;
  const char *row0 = *pp, *p = row0;
  struct site_line pos[ZI_MAX_PERIOD];
  uint64_t red[ZI_MAX_PERIOD], zero[ZI_MAX_PERIOD];
  for (unsigned j = 0; j < P; j++)
    {
      const struct zi_entry *e = (const struct zi_entry *) (row0 + j * stride);
      pos[j] = *site_line_for (t, sc, cls, pend, kind, bytes, e, (uintptr_t) e->addr);
      pos[j].elements = pos[j].redundant_bytes = pos[j].zero_elements = 0;
      red[j] = zero[j] = 0;
    }
  /* Entry J of a row, at Q, still belongs to position J: same site, in
     the same object.  */
#define IN_STRETCH(J, Q)                                                               \
  (zi_same_key ((Q), row0 + (J) * stride)                                           \
   & (((const struct zi_entry *) (Q))->addr - pos[J].lo < pos[J].span))
#define FOLD(J, Q)                                                                     \
  do                                                                                   \
    {                                                                                  \
      const struct zi_entry *e_ = (const struct zi_entry *) (Q);                       \
      uint64_t lo_ = e_->lo;                                                           \
      uint64_t hi_ = wide ? ((const struct zi_entry_wide *) e_)->hi & hi_mask : 0;     \
      unsigned r_, z_;                                                                 \
      zi_element_rule (lo_, hi_, is_float, bytes, sign_lo, sign_hi, &r_, &z_);         \
      red[J] += r_;                                                                    \
      zero[J] += z_;                                                                   \
      if (pos[J].obj)                                                                  \
        mark (pos[J].chunk, kind, e_->addr, pos[J].span - (e_->addr - pos[J].lo), bytes, \
              lo_, hi_);                                                               \
    }                                                                                  \
  while (0)
  uint64_t rows = 0;
  unsigned partial = 0;      /* entries of a last, incomplete row */
  ZI_FOLD_ROWS (p, end, P, stride, IN_STRETCH, FOLD, rows, partial);
#undef IN_STRETCH
#undef FOLD
  for (unsigned j = 0; j < P; j++)
    {
      pos[j].elements = rows + (j < partial);
      pos[j].redundant_bytes = is_float ? zero[j] * bytes : red[j];
      pos[j].zero_elements = zero[j];
      retire (&pos[j], cls, pend, kind, bytes);
    }
  *pp = p;
}

/* One element on its own, at P.  */
static inline __attribute__ ((always_inline)) void
data_entry (struct zi_thread *t, struct site_cache *sc, struct zi_totals *cls,
            struct zi_pending *pend, const char *p, int is_float, unsigned bytes, int wide,
            uint64_t hi_mask, uint64_t sign_lo, uint64_t sign_hi)
{
  const struct zi_entry *e = (const struct zi_entry *) p;
  const int kind = is_float ? ZI_KIND_FLOAT : ZI_KIND_INT;
  uint64_t lo = e->lo, hi = wide ? ((const struct zi_entry_wide *) p)->hi & hi_mask : 0;
  unsigned red, zero;
  zi_element_rule (lo, hi, is_float, bytes, sign_lo, sign_hi, &red, &zero);
  uintptr_t addr = (uintptr_t) e->addr;
  struct site_line *s = site_line_for (t, sc, cls, pend, kind, bytes, e, addr);
  s->elements++;
  s->redundant_bytes += is_float ? zero * bytes : red;
  s->zero_elements += zero;
  if (s->obj)
    mark (s->chunk, kind, addr, s->span - (addr - s->lo), bytes, lo, hi);
}

static inline __attribute__ ((always_inline)) void
data_loop (struct zi_thread *t, struct site_cache *sc, const char *p, const char *end,
           int is_float, unsigned bytes, int wide, uint64_t hi_mask, uint64_t sign_lo,
           uint64_t sign_hi)
{
  const unsigned stride = wide ? sizeof (struct zi_entry_wide) : sizeof (struct zi_entry);
  const int kind = is_float ? ZI_KIND_FLOAT : ZI_KIND_INT;
  struct zi_pending pend[PENDING];
  struct zi_totals cls[ZI_NCLASSES];
  memset (pend, 0, sizeof pend);
  memset (cls, 0, sizeof cls);
#define STRETCH(P)                                                                      \
  data_stretch (t, sc, cls, pend, &p, end, P, is_float, bytes, wide, hi_mask, sign_lo, \
                sign_hi)
#define ALONE(Q)                                                                       \
  data_entry (t, sc, cls, pend, (Q), is_float, bytes, wide, hi_mask, sign_lo, sign_hi)
  /* As analyze.c, but keyed by site only: objects do not depend on the
     calling context.  */
  ZI_FOLD_BUFFER (p, end, stride, STRETCH, ALONE);
#undef ALONE
#undef STRETCH
  for (unsigned i = 0; i < sc->nfilled; i++)
    {
      struct site_line *s = &sc->line[sc->filled[i]];
      retire (s, cls, pend, kind, bytes);
      s->site = NULL;
    }
  sc->nfilled = 0;
  zi_pending_commit (pend, PENDING);
  for (int i = 0; i < ZI_NCLASSES; i++)
    zi_totals_add (&t->data_totals[i][kind], &cls[i]);
}

#define ANALYZER(NAME, CLASS, ...)                                     \
  static void data_##NAME (struct zi_thread *t, struct site_cache *sc, const char *b, \
                           const char *e)                               \
  { data_loop (t, sc, b, e, __VA_ARGS__); }
ZI_VALUE_CLASSES (ANALYZER)

typedef void analyzer_fn (struct zi_thread *, struct site_cache *, const char *, const char *);
#define ENTRY(NAME, CLASS, ...) [CLASS] = data_##NAME,
static analyzer_fn *const analyzers[ZI_NTYPES] = { ZI_VALUE_CLASSES (ENTRY) };
#undef ENTRY

/* Fold the entries in [BEGIN, END) of class TYPE, loaded by thread T, into
   the data objects.  */
void
zi_analyze_data (struct zi_thread *t, enum zi_type type, const void *begin, const void *end)
{
  if (!analyzers[type] || begin == end)
    return;
  /* The thread's own cache; a small one on the stack for another
     thread's buffer (flushed at exit while it may run) or without memory.  */
  int own = zi_thread_is_self (t);
  struct site_cache *sc = own ? t->data_cache : NULL, small;
  struct site_line small_lines[SMALL_SETS];
  uint16_t small_filled[SMALL_SETS];
  if (own && !sc)
    {
      char *block = calloc (1, sizeof *sc + SITE_SETS * (sizeof *sc->line + sizeof *sc->filled));
      if (block)
        {
          sc = (struct site_cache *) block;
          sc->mask = SITE_SETS - 1;
          sc->line = (struct site_line *) (block + sizeof *sc);
          sc->filled = (uint16_t *) (sc->line + SITE_SETS);
          t->data_cache = sc;
        }
    }
  if (!sc)
    {
      memset (small_lines, 0, sizeof small_lines);
      small = (struct site_cache) { SMALL_SETS - 1, 0, small_filled, small_lines };
      sc = &small;
    }
  zi_statics_check (t, 0);
  pthread_rwlock_rdlock (&zi_objects_lock);
  analyzers[type] (t, sc, begin, end);
  pthread_rwlock_unlock (&zi_objects_lock);
}
