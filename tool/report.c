/* report.c - find, parse and check a report.json.

   report_load accepts a report directory (reads DIR/report.json) or the
   file itself, parses it with jansson and checks it against SPEC §6 before
   any subcommand looks at it: the "format" must be "zeroinst-report-1" or
   "zeroinst-report-2", every required key must be there with the right
   JSON type, and counts must be non-negative integers.  Keys the SPEC does not require (the
   runtime's "other", "elem_type", "lanes", "sampling", a frame's "inlined",
   ...) are checked when present and otherwise read as 0 / "" / absent.
   Unknown keys are ignored, so newer runtimes can add keys.

   Format 2 (runtime/report/report_json.c) stores each load site once, in the
   table "sites", and each calling context once, in the tables "frames" and
   "contexts"; records name theirs by index ("site"; "context",
   "alloc_context").  expand_contexts checks the tables and turns such a
   report into format 1 in memory: every record gets its site's keys and
   the "call_path" / "alloc_path" of its context (one JSON array per
   context, shared by reference between the records under it), the
   indices and the tables are dropped and "format" becomes
   "zeroinst-report-1".  So the subcommands read one format, and
   `zeroinst export --format json-v1` writes what it got.

   Every problem is one line on stderr naming the file and the JSON path of
   the offending value (e.g. "code[3].site.line"); the caller exits 1.  */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tool.h"

#define REPORT_FORMAT "zeroinst-report-1"
#define REPORT_FORMAT_2 "zeroinst-report-2"

/* What a checked value must be.  */
enum value_type
{
  T_STRING,
  T_COUNT, /* a non-negative integer */
  T_OBJECT,
  T_ARRAY,
  T_BOOL,
  T_ANY
};

/* One key of an object, for check_fields.  */
struct field
{
  const char *key;
  enum value_type type;
  int required;
};

static const struct field totals_fields[] = {
  { "elements", T_COUNT, 1 },
  { "bytes", T_COUNT, 1 },
  { "redundant_bytes", T_COUNT, 1 },
  { "zero_elements", T_COUNT, 1 },
  { NULL, T_ANY, 0 },
};

static const struct field other_totals_fields[] = {
  { "loads", T_COUNT, 1 },
  { "bytes", T_COUNT, 1 },
  { NULL, T_ANY, 0 },
};

static const struct field frame_fields[] = {
  { "function", T_STRING, 1 },
  { "file", T_STRING, 0 }, /* frames of uninstrumented code may lack them */
  { "line", T_COUNT, 0 },
  { "inlined", T_BOOL, 0 },
  { NULL, T_ANY, 0 },
};

static const struct field site_fields[] = {
  { "file", T_STRING, 1 },
  { "line", T_COUNT, 1 },
  { "column", T_COUNT, 0 },
  { "function", T_STRING, 1 },
  { "expr", T_STRING, 0 },
  { NULL, T_ANY, 0 },
};

static const struct field code_fields[] = {
  { "kind", T_STRING, 1 },
  { "site", T_OBJECT, 1 },
  { "elem_type", T_STRING, 0 },
  { "elem_bytes", T_COUNT, 1 },
  { "access_bytes", T_COUNT, 1 },
  { "lanes", T_COUNT, 0 },
  { "copies", T_COUNT, 0 },
  { "loads", T_COUNT, 1 },
  { "elements", T_COUNT, 1 },
  { "bytes", T_COUNT, 1 },
  { "redundant_bytes", T_COUNT, 1 },
  { "zero_elements", T_COUNT, 1 },
  { "redmap", T_STRING, 1 },
  { "call_path", T_ARRAY, 1 },
  { "threads", T_ARRAY, 0 }, /* each thread's share (check_thread_part) */
  { NULL, T_ANY, 0 },
};

static const struct field other_fields[] = {
  { "site", T_OBJECT, 1 },
  { "access_bytes", T_COUNT, 0 },
  { "loads", T_COUNT, 1 },
  { "bytes", T_COUNT, 1 },
  { NULL, T_ANY, 0 },
};

