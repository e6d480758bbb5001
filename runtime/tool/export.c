/* export.c - `zeroinst export DIR|FILE --format json-v1 [-o FILE]`

   Writes a report in another format.  json-v1 is SPEC §6's expanded
   form ("zeroinst-report-1"): every record with its whole "call_path" or
   "alloc_path", for scripts written against it.  The runtime writes the
   compact "zeroinst-report-2" (runtime/report_json.c); report_load has
   already turned the report into format 1 in memory, so this writes what
   it got.  Output goes to stdout, or to FILE, written as FILE.tmp and
   renamed when complete so that a failed export leaves no half file.  */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"

/* The formats export writes.  */
static const char *const formats[] = { "json-v1", NULL };

void
export_help (FILE *out)
{
  fputs ("Usage: zeroinst export DIR|FILE --format json-v1 [-o FILE]\n"
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
         "\n"
         "Options:\n"
         "  --format F    the output format (required)\n"
         "  -o FILE       write FILE (replaced only once it is complete) instead of\n"
         "                standard output\n"
         "  -h, --help    print this help\n",
         out);
}

/* Write ROOT as JSON to PATH (NULL: stdout).  Returns the exit status.  */
static int
write_json (const json_t *root, const char *path)
{
  const size_t flags = JSON_INDENT (1);
  if (!path)
    {
      if (json_dumpf (root, stdout, flags) || fputc ('\n', stdout) == EOF)
        {
          tool_error ("error writing the output: %s", strerror (errno));
          return EXIT_BAD_INPUT;
        }
      return EXIT_OK;
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
  int ok = f && !json_dumpf (root, f, flags) && fputc ('\n', f) != EOF;
  int err = errno;
  if (f && fclose (f) != 0 && ok)
    {
      ok = 0;
      err = errno;
    }
  if (ok && rename (tmp, path) != 0)
    {
      ok = 0;
      err = errno;
    }
  if (!ok)
    {
      tool_error ("cannot write '%s': %s", path, strerror (err));
      if (f)
        unlink (tmp);
    }
  free (tmp);
  return ok ? EXIT_OK : EXIT_BAD_INPUT;
}

int
export_run (int argc, char **argv)
{
  const char *input = NULL, *format = NULL, *output = NULL, *value;
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
      else if ((r = tool_option_value ("export", argc, argv, &i, "-o", &value)) != 0)
        {
          if (r != 1)
            return EXIT_USAGE;
          output = value;
        }
      else
        return tool_usage_error ("export", "unknown option '%s'", arg);
    }
  if (!input)
    return tool_usage_error ("export", "missing report directory or file");
  if (!format)
    return tool_usage_error ("export", "missing --format (formats: json-v1)");
  int known = 0;
  for (const char *const *f = formats; *f; f++)
    known |= strcmp (format, *f) == 0;
  if (!known)
    return tool_usage_error ("export", "unknown format '%s' (formats: json-v1)", format);
  if (output && !*output)
    return tool_usage_error ("export", "-o needs a file name");

  struct report rep;
  if (report_load (input, &rep))
    return EXIT_BAD_INPUT;
  int status = write_json (rep.root, output);
  report_leave (&rep);
  return status;
}
