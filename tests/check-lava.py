#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
A dry run of the LAVA test definition (lava/automated/linux/invlab): its run
step, with its params set as LAVA's test shell sets them (shell
variables, not exported), from a copy of the definition's directory,
against a stand-in install (the real invlab-suite, stand-in programs
that pass, fail, skip, end UNDECIDED or crash, two of them writing a
result file) with a lava-test-case and a lava-test-raise that record
their calls.  Checks the definition's shape (one step, no shell
constructs), each case's result, its figures as measurements, the share
of UNDECIDED, the gate, the suite, output/result.txt, that exit 99 and
2 are a lava-test-raise after the results were sent and never a fail,
and that outside LAVA the lines are printed.  TAP out; exit 77 without
PyYAML.

  check-lava.py DEFINITION-YAML INVLAB-SUITE
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:
    print("1..0 # SKIP PyYAML (python3-yaml) is not installed")
    sys.exit(77)

# where the definition sits in the repository a lab's job pulls: its
# step names invlab.sh by this path, from the repository's root
DEFN_DIR = os.path.join("lava", "automated", "linux", "invlab")
n = 0
failed = 0


def check(desc, ok, why=None):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, desc))
    if not ok:
        failed += 1
        if why is not None:
            print("#   " + str(why).replace("\n", "\n#   "))


