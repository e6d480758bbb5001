/* heap.c - live heap blocks and their allocation groups.

   Every block allocated while data-centric analysis is on is a
   struct zi_object.  Small blocks (at most SMALL_MAX bytes: most blocks of
   allocation-heavy programs, list and tree nodes) are in a hash table by
   256-byte chunk: a block spans one or two chunks and has a slot, with its
   range, in the probe run of each, so finding one reads a few adjacent
   slots (one or two cache lines) instead of chasing block nodes.  Larger
   blocks are in a treap (a binary search tree kept balanced by random
   priorities) ordered by address: O(log n) in the number of large blocks.
   Memory is one node per block, and for a small block one or two 24-byte
   slots in a table at most three quarters full.

   A block's group is its allocation path: the calling-context node of an
   "allocation" made under the current context at the allocator's return
   address (contexts.c, zi_alloc_node).  One group per node; groups of
   different threads with the same path are merged in the report.

   Freeing a block buries it (its byte maps are folded into the group), so
   memory that is reused belongs to the new block.  The allocator
   wrappers (allocators.c) flush the calling thread's buffers first, so
   the thread's own earlier loads count for the old block.  realloc keeps
   the object (and its group): the map of the bytes that survive is kept.
   A new block that overlaps blocks still in the tree (freed behind our
   back, e.g. by a free() that ran inside the runtime) replaces them.  */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

static struct zi_object *root;   /* treap of large blocks */
static uint32_t seed = 2463534242u;

/* The small-block table: open addressing (linear probing) keyed by
   256-byte chunk.  A block has a slot in the probe run of each chunk it
   spans (one or two), and the slot holds the block's range: a lookup
   reads a few adjacent slots (the blocks of one chunk sit together) and
   touches no block until it has found it.  At most three quarters of the
   slots are in use.  Deleting moves later slots of the run back (no tombstones).  */
#define SMALL_MAX 256
#define CHUNK_SHIFT 8
_Static_assert (SMALL_MAX <= 1 << CHUNK_SHIFT, "a small block spans at most two chunks");
struct small_slot {
  uintptr_t base;
  uint32_t size;
  uint32_t which;            /* 0: empty; 1: the block's first chunk; 2: its second */
  struct zi_object *o;
};
static struct small_slot *small;
static size_t small_mask, nsmall, nslots;   /* blocks, slots in use */

static int
is_small (size_t size)
{
  return size <= SMALL_MAX;
}

static uintptr_t
chunk_of (uintptr_t addr)
{
  return addr >> CHUNK_SHIFT;
}

/* Where the probe run of CHUNK starts in a table of MASK + 1 slots.  */
static size_t
chunk_home (uintptr_t chunk, size_t mask)
{
  uint64_t h = (uint64_t) chunk * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 31)) & mask;
}

/* The chunk slot S stands for.  */
static uintptr_t
slot_chunk (const struct small_slot *s)
{
  return chunk_of (s->base) + (s->which - 1);
}

/* The chunks of a block at BASE of SIZE bytes (*C1 == *C0 if one).  */
static void
chunks_of (uintptr_t base, size_t size, uintptr_t *c0, uintptr_t *c1)
{
  *c0 = chunk_of (base);
  *c1 = chunk_of (base + (size ? size - 1 : 0));
}

static void
slot_put (struct small_slot *tab, size_t mask, const struct small_slot *s)
{
  size_t i = chunk_home (slot_chunk (s), mask);
  while (tab[i].which)
    i = (i + 1) & mask;
  tab[i] = *s;
}

/* Empty slot I, moving later slots of its run back into the hole when
   their home is not between the hole and them.  */
static void
slot_delete (size_t i)
{
  for (size_t j = (i + 1) & small_mask; small[j].which; j = (j + 1) & small_mask)
    {
      size_t home = chunk_home (slot_chunk (&small[j]), small_mask);
      if (((j - home) & small_mask) >= ((j - i) & small_mask))
        {
          small[i] = small[j];
          i = j;
        }
    }
  small[i].which = 0;
  nslots--;
}

/* Remove the slot of block O for chunk C.  */
static void
slot_remove (const struct zi_object *o, uintptr_t c)
{
  for (size_t i = chunk_home (c, small_mask); small[i].which; i = (i + 1) & small_mask)
    if (small[i].o == o && slot_chunk (&small[i]) == c)
      {
        slot_delete (i);
        return;
      }
}

