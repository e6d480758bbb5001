/* data.h - data objects (runtime/data/), SPEC section 5: objects.c
   (maps, lookup, lock), statics.c (ELF symbols of every module), heap.c
   (allocations, groups) and chunks.c (the heap blocks' tables),
   object_cache.c (the data slots of generated code), analyze_data.c
   (elements the runtime is handed one at a time), shadow.c and mark.c
   (the byte states, shadow.h), byte_map.c (maps of byte states).
   interpose/allocators.c feeds heap.c.

   Every static variable and every live heap block is a struct zi_object;
   its loads are counted in its group (struct zi_group): a static object's
   own group, or the allocation path of a heap block (SPEC: heap objects
   are grouped by allocation call path).  The states of its bytes, per
   kind (loaded, seen non-zero), are in the shadow (shadow.h) from its
   first load of that kind on.  Lookups run under the read side of
   zi_objects_lock, changes under the write side (zi_objects_rdlock,
   zi_objects_wrlock).  */
#ifndef ZEROINST_DATA_H
#define ZEROINST_DATA_H

#include "core/core.h"

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
  const struct zi_node *alloc_node;  /* heap: the allocation's context (contexts/contexts.c) */
  const char *allocator;     /* heap: "malloc", "new[]", ... */
  const char *variable;      /* heap: what the program assigned it to, or NULL */
  uint64_t allocations;
  struct zi_totals c[ZI_DATA_KINDS];    /* added to atomically */
  /* Objects of this group that are gone (freed, module unloaded).  */
  uint64_t dead_size, dead_never[ZI_DATA_KINDS], dead_zero[ZI_DATA_KINDS];
  struct zi_map dead_map[ZI_DATA_KINDS];  /* their maps, OR-ed by offset */
  size_t max_size;           /* largest object */
  long report_slot[ZI_DATA_KINDS];   /* report/data_records.c, report time */
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

#endif