static const struct field data_fields[] = {
  { "kind", T_STRING, 1 },
  { "object", T_STRING, 1 },
  { "name", T_STRING, 0 },       /* required for static objects */
  { "alloc_path", T_ARRAY, 0 },  /* required for heap objects */
  { "variable", T_STRING, 0 },   /* heap: what the program assigned it to */
  { "descriptor", T_BOOL, 0 },   /* static: a Fortran array descriptor */
  { "thread_local", T_BOOL, 0 }, /* static: one instance per thread */
  { "allocations", T_COUNT, 0 },
  { "size", T_COUNT, 1 },
  { "bytes", T_COUNT, 1 },
  { "redundant_bytes", T_COUNT, 1 },
  { "zero_elements", T_COUNT, 1 },
  { "never_loaded_bytes", T_COUNT, 1 },
  { "always_zero_bytes", T_COUNT, 1 },
  { NULL, T_ANY, 0 },
};

static const struct field thread_fields[] = {
  { "thread", T_COUNT, 1 },
  { "int", T_OBJECT, 1 },
  { "float", T_OBJECT, 1 },
  { NULL, T_ANY, 0 },
};

static const struct field summary_fields[] = {
  { "int", T_OBJECT, 1 },
  { "float", T_OBJECT, 1 },
  { "other", T_OBJECT, 0 },
  { NULL, T_ANY, 0 },
};

static const struct field root_fields[] = {
  { "program", T_STRING, 1 },
  { "pid", T_COUNT, 1 },
  { "arch", T_STRING, 1 },
  { "modes", T_ARRAY, 1 },
  { "sampling", T_ANY, 0 },
  { "summary", T_OBJECT, 1 },
  { "threads", T_ARRAY, 1 },
  { "code", T_ARRAY, 1 },
  { "other", T_ARRAY, 0 },
  { "data", T_ARRAY, 0 },
  { NULL, T_ANY, 0 },
};

/* Report a problem with the value at WHERE (a JSON path, "" for the top
   level) in FILE; KEY, if not NULL, is appended to WHERE.  Returns -1.  */
/* Set while check_array checks an element without its path: a failure is
   then only returned, and the element checked again with its path to say
   what failed.  Building "code[123].call_path[4]" for every element that
   passes was a third of the time `zeroinst show` took on large reports.  */
static int quiet;

/* Set when the report was format 2: its frames were checked once, in the
   "frames" table (context_paths), and the paths of records share them, so
   they are not checked again per record.  */
static int frames_checked;

static int
check_failed (const char *file, const char *where, const char *key, const char *problem)
{
  if (quiet)
    return -1;
  const char *dot = *where && key ? "." : "";
  tool_error ("%s: %s%s%s%s%s", file, where, dot, key ? key : "", *where || key ? ": " : "",
              problem);
  return -1;
}

/* Whether V has type T.  */
static int
has_type (const json_t *v, enum value_type t)
{
  switch (t)
    {
    case T_STRING:
      return json_is_string (v);
    case T_COUNT:
      return json_is_integer (v) && json_integer_value (v) >= 0;
    case T_OBJECT:
      return json_is_object (v);
    case T_ARRAY:
      return json_is_array (v);
    case T_BOOL:
      return json_is_boolean (v);
    case T_ANY:
      return 1;
    }
  return 0;
}

/* The words for type T in a message.  */
static const char *
type_words (enum value_type t)
{
  static const char *const words[] = {
    [T_STRING] = "expected a string",
    [T_COUNT] = "expected a non-negative integer",
    [T_OBJECT] = "expected an object",
    [T_ARRAY] = "expected an array",
    [T_BOOL] = "expected true or false",
    [T_ANY] = "",
  };
  return words[t];
}

/* Check that OBJ (at WHERE) is an object holding FIELDS.  */
static int
check_fields (const char *file, const char *where, const json_t *obj, const struct field *fields)
{
  if (!json_is_object (obj))
    return check_failed (file, where, NULL, "expected an object");
  for (const struct field *f = fields; f->key; f++)
    {
      const json_t *v = json_object_get (obj, f->key);
      if (!v)
        {
          if (f->required)
            {
              char problem[128];
              snprintf (problem, sizeof problem, "missing key \"%s\"", f->key);
              return check_failed (file, where, NULL, problem);
            }
          continue;
        }
      if (!has_type (v, f->type))
        return check_failed (file, where, f->key, type_words (f->type));
    }
  return 0;
}

/* Check that the string KEY of OBJ (at WHERE) is one of VALUES (NULL-ended).  */
static int
check_choice (const char *file, const char *where, const json_t *obj, const char *key,
              const char *const *values)
{
  const char *s = json_str (obj, key);
  char problem[160];
  for (const char *const *v = values; *v; v++)
    if (strcmp (s, *v) == 0)
      return 0;
  snprintf (problem, sizeof problem, "unknown value \"%.60s\" (expected \"%s\" or \"%s\")", s,
            values[0], values[1]);
  return check_failed (file, where, key, problem);
}