static void
small_unlink (struct zi_object *o)
{
  uintptr_t c0, c1;
  chunks_of (o->base, o->size, &c0, &c1);
  slot_remove (o, c0);
  if (c1 != c0)
    slot_remove (o, c1);
  nsmall--;
}

/* Add small block O, growing the table to keep it at most 3/4 full.
   Returns 0 if memory ran out (O is not added).  */
static int
small_insert (struct zi_object *o)
{
  if (4 * (nslots + 2) > 3 * (small ? small_mask + 1 : 0))
    {
      size_t n = small ? 2 * (small_mask + 1) : 8192;
      struct small_slot *tab = calloc (n, sizeof *tab);
      if (!tab)
        return 0;
      for (size_t i = 0; small && i <= small_mask; i++)
        if (small[i].which)
          slot_put (tab, n - 1, &small[i]);
      free (small);
      small = tab;
      small_mask = n - 1;
    }
  uintptr_t c0, c1;
  chunks_of (o->base, o->size, &c0, &c1);
  struct small_slot s = { o->base, (uint32_t) o->size, 1, o };
  slot_put (small, small_mask, &s);
  nslots++;
  if (c1 != c0)
    {
      s.which = 2;
      slot_put (small, small_mask, &s);
      nslots++;
    }
  nsmall++;
  return 1;
}

/* The small block holding ADDR, or NULL.  */
static struct zi_object *
small_at (uintptr_t addr)
{
  if (!nsmall)
    return NULL;
  uintptr_t c = chunk_of (addr);
  for (size_t i = chunk_home (c, small_mask); small[i].which; i = (i + 1) & small_mask)
    if (addr - small[i].base < small[i].size && slot_chunk (&small[i]) == c)
      return small[i].o;
  return NULL;
}

/* The small block starting at BASE, or NULL.  */
static struct zi_object *
small_starting_at (uintptr_t base)
{
  if (!nsmall)
    return NULL;
  uintptr_t c = chunk_of (base);
  for (size_t i = chunk_home (c, small_mask); small[i].which; i = (i + 1) & small_mask)
    if (small[i].base == base && small[i].which == 1)
      return small[i].o;
  return NULL;
}

/* Groups by allocation node.  */
static struct zi_group **buckets;
static size_t nbuckets, ngroups;

