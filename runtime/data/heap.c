/* heap.c - live heap blocks and their allocation groups.

   Every block allocated while data-centric analysis is on is a
   struct zi_object.  Blocks of up to 64 KiB (most blocks of
   allocation-heavy programs: list and tree nodes, strings, database
   pages) are found through hash tables of chunks (chunks.c): a lookup
   reads a few adjacent slots instead of chasing block nodes.  Larger
   blocks are in a treap (a binary search tree kept balanced by random
   priorities) ordered by address: O(log n) in the number of large blocks.
   Memory is one node per block, and for a block in the chunk tables one
   or two 16-byte slots; byte states are in the shadow (shadow.c).

   A block's group is its allocation path: the canonical calling-context
   node (contexts/contexts.c) of an "allocation" made under the current context at
   the allocator's return address (zi_alloc_node).  One group per node,
   shared by all threads that allocate there.

   Freeing a block buries it (its byte states are folded into the group
   and cleared from the shadow), so
   memory that is reused belongs to the new block (every load is
   attributed when it runs, so the thread's own earlier loads counted for
   the old block).  realloc keeps
   the object (and its group): the states of the bytes that survive move
   with it.
   A new block that overlaps blocks still in the tree (freed behind our
   back, e.g. by a free() that ran inside the runtime) replaces them.  */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "data/data.h"
#include "contexts/contexts.h"

/* A block the chunk tables do not take (ZI_CHUNKS_FIT): its object and
   its treap node.  */
enum { LEFT, RIGHT };
struct big {
  struct zi_object o;
  struct big *child[2];      /* [LEFT]: lower bases; [RIGHT]: higher (bases are unique:
                                drop_overlaps makes room before add) */
  uint32_t prio;
};
static struct big *root;   /* treap of large blocks */
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

/* T's child on side D in T's place, T its child on the other side.  */
static struct big *
rotate (struct big *t, int d)
{
  struct big *c = t->child[d];
  t->child[d] = c->child[!d];
  c->child[!d] = t;
  return c;
}

static struct big *
insert (struct big *t, struct big *o)
{
  if (!t)
    return o;
  int d = o->o.base >= t->o.base;
  t->child[d] = insert (t->child[d], o);
  if (t->child[d]->prio > t->prio)
    t = rotate (t, d);
  return t;
}

/* Remove the node with BASE from T; *OUT gets it (or stays NULL).  */
static struct big *
erase (struct big *t, uintptr_t base, struct big **out)
{
  if (!t)
    return NULL;
  if (base != t->o.base)
    {
      int d = base > t->o.base;
      t->child[d] = erase (t->child[d], base, out);
      return t;
    }
  *out = t;
  if (!t->child[LEFT])
    return t->child[RIGHT];
  if (!t->child[RIGHT])
    return t->child[LEFT];
  /* The child of the higher priority takes T's place; T, now its child
     on the other side, is removed from there.  */
  int d = t->child[LEFT]->prio > t->child[RIGHT]->prio ? LEFT : RIGHT;
  t = rotate (t, d);
  t->child[!d] = erase (t->child[!d], base, out);
  return t;
}

/* The node with the largest base <= ADDR.  */
static struct big *
floor_node (uintptr_t addr)
{
  struct big *t = root, *best = NULL;
  while (t)
    if (t->o.base <= addr)
      {
        best = t;
        t = t->child[RIGHT];
      }
    else
      t = t->child[LEFT];
  return best;
}

/* The node with the smallest base >= ADDR.  */
static struct big *
ceil_node (uintptr_t addr)
{
  struct big *t = root, *best = NULL;
  while (t)
    if (t->o.base >= addr)
      {
        best = t;
        t = t->child[LEFT];
      }
    else
      t = t->child[RIGHT];
  return best;
}

struct zi_object *
zi_heap_big_at (uintptr_t addr)
{
  struct big *b = floor_node (addr);
  return b && addr - b->o.base < b->o.size ? &b->o : NULL;
}

/* Objects of blocks in the chunk tables come from slabs (24 bytes each,
   no allocator header: a program with millions of small blocks pays
   that per block), the others carry their treap node.  Write lock held
   for both.  */
static struct zi_object *free_small;
static char *slab, *slab_end;
#define SLAB_BYTES (1 << 20)

