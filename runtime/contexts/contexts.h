/* contexts.h - calling contexts (runtime/contexts/): the per-thread
   trees of nodes generated code walks (contexts.c) and the full call
   paths of the report's records (callpath.c).  */
#ifndef ZEROINST_CONTEXTS_H
#define ZEROINST_CONTEXTS_H

#include "core/core.h"
#include "symbols/symbols.h"

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
/* For interpose/gomp.c: GOMP_parallel (through REAL, libgomp's) starts
   region FN from the current context, called at RA: its workers' paths
   continue in the current node.  */
void zi_contexts_region (void (*fn) (void *), uintptr_t ra,
                         void (*real) (void (*) (void *), void *, unsigned, unsigned)) ZI_HIDDEN;
/* interpose/gomp.c: the GOMP_parallel wrapper, whose frames the unwinder
   skips.  */
void zi_gomp_parallel (void (*fn) (void *), void *data, unsigned num_threads, unsigned flags)
    ZI_HIDDEN;
/* contexts.c: the node of an allocation by the current context at RA.  */
const struct zi_node *zi_alloc_node (uintptr_t ra) ZI_HIDDEN;

/* callpath.c: the full path of a record, kept in the report's path table:
   every distinct frame once, every distinct path once as its innermost
   frame and the index of its caller's path (-1: none).  A path is an
   index into ctx, -1 for the empty path; equal paths have one index.  */
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

#endif
