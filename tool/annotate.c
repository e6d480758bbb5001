/* annotate.c - `zeroinst annotate DIR|FILE SOURCE [--kind int|float|all]
                                [--context N]`

   Prints SOURCE with, in front of each line that has load sites in the
   report, their redundant bytes, loaded bytes, local redundancy and share
   of all the program's redundant bytes (both kinds, or the one --kind
   selects), like `perf annotate` and callgrind_annotate.  A site belongs
   to SOURCE when its file names it (tool_same_file: the same path, or
   one ends with the other after a '/').  --context N prints only the
   lines within N of an annotated one.  Sites on lines SOURCE does not have
   (it changed since the run) are listed at the end.  */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

/* The counts of one line.  */
struct line
{
  uint64_t red, bytes;
  int sites;
};

void
annotate_help (FILE *out)
{
  fputs ("Usage: zeroinst annotate DIR|FILE SOURCE [--kind int|float|all] [--context N]\n"
         "\n"
         "Prints the source file SOURCE with, in front of each line that has load\n"
         "sites in the report (DIR or FILE), their redundant bytes, loaded bytes,\n"
         "local redundancy and share of all the program's redundant bytes.  The\n"
         "sites of SOURCE are those whose file is SOURCE's path, or ends with it\n"
         "after a '/', or the other way round.\n"
         "\n"
         "Options:\n"
         "  --kind K      int, float or all (default): which loads to count\n"
         "  --context N   print only the lines within N of an annotated line\n"
         "                (default: the whole file)\n"
         "  -h, --help    print this help\n",
         out);
}

/* Parse --context's value.  */
static int
parse_context (const char *s, long *context)
{
  char *end;
  long n = strtol (s, &end, 10);
  if (*s < '0' || *s > '9' || *end || n < 0 || n > 1000000)
    return tool_usage_error ("annotate", "--context needs a number of lines, not '%s'", s);
  *context = n;
  return 0;
}

/* Print one source line TEXT (number N, counts L or none) with the
   columns; TOTAL is the redundant bytes shares are of.  */
static void
print_line (size_t n, const struct line *l, const char *text, uint64_t total)
{
  if (l && l->sites)
    printf ("%12" PRIu64 " %12" PRIu64 " %7.2f%% %7.2f%%", l->red, l->bytes,
            percent (l->red, l->bytes), percent (l->red, total));
  else
    printf ("%12s %12s %8s %8s", ".", ".", ".", ".");
  printf (" %6zu  %s", n, text);
  if (!*text || text[strlen (text) - 1] != '\n')
    putchar ('\n');
}

