/* analysis_data_diff.c - the runtime's data-centric attribution of single
   elements (runtime/data/analyze_data.c, zi_data_element) against a reference
   written from SPEC §5 and README "Data objects", on generated elements
   of every analysed class.

   The objects are a fake memory (addresses are never dereferenced, but
   their byte states are marked in the real shadow, shadow.c): static and
   heap objects of odd sizes, heap groups of several blocks, the thread's
   stack, the main thread's stack, and unknown memory between them.  The
   elements come as interleaved walks (lanes, unrolled loops) through
   objects with several strides, which jump to other objects now and then,
   with elements that run past their object's end, loads with no address,
   and noise.  Each case is two batches of elements; between them, in
   half the cases, objects go away and others take their places (a free
   and a malloc at the same address).

   Compared, exactly: every group's per-kind totals, the state of every
   byte of every object (also of the objects that went away) and of the
   gaps after them (elements past an object's end mark nothing), and the
   thread's totals per storage class.
   Exit status 0 when all are equal.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/data.h"
#include "data/shadow.h"
#include "random.h"
#include "reference.h"

/* What analyze_data.c needs of the rest of the runtime.  */
pthread_rwlock_t zi_objects_lock = PTHREAD_RWLOCK_INITIALIZER;
uintptr_t zi_main_stack_lo, zi_main_stack_hi;
uint64_t __zeroinst_gen = 1;
void zi_statics_refresh (void) {}
void zi_statics_check (struct zi_thread *t, int force) { (void) t; (void) force; }

#define NOBJ 24
#define NGROUPS 16
static struct zi_object objs[NOBJ];
static struct zi_group groups[NGROUPS];

/* The fake memory's object holding ADDR, or NULL.  */
static struct zi_object *
zi_object_at (uintptr_t addr)
{
  for (int i = 0; i < NOBJ; i++)
    if (addr - objs[i].base < objs[i].size)
      return &objs[i];
  return NULL;
}

int
zi_object_find (uintptr_t addr, struct zi_block *b, struct zi_static_gap *gap)
{
  (void) gap;
  struct zi_object *o = zi_object_at (addr);
  if (o)
    *b = (struct zi_block) { o, o->base, o->size, o->group, o->kinds, NULL };
  return o != NULL;
}

void zi_warn (const char *fmt, ...) { (void) fmt; }

void
zi_block_touch_new (struct zi_block *b, int kind)
{
  b->o->kinds |= 1u << kind;
  b->kinds |= 1u << kind;
}

/* The reference's view: per object and kind, one state per granule
   (ZI_MAP_LOADED | ZI_MAP_NONZERO) per byte, per group and kind the totals, per
   storage class and kind the thread's totals.  */
static unsigned char *ref_state[NOBJ][ZI_DATA_KINDS];
static struct zi_totals ref_group[NGROUPS][ZI_DATA_KINDS];
static struct zi_totals ref_storage[ZI_NSTORAGE][ZI_DATA_KINDS];

static void
ref_element (const struct zi_thread *t, enum zi_type type, const struct ref_element *e)
{
  const struct zi_type_info *ti = &zi_types[type];
  unsigned n = ti->elem_bytes, kind = ti->kind;
  unsigned char b[16];
  uint64_t lo, hi;
  ref_value (type, e, &lo, &hi, b);
  unsigned red, zero;
  ref_rule (type, b, &red, &zero);
  struct zi_totals d = { 1, n, red, zero };
  uintptr_t a = e->addr;
  struct zi_object *o = NULL;
  enum zi_storage storage;
  if (!a || (a >= t->stack_lo && a < t->stack_hi))
    storage = ZI_STORAGE_STACK;
  else if ((o = zi_object_at (a)))
    storage = o->group->storage;
  else if (a >= zi_main_stack_lo && a < zi_main_stack_hi)
    storage = ZI_STORAGE_STACK;
  else
    storage = ZI_STORAGE_UNKNOWN;
  zi_totals_add (&ref_storage[storage][kind], &d);
  if (!o)
    return;
  zi_totals_add (&ref_group[o->group - groups][kind], &d);
  int i = (int) (o - objs);
  if (!ref_state[i][kind])
    ref_state[i][kind] = calloc (o->size, 1);
  for (unsigned k = 0; k < n && a - o->base + k < o->size; k++)
    ref_state[i][kind][a - o->base + k]
        |= ZI_MAP_LOADED | (b[k] ? ZI_MAP_NONZERO : 0);
}

