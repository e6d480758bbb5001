/* contexts.c - calling-context trees, one per thread, and the canonical
   tree that outlives them.

   A node is one activation path: (parent node, function, return address).
   Generated code finds the node of a function's activation in its parent's
   cache of ZI_CTX_WAYS children (zeroinst-abi.h); on a miss it calls
   __zeroinst_enter_node,
   which looks the node up in the thread's hash table of nodes, creating it
   if needed.

   The cache has ZI_CTX_WAYS entries, probed at the return address's way
   and then at its pair (cache_put).

   Entered from instrumented code: the return address lies inside the
   parent's function (its code range, from the unwind tables), and the node
   is the parent's child.  Entered from uninstrumented code (a qsort
   comparator, an OpenMP region started by libgomp, a thread's start
   routine): the stack is unwound with libunwind up to the parent's frame,
   and every frame in between gets a node of its own (ZI_NODE_FOREIGN), so
   the path runs through qsort or GOMP_parallel to main.  Such nodes are
   never cached: every entry from uninstrumented code unwinds, which keeps
   the path exact when the same library function is reached from different
   call sites.

   Recursion: a node whose (function, return address) equals an ancestor's
   is that ancestor, so direct and mutual recursion through the same call
   sites fold into one path.  A recursive call through another call site
   gets a node of its own only at the first level of recursion: below an
   activation of the function that is already recursive (one more
   activation of it is above), it continues in that activation.  Without
   this a function with k recursive call sites (GCC's partial inlining of
   a recursive tree walk makes several) would get a node per sequence of
   distinct sites, up to k! of them; with it a path holds at most two
   activations of a function per call site into it, and every path is
   still a real chain of calls.  Paths with more than ZEROINST_MAX_DEPTH (default
   256) instrumented activations fold into the activation at that depth:
   everything called from it is counted there, and reports show the
   elided frames as "...".

   OpenMP worker threads start a region from libgomp's thread pool, with no
   instrumented frame below.  GOMP_parallel is interposed to remember, per
   region function, the node and call site that started it; a worker's
   path then continues through GOMP_parallel into the master's path.

   Non-local exits (exceptions, longjmp, cancellation) are handled by the
   generated code, which re-establishes __zeroinst_ctx at landing pads and
   after setjmp returns.

   Tail calls: a node of a function with tail calls has a tail node per
   tail call (tail_node, made when the call is first made), which the
   function makes the context before the jump.  Its callee is entered with the function's own return
   address (the tail node's "code range" is that one address) and is the
   tail node's child: its path runs through the tail call's line
   (callpath.c) to the function and on.  When that callee returns, to the
   function's caller, nothing sets the context back: it stays the tail
   node (or whatever the callee's own return set it to) while the caller
   runs.  So an entry under a tail node with another return address is
   one of three:
     - from code that runs after the activation returned: the nearest
       ancestor above the function whose code holds the return address
       (past tail nodes above and the functions that made their tail
       calls: their activations are over too) is the real parent
       (live_parent), cached in the tail node, so that the caller's
       later calls keep hitting;
     - from uninstrumented code, the callee of the tail call (a library
       function that calls back), or a stale caller: unwound as any
       foreign entry, with the tail node's return address as the frame to find,
       else from the context the activation returned to;
     - from the function itself, where GCC compiled the tail call as a
       plain call after all (it may, when the callee's stack arguments
       do not fit): the return address is in the function's code and the
       function is the known callee; the tail node's child, cached.
       (Otherwise found by the same unwinding, not cached.)
   The tail callee is known by its return address and, for a direct
   tail call, its function (zi_tail.callee): a call site that calls
   through a pointer, first a function that made a tail call, then
   another function, is told apart.  What cannot be told apart: after
   an indirect tail call (whose callee is unknown) returned, every later
   call from the same call site (through a pointer) until the caller
   returns counts below the tail call; after a direct tail call to G,
   G called again from that call site does.  And on an OpenMP worker, a
   region body's tail callee hangs off the thread's start (the body's
   node has the region's made-up return address, contexts.c's
   region_entry), as before tail nodes.  */
#if ZEROINST_HAVE_UNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "contexts/contexts.h"
#include "counters/counters.h"
#include "data/data.h"

/* A node whose cache never matches: the "fn" of zi_no_match is no
   function descriptor.  */
#define NO_MATCH_WAYS { &zi_no_match, &zi_no_match, &zi_no_match, &zi_no_match, \
                        &zi_no_match, &zi_no_match, &zi_no_match, &zi_no_match }
/* Counts that cannot be taken (loads inside the runtime, or while another
   thread writes a report) go to the sink, which nobody reads: concurrent
   writes to it do not matter.  Its data slots come first (ZI_DSLOT); zero,
   they tell __zeroinst_lookup to hit everything and mark nothing.  Static
   and untouched until used, so it costs address space only.  */
static struct {
  struct zi_dslot data[ZI_MAX_FN_UNITS];
  struct zi_slot slots[ZI_MAX_FN_UNITS];
} sink_area;
#define sink sink_area.slots
/* The tail nodes of the static nodes (generated code may make a tail
   call from the sink): the sink.  */
static const struct zi_ctx zi_sink_ctx;
static const struct zi_ctx *const sink_tails[ZI_MAX_FN_TAILS]
    = { [0 ... ZI_MAX_FN_TAILS - 1] = &zi_sink_ctx };
static const struct zi_ctx zi_no_match
    = { NO_MATCH_WAYS, (const struct zi_fn *) 1, 0, sink, sink_tails };
/* Where every thread starts.  */
static const struct zi_ctx zi_unborn = { NO_MATCH_WAYS, NULL, 0, sink, sink_tails };
/* What __zeroinst_enter_node returns when the counts are to be dropped; its
   callees get it too.  */
static const struct zi_ctx zi_sink_ctx
    = { NO_MATCH_WAYS, (const struct zi_fn *) 2, 0, sink, sink_tails };
_Static_assert (ZI_CTX_WAYS == 8, "NO_MATCH_WAYS lists ZI_CTX_WAYS entries");

__thread const struct zi_ctx *__zeroinst_ctx
    __attribute__ ((tls_model ("initial-exec"), visibility ("default"))) = &zi_unborn;
__thread const struct zi_ctx *__zeroinst_flat
    __attribute__ ((tls_model ("initial-exec"), visibility ("default"))) = &zi_unborn;

/* A thread's tree: nodes by key (parent, fn, ra).  A key may also map to
   an ancestor (recursion folding) or a truncated node.  */
