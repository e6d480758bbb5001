/* main.c - `zeroinst`, the command-line tool for zeroinst reports.

   Programs built with zeroinst-cc / zeroinst-cxx / zeroinst-fortran write a
   report directory when they exit (./zeroinst-PROGRAM-PID/ with report.json
   and summary.txt).  This tool reads those directories:

     zeroinst show DIR|FILE [--top N] [--kind int|float|all] [--paths]
                            [--no-advice]
     zeroinst export DIR|FILE --format json-v1|folded|callgrind [--kind K]
                     [--weight W] [-o FILE]
     zeroinst annotate DIR|FILE SOURCE [--kind int|float|all] [--context N]
     zeroinst diff BEFORE AFTER [--top N] [--kind int|float|all]
     zeroinst html DIR|FILE [-o FILE] [--top N] [--no-source]
     zeroinst help [COMMAND]
     zeroinst --help | --version

   The tool is a table of subcommands (below); adding one (merge, compare,
   export, ...) means adding a file with its help and run functions and a
   row here.  Exit status: 0 success, 1 bad input (missing or unreadable
   report, invalid JSON, not a zeroinst report), 2 usage error.  Errors are
   one line on stderr, starting with "zeroinst: ".  */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"

#ifndef ZEROINST_VERSION
#define ZEROINST_VERSION "unknown"
#endif

static void help_help (FILE *out);
static int help_run (int argc, char **argv);