static struct zi_object *
object_new (uintptr_t base, size_t size)
{
  struct zi_object *o;
  if (!ZI_CHUNKS_FIT (base, size))
    {
      struct big *b = calloc (1, sizeof *b);
      if (!b)
        return NULL;
      b->prio = random_priority ();
      o = &b->o;
      o->flags = ZI_OBJECT_BIG;
    }
  else
    {
      if (free_small)
        {
          o = free_small;
          free_small = *(struct zi_object **) o;
        }
      else
        {
          if ((size_t) (slab_end - slab) < sizeof *o)
            {
              void *m = mmap (NULL, SLAB_BYTES, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
              if (m == MAP_FAILED)
                return NULL;
              slab = m;
              slab_end = slab + SLAB_BYTES;
            }
          o = (struct zi_object *) slab;
          slab += sizeof *o;
        }
      memset (o, 0, sizeof *o);
    }
  o->size = size;
  return o;
}

static void
object_free (struct zi_object *o)
{
  if (!o)
    return;
  if (o->flags & ZI_OBJECT_BIG)
    free ((struct big *) o);
  else
    {
      *(struct zi_object **) o = free_small;
      free_small = o;
    }
}

static void
remove_object (struct zi_object *o)
{
  struct big *out = NULL;
  root = erase (root, o->base, &out);
}

static void
bury (struct zi_object *o)
{
  zi_object_bury (o);
  object_free (o);
}

/* Blocks that overlap [BASE, BASE+SIZE) are stale: bury them.  */
static void
drop_overlaps (uintptr_t base, size_t size)
{
  struct zi_object *o;
  while ((o = zi_chunks_take_overlapping (base, size)))
    bury (o);
  struct big *b = floor_node (base);
  if (b && (b->o.base == base || base - b->o.base < b->o.size))
    {
      remove_object (&b->o);
      bury (&b->o);
    }
  while ((b = ceil_node (base)) && b->o.base < base + (size ? size : 1))
    {
      remove_object (&b->o);
      bury (&b->o);
    }
}

static size_t
node_hash (const void *node)
{
  uint64_t h = (uint64_t) (uintptr_t) node * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 29));
}

/* The group's variable: NAME (a string of the program's, which may be
   unloaded before the report) copied, if it has none yet: 200 bytes at
   most, not cutting a UTF-8 character.  The first name stays: a group
   is one call site, which assigns to one place.  Published atomically:
   the report reads it without the lock.  */
static void
name_group (struct zi_group *g, const char *name)
{
  if (!name || __atomic_load_n (&g->variable, __ATOMIC_RELAXED))
    return;
  char *copy = strndup (name, 200);
  if (!copy)
    return;
  size_t n = strlen (copy);
  if (n == 200)
    {
      while (n && (copy[n - 1] & 0xc0) == 0x80)
        n--;                    /* continuation bytes of a cut character */
      if (n && (copy[n - 1] & 0x80))
        n--;                    /* and its first byte */
      copy[n] = '\0';
    }
  __atomic_store_n (&g->variable, copy, __ATOMIC_RELEASE);
}

/* The group of allocation node NODE (write lock held), named NAME when
   the program named it (interpose/allocators.c); its allocator was called from RA
   (the same call for all the group's blocks: the node's).  */
static struct zi_group *
group_for (const struct zi_node *node, const char *allocator, const char *name, uintptr_t ra)
{
  if (nbuckets)
    for (struct zi_group *g = buckets[node_hash (node) & (nbuckets - 1)]; g; g = g->hash_next)
      if (g->alloc_node == node)
        {
          name_group (g, name);
          return g;
        }
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
  g->storage = ZI_STORAGE_HEAP;
  g->alloc_node = node;
  g->allocator = allocator;
  g->from_loader = zi_statics_loader_call (ra);
  name_group (g, name);
  size_t j = node_hash (node) & (nbuckets - 1);
  g->hash_next = buckets[j];
  buckets[j] = g;
  ngroups++;
  zi_group_publish (g);
  return g;
}

/* Add O to the chunk tables or the tree (write lock held); 0 if memory ran
   out.  Its links are set afresh: a block re-added after realloc still has
   the old ones (kept, they made a cycle in the tree).  A block the chunk
   tables do not take has a big object (object_new, or zi_heap_realloc).  */
