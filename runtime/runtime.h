/* runtime.h - declarations shared by the runtime's files (not installed).

   Data flow (zeroinst-abi.h): generated code counts each load in the
   counter slots of its calling-context node (contexts.c makes nodes and
   their slots; analyze.c has the rules), and in data mode also attributes
   each element to its object through the data slots of the node
   (object_cache.c: per-object counts, and the byte states of the shadow,
   shadow.c); elements the runtime is handed one at a time go through
   analyze_data.c.  threads.c keeps
   every thread's state (also after the thread ended); zi_contexts_fold
   turns a thread's slots into its (site, context) table at its end and at
   a report; finish.c merges all threads at process end (or exec, or a
   fatal signal) and report_json.c and report_text.c write the report
   directory.  */
#ifndef ZEROINST_RUNTIME_H
#define ZEROINST_RUNTIME_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/single_threaded.h>
#include <sys/types.h>
#include "zeroinst-abi.h"

#define ZI_HIDDEN __attribute__ ((visibility ("hidden")))

enum zi_kind { ZI_KIND_INT, ZI_KIND_FLOAT, ZI_KIND_OTHER, ZI_NKINDS };

/* types.c: the element classes (enum zi_type), zeroinst-classes.def as
   data; every per-class decision of the runtime reads this table.  */
struct zi_type_info {
  const char *name;        /* "i32", "f64", ... */
  enum zi_kind kind;
  unsigned elem_bytes;     /* bytes of one element as loaded (x87: 10) */
  unsigned mant_bits;      /* floats: explicit mantissa bits */
  unsigned exp_bits;       /* floats: exponent bits */
  uint64_t hi_mask;        /* wide classes: the bits of the upper 64 the value has */
  uint64_t sign_lo, sign_hi;   /* floats: the sign bit (ignored for zero) */
};
extern const struct zi_type_info zi_types[ZI_NTYPES] ZI_HIDDEN;
const char *zi_kind_name (enum zi_kind kind) ZI_HIDDEN;

/* Per-site, per-context, per-thread counters.  redundant_bytes is 0 for
   floating sites in the tables (zi_counters_redundant derives it); records
   (finish.c) carry the derived value.  */
struct zi_counters {
  uint64_t elements;
  uint64_t redundant_bytes;
  uint64_t zero_elements;
  uint64_t or_lo, or_hi;   /* OR of all values: zero bits were zero in every element */
};

/* TO += FROM: counts summed, ORs combined.  */
static inline void
zi_counters_add (struct zi_counters *to, const struct zi_counters *from)
{
  to->elements += from->elements;
  to->redundant_bytes += from->redundant_bytes;
  to->zero_elements += from->zero_elements;
  to->or_lo |= from->or_lo;
  to->or_hi |= from->or_hi;
}

struct zi_site_info;

/* table.c: counters keyed by (site slot, calling context).  */
struct zi_cell {
  int32_t slot;              /* 0 = empty cell */
  const void *ctx;           /* struct zi_node *, or NULL */
  struct zi_counters c;
};
struct zi_table {
  struct zi_cell *cells;
  size_t mask, count;
};
struct zi_counters *zi_table_get (struct zi_table *t, int32_t slot, const void *ctx) ZI_HIDDEN;
/* DST += SRC, each context of SRC mapped through MAP (if not NULL).  */
void zi_table_add (struct zi_table *dst, const struct zi_table *src,
                   const void *(*map) (const void *)) ZI_HIDDEN;
void zi_table_free (struct zi_table *t) ZI_HIDDEN;
/* What zi_contexts_fold passes each counter slot that counted something
   to: the site's dense number and descriptor, its record context and its
   counters.  */
typedef void zi_fold_fn (void *arg, int32_t slot, const struct zi_site_info *site,
                         const void *ctx, const struct zi_counters *c);
/* A zi_fold_fn that adds to the table ARG.  */
zi_fold_fn zi_table_fold ZI_HIDDEN;
/* table.c: a map from pointers to indices (report-time numbering of nodes
   and sites): *zi_ptrmap_at is the index of KEY, or ZI_PTRMAP_NEW when it
   has none yet (then set it).  */
#define ZI_PTRMAP_NEW INT32_MIN
struct zi_ptrmap {
  const void **keys;
  int32_t *vals;
  size_t mask, count;
};
int32_t *zi_ptrmap_at (struct zi_ptrmap *m, const void *key) ZI_HIDDEN;
void zi_ptrmap_free (struct zi_ptrmap *m) ZI_HIDDEN;

/* contexts.c: calling-context tree nodes, per thread and freed when it
   ends, and the shared canonical tree that ended threads' counters and
   heap groups refer to (one node per path).  */
