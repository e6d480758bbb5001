/* report_text.c - summary.txt, the human-readable top records.

   Modelled on the predecessors' logs: an integer and a floating-point
   section, each with the program's redundancy and the top ZEROINST_TOP
   sites by redundant bytes.  Per site: share of the section's redundant
   bytes, local redundancy (redundant / loaded bytes), fully-zero fraction,
   redmap, element type and location.  */
#include <stdio.h>
#include "runtime.h"

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
      fprintf (f, "  loads %llu\n     %s:%u:%u in %s%s%s\n",
               (unsigned long long) zi_counters_loads (s, &rec->c), s->file, s->line, s->column,
               s->function, *s->expr ? ": " : "", s->expr);
      /* The call path, leaf first, as the predecessors print it.  */
      for (size_t i = 1; i < rec->path.n; i++)
        {
          const struct zi_frame *fr = &rec->path.f[i];
          fprintf (f, "       <- %s%s%s (%s:%u)\n", fr->function,
                   fr->omp_region ? " [parallel region]" : "",
                   rec->path.f[i - 1].inlined ? " [inlined]" : "", *fr->file ? fr->file : "??",
                   fr->line);
        }
    }
  if (!shown)
    fputs ("(no loads)\n", f);
}

int
zi_write_summary (const struct zi_report *r, const char *path)
{
  FILE *f = fopen (path, "w");
  if (!f)
    {
      zi_warn ("cannot write %s: %m", path);
      return -1;
    }
  fprintf (f, "zeroinst report: %s (pid %d, %s), mode code, %zu thread%s\n", r->program,
           (int) r->pid, r->arch, r->nthreads, r->nthreads == 1 ? "" : "s");
  if (zi_config.sample_n)
    fprintf (f, "SAMPLED: %u of every %u buffers analysed (%llu elements analysed, %llu "
                "discarded); counts below are of the analysed elements\n",
             zi_config.sample_k, zi_config.sample_n, (unsigned long long) zi_sampled_entries,
             (unsigned long long) zi_skipped_entries);
  section (f, r, ZI_KIND_INT, "Integer loads");
  section (f, r, ZI_KIND_FLOAT, "Floating-point loads");
  const struct zi_totals *o = &r->totals[ZI_KIND_OTHER];
  if (o->elements)
    fprintf (f, "\n== Not analysed ==\n%llu loads, %llu bytes (aggregate copies and values "
                "without a type class; see report.json \"other\")\n",
             (unsigned long long) o->elements, (unsigned long long) o->bytes);
  if (fclose (f) != 0)
    {
      zi_warn ("cannot write %s: %m", path);
      return -1;
    }
  return 0;
}
