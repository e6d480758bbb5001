/* finish.c - merge all threads and write the report directory.

   Called at exit, before exec and on fatal signals (lifecycle.c, exec.c).
   Every live thread's counter and data slots are taken (other threads may
   still be running at exit: their slots are read, not cleared), all
   counters are summed per site, and report.json and summary.txt are
   written.  It may run more than once (a failed exec, then exit): each run
   rewrites the report with everything gathered so far.  */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "runtime.h"
#include "shadow.h"

const char *
zi_program_path (void)
{
  static char path[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  return path;
}

static const char *
arch_name (void)
{
  static struct utsname u;
  if (uname (&u) == 0)
    return u.machine;
  return "unknown";
}

/* The path table the comparisons below read (qsort has no argument for
   it; the report is built under zi_lock).  */
static const struct zi_paths *sort_paths;

static int
by_redundancy (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  if (x->c.redundant_bytes != y->c.redundant_bytes)
    return x->c.redundant_bytes < y->c.redundant_bytes ? 1 : -1;
  int r = strcmp (x->site->file, y->site->file);
  if (r)
    return r;
  if (x->site->line != y->site->line)
    return x->site->line < y->site->line ? -1 : 1;
  if (x->site->column != y->site->column)
    return x->site->column < y->site->column ? -1 : 1;
  r = strcmp (x->site->expr, y->site->expr);
  return r ? r : zi_paths_cmp (sort_paths, x->path, y->path);
}

/* Records with the same site and the same path are one record.  */
static int
by_site_and_path (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  return x->path < y->path ? -1 : x->path > y->path;
}

/* by_site_and_path, then by thread.  */
static int
by_site_path_and_thread (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  int r = by_site_and_path (a, b);
  return r ? r : x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Add the counters FROM to TO.  */
static void
counters_add (struct zi_counters *to, const struct zi_counters *from)
{
  to->elements += from->elements;
  to->redundant_bytes += from->redundant_bytes;
  to->zero_elements += from->zero_elements;
  to->or_lo |= from->or_lo;
  to->or_hi |= from->or_hi;
}

/* Append the cells of TAB, loaded by THREAD (a row of R, or
   ZI_ENDED_THREADS), to R's records (paths resolved).  */
static void
add_cells (struct zi_report *r, size_t *cap, const struct zi_table *tab, int32_t thread)
{
  for (size_t i = 0; tab->cells && i <= tab->mask; i++)
    {
      const struct zi_cell *cell = &tab->cells[i];
      if (!cell->slot || !cell->c.elements)
        continue;
      if (r->nrecords == *cap)
        {
          *cap = *cap ? 2 * *cap : 256;
          r->records = realloc (r->records, *cap * sizeof *r->records);
          if (!r->records)
            abort ();
        }
      struct zi_record *rec = &r->records[r->nrecords++];
      rec->site = zi_site_get (cell->slot);
      rec->path = zi_record_path (&r->paths, rec->site,
                                  zi_ctx_is_node (cell->ctx) ? cell->ctx : NULL);
      rec->thread = thread;
      rec->c = cell->c;
      rec->c.redundant_bytes = zi_counters_redundant (rec->site, &cell->c);
    }
}

/* Append PART to R's parts.  */
static void
add_part (struct zi_report *r, size_t *cap, int32_t thread, const struct zi_counters *c)
{
  if (r->nparts == *cap)
    {
      *cap = *cap ? 2 * *cap : 64;
      r->parts = realloc (r->parts, *cap * sizeof *r->parts);
      if (!r->parts)
        abort ();
    }
  r->parts[r->nparts++] = (struct zi_thread_part) { thread, 0, *c };
}

/* Sort R's records by (site, path, thread) and merge equal neighbours: one
   record per site and path.  Those that several threads loaded keep each
   thread's share in R's parts (a thread's cells of one path summed first).
   Then compute the totals.  */
static void
merge_records (struct zi_report *r)
{
  qsort (r->records, r->nrecords, sizeof *r->records, by_site_path_and_thread);
  size_t out = 0, part_cap = 0;
  for (size_t i = 0; i < r->nrecords;)
    {
      /* The run [i, j) of one site and path.  */
      size_t j = i + 1;
      while (j < r->nrecords && by_site_and_path (&r->records[i], &r->records[j]) == 0)
        j++;
      struct zi_record merged = r->records[i];
      int several = r->records[j - 1].thread != merged.thread;
      if (several)
        merged.thread = ZI_SEVERAL_THREADS (r->nparts);
      for (size_t k = i; k < j; k++)
        {
          const struct zi_record *rec = &r->records[k];
          if (k > i)
            counters_add (&merged.c, &rec->c);
          if (!several)
            continue;
          if (k > i && rec->thread == rec[-1].thread)
            counters_add (&r->parts[r->nparts - 1].c, &rec->c);
          else
            add_part (r, &part_cap, rec->thread, &rec->c);
        }
      if (several)
        r->parts[r->nparts - 1].last = 1;
      r->records[out++] = merged;
      i = j;
    }
  r->nrecords = out;
  for (size_t i = 0; i < r->nrecords; i++)
    {
      struct zi_record *rec = &r->records[i];
      struct zi_totals *k = &r->totals[zi_types[rec->site->type].kind];
      k->elements += rec->c.elements;
      k->bytes += zi_counters_bytes (rec->site, &rec->c);
      k->redundant_bytes += rec->c.redundant_bytes;
      k->zero_elements += rec->c.zero_elements;
    }
  sort_paths = &r->paths;
  qsort (r->records, r->nrecords, sizeof *r->records, by_redundancy);
}

/* Writing a report while other threads run.  Their instrumented code may
   go on (its loads after this point are not in the report), but the
   runtime's state must hold still: the reporting thread sets zi_stopping,
   makes it visible to every thread (membarrier, or a pause where the
   kernel lacks it), then waits until no other thread is inside a runtime
   section.  Meanwhile other threads' sections do no work on the runtime's
   state (zi_reporting_elsewhere: loads go to a scratch area, contexts and
   allocations are not recorded), except the few that must not lose
   anything and never run under a C library lock (a thread's end, dlclose,
   fork: zi_enter), which wait in zi_wait_stopped.  Nothing waits inside the
   allocator or in code the C library calls back under its own locks (a
   library constructor during dlopen, a dl_iterate_phdr callback), where
   waiting could deadlock with the reporter.  A thread still inside after
   STOP_TIMEOUT_MS is left out of the report, with a warning.  */
int zi_stopping;
__thread int zi_reporter __attribute__ ((tls_model ("initial-exec")));
#define STOP_TIMEOUT_MS 5000

static void
pause_us (long us)
{
  struct timespec t = { 0, us * 1000 };
  nanosleep (&t, NULL);
}

/* Wait a little outside the runtime section the caller is in (at depth
   1): signals are taken meanwhile, and a reporter does not wait for us.  */
static void
pause_outside_runtime (void)
{
  zi_in_runtime--;
  pause_us (100);
  zi_in_runtime++;
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

void
zi_wait_stopped (void)
{
  /* The reporting thread, and a thread already deeper in a section when
     the report began (the reporter waits for it), go on.  */
  if (zi_reporter || zi_in_runtime > 1)
    return;
  while (__atomic_load_n (&zi_stopping, __ATOMIC_ACQUIRE))
    pause_outside_runtime ();
}

static void
make_visible (void)
{
#ifdef SYS_membarrier
  /* MEMBARRIER_CMD_GLOBAL (1): every thread has passed a full barrier, so
     each either sees zi_stopping at its next section or had already
     published that it is inside one.  */
  if (syscall (SYS_membarrier, 1, 0) == 0)
    return;
#endif
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  pause_us (2000);
}

/* Is thread T (not the caller) inside a runtime section?  A thread that
   ended without its exit hook running again (instrumented code in the
   last round of TLS destructors) has no TLS left to read: ask the kernel
   first.  zi_lock held.  */
static int
inside_runtime (const struct zi_thread *t)
{
  if (zi_thread_is_self (t) || !t->in_runtime)
    return 0;
  if (syscall (SYS_tgkill, getpid (), t->tid, 0) != 0)
    return 0;
  return __atomic_load_n (t->in_runtime, __ATOMIC_ACQUIRE) != 0;
}

/* Become the reporting thread: wait for any other report to be done,
   then for every other thread to leave the runtime.  The caller is outside
   any runtime section; from here on it is inside one (until zi_finish
   ends), so a signal that arrives meanwhile waits for the report instead
   of starting a second one on this thread.  */
static void
stop_others (void)
{
  zi_enter_nowait ();
  while (__atomic_exchange_n (&zi_stopping, 1, __ATOMIC_ACQ_REL))
    pause_outside_runtime ();      /* another thread reports */
  zi_reporter = 1;
  make_visible ();
  for (int waited_us = 0;; waited_us += 100)
    {
      int busy = 0;
      pthread_mutex_lock (&zi_lock);
      for (struct zi_thread *t = zi_threads; t; t = t->next)
        busy |= t->busy_at_report = inside_runtime (t);
      if (busy && waited_us >= STOP_TIMEOUT_MS * 1000)
        for (struct zi_thread *t = zi_threads; t; t = t->next)
          if (t->busy_at_report)
            zi_warn ("thread %u stayed inside the runtime for %d ms: its counts are not "
                     "in the report", t->id, STOP_TIMEOUT_MS);
      pthread_mutex_unlock (&zi_lock);
      if (!busy || waited_us >= STOP_TIMEOUT_MS * 1000)
        return;
      pause_us (100);
    }
}

static void
resume_others (void)
{
  pthread_mutex_lock (&zi_lock);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    t->busy_at_report = 0;
  pthread_mutex_unlock (&zi_lock);
  zi_reporter = 0;
  __atomic_store_n (&zi_stopping, 0, __ATOMIC_RELEASE);
}

void
zi_finish (const char *why)
{
  zi_init ();
  if (zi_in_runtime)
    {
      /* Cannot happen through the exits the runtime knows (signals wait
         for the end of a section); say so rather than report from a
         half-updated state.  */
      zi_warn ("report not written: %s inside the runtime", why);
      return;
    }
  stop_others ();          /* enters the runtime */
  pthread_mutex_lock (&zi_lock);

  /* Flush every live thread, then take the counters of ended threads and
     of every live thread.  */
  struct zi_report r;
  memset (&r, 0, sizeof r);
  r.program = zi_program_path ();
  r.pid = getpid ();
  r.arch = arch_name ();
  size_t nthreads = 0, cap = 0;
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    nthreads++;
  add_cells (&r, &cap, &zi_ended_counters, ZI_ENDED_THREADS);
  r.threads = calloc (nthreads ? nthreads : 1, sizeof *r.threads);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    {
      int32_t row_index = (int32_t) (nthreads - 1 - r.nthreads);
      struct zi_thread_row *row = &r.threads[nthreads - 1 - r.nthreads++];
      row->id = t->id;
      row->merged = t->merged;
      if (t->busy_at_report)
        continue;
      /* Its counters: its table plus its slots (zi_contexts_fold), into
         the table itself for this thread, into a copy for the others.  */
      struct zi_table copy = { 0 }, *counters = &t->counters;
      if (zi_thread_is_self (t))
        zi_contexts_fold (t, &t->counters, 1);
      else
        {
          zi_table_add (&copy, &t->counters, NULL);
          zi_contexts_fold (t, &copy, 0);
          counters = &copy;
        }
      add_cells (&r, &cap, counters, row_index);
      zi_thread_totals_of (t, counters, row->totals);
      zi_table_free (&copy);
      for (int c = 0; c < ZI_NCLASSES; c++)
        for (int k = 0; k < ZI_DATA_KINDS; k++)
          {
            zi_totals_add (&r.data_totals[c][k], &t->data_totals[c][k]);
            /* Data mode alone: the thread's totals are its data totals.  */
            if (!zi_config.mode_code)
              zi_totals_add (&row->totals[k], &t->data_totals[c][k]);
          }
    }
  merge_records (&r);
  if (!zi_config.mode_code)
    for (size_t i = 0; i < r.nthreads; i++)
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        zi_totals_add (&r.totals[k], &r.threads[i].totals[k]);
  if (zi_data_on)
    {
      /* Alone, the shadow's zero pages go back before the report's
         symbolization adds its own memory (sqlite3: 20 MB of DWARF).  */
      if (__libc_single_threaded)
        zi_shadow_trim ();
      zi_data_records (&r);
    }
  pthread_mutex_unlock (&zi_lock);

  /* A process that recorded nothing leaves no report behind (configure's
     conftests, helper processes), unless ZEROINST_EMPTY_REPORT=1.  */
  int empty = !r.totals[ZI_KIND_INT].elements && !r.totals[ZI_KIND_FLOAT].elements
              && !r.totals[ZI_KIND_OTHER].elements;
  if (empty && !zi_config.empty_report)
    {
      if (zi_config.verbose)
        zi_warn ("nothing recorded: no report written");
    }
  else if (zi_output_open () == 0)
    {
      int ok = zi_output_write ("report.json", zi_write_json, &r) == 0
               && zi_output_write ("summary.txt", zi_write_summary, &r) == 0;
      if (!ok)
        zi_output_discard_if_empty ();
      else if (zi_config.verbose)
        zi_warn ("report written to %s", zi_output_dir ());
    }
  zi_paths_free (&r.paths);
  free (r.records);
  free (r.parts);
  free (r.threads);
  zi_data_records_free (&r);
  resume_others ();
  zi_leave ();     /* may deliver a deferred signal: after resume_others */
}
