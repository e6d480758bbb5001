/* analyze_data.c - data-centric attribution (SPEC §5) of the elements the
   runtime is handed one at a time (__zeroinst_count, core/threads.c): the
   128-bit classes, sites beyond a function's slots and out-of-line mode,
   the reference the data slots of inline code (object_cache.c) are
   tested against.

   Each element is attributed by the address of its first byte to a static
   object or a live heap block (objects.c), or classed as stack (the
   thread's own stack, the main thread's, or no address: a non-addressable
   local) or unknown memory.  Its metrics (counters/analyze.c's rules) go to the
   thread's totals of that storage class and, for an object, to the
   object's group through the thread's table of pending group counts, as
   the counts of data slots do (zi_pending_add: committed when another
   group needs the line, or by zi_contexts_fold).  The bytes it covered
   are marked in the shadow (shadow.h): loaded, and non-zero where the
   byte was non-zero; bytes past the object's end are not.  Aggregate
   copies (ZI_OTHER) have no values: not counted here.  */
#include "data/data.h"
#include "counters/counters.h"
#include "data/shadow.h"

/* Where ADDR, loaded by thread T, is (zi_data_find; read lock held).  */
static enum zi_storage
find (const struct zi_thread *t, uintptr_t addr, struct zi_block *b, struct zi_static_gap *gap)
{
  *b = (struct zi_block) { 0 };
  if (!addr)
    {
      b->size = 1;
      return ZI_STORAGE_STACK;
    }
  if (addr - t->stack_lo < t->stack_hi - t->stack_lo)
    {
      b->base = t->stack_lo, b->size = t->stack_hi - t->stack_lo;
      return ZI_STORAGE_STACK;
    }
  if (zi_object_find (addr, b, gap))
    return b->group->storage;
  if (addr - zi_main_stack_lo < zi_main_stack_hi - zi_main_stack_lo)
    {
      b->base = zi_main_stack_lo, b->size = zi_main_stack_hi - zi_main_stack_lo;
      return ZI_STORAGE_STACK;
    }
  return ZI_STORAGE_UNKNOWN;
}

enum zi_storage
zi_data_find (struct zi_thread *t, uintptr_t addr, struct zi_block *b, uint64_t *gen,
              int *held)
{
  zi_statics_check (t, 0);
  *held = zi_objects_rdlock ();
  *gen = __atomic_load_n (&__zeroinst_gen, __ATOMIC_ACQUIRE);
  enum zi_storage storage = find (t, addr, b, &t->static_gap);
  if (storage == ZI_STORAGE_UNKNOWN || (storage == ZI_STORAGE_HEAP && b->group->from_loader))
    {
      /* Perhaps a library loaded since: look again with it.  A block the
         dynamic loader allocated may be this thread's block of such a
         library's TLS (allocated at its first use): its thread-local
         variables, once added (statics.c), are found first.  */
      zi_objects_unlock (*held);
      zi_statics_check (t, 1);
      *held = zi_objects_rdlock ();
      *gen = __atomic_load_n (&__zeroinst_gen, __ATOMIC_ACQUIRE);
      storage = find (t, addr, b, &t->static_gap);
    }
  return storage;
}

void
zi_data_element (struct zi_thread *t, enum zi_type type, uintptr_t addr, uint64_t lo,
                 uint64_t hi)
{
  const struct zi_type_info *ti = &zi_types[type];
  if (ti->kind == ZI_KIND_OTHER)
    return;
  unsigned red, zero;
  zi_element_counts (type, lo, hi, &red, &zero);
  struct zi_totals d = { 1, ti->elem_bytes, red, zero };
  int kind = ti->kind;        /* ZI_KIND_INT or ZI_KIND_FLOAT, as a shadow kind */
  struct zi_block b;
  uint64_t gen;
  int held;
  enum zi_storage storage = zi_data_find (t, addr, &b, &gen, &held);
  zi_totals_add (&t->data_totals[storage][kind], &d);
  if (b.o)
    {
      /* Touched before marked: an object that goes away after this
         changes the generation (object_cache.c).  */
      zi_block_touch (&b, kind);
      zi_pending_add (t->pending, ZI_NPENDING, b.group, kind, &d);
      uintptr_t room = b.base + b.size - addr;
      unsigned n = room < ti->elem_bytes ? (unsigned) room : ti->elem_bytes;
      zi_shadow_mark (kind, addr, n, lo, hi);
    }
  zi_objects_unlock (held);
}
