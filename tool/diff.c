/* diff.c - `zeroinst diff BEFORE AFTER [--top N] [--kind int|float|all]`

   Compares two reports of one program, typically before and after a
   change meant to remove redundant zeros, so that the user can see that it
   did: per kind, the totals of both and their change, then the sites and
   the data objects whose redundant or loaded bytes changed most.

   Records are matched by source identity, not by line, because the change
   being measured usually moves lines:
     a code site    kind, file, function, expression and the functions of
                    its call path (the line only when the expression is
                    unknown); sites with one identity are summed;
     a data object  kind and the static object's name, symbol and module
                    (a shared library's; the program's own name may change
                    between the two builds), or
                    the functions of
                    the heap group's allocation path.
   A record found in one report only is "new" or "gone".  Changes are
   ranked by the size of the change in redundant bytes, then in loaded
   bytes; unchanged records are left out, and so is a kind that neither
   report loaded (unless --kind names it).  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#define DEFAULT_TOP 20

/* The counts compared, in the order of the totals table.  */
enum
{
  C_RED,
  C_BYTES,
  C_ZERO,
  C_ELEMENTS,
  NCOUNTS
};
static const struct count
{
  const char *key;
  const char *title;
} counts[NCOUNTS] = {
  { "redundant_bytes", "redundant bytes" },
  { "bytes", "loaded bytes" },
  { "zero_elements", "zero elements" },
  { "elements", "elements" },
};

/* One identity and its counts in both reports.  */
struct match
{
  char *id;
  char *label;                 /* how the record is shown */
  uint64_t v[2][NCOUNTS];      /* [0] before, [1] after */
  int in[2];                   /* found in before, after */
};

/* The matches by id; M and N mirror TABLE's items.  */
struct matches
{
  struct tool_table table;
  struct match *m;
  size_t n;
};

