/* threads.c - per-thread state, and the runtime's half of out-of-line
   recording (__zeroinst_count).

   A thread registers itself the first time its generated code enters an
   instrumented function or reaches the runtime otherwise.  When a thread
   ends (pthread key destructor) its counter and data slots are folded
   into its table and its objects (zi_contexts_fold), its counters are
   added to zi_ended_counters under their canonical calling contexts
   (contexts/contexts.c), and its counters and calling-context tree are
   freed.  What stays is its row of totals, and only if it loaded
   something: the first ZI_ENDED_ROWS such threads keep
   their own rows (struct zi_thread, in the list); later ones are summed
   into one row.  Memory per live thread: one counter cell per (site,
   context) it reached and its tree;
   memory for ended threads is bounded by ZI_ENDED_ROWS and the records.  */
#define ZI_ENDED_ROWS 4096
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "counters/counters.h"
#include "report/report.h"

pthread_mutex_t zi_lock = PTHREAD_MUTEX_INITIALIZER;
struct zi_thread *zi_threads;
struct zi_table zi_ended_counters;

uintptr_t zi_main_stack_lo, zi_main_stack_hi;
int zi_threaded;

__thread struct zi_thread *zi_self __attribute__ ((tls_model ("initial-exec")));
static pthread_key_t exit_key;
static unsigned next_id;

static void thread_ended (void *arg);

void
zi_threads_init (void)
{
  pthread_key_create (&exit_key, thread_ended);
}

/* Create and list the calling thread's state.  */
static struct zi_thread *
register_thread (void)
{
  struct zi_thread *t = calloc (1, sizeof *t);
  if (!t)
    abort ();
  t->tid = (pid_t) syscall (SYS_gettid);
  if (zi_config.mode_data)
    {
      /* Loads from the stack are classed as such (data/analyze_data.c).  */
      pthread_attr_t attr;
      void *addr;
      size_t size;
      if (pthread_getattr_np (pthread_self (), &attr) == 0)
        {
          if (pthread_attr_getstack (&attr, &addr, &size) == 0)
            {
              t->stack_lo = (uintptr_t) addr;
              t->stack_hi = (uintptr_t) addr + size;
            }
          pthread_attr_destroy (&attr);
        }
    }
  zi_self = t;
  pthread_mutex_lock (&zi_lock);
  t->in_runtime = &zi_in_runtime;
  t->id = next_id++;
  if (t->id == 0)
    zi_main_stack_lo = t->stack_lo, zi_main_stack_hi = t->stack_hi;
  else
    __atomic_store_n (&zi_threaded, 1, __ATOMIC_RELAXED);
  t->next = zi_threads;
  zi_threads = t;
  pthread_mutex_unlock (&zi_lock);
  pthread_setspecific (exit_key, t);
  return t;
}

struct zi_thread *
zi_thread_self (void)
{
  return zi_self ? zi_self : register_thread ();
}

struct zi_thread *
zi_thread_active (void)
{
  struct zi_thread *t = zi_thread_self ();
  if (t->ended)
    {
      /* Instrumented code ran after this thread's exit hook (another TLS
         destructor): collect it again until the next hook.  */
      t->ended = 0;
      pthread_mutex_lock (&zi_lock);
      t->in_runtime = &zi_in_runtime;
      pthread_mutex_unlock (&zi_lock);
      pthread_setspecific (exit_key, t);
    }
  return t;
}

/* Is T the calling thread's own?  */
int
zi_thread_is_self (const struct zi_thread *t)
{
  return t == zi_self;
}

