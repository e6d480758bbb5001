/* zeroinst-wrapper.c - zeroinst-cc, zeroinst-cxx and zeroinst-fortran: drop-in
   compilers (CC/CXX/FC of make, autotools and CMake builds) that run the
   real GCC driver with the zeroinst plugin and link the zeroinst runtime.

     Compiling (-c, -S, or compile-and-link): adds -fplugin=.../zeroinst.so
       (also at link time, where -flto generates the code).
     Linking an executable or shared library: adds the shared runtime
       (-L<prefix>/lib -Wl,-rpath,<prefix>/lib -lzeroinst, not as-needed)
       and, where the toolchain has them, packed relative relocations
       (-Wl,-z,pack-relative-relocs, before the user's arguments: the
       descriptors' pointers are relocations by the hundred thousand;
       not when the link picks another linker);
       with -static, -static-pie or ZEROINST_STATIC=1 the static one
       (libzeroinst.a, its allocator wrappers through -Wl,--wrap, and the
       static libraries it needs).
     Preprocessing and queries (-E, -M/-MM alone, -v alone, --version,
       -dumpversion, -dumpmachine, -print-*, --help, -fsyntax-only, -###):
       the real compiler, untouched.

   Environment: ZEROINST_WRAP (the real compiler), ZEROINST_PLUGIN_ARGS
   (plugin options, whitespace-separated), ZEROINST_STATIC=1,
   ZEROINST_DISABLE=1 (exactly the real compiler).

   Why C and not a shell script: this runs on every compile of a build, and
   response files (@file, which CMake and libtool write for long command
   lines) must be read as data.  They are parsed here with the rules of
   GCC's driver (libiberty's expandargv): whitespace separates arguments,
   single and double quotes group, a backslash escapes the next character
   everywhere, an @file inside is read in turn.  The wrapper only looks at
   the arguments to decide what to add; the real compiler gets the user's
   arguments unchanged (@file included) and reads the files itself, so it
   reports anything wrong with them (an unbalanced quote swallows the rest
   of the file, as in GCC) with its own message.

   The per-target facts (the default compilers, the triple, the libraries
   the static runtime needs) come from zeroinst-wrapper-config.h, written by
   cmake/CMakeLists.txt; ZI_LANG (0 C, 1 C++, 2 Fortran) picks the driver.
   Paths are found from the executable's own location (<prefix>/bin), so
   build and install trees, and a moved install prefix, all work.  */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "zeroinst-wrapper-config.h"

static const char *const names[] = { "zeroinst-cc", "zeroinst-cxx", "zeroinst-fortran" };
static const char *const drivers[] = { ZI_TARGET_GCC, ZI_TARGET_GXX, ZI_TARGET_GFORTRAN };
#define NAME names[ZI_LANG]

/* What the command line asks for.  */
struct kind {
  int link;           /* 0 after -c or -S */
  int query;          /* preprocessing or a query only */
  int deps_only, deps_gen, verbose, nargs;
  int is_static;      /* -static or -static-pie */
  int other_linker;   /* -fuse-ld= (but bfd), --ld-path= or -B: maybe not the probed one */
  int files_left;     /* @file expansions allowed (GCC stops at 2000) */
};

/* Options whose value is the next argument: that argument is data (an
   output file named "-c" does not mean -c).  */
static const char *const takes_value[] = {
  "-o", "-x", "-MF", "-MT", "-MQ", "-I", "-L", "-D", "-U", "-include", "-imacros", "-isystem",
  "-idirafter", "-iquote", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
  "-imultilib", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-T", "-u", "-z", "-e",
  "--param", "-aux-info", "-dumpbase", "-dumpbase-ext", "-dumpdir", "-A", NULL
};

static int
is_one_of (const char *a, const char *const *list)
{
  for (; *list; list++)
    if (strcmp (a, *list) == 0)
      return 1;
  return 0;
}

static void classify (struct kind *k, char **args, int n);

