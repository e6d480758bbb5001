/* advice.c - what a user could change, one line per finding, from the
   figures of one record.

   Every piece of advice is proved by the record it is printed under: a
   rule fires only when the report's own counts show that the change would
   have removed the bytes it names, and each line says how many.  The
   rules, in the table `rules` below:

     narrower type  (integer load sites) the top k bytes of the element
                    were zero in every load (the redmap), so the values
                    fit in the remaining bits.  The type suggested is the
                    smallest of 1, 2, 4, 8 bytes that holds them; it is
                    unsigned, because zero top bytes prove the values are
                    non-negative, and also signed when a whole zero byte is
                    left over as the sign (24 bits -> int32_t or uint32_t).
                    Saves (element bytes - new bytes) per element.
     sparse data    (load sites of array elements or vectors, and data
                    objects) at least 90% of the elements are zero: store
                    the non-zeros sparsely or skip zero blocks.  For a site
                    the bytes of its zero elements; for an object its
                    always-zero bytes, and its byte map's zero regions of
                    at least a cache line (64 bytes), where skipping is
                    possible.
     zero guard     (load sites of anything else: a scalar, *p, s.f) the
                    value is zero in at least 90% of the loads: test it
                    once and skip the work that uses it (the NAB `*kappa`
                    case of the DrZero paper).
     never read     (data objects) at least half of the object's bytes were
                    never loaded.  From the byte map: never-loaded bytes
                    only at the end (or start) -> shrink it; the same bytes
                    of every P-byte element (a period of at least 3) ->
                    split hot and cold fields; else both, as a question.
                    Not when the object also has a record of the other kind
                    (its never-loaded bytes per kind may be the other's).

   A Fortran array descriptor ("descriptor": true) gets no advice: its
   layout is the compiler's, and its array has a record of its own.

   Evidence: narrower type, sparse data and zero guard need at least
   ADVICE_MIN_ELEMENTS elements loaded, so that a few lucky loads prove
   nothing; an object needs at least ADVICE_MIN_OBJECT bytes for never
   read and ADVICE_MIN_SPARSE for sparse data.  Records without
   the keys a rule needs (older reports, hand-written ones) get no advice
   from that rule.  Several rules may fire on one record; their lines come
   in order of bytes saved.  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#define ADVICE_MIN_ELEMENTS 100
#define ADVICE_MIN_OBJECT 256
#define ADVICE_MIN_SPARSE 4096
#define ADVICE_ZERO_REGION 64 /* a cache line: the unit that skipping saves */
#define ADVICE_MAX_LINES 4
#define ADVICE_TEXT 400

/* One line of advice.  */
struct advice
{
  const char *rule;
  uint64_t saved;
  char text[ADVICE_TEXT];
};

/* Whether PART / WHOLE >= 9/10 (exactly, in integers).  */
static int
at_least_90_percent (uint64_t part, uint64_t whole)
{
  return whole && (unsigned __int128) part * 10 >= (unsigned __int128) whole * 9;
}

/* Whether REC counts as evidence: enough elements loaded.  */
static int
enough_elements (const json_t *rec)
{
  return json_count (rec, "elements") >= ADVICE_MIN_ELEMENTS;
}

/* Whether a code site loads array elements: a vector load, or an
   expression with an index.  */
static int
site_is_array (const json_t *rec)
{
  const char *expr = json_str (json_object_get (rec, "site"), "expr");
  return json_count (rec, "lanes") > 1 || strchr (expr, '[') != NULL ? 1 : 0;
}

/* narrower type: see the file comment.  */
static int
rule_narrower (const json_t *rec, int unused __attribute__ ((unused)), struct advice *a)
{
  const char *redmap = json_str (rec, "redmap");
  uint64_t n = json_count (rec, "elem_bytes"), elements = json_count (rec, "elements");
  size_t zero_top = strspn (redmap, "0");
  if (strcmp (json_str (rec, "kind"), "int") || !enough_elements (rec) || n == 0 || n > 16
      || strlen (redmap) != n || zero_top == 0 || zero_top == n)
    return 0;
  uint64_t need = n - zero_top, m = 1;
  while (m < need)
    m *= 2;
  if (m >= n)
    return 0;
  char type[40];
  if (m > need)
    snprintf (type, sizeof type, "int%" PRIu64 "_t or uint%" PRIu64 "_t", 8 * m, 8 * m);
  else
    snprintf (type, sizeof type, "uint%" PRIu64 "_t", 8 * m);
  a->saved = elements * (n - m);
  snprintf (a->text, sizeof a->text,
            "values fit in %" PRIu64 " bits, unsigned (top %zu of %" PRIu64
            " bytes zero in every load): %s would load %" PRIu64 " fewer bytes (%.2f%%)",
            8 * need, zero_top, n, type, a->saved, percent (a->saved, json_count (rec, "bytes")));
  return 1;
}

