/* chunks.c - live heap blocks of up to ZI_CHUNK_MAX bytes, found by
   address through hash tables of chunks (heap.c keeps larger blocks in a
   tree, and everything else about blocks).

   There are four tables (tiers), for blocks of at most 64 bytes, 256
   bytes, 4 KiB and 64 KiB; a tier's chunk is its size limit, so a block
   spans one or two chunks of its tier.  (Without the 64-byte tier, the
   nodes of a tree of small blocks, allocated densely, put 5 or more
   blocks in each 256-byte chunk and lookups walked long probe runs.)  Each table is open addressing with linear
   probing, keyed by chunk: a block has a slot in the probe run of each of
   its chunks, and the slot holds the block's range.  Finding the block at
   an address reads a few adjacent slots (the blocks of one chunk sit
   together; a chunk holds at most a few blocks of its tier) and
   touches no block until it has found it: one or two cache misses where
   a search tree takes one per level.  (A lookup that read only bases
   and then the one candidate block had to scan every probe run to its
   end: 5.5 times the instructions on a tree of small nodes.)  A table is at most three quarters
   full; deleting moves later slots of the run back (no tombstones).
   Memory: one or two 16-byte slots per block; blocks at or above 2^48
   (not made by Linux without a hint) go to heap.c's tree.  All calls hold the
   objects' write lock, except zi_chunks_find and zi_chunks_touch (read
   lock) and zi_chunks_prefetch (none).  */
#include <stdlib.h>
#include "data/data.h"

/* A slot: the block's base and size in one word (the base below 2^48,
   the size less one above it), so that a lookup decides from the slot
   alone, and its object, whose low bits say which of the block's chunks
   the slot stands for, whether the block has no bytes and which kinds
   the object was loaded as, and whose high bits hold its group's id.  A
   data lookup reads the object only for what the slot does not know
   (zi_chunks_find): the objects of a program with millions of blocks are
   as many cache misses again.  0: empty.  */
struct slot {
  uint64_t range;            /* base | (size - 1) << 48 */
  uintptr_t o_which;         /* object | SECOND | TOUCHED (k) | EMPTY_BLOCK | id << ID_SHIFT */
};
#define SECOND 1u            /* the slot of the block's second chunk */
#define EMPTY_BLOCK ((uintptr_t) 1 << 48)   /* a block of 0 bytes (objects are below 2^48) */
/* The object was loaded as kind K (o->kinds has the bit too; a slot may
   lack a bit its object has: the block's other slot, or a slot made
   before the load, learns it at its next lookup).  */
#define TOUCHED(k) (2u << (k))
#define TOUCHED_ALL (TOUCHED (0) | TOUCHED (1))
_Static_assert (ZI_DATA_KINDS == 2, "a TOUCHED bit per kind");
#define LOW_BITS ((uintptr_t) (SECOND | TOUCHED_ALL))
/* Group ids: 1 to GROUP_IDS - 1, given to groups as their first block is
   added, in the slot's top 15 bits; 0: none (more groups than ids), the
   group is read from the object.  Unused ids cost no memory (bss).  */
#define ID_SHIFT 49
#define GROUP_IDS (1u << (64 - ID_SHIFT))
static struct zi_group *group_of_id[GROUP_IDS];
static unsigned next_id = 1;

static inline uintptr_t
slot_base (const struct slot *s)
{
  return (uintptr_t) (s->range & ((1ull << 48) - 1));
}

/* The object word, which readers may OR kind bits into (zi_chunks_touch)
   while others read it.  */
static inline uintptr_t
slot_word (const struct slot *s)
{
  return __atomic_load_n (&s->o_which, __ATOMIC_RELAXED);
}

static inline size_t
slot_size (const struct slot *s)
{
  return slot_word (s) & EMPTY_BLOCK ? 0 : (size_t) (s->range >> 48) + 1;
}

static inline unsigned
slot_which (const struct slot *s)
{
  uintptr_t w = slot_word (s);
  return w ? (unsigned) (w & SECOND) + 1 : 0;
}

static inline struct zi_object *
word_object (uintptr_t w)
{
  return (struct zi_object *) (w & (((uintptr_t) 1 << 48) - 1) & ~LOW_BITS);
}

static inline struct zi_object *
slot_object (const struct slot *s)
{
  return word_object (slot_word (s));
}
/* Objects of blocks in the tables come from page-aligned slabs of
   24-byte objects (heap.c; a big object that shrinks into the tables is
   copied into one), in the user half of a 48-bit or smaller address
   space.  */