struct zi_link {
  const struct zi_node *parent;
  const struct zi_fn *fn;
  uintptr_t ra;
  struct zi_node *target;
  struct zi_link *next;
};
struct zi_cct {
  struct zi_node *flat;      /* the root of the flat nodes (no contexts) */
  struct zi_link **buckets;
  size_t nbuckets, count;
  struct zi_node **nodes;    /* the nodes it made, freed with it */
  size_t nnodes, cap;
  struct zi_node **firsts;   /* data mode alone: per function, the node owning its slots */
  size_t nfirsts, firsts_mask;
};

/* Slots in data mode alone.  No load site is reported there, so a load's
   counts are only ever taken by its data slot, for the group of the
   object it was in: which context counted them does not matter.  Every
   node of a function in a thread starts with the slots (counter and
   data) of the function's first node in that thread, which owns them;
   a node whose activations keep calling the runtime gets slots of its
   own (zi_contexts_missed), since contexts that share a data slot evict
   each other's cached object.  sqlite3's speedtest1 (--size 50) has
   51,000 contexts and 1.42 million units: 159 MB of slots, one set per
   context, and 284 MB peak RSS in 8.3 s; shared, with 2,300 busy
   contexts on their own, 137 MB in 7.7 s (all shared: 126 MB in 9.3 s,
   from 16% more lookups); with the large sets in zero pages (lazy_new),
   130 MB.  Open addressing by function descriptor, at most half full.  */
static size_t
fn_hash (const struct zi_fn *fn)
{
  uint64_t h = (uint64_t) (uintptr_t) fn * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 29));
}

/* The hash of a firsts entry (zi_open_grow).  */
static size_t
first_hash (const void *e)
{
  return fn_hash ((*(struct zi_node *const *) e)->pub.fn);
}

static struct zi_node **
first_of (struct zi_cct *cct, const struct zi_fn *fn)
{
  size_t i = fn_hash (fn) & cct->firsts_mask;
  while (cct->firsts[i] && cct->firsts[i]->pub.fn != fn)
    i = (i + 1) & cct->firsts_mask;
  return &cct->firsts[i];
}

/* The node owning FN's slots in CCT, or NULL (then the next node of FN
   made owns them: remember_first).  */
static struct zi_node *
shared_first (struct zi_cct *cct, const struct zi_fn *fn)
{
  return cct->firsts ? *first_of (cct, fn) : NULL;
}

static void
remember_first (struct zi_cct *cct, struct zi_node *node)
{
  if (2 * (cct->nfirsts + 1) > (cct->firsts ? cct->firsts_mask + 1 : 0))
    {
      cct->firsts = zi_open_grow (cct->firsts, &cct->firsts_mask, sizeof *cct->firsts, 256,
                                  first_hash);
      if (!cct->firsts)
        abort ();
    }
  *first_of (cct, node->pub.fn) = node;
  cct->nfirsts++;
}

/* Resolve the first NSITES sites of FN into SITE_IDS (if not NULL), and
   if DATA set up the data slot of each before SLOTS (ZI_DSLOT).  Returns
   their counter slots' number.  */
static size_t
init_slots (const struct zi_fn *fn, size_t nsites, struct zi_slot *slots, int32_t *site_ids,
            int data)
{
  size_t unit = 0;
  for (size_t i = 0; i < nsites; i++)
    {
      int32_t id = zi_site_slot (fn->sites[i]);
      const struct zi_site_info *si = zi_site_get (id);
      if (site_ids)
        site_ids[i] = id;
      if (data)
        zi_dslot_init (ZI_DSLOT (slots, unit), slots + unit, si);
      unit += ZI_SLOT_UNITS (si->type);
    }
  return unit;
}

/* A node that shares its function's slots and keeps calling the runtime
   from its activations gets slots of its own after this many lookups
   (sqlite3's speedtest1: 16, 64, 256 and 1,024 took the same time, with
   204, 158, 144 and 137 MB peak RSS).  */
#define OWN_AFTER_MISSES 1024

/* In data mode alone, the slots of a function's first node and those of
   a node of its own, for a function of this many bytes of slots or more
   (110 units), are made in zero pages, and each data slot is set up at
   its first miss (zi_contexts_lazy_dslot) instead of all at once: a
   context of an interpreter's loop, thousands of sites of which it runs
   a few, then costs the pages of the sites it runs (sqlite3 speedtest1:
   180 sets, 12.4 MB mapped, 6.5 MB touched; peak RSS 133.3 -> 130.4
   MB).  Smaller sets are set up at once.  */
#define LAZY_MIN_BYTES (12 * 1024)

/* At the start of such a mapping; then the data slots (ZI_DSLOT), the
   counter slots and, per unit, 1 + the dense site number of a site's
   first unit (0 for the others: no data slot).  */
struct lazy_slots {
  size_t map_bytes;
  uint32_t units;
  int32_t *ids;
  struct zi_slot *slots;
};
#define LAZY_HEADER 64
_Static_assert (sizeof (struct lazy_slots) <= LAZY_HEADER, "lazy_slots header");

/* The mappings' data slots [lo, hi), by lo, for the first miss of one of
   them (any thread's: nodes are a thread's own, the table is not).  */
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lazy_range {
  uintptr_t lo, hi;
  struct lazy_slots *h;
} *lazy;
static size_t nlazy, lazy_cap;

static int
lazy_size (size_t units)
{
  return units * (sizeof (struct zi_dslot) + sizeof (struct zi_slot)) >= LAZY_MIN_BYTES;
}

static struct lazy_slots *
lazy_new (const struct zi_fn *fn, size_t units)
{
  size_t bytes = LAZY_HEADER + units * (sizeof (struct zi_dslot) + sizeof (struct zi_slot))
                 + units * sizeof (int32_t);
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  bytes = (bytes + page - 1) & ~(page - 1);
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  struct lazy_slots *h = p;
  h->map_bytes = bytes;
  h->units = (uint32_t) units;
  h->slots = (struct zi_slot *) ((char *) p + LAZY_HEADER + units * sizeof (struct zi_dslot));
  h->ids = (int32_t *) (h->slots + units);
  for (size_t i = 0, unit = 0; i < fn->nsites; i++)
    {
      int32_t id = zi_site_slot (fn->sites[i]);
      h->ids[unit] = id + 1;
      unit += ZI_SLOT_UNITS (zi_site_get (id)->type);
    }
  uintptr_t lo = (uintptr_t) ((struct zi_dslot *) h->slots - units);
  pthread_mutex_lock (&lazy_lock);
  if (nlazy == lazy_cap)
    {
      size_t cap = lazy_cap ? 2 * lazy_cap : 64;
      struct lazy_range *t = realloc (lazy, cap * sizeof *t);
      if (!t)
        {
          pthread_mutex_unlock (&lazy_lock);
          munmap (p, bytes);
          return NULL;
        }
      lazy = t;
      lazy_cap = cap;
    }
  size_t i = nlazy;
  while (i > 0 && lazy[i - 1].lo > lo)
    {
      lazy[i] = lazy[i - 1];
      i--;
    }
  lazy[i] = (struct lazy_range) { lo, (uintptr_t) h->slots, h };
  __atomic_store_n (&nlazy, nlazy + 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&lazy_lock);
  return h;
}

