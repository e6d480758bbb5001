/* html.c - `zeroinst html DIR|FILE [-o FILE] [--top N]`

   Writes the report as one self-contained HTML page: no network, no
   third-party code, opens from file://.  The page is the script and style
   of html/ (embedded at build time, html_assets.h) and one JSON object
   that this file builds from the report, so that the page stays small
   even for a report of 300,000 records:

     program, pid, arch, modes, threads, summary   as in report.json
     sites       the top N code sites of each kind by redundant bytes,
                 each with its location text, type, counts, redmap, call
                 path (indices into frames) and advice lines (advice.c)
     frames      each frame of those paths once
     objects     the top N data objects of each kind, with allocation
                 path, byte map and advice
     tree        per kind, the top-down call tree's nodes of at least
                 TREE_MIN_SHARE percent (views_tree_json)
     sources     per source file of the sites shown: the lines with sites
                 and SOURCE_CONTEXT lines around them, with every site's
                 redundant and loaded bytes per line, when the file can be
                 read here (as named, or next to the program); else why
                 not
     processes   of a report of zeroinst merge: each process's label
                 ("rank R" or "pid P") and totals; its sites and objects
                 then also have their "spread" line (tool_spread_text)

   report.js renders it (see its comment).  */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "html_assets.h"

#define DEFAULT_TOP 200
#define TREE_MIN_SHARE 0.5
#define TREE_MAX_NODES 20000
#define SOURCE_CONTEXT 2
#define SOURCE_MAX_BYTES (64u << 20)

static const char *const kind_names[] = { "int", "float" };

void
html_help (FILE *out)
{
  fputs ("Usage: zeroinst html DIR|FILE [-o FILE] [--top N] [--no-source]\n"
         "\n"
         "Writes the report in DIR (or the report.json FILE) as one HTML page that\n"
         "needs nothing else (no network; open it from disk): the totals per kind\n"
         "and thread, sortable and filterable tables of the top load sites and data\n"
         "objects with their advice (click a row for its call or allocation path),\n"
         "the top-down call tree, the source lines of the sites when the sources\n"
         "can be read, and each data object's byte map as a heat map (never\n"
         "loaded, always zero, seen non-zero) with zoom.\n"
         "\n"
         "Options:\n"
         "  -o FILE       write FILE (replaced only once it is complete) instead of\n"
         "                standard output\n"
         "  --top N       sites and objects of each kind on the page (default 200;\n"
         "                0: all)\n"
         "  --no-source   leave the source lines out: the page then holds nothing\n"
         "                of the files the report names (it reads them otherwise,\n"
         "                as annotate does, when they can be read here)\n"
         "  -h, --help    print this help\n",
         out);
}

/* A merged report's spread line of REC (tool_spread_text) as OBJ's
   "spread"; nothing for the report of one process.  */
static int
set_spread (json_t *obj, const json_t *processes, const json_t *rec)
{
  char line[256];
  if (!tool_spread_text (processes, rec, line, sizeof line))
    return 0;
  return json_object_set_new (obj, "spread", json_string (line));
}

/* A merged report's processes for the overview: [label, summary].  */
static json_t *
processes_json (const json_t *processes)
{
  json_t *list = json_array ();
  size_t i;
  const json_t *p;
  json_array_foreach (processes, i, p)
    {
      char label[48];
      tool_process_label (processes, i, label, sizeof label);
      json_array_append_new (list, json_pack ("[sO]", label, json_object_get (p, "summary")));
    }
  return list;
}

/* The advice lines of REC (a code record, or a data record of ALL_DATA)
   as a JSON array of strings.  */
static json_t *
advice_json (const json_t *rec, const json_t *all_data)
{
  char *text = NULL;
  size_t size = 0;
  json_t *out = json_array ();
  FILE *f = open_memstream (&text, &size);
  if (!out || !f)
    {
      if (f)
        fclose (f);
      json_decref (out);
      return NULL;
    }
  advice_print (f, rec, all_data, "");
  if (fclose (f) != 0)
    {
      free (text);
      json_decref (out);
      return NULL;
    }
  for (char *line = text, *end; line && *line; line = end + 1)
    {
      end = strchr (line, '\n');
      if (!end)
        break;
      *end = '\0';
      json_array_append_new (out, json_string (line));
    }
  free (text);
  return out;
}

/* The frames table: each distinct frame once.  */
struct frames
{
  json_t *list, *index;
};