#define NO_INDEX ((size_t) -1)
#define PATH_MAX_LEN 256

/* The JSON path of member KEY of the value at WHERE into BUF (PATH_MAX_LEN
   bytes): "WHERE.KEY", or "WHERE.KEY[INDEX]" unless INDEX is NO_INDEX.
   Reports nest a few levels deep; a longer path is cut short.  */
static const char *
member_path (char *buf, const char *where, const char *key, size_t index)
{
  int len = snprintf (buf, PATH_MAX_LEN, "%s%s%s", where, *where ? "." : "", key);
  if (index != NO_INDEX && len >= 0 && len < PATH_MAX_LEN)
    snprintf (buf + len, PATH_MAX_LEN - (size_t) len, "[%zu]", index);
  return buf;
}

/* Signature of the per-element checks of check_array.  */
typedef int (*element_check) (const char *file, const char *where, const json_t *elem);

/* Apply CHECK to every element of the array KEY of OBJ (at WHERE), each
   with its own path "WHERE.KEY[i]".  A missing optional array is fine.  */
static int
check_array (const char *file, const char *where, const json_t *obj, const char *key,
             element_check check)
{
  const json_t *arr = json_object_get (obj, key);
  size_t i;
  const json_t *elem;
  json_array_foreach (arr, i, elem)
    {
      int was_quiet = quiet;
      quiet = 1;
      int failed = check (file, "", elem);
      quiet = was_quiet;
      if (failed)
        {
          char path[PATH_MAX_LEN];
          check (file, member_path (path, where, key, i), elem);
          return -1;
        }
    }
  return 0;
}

/* A call-path or allocation-path frame.  */
static int
check_frame (const char *file, const char *where, const json_t *frame)
{
  return check_fields (file, where, frame, frame_fields);
}

/* An element of "modes".  */
static int
check_mode (const char *file, const char *where, const json_t *mode)
{
  return json_is_string (mode) ? 0 : check_failed (file, where, NULL, "expected a string");
}

/* The object KEY of OBJ (at WHERE), if present, against FIELDS.  */
static int
check_member (const char *file, const char *where, const json_t *obj, const char *key,
              const struct field *fields)
{
  const json_t *v = json_object_get (obj, key);
  char path[PATH_MAX_LEN];
  if (!v)
    return 0;
  return check_fields (file, member_path (path, where, key, NO_INDEX), v, fields);
}

/* One thread's share of a code record loaded by several: [thread (-1:
   ended threads), loads, elements, bytes, redundant_bytes, zero_elements,
   redmap].  */
static int
check_thread_part (const char *file, const char *where, const json_t *part)
{
  int ok = json_is_array (part) && json_array_size (part) == 7
           && json_is_integer (json_array_get (part, 0))
           && json_integer_value (json_array_get (part, 0)) >= -1
           && json_is_string (json_array_get (part, 6));
  for (size_t i = 1; ok && i < 6; i++)
    ok = has_type (json_array_get (part, i), T_COUNT);
  return ok ? 0
            : check_failed (file, where, NULL,
                            "expected [thread, loads, elements, bytes, redundant_bytes, "
                            "zero_elements, redmap]");
}

static const char *const kind_values[] = { "int", "float", NULL };
static const char *const object_values[] = { "static", "heap", NULL };

/* A record of "code" (SPEC §6).  */
static int
check_code_record (const char *file, const char *where, const json_t *rec)
{
  if (check_fields (file, where, rec, code_fields)
      || check_choice (file, where, rec, "kind", kind_values)
      || check_member (file, where, rec, "site", site_fields)
      || check_array (file, where, rec, "threads", check_thread_part))
    return -1;
  /* "thread": the one thread that loaded it; -1: threads that ended
     before the report.  */
  const json_t *thread = json_object_get (rec, "thread");
  if (thread && !(json_is_integer (thread) && json_integer_value (thread) >= -1))
    return check_failed (file, where, "thread", "expected a thread number or -1");
  return frames_checked ? 0 : check_array (file, where, rec, "call_path", check_frame);
}

/* A record of "other": a load that was not analysed.  */
static int
check_other_record (const char *file, const char *where, const json_t *rec)
{
  return check_fields (file, where, rec, other_fields)
         || check_member (file, where, rec, "site", site_fields) ? -1 : 0;
}