/* The bytes of REC's zero elements, when all its elements have one size.  */
static int
zero_element_bytes (const json_t *rec, uint64_t *out)
{
  uint64_t elements = json_count (rec, "elements"), bytes = json_count (rec, "bytes");
  if (!elements || bytes % elements)
    return 0;
  *out = json_count (rec, "zero_elements") * (bytes / elements);
  return 1;
}

/* sparse data (ARRAY) and zero guard (!ARRAY) at a code site: at least
   90% zero elements at a site of array elements, or of other values.  */
static int
rule_zero_site (const json_t *rec, int array, struct advice *a)
{
  static const char *const text[2] = {
    "the value loaded here is zero in %.2f%% of the loads: test it once and skip the work "
    "that uses it (%" PRIu64 " bytes of zeros loaded)",
    "%.2f%% of the elements loaded here are zero: a sparse format or skipping zero blocks "
    "would load %" PRIu64 " fewer bytes",
  };
  uint64_t zero = json_count (rec, "zero_elements"), elements = json_count (rec, "elements");
  if (site_is_array (rec) != array || !enough_elements (rec)
      || !at_least_90_percent (zero, elements) || !zero_element_bytes (rec, &a->saved))
    return 0;
  snprintf (a->text, sizeof a->text, text[array], percent (zero, elements), a->saved);
  return 1;
}

/* A byte map as runs of one state: "n" never loaded, "z" always zero, "x"
   seen non-zero, each COUNT granules long.  */
struct run
{
  uint64_t count;
  char state;
};
struct byte_map
{
  uint64_t granule, length;
  struct run *runs;
  size_t n;
};

/* Parse the "byte_map" of REC into MAP; 0 when it has none or it is not
   one the report format defines (then the advice goes without it): its
   runs must cover at most the map's granules, so that no sum of counts
   below can wrap.  */
static int
byte_map_parse (const json_t *rec, struct byte_map *map)
{
  const json_t *m = json_object_get (rec, "byte_map");
  const char *s = json_str (m, "runs");
  *map = (struct byte_map) { json_count (m, "granule"), json_count (m, "length"), NULL, 0 };
  size_t cap = 0;
  if (!map->granule || !map->length || !*s)
    return 0;
  uint64_t granules = map->length / map->granule + (map->length % map->granule != 0);
  uint64_t covered = 0;
  while (*s)
    {
      char *end;
      if (*s < '0' || *s > '9')
        break;
      uint64_t count = strtoull (s, &end, 10);
      if (count == 0 || !strchr ("nzx", *end) || !*end || count > granules - covered)
        break;
      covered += count;
      if (tool_reserve (&map->runs, &cap, map->n, sizeof *map->runs))
        break;
      map->runs[map->n++] = (struct run) { count, *end };
      s = end + 1;
    }
  if (*s)
    {
      free (map->runs);
      map->runs = NULL;
      map->n = 0;
      return 0;
    }
  return 1;
}

/* Byte offset of granule G of MAP, at most its length.  */
static uint64_t
map_offset (const struct byte_map *map, uint64_t g)
{
  unsigned __int128 off = (unsigned __int128) g * map->granule;
  return off < map->length ? (uint64_t) off : map->length;
}

/* "of it" or "of its largest block" (a heap group's map is its largest
   block's).  */
static const char *
map_owner (const json_t *rec)
{
  return json_count (rec, "allocations") > 1 ? "of its largest block" : "of it";
}