#define ZI_NODE_FOREIGN   1u   /* a frame of uninstrumented code (pub.fn == NULL) */
#define ZI_NODE_TRUNCATED 2u   /* ZEROINST_MAX_DEPTH reached: deeper calls fold here */
#define ZI_NODE_KEEP      4u   /* other threads' nodes descend from it (OpenMP): never freed */
#define ZI_NODE_FLAT      8u   /* without contexts: the thread's flat root and its children */
#define ZI_NODE_FOLDED   16u   /* stands for its truncated parent (ZEROINST_MAX_DEPTH) */
#define ZI_NODE_ALIAS    32u   /* a recursive entry with another return address: alias_of */
#define ZI_NODE_SHARED   64u   /* data mode alone: its slots are its function's first node's */
#define ZI_NODE_LAZY    128u   /* own is a lazy_slots mapping (contexts.c) */
#define ZI_NODE_WIDE    256u   /* some of its sites take two counter slots (ZI_WIDE_TYPE) */
#define ZI_NODE_TAIL    512u   /* a tail call of its parent's activation (pub.fn == NULL) */
struct zi_node {
  struct zi_ctx pub;         /* cache, fn, ra, slots: read by generated code */
  struct zi_node *parent;    /* NULL at a thread's root */
  uintptr_t lo, hi;          /* code range of pub.fn, for direct-call checks (ZI_NODE_TAIL:
                                the one address its callees are entered with) */
  /* Copies from pub.fn, which may be unloaded (dlclose) before the report. */
  const char *fn_name, *fn_file;
  struct zi_node *canon;     /* its node in the canonical tree, once asked for */
  struct zi_node *chain;     /* canonical nodes: next in their hash bucket */
  struct zi_node *alias_of;  /* ZI_NODE_ALIAS: the activation it stands for (same thread) */
  const struct zi_cct *owner;   /* the tree that made it (the thread's) */
  /* A node has slots or a callee, never both: a tail node's function
     is none (it has no sites), and it is made without slots.  */
  union {
    struct {
      int32_t *site_ids;     /* dense site numbers of pub.fn's sites, in slot order */
      void *own;             /* slots made for it alone (zi_contexts_missed), or NULL */
    };
    /* ZI_NODE_TAIL: the code range of the function it calls (zi_tail.callee):
       0, 0 unknown; 1, 1 a builtin's (no instrumented function).  */
    struct {
      uintptr_t callee_lo, callee_hi;
    };
  };
  /* The 32-bit fields last, together, so that no padding comes between
     them: 216 bytes a node, and a program has tens of thousands (sqlite3
     50,000).  */
  uint32_t depth, flags;
  uint32_t id;               /* report-time numbering */
  uint32_t fn_flags;         /* pub.fn's, copied as fn_name is */
  uint32_t nsites;
  uint32_t ndata;            /* data slots before pub.slots (data mode: pub.fn's units) */
  uint32_t misses;           /* ZI_NODE_SHARED: runtime lookups from its activations */
  int32_t tail_site;         /* ZI_NODE_TAIL: the site (zi_site_get) of its tail call */
};
_Static_assert (sizeof (void *) != 8 || sizeof (struct zi_node) == 216, "a node is 216 bytes");
struct zi_cct;               /* a thread's tree */
struct zi_thread;
/* The canonical node of NODE (same path; NODE itself if canonical).  */
const struct zi_node *zi_node_canonical (const struct zi_node *node) ZI_HIDDEN;
/* T is ending (zi_lock held): free its tree but the nodes other threads
   need; its counters and groups must refer to canonical nodes by now.  */
void zi_contexts_thread_ended (struct zi_thread *t) ZI_HIDDEN;
void zi_contexts_init (void) ZI_HIDDEN;
/* Pass the counter slots of T's nodes that counted something to EACH
   (with ARG) and, if CLEAR, zero them (only T itself, or a thread that is
   gone).  */
void zi_contexts_fold (struct zi_thread *t, int clear, zi_fold_fn *each, void *arg) ZI_HIDDEN;
/* Generated code of the thread's current context called the runtime for
   a data slot's miss (data mode alone: may give the context slots of its
   own, contexts.c).  */
void zi_contexts_missed (void) ZI_HIDDEN;
/* DS has no counter slot: if it is a data slot of a set made in zero
   pages (contexts.c, lazy_new) that was never set up, set it up and
   return 1; 0 if it is no such slot (the sink's), -1 if it cannot tell
   now (in a runtime section).  */
int zi_contexts_lazy_dslot (struct zi_dslot *ds) ZI_HIDDEN;
/* The context under which counts of node CTX are recorded.  */
const void *zi_record_ctx (const void *ctx) ZI_HIDDEN;
int zi_ctx_is_node (const void *ctx) ZI_HIDDEN;
void zi_contexts_after_fork_child (void) ZI_HIDDEN;

/* symbols.c: one symbolized frame (and the frames GCC inlined into it).  */
struct zi_frame {
  const char *function, *file;
  unsigned line;
  unsigned inlined : 1, omp_region : 1;
};
/* Frames at return address RA (innermost first, inlined ones marked);
   FULL: lines and inlined frames (for instrumented code), else the name
   only.  *N gets their number.  Cached (an address is always in the same
   kind of frame); never NULL.  */
const struct zi_frame *zi_symbolize (uintptr_t ra, int full, size_t *n) ZI_HIDDEN;
void zi_symbols_reset (void) ZI_HIDDEN;
const char *zi_clean_name (const char *name, unsigned *omp_region) ZI_HIDDEN;
/* Is SYMBOL (at ADDR) a Fortran common block (from DWARF)?  */
int zi_is_common_block (uintptr_t addr, const char *symbol) ZI_HIDDEN;
/* Is the static object SYMBOL at ADDR, of SIZE bytes, a Fortran array
   descriptor (from DWARF)?  */
int zi_is_descriptor (uintptr_t addr, const char *symbol, uint64_t size) ZI_HIDDEN;

/* callpath.c: the full path of a record, kept in the report's path table:
   every distinct frame once, every distinct path once as its innermost
   frame and the index of its caller's path (-1: none).  A path is an
   index into ctx, -1 for the empty path; equal paths have one index.  */