/* A record of "data" (SPEC §5): a static object has a name, a heap object
   an allocation path.  */
static int
check_data_record (const char *file, const char *where, const json_t *rec)
{
  if (check_fields (file, where, rec, data_fields)
      || check_choice (file, where, rec, "kind", kind_values)
      || check_choice (file, where, rec, "object", object_values))
    return -1;
  int is_static = strcmp (json_str (rec, "object"), "static") == 0;
  const char *needed = is_static ? "name" : "alloc_path";
  if (!json_object_get (rec, needed))
    {
      char problem[128];
      snprintf (problem, sizeof problem, "missing key \"%s\" (%s object)", needed,
                is_static ? "static" : "heap");
      return check_failed (file, where, NULL, problem);
    }
  return frames_checked ? 0 : check_array (file, where, rec, "alloc_path", check_frame);
}

/* An element of "threads".  */
static int
check_thread (const char *file, const char *where, const json_t *t)
{
  return check_fields (file, where, t, thread_fields)
         || check_member (file, where, t, "int", totals_fields)
         || check_member (file, where, t, "float", totals_fields) ? -1 : 0;
}

/* The "format" key: is this a report this tool reads at all?  */
static int
check_format (const char *file, const json_t *root)
{
  char problem[200];
  if (!json_is_object (root))
    return check_failed (file, "", NULL, "not a zeroinst report (the top level is not a JSON object)");
  const json_t *format = json_object_get (root, "format");
  if (!format)
    return check_failed (file, "", NULL, "not a zeroinst report (no \"format\" key)");
  if (!json_is_string (format))
    return check_failed (file, "", "format", "expected a string");
  if (strcmp (json_string_value (format), REPORT_FORMAT) == 0
      || strcmp (json_string_value (format), REPORT_FORMAT_2) == 0)
    return 0;
  snprintf (problem, sizeof problem,
            "unsupported report format \"%.80s\" (expected \"%s\" or \"%s\")",
            json_string_value (format), REPORT_FORMAT, REPORT_FORMAT_2);
  return check_failed (file, "", NULL, problem);
}

/* Format 2: the path arrays of the "contexts" table of ROOT (one per
   context, innermost frame first), checked; NULL after a message.  A
   context's parent must come before it, so a path has no cycle and is
   built from its parent's.  */
static json_t *
context_paths (const char *file, json_t *root)
{
  json_t *frames = json_object_get (root, "frames");
  json_t *contexts = json_object_get (root, "contexts");
  if (!json_is_array (frames))
    {
      check_failed (file, "", frames ? "frames" : NULL,
                    frames ? "expected an array" : "missing key \"frames\"");
      return NULL;
    }
  if (!json_is_array (contexts))
    {
      check_failed (file, "", contexts ? "contexts" : NULL,
                    contexts ? "expected an array" : "missing key \"contexts\"");
      return NULL;
    }
  if (check_array (file, "", root, "frames", check_frame))
    return NULL;
  size_t nframes = json_array_size (frames);
  json_t *paths = json_array ();
  if (!paths)
    {
      tool_error ("%s: out of memory", file);
      return NULL;
    }
  size_t i;
  json_t *ctx;
  json_array_foreach (contexts, i, ctx)
    {
      json_t *f = json_array_get (ctx, 0), *p = json_array_get (ctx, 1);
      const char *problem = NULL;
      if (!json_is_array (ctx) || json_array_size (ctx) != 2 || !json_is_integer (f)
          || !json_is_integer (p))
        problem = "expected [frame, parent], two integers";
      else if (json_integer_value (f) < 0 || (size_t) json_integer_value (f) >= nframes)
        problem = "frame index out of range";
      else if (json_integer_value (p) < -1 || json_integer_value (p) >= (json_int_t) i)
        problem = "parent must be -1 or an earlier context";
      if (problem)
        {
          char where[PATH_MAX_LEN];
          json_decref (paths);
          check_failed (file, member_path (where, "", "contexts", i), NULL, problem);
          return NULL;
        }
      json_t *path = json_array ();
      json_array_append (path, json_array_get (frames, (size_t) json_integer_value (f)));
      if (json_integer_value (p) >= 0)
        json_array_extend (path, json_array_get (paths, (size_t) json_integer_value (p)));
      if (json_array_append_new (paths, path))
        {
          json_decref (paths);
          tool_error ("%s: out of memory", file);
          return NULL;
        }
    }
  return paths;
}

