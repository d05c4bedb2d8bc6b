#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
A dry run of the LAVA test definition: its run steps, joined into one
shell script with its params exported (as LAVA's test shell does), run
against a stand-in install (the real invlab-suite, stand-in programs
that pass, fail and skip) with a lava-test-case that records its calls.
Checks the definition's shape and that every case, the gate and the
suite's exit status are reported with the right result (an UNDECIDED
case or suite as "unknown", never "pass").  TAP out; exit
77 without PyYAML.

  check-lava.py LAVA-YAML INVLAB-SUITE
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("1..0 # SKIP PyYAML (python3-yaml) is not installed")
    sys.exit(77)

n = 0
failed = 0


def check(desc, ok):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, desc))
    if not ok:
        failed += 1


def fake(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def dry_run(defn, suite, tmp, cases, params):
    prefix = os.path.join(tmp, "prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "share", "invlab"))
    shutil.copy(suite, os.path.join(prefix, "bin", "invlab-suite"))
    os.chmod(os.path.join(prefix, "bin", "invlab-suite"), 0o755)
    fake(os.path.join(prefix, "bin", "fake"),
         'code=$1\n[ "$code" = 77 ] && echo "fake: SKIP: no privilege" >&2\n'
         'while [ $# -gt 0 ]; do [ "$1" = --json ] && echo "{}" >"$2"; '
         'shift; done\nexit "$code"\n')
    fake(os.path.join(prefix, "bin", "invlab-gate"), "echo PASS\nexit 0\n")
    with open(os.path.join(prefix, "share", "invlab", "cases.list"), "w") as f:
        f.write("\n".join(cases) + "\n")
    log = os.path.join(tmp, "lava.log")
    if os.path.exists(log):
        os.remove(log)
    lbin = os.path.join(tmp, "lava-bin")
    os.makedirs(lbin, exist_ok=True)
    fake(os.path.join(lbin, "lava-test-case"),
         'echo "$*" >>"%s"\n' % log)
    env = dict(os.environ)
    env["PATH"] = lbin + ":" + env["PATH"]
    for k, v in defn.get("params", {}).items():
        env[k] = str(v)
    env["INVLAB_PREFIX"] = prefix
    env["INVLAB_RESULTS"] = os.path.join(tmp, "results")
    env.update(params)
    script = "\n".join(defn["run"]["steps"]) + "\n"
    p = subprocess.run(["sh", "-c", script], env=env, cwd=tmp,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60)
    calls = {}
    if os.path.exists(log):
        for line in open(log):
            f = line.split()
            calls[f[0]] = f[1:]
    return p, calls


def main():
    defn_path, suite = sys.argv[1], sys.argv[2]
    defn = yaml.safe_load(open(defn_path))
    md = defn.get("metadata", {}) if isinstance(defn, dict) else {}
    check("metadata: format, name, description",
          md.get("format") == "Lava-Test Test Definition 1.0"
          and bool(md.get("name")) and bool(md.get("description")))
    steps = defn.get("run", {}).get("steps", [])
    check("run.steps: a list of strings",
          isinstance(steps, list) and len(steps) > 0
          and all(isinstance(s, str) for s in steps))
    check("params: INVLAB_PREFIX, INVLAB_RESULTS, GATE, ONLY, MAX_UNDECIDED",
          all(k in defn.get("params", {})
              for k in ("INVLAB_PREFIX", "INVLAB_RESULTS", "GATE", "ONLY",
                        "MAX_UNDECIDED")))
    with tempfile.TemporaryDirectory() as tmp:
        p, calls = dry_run(defn, suite, tmp,
                           ["a fake 0 0", "s fake 0 77", "f fake 0 1"],
                           {"GATE": ""})
        check("a pass is reported pass", calls.get("a") == ["--result", "pass"])
        check("a skip is reported skip", calls.get("s") == ["--result", "skip"])
        check("a failure is reported fail",
              calls.get("f") == ["--result", "fail"])
        check("the suite's exit 1 is reported fail",
              calls.get("invlab-suite", [])[:4]
              == ["--result", "fail", "--measurement", "1"])
        check("the run time is reported", "invlab-suite-time" in calls)
        check("the JUnit and JSON reports are written",
              os.path.exists(os.path.join(tmp, "results", "suite.xml"))
              and os.path.exists(os.path.join(tmp, "results", "suite.json")))
        profile = os.path.join(tmp, "gate.ini")
        open(profile, "w").write("[x]\n")
        p, calls = dry_run(defn, suite, tmp, ["a fake 0 0"],
                           {"GATE": profile})
        check("the gate is a test case of its own",
              calls.get("gate") == ["--result", "pass"])
        check("all as expected: the suite is reported pass",
              calls.get("invlab-suite", [])[:2] == ["--result", "pass"])
        p, calls = dry_run(defn, suite, tmp, ["s fake 0 77"], {})
        check("all skipped: the suite is reported skip",
              calls.get("invlab-suite", [])[:2] == ["--result", "skip"])
        # as expected but UNDECIDED (exit 3): never a pass
        p, calls = dry_run(defn, suite, tmp, ["a fake 0 0", "u fake 0 3"],
                           {})
        check("an UNDECIDED case is reported unknown, not pass",
              calls.get("u") == ["--result", "unknown"])
        check("the share of UNDECIDED is a test case, within it a pass",
              calls.get("undecided-share") == ["--result", "pass"])
        check("the suite's exit 3 is reported unknown",
              calls.get("invlab-suite", [])[:4]
              == ["--result", "unknown", "--measurement", "3"])
        p, calls = dry_run(defn, suite, tmp, ["a fake 0 0", "u fake 0 3"],
                           {"MAX_UNDECIDED": "0"})
        check("MAX_UNDECIDED 0: the share fails, and the suite",
              calls.get("undecided-share") == ["--result", "fail"]
              and calls.get("invlab-suite", [])[:4]
              == ["--result", "fail", "--measurement", "1"])
        if failed or os.environ.get("LAVA_DEBUG"):
            sys.stdout.write("# " + p.stdout.decode(errors="replace")
                             .replace("\n", "\n# ") + "\n")
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
