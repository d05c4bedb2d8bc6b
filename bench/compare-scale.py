#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# invlab-compare at the scale of a lab's results: N result files a side,
# timed as
#
#   invlab-compare --quiet A/ -- B/
#
# (a directory stands for its *.json files) for each N, with its CPU
# time (user + system), wall time and maximum RSS, the median of -k
# runs.  The cost should grow with the runs and no faster, and memory
# should stay flat but for the per-run values.
#
#   bench/compare-scale.py build/tools/invlab-compare [-n 10,100,1000,10000]
#   bench/compare-scale.py build/tools/invlab-compare --real build \
#       [--program pi-classic,...] [--keep DIR | --pool DIR]
#
# By default the files are synthetic: 5 runs of pi-classic's five
# histograms, the sample counts and spreads of bench/bench_stats.c's
# model, 33 KB each, and nothing else.  With --real BUILD they are real:
# made by running each program of BUILD briefly (as root: the programs
# need real-time classes; "pi-classic -p inherit -r 5 -d 1s" and the
# like, REAL below), -p a side, each program's files compared on their
# own.  --keep DIR keeps the files made (DIR/PROGRAM/{a,b}/*.json),
# --pool DIR reads them from there instead of running anything, so that
# two builds of invlab-compare can be timed on the same files, or files
# written by one build read by another.
#
# Files are drawn from a pool of distinct ones (-p, 20 a side by default
# for synthetic files, 2 for real ones) and linked to: what compare does
# with a file does not depend on whether another file holds the same
# numbers, and writing 10,000 files of fresh samples would take longer
# than the comparison measured.  --args passes every file on the
# command line instead of the directories (A/*.json -- B/*.json), when
# the paths fit in ARG_MAX.  A figure, not a test: it never fails on a
# figure, only on a compare that does not run (exit status other than 0
# or 1: its message is shown, the larger sizes of that program are not
# tried, the other programs are) or a program that made no result file.
import argparse
import glob
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SUB = 128  # sub-buckets of a group (lib/util/hist.c)

# name, samples a run, median ns, log spread within a run, between runs
MODEL = [
    ("blocked_ns", 219, 1536346, 0.0263, 0.0091),
    ("wakeup_ns", 219, 34272, 0.3017, 0.1168),
    ("release_to_lock_ns", 218, 1576138, 0.0247, 0.0104),
    ("holder_cs_cpu_ns", 219, 2005563, 0.0040, 0.0016),
    ("calibration_wakeup_ns", 1000, 27379, 0.3658, 0.2893),
]


def bucket_lo(v):
    """The lower edge of the histogram bucket that holds v ns."""
    if v < 2 * SUB:
        return v
    g = v.bit_length() - 7  # v in [2^(g+6), 2^(g+7))
    s = (v >> (g - 1)) - SUB
    return (SUB + s) << (g - 1)


def hist(rng, n, median, sw):
    vals = [max(1, int(round(median * math.exp(rng.gauss(0, sw)))))
            for _ in range(n)]
    bins = {}
    for v in vals:
        lo = bucket_lo(v)
        bins[lo] = bins.get(lo, 0) + 1
    return {
        "count": n,
        "min": min(vals),
        "mean": sum(vals) / n,
        "max": max(vals),
        "overflow": 0,
        "bins": [[lo, bins[lo]] for lo in sorted(bins)],
    }


def result(rng, runs):
    kernel = {"release": "6.18.44", "version": "#1 SMP PREEMPT_DYNAMIC",
              "cmdline": "quiet", "preempt_current": "full",
              "config_proxy_exec": True, "proxy_exec_active": True,
              "hz": 250, "rt_runtime_us": 950000, "cpus_online": 2,
              "cpu_model": "AMD EPYC", "virt": "kvm", "hypervisor": "kvm",
              "hostname": "bench"}
    doc = {"schema_version": 1, "program": "pi-classic",
           "version": "bench", "command_line": ["pi-classic", "-r", "5"],
           "kernel": kernel, "scenario": {"cpu": 1, "cs_ns": 2000000},
           "interrupted": False, "runs": [], "return_code": 0}
    for r in range(runs):
        run = {"configuration": "inherit", "repeat": r + 1,
               "verdict": "PASS", "expected": "PASS"}
        for name, n, med, sw, sb in MODEL:
            run[name] = hist(rng, n, med * math.exp(rng.gauss(0, sb)), sw)
        doc["runs"].append(run)
    return json.dumps(doc)