/* Keys of a format-2 "sites" entry that go into a record's "site" object,
   and those that go into a code record (an "other" record takes only
   access_bytes).  */
static const char *const site_keys[] = { "file", "line", "column", "function", "expr", NULL };
static const char *const site_record_keys[] = { "kind", "elem_type", "elem_bytes", "lanes",
                                                "copies", NULL };

/* Format 2: replace the site index of every record of the array ARRAY of
   ROOT by the "site" object and the site's keys a format-1 record has.
   OBJS holds the "site" object of each entry of "sites" once made.  */
static int
expand_sites (const char *file, json_t *root, const char *array, json_t **objs)
{
  json_t *sites = json_object_get (root, "sites");
  json_t *records = json_object_get (root, array);
  int code = !strcmp (array, "code");
  size_t i;
  json_t *rec;
  json_array_foreach (records, i, rec)
    {
      json_t *index = json_object_get (rec, "site");
      if (!json_is_object (rec) || !index)
        continue;               /* check_report says what is missing */
      json_t *entry = json_is_integer (index) && json_integer_value (index) >= 0
                      ? json_array_get (sites, (size_t) json_integer_value (index)) : NULL;
      if (!json_is_object (entry))
        {
          char where[PATH_MAX_LEN];
          return check_failed (file, member_path (where, "", array, i), "site",
                               "expected the index of a site");
        }
      /* The entry's "site" object, made once and shared by its records.  */
      json_t **site = &objs[json_integer_value (index)];
      int failed = 0;
      if (!*site)
        {
          *site = json_object ();
          failed = !*site;
          for (const char *const *k = site_keys; *k && !failed; k++)
            if (json_object_get (entry, *k))
              failed = json_object_set (*site, *k, json_object_get (entry, *k));
        }
      failed = failed || json_object_set (rec, "site", *site);
      for (const char *const *k = site_record_keys; code && *k && !failed; k++)
        if (json_object_get (entry, *k))
          failed = json_object_set (rec, *k, json_object_get (entry, *k));
      if (!failed && json_object_get (entry, "access_bytes"))
        failed = json_object_set (rec, "access_bytes", json_object_get (entry, "access_bytes"));
      if (failed)
        {
          tool_error ("%s: out of memory", file);
          return -1;
        }
    }
  return 0;
}

/* Format 2: replace the index KEY of every record of the array ARRAY of
   ROOT that has one by the path PATH_KEY it names (-1: an empty path).  */
static int
expand_records (const char *file, json_t *root, const char *array, const char *key,
                const char *path_key, json_t *paths)
{
  json_t *records = json_object_get (root, array);
  size_t i;
  json_t *rec;
  json_array_foreach (records, i, rec)
    {
      json_t *c = json_object_get (rec, key);
      if (!json_is_object (rec) || !c)
        continue;               /* check_report says what is missing */
      if (!json_is_integer (c) || json_integer_value (c) < -1
          || json_integer_value (c) >= (json_int_t) json_array_size (paths))
        {
          char where[PATH_MAX_LEN];
          return check_failed (file, member_path (where, "", array, i), key,
                               "expected -1 or the index of a context");
        }
      json_t *path = json_integer_value (c) < 0 ? json_array ()
                     : json_incref (json_array_get (paths, (size_t) json_integer_value (c)));
      if (json_object_set_new (rec, path_key, path) || json_object_del (rec, key))
        {
          tool_error ("%s: out of memory", file);
          return -1;
        }
    }
  return 0;
}

/* A format-2 ROOT turned into format 1 (see the top of the file).  */
static int
expand_contexts (const char *file, json_t *root)
{
  json_t *sites = json_object_get (root, "sites");
  if (!json_is_array (sites))
    return check_failed (file, "", sites ? "sites" : NULL,
                         sites ? "expected an array" : "missing key \"sites\"");
  size_t nsites = json_array_size (sites);
  json_t **objs = calloc (nsites ? nsites : 1, sizeof *objs);
  if (!objs)
    {
      tool_error ("%s: out of memory", file);
      return -1;
    }
  int failed = expand_sites (file, root, "code", objs) || expand_sites (file, root, "other", objs);
  for (size_t i = 0; i < nsites; i++)
    json_decref (objs[i]);
  free (objs);
  if (failed)
    return -1;
  json_t *paths = context_paths (file, root);
  if (!paths)
    return -1;
  int r = expand_records (file, root, "code", "context", "call_path", paths)
          || expand_records (file, root, "other", "context", "call_path", paths)
          || expand_records (file, root, "data", "alloc_context", "alloc_path", paths);
  json_decref (paths);
  if (r)
    return -1;
  json_object_del (root, "sites");
  json_object_del (root, "frames");
  json_object_del (root, "contexts");
  return json_object_set_new (root, "format", json_string (REPORT_FORMAT)) ? -1 : 0;
}