static void
lazy_free (struct lazy_slots *h)
{
  pthread_mutex_lock (&lazy_lock);
  size_t i = 0;
  while (i < nlazy && lazy[i].h != h)
    i++;
  if (i < nlazy)
    {
      memmove (&lazy[i], &lazy[i + 1], (nlazy - i - 1) * sizeof *lazy);
      nlazy--;
    }
  pthread_mutex_unlock (&lazy_lock);
  munmap (h, h->map_bytes);
}

int
zi_contexts_lazy_dslot (struct zi_dslot *ds)
{
  if (!__atomic_load_n (&nlazy, __ATOMIC_ACQUIRE))
    return 0;
  if (zi_in_runtime)
    return -1;
  zi_enter_nowait ();
  pthread_mutex_lock (&lazy_lock);
  uintptr_t a = (uintptr_t) ds;
  size_t lo = zi_count_at_or_below (lazy, nlazy, sizeof *lazy, a);
  int ret = 0;
  if (lo > 0 && a < lazy[lo - 1].hi)
    {
      struct lazy_slots *h = lazy[lo - 1].h;
      size_t unit = (size_t) ((struct zi_dslot *) h->slots - ds) - 1;
      if (h->ids[unit])
        {
          zi_dslot_init (ds, h->slots + unit, zi_site_get (h->ids[unit] - 1));
          ret = 1;
        }
    }
  pthread_mutex_unlock (&lazy_lock);
  zi_leave ();
  return ret;
}

/* N gets slots of its own.  Activations running now keep the shared
   slots they read at entry (their counts and data slots stay together
   there); later ones use the new ones.  Both are taken at a fold
   (zi_contexts_fold).  Apart from zi_contexts_missed, which runs at
   every lookup, so that it saves no registers (a third of its
   instructions when it made the slots itself).  */
static __attribute__ ((noinline)) void
make_own (struct zi_node *n)
{
  const struct zi_fn *fn = n->pub.fn;
  size_t units = fn->nunits;
  struct zi_slot *slots;
  if (lazy_size (units))
    {
      struct lazy_slots *h = lazy_new (fn, units);
      if (!h)
        return;
      n->own = h;
      n->flags |= ZI_NODE_LAZY;
      slots = h->slots;
    }
  else
    {
      void *own = calloc (1, units * (sizeof (struct zi_dslot) + sizeof (struct zi_slot)));
      if (!own)
        return;
      slots = (struct zi_slot *) ((struct zi_dslot *) own + units);
      init_slots (fn, fn->nsites, slots, NULL, 1);
      n->own = own;
    }
  n->ndata = (uint32_t) units;
  n->pub.slots = slots;
  n->flags &= ~ZI_NODE_SHARED;
}

void
zi_contexts_missed (void)
{
  const struct zi_ctx *cur = __zeroinst_ctx;
  if (!zi_ctx_is_node (cur))
    return;
  struct zi_node *n = (struct zi_node *) cur;
  if ((n->flags & ZI_NODE_SHARED) && ++n->misses >= OWN_AFTER_MISSES)
    make_own (n);
}

/* Free what N->own holds (a tail node has its callee range there).  */
static void
free_own (struct zi_node *n)
{
  if (n->flags & ZI_NODE_TAIL)
    return;
  if (n->flags & ZI_NODE_LAZY)
    lazy_free (n->own);
  else
    free (n->own);
}

/* Function names and files of nodes, one copy each (nodes are freed,
   the strings stay for the canonical nodes and the report).  */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static const char **interned;
static size_t interned_mask, ninterned;

static size_t
string_hash (const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return (size_t) (h ^ (h >> 29));
}

/* The hash of an interned entry (zi_open_grow).  */
static size_t
interned_hash (const void *e)
{
  return string_hash (*(const char *const *) e);
}

static const char *
intern (const char *s)
{
  pthread_mutex_lock (&intern_lock);
  if (2 * (ninterned + 1) > (interned ? interned_mask + 1 : 0))
    {
      interned = zi_open_grow (interned, &interned_mask, sizeof *interned, 256, interned_hash);
      if (!interned)
        abort ();
    }
  size_t i = string_hash (s) & interned_mask;
  while (interned[i] && strcmp (interned[i], s))
    i = (i + 1) & interned_mask;
  if (!interned[i])
    {
      if (!(interned[i] = strdup (s)))
        abort ();
      ninterned++;
    }
  const char *r = interned[i];
  pthread_mutex_unlock (&intern_lock);
  return r;
}

/* Code range of the GOMP_parallel wrapper (interpose/gomp.c), skipped
   when unwinding.  */
static uintptr_t wrapper_lo, wrapper_hi;

/* OpenMP regions started through GOMP_parallel: region function -> the
   starting node and the return address into the starting function.  */
#define ZI_MAX_REGIONS 1024
static struct zi_region {
  void (*fn) (void *);
  struct zi_node *node;
  uintptr_t ra;
} regions[ZI_MAX_REGIONS];
static pthread_mutex_t regions_lock = PTHREAD_MUTEX_INITIALIZER;
/* libgomp's GOMP_parallel, once the wrapper was called.  */
static void (*real_gomp_parallel) (void (*) (void *), void *, unsigned, unsigned);

static size_t
hash_key (const void *parent, const void *fn, uintptr_t ra)
{
  uint64_t h = (uint64_t) (uintptr_t) parent * 0x9e3779b97f4a7c15ull
               ^ (uint64_t) (uintptr_t) fn * 0xc2b2ae3d27d4eb4full ^ (uint64_t) ra * 0x165667b19e3779f9ull;
  return (size_t) (h ^ (h >> 31));
}

static struct zi_cct *
thread_cct (void)
{
  struct zi_thread *t = zi_thread_self ();
  if (!t->cct)
    {
      t->cct = calloc (1, sizeof *t->cct);
      if (!t->cct)
        abort ();
    }
  return t->cct;
}

static struct zi_link **
find_link (struct zi_cct *cct, const struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra)
{
  if (!cct->nbuckets)
    return NULL;
  struct zi_link **l = &cct->buckets[hash_key (parent, fn, ra) & (cct->nbuckets - 1)];
  for (; *l; l = &(*l)->next)
    if ((*l)->parent == parent && (*l)->fn == fn && (*l)->ra == ra)
      return l;
  return NULL;
}

