/* tool.h - shared declarations of the `zeroinst` report tool.

   The tool is a table of subcommands (main.c).  Each subcommand lives in
   its own file and gets the arguments that follow its name.  Reading and
   checking report.json is shared (report.c), so every subcommand sees a
   report that already has the keys and types SPEC §6 requires.  */
#ifndef ZEROINST_TOOL_H
#define ZEROINST_TOOL_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* Exit statuses of every subcommand.  */
enum
{
  EXIT_OK = 0,
  EXIT_BAD_INPUT = 1, /* missing, unreadable or invalid report */
  EXIT_USAGE = 2      /* unknown command or option, bad option value */
};

/* One subcommand: `zeroinst NAME ARGS...`.  */
struct command
{
  const char *name;
  const char *summary;                  /* one line, for `zeroinst --help` */
  void (*help) (FILE *out);             /* full help, for `zeroinst help NAME` */
  int (*run) (int argc, char **argv);   /* argv[0] is NAME; returns the exit status */
};

/* The subcommands (one per file).  */
void show_help (FILE *out);
int show_run (int argc, char **argv);
void export_help (FILE *out);
int export_run (int argc, char **argv);
void annotate_help (FILE *out);
int annotate_run (int argc, char **argv);
void html_help (FILE *out);
int html_run (int argc, char **argv);
void diff_help (FILE *out);
int diff_run (int argc, char **argv);
void merge_help (FILE *out);
int merge_run (int argc, char **argv);

/* The command line of `show` (show.c), which views.c shares.  */
struct show_options
{
  const char *input;     /* report directory or report.json */
  size_t top;            /* records per section, 0 = all */
  int kind;              /* 0 int, 1 float, -1 all kinds */
  int paths;             /* print every call path */
  int advice;            /* print the advice lines (default) */
  int help;              /* --help was given */
  const char *sort_code; /* the count code records are ranked by */
  const char *sort_data; /* ... and data records */
  double min_share;      /* percent of the kind's redundant bytes below which
                            records are not printed; < 0: not given */
  const char *function;  /* only sites in or called from this function */
  const char *file;      /* only sites in this file */
  int by;                /* aggregate by 0 site (none), 1 function, 2 file,
                            3 line */
  int tree;              /* 0 none, 1 top-down, 2 bottom-up call tree */
  int thread_given;      /* --thread was given ... */
  long thread;           /* ... with this thread (-1: those that ended) */
};

/* views.c: the aggregated view (--by) or the call tree (--tree) of the
   code records of kind KIND ("int", "float") of ROOT, whose program
   totals are TOTALS.  */
void views_print (const json_t *root, const char *kind, const json_t *totals,
                  const struct show_options *opts);
/* views.c: the top-down call tree of the code records of KIND as an array
   of nodes [label, parent, redundant bytes, bytes] in depth-first order
   (parent: the index of an earlier node, -1 for a root), children ranked
   by redundant bytes, only nodes of at least MIN_SHARE percent of
   TOTAL_RED and at most MAX_NODES of them.  NULL when out of memory.  */
json_t *views_tree_json (const json_t *root, const char *kind, uint64_t total_red,
                         double min_share, size_t max_nodes);

/* advice.c: print what REC's figures say to change, one "INDENTadvice:
   RULE: TEXT" line each; REC is a code record, or when ALL_DATA is not
   NULL one of the data records ALL_DATA.  */
void advice_print (FILE *out, const json_t *rec, const json_t *all_data, const char *indent);

/* main.c: messages and shared help text.  */
void tool_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
int tool_usage_error (const char *command, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
void tool_print_metrics (FILE *out);
/* A table of items found by a string key (a JSON object maps each key to
   the item's position), for the tool's aggregations.  */
struct tool_table
{
  json_t *index;
  void *items;
  size_t n, cap, size;
};
int tool_table_init (struct tool_table *t, size_t size);
size_t tool_table_get (struct tool_table *t, const char *key, int *added);
void tool_table_free (struct tool_table *t);
int tool_write (const char *path, int (*write) (FILE *out, const void *ctx), const void *ctx);
const char *tool_file_name (const char *file);
void tool_utf8_cut (char *s);
int tool_same_file (const char *file, const char *name);
int tool_reserve (void *p, size_t *cap, size_t n, size_t size);
int tool_output_option (const char *command, int argc, char **argv, int *i,
                        const char **output);
int tool_parse_top (const char *command, const char *s, size_t *top);
int tool_parse_kind (const char *command, const char *s, int *kind);
int tool_option_value (const char *command, int argc, char **argv, int *i, const char *name,
                       const char **value);

/* report.c: a loaded, checked report.  */
struct report
{
  char *path; /* the report.json actually read (malloc'd) */
  json_t *root;
};
int report_load (const char *dir_or_file, struct report *out);
void report_free (struct report *r);
/* A command that exits after reading R: the JSON tree is left to the end
   of the process (releasing it value by value took a sixth of `zeroinst
   show` on a 295,000-record report).  */
void report_leave (struct report *r);

/* report.c: reading values of a checked report.  A missing optional key
   reads as 0, "" or NULL.  */
uint64_t json_count (const json_t *obj, const char *key);
const char *json_str (const json_t *obj, const char *key);
double percent (uint64_t part, uint64_t whole);
void tool_object_label (const json_t *rec, char *buf, size_t size);

/* report.c: records ranked by a count.  */
struct ranked
{
  const json_t *rec;
  uint64_t value;
  size_t index; /* position in the file, to keep equal values in order */
};
struct ranked *tool_rank (const json_t *arr, const char *kind, const char *key, size_t *n);

/* report.c: a merged report's (merge.c) processes and spreads.  */
void tool_process_label (const json_t *processes, size_t i, char *buf, size_t size);
int tool_spread_text (const json_t *processes, const json_t *rec, char *buf, size_t size);

#endif
