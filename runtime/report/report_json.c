/* report_json.c - report.json in the compact form SPEC §6 allows
   ("zeroinst-report-2"): every load site and every calling context is
   stored once.

   Format 1 gave each record its site and its whole call path.  A large
   program's records share most of both (sqlite3 speedtest1 in code mode:
   295,225 records of 7,178 sites; 518 MB, written in 2.0-2.1 s after a
   2.0 s run), so format 2 keeps three tables instead, written after the
   records:

     "sites":    [{"kind", "file", "line", "column", "function", "expr",
                   "elem_type", "elem_bytes", "access_bytes", "lanes"
                   [, "copies"]}, ...]
                 each site of a code or other record once;
     "frames":   [{"function", "file", "line"[, "inlined"][, "parallel_region"]}, ...]
                 every distinct frame once;
     "contexts": [[FRAME, PARENT], ...]
                 every distinct path once, as its innermost frame (an index
                 into frames) and the path of its caller (an index into
                 contexts, always an earlier one; -1 for the outermost frame);

   (frames and contexts are the report's path table, contexts/callpath.c).
   A record names its site by "site" (an index into sites) and its path by
   "context" (code and other records) or "alloc_context" (heap objects),
   -1 for an empty path.  A record's format-1 "call_path" is
   frames[contexts[c][0]], then the path of contexts[c][1], and so on; its
   format-1 "site" object is the entry's file, line, column, function and
   expr, and a code record has the entry's kind, elem_type, elem_bytes,
   access_bytes and lanes (an "other" record its access_bytes).
   `zeroinst export --format json-v1` writes format 1 back
   (tool/export.c).

   Other keys beyond SPEC §6: "other" (loads not analysed: aggregate
   copies and values without a type class, with their byte counts),
   "elem_type" per site, "lanes" (elements per load), "copies" (when
   more than one: the copies GCC made of the load, one site, core/sites.c), and per frame
   "inlined": true (GCC inlined this frame into the next) and
   "parallel_region": true (an OpenMP outlined body, shown under its source
   function's name); "rank", the MPI rank the launcher gave the process
   (output.c, zi_output_rank), when it did; per code record, when the
   program ran more than one thread, "thread": the thread that loaded it
   (-1: threads that ended before the report, whose counters are merged),
   or "threads": [[thread, loads, elements, bytes, redundant_bytes,
   zero_elements, redmap], ...] when several did (finish.c,
   merge_records).  Byte maps: data/byte_map.c.  */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "report/report.h"

/* Characters a JSON string must escape.  */
static const char json_special[] = "\"\\\001\002\003\004\005\006\007\010\011\012\013\014"
                                   "\015\016\017\020\021\022\023\024\025\026\027\030"
                                   "\031\032\033\034\035\036\037";

static void
json_string (FILE *f, const char *s)
{
  fputc ('"', f);
  /* Runs of plain characters in one write: reports of large programs
     hold hundreds of megabytes of call paths.  */
  for (;;)
    {
      size_t run = strcspn (s, json_special);
      fwrite (s, 1, run, f);
      s += run;
      if (!*s)
        break;
      if (*s == '"' || *s == '\\')
        fprintf (f, "\\%c", *s);
      else
        fprintf (f, "\\u%04x", (unsigned char) *s);
      s++;
    }
  fputc ('"', f);
}

/* Text made in a buffer, for the lines written once per record or path,
   and written without stdio's lock (the file is the reporting thread's
   alone): fprintf's conversions were a sixth of sqlite3 speedtest1's
   report time (295,225 records, 331,187 paths).  */
static char *
put_u64 (char *p, unsigned long long v)
{
  char digits[20];
  int n = 0;
  do
    digits[n++] = (char) ('0' + v % 10);
  while (v /= 10);
  while (n)
    *p++ = digits[--n];
  return p;
}

static char *
put_i64 (char *p, long long v)
{
  if (v >= 0)
    return put_u64 (p, (unsigned long long) v);
  *p++ = '-';
  return put_u64 (p, -(unsigned long long) v);
}

/* S, a literal or a string without characters JSON escapes.  */
static char *
put_str (char *p, const char *s)
{
  size_t n = strlen (s);
  memcpy (p, s, n);
  return p + n;
}

static void
json_totals (FILE *f, const struct zi_totals *t)
{
  fprintf (f, "{\"elements\": %llu, \"bytes\": %llu, \"redundant_bytes\": %llu, "
              "\"zero_elements\": %llu}",
           (unsigned long long) t->elements, (unsigned long long) t->bytes,
           (unsigned long long) t->redundant_bytes, (unsigned long long) t->zero_elements);
}