void
__zeroinst_count (const struct zi_site *site, const struct zi_ctx *ctx, struct zi_slot *slot,
                   uint64_t addr, uint64_t lo, uint64_t hi)
{
  unsigned type = site->type < ZI_NTYPES ? site->type : ZI_OTHER;
  if (slot)
    zi_slot_record (slot, site, lo, hi);
  else if (!zi_in_runtime)
    {
      /* A site beyond the function's slots: counted in the thread's table
         (keyed by the record's context, as zi_contexts_fold does).  */
      zi_init ();
      zi_enter_nowait ();
      if (!zi_reporting_elsewhere () && zi_config.mode_code)
        {
          struct zi_thread *t = zi_thread_active ();
          struct zi_slot one[2];
          memset (one, 0, sizeof one);
          zi_slot_record (one, site, lo, hi);
          const void *key = zi_config.contexts && zi_ctx_is_node (ctx) ? zi_record_ctx (ctx) : NULL;
          int32_t id = zi_site_slot (site);
          zi_slot_add (zi_table_get (&t->counters, id, key), zi_site_get (id), one);
        }
      zi_leave ();
    }
  if (!__zeroinst_data_on || type == ZI_OTHER || zi_in_runtime)
    return;
  /* Its object, as the data slots of inline code would find it.  */
  zi_enter_nowait ();
  if (!zi_reporting_elsewhere ())
    zi_data_element (zi_thread_active (), (enum zi_type) type, addr, lo, hi);
  zi_leave ();
}

/* A vector the plugin counts from the stack (SVE's: scalable, or under
   a predicate): its N lanes of the site's class are at VALUES, in memory
   order; ACTIVE, when not NULL, holds N lanes of the same size, non-zero
   where the lane is active (a masked load's).  Each active lane is one
   element, as __zeroinst_count counts one, at the address HOW says
   (zeroinst-abi.h, ZI_LANES_GATHER and ZI_LANES_STRUCT: an offset's
   bytes in bits 0-7, signed offsets in bit 8, the scale in bits 16-47;
   a structure's vectors in bits 48-55, this one's index above).  N is
   at most 256 (SVE's 2048 bits of one-byte lanes); lanes are
   little-endian, as on the targets with scalable vectors.  */
void
__zeroinst_count_lanes (const struct zi_site *site, const struct zi_ctx *ctx,
                        struct zi_slot *slot, uint64_t addr, const void *values,
                        const void *active, uint64_t n, const void *offsets, uint64_t how)
{
  unsigned type = site->type < ZI_NTYPES ? site->type : ZI_OTHER;
  unsigned eb = zi_types[type].elem_bytes, ob = how & 0xff;
  uint64_t scale = (how >> 16) & 0xffffffffu, nv = (how >> 48) & 0xff, k = how >> 56;
  if (type == ZI_OTHER || ZI_WIDE_TYPE (type) || eb > 8 || n > 256 || ob > 8
      || (ob && !offsets))
    return;
  const unsigned char *v = values, *m = active, *o = offsets;
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t lane = 0, on = 1;
      if (m)
        {
          on = 0;
          memcpy (&on, m + i * eb, eb);
        }
      if (!on)
        continue;
      memcpy (&lane, v + i * eb, eb);
      /* ADDR 0: a local without an address (a structure load into
         one), whose lanes have none either: the stack, as for the
         lanes of fixed vectors.  */
      uint64_t at = addr ? addr + i * eb : 0;
      if (ob)
        {
          uint64_t off = 0;
          memcpy (&off, o + i * ob, ob);
          if ((how & 0x100u) && ob < 8 && (off >> (8 * ob - 1)) & 1)
            off |= ~0ull << (8 * ob);
          at = addr + off * scale;
        }
      else if (nv && addr)
        at = addr + (i * nv + k) * eb;
      __zeroinst_count (site, ctx, slot, at, lane, 0);
    }
}

/* Add the totals of the live counters TAB to OUT (one row per kind).  */
static void
add_counter_totals (const struct zi_table *tab, struct zi_totals *out)
{
  for (size_t i = 0; tab->cells && i <= tab->mask; i++)
    {
      const struct zi_cell *cell = &tab->cells[i];
      if (!cell->slot || !cell->c.elements)
        continue;
      zi_counters_total (out, zi_site_get (cell->slot), &cell->c);
    }
}

static unsigned ended_rows;          /* ended threads with a row of their own */
static struct zi_thread *ended_sum;  /* the row of the others, once there are */

static const void *
canonical_ctx (const void *ctx)
{
  return zi_ctx_is_node (ctx) ? (const void *) zi_node_canonical (ctx) : ctx;
}