/* The arguments of response file PATH, parsed as GCC does; NULL if it
   cannot be read (GCC then keeps "@PATH" as an ordinary argument).  */
static char **
read_response_file (const char *path, int *count)
{
  struct stat st;
  FILE *f = fopen (path, "r");
  if (!f)
    return NULL;
  if (fstat (fileno (f), &st) != 0 || S_ISDIR (st.st_mode))
    {
      fclose (f);
      return NULL;
    }
  size_t cap = 4096, len = 0;
  char *text = malloc (cap);
  size_t got;
  while (text && (got = fread (text + len, 1, cap - len - 1, f)) > 0)
    {
      len += got;
      if (len + 1 == cap)
        text = realloc (text, cap *= 2);
    }
  fclose (f);
  if (!text)
    return NULL;
  text[len] = 0;              /* GCC reads it as a C string: a NUL ends it */

  /* All arguments with their NULs fit in twice the text: one buffer.  An
     argument takes at least two characters of text with its separator.  */
  size_t chars = strlen (text);
  char *out = malloc (2 * chars + 2);
  char **argv = malloc ((chars / 2 + 2) * sizeof *argv);
  if (!out || !argv)
    return NULL;
  int n = 0;
  const char *p = text;
  for (;;)
    {
      while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
      if (!*p)
        break;
      argv[n++] = out;
      int squote = 0, dquote = 0;
      for (; *p; p++)
        {
          if (*p == '\\')
            {
              if (!*++p)           /* a backslash at the very end is dropped */
                break;
              *out++ = *p;
            }
          else if (squote)
            {
              if (*p == '\'')
                squote = 0;
              else
                *out++ = *p;
            }
          else if (dquote)
            {
              if (*p == '"')
                dquote = 0;
              else
                *out++ = *p;
            }
          else if (*p == '\'')
            squote = 1;
          else if (*p == '"')
            dquote = 1;
          else if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
            break;
          else
            *out++ = *p;
        }
      *out++ = 0;
    }
  free (text);
  *count = n;
  return argv;
}

static void
classify_one (struct kind *k, char **args, int n, int *i)
{
  const char *a = args[*i];
  k->nargs++;
  if (a[0] == '@' && k->files_left > 0)
    {
      int count;
      char **inner = read_response_file (a + 1, &count);
      if (inner)
        {
          k->nargs--;
          k->files_left--;
          classify (k, inner, count);
          return;                    /* inner is kept: it is small and we exec soon */
        }
    }
  if (a[0] != '-')
    return;
  if (strcmp (a, "-c") == 0 || strcmp (a, "-S") == 0)
    k->link = 0;
  else if (strcmp (a, "-E") == 0 || strcmp (a, "-fsyntax-only") == 0 || strcmp (a, "--version") == 0
           || strcmp (a, "--help") == 0 || strncmp (a, "--help=", 7) == 0
           || strcmp (a, "-dumpversion") == 0 || strcmp (a, "-dumpfullversion") == 0
           || strcmp (a, "-dumpmachine") == 0 || strcmp (a, "-dumpspecs") == 0
           || strncmp (a, "-print-", 7) == 0 || strncmp (a, "--print-", 8) == 0
           || strcmp (a, "-###") == 0)
    k->query = 1;
  else if (strcmp (a, "-M") == 0 || strcmp (a, "-MM") == 0)
    k->deps_only = 1;
  else if (strcmp (a, "-MD") == 0 || strcmp (a, "-MMD") == 0)
    k->deps_gen = 1;
  else if (strcmp (a, "-v") == 0)
    k->verbose = 1;
  else if (strcmp (a, "-static") == 0 || strcmp (a, "-static-pie") == 0)
    k->is_static = 1;
  else if ((strncmp (a, "-fuse-ld=", 9) == 0 && strcmp (a + 9, "bfd") != 0)
           || strncmp (a, "--ld-path=", 10) == 0 || strncmp (a, "-B", 2) == 0)
    {
      k->other_linker = 1;
      if (strcmp (a, "-B") == 0 && *i + 1 < n)
        {
          ++*i;                  /* its directory */
          k->nargs++;
        }
    }
  else if (is_one_of (a, takes_value) && *i + 1 < n)
    {
      ++*i;
      k->nargs++;
    }
}

