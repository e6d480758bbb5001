/* merge.c - `zeroinst merge REPORT... -o OUT`

   Combines the reports of many processes of one program (the ranks of an
   MPI job, a parent and its forked children) into one report that every
   other command reads.  Inputs are report directories, report.json files,
   or quoted patterns such as 'zeroinst-prog-r*' that the tool expands.

   The reports are read one at a time and folded into the merged records,
   so memory grows with the distinct records, not with the number of
   inputs; time grows with the records read (a process lacking a record
   is accounted when the record next appears, or at the end), and the
   output records are made one at a time as they are written.  A record's identity is everything in it but its counts:
     code, other  kind, site, element type and sizes, the whole call path;
     data         kind, object class, the static object's name, symbol and
                  module or the heap group's allocator and allocation path.
   Records of one identity (in any input) add up their counts; a code
   record's redmap keeps a byte or field '0' only where it was '0' in all
   of them, and its per-thread shares add up by thread number.  A data
   record's byte map states combine as a heap group's allocations do (`x`
   if seen non-zero anywhere, else `z` if loaded anywhere, else `n`), at
   the largest granule of the inputs, coarsened past 65536 runs like the
   runtime's.  So an object's counts add up over the processes as a heap
   group's do over its blocks.

   The output is format 2 ("zeroinst-report-2"): the frames, calling
   contexts and sites of all inputs, each once (interned by value, so the
   inputs' own numbering does not matter), and records that name them.
   What only a merged report has:
     "processes"  one entry per input, in the order read: its "report"
                  path, "pid", "rank" (when the launcher gave one) and
                  whole "summary";
     "spread"     per record: in how many "processes" it occurs, and for
                  its "redundant_bytes" and "bytes" the "min", "max" (with
                  the index in "processes" of the first process holding
                  each; a process without the record counts 0) and "mean"
                  over all processes, so imbalance shows.
   "summary" and "threads" add up over the processes (threads by number).
   "pid" is the first input's.

   Inputs must be of one program, architecture and set of modes; a merged
   report is not an input (merge the original reports instead).  Nothing is
   written unless every input was read; OUT must not exist.  */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tool.h"

/* A byte map's state order: combining takes the larger.  */
enum
{
  ST_NEVER,
  ST_ZERO,
  ST_NONZERO
};
static const char state_chars[] = "nzx";

/* The runtime writes maps of at most this many runs.  */
#define MAX_RUNS 65536

/* A byte map as runs of states over byte offsets [previous end, end).  */
struct run
{
  uint64_t end;
  int state;
};
struct byte_map
{
  uint64_t granule, length;
  struct run *runs;
  size_t n, cap;
};

/* The counts spread over processes.  */
enum
{
  SP_RED,
  SP_BYTES,
  NSPREAD
};
static const char *const spread_keys[NSPREAD] = { "redundant_bytes", "bytes" };

/* The keys that add up in each kind of record (at most MAX_COUNTS).
   Everything else in a record but these, "redmap", "byte_map", "thread",
   "threads" and its paths is its identity (for code and other records:
   its site's).  */
#define MAX_COUNTS 8
static const char *const code_counts[]
  = { "loads", "elements", "bytes", "redundant_bytes", "zero_elements", NULL };
static const char *const other_counts[] = { "loads", "bytes", NULL };
static const char *const data_counts[] = { "allocations",    "size",
                                           "elements",       "bytes",
                                           "redundant_bytes", "zero_elements",
                                           "never_loaded_bytes", "always_zero_bytes",
                                           NULL };
static const char *const not_identity[]
  = { "redmap", "byte_map", "thread", "threads", "site", "call_path", "alloc_path", NULL };

/* The record arrays merged.  */
static const struct array
{
  const char *name;
  char tag;                   /* starts the identity key */
  const char *const *counts;
  const char *path;           /* the key of the record's path */
} arrays[] = {
  { "code", 'c', code_counts, "call_path" },
  { "other", 'o', other_counts, "call_path" },
  { "data", 'd', data_counts, "alloc_path" },
};
#define NARRAYS (sizeof arrays / sizeof arrays[0])
enum
{
  A_CODE,
  A_OTHER,
  A_DATA
};

/* One merged record.  */
struct merged
{
  long site;            /* code, other: the site's index in the output */
  long context;         /* the call path's (data: the allocation path's)
                           index in the output, -1 for none */
  json_t *rec;          /* data: the record's identity keys (owned) */
  uint64_t count[MAX_COUNTS]; /* the array's counts, added up */
  unsigned has_count;   /* bit I: some input had count I */
  char *redmap;         /* code: combined, malloc'd */
  long thread;          /* code: the one thread that loaded it so far ... */
  json_t *parts;        /* ... or, once several did, thread number -> its
                           share [thread, loads, elements, bytes,
                           redundant_bytes, zero_elements, redmap] */
  struct byte_map map;  /* data: the combined byte map (granule 0: none) */
  int has_spread[NSPREAD]; /* some input had this count */
  uint64_t now[NSPREAD];   /* in the process being read */
  int seen_now;         /* occurs in the process being read */
  size_t seen_in;       /* 1 + the last process that had it; 0: none yet */
  int spread_started;   /* min and max hold a process's value */
  uint64_t min[NSPREAD], max[NSPREAD], sum[NSPREAD];
  size_t min_at[NSPREAD], max_at[NSPREAD];
  size_t processes;     /* processes that had it */
};

/* A calling context of the output: its innermost frame and its caller's
   context (-1: none).  */
struct context
{
  long frame, parent;
};