/* PATH as an array of indices into FRAMES.  */
static json_t *
path_json (struct frames *frames, const json_t *path)
{
  json_t *out = json_array ();
  size_t i;
  const json_t *f;
  json_array_foreach (path, i, f)
    {
      char *key = json_dumps (f, JSON_COMPACT | JSON_SORT_KEYS);
      const json_t *at = key ? json_object_get (frames->index, key) : NULL;
      json_int_t n = at ? json_integer_value (at) : (json_int_t) json_array_size (frames->list);
      if (key && !at)
        {
          json_array_append (frames->list, (json_t *) f);
          json_object_set_new (frames->index, key, json_integer (n));
        }
      free (key);
      json_array_append_new (out, json_integer (n));
    }
  return out;
}

/* "file:line:col in function: expr" of SITE.  */
static json_t *
where_json (const json_t *site)
{
  char buf[4096];
  const char *expr = json_str (site, "expr");
  int len = snprintf (buf, sizeof buf, "%s:%" PRIu64, json_str (site, "file"),
                      json_count (site, "line"));
  if (json_count (site, "column") && len > 0 && (size_t) len < sizeof buf)
    len += snprintf (buf + len, sizeof buf - (size_t) len, ":%" PRIu64, json_count (site, "column"));
  if (len > 0 && (size_t) len < sizeof buf)
    snprintf (buf + len, sizeof buf - (size_t) len, " in %s%s%s", json_str (site, "function"),
              *expr ? ": " : "", expr);
  tool_utf8_cut (buf);
  return json_string (buf);
}

/* The object of SITE's file in BY_FILE (made if new), and SITE's line as
   a key of it in KEY.  */
static json_t *
file_and_line (json_t *by_file, const json_t *site, char key[32])
{
  const char *file = json_str (site, "file");
  json_t *lines = json_object_get (by_file, file);
  if (!lines)
    {
      lines = json_object ();
      json_object_set_new (by_file, file, lines);
    }
  snprintf (key, 32, "%" PRIu64, json_count (site, "line"));
  return lines;
}

/* The per-line counts [redundant bytes, bytes] of every code record of
   ROOT whose file is one of FILES: file -> line -> counts.  */
static json_t *
line_counts (const json_t *root, const json_t *files)
{
  json_t *out = json_object ();
  size_t i;
  const json_t *rec;
  json_array_foreach (json_object_get (root, "code"), i, rec)
    {
      const json_t *site = json_object_get (rec, "site");
      if (!json_object_get (files, json_str (site, "file")))
        continue;
      char key[32];
      json_t *notes = file_and_line (out, site, key);
      json_t *n = json_object_get (notes, key);
      json_int_t red = (json_int_t) json_count (rec, "redundant_bytes");
      json_int_t bytes = (json_int_t) json_count (rec, "bytes");
      if (n)
        {
          red += json_integer_value (json_array_get (n, 0));
          bytes += json_integer_value (json_array_get (n, 1));
        }
      json_object_set_new (notes, key, json_pack ("[I,I]", red, bytes));
    }
  return out;
}

/* The source excerpts of the files in FILES (file -> lines object with
   the lines to show), with the per-line counts of all code records.  */
static json_t *
sources_json (const json_t *root, json_t *files)
{
  json_t *out = json_object (), *counts = line_counts (root, files);
  const char *file;
  json_t *wanted;
  const char *program = json_str (root, "program");
  json_object_foreach (files, file, wanted)
    {
      json_t *src = json_object ();
      json_object_set_new (out, file, src);
      FILE *f = fopen (file, "r");
      char *path = NULL;
      if (!f && file[0] != '/' && program[0] == '/')
        {
          /* A relative name, as the compiler saw it: try next to the program.  */
          char *copy = strdup (program);
          if (copy && asprintf (&path, "%s/%s", dirname (copy), file) > 0)
            f = fopen (path, "r");
          free (copy);
        }
      if (!f)
        {
          json_object_set_new (src, "why", json_string (strerror (errno)));
          free (path);
          continue;
        }
      free (path);
      json_t *notes = json_object_get (counts, file);
      json_t *lines = json_object ();
      char *text = NULL;
      size_t cap = 0, read_bytes = 0;
      ssize_t len;
      for (size_t n = 1; (len = getline (&text, &cap, f)) >= 0 && read_bytes < SOURCE_MAX_BYTES;
           n++)
        {
          read_bytes += (size_t) len;
          int near = 0;
          for (size_t m = n > SOURCE_CONTEXT ? n - SOURCE_CONTEXT : 1;
               m <= n + SOURCE_CONTEXT && !near; m++)
            {
              char key[32];
              snprintf (key, sizeof key, "%zu", m);
              near = json_object_get (wanted, key) != NULL;
            }
          if (!near)
            continue;
          if (len > 0 && text[len - 1] == '\n')
            text[len - 1] = '\0';
          char key[32];
          snprintf (key, sizeof key, "%zu", n);
          json_t *line = json_string (text);
          json_object_set_new (lines, key, line ? line : json_string ("(a line not in UTF-8)"));
        }
      free (text);
      fclose (f);
      json_object_set_new (src, "lines", lines);
      if (notes)
        json_object_set (src, "annotations", notes);
      else
        json_object_set_new (src, "annotations", json_object ());
    }
  json_decref (counts);
  return out;
}

