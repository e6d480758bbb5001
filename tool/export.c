/* export.c - `zeroinst export DIR|FILE --format F [--kind K] [--weight W]
                              [-o FILE]`

   Writes a report in another format, for the tools people already use.
   report_load has already turned the report into format 1 in memory
   (every code record with its whole "call_path"), so each writer below
   reads that.  The formats (table `formats`):

     json-v1    SPEC §6's expanded form ("zeroinst-report-1"), for scripts.
     folded     one line per call path, "main;f;g;SITE WEIGHT", outermost
                frame first, the load site as the last frame ("expr
                (file:line:col)"); equal paths are summed and the lines
                sorted.  For flamegraph.pl, speedscope, inferno.  WEIGHT is
                one count of the records (--weight; redundant bytes by
                default); paths whose weight is 0 are left out.
     callgrind  the callgrind format that callgrind_annotate and
                KCachegrind read: events Red (redundant bytes), Bytes
                (loaded bytes), Zero (zero elements) and Loads.  A site's
                counts are the self cost of its innermost frame's function
                at the site's line, and a call cost of each other function
                of its call path, on the step from that function's
                innermost frame at its line, so that every function's
                inclusive cost counts each load once (a recursive step is
                left out).  The call count is the loads.  Functions are
                known by name, each in one file (an absolute one of the
                names its frames give, else the first in sorted order).

   --kind int|float selects records of one kind (all by default).  Data
   records and "other" records (no values analysed) are not in folded or
   callgrind output.  Output goes to stdout, or to FILE, written as
   FILE.tmp and renamed when complete so that a failed export leaves no
   half file.  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

/* The options of one export.  */
struct export_options
{
  const char *kind; /* "int", "float" or NULL for all */
  int weight;       /* index into counts: the weight of folded lines */
};

/* The counts of a code record that folded and callgrind carry, in the
   order of callgrind's "events:" line.  */
static const struct count
{
  const char *key;   /* in the record */
  const char *event; /* callgrind event name */
  const char *title; /* its long name; the --weight value is the event's
                        name in lower case */
} counts[] = {
  { "redundant_bytes", "Red", "redundant bytes" },
  { "bytes", "Bytes", "loaded bytes" },
  { "zero_elements", "Zero", "zero elements" },
  { "loads", "Loads", "loads" },
};
#define NCOUNTS (sizeof counts / sizeof counts[0])

/* Whether code record REC is one OPTS select.  */
static int
selected (const json_t *rec, const struct export_options *opts)
{
  return !opts->kind || strcmp (json_str (rec, "kind"), opts->kind) == 0;
}

/* Write ROOT as JSON (json-v1).  Returns 0, or -1 on a write error.  */
static int
write_json_v1 (FILE *out, const json_t *root, const struct export_options *opts)
{
  (void) opts;
  return json_dumpf (root, out, JSON_INDENT (1)) || fputc ('\n', out) == EOF ? -1 : 0;
}

/* A growing string.  */
struct text
{
  char *s;
  size_t len, cap;
};

/* Append LEN bytes of S to T; unless RAW, each ';' as ',' and each
   newline or \x1f as a space (separators of the folded and callgrind
   formats, and of callgrind's keys here).
   Returns 0, or -1 when out of memory.  */
static int
text_append (struct text *t, const char *s, size_t len, int raw)
{
  if (tool_reserve (&t->s, &t->cap, t->len + len, 1))
    return -1;
  for (size_t i = 0; i < len; i++)
    t->s[t->len++] = raw ? s[i] : s[i] == ';' ? ',' : s[i] == '\n' || s[i] == '\x1f' ? ' ' : s[i];
  t->s[t->len] = '\0';
  return 0;
}

/* Append a name (cleaned) or a separator (raw).  */
static int
text_str (struct text *t, const char *s)
{
  return text_append (t, s, strlen (s), 0);
}

static int
text_add (struct text *t, const char *s, size_t len)
{
  return text_append (t, s, len, 1);
}

/* The folded stack of code record REC into T: its call path's functions,
   outermost first, then "expr (file:line:col)" of its site.  */