_Static_assert (sizeof (struct zi_object) % 8 == 0 && LOW_BITS < 8, "low bits of objects");

struct table {
  unsigned shift;            /* chunks of 1 << shift bytes; blocks of at most that */
  struct slot *slots;        /* mask + 1 of them, NULL until the first block */
  size_t mask, blocks, used;
};
#define TIERS 4
static struct table tiers[TIERS] = { { .shift = 6 }, { .shift = 8 }, { .shift = 12 }, { .shift = 16 } };
_Static_assert (ZI_CHUNK_MAX == 1 << 16, "the last tier's chunk");

/* Where a search for overlaps that found none ended, in the tier of the
   block about to be added (zi_chunks_take_overlapping, then
   zi_chunks_insert: every new block).  The walk of a chunk's probe run
   stops at the first empty slot at or after its home, which is where put
   would place the chunk's slot: the insert starts there instead of
   walking the run again.  Valid while VERSION is the tables' (a delete
   or a growth changes it; inserts only take empty slots, after which
   the first empty one from the hint on is still the place).  */
static unsigned long version;
static struct
{
  const struct table *t;
  uintptr_t c0, c1;
  size_t end0, end1;
  unsigned long version;
} hint;

/* The tier for a block of SIZE bytes, or NULL (larger than ZI_CHUNK_MAX).  */
static struct table *
tier_for (size_t size)
{
  for (int k = 0; k < TIERS; k++)
    if (size <= (size_t) 1 << tiers[k].shift)
      return &tiers[k];
  return NULL;
}

/* Where the probe run of CHUNK starts in a table of MASK + 1 slots.  */
static size_t
home (uintptr_t chunk, size_t mask)
{
  uint64_t h = (uint64_t) chunk * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 31)) & mask;
}

/* The chunk slot S of T stands for.  */
static uintptr_t
slot_chunk (const struct table *t, const struct slot *s)
{
  return (slot_base (s) >> t->shift) + (slot_word (s) & SECOND);
}

/* The chunks of a block at BASE of SIZE bytes in T (*C1 == *C0 if one).  */
static void
chunks_of (const struct table *t, uintptr_t base, size_t size, uintptr_t *c0, uintptr_t *c1)
{
  *c0 = base >> t->shift;
  *c1 = (base + (size ? size - 1 : 0)) >> t->shift;
}

/* Put S into SLOTS at the first empty slot from I on (I: its chunk's
   home, or a slot of its probe run up to which all are taken).  */
static void
put_from (struct slot *slots, size_t mask, size_t i, const struct slot *s)
{
  while (slots[i].o_which)
    i = (i + 1) & mask;
  slots[i] = *s;
}

static void
put (const struct table *t, struct slot *slots, size_t mask, const struct slot *s)
{
  put_from (slots, mask, home (slot_chunk (t, s), mask), s);
}

/* Empty slot I of T, moving later slots of its run back into the hole
   when their home is not between the hole and them.  */
static void
delete_slot (struct table *t, size_t i)
{
  for (size_t j = (i + 1) & t->mask; t->slots[j].o_which; j = (j + 1) & t->mask)
    {
      size_t h = home (slot_chunk (t, &t->slots[j]), t->mask);
      if (((j - h) & t->mask) >= ((j - i) & t->mask))
        {
          t->slots[i] = t->slots[j];
          i = j;
        }
    }
  t->slots[i].o_which = 0;
  t->used--;
  version++;
}

/* Remove the slot of block O for chunk C from T.  */
static void
remove_slot (struct table *t, const struct zi_object *o, uintptr_t c)
{
  for (size_t i = home (c, t->mask); t->slots[i].o_which; i = (i + 1) & t->mask)
    if (slot_object (&t->slots[i]) == o && slot_chunk (t, &t->slots[i]) == c)
      {
        delete_slot (t, i);
        return;
      }
}

/* Remove block O (in T), one of whose slots is slot I.  */
static void
unlink_block (struct table *t, const struct zi_object *o, size_t i)
{
  uintptr_t c0, c1, c = slot_chunk (t, &t->slots[i]);
  chunks_of (t, o->base, o->size, &c0, &c1);
  delete_slot (t, i);
  /* The other slot, found from its home: deleting slot I may have moved
     it back.  */
  if (c1 != c0)
    remove_slot (t, o, c == c0 ? c1 : c0);
  t->blocks--;
}

/* Add block O (at most ZI_CHUNK_MAX bytes).  0 if memory ran out (O is
   not added).  */