static void
json_frame (FILE *f, const struct zi_frame *fr)
{
  fputs ("{\"function\": ", f);
  json_string (f, fr->function);
  fputs (", \"file\": ", f);
  json_string (f, fr->file);
  fprintf (f, ", \"line\": %u", fr->line);
  if (fr->inlined)
    fputs (", \"inlined\": true", f);
  if (fr->omp_region)
    fputs (", \"parallel_region\": true", f);
  fputc ('}', f);
}

/* The path table (contexts/callpath.c): "frames" and "contexts".  */
static void
json_tables (FILE *f, const struct zi_paths *t)
{
  fputs (",\n  \"frames\": [", f);
  for (size_t i = 0; i < t->nframes; i++)
    {
      fputs (i ? ",\n    " : "\n    ", f);
      json_frame (f, &t->frames[i]);
    }
  fputs ("\n  ],\n  \"contexts\": [", f);
  for (size_t i = 0; i < t->nctx; i++)
    {
      char line[64], *p = put_str (line, i % 8 ? ", [" : i ? ",\n    [" : "\n    [");
      p = put_u64 (p, t->ctx[i].frame);
      p = put_str (p, ", ");
      p = put_i64 (p, t->ctx[i].parent);
      *p++ = ']';
      fwrite_unlocked (line, 1, (size_t) (p - line), f);
    }
  fputs ("\n  ]", f);
}

/* The sites table: each site of a record once, numbered as met.  */
struct sites {
  struct zi_ptrmap index;             /* site -> its number */
  const struct zi_site_info **list;
  size_t n, cap;
};

static int32_t
site_index (struct sites *t, const struct zi_site_info *s)
{
  int32_t *i = zi_ptrmap_at (&t->index, s);
  if (*i != ZI_PTRMAP_NEW)
    return *i;
  if (t->n == t->cap)
    {
      t->cap = t->cap ? 2 * t->cap : 1024;
      t->list = realloc (t->list, t->cap * sizeof *t->list);
      if (!t->list)
        abort ();
    }
  t->list[t->n] = s;
  return *i = (int32_t) t->n++;
}

static void
json_sites (FILE *f, const struct sites *t)
{
  fputs (",\n  \"sites\": [", f);
  for (size_t i = 0; i < t->n; i++)
    {
      const struct zi_site_info *s = t->list[i];
      const struct zi_type_info *ti = &zi_types[s->type];
      fprintf (f, "%s{\"kind\": \"%s\", \"file\": ", i ? ",\n    " : "\n    ",
               zi_kind_name (ti->kind));
      json_string (f, s->file);
      fprintf (f, ", \"line\": %u, \"column\": %u, \"function\": ", s->line, s->column);
      json_string (f, s->function);
      fputs (", \"expr\": ", f);
      json_string (f, s->expr);
      fprintf (f, ", \"elem_type\": \"%s\", \"elem_bytes\": %u, \"access_bytes\": %u, "
                  "\"lanes\": %u",
               ti->name, ti->elem_bytes ? ti->elem_bytes : s->access_bytes, s->access_bytes,
               s->lanes);
      if (s->copies > 1)
        fprintf (f, ", \"copies\": %u", s->copies);
      fputc ('}', f);
    }
  fputs ("\n  ]", f);
}

/* The id of thread T of record threads (a row of R, or ZI_ENDED_THREADS:
   -1).  */
static long
thread_id (const struct zi_report *r, int32_t t)
{
  return t >= 0 && (size_t) t < r->nthreads ? (long) r->threads[t].id : -1L;
}

/* A record's or a thread share's loads, elements, bytes, redundant bytes,
   zero elements and redmap at P, each after its name (NAMES: the six
   names with their punctuation, or NULL for a list).  */
static char *
put_counters (char *p, const struct zi_site_info *s, const struct zi_counters *c,
              const char *const *names)
{
  static const char *const list[6] = { "", ", ", ", ", ", ", ", ", ", \"" };
  const char *const *n = names ? names : list;
  char redmap[64];
  zi_redmap (s, c, redmap, sizeof redmap);
  p = put_u64 (put_str (p, n[0]), zi_counters_loads (s, c));
  p = put_u64 (put_str (p, n[1]), c->elements);
  p = put_u64 (put_str (p, n[2]), zi_counters_bytes (s, c));
  p = put_u64 (put_str (p, n[3]), c->redundant_bytes);
  p = put_u64 (put_str (p, n[4]), c->zero_elements);
  p = put_str (put_str (p, n[5]), redmap);
  *p++ = '"';
  return p;
}

