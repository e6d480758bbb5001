/* object_cache.c - the data slots of generated code (zeroinst-abi.h): per
   (site, context), the object the site's last element was in.

   An element inside the cached range costs generated code a subtract, a
   compare and a branch (and a compare of __zeroinst_gen); it is counted in
   the site's counter slot like any other, and its bytes are marked in the
   shadow chunk the slot holds.  Counts reach groups only when a miss
   finds an object of another group (or storage class) than the slot's target
   (__zeroinst_lookup), or a report, thread end or fork takes them
   (zi_dslots_take): what the counter slot gained since the last time,
   its "seen" snapshot, goes to the target, the group of the objects the
   slot held, or their storage class (stack, unknown memory).  An integer's
   redundant bytes are linear in the slot's fields, (B - 1) * elements - hb
   + zeros (SPEC section 3), so the difference of two snapshots is exact.

   Staleness: an object that was loaded (o->kinds != 0) and goes away or
   moves changes __zeroinst_gen (zi_dslots_stale, objects.c, under the
   objects' write lock; the thread's own stack bounds change it too), so
   every slot misses once and looks again.  The change is also its
   group's (zi_group.end_gen): a slot of another group, whose element
   still lies in its range, becomes current again without a lookup
   (still_current).  A load that races with the free of its object in
   another thread is the program's own use after free; its marks may
   land in freed memory.

   The thread's last object (zi_thread.last_object) is tried first, and
   without the objects' lock: the loads of one record from several sites
   miss one after the other on the same object (a list walked by small
   functions: every site misses at every node).  The thread keeps a copy
   of its range and group, taken under the lock with the generation, and
   uses it only while the generation is that one and only for kinds it
   touched the object as (so the object cannot have gone away or moved
   since: a touched object changes __zeroinst_gen when it does), and not
   for the thread's own stack, which classify puts first (a stack the
   program allocated lies in a heap block).  The object itself is not
   read: another thread may free it at any moment.  A miss whose object
   has the group the slot already counts for takes nothing: the counts
   go there later just as well.

   Ranges are clipped to the element's shadow region, so one chunk serves
   the whole range, and to the thread's stack where it lies in the object
   (a stack the program allocated), and shortened by the site's access
   bytes, so an element that hits lies in its object.

   Group ids (zeroinst-abi.h, shadow.h): a slot whose target is a group
   with an id holds it (ds->gid), and generated code serves its misses in
   blocks of that group, in any region, without calling here.  The
   ids of a small heap block are written at its first lookup here as a
   kind (under the read lock, after the object is marked loaded as that
   kind, so that its end, under the write lock, clears them: objects.c).  */
#include <string.h>
#include "data/data.h"
#include "contexts/contexts.h"
#include "data/shadow.h"

/* A data slot's target: a group, or a storage class tagged with 1.  */
#define STORAGE_TARGET(storage) (((uintptr_t) (storage) << 1) | 1)

void
zi_dslot_init (struct zi_dslot *ds, struct zi_slot *slot, const struct zi_site_info *si)
{
  memset (ds, 0, sizeof *ds);
  ds->slot = slot;
  ds->type = (uint8_t) si->type;
  ds->bytes = (uint16_t) si->access_bytes;
  ds->kind = zi_types[si->type].kind == ZI_KIND_FLOAT ? ZI_KIND_FLOAT : ZI_KIND_INT;
  /* gen 0 never matches __zeroinst_gen: the first element looks.  */
}

/* Counts taken for a group wait in the thread's table of pending lines
   (t->pending) until another group needs the line or the thread is
   folded (zi_contexts_fold: its end, a report): the group's totals take
   four atomic additions, and programs whose sites change groups often (a
   database engine) spent a twentieth of their time in them.  */

/* Move what DS's counter slot counted since it was last taken to DS's
   target, for thread T (T itself in a runtime section, or T stopped for
   a report; groups are never freed).  */
