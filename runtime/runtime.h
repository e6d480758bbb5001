/* runtime.h - declarations shared by the runtime's files (not installed).

   Data flow: generated code fills per-thread, per-type buffers
   (zeroinst-abi.h); buffers.c hands them out and, when one is full, has
   analyze.c fold it into the thread's dense per-site counters; threads.c
   keeps every thread's state (also after the thread ended); finish.c merges
   all threads at process end (or exec, or a fatal signal) and report_json.c
   and report_text.c write the report directory.  */
#ifndef ZEROINST_RUNTIME_H
#define ZEROINST_RUNTIME_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "zeroinst-abi.h"

#define ZI_HIDDEN __attribute__ ((visibility ("hidden")))

enum zi_kind { ZI_KIND_INT, ZI_KIND_FLOAT, ZI_KIND_OTHER, ZI_NKINDS };

/* types.c: what each buffer class holds.  */
struct zi_type_info {
  const char *name;        /* "i32", "f64", ... */
  enum zi_kind kind;
  unsigned elem_bytes;     /* bytes of one element as loaded (x87: 10) */
  unsigned mant_bits;      /* floats: explicit mantissa bits */
  unsigned exp_bits;       /* floats: exponent bits */
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
void zi_table_add (struct zi_table *dst, const struct zi_table *src) ZI_HIDDEN;
void zi_table_free (struct zi_table *t) ZI_HIDDEN;

/* contexts.c: calling-context tree nodes (per thread; never freed).  */
#define ZI_NODE_FOREIGN   1u   /* a frame of uninstrumented code (pub.fn == NULL) */
#define ZI_NODE_TRUNCATED 2u   /* ZEROINST_MAX_DEPTH reached: deeper calls fold here */
struct zi_node {
  struct zi_ctx pub;         /* cache, fn, ra: read by generated code */
  struct zi_node *parent;    /* NULL at a thread's root */
  uintptr_t lo, hi;          /* code range of pub.fn, for direct-call checks */
  uint32_t depth, flags;
  uint32_t id;               /* report-time numbering */
  struct zi_frames *frames;  /* report-time cache of the path (callpath.c) */
};
struct zi_cct;               /* a thread's tree */
void zi_contexts_init (void) ZI_HIDDEN;
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

/* callpath.c: the full path of a record.  */
struct zi_frames {
  size_t n;
  struct zi_frame *f;        /* innermost first */
};
void zi_record_path (const struct zi_site_info *site, const struct zi_node *node,
                     struct zi_frames *out) ZI_HIDDEN;
int zi_frames_equal (const struct zi_frames *a, const struct zi_frames *b) ZI_HIDDEN;
int zi_frames_cmp (const struct zi_frames *a, const struct zi_frames *b) ZI_HIDDEN;

/* Totals of one kind.  */
struct zi_totals {
  uint64_t elements, bytes, redundant_bytes, zero_elements;
};

/* options.c: run-time options, read once from the environment.  */
struct zi_config {
  int mode_code, mode_data;
  unsigned top;              /* ZEROINST_TOP */
  size_t buffer_entries;     /* ZEROINST_BUFFER */
  char *output;              /* ZEROINST_OUTPUT, or NULL for the default */
  int verbose;               /* ZEROINST_VERBOSE */
  int contexts;              /* ZEROINST_CONTEXTS: 0 = site-only records */
  unsigned sample_k, sample_n;  /* ZEROINST_SAMPLE=K/N: analyse K of every N buffers (0/0: all) */
  unsigned max_depth;        /* ZEROINST_MAX_DEPTH */
};
extern struct zi_config zi_config ZI_HIDDEN;
void zi_read_options (void) ZI_HIDDEN;

/* sites.c: dense slots for site descriptors.  */
struct zi_site_info {
  const struct zi_site *desc;     /* may dangle after dlclose: use the copies */
  enum zi_type type;
  unsigned lanes, access_bytes, line, column;
  char *file, *function, *expr;
  struct zi_frames frames;        /* the load's frame and its inline chain */
};
int32_t zi_site_slot_slow (const struct zi_site *site) ZI_HIDDEN;
static inline int32_t
zi_site_slot (const struct zi_site *site)
{
  int32_t slot = __atomic_load_n (&site->slot, __ATOMIC_ACQUIRE);
  return slot ? slot : zi_site_slot_slow (site);
}
size_t zi_site_count (void) ZI_HIDDEN;          /* slots are 1..count */
const struct zi_site_info *zi_site_get (int32_t slot) ZI_HIDDEN;

/* threads.c: per-thread state.  */
struct zi_thread {
  unsigned id;                       /* 0 = the first thread (main) */
  pid_t tid;
  struct zi_entry **tls;             /* this thread's __zeroinst_buf */
  struct zi_entry *buf[ZI_NTYPES];   /* buffer starts (NULL until first use) */
  size_t capacity;                   /* entries per buffer */
  struct zi_table counters;          /* (slot, ctx) -> counters; empty after the thread ended */
  struct zi_cct *cct;                /* calling-context tree */
  struct zi_totals totals[ZI_NKINDS];  /* filled when the thread ends */
  uint64_t flushes[ZI_NTYPES];       /* buffers flushed, per class (sampling) */
  int ended;
  struct zi_thread *next;
};
extern pthread_mutex_t zi_lock ZI_HIDDEN;
extern struct zi_thread *zi_threads ZI_HIDDEN;        /* all threads, newest first */
extern struct zi_table zi_ended_counters ZI_HIDDEN;  /* merged counters of ended threads */
struct zi_thread *zi_thread_self (void) ZI_HIDDEN;
/* Non-zero while this thread runs runtime code.  The runtime's own calls
   may reach instrumented code (a program that defines memset, a signal
   handler): entry points then return at once, and what such code loads is
   not recorded.  */
extern __thread int zi_in_runtime ZI_HIDDEN;
void zi_flush_thread (struct zi_thread *t) ZI_HIDDEN;   /* all of T's buffers */
void zi_thread_totals (const struct zi_thread *t, struct zi_totals *out) ZI_HIDDEN;
/* Entries analysed and discarded by sampling (all threads).  */
extern uint64_t zi_sampled_entries, zi_skipped_entries ZI_HIDDEN;
void zi_threads_after_fork_child (void) ZI_HIDDEN;
void zi_threads_init (void) ZI_HIDDEN;

/* analyze.c */
void zi_analyze (struct zi_thread *t, enum zi_type type, const void *begin, const void *end)
    ZI_HIDDEN;
void zi_redmap (const struct zi_site_info *site, const struct zi_counters *c,
                char *out, size_t size) ZI_HIDDEN;
uint64_t zi_counters_bytes (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;
uint64_t zi_counters_redundant (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;
uint64_t zi_counters_loads (const struct zi_site_info *site, const struct zi_counters *c) ZI_HIDDEN;

/* finish.c: the merged view the writers read.  */
struct zi_record {
  const struct zi_site_info *site;
  struct zi_frames path;             /* full call path, innermost first */
  struct zi_counters c;
};
struct zi_report {
  const char *program;
  pid_t pid;
  const char *arch;
  struct zi_totals totals[ZI_NKINDS];
  struct zi_record *records;         /* sorted by redundant bytes, largest first */
  size_t nrecords;
  struct zi_thread_row { unsigned id; struct zi_totals totals[ZI_NKINDS]; } *threads;
  size_t nthreads;
};
void zi_init (void) ZI_HIDDEN;
void zi_remember_start (void) ZI_HIDDEN;
void zi_finish (const char *why) ZI_HIDDEN;
extern pid_t zi_pid ZI_HIDDEN;

/* report_json.c, report_text.c */
int zi_write_json (const struct zi_report *r, const char *path) ZI_HIDDEN;
int zi_write_summary (const struct zi_report *r, const char *path) ZI_HIDDEN;

/* Errors and notes on stderr, prefixed "zeroinst: ", async-signal-tolerant.  */
void zi_warn (const char *fmt, ...) ZI_HIDDEN __attribute__ ((format (printf, 1, 2)));

#endif