/* The whole report, top-down.  */
static int
check_report (const char *file, json_t *root)
{
  const json_t *summary = json_object_get (root, "summary");
  if (check_format (file, root))
    return -1;
  frames_checked = !strcmp (json_str (root, "format"), REPORT_FORMAT_2);
  if (frames_checked && expand_contexts (file, root))
    return -1;
  if (check_fields (file, "", root, root_fields)
      || check_array (file, "", root, "modes", check_mode)
      || check_member (file, "", root, "summary", summary_fields)
      || check_member (file, "summary", summary, "int", totals_fields)
      || check_member (file, "summary", summary, "float", totals_fields)
      || check_member (file, "summary", summary, "other", other_totals_fields)
      || check_array (file, "", root, "threads", check_thread)
      || check_array (file, "", root, "code", check_code_record)
      || check_array (file, "", root, "other", check_other_record)
      || check_array (file, "", root, "data", check_data_record))
    return -1;
  return 0;
}

/* The report.json that ARG names: ARG itself, or ARG/report.json when ARG
   is a directory.  NULL (after a message) when ARG does not exist.  */
static char *
report_path (const char *arg)
{
  struct stat st;
  if (stat (arg, &st) != 0)
    {
      tool_error ("cannot open '%s': %s", arg, strerror (errno));
      return NULL;
    }
  if (!S_ISDIR (st.st_mode))
    return strdup (arg);
  size_t len = strlen (arg);
  char *path = malloc (len + sizeof "/report.json");
  if (path)
    sprintf (path, "%s%sreport.json", arg, len && arg[len - 1] == '/' ? "" : "/");
  return path;
}

/* Parse PATH, found in the directory DIR (NULL: named by the user).
   NULL (after a message) when it cannot be read or is not JSON; jansson's
   message says what is wrong and where.  */
static json_t *
parse_file (const char *path, const char *dir)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      if (errno == ENOENT && dir)
        tool_error ("'%s' is not a zeroinst report directory: it has no report.json", dir);
      else
        tool_error ("cannot read '%s': %s", path, strerror (errno));
      return NULL;
    }
  json_error_t err;
  json_t *root = json_loadf (f, 0, &err);
  fclose (f);
  if (!root)
    {
      if (err.line > 0)
        tool_error ("%s:%d:%d: invalid JSON: %s", path, err.line, err.column, err.text);
      else
        tool_error ("%s: invalid JSON: %s", path, err.text);
    }
  return root;
}

/* Load and check the report in DIR_OR_FILE into OUT.  Returns 0, or -1
   after a one-line message on stderr.  */
int
report_load (const char *dir_or_file, struct report *out)
{
  out->root = NULL;
  out->path = report_path (dir_or_file);
  if (!out->path)
    return -1;
  int is_dir = strcmp (out->path, dir_or_file) != 0;
  out->root = parse_file (out->path, is_dir ? dir_or_file : NULL);
  if (!out->root || check_report (out->path, out->root))
    {
      report_free (out);
      return -1;
    }
  return 0;
}

/* Release what report_load allocated.  */
void
report_free (struct report *r)
{
  json_decref (r->root);
  free (r->path);
  r->root = NULL;
  r->path = NULL;
}

void
report_leave (struct report *r)
{
  free (r->path);
  r->root = NULL;
  r->path = NULL;
}

/* The count KEY of OBJ; 0 when absent.  */
uint64_t
json_count (const json_t *obj, const char *key)
{
  const json_t *v = json_object_get (obj, key);
  return json_is_integer (v) && json_integer_value (v) > 0 ? (uint64_t) json_integer_value (v) : 0;
}

/* The string KEY of OBJ; "" when absent.  */
const char *
json_str (const json_t *obj, const char *key)
{
  const char *s = json_string_value (json_object_get (obj, key));
  return s ? s : "";
}