static void
take (struct zi_thread *t, struct zi_dslot *ds)
{
  const struct zi_slot *s = ds->slot;
  uint64_t n = __atomic_load_n (&s->elements, __ATOMIC_RELAXED);
  uint64_t z = __atomic_load_n (&s->zeros, __ATOMIC_RELAXED);
  uint64_t hb = __atomic_load_n (&s->hb, __ATOMIC_RELAXED);
  uint64_t dn = n - ds->seen_elements, dz = z - ds->seen_zeros, dhb = hb - ds->seen_hb;
  ds->seen_elements = n, ds->seen_zeros = z, ds->seen_hb = hb;
  if (!ds->target || !(dn | dz | dhb) || ds->type == ZI_OTHER)
    return;
  const struct zi_type_info *ti = &zi_types[ds->type];
  /* Modulo 2^64: a report that reads a slot while its thread is between
     two field updates sees one half now and the other next time.  */
  uint64_t red = ti->kind == ZI_KIND_FLOAT ? dz * ti->elem_bytes
                 : (uint64_t) (ti->elem_bytes - 1) * dn - dhb + dz;
  struct zi_totals d = { dn, dn * ti->elem_bytes, red, dz };
  int kind = ds->kind;
  enum zi_storage storage;
  if (ds->target & 1)
    storage = (enum zi_storage) (ds->target >> 1);
  else
    {
      struct zi_group *g = (struct zi_group *) ds->target;
      storage = g->storage;
      zi_pending_add (t->pending, ZI_NPENDING, g, kind, &d);
    }
  zi_totals_add (&t->data_totals[storage][kind], &d);
}

void
zi_dslots_flush (struct zi_thread *t)
{
  zi_pending_commit (t->pending, ZI_NPENDING);
}

void
zi_dslots_take (struct zi_thread *t, struct zi_dslot *last, unsigned n, int cleared)
{
  for (unsigned i = 0; i < n; i++)
    {
      struct zi_dslot *ds = last + i;
      if (!ds->slot)
        continue;
      take (t, ds);
      if (cleared)
        ds->seen_elements = ds->seen_zeros = ds->seen_hb = 0;
    }
}

/* Mark the element of DS's BYTES bytes at ADDR, whose value is at VALUE,
   but not past END (its object's end).  */
static void
mark_here (int kind, uintptr_t addr, uintptr_t end, unsigned bytes, const unsigned char *value)
{
  unsigned n = end - addr < bytes ? (unsigned) (end - addr) : bytes;
  for (unsigned k = 0; k < n; k += 16)
    {
      uint64_t part[2] = { 0, 0 };
      unsigned m = n - k < 16 ? n - k : 16;
      memcpy (part, value + k, m);
      zi_shadow_mark (kind, addr + k, m, part[0], part[1]);
    }
}

/* Point DS at the element at ADDR (value VALUE) of an object of group G
   (NULL: of storage class STORAGE), whose memory is [LO, HI) (or nothing), as of
   generation GEN, its counts since the last take going to their target
   first if the target changes.  Returns the chunk generated code marks
   the element in, or NULL if marked here (or not to be marked).  */
