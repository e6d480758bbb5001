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

/* NAME (PARAMS): the report, then the C library's REAL (of type
   REAL_fn) called with ARGS.  The execl* forms go through these.  */
#define ZI_EXEC(NAME, PARAMS, REAL, ARGS)                              \
  int NAME PARAMS                                                      \
  {                                                                    \
    before_exec ();                                                    \
    return after_exec (((REAL##_fn *) real (#REAL)) ARGS);             \
  }
ZI_EXEC (execve, (const char *path, char *const argv[], char *const envp[]), execve,
         (path, argv, envp))
ZI_EXEC (execv, (const char *path, char *const argv[]), execve, (path, argv, environ))
ZI_EXEC (execvpe, (const char *file, char *const argv[], char *const envp[]), execvpe,
         (file, argv, envp))
ZI_EXEC (execvp, (const char *file, char *const argv[]), execvpe, (file, argv, environ))
ZI_EXEC (fexecve, (int fd, char *const argv[], char *const envp[]), fexecve, (fd, argv, envp))

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

/* NAME (FIRST, arg, ...): the arguments collected into an argv for
   THEN (FIRST, argv), a wrapper above.  */
#define ZI_EXECL(NAME, FIRST, THEN)                                    \
  int NAME (const char *FIRST, const char *arg, ...)                   \
  {                                                                    \
    va_list ap;                                                        \
    COLLECT_ARGS (arg, ap, argv);                                      \
    va_end (ap);                                                       \
    return THEN (FIRST, argv);                                         \
  }
ZI_EXECL (execl, path, execv)
ZI_EXECL (execlp, file, execvp)

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