def fake(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def hist(p99, p999, mx):
    return {"count": 1200, "min": 1000, "mean": 1500000.5, "p50": 1400000,
            "p90": 1500000, "p99": p99, "p999": p999, "p9999": None,
            "max": mx, "overflow": 0, "bins": [[1400000, 1200]]}


# a program's result file (pi-classic's shape: the run's own check is
# repeated in checks[]) and a job file's (invlab-run: the checks' tasks
# and their locks); p999 null is a percentile with too few samples
PROGRAM_RESULT = {
    "schema_version": 1, "program": "pi-classic",
    "runs": [{"configuration": "inherit", "repeat": 1, "verdict": "PASS",
              "expected": "PASS",
              "evidence": "worst wait 1.89ms <= 2.09ms {not a brace} [x",
              "bound_ns": 2092472, "worst_ns": 1894886,
              "blocked_ns": hist(1590000, None, 2030778),
              "checks": [{"task": "high", "bound_ns": 2092472,
                          "worst_ns": 1894886}]}],
    "return_code": 0}
JOB_RESULT = {
    "schema_version": 1, "program": "invlab-run",
    "runs": [{"configuration": "pi-classic", "repeat": 1,
              "tasks": [{"name": "low", "locks": [
                  {"resource": "M", "blocked_ns": hist(5000, None, 9000)}]},
                  {"name": "high", "locks": [
                      {"resource": "M",
                       "blocked_ns": hist(1683000, 1700000, 1711000)}]}],
              "checks": [{"validator": "pi", "task": "high",
                          "verdict": "PASS", "expected": "PASS",
                          "bound_ns": 2085431, "worst_ns": 1891416}]}]}


def run_of(conf, repeat, verdict, expected):
    return {"configuration": conf, "repeat": repeat, "verdict": verdict,
            "expected": expected}


# the runs of a program with several configurations, repeated: each
# verdict against the one expected (il_expect's rule), no figures
CONFIGS_RESULT = {
    "schema_version": 1, "program": "pi-chain",
    "runs": [run_of("inherit", 1, "PASS", "PASS"),
             run_of("none", 1, "FAIL", "FAIL"),
             run_of("inherit", 2, "UNDECIDED", "PASS"),
             run_of("none", 2, "UNDECIDED", "FAIL"),
             run_of("ceiling", 1, "FAIL", "PASS"),
             run_of("nopi", 1, "PASS", "FAIL"),
             run_of("cfs", 1, "SKIP", "PASS"),
             run_of("info", 1, "PASS", None),
             run_of("bogus", 1, "NONE", "PASS")]}


def install(tmp, suite, cases):
    prefix = os.path.join(tmp, "prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "share", "invlab"))
    shutil.copy(suite, os.path.join(prefix, "bin", "invlab-suite"))
    os.chmod(os.path.join(prefix, "bin", "invlab-suite"), 0o755)
    for name, doc in (("program.json", PROGRAM_RESULT),
                      ("job.json", JOB_RESULT),
                      ("configs.json", CONFIGS_RESULT),
                      ("interrupted.json",
                       dict(PROGRAM_RESULT, interrupted=True))):
        # compact, as the programs write by default, but for one file
        # as --json-pretty writes it: both are read
        with open(os.path.join(prefix, "share", "invlab", name), "w") as f:
            if name == "job.json":
                json.dump(doc, f, indent=2)
            else:
                json.dump(doc, f, separators=(",", ":"))
    # fake EXIT [RESULT-FILE]: writes that file (or {}) to --json, its
    # arguments to args.log
    fake(os.path.join(prefix, "bin", "fake"),
         'echo "$*" >>"%s"\n' % os.path.join(prefix, "args.log") +
         'code=$1 src=${2:-}\nshift\n'
         '[ "$code" = 77 ] && echo "fake: SKIP: needs CAP_SYS_NICE" >&2\n'
         '[ "$code" = 3 ] && echo "ok 1 - high # SKIP undecided: noise"\n'
         'while [ $# -gt 0 ]; do if [ "$1" = --json ]; then '
         'if [ -n "$src" ] && [ -f "$src" ]; then cat "$src" >"$2"; '
         'else echo "{}" >"$2"; fi; fi; shift; done\n'
         '[ "$code" = 139 ] && echo "fake: Segmentation fault" >&2\n'
         'exit "$code"\n')
    fake(os.path.join(prefix, "bin", "invlab-gate"), "echo PASS\nexit 0\n")
    share = os.path.join(prefix, "share", "invlab")
    with open(os.path.join(share, "cases.list"), "w") as f:
        f.write("\n".join(c.replace("@SHARE@", share) for c in cases) + "\n")
    return prefix


def path_without_invlab(tmp):
    """a PATH of links to every program on PATH but invlab's: the dry
    runs see only their stand-in prefix, not an invlab installed on this
    machine (the Debian package), which would run for real"""
    pdir = os.path.join(tmp, "path-bin")
    if not os.path.isdir(pdir):
        os.makedirs(pdir)
        for d in os.environ.get("PATH", "").split(":"):
            if not d or not os.path.isdir(d):
                continue
            for b in os.listdir(d):
                f = os.path.join(d, b)
                link = os.path.join(pdir, b)
                if (not b.startswith("invlab") and os.access(f, os.X_OK)
                        and not os.path.lexists(link)):
                    os.symlink(f, link)
    return pdir


def dry_run(defn, defn_dir, suite, tmp, cases, params, lava=True):
    """LAVA's run.sh: cd to the definition's repository, params as
    shell variables, the steps; returns (process, calls, result.txt)"""
    prefix = install(tmp, suite, cases)
    repo = os.path.join(tmp, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    shutil.copytree(defn_dir, os.path.join(repo, DEFN_DIR))
    log = os.path.join(tmp, "lava.log")
    if os.path.exists(log):
        os.remove(log)
    lbin = os.path.join(tmp, "lava-bin")
    os.makedirs(lbin, exist_ok=True)
    fake(os.path.join(lbin, "lava-test-case"), 'echo "case $*" >>"%s"\n' % log)
    fake(os.path.join(lbin, "lava-test-raise"),
         'echo "raise $*" >>"%s"\n' % log)
    env = dict(os.environ)
    env["PATH"] = path_without_invlab(tmp)
    if lava:
        env["PATH"] = lbin + ":" + env["PATH"]
    values = {k: str(v) for k, v in defn.get("params", {}).items()}
    values["INVLAB_PREFIX"] = prefix
    values.update(params)
    script = "".join("%s=%s\n" % (k, shlex.quote(v))
                     for k, v in values.items())
    script += "\n".join(defn["run"]["steps"]) + "\n"
    p = subprocess.run(["sh", "-c", script], env=env, cwd=repo,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60)
    calls = []
    if os.path.exists(log):
        calls = [line.rstrip("\n") for line in open(log)]
    rfile = os.path.join(repo, DEFN_DIR, "output", "result.txt")
    result = open(rfile).read().splitlines() if os.path.exists(rfile) else None
    return p, calls, result


def running(pidfile):
    """whether the process whose pid is in pidfile still runs (a zombie
    does not)"""
    try:
        pid = int(open(pidfile).read())
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, ValueError, IndexError):
        return False


def cases_of(calls):
    """test name -> its lava-test-case arguments"""
    out = {}
    for c in calls:
        f = c.split()
        if f[0] == "case":
            out[f[1]] = f[2:]
    return out


def main():
    defn_path, suite = sys.argv[1], sys.argv[2]
    defn_dir = os.path.dirname(os.path.abspath(defn_path))
    defn = yaml.safe_load(open(defn_path))
    md = defn.get("metadata", {}) if isinstance(defn, dict) else {}
    check("metadata: format, name, description",
          md.get("format") == "Lava-Test Test Definition 1.0"
          and bool(md.get("name")) and bool(md.get("description")))
    steps = defn.get("run", {}).get("steps", [])
    check("run.steps: one step, calling invlab.sh",
          isinstance(steps, list) and len(steps) == 1
          and isinstance(steps[0], str)
          and steps[0].startswith("./%s/invlab.sh " % DEFN_DIR))
    # LAVA's guide: a step is one command, no shell constructs
    check("the step has no shell constructs (; && || | > < $( `)",
          bool(steps) and not re.search(r";|&&|\|\||\||>|<|\$\(|`",
                                        re.sub(r'"\$\{[A-Z_]+\}"', "",
                                               str(steps[0]))))
    params = defn.get("params", {})
    check("params: INVLAB_PREFIX, CASES, DURATION, REPEAT, GATE,"
          " BACKGROUND_CMD, CASE_TIMEOUT, MAX_UNDECIDED, each passed to"
          " invlab.sh",
          all(k in params and "${%s}" % k in str(steps)
              for k in ("INVLAB_PREFIX", "CASES", "DURATION", "REPEAT",
                        "GATE", "BACKGROUND_CMD", "CASE_TIMEOUT",
                        "MAX_UNDECIDED")))
    with tempfile.TemporaryDirectory() as tmp:
        p, calls, result = dry_run(
            defn, defn_dir, suite, tmp,
            ["a fake 0 0 @SHARE@/program.json", "s fake 0 77",
             "f fake 0 1", "job-pi-classic fake 0 0 @SHARE@/job.json"], {})
        c = cases_of(calls)
        check("a pass is reported pass", c.get("a") == ["--result", "pass"])
        check("a skip is reported skip", c.get("s") == ["--result", "skip"])
        check("a failure is reported fail",
              c.get("f") == ["--result", "fail"])
        check("the skip's reason is in the log",
              b"s: skip: needs CAP_SYS_NICE" in p.stdout)
        check("a run whose configuration the case's name does not say:"
              " a line with its verdict",
              c.get("a-inherit") == ["--result", "pass"])
        check("a job file's check: a line with its verdict",
              c.get("job-pi-classic-high") == ["--result", "pass"])
        check("a case named after its run has no second verdict line",
              "job-pi-classic-pi-classic" not in c)
        check("a run's p99 is a measurement in ms",
              c.get("a-inherit-p99") == ["--result", "pass", "--measurement",
                                         "1.590", "--units", "ms"])
        check("its max, bound and worst wait too",
              c.get("a-inherit-max", [])[3:4] == ["2.031"]
              and c.get("a-inherit-bound", [])[3:4] == ["2.092"]
              and c.get("a-inherit-worst", [])[3:4] == ["1.895"])
        check("a percentile with too few samples (null) is left out",
              "a-inherit-p999" not in c)
        check("a program's check repeated in checks[] is not reported twice",
              "a-inherit-high-bound" not in c)
        # named CASE-TASK: the configuration is already the case's name
        j = "job-pi-classic-high"
        check("a job file's checked task: bound, worst, its lock's figures",
              c.get(j + "-bound", [])[3:4] == ["2.085"]
              and c.get(j + "-worst", [])[3:4] == ["1.891"]
              and c.get(j + "-M-p99", [])[3:4] == ["1.683"]
              and c.get(j + "-M-p999", [])[3:4] == ["1.700"]
              and c.get(j + "-M-max", [])[3:4] == ["1.711"])
        check("a task no check names has no figures",
              "job-pi-classic-low-M-p99" not in c)
        check("the suite's exit 1 is reported fail",
              c.get("invlab-suite") == ["--result", "fail"])
        check("the run time is a measurement in s",
              c.get("invlab-suite-time", [])[-1:] == ["s"])
        check("no lava-test-raise for verdicts",
              not any(x.startswith("raise") for x in calls))
        sent = []
        for r in result or []:
            f = r.split()
            sent.append(" ".join(["case", f[0], "--result", f[1]]
                                 + (["--measurement", f[2], "--units", f[3]]
                                    if len(f) == 4 else [])))
        check("result.txt holds exactly the lines sent, in order",
              result is not None and sent == calls)
        check("result.txt: NAME RESULT [MEASUREMENT UNITS]",
              result is not None and all(
                  re.fullmatch(r"[A-Za-z0-9._-]+ (pass|fail|skip|unknown)"
                               r"( [0-9.]+ [a-z]+)?", r) for r in result))
        out = os.path.join(tmp, "repo", DEFN_DIR, "output", "invlab")
        check("the TAP, JUnit and JSON reports are kept",
              all(os.path.exists(os.path.join(out, f))
                  for f in ("suite.tap", "suite.xml", "suite.json")))
        check("invlab.sh exits 0 when the results were reported",
              p.returncode == 0)
        # each configuration and repeat of a run, its verdict read as
        # il_expect reads it
        p, calls, result = dry_run(
            defn, defn_dir, suite, tmp,
            ["m fake 0 0 @SHARE@/configs.json", "s fake 0 77",
             "x fake 0 0"], {"CASES": "m,s"})
        c = cases_of(calls)
        want = {"m-inherit-r1": "pass", "m-none-r1": "pass",
                "m-inherit-r2": "unknown", "m-none-r2": "fail",
                "m-ceiling-r1": "fail", "m-nopi-r1": "fail",
                "m-cfs-r1": "skip", "m-bogus-r1": "fail"}
        for k, r in want.items():
            check("a run's verdict: %s is %s" % (k, r),
                  c.get(k) == ["--result", r], c.get(k))
        check("a run nothing was expected of has no verdict line",
              "m-info-r1" not in c and "m-info" not in c)
        check("repeated: the first run is named -r1 too",
              "m-inherit" not in c and "m-none" not in c)
        check("CASES with two patterns: the cases of both, no other",
              "m" in c and "s" in c and "x" not in c)
        p, calls, result = dry_run(
            defn, defn_dir, suite, tmp,
            ["i fake 0 143 @SHARE@/interrupted.json"], {})
        c = cases_of(calls)
        check("an interrupted run: its case unknown, none of its figures",
              c.get("i") == ["--result", "unknown"]
              and not any(k.startswith("i-") for k in c), sorted(c))
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["a fake 0 0", "t fake 0 0 -d 1s"],
                                   {"DURATION": "5s", "REPEAT": "3"})
        args = open(os.path.join(tmp, "prefix", "args.log")).read()
        check("DURATION and REPEAT reach each program",
              args.count("-d 5s") == 2 and args.count("--repeat 3") == 2
              and "-d 1s" not in args, args)
        # a background load: there while the suite runs, stopped after
        sh_pid = os.path.join(tmp, "bg-sh.pid")
        sleep_pid = os.path.join(tmp, "bg-sleep.pid")
        p, calls, result = dry_run(
            defn, defn_dir, suite, tmp, ["a fake 0 0"],
            {"BACKGROUND_CMD": "echo $$ >%s; sleep 60 & echo $! >%s; wait"
             % (sh_pid, sleep_pid)})
        c = cases_of(calls)
        time.sleep(0.2)
        check("BACKGROUND_CMD: a line that it ran throughout, pass",
              c.get("background-load") == ["--result", "pass"]
              and c.get("a") == ["--result", "pass"])
        check("BACKGROUND_CMD: stopped with what it started",
              os.path.exists(sh_pid) and os.path.exists(sleep_pid)
              and not running(sh_pid) and not running(sleep_pid))
        p, calls, result = dry_run(defn, defn_dir, suite, tmp, ["a fake 0 0"],
                                   {"BACKGROUND_CMD": "echo gone; exit 3"})
        c = cases_of(calls)
        check("BACKGROUND_CMD that ended early: a fail, its reason logged",
              c.get("background-load") == ["--result", "fail"]
              and b"background-load: the background load ended (exit 3)"
              b" before the suite did: gone" in p.stdout, p.stdout[-800:])
        profile = os.path.join(tmp, "gate.ini")
        open(profile, "w").write("[x]\n")
        p, calls, result = dry_run(defn, defn_dir, suite, tmp, ["a fake 0 0"],
                                   {"GATE": profile})
        c = cases_of(calls)
        check("the gate is a test case of its own",
              c.get("gate") == ["--result", "pass"])
        check("all as expected: the suite is reported pass",
              c.get("invlab-suite") == ["--result", "pass"])
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["s fake 0 77"], {})
        check("all skipped: the suite is reported skip",
              cases_of(calls).get("invlab-suite") == ["--result", "skip"])
        # as expected but UNDECIDED (exit 3): never a pass
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["a fake 0 0", "u fake 0 3"], {})
        c = cases_of(calls)
        check("an UNDECIDED case is reported unknown, not pass",
              c.get("u") == ["--result", "unknown"])
        check("the share of UNDECIDED is a measurement, within it a pass",
              c.get("undecided-share") == ["--result", "pass", "--measurement",
                                           "50", "--units", "percent"])
        check("the suite's exit 3 is reported unknown",
              c.get("invlab-suite") == ["--result", "unknown"])
        check("an UNDECIDED case is 'unknown' in result.txt too",
              result is not None and "u unknown" in result)
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["a fake 0 0", "u fake 0 3"],
                                   {"MAX_UNDECIDED": "0"})
        c = cases_of(calls)
        check("MAX_UNDECIDED 0: the share fails, and the suite",
              c.get("undecided-share", [])[:2] == ["--result", "fail"]
              and c.get("invlab-suite") == ["--result", "fail"])
        # exit 99: a case crashed; the machinery, not the kernel
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["a fake 0 0", "c fake 0 139"], {})
        c = cases_of(calls)
        raises = [x for x in calls if x.startswith("raise ")]
        check("exit 99: lava-test-raise, once, naming the case and why",
              len(raises) == 1 and "exit 99" in raises[0]
              and "c: exit 139" in raises[0])
        check("exit 99: the case that could not run is unknown, not fail",
              c.get("c") == ["--result", "unknown"])
        check("exit 99: the decided cases are sent, before the raise",
              c.get("a") == ["--result", "pass"]
              and calls[-1].startswith("raise "))
        check("exit 99: no fail for the suite",
              not any(v[:2] == ["--result", "fail"] for v in c.values()))
        check("exit 99: invlab.sh ends 99", p.returncode == 99)
        # exit 2: bad input, nothing ran
        p, calls, result = dry_run(defn, defn_dir, suite, tmp, ["a fake 0 0"],
                                   {"CASES": "nomatch"})
        raises = [x for x in calls if x.startswith("raise ")]
        check("exit 2: lava-test-raise with the suite's message",
              len(raises) == 1 and "exit 2" in raises[0]
              and "matches no case" in raises[0])
        check("exit 2: no test case is sent", cases_of(calls) == {})
        check("exit 2: invlab.sh ends 2", p.returncode == 2)
        p, calls, result = dry_run(defn, defn_dir, suite, tmp, ["a fake 0 0"],
                                   {"GATE": os.path.join(tmp, "missing.ini")})
        check("a missing gate profile (exit 2) is a raise, not a fail",
              len(calls) == 1 and calls[0].startswith("raise ")
              and "exit 2" in calls[0])
        # no invlab-suite installed at all
        p, calls, result = dry_run(defn, defn_dir, suite, tmp, ["a fake 0 0"],
                                   {"INVLAB_PREFIX": os.path.join(tmp, "no")})
        check("no invlab-suite: a raise saying so",
              len(calls) == 1 and "not installed" in calls[0]
              and calls[0].startswith("raise "))
        # outside LAVA: the lines printed, result.txt written
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["a fake 0 0 @SHARE@/program.json"], {},
                                   lava=False)
        lines = p.stdout.decode(errors="replace").splitlines()
        check("outside LAVA: nothing recorded, the lines printed",
              calls == [] and "a pass" in lines
              and "a-inherit-p99 pass 1.590 ms" in lines
              and "invlab-suite pass" in lines)
        check("outside LAVA: result.txt written",
              result is not None and "a-inherit-p99 pass 1.590 ms" in result)
        p, calls, result = dry_run(defn, defn_dir, suite, tmp,
                                   ["c fake 0 139"], {}, lava=False)
        check("outside LAVA: exit 99 printed as a raise, invlab.sh ends 99",
              b'lava-test-raise "invlab-suite could not judge' in p.stdout
              and p.returncode == 99)
        if failed or os.environ.get("LAVA_DEBUG"):
            sys.stdout.write("# " + p.stdout.decode(errors="replace")
                             .replace("\n", "\n# ") + "\n")
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
