/* options.c - run-time options from the environment, read once at start
   (options.def: names, ranges, defaults; README: what each one does).

   ZEROINST_MODE and ZEROINST_OUTPUT have parsers of their own below;
   ZEROINST_OUTPUT is checked at start (expanded as it would be for this
   process) and used at report time (report/output.c: never an existing
   directory).

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
#include "report/report.h"

struct zi_config zi_config = {
  .mode_code = 1,
#define ZI_ENV_NUMBER(NAME, FIELD, LO, HI, DEFAULT, HELP) .FIELD = DEFAULT,
#include "core/options.def"
};

static const struct number_option {
  const char *name;
  unsigned *field;
  unsigned lo, hi;
} numbers[] = {
#define ZI_ENV_NUMBER(NAME, FIELD, LO, HI, DEFAULT, HELP) { NAME, &zi_config.FIELD, LO, HI },
#include "core/options.def"
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
read_number (const char *name, unsigned lo, unsigned hi, unsigned *out)
{
  const char *s = zi_getenv (name);
  if (!s)
    return;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 10);
  if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
    {
      zi_warn ("ignoring %s='%s': expected a whole number from %u to %u; using %u",
               name, s, lo, hi, *out);
      return;
    }
  *out = (unsigned) v;
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

/* ZEROINST_HELP=1: the options, their defaults and what they do.  */
static void
print_help (void)
{
  zi_warn ("run-time options (environment variables, read at start; README has the details):");
#define ZI_ENV_OTHER(NAME, DEFAULT, HELP) zi_warn ("  %-22s %s (default: %s)", NAME, HELP, DEFAULT);
#define ZI_ENV_NUMBER(NAME, FIELD, LO, HI, DEFAULT, HELP) \
  zi_warn ("  %-22s %s, " #LO ".." #HI " (default: %u)", NAME, HELP, (unsigned) DEFAULT);
#include "core/options.def"
}

void
zi_read_options (void)
{
  read_mode ();
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
    read_number (numbers[i].name, numbers[i].lo, numbers[i].hi, numbers[i].field);
  static const char *const retired[] = {
#define ZI_ENV_RETIRED(NAME) NAME,
#include "core/options.def"
  };
  for (size_t i = 0; i < sizeof retired / sizeof *retired; i++)
    if (zi_getenv (retired[i]))
      zi_warn ("ignoring %s: data mode has no load buffers; every load is analysed", retired[i]);
  if (zi_config.help)
    print_help ();
  zi_read_output ();
  if (getauxval (AT_SECURE))
    for (char **e = environ; *e; e++)
      if (!strncmp (*e, "ZEROINST_", 9))
        {
          zi_warn ("setuid/setgid program: ZEROINST_* variables are ignored");
          break;
        }
}