struct zi_frames {
  size_t n;
  struct zi_frame *f;        /* innermost first */
  size_t cap;                /* callpath.c's scratch paths: room in f */
};
struct zi_paths {
  struct zi_frame *frames;
  size_t nframes, frames_cap;
  struct zi_path_node {
    uint32_t frame;          /* index into frames */
    int32_t parent;          /* the caller's path, always an earlier index, or -1 */
  } *ctx;
  size_t nctx, ctx_cap;
  uint32_t *frame_set, *ctx_set;   /* hash sets of index + 1 */
  size_t frame_mask, ctx_mask;
  struct zi_frames scratch;        /* the path being added */
  struct zi_ptrmap node_paths;     /* node -> its part of paths (callpath.c) */
  const struct zi_node *last_node; /* the last node_paths lookup */
  int32_t last_path;
  struct zi_ptrmap site_index;     /* site -> its entry in site_frames */
  uint32_t *site_frames;           /* per site: n, then its n frames' indices */
  size_t nsite_frames, site_frames_cap;
};
int32_t zi_record_path (struct zi_paths *t, const struct zi_site_info *site,
                        const struct zi_node *node) ZI_HIDDEN;
int32_t zi_node_path (struct zi_paths *t, const struct zi_node *node) ZI_HIDDEN;
int zi_paths_cmp (const struct zi_paths *t, int32_t a, int32_t b) ZI_HIDDEN;
/* Keys per path for a faster zi_paths_cmp (zi_paths_keys; NULL: use
   zi_paths_cmp).  */
struct zi_path_key {
  uint64_t key[2];           /* its innermost frames' ranks (two to four frames a key) */
  int32_t past;              /* the path past them, or -1 */
};
struct zi_path_key *zi_paths_keys (const struct zi_paths *t) ZI_HIDDEN;
int zi_paths_cmp_keyed (const struct zi_path_key *keys, int32_t a, int32_t b) ZI_HIDDEN;
void zi_paths_free (struct zi_paths *t) ZI_HIDDEN;

/* Totals of one kind.  */
struct zi_totals {
  uint64_t elements, bytes, redundant_bytes, zero_elements;
};

/* options.c: run-time options, read once from the environment.  */
struct zi_config {
  int mode_code, mode_data;  /* ZEROINST_MODE */
  char *output;              /* ZEROINST_OUTPUT, or NULL for the default */
  /* The numbers of options.def: top, contexts, max_depth, verbose,
     empty_report, help.  */
#define ZI_ENV_NUMBER(NAME, FIELD, LO, HI, DEFAULT, HELP) unsigned FIELD;
#include "options.def"
};
extern struct zi_config zi_config ZI_HIDDEN;
void zi_read_options (void) ZI_HIDDEN;
void zi_read_output (void) ZI_HIDDEN;
/* getenv for ZEROINST_* variables: NULL in a setuid/setgid process
   (AT_SECURE), where the invoking user must not steer the runtime.  */
const char *zi_getenv (const char *name) ZI_HIDDEN;

/* sites.c: dense slots for site descriptors.  */
struct zi_site_info {
  enum zi_type type;
  unsigned lanes, access_bytes, line, column;
  const char *file, *function, *expr;
  struct zi_frames frames;        /* the load's frame and its inline chain */
  /* Sites the report cannot tell apart (sites.c: the same type, location,
     expression and inline chain: copies GCC or the plugin made of one
     load) are one: every copy's canon is the first copy met.  */
  const struct zi_site_info *canon;
  /* The report being made (finish.c, under zi_lock): the canon's copies
     that counted something, and the report each was last counted in.  */
  unsigned copies, copies_report, seen_report;
};
int32_t zi_site_slot_slow (const struct zi_site *site) ZI_HIDDEN;
/* In the N elements of STRIDE bytes at V, sorted by the uintptr_t each
   starts with, how many start at or below KEY (bisection).  */
static inline size_t
zi_count_at_or_below (const void *v, size_t n, size_t stride, uintptr_t key)
{
  size_t a = 0, b = n;
  while (a < b)
    {
      size_t mid = a + (b - a) / 2;
      if (*(const uintptr_t *) ((const char *) v + mid * stride) <= key)
        a = mid + 1;
      else
        b = mid;
    }
  return a;
}

static inline int32_t
zi_site_slot (const struct zi_site *site)
{
  int32_t slot = __atomic_load_n (&site->slot, __ATOMIC_ACQUIRE);
  return slot ? slot : zi_site_slot_slow (site);
}
size_t zi_site_count (void) ZI_HIDDEN;          /* slots are 1..count */
const struct zi_site_info *zi_site_get (int32_t slot) ZI_HIDDEN;
/* Notice libraries with sites that were unloaded (returns how many
   times some were found gone so far).  */
unsigned zi_sites_generation (void) ZI_HIDDEN;

/* threads.c: per-thread state.  */
/* Counts on their way to a group's totals, which every thread adds to
   atomically: a table of lines, one group each, found by the group's
   address (zi_pending_add).  */
struct zi_pending {
  struct zi_group *g;
  struct zi_totals d[2];             /* [kind] */
};

/* The lines of a thread's table of pending group counts (a power of
   two: zi_pending_add).  */
#define ZI_NPENDING 64

/* A range of addresses with no static object (statics.c).  */
struct zi_static_gap {
  uintptr_t lo, hi;
  uint64_t gen;              /* 0: none */
};

