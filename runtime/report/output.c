/* output.c - where a report goes, and writing it without clobbering.

   The report directory of a process is one it has just created itself; no
   existing file or directory is ever written into, replaced or followed
   (SPEC §1).  The rules:

   - Name.  ZEROINST_OUTPUT with %p (pid), %h (host name), %r (MPI rank,
     see zi_output_rank) and %% (a %); relative to the directory the
     program started in.  A forked child whose ZEROINST_OUTPUT has no %p
     gets "-<pid>" appended (its parent may not have written its own yet).
     Default: zeroinst-<program>-<pid> in the start directory, or
     zeroinst-<program>-r<rank>-<pid> when a launcher gave the process an
     MPI rank, the program name shortened so that the name fits a file
     name.
   - Uniqueness.  mkdir(NAME) failing with EEXIST means another process (a
     process that exec'ed itself keeps its pid, concurrent runs share a
     ZEROINST_OUTPUT) or another user has it: NAME.1, NAME.2, ...,
     NAME.999 are tried in turn.  Missing parent directories are created.
   - Ownership.  The new directory is opened with O_NOFOLLOW|O_DIRECTORY
     and must belong to the effective user (nobody swapped it between the
     mkdir and the open); files are then created relative to that
     descriptor only.
   - Completeness.  Each file is written as .NAME.tmp (O_CREAT|O_EXCL|
     O_NOFOLLOW) and renamed to NAME when complete: a reader never sees a
     partial report.json, and a full disk leaves no invalid file behind,
     only one line on stderr.
   - A process that reports twice (an exec that failed, then exit) replaces
     its own files in the directory it created the first time.

   Nothing here may change the program: errors are one line on stderr, and
   a file-size limit (RLIMIT_FSIZE) exceeded by the report does not deliver
   the SIGXFSZ that would kill the program.  */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "report/report.h"

static char start_dir[PATH_MAX];
static pid_t start_pid;

/* This process's report directory once made (pid: who made it).  */
static int report_fd = -1;
static pid_t report_pid;
static dev_t report_dev;
static ino_t report_ino;
static char report_dir[PATH_MAX + 8];

#define MAX_SUFFIX 999
#define SUFFIX_ROOM 4          /* ".999" */

/* Remember where the program started: a relative ZEROINST_OUTPUT and the
   default directory are relative to it, even if the program chdir()s.  */
void
zi_remember_start (void)
{
  if (!getcwd (start_dir, sizeof start_dir))
    strcpy (start_dir, ".");
  start_pid = getpid ();
}

/* The MPI rank the launcher gave this process (digits), or NULL: the
   first of these variables that holds a number of at most 18 digits (so
   that report.json's "rank" fits any JSON reader's integers).  No MPI
   library is involved.  */
const char *
zi_output_rank (void)
{
  static const char *const vars[] = {
    "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK", "SLURM_PROCID",
  };
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    {
      const char *v = getenv (vars[i]);
      const char *d = v;
      while (d && *d >= '0' && *d <= '9')
        d++;
      if (d && d != v && !*d && d - v <= 18)
        return v;
    }
  return NULL;
}

/* Expand PATTERN into OUT (SIZE bytes) for process PID.  Returns 0, or -1
   with *ERR set to what is wrong.  */