static int
folded_stack (struct text *t, const json_t *rec)
{
  const json_t *path = json_object_get (rec, "call_path"), *site = json_object_get (rec, "site");
  char where[64];
  t->len = 0;
  for (size_t i = json_array_size (path); i-- > 0;)
    if (text_str (t, json_str (json_array_get (path, i), "function")) || text_add (t, ";", 1))
      return -1;
  const char *expr = json_str (site, "expr");
  uint64_t column = json_count (site, "column");
  if (*expr && (text_str (t, expr) || text_add (t, " (", 2)))
    return -1;
  if (text_str (t, json_str (site, "file")))
    return -1;
  if (column)
    snprintf (where, sizeof where, ":%" PRIu64 ":%" PRIu64, json_count (site, "line"), column);
  else
    snprintf (where, sizeof where, ":%" PRIu64, json_count (site, "line"));
  return text_str (t, where) || (*expr && text_add (t, ")", 1)) ? -1 : 0;
}

/* A summed line of output: folded stack or callgrind position, and its
   counts.  */
struct entry
{
  char *key;
  uint64_t v[NCOUNTS];
};

/* A set of entries by key; E and N mirror TABLE's items.  */
struct entries
{
  struct tool_table table;
  struct entry *e;
  size_t n;
};

/* The entry of KEY in SET, made (with zero counts) if new; NULL when out
   of memory.  */
static struct entry *
entry_get (struct entries *set, const char *key)
{
  int added;
  size_t at = tool_table_get (&set->table, key, &added);
  if (at == SIZE_MAX)
    return NULL;
  set->e = set->table.items;
  set->n = set->table.n;
  if (added && !(set->e[at].key = strdup (key)))
    return NULL;
  return &set->e[at];
}

/* Add the counts of REC to E.  */
static void
entry_add (struct entry *e, const json_t *rec)
{
  for (size_t c = 0; c < NCOUNTS; c++)
    e->v[c] += json_count (rec, counts[c].key);
}

static int
compare_entries (const void *pa, const void *pb)
{
  return strcmp (((const struct entry *) pa)->key, ((const struct entry *) pb)->key);
}

static void
entries_free (struct entries *set)
{
  for (size_t i = 0; i < set->n; i++)
    free (set->e[i].key);
  tool_table_free (&set->table);
}

/* Write the folded stacks of ROOT's code records.  */
static int
write_folded (FILE *out, const json_t *root, const struct export_options *opts)
{
  struct entries set = { .e = NULL, .n = 0 };
  struct text t = { NULL, 0, 0 };
  size_t i;
  const json_t *rec;
  int status = tool_table_init (&set.table, sizeof (struct entry)) ? -2 : 0;
  json_array_foreach (json_object_get (root, "code"), i, rec)
    {
      struct entry *e;
      if (status || !selected (rec, opts))
        continue;
      if (folded_stack (&t, rec) || !(e = entry_get (&set, t.s)))
        status = -2;
      else
        entry_add (e, rec);
    }
  if (!status)
    {
      qsort (set.e, set.n, sizeof *set.e, compare_entries);
      for (i = 0; i < set.n && !status; i++)
        if (set.e[i].v[opts->weight]
            && fprintf (out, "%s %" PRIu64 "\n", set.e[i].key, set.e[i].v[opts->weight]) < 0)
          status = -1;
    }
  free (t.s);
  entries_free (&set);
  return status;
}

/* callgrind: an entry's key is "FN\x1fFILE\x1fLINE" for self cost, and
   "FN\x1fFILE\x1fLINE\x1fCFN\x1fCFILE" for a call, with LINE as 10 digits
   so that sorting the keys groups them by function, self cost first, in
   line order.  */
#define SEP "\x1f"

/* The entry of function FN at FILE:LINE, or of its call to CFN in CFILE
   when CFN is not NULL.  */