struct zi_thread {
  unsigned id;                       /* 0 = the first thread (main) */
  pid_t tid;
  struct zi_table counters;          /* (slot, ctx) -> counters; empty after the thread ended */
  struct zi_cct *cct;                /* calling-context tree */
  struct zi_totals totals[ZI_NKINDS];  /* filled when the thread ends */
  uintptr_t stack_lo, stack_hi;      /* data mode: the thread's stack */
  /* data mode: elements by storage class (static, heap, stack, unknown)
     and kind; kept after the thread ended */
  struct zi_totals data_totals[4][2];   /* [enum zi_storage][kind] */
  unsigned lookups, refreshed;       /* data mode: object lookups, and their count at the last refresh */
  struct zi_static_gap static_gap;   /* data mode: zi_static_at */
  /* data mode: counts on their way to groups, taken from data slots or
     of elements the runtime attributed itself (analyze_data.c) */
  struct zi_pending pending[ZI_NPENDING];
  /* data mode: the object the thread's last data-slot miss found and a
     copy of its fields (object_cache.c), valid while __zeroinst_gen is
     LAST_GEN; LAST_KINDS: the kinds it was touched as by this thread */
  struct zi_object *last_object;
  uintptr_t last_base;
  size_t last_size;
  struct zi_group *last_group;
  unsigned last_kinds;
  uint64_t last_gen;
  /* data mode: statics.c's TLS generation its thread-local instances
     are of (0: none), the TLS blocks they are in, and whether a module's
     block was not set up yet */
  uint64_t tls_gen;
  uintptr_t *tls_blocks;
  unsigned ntls_blocks;
  int tls_pending;
  unsigned long long tls_subs;       /* modules unloaded (dlpi_subs) as of TLS_BLOCKS */
  int ended;
  int *in_runtime;                   /* the thread's zi_in_runtime while it lives (finish.c) */
  int busy_at_report;                /* still in the runtime when a report was due: skipped */
  unsigned merged;                   /* the row of ended threads beyond the cap: how many */
  struct zi_thread *next;
};
extern pthread_mutex_t zi_lock ZI_HIDDEN;
extern uintptr_t zi_main_stack_lo, zi_main_stack_hi ZI_HIDDEN;   /* data mode */
/* Has more than one thread of this process run instrumented code?  */
extern int zi_threaded ZI_HIDDEN;
extern struct zi_thread *zi_threads ZI_HIDDEN;        /* all threads, newest first */
extern struct zi_table zi_ended_counters ZI_HIDDEN;  /* merged counters of ended threads */
struct zi_thread *zi_thread_self (void) ZI_HIDDEN;
/* zi_thread_self, taken up again if its exit hook ran already.  */
struct zi_thread *zi_thread_active (void) ZI_HIDDEN;
/* The calling thread's, NULL until it is registered (zi_thread_self).  */
extern __thread struct zi_thread *zi_self ZI_HIDDEN __attribute__ ((tls_model ("initial-exec")));
/* zi_thread_active, inline where it has nothing to do (the data miss).  */
static inline struct zi_thread *
zi_thread_current (void)
{
  struct zi_thread *t = zi_self;
  return __builtin_expect (t && !t->ended, 1) ? t : zi_thread_active ();
}
int zi_thread_is_self (const struct zi_thread *t) ZI_HIDDEN;
/* Runtime sections (signals.c, finish.c).  zi_in_runtime is non-zero
   while this thread runs runtime code, or the C library's allocator called
   by the runtime's wrappers.  The runtime's own calls may reach
   instrumented code (a program that defines memset, a signal handler):
   entry points then return at once, and what such code loads is not
   recorded.  Signals that arrive inside a section are deferred to its end
   (zi_deferred: a bit per signal, signals.c).  While another thread writes
   a report (zi_stopping, finish.c), a section started with zi_enter waits
   for it to end; one started with zi_enter_nowait goes on but must skip
   its work on the runtime's state when zi_reporting_elsewhere () says so.
   Every section ends with zi_leave ().  */
extern __thread int zi_in_runtime ZI_HIDDEN;
extern __thread uint64_t zi_deferred ZI_HIDDEN;
extern __thread int zi_reporter ZI_HIDDEN;   /* this thread writes the report */
extern int zi_stopping ZI_HIDDEN;
void zi_undefer (void) ZI_HIDDEN;
void zi_wait_stopped (void) ZI_HIDDEN;
void zi_signals_init (void) ZI_HIDDEN;
static inline void
zi_enter_nowait (void)
{
  zi_in_runtime++;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
}
static inline int
zi_reporting_elsewhere (void)
{
  return __builtin_expect (__atomic_load_n (&zi_stopping, __ATOMIC_RELAXED), 0) && !zi_reporter;
}
static inline void
zi_enter (void)
{
  zi_enter_nowait ();
  if (zi_reporting_elsewhere ())
    zi_wait_stopped ();
}
static inline void
zi_leave (void)
{
  int depth = zi_in_runtime - 1;
  zi_in_runtime = depth;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  if (depth == 0 && __builtin_expect (*(volatile uint64_t *) &zi_deferred != 0, 0))
    zi_undefer ();
}
void zi_threads_after_fork_child (void) ZI_HIDDEN;
void zi_threads_init (void) ZI_HIDDEN;

/* DST += SRC, field by field.  */
static inline void
zi_totals_add (struct zi_totals *dst, const struct zi_totals *src)
{
  dst->elements += src->elements;
  dst->bytes += src->bytes;
  dst->redundant_bytes += src->redundant_bytes;
  dst->zero_elements += src->zero_elements;
}

