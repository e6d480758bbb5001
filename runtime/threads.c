/* threads.c - per-thread state, data mode's buffers, and the runtime's
   half of out-of-line recording (__zeroinst_count).

   A thread registers itself the first time its generated code enters an
   instrumented function or needs a buffer (__zeroinst_refill with a NULL
   cursor).  When a thread ends (pthread key destructor) its buffers are
   flushed, its counter slots folded into its table (zi_contexts_fold), its
   counters are added to zi_ended_counters under their canonical calling
   contexts (contexts.c), and its buffers, counters and calling-context
   tree are freed.  What stays is its row of totals, and
   only if it loaded something: the first ZI_ENDED_ROWS such threads keep
   their own rows (struct zi_thread, in the list); later ones are summed
   into one row.  Memory per live thread: one buffer per element class it
   used, one counter cell per (site, context) it reached and its tree;
   memory for ended threads is bounded by ZI_ENDED_ROWS and the records.  */
#define ZI_ENDED_ROWS 4096
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "runtime.h"

__thread struct zi_entry *__zeroinst_cursors[2 * ZI_NTYPES]
    __attribute__ ((tls_model ("initial-exec"), visibility ("default")));

pthread_mutex_t zi_lock = PTHREAD_MUTEX_INITIALIZER;
struct zi_thread *zi_threads;
struct zi_table zi_ended_counters;
uint64_t zi_sampled_entries, zi_skipped_entries;

uintptr_t zi_main_stack_lo, zi_main_stack_hi;

/* Before the library at [LO, HI) is unloaded (dlclose, allocators.c):
   every site of it in any thread's buffers gets a slot now, while its
   descriptor can be read, so that the entries can be translated to
   stand-ins (sites.c) at their thread's next analysis rather than dropped.
   Other threads keep appending after their cursor meanwhile; the entries
   before it are complete.  */
void
zi_threads_resolve_range (uintptr_t lo, uintptr_t hi)
{
  pthread_mutex_lock (&zi_lock);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    for (unsigned k = 0; k < ZI_NTYPES && !t->ended; k++)
      {
        char *b = (char *) t->buf[k];
        char *c = b ? (char *) __atomic_load_n (&t->tls[2 * k], __ATOMIC_ACQUIRE) : NULL;
        if (!b || c < b || c > b + t->capacity * zi_entry_bytes (k))
          continue;
        for (char *p = b; p < c; p += zi_entry_bytes (k))
          {
            const struct zi_site *site = ((const struct zi_entry *) p)->site;
            if ((uintptr_t) site - lo < hi - lo)
              zi_site_slot (site);
          }
      }
  pthread_mutex_unlock (&zi_lock);
}

static __thread struct zi_thread *self;
static pthread_key_t exit_key;
static unsigned next_id;

/* Entries written while a thread is already inside the runtime (a signal
   handler that loads from instrumented code) land here and are dropped.
   One area for all threads (nobody reads it, so concurrent writes do not
   matter): as a __thread array its 3 KB of initial-exec TLS would exceed
   glibc's static TLS surplus, and an instrumented library dlopen-ed by an
   uninstrumented program (Python ctypes, R, Lua) could not load
   libzeroinst.  The runtime's initial-exec TLS is about 220 bytes.  */
static struct zi_entry_wide scratch[64];

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
  t->tls = __zeroinst_cursors;
  t->capacity = zi_config.buffer_entries;
  if (zi_config.mode_data)
    {
      /* Loads from the stack are classed as such (analyze_data.c).  */
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
  self = t;
  pthread_mutex_lock (&zi_lock);
  t->in_runtime = &zi_in_runtime;
  t->id = next_id++;
  if (t->id == 0)
    zi_main_stack_lo = t->stack_lo, zi_main_stack_hi = t->stack_hi;
  t->next = zi_threads;
  zi_threads = t;
  pthread_mutex_unlock (&zi_lock);
  pthread_setspecific (exit_key, t);
  return t;
}

struct zi_thread *
zi_thread_self (void)
{
  return self ? self : register_thread ();
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
  return t == self;
}

