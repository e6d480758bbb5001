"""Stack use: a program that runs plain at the default stack limits runs
instrumented too (README, Performance: frame sizes; runtime/core/stack.c).

The program is a mutual recursion even(n) -> odd(n-1) -> even(n-2) ...
at -O2, each activation loading ones[n % 1000] (an int64 1: 8 bytes, 7
of them redundant) before its call.  -fstack-usage gives each plain frame
16 bytes (the return address and one saved register, which holds the
loaded value across the call), checked by case frame_size.
"""
import os
import resource
import re

import common
from common import check

MIB = 1 << 20
PLAIN_FRAME = 16
# 7 MiB of the 8 MiB limit in plain frames: 7 * 2^20 / 16 = 458752
# activations; the rest of the stack is left for main, libc and the
# environment.
DEPTH = 7 * MIB // PLAIN_FRAME

RECURSION = r"""
__attribute__ ((noinline)) int64_t odd (int n);
__attribute__ ((noinline)) int64_t even (int n)
{ if (n == 0) return 0; return ones[n % 1000] + odd (n - 1); }
__attribute__ ((noinline)) int64_t odd (int n)
{ if (n == 0) return 0; return ones[n % 1000] + even (n - 1); }
static void *in_thread (void *arg)
{ printf ("%lld\n", (long long) even ((int) (intptr_t) arg)); return NULL; }
int main (int argc, char **argv)
{
  init ();
  int n = atoi (argv[1]);
  if (argc > 2)
    {
      /* A thread with default attributes: its stack size is the default
         one, taken from the stack limit at start.  */
      pthread_t t;
      if (pthread_create (&t, NULL, in_thread, (void *) (intptr_t) n) != 0)
        return 2;
      pthread_join (t, NULL);
    }
  else
    in_thread ((void *) (intptr_t) n);
  return 0;
}
"""


def eight_mib_stack():
    """In the child before exec: soft stack limit 8 MiB (the usual
    default), hard limit as it was."""
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (8 * MIB, hard))


def run_deep(thread):
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    check(hard == resource.RLIM_INFINITY or hard >= 32 * MIB,
          "the hard stack limit (%d) is below 32 MiB: the test cannot run here" % hard)
    args = [str(DEPTH)] + (["thread"] if thread else [])
    plain = common.build("deep", RECURSION, flags=["-O2"], plugin=False)
    r = common.run([plain] + args, preexec_fn=eight_mib_stack)
    check(r.returncode == 0 and r.stdout == "%d\n" % DEPTH,
          "plain run failed (status %d): the test's premise is wrong" % r.returncode)
    inst = common.build("deep", RECURSION, flags=["-O2"])
    out = os.path.join(common.TMP, "out")
    r = common.run([inst] + args, env={"ZEROINST_OUTPUT": out}, preexec_fn=eight_mib_stack)
    check(r.returncode == 0, "instrumented run failed with status %d" % r.returncode)
    check(r.stdout == "%d\n" % DEPTH, "instrumented output %r" % r.stdout)
    rep = common.valid_report(out)
    for fn in ("even", "odd"):
        # even runs at n = DEPTH, DEPTH-2, ..., 2 and odd at DEPTH-1, ..., 1
        # (DEPTH is even): DEPTH/2 loads each.
        recs = [x for x in rep["code"] if x["site"]["function"] == fn]
        check(sum(x["elements"] for x in recs) == DEPTH // 2,
              "%s: %d elements, expected %d" % (fn, sum(x["elements"] for x in recs), DEPTH // 2))
        check(sum(x["redundant_bytes"] for x in recs) == 7 * (DEPTH // 2),
              "%s: %d redundant bytes, expected %d"
              % (fn, sum(x["redundant_bytes"] for x in recs), 7 * (DEPTH // 2)))


def case_deep_recursion_main():
    """DEPTH = 458752 activations of 16 bytes need 7 MiB plain: the run
    passes at an 8 MiB soft limit, and must pass instrumented, with
    DEPTH/2 = 229376 elements and 7 * 229376 = 1605632 redundant bytes
    recorded in each of even and odd.  (Before: 80-byte instrumented
    frames, 35 MiB: SIGSEGV.)"""
    run_deep(thread=False)


def case_deep_recursion_thread():
    """The same recursion in a thread created with default attributes,
    whose stack size glibc takes from the 8 MiB soft limit at start: same
    counts."""
    run_deep(thread=True)


def case_frame_size():
    """-fstack-usage of even and odd at -O2: 16 bytes plain (return
    address and the loaded value's register); instrumented at most twice
    that: the return address, the loaded value, the saved parent context
    and the address of the thread's context variable (32 bytes), nothing
    kept for the rare runtime calls.  (Before: 80 bytes.)"""
    sizes = {}
    for plugin in (False, True):
        src = os.path.join(common.TMP, "frames.c")
        with open(src, "w") as f:
            f.write(common.PRELUDE + RECURSION)
        cc = common.tool("zeroinst-cc") if plugin else "gcc"
        obj = os.path.join(common.TMP, "frames%d.o" % plugin)
        r = common.run([cc, "-O2", "-fstack-usage", "-c", src, "-o", obj])
        check(r.returncode == 0, "compile failed:\n" + r.stderr)
        with open(obj[:-2] + ".su") as f:
            for line in f:
                m = re.match(r".*:(even|odd)\t(\d+)\t", line)
                if m:
                    sizes[(plugin, m.group(1))] = int(m.group(2))
    for fn in ("even", "odd"):
        check(sizes.get((False, fn)) == PLAIN_FRAME,
              "plain %s: %s bytes, expected %d" % (fn, sizes.get((False, fn)), PLAIN_FRAME))
        check(sizes.get((True, fn), 1 << 30) <= 2 * PLAIN_FRAME,
              "instrumented %s: %s bytes, expected at most %d"
              % (fn, sizes.get((True, fn)), 2 * PLAIN_FRAME))


def case_exec_gets_original_limit():
    """The runtime raises its own stack limit, but a program it execs (here
    `sh -c 'ulimit -s'`, after 10 loads and a failed exec) sees the soft
    limit the process started with (8192 KiB), as in the plain build."""
    body = r"""
#include <sys/resource.h>
int main (void)
{
  init ();
  struct rlimit rl;
  load_ones (10);
  getrlimit (RLIMIT_STACK, &rl);
  printf ("%s\n", rl.rlim_cur == 8192 * 1024 ? "unchanged" : "raised");
  fflush (stdout);
  execl ("/nonexistent", "x", (char *) 0);
  execl ("/bin/sh", "sh", "-c", "ulimit -s", (char *) 0);
  return 1;
}"""
    env = {"ZEROINST_OUTPUT": os.path.join(common.TMP, "rep")}
    limit = "ulimit -S -s 8192; exec "
    plain = common.run(["sh", "-c", limit + common.build("lim", body, plugin=False)])
    inst = common.run(["sh", "-c", limit + common.build("lim", body)], env=env)
    check(plain.stdout == "unchanged\n8192\n", "plain: %r" % plain.stdout)
    check(inst.returncode == plain.returncode and inst.stdout == "raised\n8192\n",
          "instrumented %r, plain %r" % (inst.stdout, plain.stdout))
    check(common.elements_of(common.valid_report(os.path.join(common.TMP, "rep"))) == 10, "elements")


common.main(globals())