/* Everything merged so far.  */
struct merge
{
  struct tool_table table[NARRAYS]; /* items: struct merged */
  struct tool_table frames;         /* items: json_t * (owned) */
  struct tool_table contexts;       /* items: struct context */
  struct tool_table sites;          /* items: json_t * (owned) */
  json_t *seen;                     /* the input's frames, paths and site
                                       objects (by address) -> their index */
  json_t *root;                     /* the output, without the records */
  json_t *threads;                  /* thread number -> totals */
  int present[NARRAYS];             /* some input had the array */
  size_t *order[NARRAYS];           /* the records in output order */
  struct touched
  {
    size_t *at;                     /* records of the array the input had */
    size_t n, cap;
  } touched[NARRAYS];
  long input_thread;                /* the thread of the input's records
                                       that name none */
  int thread_named;                 /* some input's records named threads */
  int threads_shown;                /* the output's records name them */
  size_t nproc;                     /* inputs read */
  const char *input;                /* the one being read, for messages */
  const char *first;                /* the first one */
};

void
merge_help (FILE *out)
{
  fputs ("Usage: zeroinst merge REPORT... -o OUT\n"
         "\n"
         "Combines the reports of many processes of one program (MPI ranks, a parent\n"
         "and its children) into the new report directory OUT, which every other\n"
         "command reads.  A REPORT is a report directory, a report.json, or a quoted\n"
         "pattern ('zeroinst-prog-r*') that zeroinst expands.  The reports are read\n"
         "one at a time.\n"
         "\n"
         "Records of one site and call path (objects: one name or allocation path)\n"
         "add up; so do the totals and threads of the same number.  OUT also has\n"
         "each process's totals (\"processes\") and, per record, the minimum, maximum\n"
         "and mean over the processes (\"spread\"), which `zeroinst show OUT` prints.\n"
         "The reports must be of one program, architecture and set of modes.\n"
         "\n"
         "Options:\n"
         "  -o OUT        the report directory to create (it must not exist)\n"
         "  -h, --help    print this help\n",
         out);
}

/* An error about the input being read; returns -1.  */
static int
input_error (const struct merge *m, const char *what)
{
  tool_error ("%s: %s", m->input, what);
  return -1;
}

/* *ACC += V, refusing to wrap.  */
static int
add_count (const struct merge *m, uint64_t *acc, uint64_t v)
{
  if (__builtin_add_overflow (*acc, v, acc) || *acc > (uint64_t) INT64_MAX)
    return input_error (m, "counts too large to add up");
  return 0;
}

/* Add the numbers of IN into ACC, key by key and recursively (objects of
   totals); keys only IN has are copied.  */
static int
sum_into (const struct merge *m, json_t *acc, const json_t *in)
{
  const char *key;
  json_t *v;
  json_object_foreach ((json_t *) in, key, v)
  {
    json_t *a = json_object_get (acc, key);
    if (!a)
      {
        if (json_object_set_new (acc, key, json_deep_copy (v)))
          return input_error (m, "out of memory");
      }
    else if (json_is_object (a) && json_is_object (v))
      {
        if (sum_into (m, a, v))
          return -1;
      }
    else if (json_is_integer (a) && json_is_integer (v))
      {
        uint64_t s = (uint64_t) json_integer_value (a);
        if (json_integer_value (v) < 0 || json_integer_value (a) < 0)
          return input_error (m, "negative count");
        if (add_count (m, &s, (uint64_t) json_integer_value (v)))
          return -1;
        json_integer_set (a, (json_int_t) s);
      }
  }
  return 0;
}

/* --- byte maps --- */

static int
map_push (struct byte_map *map, uint64_t end, int state)
{
  if (map->n && map->runs[map->n - 1].state == state)
    {
      map->runs[map->n - 1].end = end;
      return 0;
    }
  if (tool_reserve (&map->runs, &map->cap, map->n, sizeof *map->runs))
    return -1;
  map->runs[map->n++] = (struct run) { end, state };
  return 0;
}

/* Parse a record's "byte_map" into MAP (in bytes).  */
static int
map_parse (const struct merge *m, const json_t *obj, struct byte_map *map)
{
  *map = (struct byte_map) { 0 };
  const char *runs = json_string_value (json_object_get (obj, "runs"));
  map->granule = json_count (obj, "granule");
  map->length = json_count (obj, "length");
  if (!json_is_object (obj) || !runs || map->granule == 0
      || (map->granule & (map->granule - 1)) || map->length > UINT64_MAX / 2)
    return input_error (m, "bad byte_map");
  uint64_t at = 0;
  for (const char *p = runs; *p;)
    {
      char *stop;
      errno = 0;
      unsigned long long count = *p >= '0' && *p <= '9' ? strtoull (p, &stop, 10) : 0;
      const char *state = count ? strchr (state_chars, *stop) : NULL;
      /* Runs end at the map's length: the last may end inside a granule.  */
      if (errno || !state || !*stop || at >= map->length
          || count > (map->length - at - 1) / map->granule + 1)
        {
          free (map->runs);
          return input_error (m, "bad byte_map runs");
        }
      at += count * map->granule;
      if (at > map->length)
        at = map->length;
      if (map_push (map, at, (int) (state - state_chars)))
        return input_error (m, "out of memory");
      p = stop + 1;
    }
  if (at < map->length && map_push (map, map->length, ST_NEVER))
    return input_error (m, "out of memory");
  return 0;
}

/* A and B combined byte by byte into OUT (beyond a map's length: never
   loaded).  */
static int
map_combine (const struct byte_map *a, const struct byte_map *b, struct byte_map *out)
{
  *out = (struct byte_map) { a->granule > b->granule ? a->granule : b->granule,
                             a->length > b->length ? a->length : b->length, NULL, 0, 0 };
  size_t i = 0, j = 0;
  uint64_t at = 0;
  while (at < out->length)
    {
      while (i < a->n && a->runs[i].end <= at)
        i++;
      while (j < b->n && b->runs[j].end <= at)
        j++;
      int sa = i < a->n ? a->runs[i].state : ST_NEVER;
      int sb = j < b->n ? b->runs[j].state : ST_NEVER;
      uint64_t end = out->length;
      if (i < a->n && a->runs[i].end < end)
        end = a->runs[i].end;
      if (j < b->n && b->runs[j].end < end)
        end = b->runs[j].end;
      if (map_push (out, end, sa > sb ? sa : sb))
        return -1;
      at = end;
    }
  return 0;
}

