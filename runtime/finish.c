/* finish.c - merge all threads and write the report directory.

   Called at exit, before exec and on fatal signals (lifecycle.c, exec.c).
   Every live thread's buffers are flushed (other threads may still be
   running at exit; their buffered entries up to their cursor are taken),
   all counters are summed per site, and report.json and summary.txt are
   written.  It may run more than once (a failed exec, then exit): each run
   rewrites the report with everything gathered so far.  */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "runtime.h"

static char start_dir[PATH_MAX];
static pid_t start_pid;

/* Remember where the program started: a relative ZEROINST_OUTPUT and the
   default directory are relative to it, even if the program chdir()s.
   Called from the runtime's initialization (which may run before any
   constructor, from .preinit_array code).  */
void
zi_remember_start (void)
{
  if (!getcwd (start_dir, sizeof start_dir))
    strcpy (start_dir, ".");
  start_pid = getpid ();
}

static const char *
program_path (void)
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

/* mkdir -p PATH.  */
static int
make_dirs (char *path)
{
  for (char *p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        int r = mkdir (path, 0777);
        *p = '/';
        if (r != 0 && errno != EEXIST)
          return -1;
      }
  return mkdir (path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* The report directory for this process, into OUT.  */
static void
output_dir (char *out, size_t size)
{
  char name[PATH_MAX];
  pid_t pid = getpid ();
  /* Started from .preinit_array code, the runtime read the environment
     before it was set up: look again.  */
  if (!zi_config.output && getenv ("ZEROINST_OUTPUT") && *getenv ("ZEROINST_OUTPUT"))
    zi_config.output = strdup (getenv ("ZEROINST_OUTPUT"));
  if (zi_config.output)
    {
      /* Expand %p; a forked child without %p gets "-<pid>" appended.  */
      size_t n = 0;
      int has_pid = 0;
      for (const char *s = zi_config.output; *s && n + 24 < sizeof name; s++)
        if (s[0] == '%' && s[1] == 'p')
          {
            n += (size_t) snprintf (name + n, sizeof name - n, "%d", (int) pid);
            has_pid = 1;
            s++;
          }
        else
          name[n++] = *s;
      name[n] = '\0';
      if (!has_pid && pid != start_pid)
        snprintf (name + n, sizeof name - n, "-%d", (int) pid);
    }
  else
    {
      const char *prog = program_path ();
      const char *base = strrchr (prog, '/');
      if (snprintf (name, sizeof name, "zeroinst-%s-%d",
                    base ? base + 1 : (*prog ? prog : "program"), (int) pid) >= (int) sizeof name)
        name[sizeof name - 1] = '\0';
    }
  int n = name[0] == '/' ? snprintf (out, size, "%s", name)
                         : snprintf (out, size, "%s/%s", start_dir, name);
  if (n < 0 || (size_t) n >= size)
    out[size - 1] = '\0';    /* too long: mkdir reports it */
}

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
  return r ? r : zi_frames_cmp (&x->path, &y->path);
}

/* Records with the same site and the same path are one record.  */
static int
by_site_and_path (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  return zi_frames_cmp (&x->path, &y->path);
}

/* Append the cells of TAB to R's records (paths resolved).  */
static void
add_cells (struct zi_report *r, size_t *cap, const struct zi_table *tab)
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
      zi_record_path (rec->site, zi_ctx_is_node (cell->ctx) ? cell->ctx : NULL, &rec->path);
      rec->c = cell->c;
      rec->c.redundant_bytes = zi_counters_redundant (rec->site, &cell->c);
    }
}

/* Sort R's records by (site, path) and merge equal neighbours (a context
   reached in several threads), then compute the totals.  */
static void
merge_records (struct zi_report *r)
{
  qsort (r->records, r->nrecords, sizeof *r->records, by_site_and_path);
  size_t out = 0;
  for (size_t i = 0; i < r->nrecords; i++)
    {
      struct zi_record *rec = &r->records[i];
      if (out && by_site_and_path (&r->records[out - 1], rec) == 0)
        {
          struct zi_counters *d = &r->records[out - 1].c;
          d->elements += rec->c.elements;
          d->redundant_bytes += rec->c.redundant_bytes;
          d->zero_elements += rec->c.zero_elements;
          d->or_lo |= rec->c.or_lo;
          d->or_hi |= rec->c.or_hi;
          free (rec->path.f);
          continue;
        }
      r->records[out++] = *rec;
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
  qsort (r->records, r->nrecords, sizeof *r->records, by_redundancy);
}

/* Wait up to a second for zi_lock: a fatal signal may arrive while another
   thread holds it.  */
static int
lock_for_report (int from_signal)
{
  if (!from_signal)
    return pthread_mutex_lock (&zi_lock) == 0;
  for (int i = 0; i < 1000; i++)
    {
      if (pthread_mutex_trylock (&zi_lock) == 0)
        return 1;
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
  return 0;
}

void
zi_finish (const char *why)
{
  zi_init ();
  int from_signal = !strcmp (why, "signal");
  if (zi_in_runtime)
    {
      zi_warn ("report not written: %s inside the runtime", why);
      return;
    }
  zi_in_runtime++;
  if (!lock_for_report (from_signal))
    {
      zi_warn ("report not written: runtime busy in another thread");
      zi_in_runtime--;
      return;
    }

  /* Flush every live thread, then take the counters of ended threads and
     of every live thread.  */
  struct zi_report r;
  memset (&r, 0, sizeof r);
  r.program = program_path ();
  r.pid = getpid ();
  r.arch = arch_name ();
  size_t nthreads = 0, cap = 0;
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    {
      zi_flush_thread (t);
      nthreads++;
    }
  add_cells (&r, &cap, &zi_ended_counters);
  r.threads = calloc (nthreads ? nthreads : 1, sizeof *r.threads);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    {
      add_cells (&r, &cap, &t->counters);
      struct zi_thread_row *row = &r.threads[nthreads - 1 - r.nthreads++];
      row->id = t->id;
      row->merged = t->merged;
      zi_thread_totals (t, row->totals);
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
    zi_data_records (&r);
  pthread_mutex_unlock (&zi_lock);

  /* A forked child that loaded nothing itself leaves no report behind.  */
  int empty = !r.totals[ZI_KIND_INT].elements && !r.totals[ZI_KIND_FLOAT].elements
              && !r.totals[ZI_KIND_OTHER].elements;
  if (!(empty && r.pid != start_pid))
    {
      char dir[PATH_MAX], path[PATH_MAX + 32];
      output_dir (dir, sizeof dir);
      if (make_dirs (dir) != 0)
        zi_warn ("cannot create report directory %s: %s", dir, strerror (errno));
      else
        {
          snprintf (path, sizeof path, "%s/report.json", dir);
          int ok = zi_write_json (&r, path) == 0;
          snprintf (path, sizeof path, "%s/summary.txt", dir);
          ok &= zi_write_summary (&r, path) == 0;
          if (ok && zi_config.verbose)
            zi_warn ("report written to %s", dir);
        }
    }
  for (size_t i = 0; i < r.nrecords; i++)
    free (r.records[i].path.f);
  free (r.records);
  free (r.threads);
  zi_data_records_free (&r);
  zi_in_runtime--;
}