# each program's brief run, as a lab's: 5 repeats of one configuration
REAL = {
    "pi-classic": ["-p", "inherit", "-r", "5", "-d", "1s"],
    "pi-chain": ["-p", "inherit", "-r", "5", "-d", "1s"],
    "kmutex": ["-C", "contention", "-r", "5", "-d", "1s"],
    "dl-mbwi": ["basic", "-r", "5", "-d", "1s"],
    "sched-messaging": ["-g", "2", "-l", "50", "-r", "5"],
}


def real_pool(build, prog, d, n):
    """
    n result files of prog in each of d/a and d/b, made by running it;
    the two lists of paths.
    """
    exe = os.path.join(build, "demos", prog)
    sides = []
    for side in ("a", "b"):
        sd = os.path.join(d, side)
        os.makedirs(sd, exist_ok=True)
        paths = []
        for i in range(n):
            path = os.path.join(sd, "%s-%02d.json" % (prog, i))
            cmd = [exe] + REAL[prog] + ["--json", path]
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            if not os.path.exists(path):
                sys.stderr.write("%s: exit %d, no result file:\n%s" %
                                 (" ".join(cmd), r.returncode,
                                  r.stderr.decode(errors="replace")))
                return None
            paths.append(path)
        sides.append(paths)
    return sides


def kept_pool(d):
    """The files of d/a and d/b (--pool), or None."""
    sides = [sorted(glob.glob(os.path.join(d, s, "*.json")))
             for s in ("a", "b")]
    return sides if sides[0] and sides[1] else None


def make_pool(d, pool):
    os.makedirs(d)
    paths = []
    for i, text in enumerate(pool):
        paths.append(os.path.join(d, "p%02d.json" % i))
        with open(paths[-1], "w") as f:
            f.write(text)
    return paths


def make_side(d, n, pool):
    """n names in d, each a link to a file of the pool, in turn."""
    os.makedirs(d)
    for i in range(n):
        os.symlink(pool[i % len(pool)], os.path.join(d, "r%05d.json" % i))
    return sorted(os.path.join(d, x) for x in os.listdir(d))


TIME = "/usr/bin/time"  # GNU time, where there is one