static struct entry *
callgrind_entry (struct entries *set, struct text *t, const char *fn, const char *file,
                 uint64_t line, const char *cfn, const char *cfile)
{
  char num[32];
  snprintf (num, sizeof num, SEP "%010" PRIu64, line);
  t->len = 0;
  if (text_str (t, fn) || text_add (t, SEP, 1) || text_str (t, file) || text_add (t, num, strlen (num)))
    return NULL;
  if (cfn && (text_add (t, SEP, 1) || text_str (t, cfn) || text_add (t, SEP, 1)
              || text_str (t, cfile)))
    return NULL;
  return entry_get (set, t->s);
}

/* Add code record REC to SET: self cost at its site, and its path's steps
   so that each function of the path gets REC's counts exactly once in its
   inclusive cost (callgrind_annotate adds a function's self cost and its
   calls): the innermost function by the self cost, every other one by the
   step from its innermost frame.  A step whose caller is a function that
   appears nearer the load (recursion) is left out.  */
static int
callgrind_record (struct entries *set, struct text *t, const json_t *rec)
{
  const json_t *path = json_object_get (rec, "call_path"), *site = json_object_get (rec, "site");
  size_t depth = json_array_size (path);
  const char *fn = depth ? json_str (json_array_get (path, 0), "function")
                         : json_str (site, "function");
  struct entry *e = callgrind_entry (set, t, fn, json_str (site, "file"),
                                     json_count (site, "line"), NULL, NULL);
  if (!e)
    return -1;
  entry_add (e, rec);
  for (size_t i = 0; i + 1 < depth; i++)
    {
      const json_t *callee = json_array_get (path, i), *caller = json_array_get (path, i + 1);
      const char *name = json_str (caller, "function");
      size_t j = 0;
      while (j <= i && strcmp (json_str (json_array_get (path, j), "function"), name))
        j++;
      if (j <= i)
        continue;
      e = callgrind_entry (set, t, name, json_str (caller, "file"), json_count (caller, "line"),
                           json_str (callee, "function"), json_str (callee, "file"));
      if (!e)
        return -1;
      entry_add (e, rec);
    }
  return 0;
}

/* The NAME=VALUE line of the callgrind format, for an empty VALUE "???"
   (callgrind's unknown file).  */
static int
callgrind_name (FILE *out, const char *name, const char *value, size_t len)
{
  return fprintf (out, "%s=%.*s\n", name, len ? (int) len : 3, len ? value : "???") < 0;
}

/* Write the counts of E after LINE.  */
static int
callgrind_costs (FILE *out, const char *line, const struct entry *e)
{
  if (fprintf (out, "%s", line) < 0)
    return -1;
  for (size_t c = 0; c < NCOUNTS; c++)
    if (fprintf (out, " %" PRIu64, e->v[c]) < 0)
      return -1;
  return fputc ('\n', out) == EOF ? -1 : 0;
}