int
annotate_run (int argc, char **argv)
{
  const char *input = NULL, *source = NULL, *value;
  int kind = -1, only_operands = 0;
  long context = -1;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      int r;
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        {
          if (source)
            return tool_usage_error ("annotate",
                                     "extra argument '%s', annotate reads a report and a source",
                                     arg);
          *(input ? &source : &input) = arg;
        }
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          annotate_help (stdout);
          return EXIT_OK;
        }
      else if ((r = tool_option_value ("annotate", argc, argv, &i, "--kind", &value)) != 0)
        {
          if (r != 1 || tool_parse_kind ("annotate", value, &kind))
            return EXIT_USAGE;
        }
      else if ((r = tool_option_value ("annotate", argc, argv, &i, "--context", &value)) != 0)
        {
          if (r != 1 || parse_context (value, &context))
            return EXIT_USAGE;
        }
      else
        return tool_usage_error ("annotate", "unknown option '%s'", arg);
    }
  if (!source)
    return tool_usage_error ("annotate", "needs a report and a source file: DIR|FILE SOURCE");

  FILE *f = fopen (source, "r");
  if (!f)
    {
      tool_error ("cannot open '%s': %s", source, strerror (errno));
      return EXIT_BAD_INPUT;
    }
  struct report rep;
  if (report_load (input, &rep))
    {
      fclose (f);
      return EXIT_BAD_INPUT;
    }

  /* SOURCE's number of lines: the counts are kept for those only (a line
     number in the report is not trusted to size an array).  */
  size_t file_lines = 0;
  for (int c; (c = getc (f)) != EOF;)
    file_lines += c == '\n';
  rewind (f);
  size_t beyond[10], nbeyond = 0, more_beyond = 0;

  /* The lines' counts, from the code records of SOURCE.  */
  static const char *const kind_names[] = { "int", "float" };
  const json_t *summary = json_object_get (rep.root, "summary");
  uint64_t total = 0, in_file = 0;
  for (int k = 0; k < 2; k++)
    if (kind < 0 || kind == k)
      total += json_count (json_object_get (summary, kind_names[k]), "redundant_bytes");
  struct line *lines = NULL;
  size_t nlines = 0, cap = 0, sites = 0, i;
  const json_t *rec;
  int status = EXIT_OK;
  json_array_foreach (json_object_get (rep.root, "code"), i, rec)
    {
      const json_t *site = json_object_get (rec, "site");
      if ((kind >= 0 && strcmp (json_str (rec, "kind"), kind_names[kind]))
          || !tool_same_file (json_str (site, "file"), source))
        continue;
      size_t n = json_count (site, "line");
      if (n > file_lines + 1)
        {
          /* Past the end (the last line may lack its newline).  */
          size_t b = 0;
          while (b < nbeyond && beyond[b] != n)
            b++;
          if (b == nbeyond && nbeyond < sizeof beyond / sizeof *beyond)
            beyond[nbeyond++] = n;
          else if (b == nbeyond)
            more_beyond++;
          sites++;
          in_file += json_count (rec, "redundant_bytes");
          continue;
        }
      if (n >= nlines)
        {
          if (tool_reserve (&lines, &cap, n, sizeof *lines))
            {
              status = EXIT_BAD_INPUT;
              break;
            }
          memset (lines + nlines, 0, (n + 1 - nlines) * sizeof *lines);
          nlines = n + 1;
        }
      lines[n].red += json_count (rec, "redundant_bytes");
      lines[n].bytes += json_count (rec, "bytes");
      lines[n].sites++;
      sites++;
      in_file += json_count (rec, "redundant_bytes");
    }
  if (status)
    {
      tool_error ("out of memory");
      fclose (f);
      free (lines);
      report_leave (&rep);
      return status;
    }

  printf ("zeroinst annotate: %s, from the report of %s (pid %" PRIu64 ")\n", source,
          json_str (rep.root, "program"), json_count (rep.root, "pid"));
  printf ("%zu load site%s of the report in this file; the redundant bytes of its lines: %" PRIu64
          " of the program's %" PRIu64 " (%.2f%%)\n\n",
          sites, sites == 1 ? "" : "s", in_file, total, percent (in_file, total));
  printf ("%12s %12s %8s %8s %6s  %s\n", "redundant", "loaded", "local", "share", "line",
          "source");

  char *text = NULL;
  size_t text_cap = 0, n = 0, last_printed = 0;
  while (getline (&text, &text_cap, f) >= 0)
    {
      n++;
      const struct line *l = n < nlines ? &lines[n] : NULL;
      if (context >= 0)
        {
          /* Print N only when an annotated line is within CONTEXT of it.  */
          size_t lo = n > (size_t) context ? n - (size_t) context : 1, hi = n + (size_t) context;
          int near = 0;
          for (size_t m = lo; m <= hi && m < nlines && !near; m++)
            near = lines[m].sites > 0;
          if (!near)
            continue;
          if (last_printed && n > last_printed + 1)
            puts ("...");
        }
      print_line (n, l, text, total);
      last_printed = n;
    }
  free (text);
  fclose (f);
  /* Sites past the end of SOURCE, in line order.  */
  int first = 1;
  for (size_t m = n + 1; m < nlines; m++)
    if (lines[m].sites && nbeyond < sizeof beyond / sizeof *beyond)
      beyond[nbeyond++] = m;
  for (size_t b = 1; b < nbeyond; b++)
    for (size_t c = b; c > 0 && beyond[c - 1] > beyond[c]; c--)
      {
        size_t t = beyond[c];
        beyond[c] = beyond[c - 1];
        beyond[c - 1] = t;
      }
  for (size_t b = 0; b < nbeyond; b++)
    {
      printf ("%s%zu", first ? "\nsites on lines past the end of the file (was it changed "
                               "since the run?): "
                             : ", ",
              beyond[b]);
      first = 0;
    }
  if (more_beyond)
    printf (" and %zu more", more_beyond);
  if (!first)
    putchar ('\n');
  free (lines);
  report_leave (&rep);
  return EXIT_OK;
}