static const struct kind_desc
{
  const char *name, *title, *data_title;
} kinds[] = {
  { "int", "Integer loads", "Data objects: integer loads" },
  { "float", "Floating-point loads", "Data objects: floating-point loads" },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

void
diff_help (FILE *out)
{
  fputs ("Usage: zeroinst diff BEFORE AFTER [--top N] [--kind int|float|all]\n"
         "\n"
         "Compares two reports (directories or report.json files) of one program,\n"
         "before and after a change, to show what the change did to its redundant\n"
         "zeros.  Per kind: the totals of both reports and their change, then the\n"
         "code sites and data objects whose redundant bytes (then loaded bytes)\n"
         "changed most.\n"
         "\n"
         "Records are matched by source identity, since the change moves lines: a\n"
         "site by kind, file, function, expression and the functions of its call\n"
         "path (sites that share one are summed; the line counts only when the\n"
         "expression is unknown); a data object by kind and name, or a heap group\n"
         "by the functions of its allocation path.  \"new\" and \"gone\" mark records\n"
         "found in one report only.\n"
         "\n"
         "Options:\n"
         "  --top N       print the N largest changes per section (default 20; 0 all)\n"
         "  --kind K      int, float or all (default)\n"
         "  -h, --help    print this help\n",
         out);
}

/* A growing string for ids and labels.  */
struct buf
{
  char *s;
  size_t len, cap;
  int failed;
};

static void
buf_add (struct buf *b, const char *s)
{
  size_t len = strlen (s);
  if (b->failed || (b->failed = tool_reserve (&b->s, &b->cap, b->len + len, 1) != 0))
    return;
  memcpy (b->s + b->len, s, len + 1);
  b->len += len;
}

/* Append the functions of the frames of PATH from FIRST on, separated by
   SEP, with SEP before the first too when LEAD.  */
static void
buf_functions (struct buf *b, const json_t *path, size_t first, const char *sep, int lead)
{
  for (size_t i = first; i < json_array_size (path); i++)
    {
      if (lead || i > first)
        buf_add (b, sep);
      buf_add (b, json_str (json_array_get (path, i), "function"));
    }
}

/* The identity (ID) and label (LABEL) of code record REC.  */
static void
code_identity (const json_t *rec, struct buf *id, struct buf *label)
{
  const json_t *site = json_object_get (rec, "site"), *path = json_object_get (rec, "call_path");
  const char *expr = json_str (site, "expr");
  char line[32];
  snprintf (line, sizeof line, "%" PRIu64, json_count (site, "line"));
  buf_add (id, json_str (rec, "kind"));
  buf_add (id, "\x1f");
  buf_add (id, json_str (site, "file"));
  buf_add (id, "\x1f");
  buf_add (id, json_str (site, "function"));
  buf_add (id, "\x1f");
  buf_add (id, *expr ? expr : "@");
  if (!*expr)
    buf_add (id, line);
  buf_functions (id, path, 0, "\x1f", 1);

  buf_add (label, json_str (site, "file"));
  buf_add (label, ":");
  buf_add (label, line);
  buf_add (label, " in ");
  buf_add (label, json_str (site, "function"));
  if (*expr)
    {
      buf_add (label, ": ");
      buf_add (label, expr);
    }
  buf_functions (label, path, 1, " <- ", 1);
}

/* The identity and label of data record REC.  */
static void
data_identity (const json_t *rec, const char *program, struct buf *id, struct buf *label)
{
  int heap = strcmp (json_str (rec, "object"), "heap") == 0;
  buf_add (id, json_str (rec, "kind"));
  buf_add (id, heap ? "\x1fheap" : "\x1fstatic\x1f");
  if (heap)
    {
      buf_functions (id, json_object_get (rec, "alloc_path"), 0, "\x1f", 1);
      const char *var = json_str (rec, "variable");
      buf_add (label, *var ? "heap " : "heap, allocated at ");
      if (*var)
        {
          buf_add (label, var);
          buf_add (label, ", allocated at ");
        }
      buf_functions (label, json_object_get (rec, "alloc_path"), 0, " <- ", 0);
    }
  else
    {
      buf_add (id, json_str (rec, "name"));
      buf_add (id, "\x1f");
      buf_add (id, json_str (rec, "symbol"));
      /* The module, unless it is the program (whose name the rebuild that
         is being compared may have changed): a shared library's.  */
      const char *module = json_str (rec, "module");
      buf_add (id, "\x1f");
      buf_add (id, strcmp (module, program) ? module : "");
      buf_add (label, "static ");
      buf_add (label, json_str (rec, "name"));
    }
}

/* Add record REC of report SIDE (0, 1) to SET under its identity.  */
static int
match_add (struct matches *set, const json_t *rec, const char *program, int side, int data)
{
  struct buf id = { 0 }, label = { 0 };
  if (data)
    data_identity (rec, program, &id, &label);
  else
    code_identity (rec, &id, &label);
  if (id.failed || label.failed || !id.s || !label.s)
    goto fail;
  int added;
  size_t at = tool_table_get (&set->table, id.s, &added);
  if (at == SIZE_MAX)
    goto fail;
  set->m = set->table.items;
  set->n = set->table.n;
  struct match *m = &set->m[at];
  if (added)
    {
      m->id = id.s;
      m->label = label.s;
    }
  else
    {
      free (id.s);
      if (side == 1)
        {
          /* Show the record as it is after the change.  */
          free (m->label);
          m->label = label.s;
        }
      else
        free (label.s);
    }
  m->in[side] = 1;
  for (size_t c = 0; c < NCOUNTS; c++)
    m->v[side][c] += json_count (rec, counts[c].key);
  return 0;
fail:
  free (id.s);
  free (label.s);
  return -1;
}

/* The change of count C of M (after - before), as a signed 128-bit value.  */
static __int128
change (const struct match *m, int c)
{
  return (__int128) m->v[1][c] - (__int128) m->v[0][c];
}

static __int128
magnitude (__int128 x)
{
  return x < 0 ? -x : x;
}

/* Order: larger change of redundant bytes, then of loaded bytes, then id.  */
static int
compare_matches (const void *pa, const void *pb)
{
  const struct match *a = pa, *b = pb;
  for (int c = C_RED; c <= C_BYTES; c++)
    {
      __int128 x = magnitude (change (a, c)), y = magnitude (change (b, c));
      if (x != y)
        return x > y ? -1 : 1;
    }
  return strcmp (a->id, b->id);
}

/* "+N" or "-N" for a change X.  */
static const char *
signed_text (__int128 x, char *buf, size_t size)
{
  unsigned __int128 u = (unsigned __int128) magnitude (x);
  uint64_t v = u > UINT64_MAX ? UINT64_MAX : (uint64_t) u;
  snprintf (buf, size, "%s%" PRIu64, x < 0 ? "-" : x > 0 ? "+" : "", v);
  return buf;
}

/* The change of BEFORE to AFTER in percent of BEFORE, as text.  */
static const char *
relative_text (uint64_t before, uint64_t after, char *buf, size_t size)
{
  if (!before)
    snprintf (buf, size, after ? "new" : "=");
  else if (before == after)
    snprintf (buf, size, "=");
  else
    snprintf (buf, size, "%+.2f%%",
              100.0 * ((double) after - (double) before) / (double) before);
  return buf;
}

/* The totals table of kind K.  */
static void
print_totals (const json_t *t0, const json_t *t1)
{
  char a[48], b[48];
  printf ("%-18s %15s %15s %15s\n", "", "before", "after", "change");
  for (size_t c = 0; c < NCOUNTS; c++)
    {
      uint64_t x = json_count (t0, counts[c].key), y = json_count (t1, counts[c].key);
      printf ("%-18s %15" PRIu64 " %15" PRIu64 " %15s  %s\n", counts[c].title, x, y,
              signed_text ((__int128) y - (__int128) x, a, sizeof a),
              relative_text (x, y, b, sizeof b));
    }
  printf ("%-18s %14.2f%% %14.2f%%\n", "redundancy",
          percent (json_count (t0, "redundant_bytes"), json_count (t0, "bytes")),
          percent (json_count (t1, "redundant_bytes"), json_count (t1, "bytes")));
}

/* The top changes of SET under TITLE (THING: "site", "object").  */
static void
print_changes (struct matches *set, size_t top, const char *thing)
{
  size_t changed = 0, only[2] = { 0, 0 };
  qsort (set->m, set->n, sizeof *set->m, compare_matches);
  for (size_t i = 0; i < set->n; i++)
    {
      only[0] += set->m[i].in[0] && !set->m[i].in[1];
      only[1] += set->m[i].in[1] && !set->m[i].in[0];
      changed += change (&set->m[i], C_RED) || change (&set->m[i], C_BYTES);
    }
  printf ("%ss: %zu matched, %zu gone, %zu new; %zu changed\n", thing,
          set->n - only[0] - only[1], only[0], only[1], changed);
  size_t shown = top && top < changed ? top : changed;
  for (size_t i = 0; i < shown; i++)
    {
      const struct match *m = &set->m[i];
      char a[48], b[48];
      printf ("#%-3zu redundant %s (%" PRIu64 " -> %" PRIu64 ")  bytes %s (%" PRIu64 " -> %" PRIu64
              ")%s\n     %s\n",
              i + 1, signed_text (change (m, C_RED), a, sizeof a), m->v[0][C_RED], m->v[1][C_RED],
              signed_text (change (m, C_BYTES), b, sizeof b), m->v[0][C_BYTES], m->v[1][C_BYTES],
              !m->in[0] ? "  new" : !m->in[1] ? "  gone" : "", m->label);
    }
  if (shown < changed)
    printf ("... %zu more changed %s%s (--top 0 prints all)\n", changed - shown, thing,
            changed - shown == 1 ? "" : "s");
}

static void
matches_free (struct matches *set)
{
  for (size_t i = 0; i < set->n; i++)
    {
      free (set->m[i].id);
      free (set->m[i].label);
    }
  tool_table_free (&set->table);
}

/* Match the records of array KEY ("code", "data") of kind K of both
   reports and print their changes.  Returns 0, or -1 when out of memory.  */
static int
compare_records (const json_t *root[2], const char *key, size_t k, size_t top)
{
  struct matches set = { .m = NULL, .n = 0 };
  int data = strcmp (key, "data") == 0;
  int status = tool_table_init (&set.table, sizeof (struct match));
  for (int side = 0; side < 2 && !status; side++)
    {
      size_t i;
      const json_t *rec;
      json_array_foreach (json_object_get (root[side], key), i, rec)
        if (!status && strcmp (json_str (rec, "kind"), kinds[k].name) == 0)
          status = match_add (&set, rec, json_str (root[side], "program"), side, data);
    }
  if (!status)
    print_changes (&set, top, data ? "object" : "site");
  matches_free (&set);
  return status;
}

/* "program (pid N, arch), modes M" of a report.  */
static void
print_report_line (const char *title, const json_t *root)
{
  size_t i;
  const json_t *mode;
  printf ("%s %s (pid %" PRIu64 ", %s), modes ", title, json_str (root, "program"),
          json_count (root, "pid"), json_str (root, "arch"));
  json_array_foreach (json_object_get (root, "modes"), i, mode)
    printf ("%s%s", i ? "," : "", json_string_value (mode));
  putchar ('\n');
}

/* Whether report ROOT has data records of kind NAME.  */
static int
has_data (const json_t *root, const char *name)
{
  size_t i;
  const json_t *rec;
  json_array_foreach (json_object_get (root, "data"), i, rec)
    if (strcmp (json_str (rec, "kind"), name) == 0)
      return 1;
  return 0;
}

int
diff_run (int argc, char **argv)
{
  const char *input[2] = { NULL, NULL }, *value;
  size_t top = DEFAULT_TOP;
  int kind = -1, only_operands = 0;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      int r;
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        {
          if (input[1])
            return tool_usage_error ("diff", "extra argument '%s', diff reads two reports", arg);
          input[input[0] ? 1 : 0] = arg;
        }
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          diff_help (stdout);
          return EXIT_OK;
        }
      else if ((r = tool_option_value ("diff", argc, argv, &i, "--top", &value)) != 0)
        {
          if (r != 1 || tool_parse_top ("diff", value, &top))
            return EXIT_USAGE;
        }
      else if ((r = tool_option_value ("diff", argc, argv, &i, "--kind", &value)) != 0)
        {
          if (r != 1 || tool_parse_kind ("diff", value, &kind))
            return EXIT_USAGE;
        }
      else
        return tool_usage_error ("diff", "unknown option '%s'", arg);
    }
  if (!input[1])
    return tool_usage_error ("diff", "needs two reports: BEFORE AFTER");

  struct report rep[2];
  if (report_load (input[0], &rep[0]))
    return EXIT_BAD_INPUT;
  if (report_load (input[1], &rep[1]))
    return EXIT_BAD_INPUT;
  const json_t *root[2] = { rep[0].root, rep[1].root };
  print_report_line ("before:", root[0]);
  print_report_line ("after: ", root[1]);
  int status = 0;
  for (size_t k = 0; k < NKINDS && !status; k++)
    {
      const json_t *t0 = json_object_get (json_object_get (root[0], "summary"), kinds[k].name);
      const json_t *t1 = json_object_get (json_object_get (root[1], "summary"), kinds[k].name);
      /* A kind neither run loaded is left out, unless asked for.  */
      if ((kind >= 0 && (size_t) kind != k)
          || (kind < 0 && !json_count (t0, "elements") && !json_count (t1, "elements")
              && !has_data (root[0], kinds[k].name) && !has_data (root[1], kinds[k].name)))
        continue;
      printf ("\n== %s ==\n", kinds[k].title);
      print_totals (t0, t1);
      status = compare_records (root, "code", k, top);
      if (!status && (has_data (root[0], kinds[k].name) || has_data (root[1], kinds[k].name)))
        {
          printf ("\n== %s ==\n", kinds[k].data_title);
          status = compare_records (root, "data", k, top);
        }
    }
  if (status)
    tool_error ("out of memory");
  report_leave (&rep[0]);
  report_leave (&rep[1]);
  return status ? EXIT_BAD_INPUT : EXIT_OK;
}