/* sparse data in an object: see the file comment.  */
static int
rule_sparse_object (const json_t *rec, int unused __attribute__ ((unused)), struct advice *a)
{
  uint64_t zero = json_count (rec, "zero_elements"), elements = json_count (rec, "elements");
  uint64_t size = json_count (rec, "size");
  if (!enough_elements (rec) || size < ADVICE_MIN_SPARSE || !at_least_90_percent (zero, elements))
    return 0;
  a->saved = json_count (rec, "always_zero_bytes");
  int len = snprintf (a->text, sizeof a->text,
                      "%.2f%% of its loaded elements are zero, %" PRIu64 " of its %" PRIu64
                      " bytes always zero: store the non-zeros sparsely",
                      percent (zero, elements), a->saved, size);
  struct byte_map map;
  if (!byte_map_parse (rec, &map) || len < 0 || (size_t) len >= sizeof a->text)
    return 1;
  uint64_t regions = 0, region_bytes = 0, best_start = 0, best_end = 0, g = 0;
  for (size_t i = 0; i < map.n; g += map.runs[i].count, i++)
    {
      uint64_t start = map_offset (&map, g), end = map_offset (&map, g + map.runs[i].count);
      if (map.runs[i].state != 'z' || end - start < ADVICE_ZERO_REGION)
        continue;
      regions++;
      region_bytes += end - start;
      if (end - start > best_end - best_start)
        best_start = start, best_end = end;
    }
  if (regions == 1)
    snprintf (a->text + len, sizeof a->text - (size_t) len,
              ", or skip its zero region of %d+ bytes (bytes %" PRIu64 "..%" PRIu64 " %s)",
              ADVICE_ZERO_REGION, best_start, best_end - 1, map_owner (rec));
  else if (regions)
    snprintf (a->text + len, sizeof a->text - (size_t) len,
              ", or skip its %" PRIu64 " zero regions of %d+ bytes (%" PRIu64
              " bytes %s; the largest is bytes %" PRIu64 "..%" PRIu64 ")",
              regions, ADVICE_ZERO_REGION, region_bytes, map_owner (rec), best_start,
              best_end - 1);
  else
    snprintf (a->text + len, sizeof a->text - (size_t) len,
              " (its zeros are spread out: no zero region of %d bytes to skip)",
              ADVICE_ZERO_REGION);
  free (map.runs);
  return 1;
}

/* The pattern of never-loaded bytes in MAP, written after the advice text
   at TEXT (SIZE bytes left): a trailing or leading part, or the same bytes
   of every element of a periodic layout.  Returns 0 when there is none.  */
static int
never_read_pattern (const json_t *rec, const struct byte_map *map, char *text, size_t size)
{
  /* Runs of "loaded or not": z and x together.  */
  struct run *b = malloc ((map->n + 1) * sizeof *b);
  size_t n = 0, never_runs = 0;
  if (!b)
    return 0;
  for (size_t i = 0; i < map->n; i++)
    {
      char state = map->runs[i].state == 'n' ? 'n' : 'l';
      if (n && b[n - 1].state == state)
        b[n - 1].count += map->runs[i].count;
      else
        b[n++] = (struct run) { map->runs[i].count, state };
    }
  for (size_t i = 0; i < n; i++)
    never_runs += b[i].state == 'n';
  int done = 0;
  if (n == 2 && b[1].state == 'n')
    {
      uint64_t keep = map_offset (map, b[0].count);
      snprintf (text, size,
                ", all at the end (bytes %" PRIu64 "..%" PRIu64 " %s): shrink it to %" PRIu64
                " bytes",
                keep, map->length - 1, map_owner (rec), keep);
      done = 1;
    }
  else if (n == 2 && b[0].state == 'n')
    {
      uint64_t skip = map_offset (map, b[0].count);
      snprintf (text, size,
                ", all at the start (bytes 0..%" PRIu64 " %s): could it start at byte %" PRIu64
                "?",
                skip - 1, map_owner (rec), skip);
      done = 1;
    }
  else if (never_runs >= 3 && n >= 5)
    {
      /* Periodic: the interior runs alternate between two lengths, and the
         runs at the ends are no longer than their state's interior runs.
         The object is taken to start with an element, so the never-loaded
         bytes' place in an element is their offset modulo the period (a
         part that wraps round the element's end is printed as two).  */
      int periodic = 1;
      for (size_t i = 3; i + 1 < n && periodic; i++)
        periodic = b[i].count == b[i - 2].count;
      periodic = periodic && b[0].count <= b[2].count && b[n - 1].count <= b[n - 3].count;
      if (periodic && b[1].count + b[2].count > 0)
        {
          size_t first = b[1].state == 'n' ? 1 : 2;
          uint64_t period = b[1].count + b[2].count, at = 0;
          for (size_t i = 0; i < first; i++)
            at += b[i].count;
          uint64_t from = at % period, to = from + b[first].count;
          uint64_t g = map->granule;
          int len;
          if (to <= period)
            len = snprintf (text, size, ", bytes %" PRIu64 "..%" PRIu64, from * g, to * g - 1);
          else
            len = snprintf (text, size, ", bytes %" PRIu64 "..%" PRIu64 " and 0..%" PRIu64,
                            from * g, period * g - 1, (to - period) * g - 1);
          if (len >= 0 && (size_t) len < size)
            snprintf (text + len, size - (size_t) len,
                      " of every %" PRIu64 "-byte element: split the hot and cold fields",
                      period * g);
          done = 1;
        }
    }
  free (b);
  return done;
}