/* The subcommands, in the order `zeroinst --help` lists them.  */
static const struct command commands[] = {
  { "show", "print a report: totals, top load sites, data objects, threads", show_help, show_run },
  { "export", "write a report for other tools: json-v1, folded (flame graphs), callgrind", export_help,
    export_run },
  { "annotate", "print a source file with the redundant bytes of each line", annotate_help,
    annotate_run },
  { "diff", "compare two reports: totals, and the sites and objects that changed", diff_help,
    diff_run },
  { "merge", "combine the reports of many processes (MPI ranks, forks) into one", merge_help,
    merge_run },
  { "html", "write a report as one HTML page: tables, call tree, source, heat maps", html_help,
    html_run },
  { "help", "explain a command, or everything", help_help, help_run },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Print "zeroinst: MESSAGE" on stderr.  */
void
tool_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("zeroinst: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

/* A usage error of COMMAND (NULL: of the tool itself): one line on stderr
   pointing at the help, "zeroinst: COMMAND: MESSAGE (see 'zeroinst help
   COMMAND')".  Returns EXIT_USAGE.  */
int
tool_usage_error (const char *command, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "zeroinst: %s%s", command ? command : "", command ? ": " : "");
  vfprintf (stderr, fmt, ap);
  if (command)
    fprintf (stderr, " (see 'zeroinst help %s')\n", command);
  else
    fputs (" (see 'zeroinst --help')\n", stderr);
  va_end (ap);
  return EXIT_USAGE;
}

/* Make room for element N of the array *P of *CAP elements of SIZE bytes,
   doubling it (from 64).  Returns 0, or -1 when out of memory (then *P is
   unchanged).  */
int
tool_reserve (void *p, size_t *cap, size_t n, size_t size)
{
  void **array = p;
  if (n < *cap)
    return 0;
  size_t grown_cap = *cap ? 2 * *cap : 64;
  while (grown_cap <= n && grown_cap <= SIZE_MAX / 2)
    grown_cap *= 2;
  if (grown_cap <= n || grown_cap > SIZE_MAX / size)
    return -1;
  void *grown = realloc (*array, grown_cap * size);
  if (!grown)
    return -1;
  *array = grown;
  *cap = grown_cap;
  return 0;
}

/* Cut S (text that snprintf may have cut short) before a UTF-8 character
   left incomplete at its end: JSON strings must be whole UTF-8.  */
void
tool_utf8_cut (char *s)
{
  size_t n = strlen (s), lead = n;
  while (lead > 0 && n - lead < 4 && ((unsigned char) s[lead - 1] & 0xc0) == 0x80)
    lead--;
  if (lead == 0)
    return;
  unsigned char c = (unsigned char) s[lead - 1];
  size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (n - (lead - 1) < want)
    s[lead - 1] = '\0';
}

/* FILE without leading "./": one file has one name in the views.  */
const char *
tool_file_name (const char *file)
{
  while (file[0] == '.' && file[1] == '/')
    file += 2;
  return file;
}

/* Whether FILE (a site's or a frame's, as the compiler saw it) and NAME
   (given by the user) name one file: equal, or one ends with the other
   after a '/', leading "./" ignored.  */
int
tool_same_file (const char *file, const char *name)
{
  file = tool_file_name (file);
  name = tool_file_name (name);
  size_t a = strlen (file), b = strlen (name);
  if (a == b)
    return strcmp (file, name) == 0;
  const char *longer = a > b ? file : name, *shorter = a > b ? name : file;
  size_t d = a > b ? a - b : b - a;
  return *shorter && longer[d - 1] == '/' && strcmp (longer + d, shorter) == 0;
}

/* Write a command's output with WRITE (returning 0, -1 on a write error
   or -2 when out of memory) to PATH, or to stdout when PATH is NULL.  A
   file is written as PATH.tmp and renamed when complete, so that a failed
   write leaves no half file.  Returns the exit status (after a message).  */
int
tool_write (const char *path, int (*write) (FILE *out, const void *ctx), const void *ctx)
{
  if (!path)
    {
      int r = write (stdout, ctx);
      if (!r && fflush (stdout) == EOF)
        r = -1;
      if (r)
        tool_error (r == -2 ? "out of memory" : "error writing the output: %s", strerror (errno));
      return r ? EXIT_BAD_INPUT : EXIT_OK;
    }
  size_t len = strlen (path);
  char *tmp = malloc (len + sizeof ".tmp");
  if (!tmp)
    {
      tool_error ("out of memory");
      return EXIT_BAD_INPUT;
    }
  memcpy (tmp, path, len);
  memcpy (tmp + len, ".tmp", sizeof ".tmp");
  FILE *f = fopen (tmp, "w");
  int r = f ? write (f, ctx) : -1;
  int err = errno;
  if (f && fclose (f) != 0 && !r)
    {
      r = -1;
      err = errno;
    }
  if (!r && rename (tmp, path) != 0)
    {
      r = -1;
      err = errno;
    }
  if (r == -2)
    tool_error ("out of memory");
  else if (r)
    tool_error ("cannot write '%s': %s", path, strerror (err));
  if (r && f)
    unlink (tmp);
  free (tmp);
  return r ? EXIT_BAD_INPUT : EXIT_OK;
}

/* Make T an empty table of items of SIZE bytes.  Returns 0, or -1 when
   out of memory.  */
int
tool_table_init (struct tool_table *t, size_t size)
{
  *t = (struct tool_table) { json_object (), NULL, 0, 0, size };
  return t->index ? 0 : -1;
}

/* The position of KEY's item in T, a zeroed new one at the end when KEY is
   new (then *ADDED is set).  SIZE_MAX when out of memory.  */
size_t
tool_table_get (struct tool_table *t, const char *key, int *added)
{
  const json_t *at = json_object_get (t->index, key);
  *added = 0;
  if (at)
    return (size_t) json_integer_value (at);
  if (tool_reserve (&t->items, &t->cap, t->n, t->size)
      || json_object_set_new (t->index, key, json_integer ((json_int_t) t->n)))
    return SIZE_MAX;
  memset ((char *) t->items + t->n * t->size, 0, t->size);
  *added = 1;
  return t->n++;
}

/* Free T's index and items (what the items point to is the caller's).  */
void
tool_table_free (struct tool_table *t)
{
  json_decref (t->index);
  free (t->items);
}

/* If argv[*I] is COMMAND's "-o FILE" (or "-o=FILE"), set *OUTPUT, step *I
   past it and return 1; 0 if it is another argument; EXIT_USAGE (after a
   message) if FILE is missing or empty.  */
int
tool_output_option (const char *command, int argc, char **argv, int *i, const char **output)
{
  const char *value = NULL;
  int r = tool_option_value (command, argc, argv, i, "-o", &value);
  if (r == 1 && !*value)
    return tool_usage_error (command, "-o needs a file name");
  if (r == 1)
    *output = value;
  return r;
}

/* Parse the value S of COMMAND's --top into *TOP (0: all).  Returns 0 or
   EXIT_USAGE after a message.  */
int
tool_parse_top (const char *command, const char *s, size_t *top)
{
  char *end;
  unsigned long long n = strtoull (s, &end, 10);
  if (*s < '0' || *s > '9' || *end || n > SIZE_MAX)
    return tool_usage_error (command, "--top needs a number of records or 0 for all, not '%s'",
                             s);
  *top = (size_t) n;
  return 0;
}

/* Parse the value S of COMMAND's --kind into *KIND: 0 int, 1 float, -1
   all.  Returns 0 or EXIT_USAGE after a message.  */
int
tool_parse_kind (const char *command, const char *s, int *kind)
{
  static const char *const names[] = { "int", "float", "all" };
  for (int k = 0; k < 3; k++)
    if (strcmp (s, names[k]) == 0)
      {
        *kind = k < 2 ? k : -1;
        return 0;
      }
  return tool_usage_error (command, "--kind must be int, float or all, not '%s'", s);
}

/* If argv[*I] is the option NAME of COMMAND ("--top 5" or "--top=5"), set
   *VALUE, step *I past it and return 1; return 0 if it is another
   argument, and EXIT_USAGE (after a message) if the value is missing.  */
int
tool_option_value (const char *command, int argc, char **argv, int *i, const char *name,
                   const char **value)
{
  const char *arg = argv[*i];
  size_t len = strlen (name);
  if (strncmp (arg, name, len) != 0)
    return 0;
  if (arg[len] == '=')
    {
      *value = arg + len + 1;
      return 1;
    }
  if (arg[len] != '\0')
    return 0;
  if (*i + 1 >= argc)
    return tool_usage_error (command, "option '%s' needs a value", name);
  *value = argv[++*i];
  return 1;
}

/* The definitions of the metrics, shared by `zeroinst --help` and the
   help of the commands that print them.  */
void
tool_print_metrics (FILE *out)
{
  fputs (
    "Metrics:\n"
    "  An element is one integer or floating-point scalar the program loaded; a\n"
    "  vector load of K lanes is K elements, a complex value is two floating\n"
    "  elements.  Integer and floating-point loads are two kinds, counted apart.\n"
    "\n"
    "  redundant bytes  integer element: its zero bytes counted from the most\n"
    "                   significant byte down (the 4-byte int 0x00000100 has 2);\n"
    "                   floating element: all its bytes if it is +0.0 or -0.0,\n"
    "                   else none.\n"
    "  share            a record's redundant bytes / the program's redundant bytes\n"
    "                   of the same kind (summary).  The shares of all code sites\n"
    "                   of a kind add up to 100%: where the redundancy is.\n"
    "  local            local redundancy: a record's redundant bytes / the bytes it\n"
    "                   loaded: how wasteful the record's loads are.\n"
    "  zero             zero fraction: the record's elements that were entirely\n"
    "                   zero (integer 0, +0.0 or -0.0) / its elements.\n"
    "  redmap           the parts of the elements that were zero in every element\n"
    "                   a site loaded: '0' = always zero, 'x' = non-zero seen.\n"
    "                   Integers: one character per byte, most significant first\n"
    "                   (\"000x\": every 4-byte value was below 256).\n"
    "                   Floats: \"S|E|M...\" = sign | exponent | mantissa bytes,\n"
    "                   most significant first, a partial top byte counting as\n"
    "                   one (\"0|x|xx00000\": doubles never negative whose low 5\n"
    "                   mantissa bytes were always zero).\n"
    "  type             the element type: i8..i128, f16, bf16, f32, f64, f80,\n"
    "                   f128; \"i32x4\" is a vector load of 4 lanes.\n"
    "  loads            executed load instructions (a vector load counts once).\n"
    "\n"
    "  Data objects (programs run with ZEROINST_MODE=data): per static variable,\n"
    "  or per heap allocation call path, share and local as above (share of the\n"
    "  program's redundant bytes of the kind, so objects need not add up to 100%:\n"
    "  the rest hit the stack or unknown memory), zero elements, \"never loaded\"\n"
    "  (bytes of the object no instrumented load read) and \"always zero\" (bytes\n"
    "  read at least once and zero every time), both as % of the object's size.\n",
    out);
}

/* `zeroinst --help` and `zeroinst help`.  */
static void
print_overview (FILE *out)
{
  fputs ("Usage: zeroinst COMMAND [ARGS...]\n"
         "       zeroinst help [COMMAND]\n"
         "       zeroinst --help | --version\n"
         "\n"
         "Reads the reports that programs built with zeroinst-cc, zeroinst-cxx or\n"
         "zeroinst-fortran write when they exit: a directory ./zeroinst-PROGRAM-PID/\n"
         "(or $ZEROINST_OUTPUT) holding report.json and summary.txt.\n"
         "\n"
         "Commands:\n",
         out);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf (out, "  %-6s %s\n", commands[i].name, commands[i].summary);
  fputs ("\n'zeroinst help COMMAND' or 'zeroinst COMMAND --help' explains a command.\n\n", out);
  tool_print_metrics (out);
  fputs ("\n"
         "Exit status:\n"
         "  0  success\n"
         "  1  bad input: missing report directory or file, unreadable file,\n"
         "     invalid JSON, not a zeroinst report or a report missing required keys\n"
         "  2  usage error: unknown command or option, bad option value\n",
         out);
}

/* The command called NAME, or NULL.  */
static const struct command *
find_command (const char *name)
{
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

/* "show, help": the command names, for error messages.  */
static const char *
command_names (void)
{
  static char names[256];
  names[0] = '\0';
  for (size_t i = 0; i < NCOMMANDS; i++)
    {
      if (i)
        strncat (names, ", ", sizeof names - strlen (names) - 1);
      strncat (names, commands[i].name, sizeof names - strlen (names) - 1);
    }
  return names;
}

/* Help of the help command.  */
static void
help_help (FILE *out)
{
  fputs ("Usage: zeroinst help [COMMAND]\n"
         "\n"
         "Without COMMAND: the overview of all commands, the metrics and the exit\n"
         "status (same as 'zeroinst --help').  With COMMAND: that command's usage,\n"
         "options and output.\n",
         out);
}

/* `zeroinst help [COMMAND]`.  */
static int
help_run (int argc, char **argv)
{
  if (argc > 2)
    return tool_usage_error ("help", "too many arguments");
  if (argc < 2)
    {
      print_overview (stdout);
      return EXIT_OK;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      help_help (stdout);
      return EXIT_OK;
    }
  const struct command *c = find_command (argv[1]);
  if (!c)
    return tool_usage_error ("help", "unknown command '%s', commands are: %s", argv[1],
                             command_names ());
  c->help (stdout);
  return EXIT_OK;
}

/* Flush stdout; a write error (full disk, closed pipe) is bad output, not
   success.  */
static int
finish_output (int status)
{
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      tool_error ("error writing the output: %s", strerror (errno));
      return status ? status : EXIT_BAD_INPUT;
    }
  return status;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    return tool_usage_error (NULL, "no command given, commands are: %s", command_names ());
  const char *name = argv[1];
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0)
    {
      print_overview (stdout);
      return finish_output (EXIT_OK);
    }
  if (strcmp (name, "--version") == 0 || strcmp (name, "-V") == 0)
    {
      printf ("zeroinst %s\n", ZEROINST_VERSION);
      return finish_output (EXIT_OK);
    }
  if (name[0] == '-')
    return tool_usage_error (NULL, "unknown option '%s'", name);
  const struct command *c = find_command (name);
  if (!c)
    return tool_usage_error (NULL, "unknown command '%s', commands are: %s", name, command_names ());
  return finish_output (c->run (argc - 1, argv + 1));
}