int
zi_output_expand (const char *pattern, pid_t pid, char *out, size_t size, const char **err)
{
  size_t n = 0;
  int has_pid = 0;
  char host[256];
  for (const char *s = pattern; *s; s++)
    {
      char piece[300];
      const char *add = piece;
      if (*s != '%')
        piece[0] = *s, piece[1] = '\0';
      else
        switch (*++s)
          {
          case 'p':
            snprintf (piece, sizeof piece, "%d", (int) pid);
            has_pid = 1;
            break;
          case 'h':
            if (gethostname (host, sizeof host) != 0)
              strcpy (host, "localhost");
            host[sizeof host - 1] = '\0';
            add = host;
            break;
          case 'r':
            add = zi_output_rank ();
            if (!add)
              add = "norank";
            break;
          case '%':
            add = "%";
            break;
          default:
            *err = "unknown % pattern (valid: %p pid, %h host, %r MPI rank, %% a %)";
            return -1;
          }
      size_t len = strlen (add);
      if (n + len >= size)
        {
          *err = "too long";
          return -1;
        }
      memcpy (out + n, add, len);
      n += len;
    }
  if (!has_pid && pid != start_pid)
    {
      int k = snprintf (out + n, size - n, "-%d", (int) pid);
      if (k < 0 || (size_t) k >= size - n)
        {
          *err = "too long";
          return -1;
        }
      n += (size_t) k;
    }
  out[n] = '\0';
  if (n == 0)
    {
      *err = "empty";
      return -1;
    }
  /* Room for the directory suffix in the last component and in the whole
     path (start directory, "/", ".999", "/.summary.txt.tmp").  */
  const char *last = strrchr (out, '/');
  last = last ? last + 1 : out;
  if (strlen (last) + SUFFIX_ROOM > NAME_MAX || *last == '\0')
    {
      *err = *last ? "its last component is too long for a file name" : "it ends in '/'";
      return -1;
    }
  /* (Loops rather than strcspn & co.: a program may define those itself,
     and GCC's torture tests define them with other meanings.)  */
  size_t len = 0;
  for (const char *c = out;; c++)
    if (*c == '/' || !*c)
      {
        if (len > NAME_MAX)
          {
            *err = "a component is too long for a file name";
            return -1;
          }
        if (!*c)
          break;
        len = 0;
      }
    else
      len++;
  size_t base = out[0] == '/' ? 0 : strlen (start_dir) + 1;
  if (base + n + SUFFIX_ROOM + 32 >= PATH_MAX)
    {
      *err = "too long";
      return -1;
    }
  return 0;
}

static const char *
program_base (void)
{
  const char *path = zi_program_path ();
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  return *base ? base : "program";
}

/* The name of the report directory, without suffix, into OUT.  */
static int
directory_name (char *out, size_t size)
{
  pid_t pid = getpid ();
  char name[PATH_MAX];
  const char *err = NULL;
  zi_read_output ();
  if (zi_config.output && zi_output_expand (zi_config.output, pid, name, sizeof name, &err) != 0)
    {
      zi_warn ("ZEROINST_OUTPUT='%s': %s; using the default directory", zi_config.output, err);
      zi_config.output = NULL;
    }
  if (!zi_config.output)
    {
      /* zeroinst-<program>[-r<rank>]-<pid>, the program name cut to fit a
         name.  */
      char suffix[64];
      const char *rank = zi_output_rank ();
      if (rank)
        snprintf (suffix, sizeof suffix, "-r%s-%d", rank, (int) pid);
      else
        snprintf (suffix, sizeof suffix, "-%d", (int) pid);
      int room = (int) (NAME_MAX - SUFFIX_ROOM - strlen ("zeroinst-") - strlen (suffix));
      snprintf (name, sizeof name, "zeroinst-%.*s%s", room, program_base (), suffix);
    }
  int n = name[0] == '/' ? snprintf (out, size, "%s", name)
                         : snprintf (out, size, "%s/%s", start_dir, name);
  return n < 0 || (size_t) n >= size ? -1 : 0;
}

/* Create the missing parents of PATH (mkdir -p of its dirname).  */
static void
make_parents (char *path)
{
  for (char *p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (path, 0777) != 0 && errno != EEXIST)
          {
            *p = '/';
            return;      /* the mkdir of the report directory reports it */
          }
        *p = '/';
      }
}

