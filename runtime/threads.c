/* threads.c - per-thread buffers and state.

   A thread registers itself the first time its generated code needs a
   buffer (__zeroinst_refill with a NULL cursor).  Its state lives in the
   global list until the process ends, so the report covers every thread
   that ran.  When a thread ends (pthread key destructor) its buffers are
   flushed, its counters are added to zi_ended_counters and freed, and only
   its totals stay.  Memory per live thread: one buffer per element class it
   used plus one counter row per site it reached.  */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "runtime.h"

__thread struct zi_entry *__zeroinst_buf[2 * ZI_NTYPES]
    __attribute__ ((tls_model ("initial-exec"), visibility ("default")));

pthread_mutex_t zi_lock = PTHREAD_MUTEX_INITIALIZER;
struct zi_thread *zi_threads;
struct zi_counters *zi_ended_counters;
size_t zi_ended_ncounters;

static __thread struct zi_thread *self;
static pthread_key_t exit_key;
static unsigned next_id;

/* Entries written while the thread is already inside the runtime (a signal
   handler that loads from instrumented code) land here and are dropped.  */
static __thread struct zi_entry scratch[64];

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
  t->tls = __zeroinst_buf;
  t->capacity = zi_config.buffer_entries;
  pthread_mutex_lock (&zi_lock);
  t->id = next_id++;
  t->next = zi_threads;
  zi_threads = t;
  pthread_mutex_unlock (&zi_lock);
  self = t;
  pthread_setspecific (exit_key, t);
  return t;
}

struct zi_thread *
zi_thread_self (void)
{
  return self ? self : register_thread ();
}

/* Analyse the filled part of T's buffer of class TYPE and empty it.  */
static void
flush_buffer (struct zi_thread *t, unsigned type)
{
  struct zi_entry *start = t->buf[type];
  struct zi_entry *cur = t->tls[2 * type];
  if (!start || cur < start || cur > start + t->capacity)
    return;
  zi_analyze (t, (enum zi_type) type, start, cur);
  t->tls[2 * type] = start;
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
  zi_init ();
  struct zi_thread *t = zi_thread_self ();
  if (t->busy)
    {
      __zeroinst_buf[2 * type] = scratch;
      __zeroinst_buf[2 * type + 1] = scratch + sizeof scratch / sizeof scratch[0];
      return scratch;
    }
  t->busy = 1;
  if (t->ended)
    {
      /* Instrumented code ran after this thread's exit hook (another TLS
         destructor): collect it again until the next hook.  */
      t->ended = 0;
      pthread_setspecific (exit_key, t);
    }
  if (!t->buf[type])
    {
      size_t cap = t->capacity > need ? t->capacity : need;
      void *mem = mmap (NULL, cap * sizeof (struct zi_entry), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mem == MAP_FAILED)
        {
          zi_warn ("cannot allocate a %zu-entry buffer: %s", cap, strerror (errno));
          abort ();
        }
      t->capacity = cap;
      t->buf[type] = mem;
      __zeroinst_buf[2 * type] = t->buf[type];
    }
  else
    flush_buffer (t, type);
  __zeroinst_buf[2 * type + 1] = t->buf[type] + t->capacity;
  t->busy = 0;
  return __zeroinst_buf[2 * type];
}

void
__zeroinst_record (const struct zi_site *site, uint64_t addr, uint64_t lo, uint64_t hi)
{
  unsigned type = site->type < ZI_NTYPES ? site->type : ZI_OTHER;
  struct zi_entry *cur = __zeroinst_buf[2 * type];
  if (cur + 1 > __zeroinst_buf[2 * type + 1] || !cur)
    cur = __zeroinst_refill (type, 1);
  cur->site = site;
  cur->addr = addr;
  cur->lo = lo;
  cur->hi = hi;
  __zeroinst_buf[2 * type] = cur + 1;
}

/* Add the totals of T's live counters to OUT (one row per kind).  */
static void
add_counter_totals (const struct zi_thread *t, struct zi_totals *out)
{
  size_t nsites = zi_site_count ();
  for (size_t slot = 1; slot < t->ncounters && slot <= nsites; slot++)
    {
      const struct zi_counters *c = &t->counters[slot];
      if (!c->elements)
        continue;
      const struct zi_site_info *s = zi_site_get ((int32_t) slot);
      struct zi_totals *k = &out[zi_types[s->type].kind];
      k->elements += c->elements;
      k->bytes += zi_counters_bytes (s, c);
      k->redundant_bytes += c->redundant_bytes;
      k->zero_elements += c->zero_elements;
    }
}

/* T's totals: what it gathered before it ended (if it did) plus its live
   counters.  */
void
zi_thread_totals (const struct zi_thread *t, struct zi_totals *out)
{
  memcpy (out, t->totals, sizeof t->totals);
  add_counter_totals (t, out);
}

void
zi_counters_add (struct zi_counters **dst, size_t *n, const struct zi_counters *src, size_t nsrc)
{
  if (*n < nsrc)
    {
      struct zi_counters *d = realloc (*dst, nsrc * sizeof *d);
      if (!d)
        abort ();
      memset (d + *n, 0, (nsrc - *n) * sizeof *d);
      *dst = d;
      *n = nsrc;
    }
  for (size_t i = 0; i < nsrc; i++)
    {
      (*dst)[i].elements += src[i].elements;
      (*dst)[i].redundant_bytes += src[i].redundant_bytes;
      (*dst)[i].zero_elements += src[i].zero_elements;
      (*dst)[i].or_lo |= src[i].or_lo;
      (*dst)[i].or_hi |= src[i].or_hi;
    }
}

/* pthread key destructor: the thread is ending.  Fold its counters into
   the ended-threads table, keep its totals, free its buffers.  Should
   instrumented code run later in this thread (another TLS destructor), the
   NULL cursors make it register buffers again and this runs once more.  */
static void
thread_ended (void *arg)
{
  struct zi_thread *t = arg;
  t->busy = 1;
  zi_flush_thread (t);
  pthread_mutex_lock (&zi_lock);
  add_counter_totals (t, t->totals);
  zi_counters_add (&zi_ended_counters, &zi_ended_ncounters, t->counters, t->ncounters);
  free (t->counters);
  t->counters = NULL;
  t->ncounters = 0;
  t->ended = 1;
  pthread_mutex_unlock (&zi_lock);
  for (unsigned type = 0; type < ZI_NTYPES; type++)
    {
      if (t->buf[type])
        munmap (t->buf[type], t->capacity * sizeof (struct zi_entry));
      t->buf[type] = NULL;
      __zeroinst_buf[2 * type] = __zeroinst_buf[2 * type + 1] = NULL;
    }
  t->busy = 0;
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
          munmap (t->buf[type], t->capacity * sizeof (struct zi_entry));
      free (t->counters);
      free (t);
    }
  free (zi_ended_counters);
  zi_ended_counters = NULL;
  zi_ended_ncounters = 0;
  zi_threads = me;
  next_id = 0;
  if (me)
    {
      me->next = NULL;
      me->id = next_id++;
      me->tid = (pid_t) syscall (SYS_gettid);
      me->ended = 0;
      memset (me->totals, 0, sizeof me->totals);
      if (me->counters)
        memset (me->counters, 0, me->ncounters * sizeof *me->counters);
      for (unsigned type = 0; type < ZI_NTYPES; type++)
        if (me->buf[type])
          __zeroinst_buf[2 * type] = me->buf[type];
    }
}