/* A code record, after SEP.  */
static void
json_record (FILE *f, const char *sep, struct sites *sites, const struct zi_report *r,
             const struct zi_record *rec)
{
  static const char *const names[6] = {
    ", \"loads\": ", ", \"elements\": ", ", \"bytes\": ", ", \"redundant_bytes\": ",
    ", \"zero_elements\": ", ", \"redmap\": \""
  };
  const struct zi_site_info *s = rec->site;
  char line[512];     /* 8 names, 9 numbers and a redmap of 64 at most */
  char *p = put_i64 (put_str (put_str (line, sep), "    {\"site\": "), site_index (sites, s));
  p = put_counters (p, s, &rec->c, names);
  p = put_i64 (put_str (p, ", \"context\": "), rec->path);
  /* Which thread loaded it (left out when one thread did all): one id
     (-1: threads that ended before the report, merged), or each thread's
     share as [thread, loads, elements, bytes, redundant_bytes,
     zero_elements, redmap].  */
  if (rec->thread >= ZI_ENDED_THREADS)
    {
      if (r->nthreads > 1 || rec->thread != 0)
        p = put_i64 (put_str (p, ", \"thread\": "), thread_id (r, rec->thread));
      *p++ = '}';
      fwrite_unlocked (line, 1, (size_t) (p - line), f);
      return;
    }
  fwrite_unlocked (line, 1, (size_t) (p - line), f);
  fputs (", \"threads\": [", f);
  for (size_t i = ZI_FIRST_PART (rec->thread), first = i;; i++)
    {
      const struct zi_thread_part *part = &r->parts[i];
      p = put_i64 (put_str (line, i > first ? ", [" : "["), thread_id (r, part->thread));
      p = put_counters (put_str (p, ", "), s, &part->c, NULL);
      *p++ = ']';
      fwrite_unlocked (line, 1, (size_t) (p - line), f);
      if (part->last)
        break;
    }
  fputs ("]}", f);
}

static void
json_data_record (FILE *f, const struct zi_data_record *r)
{
  fprintf (f, "    {\"kind\": \"%s\", \"object\": \"%s\", ", zi_kind_name ((enum zi_kind) r->kind),
           r->storage == ZI_STORAGE_STATIC ? "static" : "heap");
  if (r->storage == ZI_STORAGE_STATIC)
    {
      fputs ("\"name\": ", f);
      json_string (f, r->name);
      fputs (", \"symbol\": ", f);
      json_string (f, r->group->symbol);
      fputs (", \"module\": ", f);
      json_string (f, r->module ? r->module : "");
      if (r->descriptor)
        fputs (", \"descriptor\": true", f);
      if (r->thread_local)
        fputs (", \"thread_local\": true", f);
    }
  else
    {
      if (r->variable)
        {
          fputs ("\"variable\": ", f);
          json_string (f, r->variable);
          fputs (", ", f);
        }
      fputs ("\"allocator\": ", f);
      json_string (f, r->allocator);
      fprintf (f, ", \"alloc_context\": %d", (int) r->path);
    }
  fprintf (f, ",\n     \"allocations\": %llu, \"size\": %llu, \"elements\": %llu, \"bytes\": %llu, "
              "\"redundant_bytes\": %llu, \"zero_elements\": %llu,\n     \"never_loaded_bytes\": %llu, "
              "\"always_zero_bytes\": %llu,\n     \"byte_map\": ",
           (unsigned long long) r->allocations, (unsigned long long) r->size,
           (unsigned long long) r->c.elements, (unsigned long long) r->c.bytes,
           (unsigned long long) r->c.redundant_bytes, (unsigned long long) r->c.zero_elements,
           (unsigned long long) r->never_loaded, (unsigned long long) r->always_zero);
  const struct zi_map *m = r->borrowed ? r->borrowed : &r->map;
  if (r->single)
    zi_write_object_map (f, r->kind, r->object.base, r->object.size, r->length);
  else
    zi_write_byte_map (f, m, m->bits ? m->shift : zi_map_shift (r->length), r->length);
  fputc ('}', f);
}