static uint32_t
random_priority (void)
{
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

static struct zi_object *
rotate_right (struct zi_object *t)
{
  struct zi_object *l = t->left;
  t->left = l->right;
  l->right = t;
  return l;
}

static struct zi_object *
rotate_left (struct zi_object *t)
{
  struct zi_object *r = t->right;
  t->right = r->left;
  r->left = t;
  return r;
}

static struct zi_object *
insert (struct zi_object *t, struct zi_object *o)
{
  if (!t)
    return o;
  if (o->base < t->base)
    {
      t->left = insert (t->left, o);
      if (t->left->prio > t->prio)
        t = rotate_right (t);
    }
  else
    {
      t->right = insert (t->right, o);
      if (t->right->prio > t->prio)
        t = rotate_left (t);
    }
  return t;
}

/* Remove the node with BASE from T; *OUT gets it (or stays NULL).  */
static struct zi_object *
erase (struct zi_object *t, uintptr_t base, struct zi_object **out)
{
  if (!t)
    return NULL;
  if (base < t->base)
    t->left = erase (t->left, base, out);
  else if (base > t->base)
    t->right = erase (t->right, base, out);
  else
    {
      *out = t;
      if (!t->left)
        return t->right;
      if (!t->right)
        return t->left;
      if (t->left->prio > t->right->prio)
        {
          t = rotate_right (t);
          t->right = erase (t->right, base, out);
        }
      else
        {
          t = rotate_left (t);
          t->left = erase (t->left, base, out);
        }
    }
  return t;
}

/* The node with the largest base <= ADDR.  */
static struct zi_object *
floor_node (uintptr_t addr)
{
  struct zi_object *t = root, *best = NULL;
  while (t)
    if (t->base <= addr)
      {
        best = t;
        t = t->right;
      }
    else
      t = t->left;
  return best;
}

/* The node with the smallest base >= ADDR.  */
static struct zi_object *
ceil_node (uintptr_t addr)
{
  struct zi_object *t = root, *best = NULL;
  while (t)
    if (t->base >= addr)
      {
        best = t;
        t = t->left;
      }
    else
      t = t->right;
  return best;
}

struct zi_object *
zi_heap_at (uintptr_t addr)
{
  struct zi_object *o = small_at (addr);
  if (o)
    return o;
  o = floor_node (addr);
  return o && addr - o->base < o->size ? o : NULL;
}

static void
remove_object (struct zi_object *o)
{
  struct zi_object *out = NULL;
  root = erase (root, o->base, &out);
}

static void
bury (struct zi_object *o)
{
  zi_object_bury (o);
  free (o);
}

/* Does slot S's block overlap [BASE, END)?  (A block of 0 bytes counts
   as one byte.)  */
static int
slot_overlaps (const struct small_slot *s, uintptr_t base, uintptr_t end)
{
  return s->base < end && base < s->base + (s->size ? s->size : 1);
}

/* Small blocks that overlap [BASE, BASE+SIZE) are stale: bury them.  The
   probe runs of the range's chunks are searched, or every slot if the
   range has more chunks than the table has slots.  A deletion moves
   slots, so a run is searched again after each.  */
static void
drop_small_overlaps (uintptr_t base, size_t size)
{
  if (!nsmall)
    return;
  uintptr_t end = base + (size ? size : 1), first = chunk_of (base), last = chunk_of (end - 1);
  if (last - first < small_mask)
    for (uintptr_t c = first; c <= last; c++)
      {
      again:
        for (size_t i = chunk_home (c, small_mask); small[i].which; i = (i + 1) & small_mask)
          if (slot_chunk (&small[i]) == c && slot_overlaps (&small[i], base, end))
            {
              struct zi_object *o = small[i].o;
              small_unlink (o);
              bury (o);
              goto again;
            }
      }
  else
    /* Removing a block deletes its other slot too, which may move a slot
       not yet looked at onto one already passed: pass again until a pass
       finds nothing.  */
    for (int found = 1; found;)
      {
        found = 0;
        for (size_t i = 0; i <= small_mask; i++)
          while (small[i].which && slot_overlaps (&small[i], base, end))
            {
              struct zi_object *o = small[i].o;
              small_unlink (o);
              bury (o);
              found = 1;
            }
      }
}

/* Blocks that overlap [BASE, BASE+SIZE) are stale: bury them.  */
static void
drop_overlaps (uintptr_t base, size_t size)
{
  drop_small_overlaps (base, size);
  struct zi_object *o = floor_node (base);
  if (o && (o->base == base || base - o->base < o->size))
    {
      remove_object (o);
      bury (o);
    }
  while ((o = ceil_node (base)) && o->base < base + (size ? size : 1))
    {
      remove_object (o);
      bury (o);
    }
}

static size_t
node_hash (const void *node)
{
  uint64_t h = (uint64_t) (uintptr_t) node * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 29));
}

/* The group of allocation node NODE (write lock held).  */
static struct zi_group *
group_for (const struct zi_node *node, const char *allocator)
{
  if (nbuckets)
    for (struct zi_group *g = buckets[node_hash (node) & (nbuckets - 1)]; g; g = g->hash_next)
      if (g->alloc_node == node)
        return g;
  if (2 * (ngroups + 1) > nbuckets)
    {
      size_t n = nbuckets ? 2 * nbuckets : 256;
      struct zi_group **b = calloc (n, sizeof *b);
      if (!b)
        return NULL;
      for (size_t i = 0; i < nbuckets; i++)
        for (struct zi_group *g = buckets[i], *next; g; g = next)
          {
            next = g->hash_next;
            size_t j = node_hash (g->alloc_node) & (n - 1);
            g->hash_next = b[j];
            b[j] = g;
          }
      free (buckets);
      buckets = b;
      nbuckets = n;
    }
  struct zi_group *g = calloc (1, sizeof *g);
  if (!g)
    return NULL;
  g->cls = ZI_CLASS_HEAP;
  g->alloc_node = node;
  g->allocator = allocator;
  size_t j = node_hash (node) & (nbuckets - 1);
  g->hash_next = buckets[j];
  buckets[j] = g;
  ngroups++;
  zi_group_publish (g);
  return g;
}

/* Add O to the small table or the tree (write lock held); 0 if memory ran
   out.  Its links are set afresh: a block re-added after realloc still has
   the old ones (kept, they made a cycle in the tree).  */
