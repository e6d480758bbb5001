/* chunks_diff.c - the chunk tables of heap blocks (runtime/data/chunks.c)
   against a plain list, under random churn: blocks of 0 bytes to 64 KiB
   (all four tiers, blocks on chunk boundaries, blocks spanning two
   chunks) come and go in a fake address space, with lookups of random
   addresses (in blocks, in gaps, at their edges), removals by base and
   removals of whatever overlaps a random range (small, or wider than a
   table; starting at a live block's base or at its last byte), and
   blocks added as the heap adds them (what they overlap removed first,
   then the insert from where that search ended).  Lookups
   are zi_chunks_find's, whose range, object, group and loaded kinds
   come from the slot: blocks of groups with an id and of groups
   made after the ids ran out (the group read from the object), loaded
   kinds noted at random (zi_chunks_touch) and carried by every slot
   made from then on.  Exit status 0 when every answer matches the
   list's.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/data.h"
#include "random.h"

#define MAXLIVE 12000
#define WINDOW (64u << 20)     /* where blocks live: crowded chunks */
static struct zi_object *live[MAXLIVE];
static int seen[MAXLIVE];
static int nlive;
/* Groups: the first EARLY with ids, the others made when there were none
   left (65535 ids: the groups of blocks inserted in between took them).  */
#define EARLY 6
#define GROUPS 12
#define ID_EATERS 65536
static struct zi_group groups[GROUPS];
static struct zi_group *eaters;     /* ID_EATERS groups, kept: the ids name them */

/* The list's answer: the block holding ADDR (blocks do not overlap).  */
static struct zi_object *
ref_at (uintptr_t addr)
{
  for (int i = 0; i < nlive; i++)
    if (addr - live[i]->base < live[i]->size)
      return live[i];
  return NULL;
}

static int
ref_overlaps (const struct zi_object *o, uintptr_t base, uintptr_t end)
{
  return o->base < end && base < o->base + (o->size ? o->size : 1);
}

static void
ref_remove (const struct zi_object *o)
{
  for (int i = 0; i < nlive; i++)
    if (live[i] == o)
      {
        live[i] = live[--nlive];
        return;
      }
}

/* A size: mostly small, some of each tier, some exactly a chunk.  */
static size_t
random_size (void)
{
  switch (rnd () % 8)
    {
    case 0: return 0;
    case 1: return 256;
    case 2: return 257 + rnd () % 3840;
    case 3: return 4097 + rnd () % (65536 - 4096);
    case 4: return (size_t) 1 << (rnd () % 17);
    default: return 1 + rnd () % 256;
    }
}

/* Space for a new block of SIZE bytes not overlapping a live one, or 0.  */
static uintptr_t
free_place (size_t size)
{
  for (int tries = 0; tries < 20; tries++)
    {
      uintptr_t base = 0x10000000 + (rnd () % (WINDOW) & ~(uintptr_t) (rnd () % 2 ? 15 : 0));
      int ok = 1;
      for (int i = 0; i < nlive && ok; i++)
        if (ref_overlaps (live[i], base, base + (size ? size : 1)))
          ok = 0;
      if (ok)
        return base;
    }
  return 0;
}

/* Has block O one slot (one chunk of its tier)?  Then every load noted
   is in it; a block of two chunks has its loads noted in the slot of the
   chunk they were in.  */
static int
one_slot (const struct zi_object *o)
{
  unsigned shift = o->size <= 64 ? 6 : o->size <= 256 ? 8 : o->size <= 4096 ? 12 : 16;
  return o->base >> shift == (o->base + (o->size ? o->size - 1 : 0)) >> shift;
}

/* zi_chunks_each's callback: count O in SEEN, or as a stray in *ARG.  */
static void
visit (struct zi_object *o, void *arg)
{
  for (int i = 0; i < nlive; i++)
    if (live[i] == o)
      {
        seen[i]++;
        return;
      }
  ++*(long *) arg;
}

/* Remove what overlaps [BASE, BASE+SIZE) through
   zi_chunks_take_overlapping, one block at a time, checking each against
   the list and that none is left; the misfits counted in *BAD.  */
static void
take_overlaps (int step, uintptr_t base, size_t size, long *bad)
{
  uintptr_t end = base + (size ? size : 1);
  struct zi_object *got;
  while ((got = zi_chunks_take_overlapping (base, size)))
    {
      if (!ref_overlaps (got, base, end) && (*bad)++ < 5)
        printf ("step %d: %p does not overlap the range\n", step, (void *) got);
      ref_remove (got);
      free (got);
    }
  for (int i = 0; i < nlive; i++)
    if (ref_overlaps (live[i], base, end) && (*bad)++ < 5)
      printf ("step %d: block %#lx+%zu overlaps and was left\n", step,
              (unsigned long) live[i]->base, live[i]->size);
}