static void
classify (struct kind *k, char **args, int n)
{
  for (int i = 0; i < n; i++)
    classify_one (k, args, n, &i);
}

static void
die (const char *fmt, const char *a, const char *b)
{
  fprintf (stderr, "%s: ", NAME);
  fprintf (stderr, fmt, a, b);
  fputc ('\n', stderr);
  exit (1);
}

static void
run (const char *real, char **argv)
{
  execvp (real, argv);
  die ("cannot run the real compiler '%s': %s (set ZEROINST_WRAP)", real, strerror (errno));
}

/* <prefix>: the directory above the one holding this executable.  */
static char *
find_prefix (const char *argv0)
{
  char *self = realpath ("/proc/self/exe", NULL);
  if (!self && strchr (argv0, '/'))
    self = realpath (argv0, NULL);
  if (!self)
    {
      const char *path = getenv ("PATH");
      char buf[PATH_MAX];
      for (const char *p = path; p && *p && !self; p = strchr (p, ':') ? strchr (p, ':') + 1 : "")
        {
          int len = strchr (p, ':') ? (int) (strchr (p, ':') - p) : (int) strlen (p);
          snprintf (buf, sizeof buf, "%.*s/%s", len, p, argv0);
          if (access (buf, X_OK) == 0)
            self = realpath (buf, NULL);
        }
    }
  if (!self)
    die ("cannot find its own location (from '%s')%s", argv0, "");
  for (int up = 0; up < 2; up++)
    {
      char *slash = strrchr (self, '/');
      if (slash == self)
        slash[1] = 0;
      else if (slash)
        *slash = 0;
    }
  return self;
}

/* The target triple of REAL: known when it is the default compiler, else
   asked (REAL -dumpmachine).  */
static char *
triple_of (const char *real)
{
  if (strcmp (real, drivers[ZI_LANG]) == 0)
    return ZI_TRIPLE;
  int fd[2];
  if (pipe (fd) != 0)
    die ("cannot run '%s': %s", real, strerror (errno));
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fd[1], 1);
      close (fd[0]);
      close (fd[1]);
      int null = open ("/dev/null", O_WRONLY);
      if (null >= 0)
        dup2 (null, 2);
      execlp (real, real, "-dumpmachine", (char *) NULL);
      _exit (127);
    }
  close (fd[1]);
  static char out[256];
  size_t len = 0;
  ssize_t got;
  while (len < sizeof out - 1 && (got = read (fd[0], out + len, sizeof out - 1 - len)) > 0)
    len += got;
  close (fd[0]);
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status)
      || len == 0)
    die ("cannot run the real compiler '%s'%s (set ZEROINST_WRAP)", real, "");
  out[len] = 0;
  out[strcspn (out, "\r\n")] = 0;
  return out;
}

static char *
cat (const char *a, const char *b, const char *c)
{
  char *s;
  if (asprintf (&s, "%s%s%s", a, b, c) < 0)
    die ("out of memory%s%s", "", "");
  return s;
}

/* Append the whitespace-separated words of LIST to ARGV.  */
static void
push_words (char **argv, int *n, const char *list)
{
  char *copy = strdup (list), *save = NULL;
  for (char *w = strtok_r (copy, " \t\n", &save); w; w = strtok_r (NULL, " \t\n", &save))
    argv[(*n)++] = w;
}