def timed(cmd, tmp):
    """
    Exit status, wall s, CPU s and max RSS MB of cmd.  The maximum RSS
    of a child of this interpreter starts at the interpreter's own (the
    kernel carries it over the exec), some 16 MB, so GNU time, a small
    program, runs it when present.
    """
    out = os.path.join(tmp, "time.txt")
    wrap = [TIME, "-f", "%U %S %M", "-o", out] if os.access(TIME, os.X_OK) \
        else []
    t0 = time.monotonic()
    p = subprocess.Popen(wrap + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.stderr.close()
    rc = os.waitstatus_to_exitcode(status)
    cpu, rss = ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024
    if wrap:
        with open(out) as f:
            u, s, m = f.read().split()[-3:]
        cpu, rss = float(u) + float(s), int(m) / 1024
    return rc, wall, cpu, rss, err


def arg_bytes(args):
    """What args take of ARG_MAX: the strings and their pointers."""
    return sum(len(a) + 1 + 8 for a in args)


def measure(a, pools, tmp, label):
    """Each size of a.n compared on the pools; False when one cannot run."""
    arg_max = os.sysconf("SC_ARG_MAX")
    for n in [int(x) for x in a.n.split(",")]:
        da = os.path.join(tmp, "A%d" % n)
        db = os.path.join(tmp, "B%d" % n)
        base = make_side(da, n, pools[0])
        cand = make_side(db, n, pools[1])
        files = base + ["--"] + cand
        argv = [a.compare, "--quiet"] + (files if a.args
                                         else [da, "--", db])
        need = arg_bytes([a.compare, "--quiet"] + files)
        if a.args and need > arg_max:
            print("%-16s %12d  %11s  over ARG_MAX (%d KB of arguments)"
                  % (label, n, "", need // 1024), flush=True)
            shutil.rmtree(da)
            shutil.rmtree(db)
            continue
        got = []
        for _ in range(a.k):
            rc, wall, cpu, rss, err = timed(argv, tmp)
            if rc not in (0, 1):
                # a limit it refuses (input size, histograms a side):
                # said, and the larger sizes are not tried
                print("%-16s %12d  %11s  exit %d: %s"
                      % (label, n, "", rc,
                         err.strip().splitlines()[-1][-160:]
                         if err.strip() else ""), flush=True)
                shutil.rmtree(da)
                shutil.rmtree(db)
                return False
            got.append((cpu, wall, rss))
        cpu = sorted(g[0] for g in got)[len(got) // 2]
        wall = sorted(g[1] for g in got)[len(got) // 2]
        rss = sorted(g[2] for g in got)[len(got) // 2]
        runs = sum(runs_of(p) for p in pools[0])
        print("%-16s %12d  %11d  %5.2f  %6.2f  %10.1f  %4d  %7d"
              % (label, n, n * runs // len(pools[0]), cpu, wall, rss, rc,
                 need // 1024), flush=True)
        shutil.rmtree(da)
        shutil.rmtree(db)
    return True


def runs_of(path):
    """How many runs a result file holds."""
    with open(path) as f:
        return len(json.load(f).get("runs", []))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compare")
    ap.add_argument("-n", default="10,100,1000,10000",
                    help="files a side, comma-separated")
    ap.add_argument("-r", type=int, default=5,
                    help="runs a file (synthetic files)")
    ap.add_argument("-p", type=int, default=None,
                    help="distinct files a side to draw from (20 "
                    "synthetic, 2 real)")
    ap.add_argument("-k", type=int, default=3,
                    help="comparisons of each size; the median is shown")
    ap.add_argument("-s", type=int, default=1, help="seed")
    ap.add_argument("--args", action="store_true",
                    help="every file on the command line, not the "
                    "directories")
    ap.add_argument("--real", metavar="BUILD",
                    help="real result files, made by running the "
                    "programs of this build directory (root)")
    ap.add_argument("--program", default=",".join(REAL),
                    help="with --real or --pool: the programs, "
                    "comma-separated (default: all five)")
    ap.add_argument("--keep", metavar="DIR",
                    help="with --real: keep the files made in DIR")
    ap.add_argument("--pool", metavar="DIR",
                    help="the real files kept by --keep in DIR, instead "
                    "of running the programs")
    a = ap.parse_args()
    progs = [p for p in a.program.split(",") if p]
    for p in progs:
        if p not in REAL:
            ap.error("--program: unknown program '%s' (known: %s)"
                     % (p, ", ".join(REAL)))
    rng = random.Random(a.s)
    tmp = tempfile.mkdtemp(prefix="invlab-bench-compare-")
    print("load %.1f %.1f %.1f, %d CPUs, ARG_MAX %d" %
          (os.getloadavg() + (os.cpu_count(), os.sysconf("SC_ARG_MAX"))))
    try:
        sets = []
        if a.real or a.pool:
            for prog in progs:
                if a.pool:
                    pools = kept_pool(os.path.join(a.pool, prog))
                    if not pools:
                        sys.stderr.write("%s: no files in %s/{a,b}\n"
                                         % (prog, os.path.join(a.pool,
                                                               prog)))
                        return 1
                else:
                    d = os.path.join(a.keep or tmp, prog)
                    pools = real_pool(a.real, prog, d, a.p or 2)
                    if not pools:
                        return 1
                size = sum(os.path.getsize(p) for p in pools[0]) // \
                    len(pools[0])
                print("%s: %d files a side, %d KB each, %s"
                      % (prog, len(pools[0]), size // 1024,
                         " ".join(REAL[prog])))
                sets.append((prog, pools))
        else:
            sets.append(("synthetic",
                         [make_pool(os.path.join(tmp, "pool%d" % k),
                                    [result(rng, a.r)
                                     for _ in range(a.p or 20)])
                          for k in range(2)]))
        print("%-16s %12s  %11s  %5s  %6s  %10s  %4s  %7s"
              % ("files", "files a side", "runs a side", "cpu s", "wall s",
                 "max RSS MB", "exit", "argv KB"))
        ok = True
        for label, pools in sets:
            ok = measure(a, pools, tmp, label) and ok
        if not ok:
            return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