/* The same into totals that several threads add to (a group's).  */
static inline void
zi_totals_add_atomic (struct zi_totals *dst, const struct zi_totals *src)
{
  __atomic_fetch_add (&dst->elements, src->elements, __ATOMIC_RELAXED);
  __atomic_fetch_add (&dst->bytes, src->bytes, __ATOMIC_RELAXED);
  __atomic_fetch_add (&dst->redundant_bytes, src->redundant_bytes, __ATOMIC_RELAXED);
  __atomic_fetch_add (&dst->zero_elements, src->zero_elements, __ATOMIC_RELAXED);
}

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

/* Data-centric analysis (SPEC §5): objects.c (maps, lookup, lock),
   statics.c (ELF symbols of every module), heap.c (allocations, groups),
   allocators.c (malloc & co. interposed), object_cache.c (the data slots
   of generated code), analyze_data.c (elements the runtime is handed one
   at a time).

   Every static variable and every live heap block is a struct zi_object;
   its loads are counted in its group (struct zi_group): a static object's
   own group, or the allocation path of a heap block (SPEC: heap objects
   are grouped by allocation call path).  The states of its bytes, per
   kind (loaded, seen non-zero), are in the shadow (shadow.h) from its
   first load of that kind on.  Lookups run under the read side of
   zi_objects_lock, changes under the write side (zi_objects_rdlock,
   zi_objects_wrlock).  */
enum zi_storage { ZI_STORAGE_STATIC, ZI_STORAGE_HEAP, ZI_STORAGE_STACK, ZI_STORAGE_UNKNOWN, ZI_NSTORAGE };
#define ZI_DATA_KINDS 2                   /* ZI_KIND_INT, ZI_KIND_FLOAT */
#define ZI_MAP_MAX_GRANULES (1ull << 28)  /* 64 MiB of map per kind at most */
#define ZI_MAP_LOADED 1u
#define ZI_MAP_NONZERO 2u
struct zi_map {
  uint64_t *bits;            /* 2 bits per granule, 32 granules per word */
  size_t granules;
  unsigned shift;            /* granule = 1 << shift bytes */
};
struct zi_group {
  enum zi_storage storage;         /* ZI_STORAGE_STATIC or ZI_STORAGE_HEAP */
  /* Beside CLS, in the line a lookup reads: */
  uint8_t thread_local;      /* static: a thread-local symbol's, one object per thread */
  uint8_t from_loader;       /* heap: allocated by the dynamic loader (perhaps a
                                thread's block of a library's TLS: analyze_data.c) */
  const char *symbol;        /* static: the ELF symbol */
  const char *module;        /* static: the ELF file */
  uintptr_t address;         /* static: run-time address (for DWARF lookups) */
  const struct zi_node *alloc_node;  /* heap: the allocation's context (contexts.c) */
  const char *allocator;     /* heap: "malloc", "new[]", ... */
  const char *variable;      /* heap: what the program assigned it to, or NULL */
  uint64_t allocations;
  struct zi_totals c[ZI_DATA_KINDS];    /* added to atomically */
  /* Objects of this group that are gone (freed, module unloaded).  */
  uint64_t dead_size, dead_never[ZI_DATA_KINDS], dead_zero[ZI_DATA_KINDS];
  struct zi_map dead_map[ZI_DATA_KINDS];  /* their maps, OR-ed by offset */
  size_t max_size;           /* largest object */
  long report_slot[ZI_DATA_KINDS];   /* data_records.c, report time */
  uint16_t chunk_id;         /* heap: its id in chunk slots (chunks.c), 0 if none */
  uint64_t end_gen;          /* the generation the last end or move of one of its
                                loaded objects made; UINT64_MAX while one changes
                                it (zi_dslots_stale) */
  struct zi_group *next;     /* all groups */
  struct zi_group *hash_next;
};
struct zi_object {
  uintptr_t base;
  struct zi_group *group;
  /* 24 bytes, not 32: a program of millions of small blocks has as many
     objects (addresses and sizes are below 2^48, ZI_SHADOW_BITS).  */
  union {
    struct {
      uint64_t size : 48;
      uint64_t flags : 8;    /* ZI_OBJECT_BIG: heap.c's treap node follows */
      uint64_t kinds : 8;    /* bit 1 << kind: loaded as that kind (states in the shadow) */
    };
    /* The three, for atomic access to kinds (ZI_OBJECT_KINDS_SHIFT): a
       word, because riscv64 has no atomic OR of a byte without
       libatomic.  size and flags change under the write lock only.  */
    uint64_t word;
  };
};
#define ZI_OBJECT_KINDS_SHIFT 56
_Static_assert (sizeof (struct zi_object) == 24, "an object is three words");
#define ZI_OBJECT_BIG 1u
_Static_assert (sizeof ((struct zi_pending *) 0)->d / sizeof (struct zi_totals) == ZI_DATA_KINDS,
                "a pending line per kind");

/* Add pending line P to its group's totals and empty it.  */
static inline void
zi_pending_commit_line (struct zi_pending *p)
{
  if (!p->g)
    return;
  for (int k = 0; k < ZI_DATA_KINDS; k++)
    if (p->d[k].elements)
      zi_totals_add_atomic (&p->g->c[k], &p->d[k]);
  *p = (struct zi_pending) { 0 };
}

/* Add D (of KIND) for group G to TABLE (LINES lines, a power of two), in
   G's line, whose counts first go to their group if it is another.  */
static inline void
zi_pending_add (struct zi_pending *table, size_t lines, struct zi_group *g, int kind,
                const struct zi_totals *d)
{
  struct zi_pending *p = &table[((uintptr_t) g >> 6) & (lines - 1)];
  if (p->g != g)
    {
      zi_pending_commit_line (p);
      p->g = g;
    }
  zi_totals_add (&p->d[kind], d);
}

