/* exec.c - write the report before exec* replaces the process image.

   These definitions interpose on libc's (the runtime is linked before libc),
   write the report of the process so far, then call the real function.  If
   the exec fails the program goes on and its exit writes the report again,
   complete.  A vfork child shares its parent's memory: it must not write
   (it is recognised by a pid that differs from the runtime's).  */

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "interpose/interpose.h"

#pragma GCC visibility push(default)

extern char **environ;

static void
before_exec (void)
{
  if (zi_pid && getpid () == zi_pid)
    zi_finish ("exec");
  zi_stack_before_exec ();     /* the new program gets the original stack limit */
}

/* The exec failed: this program goes on, with its raised stack limit.  */
static int
after_exec (int r)
{
  int saved = errno;
  zi_stack_after_exec ();
  errno = saved;
  return r;
}

/* The next definition of NAME (libc's).  */
static void *
real (const char *name)
{
  void *fn = dlsym (RTLD_NEXT, name);
  if (!fn)
    {
      zi_warn ("cannot find the real %s", name);
      abort ();
    }
  return fn;
}

typedef int execve_fn (const char *, char *const[], char *const[]);
typedef int execvpe_fn (const char *, char *const[], char *const[]);
typedef int fexecve_fn (int, char *const[], char *const[]);

int
execve (const char *path, char *const argv[], char *const envp[])
{
  before_exec ();
  return after_exec (((execve_fn *) real ("execve")) (path, argv, envp));
}

int
execv (const char *path, char *const argv[])
{
  before_exec ();
  return after_exec (((execve_fn *) real ("execve")) (path, argv, environ));
}

int
execvpe (const char *file, char *const argv[], char *const envp[])
{
  before_exec ();
  return after_exec (((execvpe_fn *) real ("execvpe")) (file, argv, envp));
}

int
execvp (const char *file, char *const argv[])
{
  before_exec ();
  return after_exec (((execvpe_fn *) real ("execvpe")) (file, argv, environ));
}

int
fexecve (int fd, char *const argv[], char *const envp[])
{
  before_exec ();
  return after_exec (((fexecve_fn *) real ("fexecve")) (fd, argv, envp));
}

/* Collect the variadic arguments of execl* into an argv (on the stack).  */
#define COLLECT_ARGS(ARG0, AP, ARGV)                                   \
  size_t n_ = 1;                                                       \
  va_start (AP, ARG0);                                                 \
  while (va_arg (AP, char *))                                          \
    n_++;                                                              \
  va_end (AP);                                                         \
  char *ARGV[n_ + 1];                                                  \
  ARGV[0] = (char *) ARG0;                                             \
  va_start (AP, ARG0);                                                 \
  for (size_t i_ = 1; i_ <= n_; i_++)                                  \
    ARGV[i_] = va_arg (AP, char *);

int
execl (const char *path, const char *arg, ...)
{
  va_list ap;
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execv (path, argv);
}

int
execlp (const char *file, const char *arg, ...)
{
  va_list ap;
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execvp (file, argv);
}

int
execle (const char *path, const char *arg, ...)
{
  va_list ap;
  COLLECT_ARGS (arg, ap, argv);
  char *const *envp = va_arg (ap, char *const *);
  va_end (ap);
  return execve (path, argv, envp);
}
#pragma GCC visibility pop
