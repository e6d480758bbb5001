/* options.c - run-time options from the environment, read once at start.

   ZEROINST_MODE     code | data | code,data            (default code):
                     per load site, per data object (objects.c), or both
   ZEROINST_OUTPUT   report directory; %p pid, %h host, %r MPI rank, %%
                     (default ./zeroinst-<program>-<pid>, in the directory
                     the program started in; never an existing directory:
                     output.c)
   ZEROINST_TOP      records per section in summary.txt  (default 20)
   ZEROINST_VERBOSE  1: say on stderr where the report went (default 0)
   ZEROINST_CONTEXTS 0: one record per site, calling contexts merged
                     (default 1: one record per site and call path)
   ZEROINST_MAX_DEPTH  deepest call path kept, 1..100000 (default 256);
                     deeper calls are counted in the path cut at that depth
   ZEROINST_EMPTY_REPORT  1: write a report also when the process recorded
                     nothing (default 0: no directory, e.g. for configure's
                     test programs)

   In a setuid or setgid process (AT_SECURE) every ZEROINST_* variable is
   ignored: the user who starts it must not choose where a privileged
   process writes.

   A bad value is reported once on stderr, with the valid values, and the
   default is used: the program itself always runs as it would without
   zeroinst.  */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "runtime.h"

struct zi_config zi_config = {
  .mode_code = 1, .top = 20, .contexts = 1, .max_depth = 256,
};

void
zi_warn (const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf - 2, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  if ((size_t) n > sizeof buf - 2)
    n = sizeof buf - 2;
  buf[n++] = '\n';
  static const char prefix[] = "zeroinst: ";
  ssize_t ignored = write (2, prefix, sizeof prefix - 1);
  ignored = write (2, buf, (size_t) n);
  (void) ignored;
}

const char *
zi_getenv (const char *name)
{
  return secure_getenv (name);
}

/* Parse an unsigned number in [LO, HI] from NAME; keep *OUT on error.  */
static void
read_number (const char *name, size_t lo, size_t hi, size_t *out)
{
  const char *s = zi_getenv (name);
  if (!s)
    return;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 10);
  if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
    {
      zi_warn ("ignoring %s='%s': expected a whole number from %zu to %zu; using %zu",
               name, s, lo, hi, *out);
      return;
    }
  *out = (size_t) v;
}

static void
read_mode (void)
{
  const char *s = zi_getenv ("ZEROINST_MODE");
  if (!s)
    return;
  if (!strcmp (s, "code"))
    zi_config.mode_code = 1, zi_config.mode_data = 0;
  else if (!strcmp (s, "data"))
    zi_config.mode_code = 0, zi_config.mode_data = 1;
  else if (!strcmp (s, "code,data") || !strcmp (s, "data,code"))
    zi_config.mode_code = 1, zi_config.mode_data = 1;
  else
    {
      zi_warn ("ignoring ZEROINST_MODE='%s': valid values are code, data, code,data; using code", s);
      return;
    }
}

/* ZEROINST_OUTPUT, checked now (expanded as it would be for this
   process) so that a bad pattern or an over-long name is said at start.
   Read again at report time if it was not there at start: a runtime
   started from .preinit_array code may run before the environment is.  */
void
zi_read_output (void)
{
  static int seen;
  const char *out = seen ? NULL : zi_getenv ("ZEROINST_OUTPUT");
  if (!out)
    return;
  seen = 1;
  char name[PATH_MAX];
  const char *err = NULL;
  if (!*out)
    zi_warn ("ignoring empty ZEROINST_OUTPUT; using the default directory");
  else if (zi_output_expand (out, getpid (), name, sizeof name, &err) != 0)
    zi_warn ("ignoring ZEROINST_OUTPUT='%.200s%s': %s; using the default directory", out,
             strlen (out) > 200 ? "..." : "", err);
  else
    zi_config.output = strdup (out);
}

void
zi_read_options (void)
{
  read_mode ();
  size_t top = zi_config.top;
  read_number ("ZEROINST_TOP", 1, 1000000, &top);
  zi_config.top = (unsigned) top;
  size_t verbose = 0;
  read_number ("ZEROINST_VERBOSE", 0, 1, &verbose);
  zi_config.verbose = (int) verbose;
  size_t contexts = 1;
  read_number ("ZEROINST_CONTEXTS", 0, 1, &contexts);
  zi_config.contexts = (int) contexts;
  size_t depth = zi_config.max_depth;
  read_number ("ZEROINST_MAX_DEPTH", 1, 100000, &depth);
  zi_config.max_depth = (unsigned) depth;
  /* Options of data mode's former load buffers: said, not silently
     dropped, so that a script relying on them learns why nothing
     changes.  */
  static const char *const gone[] = { "ZEROINST_BUFFER", "ZEROINST_SAMPLE" };
  for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
    if (zi_getenv (gone[i]))
      zi_warn ("ignoring %s: data mode has no load buffers; every load is analysed", gone[i]);
  size_t empty = 0;
  read_number ("ZEROINST_EMPTY_REPORT", 0, 1, &empty);
  zi_config.empty_report = (int) empty;
  zi_read_output ();
  if (getauxval (AT_SECURE))
    for (char **e = environ; *e; e++)
      if (!strncmp (*e, "ZEROINST_", 9))
        {
          zi_warn ("setuid/setgid program: ZEROINST_* variables are ignored");
          break;
        }
}