/* A fresh world: objects at random places with gaps, groups, stacks.  */
static void
new_world (struct zi_thread *t)
{
  for (int i = 0; i < NOBJ; i++)
    for (int k = 0; k < ZI_DATA_KINDS; k++)
      {
        zi_shadow_clear (k, objs[i].base, objs[i].size);
        free (ref_state[i][k]);
        ref_state[i][k] = NULL;
      }
  memset (objs, 0, sizeof objs);
  memset (groups, 0, sizeof groups);
  memset (ref_group, 0, sizeof ref_group);
  memset (ref_storage, 0, sizeof ref_storage);
  for (int g = 0; g < NGROUPS; g++)
    groups[g].storage = g < NGROUPS / 2 ? ZI_STORAGE_STATIC : ZI_STORAGE_HEAP;
  uintptr_t a = 0x10000;
  for (int i = 0; i < NOBJ; i++)
    {
      static const size_t sizes[] = { 1, 3, 8, 13, 16, 64, 100, 1000, 4096, 20000 };
      a += rnd () % 3 == 0 ? 0 : 1 + rnd () % 200;   /* adjacent or a gap */
      objs[i].base = a;
      objs[i].size = sizes[rnd () % 10];
      /* heap groups take several blocks */
      objs[i].group = &groups[i < NGROUPS ? i : NGROUPS / 2 + rnd () % (NGROUPS / 2)];
      a += objs[i].size;
    }
  t->stack_lo = a + 5000;
  t->stack_hi = t->stack_lo + 8192;
  zi_main_stack_lo = t->stack_hi + 100;
  zi_main_stack_hi = zi_main_stack_lo + 8192;
}

/* An address for a walk: in object I (possibly running past its end), a
   stack, unknown memory, or none.  */
static uintptr_t
start_address (const struct zi_thread *t, unsigned n)
{
  switch (rnd () % 12)
    {
    case 0: return 0;
    case 1: return t->stack_lo + rnd () % 8000;
    case 2: return zi_main_stack_lo + rnd () % 8000;
    case 3: return zi_main_stack_hi + 1000 + rnd () % 3000;    /* unknown */
    default:
      {
        const struct zi_object *o = &objs[rnd () % NOBJ];
        return o->base + (o->size > n ? rnd () % (o->size - n + 1) : 0)
               - (rnd () % 8 == 0 ? n / 2 : 0);   /* some start before it */
      }
    }
}

/* COUNT elements of class TYPE into BUF, from the current world, each
   also counted by the reference.  */
static void
generate (struct zi_thread *t, enum zi_type type, struct ref_element *buf, int count)
{
  static struct zi_site sites[80];   /* the same sites in every batch */
  unsigned n = zi_types[type].elem_bytes;
  int i = 0;
  while (i < count)
    {
      int P = 1 + rnd () % (rnd () % 2 ? 8 : 70), rows = 1 + rnd () % 60;
      int key[80];
      uintptr_t addr[80];
      int64_t step[80];
      for (int j = 0; j < P; j++)
        {
          key[j] = rnd () % (rnd () % 2 ? 3 : 80);
          addr[j] = start_address (t, n);
          /* sequential, backwards, strided, a fixed element, aligned lanes */
          static const int64_t steps[] = { 1, 1, 1, -1, 4, 0, 2 };
          step[j] = addr[j] ? steps[rnd () % 7] * (int64_t) n : 0;
        }
      for (int r = 0; r < rows && i < count; r++)
        for (int j = 0; j < P && i < count; j++, i++)
          {
            struct ref_element *e = &buf[i];
            int noise = rnd () % 80 == 0;
            if (rnd () % 150 == 0)
              addr[j] = start_address (t, n);     /* jump in mid-walk */
            e->site = &sites[noise ? rnd () % 80 : (uint64_t) key[j]];
            e->addr = noise ? start_address (t, n) : addr[j];
            addr[j] += (uint64_t) step[j];
            int k = rnd () % 6;
            e->lo = k <= 1 ? 0 : k == 2 ? rnd () >> (rnd () % 64)
                    : k == 3 ? 1ull << 63 : k == 4 ? 0x3ff0000000000000ull : rnd ();
            e->hi = k <= 1 || rnd () % 2 ? 0 : rnd () >> (rnd () % 64);
            /* values narrower than 64 bits are zero-extended (ABI) */
            if (n < 8)
              e->lo &= (1ull << (8 * n)) - 1;
            ref_element (t, type, e);
          }
    }
}

static long bad;

/* Object O's byte states of KIND against the reference's; then both are
   dropped if DROP (the object goes away).  */