static void
add_link (struct zi_cct *cct, const struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra,
          struct zi_node *target)
{
  if (2 * (cct->count + 1) > cct->nbuckets)
    {
      size_t n = cct->nbuckets ? 2 * cct->nbuckets : 64;
      struct zi_link **b = calloc (n, sizeof *b);
      if (!b)
        abort ();
      for (size_t i = 0; i < cct->nbuckets; i++)
        for (struct zi_link *l = cct->buckets[i], *next; l; l = next)
          {
            next = l->next;
            size_t j = hash_key (l->parent, l->fn, l->ra) & (n - 1);
            l->next = b[j];
            b[j] = l;
          }
      free (cct->buckets);
      cct->buckets = b;
      cct->nbuckets = n;
    }
  struct zi_link *l = malloc (sizeof *l);
  if (!l)
    abort ();
  *l = (struct zi_link) { parent, fn, ra, target, NULL };
  size_t j = hash_key (parent, fn, ra) & (cct->nbuckets - 1);
  l->next = cct->buckets[j];
  cct->buckets[j] = l;
  cct->count++;
}

/* The code range of the function at ADDR, or everything if unknown (then
   every entry counts as a direct call).  */
static void
code_range (uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
#if ZEROINST_HAVE_UNWIND
  unw_proc_info_t pi;
  if (addr && unw_get_proc_info_by_ip (unw_local_addr_space, addr, &pi, NULL) == 0)
    {
      *lo = pi.start_ip;
      *hi = pi.end_ip;
      return;
    }
#else
  (void) addr;
#endif
  *lo = 0;
  *hi = UINTPTR_MAX;
}

/* A new node of CCT (listed in its nodes, freed with it) for (FN, RA),
   whose cache matches nothing, with EXTRA bytes after it.  */
static struct zi_node *
new_node (struct zi_cct *cct, const struct zi_fn *fn, uintptr_t ra, unsigned flags,
          size_t extra)
{
  struct zi_node *node = calloc (1, sizeof *node + extra);
  if (!node)
    abort ();
  for (int w = 0; w < ZI_CTX_WAYS; w++)
    node->pub.cache[w] = &zi_no_match;
  node->pub.fn = fn;
  node->pub.ra = ra;
  node->pub.slots = sink;
  node->flags = flags;
  node->owner = cct;
  if (cct->nnodes == cct->cap)
    {
      cct->cap = cct->cap ? 2 * cct->cap : 16;
      cct->nodes = realloc (cct->nodes, cct->cap * sizeof *cct->nodes);
      if (!cct->nodes)
        abort ();
    }
  cct->nodes[cct->nnodes++] = node;
  return node;
}

/* The node NODE stands for: itself, the target of an alias, the truncated
   activation of a folded node.  */
static inline struct zi_node *
real_node (const struct zi_node *node)
{
  if (node && (node->flags & ZI_NODE_ALIAS))
    node = node->alias_of;
  if (node && (node->flags & ZI_NODE_FOLDED))
    node = node->parent;
  return (struct zi_node *) node;
}

/* Is PC inside NODE's function?  */
static int
in_node (const struct zi_node *node, uintptr_t pc)
{
  return node && pc >= node->lo && pc < node->hi;
}

/* The tail node of NODE's K-th tail call (see above), its child, made
   on first use (__zeroinst_tail_node): a function with many tail calls
   has many contexts, and most of its tail calls run in few of them
   (sqlite3).  Not in the thread's links (nothing looks it up: NODE's
   tails array holds it); in the canonical tree its key is (no
   function, K + 1) under NODE's.  */
static struct zi_node *
tail_node (struct zi_cct *cct, struct zi_node *node, uint32_t k)
{
  const struct zi_fn *fn = node->pub.fn;
  struct zi_node *t = new_node (cct, NULL, k + 1, ZI_NODE_TAIL, 0);
  /* An alias's under the activation it stands for (as its callees are:
     paths never go through an alias), with its return address.  */
  t->parent = node->flags & ZI_NODE_ALIAS ? node->alias_of : node;
  t->depth = node->depth;
  t->lo = node->pub.ra;
  t->hi = node->pub.ra + 1;
  t->tail_site = fn->tails && fn->tails[k].site ? zi_site_slot (fn->tails[k].site) : 0;
  uintptr_t callee = fn->tails ? (uintptr_t) fn->tails[k].callee : 0;
  if (callee > 1)
    {
      /* Its code, found once: the callee's address may be that of an
         alias of its code (".localalias"), and an entry's is the
         canonical one.  Unknown (no unwind tables): that address.  */
      code_range (callee, &t->callee_lo, &t->callee_hi);
      if (t->callee_hi == UINTPTR_MAX)
        t->callee_hi = (t->callee_lo = callee) + 1;
    }
  else
    t->callee_lo = t->callee_hi = callee;
  return t;
}

/* Give NODE, of FN, its array of tail nodes, one per tail call of FN,
   made on first use (NULL).  Where its callees fold (a node standing for
   a truncated activation, no return address) it is its own tail node:
   the callee is entered from it as from a call.  */
static void
make_tails (struct zi_node *node, const struct zi_fn *fn)
{
  uint32_t n = fn && fn->ntails <= ZI_MAX_FN_TAILS ? fn->ntails : 0;
  if (!n)
    return;
  const struct zi_ctx **tails = calloc (n, sizeof *tails);
  if (!tails)
    abort ();
  /* A truncated activation's tail callees are its parent's children (as
     its caller's would be: they fold there too, and what runs after
     them does not fold into it); so are a folded node's (truncated too),
     whose parent is the truncated activation.  */
  const struct zi_ctx *same = node->flags & ZI_NODE_TRUNCATED && node->parent ? &node->parent->pub
                              : node->flags & (ZI_NODE_TRUNCATED | ZI_NODE_FOLDED) || !node->pub.ra
                                ? &node->pub : NULL;
  for (uint32_t k = 0; same && k < n; k++)
    tails[k] = same;
  node->pub.tails = tails;
}

/* Can FN entered with RA under tail node T be T's tail callee?  Its
   return address must be T's function's; and FN, if T knows its callee,
   that callee (a builtin is none).  An allocation (alloc_fn, no
   address) under T is the tail callee's, or its own.  */
static int
tail_callee (const struct zi_node *t, const struct zi_fn *fn, uintptr_t ra)
{
  if (!in_node (t, ra))
    return 0;
  if (!t->callee_hi || !fn || !fn->addr)
    return 1;
  return (uintptr_t) fn->addr >= t->callee_lo && (uintptr_t) fn->addr < t->callee_hi;
}

/* The next of A's ancestors that may still run, from a node whose
   activation is over: past a tail node, the function that made its tail
   call too (live_parent, foreign_entry).  */
static struct zi_node *
above (const struct zi_node *a)
{
  return a->flags & ZI_NODE_TAIL ? a->parent->parent : a->parent;
}

