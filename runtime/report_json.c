/* report_json.c - report.json, as SPEC §6 defines it ("zeroinst-report-1").

   Added keys: "other" (loads not analysed: aggregate copies and values
   without a type class, with their byte counts), "elem_type" per record,
   "lanes" (elements per load), and per call-path frame "inlined": true
   (GCC inlined this frame into the next) and "parallel_region": true (an
   OpenMP outlined body, shown under its source function's name).  */
#include <stdio.h>
#include "runtime.h"

static void
json_string (FILE *f, const char *s)
{
  fputc ('"', f);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        fprintf (f, "\\%c", *p);
      else if (*p < 0x20)
        fprintf (f, "\\u%04x", *p);
      else
        fputc (*p, f);
    }
  fputc ('"', f);
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
json_site (FILE *f, const struct zi_site_info *s)
{
  fputs ("{\"file\": ", f);
  json_string (f, s->file);
  fprintf (f, ", \"line\": %u, \"column\": %u, \"function\": ", s->line, s->column);
  json_string (f, s->function);
  fputs (", \"expr\": ", f);
  json_string (f, s->expr);
  fputc ('}', f);
}

static void
json_path (FILE *f, const struct zi_frames *path)
{
  fputs ("[", f);
  for (size_t i = 0; i < path->n; i++)
    {
      const struct zi_frame *fr = &path->f[i];
      fputs (i ? ",\n       {\"function\": " : "{\"function\": ", f);
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
  fputs ("]", f);
}

static void
json_record (FILE *f, const struct zi_record *rec)
{
  const struct zi_site_info *s = rec->site;
  const struct zi_type_info *ti = &zi_types[s->type];
  char redmap[64];
  zi_redmap (s, &rec->c, redmap, sizeof redmap);
  fprintf (f, "    {\"kind\": \"%s\", \"site\": ", zi_kind_name (ti->kind));
  json_site (f, s);
  fprintf (f, ",\n     \"elem_type\": \"%s\", \"elem_bytes\": %u, \"access_bytes\": %u, "
              "\"lanes\": %u,\n     \"loads\": %llu, \"elements\": %llu, \"bytes\": %llu, "
              "\"redundant_bytes\": %llu, \"zero_elements\": %llu, \"redmap\": \"%s\",\n"
              "     \"call_path\": ",
           ti->name, ti->elem_bytes ? ti->elem_bytes : s->access_bytes, s->access_bytes,
           s->lanes, (unsigned long long) zi_counters_loads (s, &rec->c),
           (unsigned long long) rec->c.elements,
           (unsigned long long) zi_counters_bytes (s, &rec->c),
           (unsigned long long) rec->c.redundant_bytes,
           (unsigned long long) rec->c.zero_elements, redmap);
  json_path (f, &rec->path);
  fputs ("}", f);
}

static void
json_other (FILE *f, const struct zi_record *rec)
{
  fputs ("    {\"site\": ", f);
  json_site (f, rec->site);
  fprintf (f, ", \"access_bytes\": %u, \"loads\": %llu, \"bytes\": %llu, \"call_path\": ",
           rec->site->access_bytes, (unsigned long long) rec->c.elements,
           (unsigned long long) zi_counters_bytes (rec->site, &rec->c));
  json_path (f, &rec->path);
  fputc ('}', f);
}

int
zi_write_json (const struct zi_report *r, const char *path)
{
  FILE *f = fopen (path, "w");
  if (!f)
    {
      zi_warn ("cannot write %s: %m", path);
      return -1;
    }
  fputs ("{\n  \"format\": \"zeroinst-report-1\",\n  \"program\": ", f);
  json_string (f, r->program);
  fprintf (f, ",\n  \"pid\": %d,\n  \"arch\": ", (int) r->pid);
  json_string (f, r->arch);
  fputs (",\n  \"modes\": [\"code\"],\n  \"sampling\": ", f);
  if (zi_config.sample_n)
    fprintf (f, "{\"analysed_buffers\": %u, \"of_every\": %u, \"buffer_entries\": %zu, "
                "\"analysed_elements\": %llu, \"discarded_elements\": %llu}",
             zi_config.sample_k, zi_config.sample_n, zi_config.buffer_entries,
             (unsigned long long) zi_sampled_entries, (unsigned long long) zi_skipped_entries);
  else
    fputs ("null", f);
  fputs (",\n  \"summary\": {\n    \"int\": ", f);
  json_totals (f, &r->totals[ZI_KIND_INT]);
  fputs (",\n    \"float\": ", f);
  json_totals (f, &r->totals[ZI_KIND_FLOAT]);
  fprintf (f, ",\n    \"other\": {\"loads\": %llu, \"bytes\": %llu}\n  },\n  \"threads\": [",
           (unsigned long long) r->totals[ZI_KIND_OTHER].elements,
           (unsigned long long) r->totals[ZI_KIND_OTHER].bytes);
  for (size_t i = 0; i < r->nthreads; i++)
    {
      fprintf (f, "%s\n    {\"thread\": %u, \"int\": ", i ? "," : "", r->threads[i].id);
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
        fputs (first ? "\n" : ",\n", f);
        json_record (f, &r->records[i]);
        first = 0;
      }
  fputs ("\n  ],\n  \"other\": [", f);
  first = 1;
  for (size_t i = 0; i < r->nrecords; i++)
    if (zi_types[r->records[i].site->type].kind == ZI_KIND_OTHER)
      {
        fputs (first ? "\n" : ",\n", f);
        json_other (f, &r->records[i]);
        first = 0;
      }
  fputs ("\n  ],\n  \"data\": []\n}\n", f);
  if (fclose (f) != 0)
    {
      zi_warn ("cannot write %s: %m", path);
      return -1;
    }
  return 0;
}