int
main (void)
{
  rs = 0x853c49e6748fea9bull;
  long bad = 0, ops = 0;
  int most = 0;
  /* Groups 0 to EARLY-1 take the first ids, ID_EATERS blocks of groups
     of their own the rest, and groups EARLY and on find none.  */
  struct zi_object *eater = calloc (1, sizeof *eater);   /* 16-byte aligned, as a slab's */
  eaters = calloc (ID_EATERS, sizeof *eaters);
  if (!eater || !eaters)
    return 1;
  for (int i = 0; i < GROUPS + ID_EATERS; i++)
    {
      *eater = (struct zi_object) { .base = 0x1000, .size = 16 };
      eater->group = i < EARLY ? &groups[i] : i < EARLY + ID_EATERS ? &eaters[i - EARLY]
                     : &groups[i - ID_EATERS];
      if (!zi_chunks_insert (eater) || zi_chunks_take (0x1000) != eater)
        {
          printf ("insert or take failed\n");
          return 1;
        }
    }
  free (eater);
  for (int i = 0; i < GROUPS; i++)
    if (!groups[i].chunk_id != (i >= EARLY))
      {
        printf ("group %d has id %u\n", i, groups[i].chunk_id);
        return 1;
      }
  for (int step = 0; step < 150000; step++, ops++)
    {
      unsigned what = rnd () % 20;
      if (what < 9 && nlive < MAXLIVE)
        {
          /* Half the blocks are added as the heap adds them: whatever
             they overlap goes first (zi_chunks_take_overlapping, whose
             search that finds nothing leaves the insert where its
             chunks' probe runs end), often right after a live block (a
             crowded chunk, or a stale neighbour to replace); the others
             at a free place.  */
          size_t size = random_size ();
          int dropping = rnd () % 2;
          uintptr_t base;
          if (!dropping)
            base = free_place (size);
          else if (nlive && rnd () % 2)
            {
              const struct zi_object *n = live[rnd () % nlive];
              base = n->base + (n->size ? n->size : 1) + rnd () % 3 * 8 - 8;
            }
          else
            base = 0x10000000 + rnd () % (WINDOW);
          if (!base)
            continue;
          if (dropping)
            take_overlaps (step, base, size, &bad);
          struct zi_object *o = calloc (1, sizeof *o);
          o->base = base;
          o->size = size;
          o->group = &groups[rnd () % GROUPS];
          o->kinds = rnd () % 4;
          if (!zi_chunks_insert (o))
            {
              printf ("insert failed\n");
              return 1;
            }
          live[nlive++] = o;
          if (nlive > most)
            most = nlive;
        }
      else if (what < 13 && nlive)
        {
          /* remove by base: a live block's, or a base no block starts at */
          struct zi_object *want = rnd () % 8 ? live[rnd () % nlive] : NULL;
          uintptr_t base = want ? want->base : 0x10000000 + rnd () % (WINDOW);
          if (!want)
            for (int i = 0; i < nlive; i++)
              if (live[i]->base == base)
                want = live[i];
          struct zi_object *got = zi_chunks_take (base);
          if (got != want && bad++ < 5)
            printf ("step %d: take %#lx: %p, expected %p\n", step, (unsigned long) base,
                    (void *) got, (void *) want);
          if (want)
            {
              ref_remove (want);
              free (want);
            }
        }
      else if (what < 14)
        {
          /* remove what overlaps a range, one block at a time; the range
             starts anywhere, or at a live block's base, or ends just
             after one (a zero-size block counts as one byte) */
          uintptr_t base = 0x10000000 + rnd () % (WINDOW);
          if (nlive && rnd () % 3 == 0)
            {
              const struct zi_object *o = live[rnd () % nlive];
              base = rnd () % 2 ? o->base : o->base + (o->size ? o->size : 1) - 1 - rnd () % 2;
            }
          /* now and then wider than the tables (a pass over all slots) */
          size_t size = rnd () % 4 ? rnd () % 600 : rnd () % 50 ? rnd () % 200000 : rnd () % WINDOW;
          take_overlaps (step, base, size, &bad);
        }
      else
        {
          /* lookups: in or at the edges of a live block, or anywhere */
          for (int k = 0; k < 2; k++)
            {
              uintptr_t addr;
              if (nlive && rnd () % 2)
                {
                  const struct zi_object *o = live[rnd () % nlive];
                  addr = o->base + (rnd () % (o->size + 2)) - 1;
                }
              else
                addr = 0x10000000 + rnd () % (WINDOW);
              struct zi_object *want = ref_at (addr);
              struct zi_block b;
              int found = zi_chunks_find (addr, &b);
              if (found != (want != NULL)
                  || (want && (b.o != want || b.base != want->base || b.size != want->size
                               || b.group != want->group || (b.kinds & ~want->kinds)))
                  || (found && one_slot (want) && b.kinds != want->kinds)
                  || (found && !b.slot))
                {
                  if (bad++ < 5)
                    printf ("step %d: find %#lx: %d %p %#lx+%zu group %p kinds %u, expected %p\n",
                            step, (unsigned long) addr, found, (void *) b.o,
                            (unsigned long) b.base, b.size, (void *) b.group, b.kinds,
                            (void *) want);
                  continue;
                }
              if (!found)
                continue;
              /* A load as kind K: the object learns it, then its slot;
                 the next lookup through that slot knows it.  */
              int k = (int) (rnd () % 2);
              want->kinds |= 1u << k;
              zi_chunks_touch (&b, k);
              if ((!zi_chunks_find (addr, &b) || !(b.kinds & (1u << k))) && bad++ < 5)
                printf ("step %d: %#lx touched as %d, not in its slot\n", step,
                        (unsigned long) addr, k);
            }
        }
    }
  /* Every live block once, through zi_chunks_each.  */
  long strays = 0;
  zi_chunks_each (visit, &strays);
  for (int i = 0; i < nlive; i++)
    bad += seen[i] != 1;
  bad += strays;
  printf ("%ld operations, up to %d blocks live, %d at the end, %ld mismatches\n", ops, most,
          nlive, bad);
  return bad != 0;
}