/* The parent of an entry of FN with return address RA under NODE: NODE,
   or, when NODE is a tail node whose activation is over, the node of
   the code that runs now: the nearest of the thread's ancestors above
   the tail node's function whose code RA lies in (see above), past every
   tail node on the way and the function that made its tail call.  The
   activations in between (those functions', callers that the C library
   called, an OpenMP region's outlined body whose last call is a tail
   call) have all returned; a tail call that may still run (into a
   library function that calls back) is for foreign_entry's unwinding.  */
static struct zi_node *
live_parent (struct zi_node *node, const struct zi_fn *fn, uintptr_t ra)
{
  if (!node || !(node->flags & ZI_NODE_TAIL) || tail_callee (node, fn, ra))
    return node;
  for (struct zi_node *a = node; a && a->owner == node->owner; a = above (a))
    if (!(a->flags & (ZI_NODE_TAIL | ZI_NODE_FOREIGN)) && in_node (a, ra))
      return a;
  return node;
}

/* The child of PARENT for (FN, RA): existing, an ancestor with the same key
   (recursion), a truncated node (too deep), or new.  */
static struct zi_node *
child (struct zi_cct *cct, struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra,
       unsigned flags)
{
  struct zi_link **l = find_link (cct, parent, fn, ra);
  if (l)
    return (*l)->target;
  /* Recursion: the ancestor with the same key, else the nearest activation
     of FN if it is itself recursive (another activation of FN is above
     it).  */
  struct zi_node *target = NULL, *nearest = NULL;
  int more_above = 0;
  /* Only this thread's nodes: an OpenMP worker's path continues into the
     master's, whose slots and caches the worker must not share.  */
  for (struct zi_node *a = parent; a && a->owner == cct && !target; a = a->parent)
    if (a->pub.fn == fn && (a->flags & ZI_NODE_FOREIGN) == flags)
      {
        if (a->pub.ra == ra)
          target = a;
        else if (!nearest)
          nearest = a;
        else
          more_above = 1;
      }
  if (!target && fn && more_above)
    target = nearest;
  if (target && target->pub.ra != ra)
    {
      /* Entered with another return address than the activation it folds
         into: a node of its own would never match the generated code's
         check (fn, ra), and every such call would come here.  An alias
         has this key and the target's slots and stands for the target.  */
      struct zi_node *alias
          = new_node (cct, fn, ra, ZI_NODE_ALIAS | (target->flags & ZI_NODE_FOREIGN), 0);
      alias->pub.slots = target->pub.slots;
      alias->alias_of = target;
      alias->parent = target->parent;
      alias->lo = target->lo;
      alias->hi = target->hi;
      alias->depth = target->depth;
      make_tails (alias, fn);
      target = alias;
    }
  if (!target)
    {
      /* The node, then in data mode the data slots of FN's units (in
         reverse, ZI_DSLOT), the counter slots of FN's sites and their
         dense site numbers, resolved now: the site descriptors go away
         with their library (dlclose), the node's counts stay.  */
      size_t units = fn ? fn->nunits : 0, nsites = fn ? fn->nsites : 0;
      int valid = units <= ZI_MAX_FN_UNITS && nsites <= units;
      if (!valid)
        units = nsites = 0;     /* not from a plugin of this ABI: count nothing */
      int share = zi_data_on && !zi_config.mode_code && units;
      struct zi_node *first = share ? shared_first (cct, fn) : NULL;
      if (first)
        units = nsites = 0;     /* the first node's slots (first_of) */
      size_t ndata = zi_data_on ? units : 0;
      /* A large function's first node in data mode alone: its slots in
         zero pages, set up at their first miss (lazy_new).  No site
         numbers: only code mode reads them.  */
      struct lazy_slots *lazy = share && !first && lazy_size (units) ? lazy_new (fn, units) : NULL;
      if (lazy)
        units = nsites = ndata = 0;
      target = new_node (cct, fn, ra, flags,
                         ndata * sizeof (struct zi_dslot) + units * sizeof (struct zi_slot)
                         + nsites * sizeof (int32_t));
      struct zi_slot *slots = (struct zi_slot *) ((struct zi_dslot *) (target + 1) + ndata);
      if (lazy)
        {
          target->own = lazy;
          target->flags |= ZI_NODE_LAZY;
          target->pub.slots = lazy->slots;
        }
      else if (first)
        {
          target->pub.slots = first->pub.slots;
          target->flags |= ZI_NODE_SHARED;
        }
      else if (valid)
        target->pub.slots = slots;
      if (share && !first)
        remember_first (cct, target);
      target->site_ids = (int32_t *) (slots + units);
      target->ndata = lazy ? lazy->units : (uint32_t) ndata;
      if (init_slots (fn, nsites, slots, target->site_ids, ndata != 0) != nsites)
        target->flags |= ZI_NODE_WIDE;
      target->nsites = (uint32_t) nsites;
      target->parent = parent;
      /* Depth counts instrumented activations only.  */
      target->depth = (parent ? parent->depth : 0) + !(flags & ZI_NODE_FOREIGN);
      if (!(flags & ZI_NODE_FOREIGN) && target->depth >= zi_config.max_depth)
        target->flags |= ZI_NODE_TRUNCATED;
      if (fn)
        {
          code_range ((uintptr_t) fn->addr, &target->lo, &target->hi);
          target->fn_name = intern (fn->name ? fn->name : "??");
          target->fn_file = intern (fn->file ? fn->file : "");
          target->fn_flags = fn->flags;
          make_tails (target, fn);
        }
    }
  add_link (cct, parent, fn, ra, target);
  return target;
}

/* The return addresses on the stack from RA outwards (RA first), with the
   frames of our GOMP_parallel wrapper left out, into PCS; returns their
   number (0 if RA is not found).  */
static size_t
unwind_from (uintptr_t ra, uintptr_t *pcs, size_t max)
{
#if !ZEROINST_HAVE_UNWIND
  (void) ra, (void) pcs, (void) max;
  return 0;      /* no unwinder: the entry is linked directly */
#else
  unw_context_t uc;
  unw_cursor_t cursor;
  size_t n = 0;
  int found = 0;
  if (unw_getcontext (&uc) != 0 || unw_init_local (&cursor, &uc) != 0)
    return 0;
  while (n < max && unw_step (&cursor) > 0)
    {
      unw_word_t ip;
      if (unw_get_reg (&cursor, UNW_REG_IP, &ip) != 0 || !ip)
        break;
      if (!found && ip != ra)
        continue;             /* the runtime's frames and the callee's */
      found = 1;
      if (ip >= wrapper_lo && ip < wrapper_hi)
        continue;
      pcs[n++] = ip;
    }
  return n;
#endif
}