static size_t
buffer_bytes (const struct zi_thread *t, unsigned type)
{
  return t->capacity * zi_entry_bytes (type);
}

/* Analyse the filled part of T's buffer of class TYPE and empty it.  With
   ZEROINST_SAMPLE=K/N only the first K of every N buffers of a class are
   analysed (bursts of K*ZEROINST_BUFFER loads); the others are discarded.  */
static void
flush_buffer (struct zi_thread *t, unsigned type)
{
  char *start = (char *) t->buf[type];
  char *cur = (char *) t->tls[2 * type];
  if (!start)
    return;
  if (cur < start || cur > start + buffer_bytes (t, type))
    {
      /* The cursor is in the scratch area (code ran inside the runtime, or
         while another thread wrote a report): drop those entries.  Only
         the thread itself moves its cursor back to the buffer, with the
         end (an empty buffer until its next refill): cursor and end set
         by two threads could disagree, and appends run past the buffer.  */
      if (zi_thread_is_self (t))
        {
          t->tls[2 * type] = (struct zi_entry *) start;
          t->tls[2 * type + 1] = (struct zi_entry *) start;
        }
      return;
    }
  if (cur == start)
    return;     /* nothing buffered (free() flushes often) */
  /* A library with sites was unloaded since T's buffers were last
     looked at: its entries point at descriptors that are gone.  */
  unsigned generation = zi_sites_generation ();
  if (__builtin_expect (t->gone_generation != generation, 0))
    {
      for (unsigned k = 0; k < ZI_NTYPES; k++)
        if (t->buf[k])
          {
            char *c = (char *) t->tls[2 * k], *b = (char *) t->buf[k];
            if (c >= b && c <= b + buffer_bytes (t, k))
              {
                zi_sites_translate (b, &c, zi_entry_bytes (k), t->gone_generation);
                t->tls[2 * k] = (struct zi_entry *) c;
              }
          }
      t->gone_generation = generation;
      cur = (char *) t->tls[2 * type];
    }
  uint64_t entries = (uint64_t) (cur - start) / zi_entry_bytes (type);
  if (!entries)
    return;
  if (zi_config.sample_n && t->flushes[type]++ % zi_config.sample_n >= zi_config.sample_k)
    __atomic_fetch_add (&zi_skipped_entries, entries, __ATOMIC_RELAXED);
  else
    {
      if (zi_data_on)
        zi_analyze_data (t, (enum zi_type) type, start, cur);
      __atomic_fetch_add (&zi_sampled_entries, entries, __ATOMIC_RELAXED);
    }
  t->tls[2 * type] = (struct zi_entry *) start;
}

void
zi_flush_thread (struct zi_thread *t)
{
  if (t->ended)
    return;
  for (unsigned type = 0; type < ZI_NTYPES; type++)
    flush_buffer (t, type);
}