static inline __attribute__ ((always_inline)) uint32_t *
fill (struct zi_thread *t, struct zi_dslot *ds, struct zi_group *g, enum zi_storage storage,
      uintptr_t lo, uintptr_t hi, uint64_t gen, uint64_t addr, uint64_t value)
{
  int kind = ds->kind;
  uintptr_t target = g ? (uintptr_t) g : STORAGE_TARGET (storage);
  if (target != ds->target)
    {
      /* Counts taken later go to the same target just as well: a site
         walking a list of one allocation path takes nothing.  */
      take (t, ds);
      ds->target = target;
    }
  uint32_t *chunk = NULL, *ret = NULL;
  uintptr_t end = hi;
  if (g)
    {
      /* A stack the program allocated lies in its block, and the
         thread's loads from it are the stack's (classify), so the range
         stops at it: ADDR is on one side.  */
      if (lo < t->stack_hi && t->stack_lo < hi)
        {
          if (addr < t->stack_lo)
            hi = t->stack_lo;
          else
            lo = t->stack_hi;
        }
      uintptr_t region = addr & ~(((uintptr_t) 1 << ZI_SHADOW_REGION_BITS) - 1);
      if (lo < region)
        lo = region;
      if (hi - region > ((uintptr_t) 1 << ZI_SHADOW_REGION_BITS))
        hi = region + ((uintptr_t) 1 << ZI_SHADOW_REGION_BITS);
      uint32_t *w = zi_shadow_word (kind, addr);
      if (w)
        chunk = w - zi_shadow_index (addr);
    }
  if (!addr)
    ds->lo = 0, ds->limit = 0;          /* no address (a register): stack */
  else if (hi - lo >= ds->bytes)
    ds->lo = lo, ds->limit = hi - lo - ds->bytes;
  else
    ds->lo = UINTPTR_MAX, ds->limit = 0;   /* nothing hits */
  ds->chunk = chunk;
  ds->gen = gen;
  /* The group ids serve the slot's misses in every region if its group
     has one (and the element's region has a chunk, where the ids of the
     block are written below).  */
  unsigned id = g ? g->chunk_id : 0;
  ds->gid = chunk && id && !(id >> ZI_GID_BITS) ? id << 4 : 0;
  if (g)
    {
      /* The generated code marks an element that hits; one that runs
         past its object's end (or region) is marked here, up to the end.  */
      if (chunk && addr - ds->lo <= ds->limit)
        ret = chunk;
      else if (ds->bytes == zi_types[ds->type].elem_bytes)
        /* A scalar: its bytes in memory order (the targets are all
           little-endian).  */
        mark_here (kind, addr, end, ds->bytes, (const unsigned char *) &value);
      else
        mark_here (kind, addr, end, ds->bytes, (const unsigned char *) value);
    }
  return ret;
}

/* Is ADDR in T's last object as of generation GEN, touched as KIND?  The
   copy of its fields in T is used, not the object: it may be freed (and
   its memory given back) by another thread at any time after GEN.  */
static inline int
in_last_object (const struct zi_thread *t, uint64_t gen, int kind, uint64_t addr)
{
  return t->last_object && t->last_gen == gen && (t->last_kinds & (1u << kind))
         && addr - t->last_base < t->last_size
         && addr - t->stack_lo >= t->stack_hi - t->stack_lo;
}

/* The group id entry of ADDR's line in the chunk C of DS's kind
   (shadow.h) if the element of DS at ADDR lies in the bytes the entry
   promises, and not in T's stack (see in_last_object); else 0.  */
static inline uint16_t
gid_entry (const struct zi_thread *t, const struct zi_dslot *ds, uint32_t *c, uint64_t addr)
{
  if (ds->bytes > 16 || addr - t->stack_lo < t->stack_hi - t->stack_lo)
    return 0;
  /* Acquire: its group (zi_chunks_group) was set before the id was
     written (zi_gids_set, release).  */
  uint16_t e = __atomic_load_n (zi_gids (c) + zi_shadow_index (addr), __ATOMIC_ACQUIRE);
  return e >> 4 && (addr & 15) + ds->bytes <= zi_gid_span (e & 15) ? e : 0;
}

/* Is DS, stale as of GEN, still right for the element at ADDR?  Yes if
   the element lies in its range, of an object of a group whose
   generation (the last end or move of one of its loaded objects) and
   the last change of everything (zi_stale_all_gen) are no later than
   the slot's: the end of an object of another group made it stale.
   Its object is then alive, its chunk the element's, and its counts go
   where they went.  A fifth of sqlite3's calls (RESULTS.md, 2026-12-05
   16:38).  Without the lock:
   an end of the slot's object that these reads miss is concurrent with
   this thread's load from it (the program's use after free); a change
   of everything, which the program does not order, shows here as
   UINT64_MAX from before the generation changes (zi_dslots_stale).
   Stack slots are never kept: the thread's stack bounds change the
   generation alone (zi_dslots_stale_stack).  */
static inline int
still_current (const struct zi_dslot *ds, uint64_t gen, uint64_t addr)
{
  if (ds->gen == gen || addr - ds->lo > ds->limit || !ds->chunk || !ds->target
      || (ds->target & 1))
    return 0;
  const struct zi_group *g = (const struct zi_group *) ds->target;
  return ds->gen >= __atomic_load_n (&g->end_gen, __ATOMIC_RELAXED)
         && ds->gen >= __atomic_load_n (&zi_stale_all_gen, __ATOMIC_RELAXED);
}