/* The page's JSON object for ROOT, TOP sites and objects per kind, with
   the source excerpts when SOURCES.  */
static json_t *
page_json (const json_t *root, size_t top, int sources)
{
  json_t *page = json_object (), *sites = json_array (), *objects = json_array ();
  json_t *tree = json_object (), *files = json_object ();
  struct frames frames = { json_array (), json_object () };
  const json_t *summary = json_object_get (root, "summary");
  const json_t *all_data = json_object_get (root, "data");
  /* A merged report's processes (merge.c), NULL otherwise.  */
  const json_t *processes = json_object_get (root, "processes");
  if (!json_is_array (processes))
    processes = NULL;
  uint64_t total_red = 0;
  size_t site_count = 0, object_count = 0;
  if (!page || !sites || !objects || !tree || !files || !frames.list || !frames.index)
    return NULL;
  for (size_t k = 0; k < 2; k++)
    {
      const char *kind = kind_names[k];
      uint64_t kind_red = json_count (json_object_get (summary, kind), "redundant_bytes");
      total_red += kind_red;
      size_t n;
      struct ranked *r = tool_rank (json_object_get (root, "code"), kind, "redundant_bytes", &n);
      if (!r)
        return NULL;
      site_count += n;
      for (size_t i = 0; i < n && (!top || i < top); i++)
        {
          const json_t *rec = r[i].rec, *site = json_object_get (rec, "site");
          char type[64];
          uint64_t lanes = json_count (rec, "lanes");
          int len = snprintf (type, sizeof type, "%s", json_str (rec, "elem_type"));
          if (lanes > 1 && len >= 0 && (size_t) len < sizeof type)
            snprintf (type + len, sizeof type - (size_t) len, "x%" PRIu64, lanes);
          tool_utf8_cut (type);
          json_t *s = json_pack ("{s:s,s:o,s:s,s:I,s:I,s:I,s:I,s:I,s:s,s:o,s:o}", "kind", kind,
                                 "where", where_json (site), "type", type, "loads",
                                 (json_int_t) json_count (rec, "loads"), "elements",
                                 (json_int_t) json_count (rec, "elements"), "bytes",
                                 (json_int_t) json_count (rec, "bytes"), "redundant_bytes",
                                 (json_int_t) json_count (rec, "redundant_bytes"), "zero_elements",
                                 (json_int_t) json_count (rec, "zero_elements"), "redmap",
                                 json_str (rec, "redmap"), "path",
                                 path_json (&frames, json_object_get (rec, "call_path")),
                                 "advice", advice_json (rec, NULL));
          if (!s || set_spread (s, processes, rec) || json_array_append_new (sites, s))
            return NULL;
          /* The lines this site's file shows.  */
          char key[32];
          json_object_set_new (file_and_line (files, site, key), key, json_true ());
        }
      free (r);

      r = tool_rank (all_data, kind, "redundant_bytes", &n);
      if (!r)
        return NULL;
      object_count += n;
      for (size_t i = 0; i < n && (!top || i < top); i++)
        {
          const json_t *rec = r[i].rec;
          char label[4096];
          tool_object_label (rec, label, sizeof label);
          tool_utf8_cut (label);
          json_t *o = json_pack ("{s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:o}", "kind", kind,
                                 "label", label, "size", (json_int_t) json_count (rec, "size"),
                                 "bytes", (json_int_t) json_count (rec, "bytes"),
                                 "redundant_bytes", (json_int_t) json_count (rec, "redundant_bytes"),
                                 "zero_elements", (json_int_t) json_count (rec, "zero_elements"),
                                 "never_loaded_bytes",
                                 (json_int_t) json_count (rec, "never_loaded_bytes"),
                                 "always_zero_bytes",
                                 (json_int_t) json_count (rec, "always_zero_bytes"), "alloc_path",
                                 path_json (&frames, json_object_get (rec, "alloc_path")),
                                 "advice", advice_json (rec, all_data));
          if (!o || set_spread (o, processes, rec) || json_array_append_new (objects, o))
            return NULL;
          const json_t *map = json_object_get (rec, "byte_map");
          if (map)
            json_object_set (o, "byte_map", (json_t *) map);
        }
      free (r);

      json_t *nodes = views_tree_json (root, kind, kind_red, TREE_MIN_SHARE, TREE_MAX_NODES);
      if (!nodes || json_object_set_new (tree, kind, nodes))
        return NULL;
    }
  json_object_set (page, "program", json_object_get (root, "program"));
  json_object_set (page, "pid", json_object_get (root, "pid"));
  json_object_set (page, "arch", json_object_get (root, "arch"));
  json_object_set (page, "modes", json_object_get (root, "modes"));
  json_object_set (page, "threads", json_object_get (root, "threads"));
  if (processes)
    json_object_set_new (page, "processes", processes_json (processes));
  json_object_set (page, "summary", (json_t *) summary);
  json_object_set_new (page, "sites", sites);
  json_object_set_new (page, "site_count", json_integer ((json_int_t) site_count));
  json_object_set_new (page, "objects", objects);
  json_object_set_new (page, "object_count", json_integer ((json_int_t) object_count));
  json_object_set_new (page, "frames", frames.list);
  json_decref (frames.index);
  json_object_set_new (page, "tree", tree);
  json_object_set_new (page, "tree_min_share", json_real (TREE_MIN_SHARE));
  json_object_set_new (page, "total_red", json_integer ((json_int_t) total_red));
  json_object_set_new (page, "sources", sources ? sources_json (root, files) : json_object ());
  json_decref (files);
  return page;
}

