/* report_json.c - report.json, as SPEC §6 defines it ("zeroinst-report-1").

   Added keys: "other" (loads not analysed: aggregate copies and values
   without a type class, with their byte counts), "elem_type" per record,
   "lanes" (elements per load), and per call-path frame "inlined": true
   (GCC inlined this frame into the next) and "parallel_region": true (an
   OpenMP outlined body, shown under its source function's name).  Byte
   maps: byte_map.c.  */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "runtime.h"

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
json_data_record (FILE *f, const struct zi_data_record *r)
{
  fprintf (f, "    {\"kind\": \"%s\", \"object\": \"%s\", ", zi_kind_name ((enum zi_kind) r->kind),
           r->cls == ZI_CLASS_STATIC ? "static" : "heap");
  if (r->cls == ZI_CLASS_STATIC)
    {
      fputs ("\"name\": ", f);
      json_string (f, r->name);
      fputs (", \"symbol\": ", f);
      json_string (f, r->group->symbol);
      fputs (", \"module\": ", f);
      json_string (f, r->module ? r->module : "");
    }
  else
    {
      fputs ("\"allocator\": ", f);
      json_string (f, r->allocator);
      fputs (",\n     \"alloc_path\": ", f);
      json_path (f, &r->path);
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
zi_write_json (const struct zi_report *r, FILE *f)
{
  fputs ("{\n  \"format\": \"zeroinst-report-1\",\n  \"program\": ", f);
  json_string (f, r->program);
  fprintf (f, ",\n  \"pid\": %d,\n  \"arch\": ", (int) r->pid);
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
      static const char *const classes[ZI_NCLASSES] = { "static", "heap", "stack", "unknown" };
      fputs (",\n    \"data\": {", f);
      for (int c = 0; c < ZI_NCLASSES; c++)
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
  fputs ("\n  ],\n  \"data\": [", f);
  for (size_t i = 0; i < r->ndata; i++)
    {
      fputs (i ? ",\n" : "\n", f);
      json_data_record (f, &r->data[i]);
    }
  fputs ("\n  ]\n}\n", f);
  return fflush (f) == 0 && !ferror (f) ? 0 : -1;
}