/* Write ROOT's code records in the callgrind format.  */
static int
write_callgrind (FILE *out, const json_t *root, const struct export_options *opts)
{
  struct entries set = { .e = NULL, .n = 0 };
  struct text t = { NULL, 0, 0 };
  uint64_t total[NCOUNTS] = { 0 };
  size_t i;
  const json_t *rec;
  int status = tool_table_init (&set.table, sizeof (struct entry)) ? -2 : 0;
  json_array_foreach (json_object_get (root, "code"), i, rec)
    if (!status && selected (rec, opts))
      {
        for (size_t c = 0; c < NCOUNTS; c++)
          total[c] += json_count (rec, counts[c].key);
        if (callgrind_record (&set, &t, rec))
          status = -2;
      }
  free (t.s);
  if (status)
    {
      entries_free (&set);
      return status;
    }
  qsort (set.e, set.n, sizeof *set.e, compare_entries);
  /* One file per function, named by its block's "fl=" and by every call to
     it: callgrind_annotate knows a function by file and name (and splits
     one whose lines switch files with "fi="), while zeroinst may name a
     function's file in two ways (as the compiler saw it at a site, from
     DWARF in a path).  The file is the first absolute one in key order,
     else the first.  */
  json_t *home = json_object ();
  if (!home)
    status = -2;
  for (i = 0; i < set.n && !status; i++)
    {
      char *key = set.e[i].key, *f1 = strchr (key, SEP[0]), *f2 = strchr (f1 + 1, SEP[0]);
      *f1 = *f2 = '\0';
      const char *known = json_string_value (json_object_get (home, key));
      if ((!known || (known[0] != '/' && f1[1] == '/'))
          && json_object_set_new (home, key, json_string (f1 + 1)))
        status = -2;
      *f1 = *f2 = SEP[0];
    }
  if (status)
    {
      json_decref (home);
      entries_free (&set);
      return status;
    }

  if (fprintf (out, "# callgrind format\nversion: 1\ncreator: zeroinst\ncmd: %s\npositions: line\n",
               json_str (root, "program")) < 0)
    status = -1;
  for (size_t c = 0; c < NCOUNTS && !status; c++)
    if (fprintf (out, "event: %s : %s\n", counts[c].event, counts[c].title) < 0)
      status = -1;
  if (!status && fputs ("events:", out) == EOF)
    status = -1;
  for (size_t c = 0; c < NCOUNTS && !status; c++)
    if (fprintf (out, " %s", counts[c].event) < 0)
      status = -1;
  if (!status && fputs ("\nsummary:", out) == EOF)
    status = -1;
  for (size_t c = 0; c < NCOUNTS && !status; c++)
    if (fprintf (out, " %" PRIu64, total[c]) < 0)
      status = -1;
  if (!status && fputc ('\n', out) == EOF)
    status = -1;

  /* One block per function: "fl=" its file, "fn=", then its lines.  */
  const char *fn = NULL;
  size_t fn_len = 0;
  for (i = 0; i < set.n && !status; i++)
    {
      char *key = set.e[i].key, *f1 = strchr (key, SEP[0]), *f2 = strchr (f1 + 1, SEP[0]);
      char *f3 = strchr (f2 + 1, SEP[0]);
      size_t len = (size_t) (f1 - key);
      char line[24];
      snprintf (line, sizeof line, "%" PRIu64, (uint64_t) strtoull (f2 + 1, NULL, 10));
      if (!fn || len != fn_len || memcmp (fn, key, len))
        {
          fn = key, fn_len = len;
          *f1 = '\0';
          const char *file = json_string_value (json_object_get (home, key));
          *f1 = SEP[0];
          status = fputc ('\n', out) == EOF || callgrind_name (out, "fl", file, strlen (file))
                   || callgrind_name (out, "fn", fn, fn_len);
        }
      if (!status && f3)
        {
          char *f4 = strchr (f3 + 1, SEP[0]);
          *f4 = '\0';
          const char *cfile = json_string_value (json_object_get (home, f3 + 1));
          *f4 = SEP[0];
          if (!cfile)
            cfile = f4 + 1;
          status = callgrind_name (out, "cfi", cfile, strlen (cfile))
                   || callgrind_name (out, "cfn", f3 + 1, (size_t) (f4 - f3 - 1))
                   || fprintf (out, "calls=%" PRIu64 " 0\n", set.e[i].v[NCOUNTS - 1]) < 0;
        }
      if (!status)
        status = callgrind_costs (out, line, &set.e[i]);
    }
  json_decref (home);
  entries_free (&set);
  return status ? -1 : 0;
}

/* The formats export writes, in the order its help lists them.  */
static const struct format
{
  const char *name;
  int (*write) (FILE *out, const json_t *root, const struct export_options *opts);
} formats[] = {
  { "json-v1", write_json_v1 },
  { "folded", write_folded },
  { "callgrind", write_callgrind },
};
#define NFORMATS (sizeof formats / sizeof formats[0])
#define FORMAT_NAMES "json-v1, folded, callgrind"