/* Make and open a fresh report directory: NAME, else NAME.1, ... */
static int
make_report_dir (void)
{
  char base[PATH_MAX];
  if (directory_name (base, sizeof base) != 0)
    {
      zi_warn ("report not written: the report directory's name is too long");
      return -1;
    }
  make_parents (base);
  for (int k = 0; k <= MAX_SUFFIX; k++)
    {
      char dir[PATH_MAX + 8];
      if (k == 0)
        snprintf (dir, sizeof dir, "%s", base);
      else
        snprintf (dir, sizeof dir, "%s.%d", base, k);
      if (mkdir (dir, 0777) != 0)
        {
          if (errno == EEXIST)
            continue;
          zi_warn ("report not written: cannot create directory %s: %s", dir, strerror (errno));
          return -1;
        }
      int fd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      struct stat st;
      if (fd < 0 || fstat (fd, &st) != 0 || st.st_uid != geteuid ())
        {
          /* Replaced between mkdir and open: not ours, never write there.  */
          zi_warn ("report not written: directory %s was replaced while it was created", dir);
          if (fd >= 0)
            close (fd);
          return -1;
        }
      snprintf (report_dir, sizeof report_dir, "%s", dir);
      report_fd = fd;
      report_pid = getpid ();
      report_dev = st.st_dev;
      report_ino = st.st_ino;
      return 0;
    }
  zi_warn ("report not written: %s and %s.1 ... %s.%d all exist", base, base, base, MAX_SUFFIX);
  return -1;
}

int
zi_output_open (void)
{
  if (report_fd >= 0 && report_pid == getpid ())
    return 0;
  /* The parent's, inherited through fork: close it unless the child has
     closed it already and the number is now one of its own files.  */
  struct stat st;
  if (report_fd >= 0 && fstat (report_fd, &st) == 0 && st.st_dev == report_dev
      && st.st_ino == report_ino)
    close (report_fd);
  report_fd = -1;
  return make_report_dir ();
}

const char *
zi_output_dir (void)
{
  return report_dir;
}

/* Write NAME in the report directory with WRITE (R, F): as .NAME.tmp,
   renamed to NAME when complete.  */
int
zi_output_write (const char *name, int (*write) (const struct zi_report *, FILE *),
                 const struct zi_report *r)
{
  char tmp[NAME_MAX + 1];
  snprintf (tmp, sizeof tmp, ".%s.tmp", name);
  /* A report larger than RLIMIT_FSIZE must fail with EFBIG, not kill the
     program with SIGXFSZ: block it, and take back one we caused.  */
  sigset_t xfsz, old, pending;
  sigemptyset (&xfsz);
  sigaddset (&xfsz, SIGXFSZ);
  pthread_sigmask (SIG_BLOCK, &xfsz, &old);
  sigpending (&pending);
  int was_pending = sigismember (&pending, SIGXFSZ);

  int ok = 0;
  const char *what = "create";
  int fd = openat (report_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST)
    {
      /* Ours, left by a report interrupted in this process (the directory
         is ours alone): start it again.  */
      unlinkat (report_fd, tmp, 0);
      fd = openat (report_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    }
  if (fd >= 0)
    {
      FILE *f = fdopen (fd, "w");
      if (!f)
        close (fd);
      else
        {
          what = "write";
          /* Writes of 1 MB, not of the file system's block: a large
             program's report.json is tens of megabytes.  */
          setvbuf (f, NULL, _IOFBF, 1 << 20);
          int w = write (r, f);
          int saved = errno;
          int c = fclose (f);
          if (w == 0 && c != 0)
            saved = errno;
          errno = saved;
          if (w == 0 && c == 0)
            {
              what = "rename";
              ok = renameat (report_fd, tmp, report_fd, name) == 0;
            }
        }
    }
  int saved = errno;
  if (!ok)
    {
      zi_warn ("report not written: cannot %s %s/%s: %s", what, report_dir, name,
               strerror (saved));
      unlinkat (report_fd, tmp, 0);
    }

  sigpending (&pending);
  if (!was_pending && sigismember (&pending, SIGXFSZ))
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&xfsz, NULL, &zero);
    }
  /* Not SIG_SETMASK OLD: a signal deferred meanwhile (core/signals.c) has been
     added to this thread's mask and must stay blocked until the runtime
     section ends.  */
  if (!sigismember (&old, SIGXFSZ))
    pthread_sigmask (SIG_UNBLOCK, &xfsz, NULL);
  return ok ? 0 : -1;
}

/* After a failed report: leave no empty directory behind.  */
void
zi_output_discard_if_empty (void)
{
  if (report_fd < 0 || report_pid != getpid ())
    return;
  if (rmdir (report_dir) == 0)
    {
      close (report_fd);
      report_fd = -1;
    }
}
