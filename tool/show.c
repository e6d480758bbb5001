/* show.c - `zeroinst show DIR|FILE [--top N] [--kind int|float|all] [--paths]
                              [--no-advice]`

   Prints a report for people, in this order:
     header         program, pid, architecture, modes, number of threads,
                    and the sampling setting when the report has one;
     per kind       (integer, then floating point) the program's totals and
                    the top N code sites by redundant bytes, each with share,
                    local redundancy, zero fraction, redmap, element type,
                    loads, location, function, expression, the advice that
                    its figures support (advice.c; not with --no-advice),
                    and its call path when that has more than one frame
                    (always with --paths);
     not analysed   the totals and top sites of loads that are no integer or
                    floating value (the report's "other"; only with --kind all);
     data objects   per kind, when the report has data-centric records,
                    each with its advice;
     threads        per-thread totals, when more than one thread ran;
     processes      each process's totals, in a report of zeroinst merge
                    (which also gets a spread line under each record).
   The metrics are defined in `zeroinst help show` (tool_print_metrics).
   Records are ranked here (stable, largest first) rather than trusting the
   order in the file.  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#define DEFAULT_TOP 20

/* The two kinds of analysed loads.  */
struct kind_desc
{
  const char *name;       /* as in report.json */
  const char *title;      /* title of the code section */
  const char *data_title; /* title of the data section */
};
static const struct kind_desc kinds[] = {
  { "int", "Integer loads", "Data objects: integer loads" },
  { "float", "Floating-point loads", "Data objects: floating-point loads" },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* The orders of --sort: the count of a code record and of a data record
   that records are ranked by, largest first ("share" is the order of
   redundant bytes; data objects have elements where sites have loads).  */
static const struct sort_key
{
  const char *name, *code_key, *data_key;
} sort_keys[] = {
  { "redundant", "redundant_bytes", "redundant_bytes" },
  { "share", "redundant_bytes", "redundant_bytes" },
  { "bytes", "bytes", "bytes" },
  { "zero", "zero_elements", "zero_elements" },
  { "loads", "loads", "elements" },
};
#define NSORT_KEYS (sizeof sort_keys / sizeof sort_keys[0])

/* The aggregations of --by (index 0: none, each site and context).  */
static const char *const by_names[] = { "site", "function", "file", "line" };
/* The trees of --tree (index 0: none).  */
static const char *const tree_names[] = { "none", "top-down", "bottom-up" };


/* `zeroinst help show`.  */
void
show_help (FILE *out)
{
  fputs ("Usage: zeroinst show DIR|FILE [--top N] [--kind int|float|all] [--paths]\n"
         "                     [--no-advice] [--sort KEY] [--min-share P]\n"
         "                     [--function NAME] [--file FILE] [--thread N]\n"
         "                     [--by function|file|line | --tree top-down|bottom-up]\n"
         "\n"
         "Prints the report in DIR (a report directory, reading DIR/report.json) or\n"
         "in FILE (a report.json).\n"
         "\n"
         "Options:\n"
         "  --top N       print the N records with the most redundant bytes in each\n"
         "                section (default 20; 0 prints all)\n"
         "  --kind K      int, float or all (default): which kinds of loads to print;\n"
         "                the \"not analysed\" section is printed only with all\n"
         "  --paths       print the call path of every code site (by default only\n"
         "                call paths of more than one frame are printed)\n"
         "  --no-advice   leave out the advice lines\n"
         "  --sort KEY    rank by redundant (bytes, the default), share (the same),\n"
         "                bytes (loaded), zero (elements) or loads (data objects:\n"
         "                elements)\n"
         "  --min-share P leave out records under P% of their kind's redundant bytes\n"
         "  --function F  only the sites in function F or called from it (and the\n"
         "                heap groups allocated under it)\n"
         "  --thread N    only what thread N loaded, shares of its totals (-1: the\n"
         "                threads that ended before the report, whose loads are\n"
         "                merged); code sites only\n"
         "  --file FILE   only the sites in FILE (the same path, or one ending in\n"
         "                the other after a '/'; heap groups allocated in it)\n"
         "  --by V        instead of the sites, totals per function (self: its own\n"
         "                sites; incl: also its callees', each load once), per file\n"
         "                or per line\n"
         "  --tree T      instead of the sites, the call tree: top-down from main\n"
         "                (and thread starts) to the sites, or bottom-up from each\n"
         "                site through its callers; nodes under --min-share (1% by\n"
         "                default) and beyond --top per node are summed as \"more\"\n"
         "  -h, --help    print this help\n"
         "\n"
         "Output:\n"
         "  The header names the program, its pid and architecture, the analysis\n"
         "  modes and the number of threads.  Then, per kind, the program's\n"
         "  redundant bytes of all loaded bytes and zero elements of all elements,\n"
         "  and the top code sites, one per load site and calling context:\n"
         "\n"
         "    #1   share  75.00%  local  50.00%  zero  25.00%  redmap 00xx  i32  loads 10\n"
         "         src/a.c:12:9 in f: a[i]\n"
         "         call path (innermost first):\n"
         "           get (src/a.h:3) [inlined]\n"
         "           f (src/a.c:12)\n"
         "\n"
         "  that is: share, local redundancy, zero fraction, redmap, element type\n"
         "  (\"xN\" for a vector of N lanes) and executed loads; file:line:column,\n"
         "  function and source expression of the load; the call path from the\n"
         "  load outwards, \"[inlined]\" marking a frame inlined into the next one.\n"
         "  A line \"advice: RULE: ...\" under a site or object says what to change\n"
         "  and how many bytes that would save, where the figures prove it:\n"
         "    narrower type  the top bytes of an integer were zero in every load\n"
         "                   (of at least 100 elements): a smaller type suffices;\n"
         "    sparse data    at least 90% of an array's elements are zero: store the\n"
         "                   non-zeros sparsely or skip zero regions (of an object:\n"
         "                   at least 4096 bytes; its zero regions of 64+ bytes);\n"
         "    zero guard     a scalar is zero in at least 90% of its loads: test it\n"
         "                   once and skip the work that uses it;\n"
         "    never read     at least half of an object (of 256+ bytes) was never\n"
         "                   loaded: shrink it, or split hot and cold fields when\n"
         "                   its byte map shows the same unread bytes per element.\n"
         "  Then the loads that were not analysed (aggregate copies and values of\n"
         "  no integer or floating type), the data objects (when the program ran\n"
         "  with ZEROINST_MODE=data), and per-thread totals when more than one\n"
         "  thread ran.  A report made by `zeroinst merge` also has, under each\n"
         "  record, in how many processes it occurs and the minimum, maximum and\n"
         "  mean of its redundant bytes per process (\"rank R\", or \"pid P\"), and\n"
         "  at the end each process's totals.  Percentages are rounded to two\n"
         "  decimals.\n"
         "\n",
         out);
  tool_print_metrics (out);
}

/* Parse VALUE of OPTION, one of the N NAMES, into *INDEX.  */
static int
parse_name (const char *option, const char *value, const char *const *names, int n, int *index)
{
  for (int i = 0; i < n; i++)
    if (strcmp (value, names[i]) == 0)
      {
        *index = i;
        return 0;
      }
  char list[128] = "";
  for (int i = 0; i < n; i++)
    snprintf (list + strlen (list), sizeof list - strlen (list), "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
              names[i]);
  return tool_usage_error ("show", "%s must be %s, not '%s'", option, list, value);
}

/* Parse the arguments after "show" into OPTS.  Returns 0 or EXIT_USAGE.  */
static int
parse_options (int argc, char **argv, struct show_options *opts)
{
  *opts = (struct show_options) { NULL, DEFAULT_TOP, -1, 0, 1, 0, "redundant_bytes",
                                  "redundant_bytes", -1.0, NULL, NULL, 0, 0, 0, 0 };
  int only_operands = 0;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i], *value;
      int r;
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        {
          if (opts->input)
            return tool_usage_error ("show", "extra argument '%s', show reads one report", arg);
          opts->input = arg;
        }
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        opts->help = 1;
      else if (strcmp (arg, "--paths") == 0)
        opts->paths = 1;
      else if (strcmp (arg, "--no-advice") == 0)
        opts->advice = 0;
      else if ((r = tool_option_value ("show", argc, argv, &i, "--top", &value)) != 0)
        {
          if (r != 1 || tool_parse_top ("show", value, &opts->top))
            return EXIT_USAGE;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--kind", &value)) != 0)
        {
          if (r != 1 || tool_parse_kind ("show", value, &opts->kind))
            return EXIT_USAGE;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--sort", &value)) != 0)
        {
          size_t s = 0;
          if (r != 1)
            return EXIT_USAGE;
          while (s < NSORT_KEYS && strcmp (value, sort_keys[s].name))
            s++;
          if (s == NSORT_KEYS)
            return tool_usage_error ("show",
                                     "--sort must be redundant, share, bytes, zero or loads, "
                                     "not '%s'",
                                     value);
          opts->sort_code = sort_keys[s].code_key;
          opts->sort_data = sort_keys[s].data_key;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--min-share", &value)) != 0)
        {
          char *end;
          if (r != 1)
            return EXIT_USAGE;
          opts->min_share = strtod (value, &end);
          if (end == value || *end || !(opts->min_share >= 0 && opts->min_share <= 100))
            return tool_usage_error ("show",
                                     "--min-share needs a percentage from 0 to 100, not '%s'",
                                     value);
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--function", &value)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
          opts->function = value;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--thread", &value)) != 0)
        {
          char *end;
          if (r != 1)
            return EXIT_USAGE;
          opts->thread = strtol (value, &end, 10);
          if (end == value || *end || opts->thread < -1)
            return tool_usage_error ("show", "--thread needs a thread number (-1: the threads "
                                             "that ended before the report), not '%s'",
                                     value);
          opts->thread_given = 1;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--file", &value)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
          opts->file = value;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--by", &value)) != 0)
        {
          if (r != 1 || parse_name ("--by", value, by_names, 4, &opts->by))
            return EXIT_USAGE;
        }
      else if ((r = tool_option_value ("show", argc, argv, &i, "--tree", &value)) != 0)
        {
          if (r != 1 || parse_name ("--tree", value, tree_names + 1, 2, &opts->tree))
            return EXIT_USAGE;
          opts->tree++;
        }
      else
        return tool_usage_error ("show", "unknown option '%s'", arg);
    }
  if (opts->by && opts->tree)
    return tool_usage_error ("show", "--by and --tree are two views: choose one");
  if (!opts->input && !opts->help)
    return tool_usage_error ("show", "missing report directory or file");
  return 0;
}

/* Whether OPTS select kind K.  */
static int
kind_selected (const struct show_options *opts, size_t k)
{
  return opts->kind < 0 || (size_t) opts->kind == k;
}

/* Drop from the N ranked records R those whose share of KIND_RED
   redundant bytes is below OPTS' --min-share.  Returns how many are left.  */
static size_t
drop_small (struct ranked *r, size_t n, uint64_t kind_red, const struct show_options *opts)
{
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (opts->min_share < 0
        || percent (json_count (r[i].rec, "redundant_bytes"), kind_red) >= opts->min_share)
      r[kept++] = r[i];
  return kept;
}

/* How many of N ranked records a section prints.  */
static size_t
shown_count (size_t n, const struct show_options *opts)
{
  return opts->top && opts->top < n ? opts->top : n;
}

/* The line after a section that did not print all its N records, each a
   THING ("site", "object").  */
static void
print_more (size_t shown, size_t n, const char *thing)
{
  if (shown < n)
    printf ("... %zu more %s%s (--top 0 prints all)\n", n - shown, thing, n - shown == 1 ? "" : "s");
}

/* The line after a section that left out N records, each a THING, under
   --min-share.  */
static void
print_small (size_t n, const char *thing, const struct show_options *opts)
{
  if (n)
    printf ("(%zu %s%s under --min-share %g%% not shown)\n", n, thing, n == 1 ? "" : "s",
            opts->min_share);
}

/* "redundant bytes: R of B loaded (P%); zero elements: Z of E (Q%)" for
   a totals object of the summary or of a thread.  */
static void
print_totals (const json_t *t)
{
  uint64_t bytes = json_count (t, "bytes"), red = json_count (t, "redundant_bytes");
  uint64_t elems = json_count (t, "elements"), zero = json_count (t, "zero_elements");
  printf ("redundant bytes: %" PRIu64 " of %" PRIu64 " loaded (%.2f%%); "
          "zero elements: %" PRIu64 " of %" PRIu64 " (%.2f%%)\n",
          red, bytes, percent (red, bytes), zero, elems, percent (zero, elems));
}

/* "     file:line:column in function: expr" for a site; the column and the
   expression are left out when unknown.  */
static void
print_site (const json_t *site)
{
  const char *expr = json_str (site, "expr");
  uint64_t column = json_count (site, "column");
  printf ("     %s:%" PRIu64, json_str (site, "file"), json_count (site, "line"));
  if (column)
    printf (":%" PRIu64, column);
  printf (" in %s%s%s\n", json_str (site, "function"), *expr ? ": " : "", expr);
}

/* A call path or allocation path under TITLE, innermost frame first:
   "function (file:line) [inlined] [parallel region]" per frame (the
   marks when GCC inlined the frame into the next, and when it is an
   OpenMP outlined body).  */
static void
print_frames (const char *title, const json_t *frames)
{
  size_t i;
  const json_t *f;
  printf ("     %s (innermost first):\n", title);
  json_array_foreach (frames, i, f)
    {
      const char *file = json_str (f, "file");
      uint64_t line = json_count (f, "line");
      printf ("       %s", json_str (f, "function"));
      if (*file && line)
        printf (" (%s:%" PRIu64 ")", file, line);
      else if (*file)
        printf (" (%s)", file);
      if (json_is_true (json_object_get (f, "inlined")))
        fputs (" [inlined]", stdout);
      if (json_is_true (json_object_get (f, "parallel_region")))
        fputs (" [parallel region]", stdout);
      putchar ('\n');
    }
}

/* The element type of a code record into BUF: "elem_type", or one made
   from kind and "elem_bytes" for reports without it; "xN" appended for
   N > 1 lanes.  */
static const char *
type_name (const json_t *rec, char *buf, size_t size)
{
  uint64_t elem = json_count (rec, "elem_bytes"), access = json_count (rec, "access_bytes");
  uint64_t lanes = json_object_get (rec, "lanes") ? json_count (rec, "lanes")
                   : elem ? access / elem : 1;
  const char *name = json_str (rec, "elem_type");
  int len;
  if (*name)
    len = snprintf (buf, size, "%s", name);
  else
    len = snprintf (buf, size, "%c%" PRIu64, strcmp (json_str (rec, "kind"), "int") ? 'f' : 'i',
                    8 * elem);
  if (lanes > 1 && len >= 0 && (size_t) len < size)
    snprintf (buf + len, size - (size_t) len, "x%" PRIu64, lanes);
  return buf;
}

/* The "processes" of a merged report (merge.c), for the labels of
   spreads; NULL for the report of one process.  */
static const json_t *merged_processes;

/* A merged record's spread over the processes: one line.  */
static void
print_spread (const json_t *rec)
{
  char line[256];
  if (tool_spread_text (merged_processes, rec, line, sizeof line))
    printf ("     %s\n", line);
}

/* Column widths of a list of code sites, so that they line up.  */
struct columns
{
  int redmap;
  int type;
};

/* One code site, ranked RANK; KIND_RED is the program's redundant bytes
   of the record's kind (for the share).  */
static void
print_code_record (size_t rank, const json_t *rec, uint64_t kind_red, const struct columns *width,
                   const struct show_options *opts)
{
  uint64_t red = json_count (rec, "redundant_bytes");
  const json_t *path = json_object_get (rec, "call_path");
  char type[48];
  printf ("#%-3zu share %6.2f%%  local %6.2f%%  zero %6.2f%%  redmap %-*s  %-*s  loads %" PRIu64,
          rank, percent (red, kind_red), percent (red, json_count (rec, "bytes")),
          percent (json_count (rec, "zero_elements"), json_count (rec, "elements")),
          width->redmap, json_str (rec, "redmap"), width->type, type_name (rec, type, sizeof type),
          json_count (rec, "loads"));
  if (json_count (rec, "copies") > 1)
    printf ("  copies %" PRIu64, json_count (rec, "copies"));
  putchar ('\n');
  print_site (json_object_get (rec, "site"));
  /* The spread is of the whole record, not of one thread's share.  */
  if (!opts->thread_given)
    print_spread (rec);
  if (opts->advice)
    advice_print (stdout, rec, NULL, "     ");
  if (json_array_size (path) > 1 || (opts->paths && json_array_size (path) > 0))
    print_frames ("call path", path);
}

/* The widest redmap and type among the first N ranked records.  */
static struct columns
column_widths (const struct ranked *r, size_t n)
{
  struct columns width = { 0, 0 };
  for (size_t i = 0; i < n; i++)
    {
      char type[48];
      int redmap = (int) strlen (json_str (r[i].rec, "redmap"));
      int type_len = (int) strlen (type_name (r[i].rec, type, sizeof type));
      width.redmap = redmap > width.redmap ? redmap : width.redmap;
      width.type = type_len > width.type ? type_len : width.type;
    }
  return width;
}

/* Did the run that wrote ROOT have mode NAME ("code", "data")?  */
static int
has_mode (const json_t *root, const char *name)
{
  size_t i;
  const json_t *mode;
  json_array_foreach (json_object_get (root, "modes"), i, mode)
    if (json_is_string (mode) && !strcmp (json_string_value (mode), name))
      return 1;
  return 0;
}

/* The section of kind K: the program's totals and its top code sites.  */
static void
print_code_section (const json_t *root, size_t k, const struct show_options *opts)
{
  const json_t *totals = json_object_get (json_object_get (root, "summary"), kinds[k].name);
  size_t n;
  struct ranked *r = tool_rank (json_object_get (root, "code"), kinds[k].name,
                                   opts->sort_code, &n);
  size_t all = n;
  n = drop_small (r, n, json_count (totals, "redundant_bytes"), opts);
  size_t shown = shown_count (n, opts);
  printf ("\n== %s ==\n", kinds[k].title);
  print_totals (totals);
  if (all > n && n == 0)
    puts ("(no code site has --min-share)");
  else if (n == 0)
    puts (has_mode (root, "code") ? "(no code sites)"
                                  : "(no code sites: the program ran without ZEROINST_MODE=code)");
  struct columns width = column_widths (r, shown);
  for (size_t i = 0; i < shown; i++)
    print_code_record (i + 1, r[i].rec, json_count (totals, "redundant_bytes"), &width, opts);
  print_more (shown, n, "site");
  print_small (all - n, "site", opts);
  free (r);
}

/* Loads that were not analysed: totals (from the summary, or summed from
   the records when the summary has none) and the top sites by bytes.  */
static void
print_other_section (const json_t *root, const struct show_options *opts)
{
  const json_t *others = json_object_get (root, "other");
  const json_t *totals = json_object_get (json_object_get (root, "summary"), "other");
  uint64_t loads = json_count (totals, "loads"), bytes = json_count (totals, "bytes");
  size_t i, n;
  const json_t *rec;
  if (!totals)
    json_array_foreach (others, i, rec)
      {
        loads += json_count (rec, "loads");
        bytes += json_count (rec, "bytes");
      }
  if (loads == 0 && json_array_size (others) == 0)
    return;
  struct ranked *r = tool_rank (others, NULL, "bytes", &n);
  size_t shown = shown_count (n, opts);
  printf ("\n== Not analysed ==\n");
  printf ("loads: %" PRIu64 ", bytes: %" PRIu64
          " (aggregate copies and values of no integer or floating type)\n",
          loads, bytes);
  for (i = 0; i < shown; i++)
    {
      printf ("#%-3zu bytes %" PRIu64 "  loads %" PRIu64, i + 1, json_count (r[i].rec, "bytes"),
              json_count (r[i].rec, "loads"));
      if (json_count (r[i].rec, "access_bytes"))
        printf ("  access %" PRIu64 " bytes", json_count (r[i].rec, "access_bytes"));
      putchar ('\n');
      print_site (json_object_get (r[i].rec, "site"));
      print_spread (r[i].rec);
    }
  print_more (shown, n, "site");
  free (r);
}

/* One data object of the data records ALL, ranked RANK; KIND_RED as for
   print_code_record.  */
static void
print_data_record (size_t rank, const json_t *rec, const json_t *all, uint64_t kind_red,
                   const struct show_options *opts)
{
  uint64_t red = json_count (rec, "redundant_bytes"), size = json_count (rec, "size");
  uint64_t never = json_count (rec, "never_loaded_bytes");
  uint64_t always = json_count (rec, "always_zero_bytes");
  int is_heap = strcmp (json_str (rec, "object"), "heap") == 0;
  printf ("#%-3zu share %6.2f%%  local %6.2f%%  ", rank, percent (red, kind_red),
          percent (red, json_count (rec, "bytes")));
  char label[4096];
  tool_object_label (rec, label, sizeof label);
  fputs (label, stdout);
  printf ("  size %" PRIu64 "\n", size);
  printf ("     loaded %" PRIu64 " bytes: %" PRIu64 " redundant, %" PRIu64 " zero elements\n",
          json_count (rec, "bytes"), red, json_count (rec, "zero_elements"));
  printf ("     never loaded %" PRIu64 " of %" PRIu64 " bytes (%.2f%%), always zero %" PRIu64
          " (%.2f%%)\n",
          never, size, percent (never, size), always, percent (always, size));
  print_spread (rec);
  if (opts->advice)
    advice_print (stdout, rec, all, "     ");
  if (is_heap)
    print_frames ("allocated at", json_object_get (rec, "alloc_path"));
}

/* The data objects of kind K, if the report has any.  */
static void
print_data_section (const json_t *root, size_t k, const struct show_options *opts)
{
  const json_t *totals = json_object_get (json_object_get (root, "summary"), kinds[k].name);
  uint64_t kind_red = json_count (totals, "redundant_bytes"), object_red = 0;
  size_t n;
  struct ranked *r = tool_rank (json_object_get (root, "data"), kinds[k].name,
                                   opts->sort_data, &n);
  if (n == 0)
    {
      free (r);
      return;
    }
  for (size_t i = 0; i < n; i++)
    object_red += json_count (r[i].rec, "redundant_bytes");
  size_t objects = n;
  n = drop_small (r, n, kind_red, opts);
  size_t shown = shown_count (n, opts);
  printf ("\n== %s ==\n", kinds[k].data_title);
  printf ("objects: %zu; their redundant bytes: %" PRIu64 " of the program's %" PRIu64
          " (%.2f%%)\n",
          objects, object_red, kind_red, percent (object_red, kind_red));
  /* Where the loaded bytes were (summary.data, when the report has it).  */
  const json_t *classes = json_object_get (json_object_get (root, "summary"), "data");
  static const char *const names[] = { "static", "heap", "stack", "unknown" };
  uint64_t all = json_count (totals, "bytes");
  for (size_t c = 0; classes && c < sizeof names / sizeof names[0]; c++)
    {
      const json_t *t = json_object_get (json_object_get (classes, names[c]), kinds[k].name);
      if (t)
        printf ("  %-8s %6.2f%% of loaded bytes, %6.2f%% of them redundant\n", names[c],
                percent (json_count (t, "bytes"), all),
                percent (json_count (t, "redundant_bytes"), json_count (t, "bytes")));
    }
  for (size_t i = 0; i < shown; i++)
    print_data_record (i + 1, r[i].rec, json_object_get (root, "data"), kind_red, opts);
  print_more (shown, n, "object");
  print_small (objects - n, "object", opts);
  free (r);
}

/* Per-thread totals of the selected kinds; only when several threads ran.  */
static void
print_threads (const json_t *root, const struct show_options *opts)
{
  const json_t *threads = json_object_get (root, "threads");
  size_t i;
  const json_t *t;
  int width = 0;
  if (json_array_size (threads) < 2)
    return;
  json_array_foreach (threads, i, t)
    {
      int len = snprintf (NULL, 0, "thread %" PRIu64, json_count (t, "thread"));
      width = len > width ? len : width;
    }
  printf ("\n== Threads ==\n");
  json_array_foreach (threads, i, t)
    {
      char label[32];
      snprintf (label, sizeof label, "thread %" PRIu64, json_count (t, "thread"));
      int first = 1;
      for (size_t k = 0; k < NKINDS; k++)
        {
          if (!kind_selected (opts, k))
            continue;
          printf ("%-*s  %-6s ", width, first ? label : "", kinds[k].name);
          print_totals (json_object_get (t, kinds[k].name));
          first = 0;
        }
    }
}

/* Per-process totals of a merged report's selected kinds.  */
static void
print_processes (const struct show_options *opts)
{
  size_t i;
  const json_t *p;
  int width = 0;
  if (!merged_processes)
    return;
  printf ("\n== Processes ==\n");
  for (int pass = 0; pass < 2; pass++)
    json_array_foreach (merged_processes, i, p)
      {
        char label[48];
        tool_process_label (merged_processes, i, label, sizeof label);
        if (pass == 0)
          {
            width = (int) strlen (label) > width ? (int) strlen (label) : width;
            continue;
          }
        int first = 1;
        for (size_t k = 0; k < NKINDS; k++)
          {
            if (!kind_selected (opts, k))
              continue;
            printf ("%-*s  %-6s ", width, first ? label : "", kinds[k].name);
            print_totals (json_object_get (json_object_get (p, "summary"), kinds[k].name));
            first = 0;
          }
      }
}

/* The first lines: what ran, where, how.  */
static void
print_header (const json_t *root)
{
  const json_t *modes = json_object_get (root, "modes"), *mode;
  const json_t *sampling = json_object_get (root, "sampling");
  size_t nthreads = json_array_size (json_object_get (root, "threads")), i;
  printf ("zeroinst report: %s (pid %" PRIu64, json_str (root, "program"),
          json_count (root, "pid"));
  if (json_is_integer (json_object_get (root, "rank")))
    printf (", rank %" PRIu64, json_count (root, "rank"));
  printf (", %s), modes ", json_str (root, "arch"));
  json_array_foreach (modes, i, mode)
    printf ("%s%s", i ? "," : "", json_string_value (mode));
  if (json_array_size (modes) == 0)
    fputs ("none", stdout);
  printf (", %zu thread%s\n", nthreads, nthreads == 1 ? "" : "s");
  if (merged_processes)
    printf ("merged from %zu process%s by zeroinst merge: thread N adds up thread N of each\n",
            json_array_size (merged_processes),
            json_array_size (merged_processes) == 1 ? "" : "es");
  if (json_is_string (sampling))
    printf ("sampling: %s\n", json_string_value (sampling));
  else if (sampling && !json_is_null (sampling))
    {
      char *text = json_dumps (sampling, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
      printf ("sampling: %s\n", text ? text : "(unprintable)");
      free (text);
    }
}

/* Whether a frame of PATH is in function NAME.  */
static int
path_has_function (const json_t *path, const char *name)
{
  size_t i;
  const json_t *f;
  json_array_foreach (path, i, f)
    if (strcmp (json_str (f, "function"), name) == 0)
      return 1;
  return 0;
}

/* Whether a frame of PATH is in file NAME.  */
static int
path_has_file (const json_t *path, const char *name)
{
  size_t i;
  const json_t *f;
  json_array_foreach (path, i, f)
    if (tool_same_file (json_str (f, "file"), name))
      return 1;
  return 0;
}

/* Apply --function and --file to ROOT: keep the code (and "other") sites
   in the function or called from it, in the file; and the heap groups
   whose allocation path passes through them (static objects have
   neither).  Totals stay the program's.  Returns 0, or -1 when out of
   memory.  */
static int
filter_records (json_t *root, const struct show_options *opts)
{
  static const char *const arrays[] = { "code", "other", "data" };
  for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
    {
      json_t *kept = json_array (), *rec;
      size_t i;
      int data = a == 2;
      if (!kept)
        return -1;
      json_array_foreach (json_object_get (root, arrays[a]), i, rec)
        {
          const json_t *path = json_object_get (rec, data ? "alloc_path" : "call_path");
          const json_t *site = json_object_get (rec, "site");
          if (data && strcmp (json_str (rec, "object"), "heap"))
            continue;
          if (opts->function && !path_has_function (path, opts->function)
              && (data || strcmp (json_str (site, "function"), opts->function)))
            continue;
          if (opts->file && (data ? !path_has_file (path, opts->file)
                                  : !tool_same_file (json_str (site, "file"), opts->file)))
            continue;
          if (json_array_append (kept, rec))
            return -1;
        }
      if (json_object_set_new (root, arrays[a], kept))
        return -1;
    }
  return 0;
}

/* The thread of code record REC's loads: its "thread", or -2 when several
   threads' shares are in its "threads", or ONLY (the report's one thread)
   when it says nothing.  */
static long
record_thread (const json_t *rec, long only)
{
  const json_t *t = json_object_get (rec, "thread");
  if (json_object_get (rec, "threads"))
    return -2;
  return t ? (long) json_integer_value (t) : only;
}

/* Set by select_thread when the thread asked for has a row but no sites
   of its own: it ended before the report.  */
static int ended_thread_row;

/* Apply --thread N to ROOT: keep the code sites thread N loaded, each with
   N's share of its counts, and make N's totals the kind totals (shares are
   of the thread).  Records of several threads carry each one's share;
   threads that ended before the report are one merged group, -1.  Data
   objects and not-analysed loads are not per thread and are left out.
   Returns 0, or EXIT_BAD_INPUT after a message.  */
static int
select_thread (json_t *root, const char *input, long n)
{
  json_t *threads = json_object_get (root, "threads"), *row, *kept = json_array ();
  json_t *code = json_object_get (root, "code"), *rec;
  size_t i;
  const json_t *mine = NULL;
  long only = json_array_size (threads) == 1
                  ? (long) json_integer_value (json_object_get (json_array_get (threads, 0),
                                                                 "thread"))
                  : -3;
  json_array_foreach (threads, i, row)
    if (json_integer_value (json_object_get (row, "thread")) == n)
      mine = row;
  uint64_t totals[2][4] = { { 0 } };
  static const char *const keys[] = { "elements", "bytes", "redundant_bytes", "zero_elements" };
  static const char *const part_keys[] = { "loads", "elements", "bytes", "redundant_bytes",
                                           "zero_elements" };
  size_t attributed = 0;
  json_array_foreach (code, i, rec)
    attributed += json_object_get (rec, "thread") || json_object_get (rec, "threads");
  if (only == -3 && json_array_size (code) && !attributed)
    {
      tool_error ("%s: the report does not say which thread loaded each site (it was written "
                  "by a zeroinst without per-thread records)",
                  input);
      return EXIT_BAD_INPUT;
    }
  json_array_foreach (code, i, rec)
    {
      long t = record_thread (rec, only);
      json_t *share = NULL;
      if (t == n)
        share = json_incref (rec);
      else if (t == -2)
        {
          size_t p;
          json_t *part;
          json_array_foreach (json_object_get (rec, "threads"), p, part)
            if (json_integer_value (json_array_get (part, 0)) == n)
              {
                share = json_copy (rec);
                for (size_t c = 0; share && c < 5; c++)
                  json_object_set (share, part_keys[c], json_array_get (part, c + 1));
                if (share)
                  {
                    json_object_set (share, "redmap", json_array_get (part, 6));
                    json_object_del (share, "threads");
                    json_object_set_new (share, "thread", json_integer (n));
                  }
              }
        }
      if (!share)
        continue;
      int k = strcmp (json_str (share, "kind"), "int") ? 1 : 0;
      for (size_t c = 0; c < 4; c++)
        totals[k][c] += json_count (share, keys[c]);
      json_array_append_new (kept, share);
    }
  if (json_array_size (kept) == 0 && only == -3 && !mine)
    {
      if (n < 0)
        tool_error ("%s: no loads of threads that ended before the report", input);
      else
        tool_error ("%s: no thread %ld in the report", input, n);
      return EXIT_BAD_INPUT;
    }
  ended_thread_row = n >= 0 && mine && json_array_size (kept) == 0;
  json_object_set_new (root, "code", kept);
  json_object_set_new (root, "other", json_array ());
  json_object_set_new (root, "data", json_array ());
  /* The kind totals: the thread's row, or for -1 (no row of its own) the
     sum of its records.  */
  json_t *summary = json_object ();
  for (int k = 0; k < 2; k++)
    {
      const char *kind = k ? "float" : "int";
      json_t *t = mine && n >= 0 ? json_incref (json_object_get (mine, kind)) : json_object ();
      if (!mine || n < 0)
        for (size_t c = 0; c < 4; c++)
          json_object_set_new (t, keys[c], json_integer ((json_int_t) totals[k][c]));
      json_object_set_new (summary, kind, t);
    }
  json_object_set_new (root, "summary", summary);
  return 0;
}

/* `zeroinst show ...`: returns the exit status.  */
int
show_run (int argc, char **argv)
{
  struct show_options opts;
  struct report report;
  int status = parse_options (argc, argv, &opts);
  if (status)
    return status;
  if (opts.help)
    {
      show_help (stdout);
      return EXIT_OK;
    }
  if (report_load (opts.input, &report))
    return EXIT_BAD_INPUT;
  merged_processes = json_object_get (report.root, "processes");
  if (!json_is_array (merged_processes))
    merged_processes = NULL;
  if ((opts.function || opts.file) && filter_records (report.root, &opts))
    {
      tool_error ("out of memory");
      return EXIT_BAD_INPUT;
    }
  if (opts.thread_given && select_thread (report.root, opts.input, opts.thread))
    return EXIT_BAD_INPUT;
  print_header (report.root);
  if (opts.thread_given)
    printf ("only thread %ld%s: its loads, shares of its totals\n", opts.thread,
            opts.thread < 0 ? " (the threads that ended before the report)" : "");
  if (opts.thread_given && opts.thread >= 0 && ended_thread_row)
    printf ("(thread %ld ended before the report: its sites are among those of --thread -1)\n",
            opts.thread);
  if (opts.function || opts.file)
    printf ("only sites%s%s%s%s\n", opts.function ? " in or called from " : "",
            opts.function ? opts.function : "", opts.file ? " in file " : "",
            opts.file ? opts.file : "");
  if (opts.by || opts.tree)
    {
      /* A view of the code sites instead of the sections.  */
      for (size_t k = 0; k < NKINDS; k++)
        if (kind_selected (&opts, k))
          {
            const json_t *totals = json_object_get (json_object_get (report.root, "summary"),
                                                    kinds[k].name);
            printf ("\n== %s ==\n", kinds[k].title);
            print_totals (totals);
            views_print (report.root, kinds[k].name, totals, &opts);
          }
      report_leave (&report);
      return EXIT_OK;
    }
  for (size_t k = 0; k < NKINDS; k++)
    if (kind_selected (&opts, k))
      print_code_section (report.root, k, &opts);
  if (opts.kind < 0)
    print_other_section (report.root, &opts);
  for (size_t k = 0; k < NKINDS; k++)
    if (kind_selected (&opts, k))
      print_data_section (report.root, k, &opts);
  print_threads (report.root, &opts);
  print_processes (&opts);
  report_leave (&report);
  return EXIT_OK;
}