int
zi_chunks_insert (struct zi_object *o)
{
  struct table *t = tier_for (o->size);
  if (4 * (t->used + 2) > 3 * (t->slots ? t->mask + 1 : 0))
    {
      /* A first table of one page: a program's few small blocks (the
         kernels have tens) hash to as many slots, each slot a page of a
         larger table to make resident (4,096 slots: 220 KB more peak
         RSS on lu.c).  */
      size_t n = t->slots ? 2 * (t->mask + 1) : 256;
      struct slot *slots = calloc (n, sizeof *slots);
      if (!slots)
        return 0;
      for (size_t i = 0; t->slots && i <= t->mask; i++)
        if (t->slots[i].o_which)
          put (t, slots, n - 1, &t->slots[i]);
      /* Atomic for zi_chunks_prefetch, which reads them without the
         lock; the old table freed after the new one is published.  */
      struct slot *old = t->slots;
      __atomic_store_n (&t->slots, slots, __ATOMIC_RELAXED);
      __atomic_store_n (&t->mask, n - 1, __ATOMIC_RELAXED);
      free (old);
      version++;
    }
  if (((uintptr_t) o & LOW_BITS) || (uintptr_t) o >> 48)
    return 0;                /* not a slab object (see slot_object) */
  struct zi_group *g = o->group;
  if (g && !g->chunk_id && next_id < GROUP_IDS)
    {
      g->chunk_id = (uint16_t) next_id++;
      group_of_id[g->chunk_id] = g;
    }
  uintptr_t c0, c1;
  chunks_of (t, o->base, o->size, &c0, &c1);
  uintptr_t touched = (uintptr_t) o->kinds * TOUCHED (0) & TOUCHED_ALL;
  struct slot s = { (uint64_t) o->base | (uint64_t) (o->size ? o->size - 1 : 0) << 48,
                    (uintptr_t) o | (o->size ? 0 : EMPTY_BLOCK) | touched
                    | (uintptr_t) (g ? g->chunk_id : 0) << ID_SHIFT };
  int hinted = hint.t == t && hint.version == version && hint.c0 == c0 && hint.c1 == c1;
  put_from (t->slots, t->mask, hinted ? hint.end0 : home (c0, t->mask), &s);
  t->used++;
  if (c1 != c0)
    {
      s.o_which |= SECOND;
      put_from (t->slots, t->mask, hinted ? hint.end1 : home (c1, t->mask), &s);
      t->used++;
    }
  t->blocks++;
  return 1;
}

void
zi_chunks_prefetch (uintptr_t base, size_t size)
{
  const struct table *t = tier_for (size);
  if (!t)
    return;
  /* The lock is not held: the table may grow meanwhile, and a slot
     address made of one table's pointer and another's mask is a wasted
     prefetch (which never faults), nothing more.  */
  const struct slot *slots = __atomic_load_n (&t->slots, __ATOMIC_RELAXED);
  size_t mask = __atomic_load_n (&t->mask, __ATOMIC_RELAXED);
  if (!slots)
    return;
  uintptr_t c0, c1;
  chunks_of (t, base, size, &c0, &c1);
  /* Addresses as integers: with a stale pair they may lie outside any
     table.  */
  uintptr_t at = (uintptr_t) slots;
  __builtin_prefetch ((const void *) (at + home (c0, mask) * sizeof *slots), 1);
  if (c1 != c0)
    __builtin_prefetch ((const void *) (at + home (c1, mask) * sizeof *slots), 1);
}

/* The slot of the block holding ADDR, or NULL, and its word in *W (read
   once per slot: a lookup reads a few).  */
static inline __attribute__ ((always_inline)) struct slot *
slot_at (uintptr_t addr, uintptr_t *w)
{
  for (int k = 0; k < TIERS; k++)
    {
      const struct table *t = &tiers[k];
      if (!t->blocks)
        continue;
      uintptr_t c = addr >> t->shift;
      for (size_t i = home (c, t->mask); (*w = slot_word (&t->slots[i])); i = (i + 1) & t->mask)
        {
          const struct slot *s = &t->slots[i];
          if (!(*w & EMPTY_BLOCK) && addr - slot_base (s) <= (uintptr_t) (s->range >> 48)
              && (slot_base (s) >> t->shift) + (*w & SECOND) == c)
            return &t->slots[i];
        }
    }
  return NULL;
}

int
zi_chunks_find (uintptr_t addr, struct zi_block *b)
{
  uintptr_t w;
  struct slot *s = slot_at (addr, &w);
  if (!s)
    return 0;
  b->o = word_object (w);
  b->base = slot_base (s);
  b->size = slot_size (s);
  b->group = w >> ID_SHIFT ? group_of_id[w >> ID_SHIFT] : b->o->group;
  b->kinds = (unsigned) (w & TOUCHED_ALL) / TOUCHED (0);
  b->slot = &s->o_which;
  return 1;
}

