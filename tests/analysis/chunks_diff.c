/* chunks_diff.c - the chunk tables of heap blocks (runtime/chunks.c)
   against a plain list, under random churn: blocks of 0 bytes to 64 KiB
   (all three tiers, blocks on chunk boundaries, blocks spanning two
   chunks) come and go in a fake address space, with lookups of random
   addresses (in blocks, in gaps, at their edges), removals by base and
   removals of whatever overlaps a random range (small, or wider than a
   table; starting at a live block's base or at its last byte).  Exit status 0 when every answer matches the list's.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "random.h"

#define MAXLIVE 12000
#define WINDOW (64u << 20)     /* where blocks live: crowded chunks */
static struct zi_object *live[MAXLIVE];
static int seen[MAXLIVE];
static int nlive;


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

int
main (void)
{
  rs = 0x853c49e6748fea9bull;
  long bad = 0, ops = 0;
  int most = 0;
  for (int step = 0; step < 150000; step++, ops++)
    {
      unsigned what = rnd () % 20;
      if (what < 9 && nlive < MAXLIVE)
        {
          size_t size = random_size ();
          uintptr_t base = free_place (size);
          if (!base)
            continue;
          struct zi_object *o = calloc (1, sizeof *o);
          o->base = base;
          o->size = size;
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
          uintptr_t end = base + (size ? size : 1);
          struct zi_object *got;
          while ((got = zi_chunks_take_overlapping (base, size)))
            {
              if (!ref_overlaps (got, base, end) && bad++ < 5)
                printf ("step %d: %p does not overlap the range\n", step, (void *) got);
              ref_remove (got);
              free (got);
            }
          for (int i = 0; i < nlive; i++)
            if (ref_overlaps (live[i], base, end) && bad++ < 5)
              printf ("step %d: block %#lx+%zu overlaps and was left\n", step,
                      (unsigned long) live[i]->base, live[i]->size);
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
              struct zi_object *got = zi_chunks_at (addr), *want = ref_at (addr);
              if (got != want && bad++ < 5)
                printf ("step %d: at %#lx: %p, expected %p\n", step, (unsigned long) addr,
                        (void *) got, (void *) want);
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