/* IN at granule G into OUT: a granule's state is the largest of its
   bytes'.  */
static int
map_at_granule (const struct byte_map *in, uint64_t g, struct byte_map *out)
{
  *out = (struct byte_map) { g, in->length, NULL, 0, 0 };
  uint64_t ng = (in->length + g - 1) / g;
  size_t r = 0;
  for (uint64_t k = 0; k < ng;)
    {
      uint64_t lo = k * g, hi = lo + g < in->length ? lo + g : in->length;
      while (in->runs[r].end <= lo)
        r++;
      if (in->runs[r].end >= hi)
        {
          /* Whole granules inside one run.  */
          uint64_t kend = in->runs[r].end >= in->length ? ng : in->runs[r].end / g;
          if (map_push (out, kend * g < in->length ? kend * g : in->length, in->runs[r].state))
            return -1;
          k = kend;
          continue;
        }
      int state = ST_NEVER;
      for (size_t q = r; q < in->n && (q == r || in->runs[q - 1].end < hi); q++)
        state = in->runs[q].state > state ? in->runs[q].state : state;
      if (map_push (out, hi, state))
        return -1;
      k++;
    }
  return 0;
}

/* Fold IN into ACC (the first time: take it), at the larger granule,
   coarsened until it has at most MAX_RUNS runs.  */
static int
map_fold (const struct merge *m, struct byte_map *acc, struct byte_map *in)
{
  struct byte_map both, coarse;
  if (!acc->granule)
    both = *in;
  else if (map_combine (acc, in, &both))
    return input_error (m, "out of memory");
  else
    free (in->runs);
  if (acc->granule)
    free (acc->runs);
  *in = (struct byte_map) { 0 };
  for (uint64_t g = both.granule;; g *= 2)
    {
      if (map_at_granule (&both, g, &coarse))
        {
          free (both.runs);
          return input_error (m, "out of memory");
        }
      if (coarse.n <= MAX_RUNS || g >= both.length)
        break;
      free (coarse.runs);
    }
  free (both.runs);
  *acc = coarse;
  return 0;
}

/* MAP as a "byte_map" object.  */
static json_t *
map_json (const struct byte_map *map)
{
  size_t cap = map->n * 22 + 1;
  char *s = malloc (cap), *p = s;
  if (!s)
    return NULL;
  uint64_t at = 0;
  for (size_t i = 0; i < map->n; i++)
    {
      uint64_t count = (map->runs[i].end - at + map->granule - 1) / map->granule;
      p += sprintf (p, "%" PRIu64 "%c", count, state_chars[map->runs[i].state]);
      at = map->runs[i].end;
    }
  *p = '\0';
  json_t *obj = json_pack ("{sIsIss}", "granule", (json_int_t) map->granule, "length",
                           (json_int_t) map->length, "runs", s);
  free (s);
  return obj;
}

/* --- records --- */

/* The index in TABLE of the value KEY names, added as a copy of VALUE
   (when VALUE is not NULL) or as ITEM (SIZE bytes) when new; -1 when out
   of memory.  */
static long
intern (struct tool_table *table, const char *key, const json_t *value, const void *item)
{
  int added;
  size_t at = tool_table_get (table, key, &added);
  if (at == SIZE_MAX)
    return -1;
  if (added)
    {
      char *slot = (char *) table->items + at * table->size;
      if (value)
        {
          json_t *copy = json_deep_copy (value);
          if (!copy)
            {
              table->n--; /* the key stays, unused: the merge stops */
              return -1;
            }
          memcpy (slot, &copy, sizeof copy);
        }
      else
        memcpy (slot, item, table->size);
    }
  return (long) at;
}

/* The index already found for the input's value at address P (a frame,
   a path array or a site object) with TAG, or -2.  */
static long
seen_get (const struct merge *m, char tag, const void *p)
{
  char key[32];
  snprintf (key, sizeof key, "%c%p", tag, p);
  const json_t *v = json_object_get (m->seen, key);
  return v ? (long) json_integer_value (v) : -2;
}

static int
seen_set (struct merge *m, char tag, const void *p, long index)
{
  char key[32];
  snprintf (key, sizeof key, "%c%p", tag, p);
  return json_object_set_new (m->seen, key, json_integer (index));
}