uint32_t *
__zeroinst_lookup (struct zi_dslot *ds, uint64_t addr, uint64_t value)
{
  uint64_t gen = __atomic_load_n (&__zeroinst_gen, __ATOMIC_ACQUIRE);
  int lazy;
  if (!ds->slot && (lazy = zi_contexts_lazy_dslot (ds)) != 1)
    {
      if (lazy < 0)
        return NULL;      /* a set made in zero pages: set up at a later miss */
      /* The sink's (contexts/contexts.c): counts nobody reads, nothing to mark.  */
      ds->lo = 0;
      ds->limit = UINTPTR_MAX;
      ds->chunk = NULL;
      ds->gen = gen;
      ds->gid = 0;
      return NULL;
    }
  if (zi_in_runtime)
    return NULL;
  /* Not zi_enter (see contexts/contexts.c's __zeroinst_enter_node): while another
     thread writes a report, the element is neither marked nor moved.  */
  zi_enter_nowait ();
  if (zi_reporting_elsewhere () || !zi_data_on)
    {
      zi_leave ();
      return NULL;
    }
  if (still_current (ds, gen, addr))
    {
      ds->gen = gen;
      zi_leave ();
      return ds->chunk;
    }
  struct zi_thread *t = zi_thread_current ();
  if (!zi_config.mode_code)
    zi_contexts_missed ();
  uint32_t *ret;
  int kind = ds->kind;
  if (in_last_object (t, gen, kind, addr))
    {
      /* No lock: the generation read on entry is the one the copy was
         taken at, so the object was live then, and ADDR, which this
         thread has just loaded, lay in it.  */
      ret = fill (t, ds, t->last_group, t->last_group->storage, t->last_base,
                  t->last_base + t->last_size, gen, addr, value);
      zi_leave ();
      return ret;
    }
  uint32_t *c = zi_shadow_chunk (kind, addr);
  uint16_t e = c ? gid_entry (t, ds, c, addr) : 0;
  if (e)
    {
      /* A block of a group with an id: the group, without the lock or
         the chunk tables.  Generated code tested the ids for the slot's
         own group: this is a site that moves between groups (records of
         two allocation paths in one list).  The ids are current as of
         GEN or later (a block's end clears them, then changes the
         generation), so the range is valid as of GEN.  */
      struct zi_group *g = zi_chunks_group (e >> 4);
      uintptr_t line = addr & ~(uintptr_t) 15;
      ret = fill (t, ds, g, g->storage, line, line + zi_gid_span (e & 15), gen, addr, value);
      zi_leave ();
      return ret;
    }
  /* The element's shadow word, which generated code tests right after
     this returns: its cache miss (a program of many scattered objects)
     then overlaps the lookup's instead of following it.  */
  if (c)
    __builtin_prefetch (c + zi_shadow_index (addr));
  struct zi_block b;
  int held;
  enum zi_storage storage = zi_data_find (t, addr, &b, &gen, &held);
  if (b.o)
    {
      /* B, not the object: reading it is one more cache miss (chunks.c).  */
      zi_block_touch (&b, kind);
      if (t->last_object != b.o || t->last_gen != gen)
        {
          t->last_object = b.o;
          t->last_base = b.base;
          t->last_size = b.size;
          t->last_group = b.group;
          t->last_kinds = 0;
          t->last_gen = gen;
        }
      t->last_kinds |= 1u << kind;
    }
  ret = fill (t, ds, b.o ? b.group : NULL, storage, b.base, b.base + b.size, gen, addr, value);
  if (b.slot && ds->gid)
    {
      /* A small heap block: its group ids, unless its first lookup as
         this kind wrote them already.  */
      uint16_t *e = zi_gids (ds->chunk) + zi_shadow_index (b.base);
      if (__atomic_load_n (e, __ATOMIC_RELAXED)
          != zi_gid_entry (b.group->chunk_id, b.base, b.base + b.size))
        zi_gids_set (ds->chunk, b.base, b.size, b.group->chunk_id);
    }
  zi_objects_unlock (held);
  zi_leave ();
  return ret;
}