/* Add every line of TABLE to its group and empty it.  */
static inline void
zi_pending_commit (struct zi_pending *table, size_t lines)
{
  for (size_t i = 0; i < lines; i++)
    zi_pending_commit_line (&table[i]);
}
extern pthread_rwlock_t zi_objects_lock ZI_HIDDEN;
/* zi_objects_lock is taken only while the process may have more than one
   thread: until its first pthread_create the C library keeps
   __libc_single_threaded set, no other thread can be inside a section,
   and a signal handler cannot enter one (runtime sections defer signals,
   and entry points return at once while this thread runs runtime code).
   The lock's atomic operations were 5% of the time of a single-threaded
   program of 2 million small blocks (blocks.c: perf), 2.5% of sqlite3's.
   Each returns whether it took the lock, for zi_objects_unlock: only this
   thread can make the process threaded, and never inside a section, but
   the lock is released as it was taken all the same.  Threads made
   without pthread_create (a raw clone) are not supported.  */
static inline int
zi_objects_rdlock (void)
{
  if (__libc_single_threaded)
    return 0;
  pthread_rwlock_rdlock (&zi_objects_lock);
  return 1;
}
static inline int
zi_objects_wrlock (void)
{
  if (__libc_single_threaded)
    return 0;
  pthread_rwlock_wrlock (&zi_objects_lock);
  return 1;
}
static inline void
zi_objects_unlock (int held)
{
  if (held)
    pthread_rwlock_unlock (&zi_objects_lock);
}
extern struct zi_group *zi_groups ZI_HIDDEN;      /* all groups, newest first */
extern int zi_data_on ZI_HIDDEN;                  /* ZEROINST_MODE has data, runtime up */
void zi_objects_init (void) ZI_HIDDEN;
void zi_objects_after_fork_child (void) ZI_HIDDEN;
void zi_groups_forget (void) ZI_HIDDEN;
unsigned zi_map_shift (size_t size) ZI_HIDDEN;
/* M, a map of granules of 1 << SHIFT bytes (none loaded if M->bits is
   NULL), as report.json's byte map of an object of LENGTH bytes
   (byte_map.c).  */
void zi_write_byte_map (FILE *f, const struct zi_map *m, unsigned shift, size_t length) ZI_HIDDEN;
/* The same for the states of KIND of the object of SIZE bytes at BASE, at
   the granule of a byte, read from the shadow.  */
void zi_write_object_map (FILE *f, int kind, uintptr_t base, size_t size, size_t length) ZI_HIDDEN;
void zi_map_release (uint64_t *bits, size_t size, unsigned shift) ZI_HIDDEN;
/* Note that O is loaded as KIND (read lock held: atomic).  */
void zi_object_touch (struct zi_object *o, int kind) ZI_HIDDEN;
/* O's exact never-loaded and always-zero bytes of KIND.  */
void zi_object_count (const struct zi_object *o, int kind, uint64_t *never, uint64_t *zero) ZI_HIDDEN;
/* Move O to BASE and resize it to SIZE bytes, its states with it (write
   lock held).  */
void zi_object_resize (struct zi_object *o, uintptr_t base, size_t size) ZI_HIDDEN;
void zi_map_fold (struct zi_map *dst, const uint64_t *bits, size_t size, unsigned shift) ZI_HIDDEN;
/* OR O's states of KIND into DST by offset.  */
void zi_object_fold (struct zi_map *dst, const struct zi_object *o, int kind) ZI_HIDDEN;
void zi_object_bury (struct zi_object *o) ZI_HIDDEN;
void zi_group_publish (struct zi_group *g) ZI_HIDDEN;
/* An object found by address: its fields, read from a heap block's
   chunk slot when it can be (zi_chunks_find), so that the object itself
   is not read.  Valid under the read lock.  */
struct zi_block {
  struct zi_object *o;
  uintptr_t base;
  size_t size;
  struct zi_group *group;
  unsigned kinds;            /* a subset of o->kinds */
  uintptr_t *slot;           /* the chunk slot's word (chunks.c), or NULL */
};
/* The object holding ADDR into *B (1), or 0 (read lock held); GAP as in
   zi_static_at (may be NULL).  */
int zi_object_find (uintptr_t addr, struct zi_block *b, struct zi_static_gap *gap) ZI_HIDDEN;
/* B's object was loaded as KIND (zi_object_touch).  */
void zi_block_touch_new (struct zi_block *b, int kind) ZI_HIDDEN;
static inline void
zi_block_touch (struct zi_block *b, int kind)
{
  if (!(b->kinds & (1u << kind)))
    zi_block_touch_new (b, kind);
}
/* statics.c */
void zi_statics_refresh (void) ZI_HIDDEN;         /* take new/unloaded modules into account */
/* Before an object lookup by T: zi_statics_refresh when FORCE (an address
   found in no object: perhaps in a library loaded since) or every
   ZI_STATICS_EVERY lookups, so that a module unloaded behind the dlclose
   wrapper's back (an uninstrumented host) stops being found, without the
   loader's lock at every lookup.  */
#define ZI_STATICS_EVERY 1024
void zi_statics_check (struct zi_thread *t, int force) ZI_HIDDEN;
/* T ends: its thread-local instances are buried.  In a forked child the
   instances of every thread but SELF are.  */