struct zi_entry *
__zeroinst_refill (unsigned type, unsigned need)
{
  if (type >= ZI_NTYPES)
    abort ();
  if (zi_in_runtime)
    {
    drop:
      __zeroinst_cursors[2 * type] = (struct zi_entry *) scratch;
      __zeroinst_cursors[2 * type + 1] = (struct zi_entry *) (scratch + sizeof scratch / sizeof scratch[0]);
      return __zeroinst_cursors[2 * type];
    }
  zi_init ();
  /* Not zi_enter: instrumented code may run under a C library lock (a
     library constructor during dlopen) that a report being written in
     another thread needs.  Loads made meanwhile are dropped: they come
     after that report, and only a process that goes on after it (an exec
     that failed) misses them, with what this buffer held.  */
  zi_enter_nowait ();
  if (zi_reporting_elsewhere ())
    {
      zi_leave ();
      goto drop;
    }
  struct zi_thread *t = zi_thread_active ();
  if (!t->buf[type])
    {
      if (t->capacity < need)
        t->capacity = need;
      void *mem = mmap (NULL, buffer_bytes (t, type), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mem == MAP_FAILED)
        {
          zi_warn ("cannot allocate a %zu-entry buffer: %s", t->capacity, strerror (errno));
          abort ();
        }
      t->buf[type] = mem;
      __zeroinst_cursors[2 * type] = t->buf[type];
    }
  else
    flush_buffer (t, type);
  __zeroinst_cursors[2 * type + 1] = (struct zi_entry *) ((char *) t->buf[type] + buffer_bytes (t, type));
  zi_leave ();
  return __zeroinst_cursors[2 * type];
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
  if (!__zeroinst_data_on)
    return;
  unsigned size = zi_entry_bytes (type);
  char *cur = (char *) __zeroinst_cursors[2 * type];
  if (!cur || cur + size > (char *) __zeroinst_cursors[2 * type + 1])
    cur = (char *) __zeroinst_refill (type, 1);
  struct zi_entry_wide *e = (struct zi_entry_wide *) cur;
  e->e.site = site;
  e->e.ctx = ctx;
  e->e.addr = addr;
  e->e.lo = lo;
  if (ZI_WIDE_TYPE (type))
    e->hi = hi;
  __zeroinst_cursors[2 * type] = (struct zi_entry *) (cur + size);
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
      const struct zi_site_info *s = zi_site_get (cell->slot);
      struct zi_totals *k = &out[zi_types[s->type].kind];
      k->elements += cell->c.elements;
      k->bytes += zi_counters_bytes (s, &cell->c);
      k->redundant_bytes += zi_counters_redundant (s, &cell->c);
      k->zero_elements += cell->c.zero_elements;
    }
}

/* T's totals: what it gathered before it ended (if it did) plus its live
   counters.  */
void
zi_thread_totals_of (const struct zi_thread *t, const struct zi_table *table,
                     struct zi_totals *out)
{
  memcpy (out, t->totals, sizeof t->totals);
  add_counter_totals (table, out);
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
  for (int c = 0; c < ZI_NCLASSES; c++)
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
      for (int c = 0; c < ZI_NCLASSES; c++)
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
   destructor), its function entries (__zeroinst_enter, whose cache starts
   empty again) or NULL cursors make it register again (as a new thread,
   if this one's state was freed) and this runs once more.  */
static void
thread_ended (void *arg)
{
  struct zi_thread *t = arg;
  zi_enter ();
  zi_flush_thread (t);
  zi_contexts_fold (t, &t->counters, 1);
  pthread_mutex_lock (&zi_lock);
  t->in_runtime = NULL;      /* this thread's TLS goes away soon (finish.c) */
  add_counter_totals (&t->counters, t->totals);
  zi_table_add (&zi_ended_counters, &t->counters, canonical_ctx);
  zi_table_free (&t->counters);
  t->ended = 1;
  zi_contexts_thread_ended (t);
  struct zi_thread *gone = settle_row (t);
  pthread_mutex_unlock (&zi_lock);
  if (gone == self)
    self = NULL;
  free (t->data_cache);
  t->data_cache = NULL;
  for (unsigned type = 0; type < ZI_NTYPES; type++)
    {
      if (t->buf[type])
        munmap (t->buf[type], buffer_bytes (t, type));
      t->buf[type] = NULL;
      __zeroinst_cursors[2 * type] = __zeroinst_cursors[2 * type + 1] = NULL;
    }
  free (gone);
  zi_leave ();
}

/* In a forked child only the forking thread exists, and the child reports
   only what it loads itself.  */
void
zi_threads_after_fork_child (void)
{
  struct zi_thread *me = self;
  for (struct zi_thread *t = zi_threads, *next; t; t = next)
    {
      next = t->next;
      if (t == me)
        continue;
      for (unsigned type = 0; type < ZI_NTYPES; type++)
        if (t->buf[type])
          munmap (t->buf[type], buffer_bytes (t, type));
      zi_table_free (&t->counters);
      free (t->data_cache);
      free (t);
    }
  zi_table_free (&zi_ended_counters);
  zi_threads = me;
  next_id = 0;
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
      for (unsigned type = 0; type < ZI_NTYPES; type++)
        if (me->buf[type])
          __zeroinst_cursors[2 * type] = me->buf[type];
    }
}