static int
add (struct zi_object *o)
{
  if (is_small (o->size))
    return small_insert (o);
  o->left = o->right = NULL;
  root = insert (root, o);
  return 1;
}

/* Remove the block starting at BASE (write lock held); it, or NULL.  */
static struct zi_object *
take (uintptr_t base)
{
  struct zi_object *o = small_starting_at (base);
  if (o)
    {
      small_unlink (o);
      return o;
    }
  root = erase (root, base, &o);
  return o;
}

/* A new block P of SIZE bytes, allocated by ALLOCATOR called from RA.  */
void
zi_heap_track (void *p, size_t size, uintptr_t ra, const char *allocator)
{
  const struct zi_node *node = zi_alloc_node (ra);   /* before the lock: may register the thread */
  struct zi_object *o = zi_object_alloc (size);
  if (!o)
    return;
  o->base = (uintptr_t) p;
  pthread_rwlock_wrlock (&zi_objects_lock);
  o->prio = random_priority ();
  o->group = group_for (node, allocator);
  if (!o->group)
    {
      pthread_rwlock_unlock (&zi_objects_lock);
      free (o);
      return;
    }
  drop_overlaps (o->base, size);
  if (!add (o))
    {
      pthread_rwlock_unlock (&zi_objects_lock);
      free (o);
      return;
    }
  o->group->allocations++;
  pthread_rwlock_unlock (&zi_objects_lock);
}

/* Block P is being freed.  */
void
zi_heap_untrack (void *p)
{
  pthread_rwlock_wrlock (&zi_objects_lock);
  struct zi_object *o = take ((uintptr_t) p);
  if (o)
    zi_object_bury (o);
  pthread_rwlock_unlock (&zi_objects_lock);
  free (o);
}

/* The map BITS of an object of OLD_SIZE bytes (granule OLD_SHIFT), for the
   object resized to NEW_SIZE (granule NEW_SHIFT): the surviving bytes keep
   their state.  NULL if BITS is NULL or memory ran out.  */
static uint64_t *
resized_map (const uint64_t *bits, size_t old_size, unsigned old_shift, size_t new_size,
             unsigned new_shift)
{
  if (!bits)
    return NULL;
  uint64_t *nb = zi_map_alloc (new_size, new_shift);
  if (!nb)
    return NULL;
  size_t keep = old_size < new_size ? old_size : new_size;
  for (size_t b = 0; b < keep;)
    {
      size_t g = b >> old_shift;
      uint64_t s = (bits[g / 32] >> (2 * (g % 32))) & 3;
      size_t to = b >> new_shift;
      nb[to / 32] |= s << (2 * (to % 32));
      /* Next byte that starts a new old or new granule.  */
      size_t step = (size_t) 1 << (old_shift < new_shift ? old_shift : new_shift);
      b = (b / step + 1) * step;
    }
  return nb;
}

/* realloc moved or resized block OLD to P (SIZE bytes); RA and ALLOCATOR
   for a block that was not tracked.  */
void
zi_heap_moved (void *old, void *p, size_t size, uintptr_t ra, const char *allocator)
{
  pthread_rwlock_wrlock (&zi_objects_lock);
  struct zi_object *o = take ((uintptr_t) old);
  if (o)
    {
      unsigned shift = zi_map_shift (size);
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        {
          uint64_t *nb = resized_map (o->map[k], o->size, o->shift, size, shift);
          zi_object_map_release (o, k);
          o->map[k] = nb;
        }
      o->base = (uintptr_t) p;
      o->size = size;
      o->shift = shift;
      o->spare = NULL;      /* sized for the old size */
      drop_overlaps (o->base, size);
      if (!add (o))
        {
          bury (o);
          o = NULL;
        }
    }
  pthread_rwlock_unlock (&zi_objects_lock);
  if (!o)
    zi_heap_track (p, size, ra, allocator);
}

static void
each (struct zi_object *t, void (*fn) (struct zi_object *, void *), void *arg)
{
  for (; t; t = t->right)
    {
      each (t->left, fn, arg);
      fn (t, arg);
    }
}

/* Call FN for every live heap block (lock held).  */
void
zi_heap_each (void (*fn) (struct zi_object *, void *), void *arg)
{
  each (root, fn, arg);
  for (size_t i = 0; small && i <= small_mask; i++)
    if (small[i].which == 1)
      fn (small[i].o, arg);
}