int
main (int argc, char **argv)
{
  const char *real = getenv ("ZEROINST_WRAP");
  if (!real || !*real)
    real = drivers[ZI_LANG];
  const char *disable = getenv ("ZEROINST_DISABLE");
  const char *self = argv[0];
  argv[0] = (char *) real;
  if (disable && strcmp (disable, "1") == 0)
    run (real, argv);

  struct kind k = { .link = 1, .files_left = 2000 };
  classify (&k, argv + 1, argc - 1);
  if (k.deps_only && !k.deps_gen)
    k.query = 1;
  if (k.verbose && k.nargs == 1)
    k.query = 1;
  if (k.query)
    run (real, argv);

  char *prefix = find_prefix (self);
  char *libdir = cat (prefix, "/", ZI_LIBDIR);
  const char *triple = triple_of (real);
  char *plugin = cat (libdir, "/zeroinst/", triple);
  plugin = cat (plugin, "/zeroinst.so", "");
  if (access (plugin, R_OK) != 0)
    {
      fprintf (stderr, "%s: no zeroinst plugin for %s (target %s): expected %s.\n", NAME, real,
               triple, plugin);
      die ("build zeroinst with -DZEROINST_TARGET_GCC=<that compiler> (see README).%s%s", "", "");
    }

  const char *plugin_args = getenv ("ZEROINST_PLUGIN_ARGS");
  if (!plugin_args)
    plugin_args = "";
  char **args = calloc (argc + strlen (plugin_args) + sizeof ZI_DEPS_STATIC + sizeof ZI_DEPS_SHARED + 16,
                        sizeof *args);
  int n = 0;
  args[n++] = (char *) real;
  /* -fplugin first, then its options (GCC wants the plugin named before
     them), then the user's arguments.  */
  args[n++] = cat ("-fplugin=", plugin, "");
  {
    char *copy = strdup (plugin_args), *save = NULL;
    for (char *w = strtok_r (copy, " \t\n", &save); w; w = strtok_r (NULL, " \t\n", &save))
      args[n++] = cat ("-fplugin-arg-zeroinst-", w, "");
  }
  const char *st = getenv ("ZEROINST_STATIC");
  int static_runtime = k.is_static || (st && strcmp (st, "1") == 0);
  /* ZI_LINK_SHARED (one argument) before the user's arguments, so that
     theirs (-Wl,-z,nopack-relative-relocs) win.  Only with the linker and
     target that cmake/CMakeLists.txt probed: the configured target (as
     ZEROINST_WRAP may name a compiler for another), and not where the link
     picks another linker (gold rejects the option, lld before LLVM 15
     warns).  Not with the static runtime either, which is for programs
     that run elsewhere (a C library older than 2.36 cannot load them).  */
  if (k.link && !static_runtime && !k.other_linker && ZI_LINK_SHARED[0]
      && strcmp (triple, ZI_TRIPLE) == 0)
    args[n++] = ZI_LINK_SHARED;
  for (int i = 1; i < argc; i++)
    args[n++] = argv[i];
  if (k.link)
    {
      if (static_runtime)
        {
          /* -u pulls in the runtime (and its start-up) even with no
             instrumented load; --wrap routes malloc & co. through its
             allocator wrappers (no symbol interposition without a dynamic
             linker).  */
          args[n++] = "-Wl,-u,__zeroinst_enter_node";
          args[n++] = cat (libdir, "/libzeroinst.a", "");
          args[n++] = ZI_WRAP_FLAGS;
          /* GCC links -static without .eh_frame_hdr; libunwind needs it
             to find the unwind tables (without it, call paths through
             libstdc++'s operator new lose frames).  */
          if (k.is_static)
            args[n++] = "-Wl,--eh-frame-hdr";
          push_words (args, &n, k.is_static ? ZI_DEPS_STATIC : ZI_DEPS_SHARED);
        }
      else
        {
          /* --no-as-needed: a program with no instrumented load still has
             the runtime (its start-up, ZEROINST_EMPTY_REPORT);
             push/pop-state keeps the user's own --as-needed.  */
          args[n++] = cat ("-L", libdir, "");
          args[n++] = cat ("-Wl,-rpath,", libdir, "");
          args[n++] = "-Wl,--push-state,--no-as-needed";
          args[n++] = "-lzeroinst";
          args[n++] = "-Wl,--pop-state";
        }
    }
  args[n] = NULL;
  run (real, args);
  return 1;
}