/* The node of a GOMP_parallel region FN started elsewhere, if any.  */
static struct zi_region *
find_region (const struct zi_fn *fn)
{
  if (!fn || !(fn->flags & ZI_FN_OMP_REGION))
    return NULL;
  for (size_t i = 0; i < ZI_MAX_REGIONS && regions[i].fn; i++)
    if ((const void *) regions[i].fn == fn->addr)
      return &regions[i];
  return NULL;
}

/* The node of region function FN entered from REGION's GOMP_parallel:
   the path of the node that started the region, through a GOMP_parallel
   frame.  */
static struct zi_node *
region_entry (struct zi_cct *cct, const struct zi_region *region, const struct zi_fn *fn)
{
  struct zi_node *gomp = child (cct, region->node, NULL, region->ra, ZI_NODE_FOREIGN);
  return child (cct, gomp, fn, (uintptr_t) real_gomp_parallel + 1, 0);
}

/* Entry from uninstrumented code (or at a thread's root): build the chain
   of foreign frames between PARENT and the callee FN entered with RA.  */
static struct zi_node *
foreign_entry (struct zi_cct *cct, struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra)
{
  struct zi_region *region = real_gomp_parallel ? find_region (fn) : NULL;
  if (region && !parent)
    return region_entry (cct, region, fn);     /* an OpenMP worker */
  uintptr_t pcs[128];
  size_t n = unwind_from (ra, pcs, 128);
  /* pcs[0] = ra is in the innermost foreign frame; pcs[j] in the parent.  */
  size_t j = n;
  if (parent)
    for (j = 1; j < n && !in_node (parent, pcs[j]); j++)
      ;
  /* A tail call that GCC compiled as a call after all (it may, when the
     callee's stack arguments do not fit the caller's): the callee's
     caller is the tail node's function, whose caller is on the stack.  */
  if (parent && (parent->flags & ZI_NODE_TAIL) && j == 1 && in_node (parent->parent, pcs[0]))
    return child (cct, parent, fn, ra, 0);
  if (n && parent && (parent->flags & ZI_NODE_TAIL) && j == n)
    {
      /* A tail node whose activation is over (its function's caller is
         not on the stack): the entry is from the nearest of its
         ancestors that is, as found by the stack: a function whose frame
         is (pcs[0], RA itself, included), or a tail node whose function's
         caller is (its tail call into a library function still runs).
         Past a tail node that is not, and its function.  Else from the
         thread's root (an OpenMP worker between two regions).  */
      struct zi_node *live = NULL;
      for (struct zi_node *a = above (parent); a && a->owner == parent->owner && !live;
           a = above (a))
        if (!(a->flags & ZI_NODE_FOREIGN))
          for (size_t k = (a->flags & ZI_NODE_TAIL) != 0; k < n && !live; k++)
            if (in_node (a, pcs[k]))
              {
                live = a;
                j = k;
              }
      if (!live)
        return foreign_entry (cct, NULL, fn, ra);
      parent = live;
    }
  if (n == 0 || (parent && j == n))
    {
      /* Unwinding failed, or the parent is not on the stack (stale).  The
         master thread of a region this node started gets the workers'
         path: libgomp without unwind tables (Debian 12's riscv64 one has
         an empty .eh_frame) stops the unwinder in GOMP_parallel.
         Otherwise keep the direct link.  */
      if (region && region->node == parent)
        return region_entry (cct, region, fn);
      return child (cct, parent, fn, ra, 0);
    }
  struct zi_node *node = parent;
  /* Foreign frame m (1-based, outermost first from j down to 1) returns to
     pcs[m]; at the root the outermost frame has no caller (return 0).  */
  for (size_t m = j; m >= 1; m--)
    node = child (cct, node, NULL, m < n ? pcs[m] : 0, ZI_NODE_FOREIGN);
  return child (cct, node, fn, ra, 0);
}

/* The node of FN entered with RA under PARENT (the real node of the
   current context), and in *DIRECT whether generated code may find it
   in the current context's cache from now on.  FOLD: below a truncated
   activation, fold (allocation nodes do not).  */
static struct zi_node *
entry (struct zi_cct *cct, struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra,
       int fold, int *direct)
{
  *direct = 0;
  if (parent && (parent->flags & ZI_NODE_TAIL) && parent->callee_hi > 1
      && in_node (parent->parent, ra) && tail_callee (parent, fn, parent->lo))
    {
      /* The known callee, from the function's own code: the tail call
         made as a plain call (see above).  */
      *direct = 1;
      return child (cct, parent, fn, ra, 0);
    }
  parent = live_parent (parent, fn, ra);
  if (parent && (parent->flags & ZI_NODE_TAIL)
      && !tail_callee (parent, fn, ra))
    {
      /* Not the tail callee, nor from code that runs after it returned
         (see above): unwind.  */
      return foreign_entry (cct, parent, fn, ra);
    }
  if (fold && parent && (parent->flags & ZI_NODE_TRUNCATED))
    {
      /* Too deep: count in the truncated activation (real_node), through
         a node of FN's own (its slots fit FN) that stands for it.  */
      return child (cct, parent, fn, 0, ZI_NODE_FOLDED);
    }
  if (parent && in_node (parent, ra) && !(parent->flags & ZI_NODE_FOREIGN))
    {
      *direct = 1;
      return child (cct, parent, fn, ra, 0);
    }
  return foreign_entry (cct, parent, fn, ra);
}

const struct zi_ctx *
__zeroinst_tail_node (const struct zi_ctx *ctx, uintptr_t k)
{
  if (!zi_ctx_is_node (ctx))
    return &zi_sink_ctx;
  struct zi_node *node = (struct zi_node *) ctx;
  /* When it cannot be made now: the parent, as for a tail call past
     ZI_MAX_FN_TAILS (the sink would stay the caller's context).  */
  const struct zi_ctx *t = node->parent ? &node->parent->pub : &zi_sink_ctx;
  if (zi_in_runtime)
    return t;
  zi_enter_nowait ();        /* as __zeroinst_enter_node */
  struct zi_cct *cct = zi_reporting_elsewhere () ? NULL : thread_cct ();
  if (cct && node->pub.fn && k < node->pub.fn->ntails && node->pub.tails && node->owner == cct)
    {
      t = node->pub.tails[k];
      if (!t)
        {
          t = &tail_node (cct, node, (uint32_t) k)->pub;
          ((const struct zi_ctx **) node->pub.tails)[k] = t;
        }
    }
  zi_leave ();
  return t;
}

/* Cache NODE in IN for KEY (a return address, or the function's descriptor
   without contexts).  Generated code probes way ZI_CTX_WAY (KEY), then its
   pair (way ^ 1): the entry NODE displaces moves there, so that two keys
   that share a way both stay cached.  */