static int
add (struct zi_object *o)
{
  if (ZI_CHUNKS_FIT (o->base, o->size))
    return zi_chunks_insert (o);
  struct big *b = (struct big *) o;
  b->child[LEFT] = b->child[RIGHT] = NULL;
  root = insert (root, b);
  return 1;
}

/* Remove the block starting at BASE (write lock held); it, or NULL.  */
static struct zi_object *
take (uintptr_t base)
{
  struct zi_object *o = zi_chunks_take (base);
  if (o)
    return o;
  struct big *b = NULL;
  root = erase (root, base, &b);
  return b ? &b->o : NULL;
}

/* A new block P of SIZE bytes, allocated by ALLOCATOR called from RA for
   the variable NAME (NULL: not known).  */
void
zi_heap_track (void *p, size_t size, uintptr_t ra, const char *allocator, const char *name)
{
  zi_chunks_prefetch ((uintptr_t) p, size);
  /* Before the lock: may register the thread.  Groups are keyed by the
     canonical node: the thread's own node goes when the thread ends.  */
  const struct zi_node *node = zi_node_canonical (zi_alloc_node (ra));
  int held = zi_objects_wrlock ();
  struct zi_object *o = object_new ((uintptr_t) p, size);
  struct zi_group *g = o ? group_for (node, allocator, name, ra) : NULL;
  if (!g)
    {
      object_free (o);
      zi_objects_unlock (held);
      return;
    }
  o->base = (uintptr_t) p;
  o->group = g;
  drop_overlaps (o->base, size);
  if (!add (o))
    {
      object_free (o);
      zi_objects_unlock (held);
      return;
    }
  g->allocations++;
  zi_objects_unlock (held);
}

/* Block P is being freed.  */
void
zi_heap_untrack (void *p)
{
  int held = zi_objects_wrlock ();
  struct zi_object *o = take ((uintptr_t) p);
  if (o)
    bury (o);
  zi_objects_unlock (held);
}

void *
zi_heap_realloc (void *old, size_t size, void *(*real) (void *, size_t), uintptr_t ra,
                 const char *allocator, const char *name)
{
  /* The write lock across the real realloc: once it has released OLD's
     memory, another thread's malloc may be given it, and its block must
     not be taken for OLD's (moved, or buried as stale, in its place).
     Lock order: ours, then the allocator's, as everywhere (our tables
     are allocated under ours).  */
  int held = zi_objects_wrlock ();
  void *p = real (old, size);
  struct zi_object *o = p || !size ? take ((uintptr_t) old) : NULL;
  if (o && !p)
    {
      bury (o);                /* realloc (OLD, 0) freed it */
      o = NULL;
    }
  else if (o)
    {
      /* Stale blocks in the new range go first: burying them clears
         their states, which must not clear the moved ones.  */
      drop_overlaps ((uintptr_t) p, size);
      zi_object_resize (o, (uintptr_t) p, size);
      if (!ZI_CHUNKS_FIT ((uintptr_t) p, size) != !!(o->flags & ZI_OBJECT_BIG))
        {
          /* Grown past the chunk tables (it needs a treap node), or
             shrunk into them (a slab object: what a chunk slot can
             point to, chunks.c).  */
          struct zi_object *b = object_new ((uintptr_t) p, size);
          if (!b)
            {
              bury (o);   /* as when it cannot be added */
              o = NULL;
            }
          else
            {
              unsigned flags = b->flags;
              *b = *o;
              b->flags = flags;
              object_free (o);
              o = b;
            }
        }
      if (o && !add (o))
        {
          bury (o);
          o = NULL;
        }
    }
  zi_objects_unlock (held);
  if (p && !o)
    zi_heap_track (p, size, ra, allocator, name);
  return p;
}

static void
each (struct big *t, void (*fn) (struct zi_object *, void *), void *arg)
{
  for (; t; t = t->child[RIGHT])
    {
      each (t->child[LEFT], fn, arg);
      fn (&t->o, arg);
    }
}

/* Call FN for every live heap block (lock held).  */
void
zi_heap_each (void (*fn) (struct zi_object *, void *), void *arg)
{
  each (root, fn, arg);
  zi_chunks_each (fn, arg);
}