/* json_dump_callback's output: each '<' as \u003c (it is only ever inside
   a JSON string there), so that nothing in the data ("</script", "<!--")
   can end or change the script element that holds it.  */
static int
dump_escaped (const char *buffer, size_t size, void *data)
{
  FILE *out = data;
  for (size_t i = 0; i < size; i++)
    if (buffer[i] == '<' ? fputs ("\\u003c", out) == EOF : putc (buffer[i], out) == EOF)
      return -1;
  return 0;
}

/* tool_write's writer: the page for the report of CTX.  */
struct html_job
{
  const json_t *root;
  size_t top;
  int sources;
};

static int
write_page (FILE *out, const void *ctx)
{
  const struct html_job *job = ctx;
  json_t *page = page_json (job->root, job->top, job->sources);
  if (!page)
    return -2;
  const char *program = json_str (job->root, "program");
  const char *base = strrchr (program, '/') ? strrchr (program, '/') + 1 : program;
  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>zeroinst: ",
         out);
  /* The title: the program's name, HTML-escaped.  */
  for (const char *c = base; *c; c++)
    if (*c == '<')
      fputs ("&lt;", out);
    else if (*c == '&')
      fputs ("&amp;", out);
    else
      fputc (*c, out);
  fprintf (out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<div id=\"app\"></div>\n"
                "<script id=\"zeroinst-data\" type=\"application/json\">",
           html_css);
  int r = json_dump_callback (page, dump_escaped, out, JSON_COMPACT);
  json_decref (page);
  if (r)
    return -1;
  fprintf (out, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", html_js);
  return ferror (out) ? -1 : 0;
}

int
html_run (int argc, char **argv)
{
  const char *input = NULL, *output = NULL, *value;
  size_t top = DEFAULT_TOP;
  int only_operands = 0, sources = 1;
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      int r;
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        {
          if (input)
            return tool_usage_error ("html", "extra argument '%s', html reads one report", arg);
          input = arg;
        }
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          html_help (stdout);
          return EXIT_OK;
        }
      else if (strcmp (arg, "--no-source") == 0)
        sources = 0;
      else if ((r = tool_option_value ("html", argc, argv, &i, "--top", &value)) != 0)
        {
          if (r != 1 || tool_parse_top ("html", value, &top))
            return EXIT_USAGE;
        }
      else if ((r = tool_output_option ("html", argc, argv, &i, &output)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
        }
      else
        return tool_usage_error ("html", "unknown option '%s'", arg);
    }
  if (!input)
    return tool_usage_error ("html", "missing report directory or file");
  struct report rep;
  if (report_load (input, &rep))
    return EXIT_BAD_INPUT;
  struct html_job job = { rep.root, top, sources };
  int status = tool_write (output, write_page, &job);
  report_leave (&rep);
  return status;
}
