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
void diff_help (FILE *out);
int diff_run (int argc, char **argv);

/* advice.c: print what REC's figures say to change, one "INDENTadvice:
   RULE: TEXT" line each; REC is a code record, or when ALL_DATA is not
   NULL one of the data records ALL_DATA.  */
void advice_print (FILE *out, const json_t *rec, const json_t *all_data, const char *indent);

/* main.c: messages and shared help text.  */
void tool_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
int tool_usage_error (const char *command, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
void tool_print_metrics (FILE *out);
int tool_reserve (void *p, size_t *cap, size_t n, size_t size);
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

#endif
