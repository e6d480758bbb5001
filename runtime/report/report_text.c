/* report_text.c - summary.txt, the human-readable top records.

   Modelled on the predecessors' logs: an integer and a floating-point
   section, each with the program's redundancy and the top ZEROINST_TOP
   sites by redundant bytes.  Per site: share of the section's redundant
   bytes, local redundancy (redundant / loaded bytes), fully-zero fraction,
   redmap, element type and location.  */
#include <stdio.h>
#include "report/report.h"

static double
pct (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

static void
section (FILE *f, const struct zi_report *r, enum zi_kind kind, const char *title)
{
  const struct zi_totals *t = &r->totals[kind];
  fprintf (f, "\n== %s ==\n", title);
  fprintf (f, "redundant bytes: %llu of %llu loaded (%.2f%%); zero elements: %llu of %llu (%.2f%%)\n",
           (unsigned long long) t->redundant_bytes, (unsigned long long) t->bytes,
           pct (t->redundant_bytes, t->bytes), (unsigned long long) t->zero_elements,
           (unsigned long long) t->elements, pct (t->zero_elements, t->elements));
  unsigned shown = 0;
  for (size_t i = 0; i < r->nrecords && shown < zi_config.top; i++)
    {
      const struct zi_record *rec = &r->records[i];
      const struct zi_site_info *s = rec->site;
      if (zi_types[s->type].kind != kind)
        continue;
      char redmap[64];
      zi_redmap (s, &rec->c, redmap, sizeof redmap);
      uint64_t bytes = zi_counters_bytes (s, &rec->c);
      fprintf (f, "#%-3u share %6.2f%%  local %6.2f%%  zero %6.2f%%  redmap %-14s %s",
               ++shown, pct (rec->c.redundant_bytes, t->redundant_bytes),
               pct (rec->c.redundant_bytes, bytes), pct (rec->c.zero_elements, rec->c.elements),
               redmap, zi_types[s->type].name);
      if (s->lanes > 1)
        fprintf (f, "x%u", s->lanes);
      fprintf (f, "  loads %llu", (unsigned long long) zi_counters_loads (s, &rec->c));
      if (s->copies > 1)
        fprintf (f, "  copies %u", s->copies);
      fprintf (f, "\n     %s:%u:%u in %s%s%s\n", s->file, s->line, s->column, s->function,
               *s->expr ? ": " : "", s->expr);
      /* The call path, leaf first, as the predecessors print it.  */
      const struct zi_paths *p = &r->paths;
      for (int32_t c = rec->path; c >= 0 && p->ctx[c].parent >= 0; c = p->ctx[c].parent)
        {
          const struct zi_frame *fr = &p->frames[p->ctx[p->ctx[c].parent].frame];
          fprintf (f, "       <- %s%s%s (%s:%u)\n", fr->function,
                   fr->omp_region ? " [parallel region]" : "",
                   p->frames[p->ctx[c].frame].inlined ? " [inlined]" : "",
                   *fr->file ? fr->file : "??", fr->line);
        }
    }
  if (!shown)
    fputs ("(no loads)\n", f);
}

/* The data objects of KIND: top ZEROINST_TOP by redundant bytes, with
   size, never-loaded and always-zero fractions and where they come from.  */
static void
data_section (FILE *f, const struct zi_report *r, enum zi_kind kind, const char *title)
{
  uint64_t red = 0;
  for (size_t i = 0; i < r->ndata; i++)
    if (r->data[i].kind == (int) kind)
      red += r->data[i].c.redundant_bytes;
  fprintf (f, "\n== %s ==\n", title);
  static const char *const classes[ZI_NSTORAGE] = { "static objects", "heap objects", "stack",
                                                    "unknown memory" };
  const struct zi_totals *all = &r->totals[kind];
  for (int c = 0; c < ZI_NSTORAGE; c++)
    {
      const struct zi_totals *t = &r->data_totals[c][kind];
      fprintf (f, "%-15s %6.2f%% of loaded bytes, %llu of them redundant (%.2f%%)\n", classes[c],
               pct (t->bytes, all->bytes), (unsigned long long) t->redundant_bytes,
               pct (t->redundant_bytes, t->bytes));
    }
  unsigned shown = 0;
  for (size_t i = 0; i < r->ndata && shown < zi_config.top; i++)
    {
      const struct zi_data_record *d = &r->data[i];
      if (d->kind != (int) kind)
        continue;
      fprintf (f, "#%-3u share %6.2f%%  local %6.2f%%  zero %6.2f%%  never loaded %6.2f%%  "
                  "always zero %6.2f%%\n",
               ++shown, pct (d->c.redundant_bytes, red), pct (d->c.redundant_bytes, d->c.bytes),
               pct (d->c.zero_elements, d->c.elements), pct (d->never_loaded, d->size),
               pct (d->always_zero, d->size));
      if (d->storage == ZI_STORAGE_STATIC && d->thread_local)
        fprintf (f, "     static %s (thread-local, %llu thread%s), %llu bytes in all (%s)\n",
                 d->name, (unsigned long long) d->allocations, d->allocations == 1 ? "" : "s",
                 (unsigned long long) d->size, d->module ? d->module : "");
      else if (d->storage == ZI_STORAGE_STATIC)
        fprintf (f, "     static %s%s, %llu bytes (%s)\n", d->name,
                 d->descriptor ? " (array descriptor)" : "", (unsigned long long) d->size,
                 d->module ? d->module : "");
      else
        {
          fprintf (f, "     heap%s%s, %llu allocation%s by %s, %llu bytes in all\n",
                   d->variable ? " " : "", d->variable ? d->variable : "",
                   (unsigned long long) d->allocations, d->allocations == 1 ? "" : "s",
                   d->allocator, (unsigned long long) d->size);
          const struct zi_paths *p = &r->paths;
          for (int32_t c = d->path; c >= 0; c = p->ctx[c].parent)
            {
              const struct zi_frame *fr = &p->frames[p->ctx[c].frame];
              fprintf (f, "       %s %s%s (%s:%u)\n", c == d->path ? "at" : "<-", fr->function,
                       fr->inlined ? " [inlined]" : "", *fr->file ? fr->file : "??", fr->line);
            }
        }
    }
  if (!shown)
    fputs ("(no objects)\n", f);
}

int
zi_write_summary (const struct zi_report *r, FILE *f)
{
  size_t threads = 0;          /* with rows: a row may sum many ended threads */
  for (size_t i = 0; i < r->nthreads; i++)
    threads += r->threads[i].merged ? r->threads[i].merged : 1;
  fprintf (f, "zeroinst report: %s (pid %d, %s), mode %s, %zu thread%s\n", r->program,
           (int) r->pid, r->arch,
           zi_config.mode_code && zi_data_on ? "code,data" : zi_data_on ? "data" : "code",
           threads, threads == 1 ? "" : "s");
  if (zi_config.mode_code)
    {
      section (f, r, ZI_KIND_INT, "Integer loads");
      section (f, r, ZI_KIND_FLOAT, "Floating-point loads");
    }
  if (zi_data_on)
    {
      data_section (f, r, ZI_KIND_INT, "Integer data objects");
      data_section (f, r, ZI_KIND_FLOAT, "Floating-point data objects");
    }
  const struct zi_totals *o = &r->totals[ZI_KIND_OTHER];
  if (o->elements)
    fprintf (f, "\n== Not analysed ==\n%llu loads, %llu bytes (aggregate copies and values "
                "without a type class; see report.json \"other\")\n",
             (unsigned long long) o->elements, (unsigned long long) o->bytes);
  return fflush (f) == 0 && !ferror (f) ? 0 : -1;
}