static void
json_other (FILE *f, struct sites *sites, const struct zi_record *rec)
{
  fprintf (f, "    {\"site\": %d, \"loads\": %llu, \"bytes\": %llu, \"context\": %d}",
           (int) site_index (sites, rec->site), (unsigned long long) rec->c.elements,
           (unsigned long long) zi_counters_bytes (rec->site, &rec->c), (int) rec->path);
}

int
zi_write_json (const struct zi_report *r, FILE *f)
{
  struct sites sites = { 0 };
  fputs ("{\n  \"format\": \"zeroinst-report-2\",\n  \"program\": ", f);
  json_string (f, r->program);
  fprintf (f, ",\n  \"pid\": %d,", (int) r->pid);
  /* The MPI rank the launcher gave the process, when it did.  */
  const char *rank = zi_output_rank ();
  if (rank)                          /* (as a number: "007" is 7) */
    fprintf (f, "\n  \"rank\": %llu,", strtoull (rank, NULL, 10));
  fputs ("\n  \"arch\": ", f);
  json_string (f, r->arch);
  fprintf (f, ",\n  \"modes\": [%s],\n  \"sampling\": ",
           zi_config.mode_code && zi_data_on ? "\"code\", \"data\""
           : zi_data_on                       ? "\"data\""
                                              : "\"code\"");
  fputs ("null", f);        /* every load is counted (SPEC: no sampling option) */
  fputs (",\n  \"summary\": {\n    \"int\": ", f);
  json_totals (f, &r->totals[ZI_KIND_INT]);
  fputs (",\n    \"float\": ", f);
  json_totals (f, &r->totals[ZI_KIND_FLOAT]);
  fprintf (f, ",\n    \"other\": {\"loads\": %llu, \"bytes\": %llu}",
           (unsigned long long) r->totals[ZI_KIND_OTHER].elements,
           (unsigned long long) r->totals[ZI_KIND_OTHER].bytes);
  if (zi_data_on)
    {
      /* Data mode: elements by the memory they were loaded from.  */
      static const char *const classes[ZI_NSTORAGE] = { "static", "heap", "stack", "unknown" };
      fputs (",\n    \"data\": {", f);
      for (int c = 0; c < ZI_NSTORAGE; c++)
        {
          fprintf (f, "%s\n      \"%s\": {\"int\": ", c ? "," : "", classes[c]);
          json_totals (f, &r->data_totals[c][ZI_KIND_INT]);
          fputs (", \"float\": ", f);
          json_totals (f, &r->data_totals[c][ZI_KIND_FLOAT]);
          fputc ('}', f);
        }
      fputs ("}", f);
    }
  fputs ("\n  },\n  \"threads\": [", f);
  for (size_t i = 0; i < r->nthreads; i++)
    {
      fprintf (f, "%s\n    {\"thread\": %u, ", i ? "," : "", r->threads[i].id);
      if (r->threads[i].merged)
        fprintf (f, "\"merged_threads\": %u, ", r->threads[i].merged);
      fputs ("\"int\": ", f);
      json_totals (f, &r->threads[i].totals[ZI_KIND_INT]);
      fputs (", \"float\": ", f);
      json_totals (f, &r->threads[i].totals[ZI_KIND_FLOAT]);
      fputc ('}', f);
    }
  fputs ("\n  ],\n  \"code\": [", f);
  int first = 1;
  for (size_t i = 0; i < r->nrecords; i++)
    if (zi_types[r->records[i].site->type].kind != ZI_KIND_OTHER)
      {
        json_record (f, first ? "\n" : ",\n", &sites, r, &r->records[i]);
        first = 0;
      }
  fputs ("\n  ],\n  \"other\": [", f);
  first = 1;
  for (size_t i = 0; i < r->nrecords; i++)
    if (zi_types[r->records[i].site->type].kind == ZI_KIND_OTHER)
      {
        fputs (first ? "\n" : ",\n", f);
        json_other (f, &sites, &r->records[i]);
        first = 0;
      }
  fputs ("\n  ],\n  \"data\": [", f);
  for (size_t i = 0; i < r->ndata; i++)
    {
      fputs (i ? ",\n" : "\n", f);
      json_data_record (f, &r->data[i]);
    }
  fputs ("\n  ]", f);
  json_sites (f, &sites);
  zi_ptrmap_free (&sites.index);
  free (sites.list);
  json_tables (f, &r->paths);
  fputs ("\n}\n", f);
  return fflush (f) == 0 && !ferror (f) ? 0 : -1;
}