void zi_statics_thread_ended (struct zi_thread *t) ZI_HIDDEN;
void zi_statics_after_fork_child (const struct zi_thread *self) ZI_HIDDEN;
/* Is RA, where an allocator was called from, in the dynamic loader?  */
int zi_statics_loader_call (uintptr_t ra) ZI_HIDDEN;
/* The static object holding ADDR, or NULL (read lock held); when ADDR
   lies between two modules' statics, that range into *GAP (if not
   NULL): a thread's heap loads mostly fall in one (between the
   program's data and the libraries'), which zi_in_static_gap then rules
   out without a search.  */
struct zi_object *zi_static_at (uintptr_t addr, struct zi_static_gap *gap) ZI_HIDDEN;
extern uint64_t zi_statics_gen ZI_HIDDEN;     /* changes when the gaps do (read lock) */
static inline int
zi_in_static_gap (const struct zi_static_gap *gap, uintptr_t addr)
{
  return gap->gen == zi_statics_gen && addr - gap->lo < gap->hi - gap->lo;
}
void zi_statics_each (void (*fn) (struct zi_object *, void *), void *arg) ZI_HIDDEN;
/* heap.c */
/* A new block P of SIZE bytes from ALLOCATOR called at RA, for the
   variable NAME (NULL: unnamed).  */
void zi_heap_track (void *p, size_t size, uintptr_t ra, const char *allocator,
                    const char *name) ZI_HIDDEN;
void zi_heap_untrack (void *p) ZI_HIDDEN;
/* realloc (OLD, SIZE) through REAL (the C library's), OLD's object moved
   or resized with it; RA, ALLOCATOR and NAME for a result that was not
   tracked.  */
void *zi_heap_realloc (void *old, size_t size, void *(*real) (void *, size_t), uintptr_t ra,
                       const char *allocator, const char *name) ZI_HIDDEN;
struct zi_object *zi_heap_big_at (uintptr_t addr) ZI_HIDDEN;   /* not in the chunk tables */
/* chunks.c: the blocks of at most ZI_CHUNK_MAX bytes below 2^48
   (ZI_CHUNKS_FIT; write lock held, but zi_chunks_find and zi_chunks_touch:
   read lock, and zi_chunks_prefetch: none).  */
#define ZI_CHUNK_MAX 65536
#define ZI_CHUNKS_FIT(base, size) ((size) <= ZI_CHUNK_MAX && !((uint64_t) (base) >> 48))
int zi_chunks_insert (struct zi_object *o) ZI_HIDDEN;
/* Start loading the slots a block of SIZE bytes at BASE will take (its
   chunks' homes in its tier) ahead of the work before its insert: with
   millions of blocks they are cache misses, then overlapped with that
   work.  Any lock or none.  */
void zi_chunks_prefetch (uintptr_t base, size_t size) ZI_HIDDEN;
/* The block holding ADDR described in *B from its slot (1), or 0.  */
int zi_chunks_find (uintptr_t addr, struct zi_block *b) ZI_HIDDEN;
/* Note in B's slot that its object was loaded as KIND (read lock held).  */
void zi_chunks_touch (const struct zi_block *b, int kind) ZI_HIDDEN;
/* The group of id ID (1 to 2^15 - 1, as chunk slots and the shadow's
   group ids hold it; no lock: an id, once given, stays its group's).  */
struct zi_group *zi_chunks_group (unsigned id) ZI_HIDDEN;
struct zi_object *zi_chunks_take (uintptr_t base) ZI_HIDDEN;
struct zi_object *zi_chunks_take_overlapping (uintptr_t base, size_t size) ZI_HIDDEN;
void zi_chunks_each (void (*fn) (struct zi_object *, void *), void *arg) ZI_HIDDEN;
void zi_chunks_forget_loads (void) ZI_HIDDEN;
void zi_heap_each (void (*fn) (struct zi_object *, void *), void *arg) ZI_HIDDEN;
/* contexts.c: the node of an allocation by the current context at RA.  */
const struct zi_node *zi_alloc_node (uintptr_t ra) ZI_HIDDEN;
/* analyze_data.c: the element of class TYPE (raw bits LO, HI) that
   thread T (the caller) loaded at ADDR, attributed to its object or
   storage class and marked in the shadow.  */
void zi_data_element (struct zi_thread *t, enum zi_type type, uintptr_t addr, uint64_t lo,
                      uint64_t hi) ZI_HIDDEN;
/* Where ADDR, loaded by thread T, is, into *B: its object, range and
   group (the group read from the object only if its chunk slot cannot
   say), or o NULL and the range [base, base + size) of its storage
   class; an address in no object is looked up again after a check for
   modules loaded since.  Returns with the read side of zi_objects_lock
   (the caller unlocks with zi_objects_unlock (*HELD)), *GEN the
   __zeroinst_gen the answer holds for.  */
enum zi_storage zi_data_find (struct zi_thread *t, uintptr_t addr, struct zi_block *b,
                              uint64_t *gen, int *held) ZI_HIDDEN;
/* object_cache.c: data slots (zeroinst-abi.h).  */
void zi_dslot_init (struct zi_dslot *ds, struct zi_slot *slot, const struct zi_site_info *si)
    ZI_HIDDEN;
/* Move what the N data slots from LAST (the highest unit's, ZI_DSLOT)
   counted since last taken to their objects, for thread T; CLEARED: their
   counter slots were just zeroed.  */
void zi_dslots_take (struct zi_thread *t, struct zi_dslot *last, unsigned n, int cleared)
    ZI_HIDDEN;