static void
cache_put (struct zi_node *in, uintptr_t key, const struct zi_node *node)
{
  unsigned w = ZI_CTX_WAY (key);
  if (in->pub.cache[w] == &node->pub)
    return;
  if (in->pub.cache[w] != &zi_no_match)
    in->pub.cache[w ^ 1] = in->pub.cache[w];
  in->pub.cache[w] = &node->pub;
}

/* The node of FN under the thread's flat root (no contexts).  */
static struct zi_node *
flat_entry (struct zi_cct *cct, const struct zi_fn *fn)
{
  if (!cct->flat)
    {
      /* Not in the hash table: its key (no parent, no function, 0) is also
         that of a thread's outermost foreign frame.  */
      cct->flat = new_node (cct, NULL, 0, ZI_NODE_FLAT, 0);
    }
  struct zi_node *node = child (cct, cct->flat, fn, 0, ZI_NODE_FLAT);
  cache_put (cct->flat, (uintptr_t) fn, node);
  __zeroinst_flat = &cct->flat->pub;
  return node;
}

const struct zi_ctx *
__zeroinst_enter_node (const struct zi_fn *fn, uintptr_t ra)
{
  const struct zi_ctx *cur = __zeroinst_ctx;
  if (zi_in_runtime || !fn)
    return &zi_sink_ctx;        /* called back from the runtime's own calls */
  /* The cache written on a miss is CUR's (an alias has its own), the
     child is the real parent's.  Below the sink (entered during a report
     that has ended since) the path is found again by unwinding.  */
  struct zi_node *cached_in = cur == &zi_unborn || cur == &zi_sink_ctx ? NULL
                              : (struct zi_node *) cur;
  struct zi_node *parent = real_node (cached_in);
  zi_init ();
  /* Not zi_enter: instrumented code may run under a C library lock (a
     library constructor during dlopen) that a report being written in
     another thread needs.  While another thread writes a report, the call
     continues in the sink.  */
  zi_enter_nowait ();
  if (zi_reporting_elsewhere ())
    {
      zi_leave ();
      return &zi_sink_ctx;
    }
  zi_thread_active ();
  struct zi_cct *cct = thread_cct ();
  struct zi_node *node;
  int direct = 0;
  if (ra == 0)
    node = flat_entry (cct, fn);
  else
    node = entry (cct, parent, fn, ra, 1, &direct);
  if (direct)
    cache_put (cached_in, ra, node);
  zi_leave ();
  return &node->pub;
}

/* The context a node's counts are reported under: none without contexts,
   the truncated activation for a folded node.  */
static const void *
record_ctx (const struct zi_node *n)
{
  n = real_node (n);
  if (!zi_config.contexts || (n->flags & ZI_NODE_FLAT))
    return NULL;
  return n;
}

const void *
zi_record_ctx (const void *ctx)
{
  return record_ctx (ctx);
}

/* Pass the counter slots of T's nodes that counted something to EACH
   and, if CLEAR, zero them.  Only the thread itself (or for a thread
   that ended or is gone after a fork) may clear: another thread stopped
   for a report may be in the middle of a slot's read-modify-write, and
   would write the old value back.  A report reads every thread's slots
   and leaves them alone; what a stopped thread holds in registers is not
   counted.  */
void
zi_contexts_fold (struct zi_thread *t, int clear, zi_fold_fn *each, void *arg)
{
  struct zi_cct *cct = t->cct;
  /* Data slots first: they take what their counter slots gained, and
     start again from zero if those are cleared below.  Then the thread's
     pending group counts (theirs, and those of elements the runtime
     attributed itself, data/analyze_data.c) go to their groups.  */
  int cleared = clear && zi_config.mode_code;
  for (size_t i = 0; cct && zi_data_on && i < cct->nnodes; i++)
    {
      struct zi_node *n = cct->nodes[i];
      if (n->ndata)
        zi_dslots_take (t, ZI_DSLOT (n->pub.slots, n->ndata - 1), n->ndata, cleared);
    }
  if (zi_data_on)
    zi_dslots_flush (t);
  if (!cct)
    return;
  if (!zi_config.mode_code)
    return;
  for (size_t i = 0; i < cct->nnodes; i++)
    {
      struct zi_node *n = cct->nodes[i];
      struct zi_slot *s = n->pub.slots;
      const void *ctx = n->nsites ? record_ctx (n) : NULL;
      for (uint32_t k = 0; k < n->nsites; k++)
        {
          /* A site's descriptor is looked up (under the sites' lock) for
             the slots that counted something, or to step over the wide
             sites' two slots (sqlite3 speedtest1: 296,071 of 1,417,943).  */
          const struct zi_site_info *si = NULL;
          unsigned units = 1;
          if (n->flags & ZI_NODE_WIDE)
            {
              si = zi_site_get (n->site_ids[k]);
              units = ZI_SLOT_UNITS (si->type);
            }
          if (s->elements)
            {
              if (!si)
                si = zi_site_get (n->site_ids[k]);
              struct zi_counters c = { 0 };
              zi_slot_add (&c, si, s);
              each (arg, n->site_ids[k], si, ctx, &c);
              if (clear)
                memset (s, 0, units * sizeof *s);
            }
          s += units;
        }
    }
}

/* The "function" of allocation nodes: a node (ALLOC, RA) under the
   current context stands for an allocator called at RA, so its path
   (callpath.c) is the allocation's call path.  */
static const struct zi_fn alloc_fn = { NULL, "<allocation>", "", 0, 0, 0, 0, NULL, 0, NULL };

/* The node of an allocation whose allocator returns to RA, made under the
   thread's current context, through the uninstrumented frames in between
   (a libc function that calls malloc).  Not cached: generated code never
   enters it.  */
const struct zi_node *
zi_alloc_node (uintptr_t ra)
{
  const struct zi_ctx *cur = __zeroinst_ctx;
  struct zi_node *parent = zi_ctx_is_node (cur) ? real_node ((const struct zi_node *) cur) : NULL;
  struct zi_cct *cct = thread_cct ();
  int direct;
  return entry (cct, parent, &alloc_fn, ra, 0, &direct);
}

/* The canonical tree: nodes keyed by (canonical parent, function, return
   address, flags), made from thread nodes on demand.  A thread's counters
   move there when it ends, and heap groups are keyed by canonical
   allocation nodes, so that a thread's own tree can go when it ends and
   paths reached by many threads are one node.  */
static pthread_mutex_t canon_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zi_node **canon_buckets;
static size_t canon_mask, ncanon;

static size_t
canon_hash (const struct zi_node *parent, const struct zi_fn *fn, uintptr_t ra, unsigned flags)
{
  return hash_key (parent, fn, ra ^ ((uintptr_t) flags << 60)) & canon_mask;
}