/* Did T load anything (code or data analysis)?  */
static int
loaded_something (const struct zi_thread *t)
{
  for (int k = 0; k < ZI_NKINDS; k++)
    if (t->totals[k].elements)
      return 1;
  for (int c = 0; c < ZI_NSTORAGE; c++)
    for (int k = 0; k < ZI_DATA_KINDS; k++)
      if (t->data_totals[c][k].elements)
        return 1;
  return 0;
}

/* T ended (zi_lock held): keep its row, or add it to the row of ended
   threads beyond ZI_ENDED_ROWS, or drop it if it loaded nothing.  Returns
   T if it is to be freed (it is then off the list).  */
static struct zi_thread *
settle_row (struct zi_thread *t)
{
  int loaded = loaded_something (t);
  if (loaded && ended_rows < ZI_ENDED_ROWS)
    {
      ended_rows++;
      return NULL;
    }
  if (loaded && !ended_sum && (ended_sum = calloc (1, sizeof *ended_sum)))
    {
      ended_sum->id = t->id;        /* the first thread it sums */
      ended_sum->ended = 1;
      ended_sum->next = zi_threads;
      zi_threads = ended_sum;
    }
  if (loaded && !ended_sum)
    return NULL;                    /* no memory: it keeps its row */
  if (loaded)
    {
      ended_sum->merged++;
      for (int k = 0; k < ZI_NKINDS; k++)
        zi_totals_add (&ended_sum->totals[k], &t->totals[k]);
      for (int c = 0; c < ZI_NSTORAGE; c++)
        for (int k = 0; k < ZI_DATA_KINDS; k++)
          zi_totals_add (&ended_sum->data_totals[c][k], &t->data_totals[c][k]);
    }
  for (struct zi_thread **p = &zi_threads; *p; p = &(*p)->next)
    if (*p == t)
      {
        *p = t->next;
        break;
      }
  return t;
}

/* pthread key destructor: the thread is ending.  Fold its counters into
   the ended-threads table, keep its totals (settle_row), free the rest.
   Should instrumented code run later in this thread (another TLS
   destructor), its function entries (__zeroinst_enter_node, whose cache starts
   empty again) or NULL cursors make it register again (as a new thread,
   if this one's state was freed) and this runs once more.  */
static void
thread_ended (void *arg)
{
  struct zi_thread *t = arg;
  zi_enter ();
  zi_contexts_fold (t, 1, zi_table_fold, &t->counters);
  if (zi_data_on)
    zi_statics_thread_ended (t);
  pthread_mutex_lock (&zi_lock);
  t->in_runtime = NULL;      /* this thread's TLS goes away soon (report/finish.c) */
  add_counter_totals (&t->counters, t->totals);
  zi_table_add (&zi_ended_counters, &t->counters, canonical_ctx);
  zi_table_free (&t->counters);
  t->ended = 1;
  zi_contexts_thread_ended (t);
  struct zi_thread *gone = settle_row (t);
  pthread_mutex_unlock (&zi_lock);
  if (gone == zi_self)
    zi_self = NULL;
  free (gone);
  zi_leave ();
}

/* In a forked child only the forking thread exists, and the child reports
   only what it loads itself.  */
void
zi_threads_after_fork_child (void)
{
  struct zi_thread *me = zi_self;
  for (struct zi_thread *t = zi_threads, *next; t; t = next)
    {
      next = t->next;
      if (t == me)
        continue;
      zi_table_free (&t->counters);
      free (t->tls_blocks);
      free (t);
    }
  zi_table_free (&zi_ended_counters);
  zi_threads = me;
  next_id = 0;
  zi_threaded = 0;
  ended_rows = 0;
  ended_sum = NULL;
  if (me)
    {
      me->next = NULL;
      me->id = next_id++;
      me->tid = (pid_t) syscall (SYS_gettid);
      me->ended = 0;
      memset (me->totals, 0, sizeof me->totals);
      memset (me->data_totals, 0, sizeof me->data_totals);
      zi_table_free (&me->counters);
    }
}