/* Add what T's data slots took to their groups (T stopped, or itself).  */
void zi_dslots_flush (struct zi_thread *t) ZI_HIDDEN;
/* A loaded object of group G went away or moved (G NULL: anything may
   have changed): every data slot misses and looks again; the runtime
   keeps a slot of another group as it was (object_cache.c).  Under the
   objects' write lock, or with one thread (a fork's child).  */
void zi_dslots_stale (struct zi_group *g) ZI_HIDDEN;
/* The thread's stack bounds changed: every data slot misses; those of
   the stack, which the runtime never keeps, look again.  */
void zi_dslots_stale_stack (void) ZI_HIDDEN;
/* The generation that the last zi_dslots_stale (NULL) made; UINT64_MAX
   while one changes it.  */
extern uint64_t zi_stale_all_gen ZI_HIDDEN;

/* finish.c: the merged view the writers read.  */
struct zi_record {
  const struct zi_site_info *site;
  int32_t path;                      /* full call path: index into the report's paths */
  /* The thread whose loads these are: an index into the report's thread
     rows, or ZI_ENDED_THREADS for threads that ended before the report
     (their counters are merged); when several contributed, their shares
     are the report's parts from ZI_FIRST_PART (thread) to the one marked
     last.  (It fills what was padding: records stay 56 bytes.)  */
  int32_t thread;
  struct zi_counters c;
};
#define ZI_ENDED_THREADS (-1)
#define ZI_SEVERAL_THREADS(first) (-2 - (int32_t) (first))
#define ZI_FIRST_PART(thread) ((size_t) (-2 - (thread)))
/* One thread's share of a record loaded by several.  */
struct zi_thread_part {
  int32_t thread;                    /* as zi_record.thread: a row or ZI_ENDED_THREADS */
  int32_t last;                      /* the record's last share */
  struct zi_counters c;
};
struct zi_data_record {
  int kind;                          /* ZI_KIND_INT or ZI_KIND_FLOAT */
  enum zi_storage storage;                 /* static or heap */
  const struct zi_group *group;
  const char *name, *module;         /* static */
  const char *allocator;             /* heap */
  const char *variable;              /* heap: the group's, or NULL */
  int descriptor;                    /* static: a Fortran array descriptor */
  int thread_local;                  /* static: a thread-local variable */
  int32_t path;                      /* heap: allocation path (the report's paths) */
  uint64_t allocations, size, never_loaded, always_zero;
  struct zi_totals c;
  struct zi_map map;                 /* OR of the objects' maps */
  size_t length;                     /* bytes the map covers (largest object) */
  /* Instead of a map of its own, where the record has one source (no
     copy as large as a large array's map): its group's map of the
     objects that are gone (BORROWED), or the one live object whose map
     the writer reads from the shadow at the granule of a byte (SINGLE,
     OBJECT).  */
  const struct zi_map *borrowed;
  int single;
  struct zi_object object;
};
struct zi_report {
  const char *program;
  pid_t pid;
  const char *arch;
  struct zi_totals totals[ZI_NKINDS];
  struct zi_record *records;         /* sorted by redundant bytes, largest first */
  size_t nrecords;
  struct zi_thread_row {
    unsigned id;
    unsigned merged;                 /* > 0: the summed row of that many ended threads */
    struct zi_totals totals[ZI_NKINDS];
  } *threads;
  size_t nthreads;
  struct zi_data_record *data;       /* data mode: sorted by redundant bytes */
  size_t ndata;
  struct zi_totals data_totals[ZI_NSTORAGE][ZI_DATA_KINDS];
  struct zi_paths paths;             /* every record's path */
  struct zi_thread_part *parts;      /* of records loaded by several threads */
  size_t nparts;
};
void zi_data_records (struct zi_report *r) ZI_HIDDEN;         /* data_records.c */
void zi_data_records_free (struct zi_report *r) ZI_HIDDEN;
void zi_init (void) ZI_HIDDEN;
void zi_remember_start (void) ZI_HIDDEN;
void zi_finish (const char *why) ZI_HIDDEN;
const char *zi_program_path (void) ZI_HIDDEN;   /* /proc/self/exe, "" if unknown */
extern pid_t zi_pid ZI_HIDDEN;

/* stack.c: more stack for instrumented frames; the original limit for
   programs the process execs (call zi_stack_after_exec if exec fails).  */
void zi_stack_init (void) ZI_HIDDEN;
void zi_stack_before_exec (void) ZI_HIDDEN;
void zi_stack_after_exec (void) ZI_HIDDEN;

/* report_json.c, report_text.c: write the report to F; 0, or -1 on an
   error of F.  */
int zi_write_json (const struct zi_report *r, FILE *f) ZI_HIDDEN;
int zi_write_summary (const struct zi_report *r, FILE *f) ZI_HIDDEN;

/* output.c: the report directory (naming, creation, complete files).  */
const char *zi_output_rank (void) ZI_HIDDEN;
int zi_output_expand (const char *pattern, pid_t pid, char *out, size_t size, const char **err)
    ZI_HIDDEN;
int zi_output_open (void) ZI_HIDDEN;                 /* 0, or -1 (said on stderr) */
const char *zi_output_dir (void) ZI_HIDDEN;
int zi_output_write (const char *name, int (*write) (const struct zi_report *, FILE *),
                     const struct zi_report *r) ZI_HIDDEN;
void zi_output_discard_if_empty (void) ZI_HIDDEN;

/* Errors and notes on stderr, prefixed "zeroinst: ", async-signal-tolerant.  */
void zi_warn (const char *fmt, ...) ZI_HIDDEN __attribute__ ((format (printf, 1, 2)));

#endif
