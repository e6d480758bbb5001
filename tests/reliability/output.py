#!/usr/bin/env python3
"""Reliability of the report directory (issue items 1, 2, 7, 8, 9, 17): no
file of anyone else is ever written or followed, no report overwrites
another, every report is complete or absent, setuid programs ignore
ZEROINST_*, and processes that recorded nothing leave nothing behind.

Programs load load_ones(N): N int64 ones, N elements of 7 redundant bytes.
"""
import json
import os
import shutil
import signal
import socket
import subprocess

import common
from common import check, Skip

SIMPLE = r"""
int main (int argc, char **argv)
{
  init ();
  printf ("%lld\n", (long long) load_ones (argc > 1 ? atoi (argv[1]) : 100));
  return argc > 2 ? atoi (argv[2]) : 0;
}
"""


def listing(d):
    return sorted(os.listdir(d))


def case_planted_symlinks():
    """Another user's directory and links at the report's name: a
    directory named like the report holding report.json -> victim, a
    symlink to a directory, and the default name zeroinst-<prog>-<pid>
    planted for the next 300 pids.  Each run's report goes to NAME.1 (a
    directory it creates), the victim file and the linked directory are
    unchanged, the planted directories hold only what was planted."""
    exe = common.build("simple", SIMPLE)
    victim = os.path.join(common.TMP, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    linked = os.path.join(common.TMP, "linked")
    os.mkdir(linked)
    planted = os.path.join(common.TMP, "planted")
    os.mkdir(planted)
    os.symlink(victim, os.path.join(planted, "report.json"))
    os.symlink(victim, os.path.join(planted, "summary.txt"))
    os.symlink(linked, os.path.join(common.TMP, "dirlink"))
    for name in ("planted", "dirlink"):
        r = common.run([exe, "100"], env={"ZEROINST_OUTPUT": os.path.join(common.TMP, name)})
        check(r.returncode == 0 and r.stderr == "", "%s: status %d stderr %r"
              % (name, r.returncode, r.stderr))
        rep = common.valid_report(os.path.join(common.TMP, name + ".1"))
        check(common.elements_of(rep) == 100, "%s: elements" % name)
        check(not os.path.islink(os.path.join(common.TMP, name + ".1")), "followed a link")
    check(open(victim).read() == "precious\n", "victim file changed")
    check(listing(linked) == [], "wrote into a linked directory: %s" % listing(linked))
    check(listing(planted) == ["report.json", "summary.txt"], "planted dir: %s" % listing(planted))
    # The default name: plant it for the pids the next runs will get.
    for attempt in range(5):
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
        pids = range(last + 1, last + 300)
        for pid in pids:
            d = os.path.join(common.TMP, "zeroinst-simple.inst-%d" % pid)
            os.mkdir(d)
            os.symlink(victim, os.path.join(d, "report.json"))
        p = subprocess.Popen([exe, "100"], cwd=common.TMP, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=common.env_without_zeroinst())
        out, err = p.communicate(timeout=60)
        check(p.returncode == 0 and err == "", "status %d stderr %r" % (p.returncode, err))
        for pid in pids:
            if pid != p.pid:
                shutil.rmtree(os.path.join(common.TMP, "zeroinst-simple.inst-%d" % pid))
        if p.pid in pids:
            base = os.path.join(common.TMP, "zeroinst-simple.inst-%d" % p.pid)
            check(listing(base) == ["report.json"] and os.path.islink(base + "/report.json"),
                  "planted default directory changed: %s" % listing(base))
            check(common.elements_of(common.valid_report(base + ".1")) == 100, "elements")
            check(open(victim).read() == "precious\n", "victim file changed")
            return
    raise common.Failure("the program's pid never fell in the planted range")


def case_setuid_ignores_environment():
    """A setgid program (AT_SECURE) ignores ZEROINST_OUTPUT and
    ZEROINST_MODE=data: the report is in the default directory, code mode,
    100 elements; nothing is created at the requested path; stderr says
    the variables were ignored."""
    if os.geteuid() != 0:
        raise Skip("needs root to make a setgid program")
    exe = common.build("simple", SIMPLE)
    probe = common.build("probe", r"""
#include <sys/auxv.h>
int main (void) { printf ("%lu\n", getauxval (AT_SECURE)); return 0; }""", plugin=False)
    for f in (exe, probe):
        os.chown(f, 0, 65534)
        os.chmod(f, 0o2755)
    if common.run([probe]).stdout != "1\n":
        raise Skip("setgid bit has no effect here (nosuid file system?)")
    wanted = os.path.join(common.TMP, "steered", "here")
    r = common.run([exe, "100"], env={"ZEROINST_OUTPUT": wanted, "ZEROINST_MODE": "data"})
    check(r.returncode == 0 and r.stdout == "100\n", "status %d out %r" % (r.returncode, r.stdout))
    check(r.stderr == "zeroinst: setuid/setgid program: ZEROINST_* variables are ignored\n",
          "stderr %r" % r.stderr)
    check(not os.path.exists(os.path.join(common.TMP, "steered")), "ZEROINST_OUTPUT was used")
    dirs = [d for d in listing(common.TMP) if d.startswith("zeroinst-simple.inst-")]
    check(len(dirs) == 1, "default directories: %s" % dirs)
    rep = common.valid_report(os.path.join(common.TMP, dirs[0]))
    check(rep["modes"] == ["code"] and common.elements_of(rep) == 100, "modes %s" % rep["modes"])


EXEC_SELF = r"""
int main (int argc, char **argv)
{
  init ();
  if (argc == 1)
    {
      printf ("%lld\n", (long long) load_ones (1000));
      fflush (stdout);
      execl ("/proc/self/exe", argv[0], "again", (char *) 0);
      return 1;
    }
  printf ("%lld\n", (long long) load_ones (500));
  return 0;
}
"""


def case_exec_self_keeps_both():
    """A program that execs itself keeps its pid: the image before the exec
    (1000 elements) and the one after (500) each have a report, NAME and
    NAME.1, with the default name and with ZEROINST_OUTPUT."""
    exe = common.build("execself", EXEC_SELF)
    for env in ({}, {"ZEROINST_OUTPUT": os.path.join(common.TMP, "fixed")}):
        p = subprocess.Popen([exe], cwd=common.TMP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=common.env_without_zeroinst(env))
        out, err = p.communicate(timeout=60)
        check(p.returncode == 0 and out == "1000\n500\n" and err == "",
              "status %d out %r err %r" % (p.returncode, out, err))
        base = env.get("ZEROINST_OUTPUT") or os.path.join(common.TMP,
                                                          "zeroinst-execself.inst-%d" % p.pid)
        first = common.valid_report(base)
        second = common.valid_report(base + ".1")
        check(common.elements_of(first) == 1000 and common.elements_of(second) == 500,
              "elements %d and %d" % (common.elements_of(first), common.elements_of(second)))
        check(first["pid"] == second["pid"] == p.pid, "pids")


def case_concurrent_same_output():
    """Eight processes started together with one ZEROINST_OUTPUT=shared
    (mpirun -x, make -j): eight directories shared, shared.1 ..
    shared.7, eight distinct pids, each report complete with its own 100+k
    elements (k = 0..7, the argument of each run)."""
    exe = common.build("simple", SIMPLE)
    out = os.path.join(common.TMP, "shared")
    procs = [subprocess.Popen([exe, str(100 + k)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=common.TMP,
                              env=common.env_without_zeroinst({"ZEROINST_OUTPUT": out}))
             for k in range(8)]
    for p in procs:
        _, err = p.communicate(timeout=60)
        check(p.returncode == 0 and err == "", "status %d stderr %r" % (p.returncode, err))
    dirs = ["shared"] + ["shared.%d" % k for k in range(1, 8)]
    check(listing(common.TMP) == sorted(dirs + ["simple.c", "simple.inst"]),
          "directories: %s" % listing(common.TMP))
    seen = {}
    for d in dirs:
        rep = common.valid_report(os.path.join(common.TMP, d))
        seen[rep["pid"]] = common.elements_of(rep)
    check(seen == {p.pid: 100 + k for k, p in enumerate(procs)}, "reports: %s" % seen)


def case_output_patterns():
    """%p pid, %h host name, %r MPI rank (OMPI_COMM_WORLD_RANK, PMI_RANK,
    SLURM_PROCID; "norank" without), %% a %.  An unknown pattern or an
    over-long name is refused at start with a message, and the default
    directory is used."""
    exe = common.build("simple", SIMPLE)
    host = socket.gethostname()
    for env, name in (({"OMPI_COMM_WORLD_RANK": "3"}, "r-%s-3-100%%" % host),
                      ({"PMI_RANK": "12"}, "r-%s-12-100%%" % host),
                      ({"SLURM_PROCID": "5"}, "r-%s-5-100%%" % host),
                      ({}, "r-%s-norank-100%%" % host)):
        env = dict(env, ZEROINST_OUTPUT=os.path.join(common.TMP, "r-%h-%r-100%%"))
        r = common.run([exe], env=env)
        check(r.returncode == 0 and r.stderr == "", "status %d stderr %r" % (r.returncode, r.stderr))
        common.valid_report(os.path.join(common.TMP, name.replace("%%", "%")))
        shutil.rmtree(os.path.join(common.TMP, name.replace("%%", "%")))
    p = subprocess.Popen([exe], cwd=common.TMP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True,
                         env=common.env_without_zeroinst({"ZEROINST_OUTPUT": "rep-%p"}))
    p.communicate(timeout=60)
    common.valid_report(os.path.join(common.TMP, "rep-%d" % p.pid))
    for value, why in (("bad-%q", "unknown % pattern"),
                       ("x" * 300, "its last component is too long for a file name"),
                       ("/".join(["d" * 200] * 25), "too long")):
        p = subprocess.Popen([exe], cwd=common.TMP, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=common.env_without_zeroinst({"ZEROINST_OUTPUT": value}))
        _, err = p.communicate(timeout=60)
        check(p.returncode == 0, "status")
        check(err.startswith("zeroinst: ignoring ZEROINST_OUTPUT='") and why in err
              and err.endswith("; using the default directory\n") and err.count("\n") == 1,
              "stderr %r" % err)
        common.valid_report(os.path.join(common.TMP, "zeroinst-simple.inst-%d" % p.pid))
    # The default name and report.json carry the rank a launcher gives
    # (as a number: "007" is 7); without one, neither does.
    for env, rank in (({"OMPI_COMM_WORLD_RANK": "007"}, "007"), ({"PMIX_RANK": "2"}, "2"),
                      ({}, None)):
        p = subprocess.Popen([exe], cwd=common.TMP, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env=common.env_without_zeroinst(env))
        _, err = p.communicate(timeout=60)
        check(p.returncode == 0 and err == "", "status %d stderr %r" % (p.returncode, err))
        name = "zeroinst-simple.inst-%s%d" % ("r%s-" % rank if rank else "", p.pid)
        rep = common.valid_report(os.path.join(common.TMP, name))
        check(rep.get("rank") == (int(rank) if rank else None), "%s: rank %r" % (name, rep.get("rank")))


def case_long_program_name():
    """A 250-character program name: the default directory's name is cut to
    fit a file name (zeroinst-<first 236 characters>-<pid>), the report is
    complete."""
    exe = common.build("simple", SIMPLE)
    long_exe = os.path.join(common.TMP, "p" * 250)
    shutil.copy(exe, long_exe)
    p = subprocess.Popen([long_exe], cwd=common.TMP, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=common.env_without_zeroinst())
    _, err = p.communicate(timeout=60)
    check(p.returncode == 0 and err == "", "status %d stderr %r" % (p.returncode, err))
    suffix = "-%d" % p.pid
    name = "zeroinst-" + "p" * (255 - 4 - len("zeroinst-") - len(suffix)) + suffix
    check(common.elements_of(common.valid_report(os.path.join(common.TMP, name))) == 100, "elements")


def in_small_filesystem(script, size):
    """Run SCRIPT (sh) in a private mount namespace with a SIZE tmpfs on
    TMP/small."""
    small = os.path.join(common.TMP, "small")
    os.mkdir(small)
    r = subprocess.run(["unshare", "-m", "sh", "-c",
                        "mount -t tmpfs -o size=%s tmpfs %s && cd %s && %s"
                        % (size, small, small, script)],
                       capture_output=True, text=True, timeout=120,
                       env=common.env_without_zeroinst())
    return r


MANY_SITES = "".join("__attribute__ ((noinline)) long f%d (long *p) { return p[%d]; }\n" % (i, i)
                     for i in range(400)) + r"""
long data[400];
int main (void)
{
  long s = 0;
""" + "".join("  s += f%d (data);\n" % i for i in range(400)) + r"""
  printf ("%ld\n", s);
  return 5;
}
"""


def case_disk_full_and_file_size_limit():
    """A report that does not fit (a 48 KiB file system filled but for 8
    KiB; then RLIMIT_FSIZE of 8 KiB) for a program with 400 load sites
    (report.json about 200 KB): exit status (5) and output unchanged, one
    "report not written" line on stderr, and no report.json, summary.txt or
    temporary file left, nor an empty directory."""
    if os.geteuid() != 0:
        raise Skip("needs root for a private tmpfs mount")
    exe = common.build("sites", MANY_SITES, prelude=False, flags=["-include", "stdio.h"])
    r = in_small_filesystem("dd if=/dev/zero of=fill bs=1k count=40 2>/dev/null; "
                            "ZEROINST_OUTPUT=$PWD/rep %s; echo status $?; ls -A" % exe, "48k")
    if "mount" in r.stderr and "status" not in r.stdout:
        raise Skip("cannot mount a tmpfs here: %s" % r.stderr.strip())
    check(r.stdout == "0\nstatus 5\nfill\n", "stdout %r" % r.stdout)
    check(r.stderr.startswith("zeroinst: report not written: cannot write ")
          and "No space left on device" in r.stderr and r.stderr.count("\n") == 1,
          "stderr %r" % r.stderr)
    r = subprocess.run(["sh", "-c", "ulimit -f 16; %s; echo status $?; ls -A" % exe],
                       cwd=common.TMP, capture_output=True, text=True, timeout=60,
                       env=common.env_without_zeroinst({"ZEROINST_OUTPUT": "rep"}))
    check(r.stdout.startswith("0\nstatus 5\n") and "rep" not in r.stdout.split("\n")[2:],
          "stdout %r" % r.stdout)
    check(r.stderr.startswith("zeroinst: report not written: cannot write ")
          and "File too large" in r.stderr and r.stderr.count("\n") == 1, "stderr %r" % r.stderr)


def case_nothing_recorded_no_directory():
    """configure's test programs: a program with no instrumented load, run
    the way configure runs conftest (and one that forks a child that loads
    nothing), leaves no directory; with ZEROINST_EMPTY_REPORT=1 it writes
    its empty report (0 elements)."""
    exe = common.build("conftest", r"""
int main (void) { pid_t p = fork (); if (p == 0) _exit (0); waitpid (p, 0, 0); return 0; }""",
                       prelude=False, flags=["-include", "sys/wait.h", "-include", "unistd.h"])
    before = listing(common.TMP)
    r = common.run([exe])
    check(r.returncode == 0 and r.stderr == "", "status %d stderr %r" % (r.returncode, r.stderr))
    check(listing(common.TMP) == before, "left behind: %s" % (set(listing(common.TMP)) - set(before)))
    r = common.run([exe], env={"ZEROINST_EMPTY_REPORT": "1", "ZEROINST_OUTPUT": "rep"})
    rep = common.valid_report(os.path.join(common.TMP, "rep"))
    check(rep["summary"]["int"]["elements"] == 0, "not empty")
    check(listing(common.TMP) == sorted(before + ["rep"]), "left %s" % listing(common.TMP))


if __name__ == "__main__":
    common.main(globals())
