/* core.h - the runtime's core (runtime/core/): start-up and exit hooks
   (lifecycle.c), run-time options (options.c, options.def), the element
   classes (types.c), load sites (sites.c), counter tables (table.c),
   threads (threads.c), runtime sections and signals (signals.c), and the
   stack limit (stack.c).  Every other part of the runtime builds on it.

   Data flow (zeroinst-abi.h): generated code counts each load in the
   counter slots of its calling-context node (contexts/: nodes and their
   slots; counters/: the rules), and in data mode also attributes each
   element to its object through the data slots of the node (data/:
   objects, their per-object counts, and the byte states of the shadow);
   elements the runtime is handed one at a time go through
   data/analyze_data.c.  threads.c keeps every thread's state (also after
   the thread ended); zi_contexts_fold turns a thread's slots into its
   (site, context) table at its end and at a report; report/ merges all
   threads at process end (or exec, or a fatal signal), names the
   frames through symbols/, and writes the report directory.  interpose/
   holds what the runtime puts in front of the C library's and libgomp's
   functions, but for the signal functions (signals.c).  Not installed:
   the contract with generated code is zeroinst-abi.h (include/).  */
#ifndef ZEROINST_CORE_H
#define ZEROINST_CORE_H

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
   (report/finish.c) carry the derived value.  */
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

/* Declared by the other parts (contexts/, data/, symbols/), referred to
   here by pointer.  */
struct zi_site_info;
struct zi_cct;
struct zi_frame;
struct zi_group;
struct zi_object;

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
/* table.c: the open-addressing table OLD (*MASK + 1 entries of SIZE
   bytes, or none if NULL; a free entry is all zero bytes, one in use is
   not) grown to twice as many entries (FIRST if none), each entry in use
   moved to the first free one from its HASH, the others zero; OLD is
   freed and *MASK set.  NULL, with OLD and *MASK as they were, when
   memory ran out.  */
void *zi_open_grow (void *old, size_t *mask, size_t size, size_t first,
                    size_t (*hash) (const void *entry)) ZI_HIDDEN;
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

/* In a qsort comparator: if X and Y differ, return -1 or 1, X < Y
   first.  */
#define ZI_ORDER(x, y)                                                  \
  do                                                                   \
    {                                                                  \
      if ((x) != (y))                                                  \
        return (x) < (y) ? -1 : 1;                                     \
    }                                                                  \
  while (0)

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

/* A list of frames (symbols/symbols.h: struct zi_frame): a site's
   frame and its inline chain, or a path being built (contexts/callpath.c).  */
struct zi_frames {
  size_t n;
  struct zi_frame *f;        /* innermost first */
  size_t cap;                /* contexts/callpath.c's scratch paths: room in f */
};

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
  /* The report being made (report/finish.c, under zi_lock): the canon's copies
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

/* A range of addresses with no static object (data/statics.c).  */
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
     of elements the runtime attributed itself (data/analyze_data.c) */
  struct zi_pending pending[ZI_NPENDING];
  /* data mode: the object the thread's last data-slot miss found and a
     copy of its fields (data/object_cache.c), valid while __zeroinst_gen is
     LAST_GEN; LAST_KINDS: the kinds it was touched as by this thread */
  struct zi_object *last_object;
  uintptr_t last_base;
  size_t last_size;
  struct zi_group *last_group;
  unsigned last_kinds;
  uint64_t last_gen;
  /* data mode: data/statics.c's TLS generation its thread-local instances
     are of (0: none), the TLS blocks they are in, and whether a module's
     block was not set up yet */
  uint64_t tls_gen;
  uintptr_t *tls_blocks;
  unsigned ntls_blocks;
  int tls_pending;
  unsigned long long tls_subs;       /* modules unloaded (dlpi_subs) as of TLS_BLOCKS */
  int ended;
  int *in_runtime;                   /* the thread's zi_in_runtime while it lives (report/finish.c) */
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
/* Runtime sections (signals.c, report/finish.c).  zi_in_runtime is non-zero
   while this thread runs runtime code, or the C library's allocator called
   by the runtime's wrappers.  The runtime's own calls may reach
   instrumented code (a program that defines memset, a signal handler):
   entry points then return at once, and what such code loads is not
   recorded.  Signals that arrive inside a section are deferred to its end
   (zi_deferred: a bit per signal, signals.c).  While another thread writes
   a report (zi_stopping, report/finish.c), a section started with zi_enter waits
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

/* lifecycle.c: start-up (the constructor), and the process id the report
   is of.  */
void zi_init (void) ZI_HIDDEN;
extern pid_t zi_pid ZI_HIDDEN;

/* stack.c: more stack for instrumented frames; the original limit for
   programs the process execs (call zi_stack_after_exec if exec fails).  */
void zi_stack_init (void) ZI_HIDDEN;
void zi_stack_before_exec (void) ZI_HIDDEN;
void zi_stack_after_exec (void) ZI_HIDDEN;

/* report/finish.c: write the report; WHY is "exit" (lifecycle.c),
   "exec" (interpose/exec.c) or "signal" (signals.c: a fatal one).  */
void zi_finish (const char *why) ZI_HIDDEN;

/* options.c: errors and notes on stderr, prefixed "zeroinst: ",
   async-signal-tolerant.  */
void zi_warn (const char *fmt, ...) ZI_HIDDEN __attribute__ ((format (printf, 1, 2)));

#endif