/* never read: see the file comment.  */
static int
rule_never_read (const json_t *rec, int unused __attribute__ ((unused)), struct advice *a)
{
  uint64_t size = json_count (rec, "size"), never = json_count (rec, "never_loaded_bytes");
  if (size < ADVICE_MIN_OBJECT || never * 2 < size)
    return 0;
  a->saved = never;
  int len = snprintf (a->text, sizeof a->text,
                      "%" PRIu64 " of its %" PRIu64 " bytes (%.2f%%) were never loaded", never,
                      size, percent (never, size));
  struct byte_map map;
  int pattern = 0;
  if (len >= 0 && (size_t) len < sizeof a->text && byte_map_parse (rec, &map))
    {
      pattern = never_read_pattern (rec, &map, a->text + len, sizeof a->text - (size_t) len);
      free (map.runs);
    }
  if (!pattern && len >= 0 && (size_t) len < sizeof a->text)
    snprintf (a->text + len, sizeof a->text - (size_t) len,
              ": could it be smaller, or its rarely used parts kept apart?");
  return 1;
}

/* The rules, in the order the file comment explains them.  */
static const struct rule
{
  const char *name;
  int data; /* 0: applies to code sites, 1: to data objects */
  int (*fire) (const json_t *rec, int arg, struct advice *a);
  int arg;
} rules[] = {
  { "narrower type", 0, rule_narrower, 0 },
  { "sparse data", 0, rule_zero_site, 1 },
  { "zero guard", 0, rule_zero_site, 0 },
  { "sparse data", 1, rule_sparse_object, 0 },
  { "never read", 1, rule_never_read, 0 },
};
#define NRULES (sizeof rules / sizeof rules[0])

/* Whether the data records ALL have a record of another kind for the
   object of REC (the same static symbol, or the same allocation path):
   then REC's never-loaded bytes may have been loaded as that kind.  */
static int
read_as_other_kind (const json_t *all, const json_t *rec)
{
  size_t i;
  const json_t *other;
  const char *kind = json_str (rec, "kind"), *object = json_str (rec, "object");
  json_array_foreach (all, i, other)
    {
      if (other == rec || !strcmp (json_str (other, "kind"), kind)
          || strcmp (json_str (other, "object"), object))
        continue;
      if (!strcmp (object, "heap")
              ? json_equal (json_object_get (other, "alloc_path"),
                            json_object_get (rec, "alloc_path"))
              : !strcmp (json_str (other, "name"), json_str (rec, "name"))
                    && !strcmp (json_str (other, "symbol"), json_str (rec, "symbol"))
                    && !strcmp (json_str (other, "module"), json_str (rec, "module")))
        return 1;
    }
  return 0;
}

/* Print the advice for REC, one "INDENTadvice: RULE: TEXT" line each, in
   order of bytes saved (stable).  REC is a code record, or when ALL_DATA
   is not NULL one of the data records ALL_DATA.  */
void
advice_print (FILE *out, const json_t *rec, const json_t *all_data, const char *indent)
{
  struct advice found[ADVICE_MAX_LINES];
  size_t n = 0;
  int data = all_data != NULL;
  /* A Fortran array descriptor's layout is the compiler's: nothing to
     change there (its array is a record of its own).  */
  if (data && json_is_true (json_object_get (rec, "descriptor")))
    return;
  for (size_t i = 0; i < NRULES && n < ADVICE_MAX_LINES; i++)
    {
      if (rules[i].data != data || !rules[i].fire (rec, rules[i].arg, &found[n]))
        continue;
      if (rules[i].fire == rule_never_read && read_as_other_kind (all_data, rec))
        continue;
      found[n].rule = rules[i].name;
      /* Insert in order: more bytes saved first, equal ones in rule order.  */
      struct advice new = found[n];
      size_t j = n++;
      for (; j > 0 && found[j - 1].saved < new.saved; j--)
        found[j] = found[j - 1];
      found[j] = new;
    }
  for (size_t i = 0; i < n; i++)
    fprintf (out, "%sadvice: %s: %s\n", indent, found[i].rule, found[i].text);
}
