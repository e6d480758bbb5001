/* heap.c - live heap blocks and their allocation groups.

   Every block allocated while data-centric analysis is on is a
   struct zi_object.  Blocks of up to 64 KiB (most blocks of
   allocation-heavy programs: list and tree nodes, strings, database
   pages) are found through hash tables of chunks (chunks.c): a lookup
   reads a few adjacent slots instead of chasing block nodes.  Larger
   blocks are in a treap (a binary search tree kept balanced by random
   priorities) ordered by address: O(log n) in the number of large blocks.
   Memory is one node per block (with a small block's first byte map
   inline, objects.c), and for a block in the chunk tables one or two
   24-byte slots.

   A block's group is its allocation path: the canonical calling-context
   node (contexts.c) of an "allocation" made under the current context at
   the allocator's return address (zi_alloc_node).  One group per node,
   shared by all threads that allocate there.

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
  struct zi_object *o = zi_chunks_at (addr);
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

/* Blocks that overlap [BASE, BASE+SIZE) are stale: bury them.  */
static void
drop_overlaps (uintptr_t base, size_t size)
{
  struct zi_object *o;
  while ((o = zi_chunks_take_overlapping (base, size)))
    bury (o);
  o = floor_node (base);
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

/* Add O to the chunk tables or the tree (write lock held); 0 if memory ran
   out.  Its links are set afresh: a block re-added after realloc still has
   the old ones (kept, they made a cycle in the tree).  */
static int
add (struct zi_object *o)
{
  if (o->size <= ZI_CHUNK_MAX)
    return zi_chunks_insert (o);
  o->left = o->right = NULL;
  root = insert (root, o);
  return 1;
}

/* Remove the block starting at BASE (write lock held); it, or NULL.  */
static struct zi_object *
take (uintptr_t base)
{
  struct zi_object *o = zi_chunks_take (base);
  if (o)
    return o;
  root = erase (root, base, &o);
  return o;
}

/* A new block P of SIZE bytes, allocated by ALLOCATOR called from RA.  */
void
zi_heap_track (void *p, size_t size, uintptr_t ra, const char *allocator)
{
  /* Before the lock: may register the thread.  Groups are keyed by the
     canonical node: the thread's own node goes when the thread ends.  */
  const struct zi_node *node = zi_node_canonical (zi_alloc_node (ra));
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

/* realloc moved or resized block OLD to P (SIZE bytes); RA and ALLOCATOR
   for a block that was not tracked.  */
void
zi_heap_moved (void *old, void *p, size_t size, uintptr_t ra, const char *allocator)
{
  pthread_rwlock_wrlock (&zi_objects_lock);
  struct zi_object *o = take ((uintptr_t) old);
  if (o)
    {
      zi_object_resize (o, size);
      o->base = (uintptr_t) p;
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
  zi_chunks_each (fn, arg);
}