/* The object of data record REC in words: "static NAME", "static NAME
   (array descriptor)", "static NAME (thread-local, N threads)", "heap
   VARIABLE, N allocations by ALLOCATOR" (no VARIABLE when the program did
   not name it), into BUF.  */
void
tool_object_label (const json_t *rec, char *buf, size_t size)
{
  if (strcmp (json_str (rec, "object"), "heap") != 0
      && json_is_true (json_object_get (rec, "thread_local")))
    {
      uint64_t n = json_count (rec, "allocations");
      snprintf (buf, size, "static %s (thread-local, %" PRIu64 " thread%s)", json_str (rec, "name"),
                n, n == 1 ? "" : "s");
      return;
    }
  if (strcmp (json_str (rec, "object"), "heap") != 0)
    {
      snprintf (buf, size, "static %s%s", json_str (rec, "name"),
                json_is_true (json_object_get (rec, "descriptor")) ? " (array descriptor)" : "");
      return;
    }
  const char *var = json_str (rec, "variable");
  int n = snprintf (buf, size, "heap%s%s", *var ? " " : "", var);
  if (n < 0 || (size_t) n >= size || !json_object_get (rec, "allocations"))
    return;
  snprintf (buf + n, size - (size_t) n, ", %" PRIu64 " allocation%s%s%s",
            json_count (rec, "allocations"), json_count (rec, "allocations") == 1 ? "" : "s",
            json_object_get (rec, "allocator") ? " by " : "", json_str (rec, "allocator"));
}

/* PART as a percentage of WHOLE; 0 when WHOLE is 0.  */
double
percent (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

/* Order for qsort: larger value first, then file order.  */
static int
compare_ranked (const void *pa, const void *pb)
{
  const struct ranked *a = pa, *b = pb;
  if (a->value != b->value)
    return a->value > b->value ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The records of array ARR whose "kind" is KIND (NULL: all), ranked by
   their count KEY, largest first, equal ones in file order.  Sets *N; the
   result is malloc'd (NULL when out of memory).  */
struct ranked *
tool_rank (const json_t *arr, const char *kind, const char *key, size_t *n)
{
  struct ranked *out = malloc ((json_array_size (arr) + 1) * sizeof *out);
  size_t i;
  const json_t *rec;
  *n = 0;
  if (!out)
    return NULL;
  json_array_foreach (arr, i, rec)
    if (!kind || strcmp (json_str (rec, "kind"), kind) == 0)
      out[(*n)++] = (struct ranked) { rec, json_count (rec, key), i };
  qsort (out, *n, sizeof *out, compare_ranked);
  return out;
}

/* How process I of the "processes" of a merged report is named: by rank
   when it has one (a count, as the runtime writes it), else by pid.  */
void
tool_process_label (const json_t *processes, size_t i, char *buf, size_t size)
{
  const json_t *p = json_array_get (processes, i);
  const json_t *rank = json_object_get (p, "rank");
  if (json_is_integer (rank) && json_integer_value (rank) >= 0)
    snprintf (buf, size, "rank %" JSON_INTEGER_FORMAT, json_integer_value (rank));
  else
    snprintf (buf, size, "pid %" PRIu64, json_count (p, "pid"));
}

/* REC's "spread" over PROCESSES (merge.c) as one line into BUF, for its
   redundant bytes, or its bytes when it has none.  0 when REC has no
   spread or PROCESSES is NULL (the report of one process).  */
int
tool_spread_text (const json_t *processes, const json_t *rec, char *buf, size_t size)
{
  const json_t *sp = json_object_get (rec, "spread");
  if (!processes || !json_is_object (sp))
    return 0;
  const char *key = json_object_get (sp, "redundant_bytes") ? "redundant_bytes" : "bytes";
  const json_t *v = json_object_get (sp, key);
  char lo[48], hi[48];
  tool_process_label (processes, json_count (v, "min_process"), lo, sizeof lo);
  tool_process_label (processes, json_count (v, "max_process"), hi, sizeof hi);
  snprintf (buf, size,
            "in %" PRIu64 " of %zu processes; %s per process: min %" PRIu64 " (%s), max %" PRIu64
            " (%s), mean %.1f",
            json_count (sp, "processes"), json_array_size (processes),
            key[0] == 'r' ? "redundant bytes" : "bytes", json_count (v, "min"), lo,
            json_count (v, "max"), hi, json_real_value (json_object_get (v, "mean")));
  return 1;
}