/* V as a key: its JSON text, keys sorted (malloc'd).  */
static char *
value_key (const json_t *v)
{
  return json_dumps (v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* The output index of the context of PATH (innermost frame first), -1
   for an empty or missing path, -2 when out of memory.  Frames and
   contexts are interned by value, each path once per input.  */
static long
path_context (struct merge *m, const json_t *path)
{
  if (json_array_size (path) == 0)
    return -1;
  long known = seen_get (m, 'p', path);
  if (known != -2)
    return known;
  long parent = -1;
  for (size_t i = json_array_size (path); i-- > 0;)
    {
      const json_t *frame = json_array_get (path, i);
      long f = seen_get (m, 'f', frame);
      if (f == -2)
        {
          char *key = value_key (frame);
          f = key ? intern (&m->frames, key, frame, NULL) : -1;
          free (key);
          if (f < 0 || seen_set (m, 'f', frame, f))
            return -2;
        }
      char key[48];
      snprintf (key, sizeof key, "%ld,%ld", f, parent);
      struct context c = { f, parent };
      parent = intern (&m->contexts, key, NULL, &c);
      if (parent < 0)
        return -2;
    }
  return seen_set (m, 'p', path, parent) ? -2 : parent;
}

/* Whether KEY is one of the NULL-terminated LIST.  */
static int
listed (const char *const *list, const char *key)
{
  for (; *list; list++)
    if (!strcmp (*list, key))
      return 1;
  return 0;
}

/* REC's keys that are neither counts of array A nor NOT_IDENTITY, as a
   new object (with the keys of REC's "site" object when SITE is set).  */
static json_t *
identity_object (const struct array *a, const json_t *rec, int site)
{
  json_t *id = json_object ();
  const char *key;
  json_t *v;
  if (id && site && json_object_update (id, json_object_get (rec, "site")))
    {
      json_decref (id);
      return NULL;
    }
  json_object_foreach ((json_t *) rec, key, v)
    if (!listed (a->counts, key) && !listed (not_identity, key) && json_object_set (id, key, v))
      {
        json_decref (id);
        return NULL;
      }
  return id;
}

/* The output index of the site of code or other record REC: its "site"
   object with the record's site keys (kind, types, sizes); -2 when out
   of memory.  A format-2 input shares one site object among the records
   of one site, so each is interned once.  */
static long
record_site (struct merge *m, const struct array *a, const json_t *rec)
{
  const json_t *site = json_object_get (rec, "site");
  long known = seen_get (m, a->tag, site);
  if (known != -2)
    return known;
  json_t *entry = identity_object (a, rec, 1);
  char *key = entry ? value_key (entry) : NULL;
  long at = key ? intern (&m->sites, key, entry, NULL) : -1;
  free (key);
  json_decref (entry);
  return at < 0 || seen_set (m, a->tag, site, at) ? -2 : at;
}

/* Redmaps combined into *ACC (malloc'd): '0' where both are '0'.  */
static int
fold_redmap (const struct merge *m, char **acc, const char *in)
{
  if (!in)
    return 0;
  if (!*acc)
    return (*acc = strdup (in)) ? 0 : input_error (m, "out of memory");
  size_t n = strlen (*acc);
  if (strlen (in) != n)
    return input_error (m, "a record's redmap differs in length from another process's");
  for (size_t i = 0; i < n; i++)
    if ((*acc)[i] != in[i])
      (*acc)[i] = 'x';
  return 0;
}

/* The redmap string ACC of a thread share combined with IN's.  */
static int
merge_redmap (const struct merge *m, json_t *acc, const json_t *in)
{
  const char *a = json_string_value (acc);
  if (!a)
    return 0;
  char *s = strdup (a);
  if (!s)
    return input_error (m, "out of memory");
  int r = fold_redmap (m, &s, json_string_value (in));
  if (!r && json_string_set (acc, s))
    r = input_error (m, "out of memory");
  free (s);
  return r;
}

/* MR's one thread so far as its first share (its counts are that
   thread's), so that another thread's can join.  */
static int
start_parts (const struct merge *m, struct merged *mr)
{
  char key[32];
  snprintf (key, sizeof key, "%ld", mr->thread);
  mr->parts = json_object ();
  json_t *part = json_pack ("[IIIIIIs]", (json_int_t) mr->thread, (json_int_t) mr->count[0],
                            (json_int_t) mr->count[1], (json_int_t) mr->count[2],
                            (json_int_t) mr->count[3], (json_int_t) mr->count[4],
                            mr->redmap ? mr->redmap : "");
  if (!mr->parts || !part || json_object_set_new (mr->parts, key, part))
    return input_error (m, "out of memory");
  return 0;
}

/* Add code record REC's thread shares to MR's, before its counts are: its
   "threads", or its one "thread", or the input's thread when it names
   none (a report of one thread).  ADDED: MR is new.  */
static int
fold_threads (struct merge *m, struct merged *mr, const json_t *rec, int added)
{
  const json_t *threads = json_object_get (rec, "threads");
  const json_t *thread = json_object_get (rec, "thread");
  long t = thread ? (long) json_integer_value (thread) : m->input_thread;
  m->thread_named |= threads || thread;
  if (!threads && !mr->parts)
    {
      if (added || t == mr->thread)
        {
          mr->thread = t;
          return 0;
        }
    }
  if (!mr->parts && !added && start_parts (m, mr))
    return -1;
  if (!mr->parts && !(mr->parts = json_object ()))
    return input_error (m, "out of memory");
  json_t *one = NULL;
  if (!threads)
    {
      one = json_pack ("[[IIIIIIs]]", (json_int_t) t, (json_int_t) json_count (rec, "loads"),
                       (json_int_t) json_count (rec, "elements"),
                       (json_int_t) json_count (rec, "bytes"),
                       (json_int_t) json_count (rec, "redundant_bytes"),
                       (json_int_t) json_count (rec, "zero_elements"), json_str (rec, "redmap"));
      if (!one)
        return input_error (m, "out of memory");
      threads = one;
    }
  size_t i;
  json_t *part;
  int r = 0;
  json_array_foreach ((json_t *) threads, i, part)
  {
    char key[32];
    snprintf (key, sizeof key, "%" JSON_INTEGER_FORMAT,
              json_integer_value (json_array_get (part, 0)));
    json_t *acc = json_object_get (mr->parts, key);
    if (!acc)
      {
        if (json_object_set_new (mr->parts, key, json_deep_copy (part)))
          r = input_error (m, "out of memory");
        continue;
      }
    for (size_t k = 1; k < 6 && !r; k++)
      {
        uint64_t s = (uint64_t) json_integer_value (json_array_get (acc, k));
        r = add_count (m, &s, (uint64_t) json_integer_value (json_array_get (part, k)));
        json_integer_set (json_array_get (acc, k), (json_int_t) s);
      }
    if (!r)
      r = merge_redmap (m, json_array_get (acc, 6), json_array_get (part, 6));
    if (r)
      break;
  }
  json_decref (one);
  return r;
}

/* Fold record REC of array K of the input into M.  */
static int
fold_record (struct merge *m, size_t k, const json_t *rec)
{
  const struct array *a = &arrays[k];
  long context = path_context (m, json_object_get (rec, a->path)), site = -1;
  json_t *id_obj = NULL;
  char *id = NULL;
  if (context == -2)
    return input_error (m, "out of memory");
  if (k == A_DATA)
    {
      id_obj = identity_object (a, rec, 0);
      char *text = id_obj ? value_key (id_obj) : NULL;
      if (text && asprintf (&id, "%c%ld %s", a->tag, context, text) < 0)
        id = NULL;
      free (text);
    }
  else if ((site = record_site (m, a, rec)) == -2 || asprintf (&id, "%c%ld %ld", a->tag, site, context) < 0)
    id = NULL;
  int added = 0;
  size_t at = id ? tool_table_get (&m->table[k], id, &added) : SIZE_MAX;
  free (id);
  if (at == SIZE_MAX)
    {
      json_decref (id_obj);
      return input_error (m, "out of memory");
    }
  struct merged *mr = (struct merged *) m->table[k].items + at;
  if (added)
    {
      mr->site = site;
      mr->context = context;
      mr->rec = id_obj;
    }
  else
    json_decref (id_obj);
  if (k == A_CODE && fold_threads (m, mr, rec, added))
    return -1;
  if (!mr->seen_now)
    {
      struct touched *t = &m->touched[k];
      if (tool_reserve (&t->at, &t->cap, t->n, sizeof *t->at))
        return input_error (m, "out of memory");
      t->at[t->n++] = at;
      mr->seen_now = 1;
    }
  for (size_t c = 0; a->counts[c]; c++)
    {
      const json_t *v = json_object_get (rec, a->counts[c]);
      if (!v)
        continue;
      mr->has_count |= 1u << c;
      if (add_count (m, &mr->count[c], (uint64_t) json_integer_value (v)))
        return -1;
      for (size_t s = 0; s < NSPREAD; s++)
        if (!strcmp (a->counts[c], spread_keys[s]))
          {
            mr->has_spread[s] = 1;
            if (add_count (m, &mr->now[s], (uint64_t) json_integer_value (v)))
              return -1;
          }
    }
  if (k == A_CODE
      && fold_redmap (m, &mr->redmap, json_string_value (json_object_get (rec, "redmap"))))
    return -1;
  const json_t *map = json_object_get (rec, "byte_map");
  if (map)
    {
      struct byte_map in;
      if (map_parse (m, map, &in) || map_fold (m, &mr->map, &in))
        return -1;
    }
  return 0;
}

/* Process P's value V of each spread count of MR: min and max keep the
   first process holding them.  Processes come in order.  */
static void
spread_add (struct merged *mr, size_t p, const uint64_t v[NSPREAD])
{
  for (size_t s = 0; s < NSPREAD; s++)
    {
      if (!mr->spread_started || v[s] < mr->min[s])
        mr->min[s] = v[s], mr->min_at[s] = p;
      if (!mr->spread_started || v[s] > mr->max[s])
        mr->max[s] = v[s], mr->max_at[s] = p;
      mr->sum[s] += v[s];
    }
  mr->spread_started = 1;
}

/* The processes before P that lacked MR (counted 0): only the first of
   them can change min or max, the others tie with it.  */
static void
spread_gap (struct merged *mr, size_t p)
{
  static const uint64_t zero[NSPREAD];
  if (mr->seen_in < p)
    spread_add (mr, mr->seen_in, zero);
}

/* The process just read ends: the records it had take its counts into
   their spread, after a 0 for the processes between that lacked them.
   Only those records are visited, so the time grows with the records
   read, not with records times processes.  */
static void
end_process (struct merge *m)
{
  size_t p = m->nproc;
  for (size_t k = 0; k < NARRAYS; k++)
    {
      for (size_t i = 0; i < m->touched[k].n; i++)
        {
          struct merged *mr = (struct merged *) m->table[k].items + m->touched[k].at[i];
          spread_gap (mr, p);
          spread_add (mr, p, mr->now);
          memset (mr->now, 0, sizeof mr->now);
          mr->seen_in = p + 1;
          mr->processes++;
          mr->seen_now = 0;
        }
      m->touched[k].n = 0;
    }
  m->nproc++;
}

/* --- inputs --- */

/* Check that ROOT (the input being read) can join the merge.  */
static int
check_input (struct merge *m, const json_t *root)
{
  if (json_object_get (root, "processes"))
    return input_error (m, "is a merged report: merge the reports it was made from instead");
  if (!m->root)
    return 0;
  static const char *const same[] = { "program", "arch", "modes" };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
    if (!json_equal (json_object_get (root, same[i]), json_object_get (m->root, same[i])))
      {
        char *a = json_dumps (json_object_get (root, same[i]), JSON_ENCODE_ANY | JSON_COMPACT);
        char *b = json_dumps (json_object_get (m->root, same[i]), JSON_ENCODE_ANY | JSON_COMPACT);
        tool_error ("%s: %s %s differs from %s of %s: only reports of one program are merged",
                    m->input, same[i], a ? a : "?", b ? b : "?", m->first);
        free (a);
        free (b);
        return -1;
      }
  return 0;
}

/* Fold the loaded report ROOT, read from PATH, into M.  */
static int
fold_report (struct merge *m, const char *path, const json_t *root)
{
  if (check_input (m, root))
    return -1;
  /* Addresses of the last input's values mean nothing now.  */
  if (json_object_clear (m->seen))
    return input_error (m, "out of memory");
  if (!m->root)
    {
      m->root = json_pack ("{sssssOsOsOsOs{}}", "format", "zeroinst-report-2", "program",
                           json_str (root, "program"), "pid", json_object_get (root, "pid"),
                           "arch", json_object_get (root, "arch"), "modes",
                           json_object_get (root, "modes"), "sampling",
                           json_object_get (root, "sampling") ? json_object_get (root, "sampling")
                                                              : json_null (),
                           "summary");
      m->threads = json_object ();
      json_t *processes = json_array ();
      if (!m->root || !m->threads || json_object_set_new (m->root, "processes", processes))
        return input_error (m, "out of memory");
      m->first = m->input;
    }
  const json_t *summary = json_object_get (root, "summary");
  /* A report of one thread names no thread in its records.  */
  const json_t *threads = json_object_get (root, "threads");
  m->input_thread = json_array_size (threads) == 1
                    ? (long) json_integer_value (json_object_get (json_array_get (threads, 0),
                                                                  "thread"))
                    : 0;
  /* jansson takes UTF-8 only; a file name need not be.  */
  json_t *name = json_string (path);
  if (!name)
    {
      char *clean = strdup (path);
      for (char *c = clean; c && *c; c++)
        if ((unsigned char) *c >= 0x80)
          *c = '?';
      name = clean ? json_string (clean) : NULL;
      free (clean);
    }
  const json_t *rank = json_object_get (root, "rank");
  json_t *proc = name ? json_pack ("{soso}", "report", name, "pid",
                                   json_deep_copy (json_object_get (root, "pid")))
                      : NULL;
  /* The rank as the runtime writes it, a count; anything else is left out.  */
  if (!proc || (json_is_integer (rank) && json_integer_value (rank) >= 0
                && json_object_set (proc, "rank", (json_t *) rank))
      || json_object_set (proc, "summary", (json_t *) summary)
      || json_array_append_new (json_object_get (m->root, "processes"), proc))
    return input_error (m, "out of memory");
  if (sum_into (m, json_object_get (m->root, "summary"), summary))
    return -1;
  size_t i;
  json_t *t;
  json_array_foreach (json_object_get (root, "threads"), i, t)
  {
    char key[32];
    snprintf (key, sizeof key, "%" PRIu64, json_count (t, "thread"));
    json_t *acc = json_object_get (m->threads, key);
    if (!acc)
      {
        if (json_object_set_new (m->threads, key, json_deep_copy (t)))
          return input_error (m, "out of memory");
      }
    else
      {
        /* The thread number is not a count.  */
        json_t *copy = json_copy (t);
        int r = !copy || json_object_del (copy, "thread") ? -1 : sum_into (m, acc, copy);
        json_decref (copy);
        if (r)
          return -1;
      }
  }
  for (size_t k = 0; k < NARRAYS; k++)
    {
      m->present[k] |= json_object_get (root, arrays[k].name) != NULL;
      json_array_foreach (json_object_get (root, arrays[k].name), i, t)
        if (fold_record (m, k, t))
          return -1;
    }
  end_process (m);
  return 0;
}

/* --- output --- */

/* Records ranked by redundant bytes, then bytes, then first seen.  */
struct ranked_rec
{
  uint64_t red, bytes;
  size_t at;
};

static int
by_redundancy (const void *pa, const void *pb)
{
  const struct ranked_rec *a = pa, *b = pb;
  if (a->red != b->red)
    return a->red < b->red ? 1 : -1;
  if (a->bytes != b->bytes)
    return a->bytes < b->bytes ? 1 : -1;
  return a->at < b->at ? -1 : a->at > b->at;
}

/* MR's "spread" object.  */
static json_t *
spread_json (const struct merge *m, const struct merged *mr)
{
  json_t *sp = json_pack ("{sI}", "processes", (json_int_t) mr->processes);
  for (size_t s = 0; sp && s < NSPREAD; s++)
    if (mr->has_spread[s])
      if (json_object_set_new (sp, spread_keys[s],
                               json_pack ("{sIsIsIsIsf}", "min", (json_int_t) mr->min[s],
                                          "min_process", (json_int_t) mr->min_at[s], "max",
                                          (json_int_t) mr->max[s], "max_process",
                                          (json_int_t) mr->max_at[s], "mean",
                                          (double) mr->sum[s] / (double) m->nproc)))
        {
          json_decref (sp);
          return NULL;
        }
  return sp;
}

/* The values of OBJ, whose keys are thread numbers, as an array in
   number order (-1, the threads that ended, first); NULL when out of
   memory.  */
static json_t *
by_number (json_t *obj)
{
  json_t *list = json_array ();
  long long *numbers = malloc ((json_object_size (obj) + 1) * sizeof *numbers);
  const char *key;
  json_t *v;
  size_t n = 0;
  if (!list || !numbers)
    goto fail;
  json_object_foreach (obj, key, v)
  {
    /* A few threads: insertion sort.  */
    long long number = strtoll (key, NULL, 10);
    size_t at = n;
    while (at > 0 && numbers[at - 1] > number)
      at--;
    memmove (numbers + at + 1, numbers + at, (n - at) * sizeof *numbers);
    numbers[at] = number;
    if (json_array_insert (list, at, v))
      goto fail;
    n++;
  }
  free (numbers);
  return list;
fail:
  free (numbers);
  json_decref (list);
  return NULL;
}

/* MR's thread shares: "thread" when one thread loaded it, else "threads"
   in number order (-1, the threads that ended, first).  */
static int
set_threads (json_t *rec, const struct merged *mr)
{
  const char *key;
  json_t *part;
  if (json_object_size (mr->parts) == 1)
    {
      json_object_foreach (mr->parts, key, part)
        return json_object_set (rec, "thread", json_array_get (part, 0));
    }
  json_t *list = by_number (mr->parts);
  if (!list)
    return -1;
  return json_object_set_new (rec, "threads", list);
}

/* Merged record MR of array K as a format-2 record.  */
static json_t *
record_json (const struct merge *m, size_t k, const struct merged *mr)
{
  const struct array *a = &arrays[k];
  json_t *rec = mr->rec ? json_copy (mr->rec) : json_object ();
  int failed = !rec;
  if (!failed && k != A_DATA)
    failed = json_object_set_new (rec, "site", json_integer (mr->site))
             || json_object_set_new (rec, "context", json_integer (mr->context));
  else if (!failed && mr->context >= 0)
    failed = json_object_set_new (rec, "alloc_context", json_integer (mr->context));
  for (size_t c = 0; a->counts[c] && !failed; c++)
    if (mr->has_count & (1u << c))
      failed = json_object_set_new (rec, a->counts[c], json_integer ((json_int_t) mr->count[c]));
  if (!failed && mr->redmap)
    failed = json_object_set_new (rec, "redmap", json_string (mr->redmap));
  if (!failed && mr->parts)
    failed = set_threads (rec, mr);
  else if (!failed && k == A_CODE && m->threads_shown)
    failed = json_object_set_new (rec, "thread", json_integer (mr->thread));
  if (!failed && mr->map.granule)
    failed = json_object_set_new (rec, "byte_map", map_json (&mr->map));
  if (!failed)
    failed = json_object_set_new (rec, "spread", spread_json (m, mr));
  if (failed)
    {
      json_decref (rec);
      return NULL;
    }
  return rec;
}

/* Rank the merged records of array K by redundant bytes, then bytes,
   then as first seen, into M->order[K] (indices into the table); the
   records are made one at a time as they are written (write_root).  */
static int
finish_array (struct merge *m, size_t k)
{
  struct tool_table *t = &m->table[k];
  struct ranked_rec *recs = malloc ((t->n ? t->n : 1) * sizeof *recs);
  m->order[k] = malloc ((t->n ? t->n : 1) * sizeof *m->order[k]);
  if (!recs || !m->order[k])
    {
      free (recs);
      return -1;
    }
  for (size_t i = 0; i < t->n; i++)
    {
      struct merged *mr = (struct merged *) t->items + i;
      spread_gap (mr, m->nproc); /* the last processes lacked it */
      recs[i] = (struct ranked_rec) { mr->sum[SP_RED], mr->sum[SP_BYTES], i };
    }
  qsort (recs, t->n, sizeof *recs, by_redundancy);
  for (size_t i = 0; i < t->n; i++)
    m->order[k][i] = recs[i].at;
  free (recs);
  return 0;
}

/* The frames, contexts and sites tables of the output.  */
static int
finish_tables (struct merge *m)
{
  json_t *frames = json_array (), *contexts = json_array (), *sites = json_array ();
  int failed = !frames || !contexts || !sites;
  for (size_t i = 0; i < m->frames.n && !failed; i++)
    failed = json_array_append (frames, ((json_t **) m->frames.items)[i]);
  for (size_t i = 0; i < m->contexts.n && !failed; i++)
    {
      const struct context *c = (struct context *) m->contexts.items + i;
      failed = json_array_append_new (contexts, json_pack ("[II]", (json_int_t) c->frame,
                                                           (json_int_t) c->parent));
    }
  for (size_t i = 0; i < m->sites.n && !failed; i++)
    failed = json_array_append (sites, ((json_t **) m->sites.items)[i]);
  failed = failed || json_object_set (m->root, "sites", sites)
           || json_object_set (m->root, "frames", frames)
           || json_object_set (m->root, "contexts", contexts);
  json_decref (frames);
  json_decref (contexts);
  json_decref (sites);
  return failed ? -1 : 0;
}

/* M's "threads" in number order.  */
static int
finish_threads (struct merge *m)
{
  json_t *list = by_number (m->threads);
  if (!list)
    return -1;
  return json_object_set_new (m->root, "threads", list);
}

/* Write one JSON value V compactly; returns nonzero on failure.  */
static int
write_value (FILE *out, const json_t *v)
{
  return json_dumpf (v, out, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* The report as the runtime writes it: compact, one table entry or record
   a line, so that it stays readable with grep and less.  The records are
   made as they are written, so that they are never all in memory as JSON.
   CTX is the merge.  */
static int
write_root (FILE *out, const void *ctx)
{
  const struct merge *m = ctx;
  const char *key;
  json_t *v;
  int first = 1, failed = fputc ('{', out) == EOF;
  json_object_foreach (m->root, key, v)
  {
    json_t *name = json_string (key);
    failed = failed || !name || fputs (first ? "\n " : ",\n ", out) == EOF
             || write_value (out, name) || fputs (": ", out) == EOF;
    json_decref (name);
    first = 0;
    if (!json_is_array (v) || json_array_size (v) == 0)
      {
        failed = failed || write_value (out, v);
        continue;
      }
    size_t i;
    json_t *e;
    json_array_foreach (v, i, e)
      failed = failed || fputs (i ? ",\n  " : "[\n  ", out) == EOF || write_value (out, e);
    failed = failed || fputs ("\n ]", out) == EOF;
  }
  for (size_t k = 0; k < NARRAYS && !failed; k++)
    {
      if (!m->present[k])
        continue;
      failed = fprintf (out, ",\n \"%s\": [", arrays[k].name) < 0;
      for (size_t i = 0; i < m->table[k].n && !failed; i++)
        {
          json_t *rec = record_json (m, k, (struct merged *) m->table[k].items + m->order[k][i]);
          if (!rec)
            return -2;
          failed = fputs (i ? ",\n  " : "\n  ", out) == EOF || write_value (out, rec);
          json_decref (rec);
        }
      failed = failed || fputs (m->table[k].n ? "\n ]" : "]", out) == EOF;
    }
  return failed || fputs ("\n}\n", out) == EOF ? -1 : 0;
}

/* The inputs ARGS name, patterns expanded, into *LIST (its own strings).  */
static int
expand_inputs (char **args, size_t n, char ***list, size_t *count)
{
  size_t cap = 0;
  *list = NULL;
  *count = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct stat st;
      glob_t g = { 0 };
      int pattern = stat (args[i], &st) != 0 && strpbrk (args[i], "*?[");
      if (pattern)
        {
          int r = glob (args[i], 0, NULL, &g);
          if (r == GLOB_NOMATCH)
            {
              tool_error ("no report matches '%s'", args[i]);
              return -1;
            }
          if (r)
            {
              tool_error ("cannot expand '%s'", args[i]);
              globfree (&g);
              return -1;
            }
        }
      size_t k = pattern ? g.gl_pathc : 1;
      for (size_t j = 0; j < k; j++)
        {
          char *s = strdup (pattern ? g.gl_pathv[j] : args[i]);
          if (!s || tool_reserve (list, &cap, *count, sizeof **list))
            {
              free (s);
              globfree (&g);
              tool_error ("out of memory");
              return -1;
            }
          (*list)[(*count)++] = s;
        }
      if (pattern)
        globfree (&g);
    }
  return 0;
}

/* A file, to find one given twice.  */
struct file_id
{
  dev_t dev;
  ino_t ino;
};

/* Whether report PATH (a directory or a file) names the same report.json
   as one of the first N of SEEN (device, inode pairs); adds it.  */
static int
seen_before (const char *path, struct file_id *seen, size_t n)
{
  struct stat st;
  char *file = malloc (strlen (path) + sizeof "/report.json");
  if (!file)
    return 0;
  if (stat (path, &st) == 0 && S_ISDIR (st.st_mode))
    sprintf (file, "%s/report.json", path);
  else
    strcpy (file, path);
  int found = 0;
  if (stat (file, &st) == 0)
    {
      for (size_t i = 0; i < n && !found; i++)
        found = seen[i].dev == st.st_dev && seen[i].ino == st.st_ino;
      seen[n] = (struct file_id) { st.st_dev, st.st_ino };
    }
  free (file);
  return found;
}

static void
merge_free (struct merge *m)
{
  for (size_t k = 0; k < NARRAYS; k++)
    {
      for (size_t i = 0; i < m->table[k].n; i++)
        {
          struct merged *mr = (struct merged *) m->table[k].items + i;
          json_decref (mr->rec);
          json_decref (mr->parts);
          free (mr->redmap);
          free (mr->map.runs);
        }
      tool_table_free (&m->table[k]);
      free (m->touched[k].at);
      free (m->order[k]);
    }
  for (size_t i = 0; i < m->frames.n; i++)
    json_decref (((json_t **) m->frames.items)[i]);
  for (size_t i = 0; i < m->sites.n; i++)
    json_decref (((json_t **) m->sites.items)[i]);
  tool_table_free (&m->frames);
  tool_table_free (&m->contexts);
  tool_table_free (&m->sites);
  json_decref (m->seen);
  json_decref (m->root);
  json_decref (m->threads);
}

int
merge_run (int argc, char **argv)
{
  const char *output = NULL;
  char **operands = malloc ((size_t) argc * sizeof *operands);
  size_t noperands = 0;
  int only_operands = 0, r;
  if (!operands)
    {
      tool_error ("out of memory");
      return EXIT_BAD_INPUT;
    }
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      if (only_operands || arg[0] != '-' || arg[1] == '\0')
        operands[noperands++] = argv[i];
      else if (strcmp (arg, "--") == 0)
        only_operands = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          merge_help (stdout);
          free (operands);
          return EXIT_OK;
        }
      else if ((r = tool_output_option ("merge", argc, argv, &i, &output)) != 0)
        {
          if (r != 1)
            {
              free (operands);
              return EXIT_USAGE;
            }
        }
      else
        {
          free (operands);
          return tool_usage_error ("merge", "unknown option '%s'", arg);
        }
    }
  if (!noperands || !output)
    {
      free (operands);
      return tool_usage_error ("merge", !noperands ? "needs at least one report to merge"
                                                   : "needs -o OUT, the report directory to create");
    }
  struct stat st;
  if (lstat (output, &st) == 0)
    {
      free (operands);
      tool_error ("'%s' exists: merge creates a new report directory", output);
      return EXIT_BAD_INPUT;
    }

  char **inputs;
  size_t ninputs;
  int status = EXIT_BAD_INPUT;
  struct merge m = { 0 };
  struct file_id *seen = NULL;
  r = expand_inputs (operands, noperands, &inputs, &ninputs);
  free (operands);
  if (r)
    return EXIT_BAD_INPUT;
  seen = malloc ((ninputs ? ninputs : 1) * sizeof *seen);
  int failed = !seen || !(m.seen = json_object ())
               || tool_table_init (&m.frames, sizeof (json_t *))
               || tool_table_init (&m.contexts, sizeof (struct context))
               || tool_table_init (&m.sites, sizeof (json_t *));
  for (size_t k = 0; k < NARRAYS; k++)
    failed = failed || tool_table_init (&m.table[k], sizeof (struct merged));
  if (failed)
    {
      tool_error ("out of memory");
      goto done;
    }
  for (size_t i = 0; i < ninputs; i++)
    {
      struct report rep;
      m.input = inputs[i];
      if (seen_before (inputs[i], seen, i))
        {
          tool_error ("%s: given twice", inputs[i]);
          goto done;
        }
      if (report_load (inputs[i], &rep))
        goto done;
      r = fold_report (&m, inputs[i], rep.root);
      report_free (&rep);
      if (r)
        goto done;
    }
  m.threads_shown = m.thread_named || json_object_size (m.threads) > 1;
  if (finish_threads (&m) || finish_tables (&m))
    {
      tool_error ("out of memory");
      goto done;
    }
  for (size_t k = 0; k < NARRAYS; k++)
    if (finish_array (&m, k))
      {
        tool_error ("out of memory");
        goto done;
      }
  if (mkdir (output, 0777) != 0)
    {
      tool_error ("cannot create '%s': %s", output, strerror (errno));
      goto done;
    }
  char *file = malloc (strlen (output) + sizeof "/report.json");
  if (!file)
    {
      tool_error ("out of memory");
      rmdir (output);
      goto done;
    }
  sprintf (file, "%s/report.json", output);
  status = tool_write (file, write_root, &m);
  if (status != EXIT_OK)
    rmdir (output);
  else
    printf ("merged %zu report%s into %s\n", ninputs, ninputs == 1 ? "" : "s",
             file);
  free (file);
done:
  free (seen);
  for (size_t i = 0; i < ninputs; i++)
    free (inputs[i]);
  free (inputs);
  merge_free (&m);
  return status;
}