void
zi_chunks_touch (const struct zi_block *b, int kind)
{
  /* Several readers may add bits at once; writers hold the write lock.  */
  __atomic_fetch_or (b->slot, (uintptr_t) TOUCHED (kind), __ATOMIC_RELAXED);
}

struct zi_group *
zi_chunks_group (unsigned id)
{
  return group_of_id[id];
}

/* Remove the block starting at BASE and return it, or NULL.  */
struct zi_object *
zi_chunks_take (uintptr_t base)
{
  for (int k = 0; k < TIERS; k++)
    {
      struct table *t = &tiers[k];
      if (!t->blocks)
        continue;
      for (size_t i = home (base >> t->shift, t->mask); t->slots[i].o_which; i = (i + 1) & t->mask)
        if (slot_base (&t->slots[i]) == base && slot_which (&t->slots[i]) == 1)
          {
            struct zi_object *o = slot_object (&t->slots[i]);
            unlink_block (t, o, i);
            return o;
          }
    }
  return NULL;
}

/* Does slot S's block overlap [BASE, END)?  (A block of 0 bytes counts
   as one byte.)  */
static int
overlaps (const struct slot *s, uintptr_t base, uintptr_t end)
{
  size_t size = slot_size (s);
  return slot_base (s) < end && base < slot_base (s) + (size ? size : 1);
}

/* Remove one block that overlaps [BASE, BASE+SIZE) and return it, or NULL
   if there is none.  Each tier's probe runs of the range's chunks are
   searched, or all its slots if the range has more chunks than the table
   has slots.  None: where the runs of the chunks of a block of SIZE at
   BASE end in its own tier is the hint for its insert.  */
struct zi_object *
zi_chunks_take_overlapping (uintptr_t base, size_t size)
{
  uintptr_t end = base + (size ? size : 1);
  const struct table *own = tier_for (size);
  const struct table *hint_t = NULL;
  size_t end0 = 0, end1 = 0;
  for (int k = 0; k < TIERS; k++)
    {
      struct table *t = &tiers[k];
      if (!t->blocks)
        continue;
      size_t found = (size_t) -1;
      uintptr_t first = base >> t->shift, last = (end - 1) >> t->shift;
      if (last - first < t->mask)
        {
          for (uintptr_t c = first; c <= last && found == (size_t) -1; c++)
            {
              size_t i = home (c, t->mask);
              for (; t->slots[i].o_which; i = (i + 1) & t->mask)
                if (slot_chunk (t, &t->slots[i]) == c && overlaps (&t->slots[i], base, end))
                  {
                    found = i;
                    break;
                  }
              if (t == own)
                {
                  /* At most two chunks: the block fits its tier's.  */
                  if (c == first)
                    end0 = i;
                  end1 = i;
                }
            }
        }
      else
        {
          for (size_t i = 0; i <= t->mask; i++)
            if (t->slots[i].o_which && overlaps (&t->slots[i], base, end))
              {
                found = i;
                break;
              }
        }
      if (found != (size_t) -1)
        {
          struct zi_object *o = slot_object (&t->slots[found]);
          unlink_block (t, o, found);
          hint.t = NULL;
          return o;
        }
      if (t == own)
        hint_t = t;
    }
  hint.t = hint_t;
  hint.c0 = base >> (own ? own->shift : 0);
  hint.c1 = (end - 1) >> (own ? own->shift : 0);
  hint.end0 = end0;
  hint.end1 = end1;
  hint.version = version;
  return NULL;
}

/* No block was loaded: a forked child's (core/lifecycle.c), whose objects'
   kinds are cleared too.  */
void
zi_chunks_forget_loads (void)
{
  for (int k = 0; k < TIERS; k++)
    for (size_t i = 0; tiers[k].slots && i <= tiers[k].mask; i++)
      tiers[k].slots[i].o_which &= ~(uintptr_t) TOUCHED_ALL;
}

/* Call FN for every block.  */
void
zi_chunks_each (void (*fn) (struct zi_object *, void *), void *arg)
{
  for (int k = 0; k < TIERS; k++)
    for (size_t i = 0; tiers[k].slots && i <= tiers[k].mask; i++)
      if (slot_which (&tiers[k].slots[i]) == 1)
        fn (slot_object (&tiers[k].slots[i]), arg);
}