void
export_help (FILE *out)
{
  fputs ("Usage: zeroinst export DIR|FILE --format F [--kind int|float|all]\n"
         "                       [--weight W] [-o FILE]\n"
         "\n"
         "Writes the report in DIR (a report directory) or FILE (a report.json) in\n"
         "another format, on standard output or into the file given with -o.\n"
         "\n"
         "Formats:\n"
         "  json-v1       report.json as SPEC section 6 shows it (\"zeroinst-report-1\"):\n"
         "                every code record with its whole \"call_path\" and every heap\n"
         "                object with its whole \"alloc_path\".  Programs write the\n"
         "                compact \"zeroinst-report-2\", which stores each calling\n"
         "                context once; both are read by every command.\n"
         "  folded        one line per call path, \"main;f;g;expr (file:line:col) N\",\n"
         "                outermost function first, the load site last, N its weight\n"
         "                (equal paths summed, zero weights left out): for flame\n"
         "                graphs (flamegraph.pl, speedscope, inferno).\n"
         "  callgrind     for callgrind_annotate and KCachegrind: events Red\n"
         "                (redundant bytes), Bytes (loaded bytes), Zero (zero\n"
         "                elements) and Loads; each site is self cost of its function\n"
         "                at its line, and each step of its call path a call at the\n"
         "                caller's line, each function once per path (a recursive\n"
         "                step is left out), for \"callgrind_annotate --inclusive=yes\".\n"
         "  folded and callgrind carry the code sites (not data objects).\n"
         "\n"
         "Options:\n"
         "  --format F    the output format (required)\n"
         "  --kind K      int, float or all (default): which code sites to export\n"
         "                (folded and callgrind)\n"
         "  --weight W    the weight of folded lines: red (redundant bytes, the\n"
         "                default), bytes, zero (zero elements) or loads\n"
         "  -o FILE       write FILE (replaced only once it is complete) instead of\n"
         "                standard output\n"
         "  -h, --help    print this help\n",
         out);
}

/* tool_write's writer: ROOT in the format and with the options of CTX.  */
struct export_job
{
  const struct format *fmt;
  const json_t *root;
  const struct export_options *opts;
};

static int
write_job (FILE *out, const void *ctx)
{
  const struct export_job *job = ctx;
  return job->fmt->write (out, job->root, job->opts);
}

int
export_run (int argc, char **argv)
{
  const char *input = NULL, *format = NULL, *output = NULL, *value;
  struct export_options opts = { NULL, 0 };
  int only_operands = 0;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      int r;
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        {
          if (input)
            return tool_usage_error ("export", "extra argument '%s', export reads one report",
                                     arg);
          input = arg;
        }
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          export_help (stdout);
          return EXIT_OK;
        }
      else if ((r = tool_option_value ("export", argc, argv, &i, "--format", &value)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
          format = value;
        }
      else if ((r = tool_option_value ("export", argc, argv, &i, "--kind", &value)) != 0)
        {
          int k;
          if (r != 1 || tool_parse_kind ("export", value, &k))
            return EXIT_USAGE;
          opts.kind = k < 0 ? NULL : k == 0 ? "int" : "float";
        }
      else if ((r = tool_option_value ("export", argc, argv, &i, "--weight", &value)) != 0)
        {
          size_t c = 0;
          if (r != 1)
            return EXIT_USAGE;
          while (c < NCOUNTS && strcasecmp (value, counts[c].event))
            c++;
          if (c == NCOUNTS)
            return tool_usage_error ("export",
                                     "--weight must be red, bytes, zero or loads, not '%s'",
                                     value);
          opts.weight = (int) c;
        }
      else if ((r = tool_output_option ("export", argc, argv, &i, &output)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
        }
      else
        return tool_usage_error ("export", "unknown option '%s'", arg);
    }
  if (!input)
    return tool_usage_error ("export", "missing report directory or file");
  if (!format)
    return tool_usage_error ("export", "missing --format (formats: " FORMAT_NAMES ")");
  const struct format *fmt = NULL;
  for (size_t f = 0; f < NFORMATS; f++)
    if (strcmp (format, formats[f].name) == 0)
      fmt = &formats[f];
  if (!fmt)
    return tool_usage_error ("export", "unknown format '%s' (formats: " FORMAT_NAMES ")", format);

  struct report rep;
  if (report_load (input, &rep))
    return EXIT_BAD_INPUT;
  struct export_job job = { fmt, rep.root, &opts };
  int status = tool_write (output, write_job, &job);
  report_leave (&rep);
  return status;
}