static void
check_states (int iter, enum zi_type type, int o, int drop)
{
  int kind = zi_types[type].kind;
  for (size_t b = 0; b < objs[o].size; b++)
    {
      unsigned got = zi_shadow_state (kind, objs[o].base + b);
      unsigned want = ref_state[o][kind] ? ref_state[o][kind][b] : 0;
      if (got != want)
        {
          if (bad++ < 5)
            printf ("case %d (type %d): object %d (size %zu) byte %zu: state %u, expected %u\n",
                    iter, type, o, objs[o].size, b, got, want);
          break;
        }
    }
  if (drop)
    {
      zi_shadow_clear (kind, objs[o].base, objs[o].size);
      objs[o].kinds = 0;
      free (ref_state[o][kind]);
      ref_state[o][kind] = NULL;
    }
}

/* Bytes in no object have no state.  */
static void
check_gaps (int iter, enum zi_type type)
{
  int kind = zi_types[type].kind;
  for (int o = 0; o < NOBJ; o++)
    for (uintptr_t a = objs[o].base + objs[o].size; a < objs[o].base + objs[o].size + 20; a++)
      if (!zi_object_at (a) && zi_shadow_state (kind, a) && bad++ < 5)
        printf ("case %d (type %d): byte %#lx after object %d has a state\n", iter, type,
                (unsigned long) a, o);
}

/* Between two batches, some objects go away and others take their place
   (shrunk, in another group), as a free and a
   malloc at the same address do: nothing the analysis learnt in the first
   batch may survive into the second.  */
static void
mutate (int iter, enum zi_type type)
{
  for (int o = 0; o < NOBJ; o++)
    if (rnd () % 4 == 0)
      {
        check_states (iter, type, o, 1);
        objs[o].size = 1 + rnd () % objs[o].size;
        int heap = objs[o].group->storage == ZI_STORAGE_HEAP;
        objs[o].group = &groups[(heap ? NGROUPS / 2 : 0) + rnd () % (NGROUPS / 2)];
      }
}

int
main (void)
{
  rs = 0x2545f4914f6cdd1dull;
  static struct ref_element buf[6000];
  long cases = 0;
  struct zi_thread *t = calloc (1, sizeof *t);
  if (zi_shadow_init () < 0)
    return 1;
  for (int iter = 0; iter < 3000; iter++)
    {
      enum zi_type type = (enum zi_type) (rnd () % ZI_OTHER);
      memset (t->data_totals, 0, sizeof t->data_totals);
      new_world (t);
      /* Two batches, with objects changing in between or not.  */
      for (int batch = 0; batch < 2; batch++)
        {
          if (batch && rnd () % 2)
            mutate (iter, type);
          int count = rnd () % 3000;
          generate (t, type, buf, count);
          for (int i = 0; i < count; i++)
            zi_data_element (t, type, buf[i].addr, buf[i].lo, buf[i].hi);
        }
      /* Group counts wait in the thread's table (as zi_contexts_fold
         finds them at a report).  */
      zi_pending_commit (t->pending, ZI_NPENDING);
      cases++;
      int kind = zi_types[type].kind;
      for (int g = 0; g < NGROUPS; g++)
        if (memcmp (&groups[g].c[kind], &ref_group[g][kind], sizeof ref_group[g][kind])
            && bad++ < 5)
          printf ("case %d (type %d): group %d: elements %lu/%lu redundant %lu/%lu zero %lu/%lu\n",
                  iter, type, g, groups[g].c[kind].elements, ref_group[g][kind].elements,
                  groups[g].c[kind].redundant_bytes, ref_group[g][kind].redundant_bytes,
                  groups[g].c[kind].zero_elements, ref_group[g][kind].zero_elements);
      for (int c = 0; c < ZI_NSTORAGE; c++)
        if (memcmp (&t->data_totals[c][kind], &ref_storage[c][kind], sizeof ref_storage[c][kind])
            && bad++ < 5)
          printf ("case %d (type %d): storage class %d: elements %lu/%lu bytes %lu/%lu\n", iter,
                  type, c, t->data_totals[c][kind].elements, ref_storage[c][kind].elements,
                  t->data_totals[c][kind].bytes, ref_storage[c][kind].bytes);
      for (int o = 0; o < NOBJ; o++)
        check_states (iter, type, o, 0);
      check_gaps (iter, type);
    }
  printf ("%ld cases, %ld mismatches\n", cases, bad);
  free (t);
  return bad != 0;
}