/* The canonical node of NODE, whose parent's is made (canon_lock held).  */
static struct zi_node *
make_canonical (const struct zi_node *node)
{
  struct zi_node *parent = node->parent ? node->parent->canon : NULL;
  unsigned flags = node->flags & (ZI_NODE_FOREIGN | ZI_NODE_TRUNCATED | ZI_NODE_TAIL);
  if (2 * (ncanon + 1) > (canon_buckets ? canon_mask + 1 : 0))
    {
      size_t n = canon_buckets ? 2 * (canon_mask + 1) : 1024;
      struct zi_node **b = calloc (n, sizeof *b);
      if (!b)
        abort ();
      size_t old = canon_buckets ? canon_mask + 1 : 0;
      struct zi_node **ob = canon_buckets;
      canon_buckets = b;
      canon_mask = n - 1;
      for (size_t i = 0; i < old; i++)
        for (struct zi_node *c = ob[i], *next; c; c = next)
          {
            next = c->chain;
            size_t j = canon_hash (c->parent, c->pub.fn, c->pub.ra, c->flags);
            c->chain = b[j];
            b[j] = c;
          }
      free (ob);
    }
  size_t j = canon_hash (parent, node->pub.fn, node->pub.ra, flags);
  struct zi_node *c;
  for (c = canon_buckets[j]; c; c = c->chain)
    if (c->parent == parent && c->pub.fn == node->pub.fn && c->pub.ra == node->pub.ra
        && c->flags == flags && c->fn_name == node->fn_name)
      break;
  if (!c)
    {
      if (!(c = calloc (1, sizeof *c)))
        abort ();
      for (int w = 0; w < ZI_CTX_WAYS; w++)
        c->pub.cache[w] = &zi_no_match;
      c->pub.fn = node->pub.fn;
      c->pub.ra = node->pub.ra;
      c->parent = parent;
      c->lo = node->lo;
      c->hi = node->hi;
      c->depth = node->depth;
      c->flags = flags;
      c->fn_name = node->fn_name;
      c->fn_file = node->fn_file;
      c->fn_flags = node->fn_flags;
      c->tail_site = node->tail_site;
      c->canon = c;
      c->chain = canon_buckets[j];
      canon_buckets[j] = c;
      ncanon++;
    }
  __atomic_store_n (&((struct zi_node *) node)->canon, c, __ATOMIC_RELEASE);
  return c;
}

/* The canonical node of NODE and of its ancestors that have none yet,
   outermost first (a loop: paths may be ZEROINST_MAX_DEPTH deep).  */
static struct zi_node *
canonical (const struct zi_node *node)      /* canon_lock held */
{
  size_t n = 0;
  for (const struct zi_node *a = node; a && !a->canon; a = a->parent)
    n++;
  if (n)
    {
      const struct zi_node **up = malloc (n * sizeof *up);
      if (!up)
        abort ();
      n = 0;
      for (const struct zi_node *a = node; a && !a->canon; a = a->parent)
        up[n++] = a;
      while (n--)
        make_canonical (up[n]);
      free (up);
    }
  return node ? node->canon : NULL;
}

const struct zi_node *
zi_node_canonical (const struct zi_node *node)
{
  if (!node)
    return NULL;
  const struct zi_node *c = __atomic_load_n (&node->canon, __ATOMIC_ACQUIRE);
  if (c)
    return c;
  pthread_mutex_lock (&canon_lock);
  c = canonical (node);
  pthread_mutex_unlock (&canon_lock);
  return c;
}

void
zi_contexts_thread_ended (struct zi_thread *t)
{
  struct zi_cct *cct = t->cct;
  if (zi_thread_is_self (t))
    {
      __zeroinst_ctx = &zi_unborn;    /* code that runs later in it starts afresh */
      __zeroinst_flat = &zi_unborn;
    }
  if (!cct)
    return;
  for (size_t i = 0; i < cct->nbuckets; i++)
    for (struct zi_link *l = cct->buckets[i], *next; l; l = next)
      {
        next = l->next;
        free (l);
      }
  for (size_t i = 0; i < cct->nnodes; i++)
    {
      struct zi_node *n = cct->nodes[i];
      if (n->flags & ZI_NODE_KEEP)
        {
          /* Its slots may be in a node freed here.  */
          if (n->flags & ZI_NODE_SHARED)
            n->pub.slots = sink;
          continue;
        }
      free_own (n);
      free ((void *) n->pub.tails);
      free (n);
    }
  free (cct->nodes);
  free (cct->buckets);
  free (cct->firsts);
  free (cct);
  t->cct = NULL;
}

/* GOMP_parallel (interpose/gomp.c), REAL being libgomp's, starts region
   FN from the current context, called at RA: remember the node the
   region starts in, where its workers' paths continue.  */
void
zi_contexts_region (void (*fn) (void *), uintptr_t ra,
                    void (*real) (void (*) (void *), void *, unsigned, unsigned))
{
  if (!real_gomp_parallel)
    real_gomp_parallel = real;
  const struct zi_ctx *cur = __zeroinst_ctx;
  if (!zi_ctx_is_node (cur))
    return;
  /* Workers' paths continue in this node: it and its ancestors outlive
     this thread's tree.  */
  cur = &live_parent (real_node ((const struct zi_node *) cur), NULL, ra)->pub;
  for (struct zi_node *n = (struct zi_node *) cur; n && !(n->flags & ZI_NODE_KEEP); n = n->parent)
    n->flags |= ZI_NODE_KEEP;
  pthread_mutex_lock (&regions_lock);
  size_t i = 0;
  while (i < ZI_MAX_REGIONS && regions[i].fn && regions[i].fn != fn)
    i++;
  if (i < ZI_MAX_REGIONS)
    regions[i] = (struct zi_region) { fn, (struct zi_node *) cur, ra };
  pthread_mutex_unlock (&regions_lock);
}

/* Is CTX (an activation's context, as generated code passes it) a real
   node?  Code that ran before any instrumented function entry of its
   thread, or inside the runtime, holds the static unborn or no-match
   context: no path.  */
int
zi_ctx_is_node (const void *ctx)
{
  return ctx && ctx != (const void *) &zi_unborn && ctx != (const void *) &zi_no_match
         && ctx != (const void *) &zi_sink_ctx;
}

void
zi_contexts_init (void)
{
  code_range ((uintptr_t) &zi_gomp_parallel, &wrapper_lo, &wrapper_hi);
  if (wrapper_hi == UINTPTR_MAX)
    wrapper_lo = wrapper_hi = 0;
}

void
zi_contexts_after_fork_child (void)
{
  pthread_mutex_init (&regions_lock, NULL);
  pthread_mutex_init (&canon_lock, NULL);
  pthread_mutex_init (&intern_lock, NULL);
  pthread_mutex_init (&lazy_lock, NULL);
}
