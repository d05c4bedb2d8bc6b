#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The LAVA test definition (lava/automated/linux/invlab) run by a real
dispatcher: Debian's lava-run (lava-dispatcher) deploys a kernel and a
ramdisk to a QEMU device under TCG, boots it to a busybox shell, pulls
the definition from a git repository (a temporary one holding this
tree's definition, by file://) and runs it.  The ramdisk holds busybox
and this build's `meson install` (invlab-suite, the programs, the
cases), with the libraries the programs link copied beside them.  Two
jobs:

  measured  pi-chain-2-inherit for 8 s, twice, and pi-classic-nopriv,
            which the ramdisk must skip, beside a background command:
            the job completes; every case
            is in LAVA's results as the suite's TAP says, each run of
            pi-chain with its verdict as its own TAP says and its
            figures (max, bound, worst, and p99 when it had 100 waits:
            in ms), the skip as a skip, the suite with its exit.  The
            verdicts are the guest kernel's under TCG: not checked.
            A job that did not complete is run again once (a run
            stalled in the guest; the log's end is shown).
  broken    the skip, and pi-chain-2-inherit for 60 s killed at the
            suite's 5 s --timeout (it could not run: the suite ends 99):
            the job ends on lava-test-raise, LAVA's TestError with
            invlab-suite's message, after the decided results; no
            result of the definition is a fail.

LAVA's results are read from the job's log (lava-run logs them as
"results" records; result.yaml in the output directory holds the job's
own).  TAP out.  Exit 77 with the reason when lava-run, QEMU, busybox,
git, cpio or a kernel is missing or this is not root on x86-64 (lava-run
refuses to run as another user); 99 when the ramdisk cannot be made.

  lava-run.py MESON BUILD_ROOT SOURCE_ROOT

The kernel: $INVLAB_LAVA_KERNEL (a vmlinuz/bzImage or a linux-image
.deb), else $INVLAB_V2_KERNEL (CI's Debian 6.1 .deb), else
/boot/vmlinuz-$(uname -r), else SOURCE_ROOT/ci-kernels/*.deb.  KEEP=1
keeps the scratch directory (ramdisk, device, jobs, logs).
"""
import contextlib
import glob
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:
    print("1..0 # SKIP PyYAML (python3-yaml) is not installed")
    sys.exit(77)

# where the definition sits in the repository a job pulls
DEFN_DIR = os.path.join("lava", "automated", "linux", "invlab")
# the shell prompt of the ramdisk's console, which the boot waits for
PROMPT = "invlab-ramdisk# "
# each job's lava-run, and the whole test, are stopped past these (s)
JOB_LIMIT = 330
TEST_LIMIT = 600
# where lava-run keeps a job's files (DISPATCHER_DOWNLOAD_DIR)
LAVA_TMP = "/var/lib/lava/dispatcher/tmp"

n = 0
failed = 0


def check(desc, ok, why=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, desc))
    if not ok:
        failed += 1
        # on stderr too: meson shows a failed TAP test's stderr only
        sys.stderr.write("not ok %d - %s\n" % (n, desc))
        for line in str(why).splitlines()[:40]:
            print("#   " + line)
            sys.stderr.write("#   " + line + "\n")
    return ok


def skip_all(reason):
    print("1..0 # SKIP " + reason)
    sys.exit(77)


def broken(reason):
    print("Bail out! " + reason)
    sys.exit(99)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


def find_kernel(source, tmp):
    """a bootable x86-64 kernel image, or None"""
    cands = [os.environ.get("INVLAB_LAVA_KERNEL"),
             os.environ.get("INVLAB_V2_KERNEL"),
             "/boot/vmlinuz-" + os.uname().release]
    cands += sorted(d for d in glob.glob(os.path.join(
        source, "ci-kernels", "linux-image-*-amd64-unsigned_*.deb"))
        if "-rt-" not in d)
    for c in cands:
        if not c or not os.path.isfile(c):
            continue
        if not c.endswith(".deb"):
            return c
        x = os.path.join(tmp, "kernel-deb")
        if run(["dpkg-deb", "-x", c, x]).returncode != 0:
            continue
        images = glob.glob(os.path.join(x, "boot", "vmlinuz-*"))
        if images:
            return images[0]
    return None


def libraries(path):
    """the shared objects ldd resolves for path (none when static)"""
    p = run(["ldd", path])
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if "=>" in f and len(f) > f.index("=>") + 1:
            lib = f[f.index("=>") + 1]
        elif f and f[0].startswith("/"):
            lib = f[0]
        else:
            continue
        if os.path.isabs(lib) and os.path.exists(lib):
            out.append(lib)
    return out


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def copy_in(root, path):
    """path (a library, the loader) at the same place under root, its
    symlinks followed"""
    dest = root + path
    if os.path.exists(dest):
        return
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copy2(os.path.realpath(path), dest)


INIT = r"""#!/bin/sh
# the ramdisk's init: the file systems invlab needs, then a shell on the
# console for LAVA
/bin/busybox --install -s
mkdir -p /proc /sys /dev /tmp /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname invlab
echo "invlab-ramdisk: init done"
exec setsid cttyhack /bin/sh -l
"""


def make_ramdisk(meson, build, tmp, busybox):
    """this build installed into a root with busybox, as a gzipped cpio;
    returns (ramdisk, prefix inside the ramdisk)"""
    root = os.path.join(tmp, "root")
    p = run([meson, "install", "-C", build, "--no-rebuild", "--destdir",
             root, "--quiet"])
    if p.returncode != 0:
        broken("meson install failed: " + p.stdout[-500:])
    suites = glob.glob(os.path.join(root, "**", "bin", "invlab-suite"),
                       recursive=True)
    if not suites:
        broken("meson install put no bin/invlab-suite in " + root)
    prefix = os.path.dirname(os.path.dirname(suites[0]))[len(root):]
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "etc", "proc", "sys",
              "dev", "tmp", "run", "root"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    shutil.copy2(busybox, os.path.join(root, "bin", "busybox"))
    os.symlink("busybox", os.path.join(root, "bin", "sh"))
    # every program, helper and busybox with the libraries it links
    for top, _, files in os.walk(root):
        for f in files:
            path = os.path.join(top, f)
            if os.path.islink(path) or not is_elf(path):
                continue
            for lib in libraries(path):
                copy_in(root, lib)
    with open(os.path.join(root, "init"), "w") as f:
        f.write(INIT)
    os.chmod(os.path.join(root, "init"), 0o755)
    with open(os.path.join(root, "etc", "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\n"
                "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n")
    with open(os.path.join(root, "etc", "group"), "w") as f:
        f.write("root:x:0:\nnogroup:x:65534:\n")
    with open(os.path.join(root, "etc", "profile"), "w") as f:
        f.write("export PATH=%s/bin:/bin:/sbin:/usr/bin:/usr/sbin\n"
                "export PS1='%s'\n" % (prefix, PROMPT))
    os.mknod(os.path.join(root, "dev", "console"), 0o600 | stat.S_IFCHR,
             os.makedev(5, 1))
    ramdisk = os.path.join(tmp, "ramdisk.cpio.gz")
    with open(ramdisk, "wb") as out:
        p = subprocess.run(
            "find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 | gzip -1",
            shell=True, cwd=root, stdout=out, stderr=subprocess.PIPE)
    if p.returncode != 0:
        broken("cpio: " + p.stderr.decode(errors="replace"))
    shutil.rmtree(root)
    return ramdisk, prefix


def make_repo(source, tmp):
    """a git repository holding this tree's definition (as it is in the
    working tree, committed or not), for the job to clone by file://"""
    repo = os.path.join(tmp, "repo")
    shutil.copytree(os.path.join(source, DEFN_DIR),
                    os.path.join(repo, DEFN_DIR),
                    ignore=shutil.ignore_patterns("output"))
    git = ["git", "-C", repo, "-c", "user.name=invlab",
           "-c", "user.email=invlab@localhost", "-c", "init.defaultBranch=main"]
    for cmd in (["init", "-q"], ["add", "-A"],
                ["commit", "-q", "-m", "the definition under test"]):
        p = run(git + cmd)
        if p.returncode != 0:
            broken("git %s: %s" % (cmd[0], p.stdout))
    return repo


def device_dict(path):
    """a QEMU device for lava-run under TCG (no KVM), its console on
    QEMU's standard output"""
    dev = {
        "device_type": "qemu",
        "available_architectures": ["amd64"],
        "constants": {
            "shutdown-message": "reboot: Restarting system",
            "kernel-start-message": "Linux version [0-9]",
            "default-shell-prompt": "lava-test: # ",
            "spawn_maxread": 4092,
            # one try: a boot or a download that fails is not retried
            "failure_retry": 1,
            "boot_retry": 1,
            "posix": {
                "lava_test_sh_cmd": "/bin/sh",
                "lava_test_results_dir": "/lava-%s",
                "lava_test_shell_file": "~/.profile",
            },
        },
        "parameters": {},
        "actions": {
            "deploy": {
                "connections": {"serial": None},
                "methods": {
                    "image": {"parameters": {"guest": {"size": 64}}},
                },
            },
            "boot": {
                "connections": {"serial": None},
                "methods": {
                    "qemu": {"parameters": {
                        "command": "qemu-system-x86_64",
                        "options": ["-accel tcg", "-cpu max", "-smp 2",
                                    "-m 1024", "-nographic", "-net none",
                                    "-no-reboot"],
                    }},
                },
            },
        },
        "timeouts": {
            "actions": {"lava-test-shell": {"minutes": 3}},
            "connections": {"lava-test-shell": {"minutes": 2}},
        },
    }
    with open(path, "w") as f:
        yaml.safe_dump(dev, f, sort_keys=False)


def job_def(path, name, kernel, ramdisk, repo, params):
    job = {
        "device_type": "qemu",
        "job_name": "invlab " + name,
        # a job took 35 to 75 s here: LAVA ends one past these, the
        # test (JOB_LIMIT) a little after
        "timeouts": {"job": {"minutes": 5}, "action": {"minutes": 4},
                     "connection": {"minutes": 2}},
        "priority": "medium",
        "visibility": "public",
        "context": {"arch": "amd64"},
        "actions": [
            {"deploy": {
                "timeout": {"minutes": 1},
                "to": "tmpfs",
                "images": {
                    "kernel": {
                        "image_arg": "-kernel {kernel} -append "
                                     "\"console=ttyS0 panic=-1\"",
                        "url": "file://" + kernel,
                    },
                    "ramdisk": {
                        "image_arg": "-initrd {ramdisk}",
                        "url": "file://" + ramdisk,
                        "compression": "gz",
                        "format": "cpio.newc",
                        # LAVA's overlay (its test shell and this
                        # definition) goes into the ramdisk
                        "overlays": {"lava": True},
                    },
                },
            }},
            {"boot": {
                "timeout": {"minutes": 2},
                "method": "qemu",
                "media": "tmpfs",
                "prompts": [PROMPT],
            }},
            {"test": {
                "timeout": {"minutes": 3},
                "definitions": [{
                    "repository": "file://" + repo,
                    "from": "git",
                    "path": DEFN_DIR + "/invlab.yaml",
                    "name": "invlab",
                    "history": False,
                    "parameters": params,
                }],
            }},
        ],
    }
    with open(path, "w") as f:
        yaml.safe_dump(job, f, sort_keys=False)


# the lava-run running now, stopped with all it started (QEMU) when the
# test is stopped or runs out of time
current = None


def stop_current():
    if current is not None and current.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(current.pid, signal.SIGKILL)
        current.wait()


def lava_run(tmp, name, job_id, device, job):
    """lava-run on the job: (its exit status, LAVA's results records, the
    job's own result, seconds, the log)"""
    global current
    out = os.path.join(tmp, "out-" + name)
    log = os.path.join(tmp, name + ".log")
    t0 = time.time()
    with open(log, "w") as f:
        current = subprocess.Popen(
            ["lava-run", "--device", device, "--job-id", str(job_id),
             "--output-dir", out, job],
            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        try:
            rc = current.wait(timeout=JOB_LIMIT)
        except subprocess.TimeoutExpired:
            rc = "killed after %d s" % JOB_LIMIT
        # whatever of the job is left (QEMU, should lava-run not have
        # stopped it)
        with contextlib.suppress(OSError):
            os.killpg(current.pid, signal.SIGKILL)
        current.wait()
        current = None
    # lava-run's own scratch directory, when it left one
    shutil.rmtree(os.path.join(LAVA_TMP, str(job_id)), ignore_errors=True)
    secs = time.time() - t0
    results = [r["msg"] for r in read_log(log)
               if r.get("lvl") == "results" and isinstance(r.get("msg"), dict)]
    job_result = {}
    rpath = os.path.join(out, "result.yaml")
    if os.path.exists(rpath):
        job_result = yaml.safe_load(open(rpath)) or {}
    return rc, results, job_result, secs, log


def read_log(log):
    """lava-run's log: a record (dt, lvl, msg) a line, in JSON"""
    records = []
    with open(log, errors="replace") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                # a target line JSON does not take (a control character)
                try:
                    r = yaml.safe_load(line)
                except yaml.YAMLError:
                    continue
            if isinstance(r, dict):
                records.append(r)
    return records


def log_tail(log, lines=40):
    """the target's and the errors' lines of a lava-run log"""
    records = read_log(log)
    keep = [r for r in records if isinstance(r, dict)
            and r.get("lvl") in ("target", "error", "exception", "results")]
    return "\n".join("%s: %s" % (r.get("lvl"), r.get("msg"))
                     for r in keep[-lines:])


def show(results):
    """LAVA's results as TAP comments"""
    for r in results:
        extra = ""
        if "measurement" in r:
            extra = " %s %s" % (r["measurement"], r.get("units", ""))
        if r.get("definition") == "lava":
            if r.get("case") != "job":
                continue
            extra = " %s %s" % (r.get("error_type", ""),
                                r.get("error_msg", ""))
        print("#   %s %s %s%s" % (r.get("definition"), r.get("case"),
                                  r.get("result"), extra))


def ours(results):
    """the definition's results: case -> record"""
    return {r["case"]: r for r in results
            if r.get("definition") == "0_invlab"}


def outcome(got, want):
    """il_expect's rule (validators/expect.c), as LAVA should show it"""
    if got == "SKIP":
        return "skip"
    if got == want:
        return "pass"
    if got == "UNDECIDED" and want == "PASS":
        return "unknown"
    return "fail"


def suite_tap(log):
    """the suite's TAP as the job's log shows it: case -> (its test
    point's line, {repeat: LAVA result of that run}), the runs whose
    head had a p99 (100 waits or more), and the suite's exit status"""
    cases, case, status, rep = {}, None, None, None
    p99 = set()
    point = re.compile(r"(not )?ok \d+ - ([A-Za-z0-9._-]+)")
    run = re.compile(r"#   (?:not )?ok \d+ - \S+ \\#(\d+): ([A-Z]+)"
                     r" \(expected ([A-Z]+)\)")
    for r in read_log(log):
        if r.get("lvl") != "target" or not isinstance(r.get("msg"), str):
            continue
        line = r["msg"]
        m = point.match(line)
        if m:
            case = m.group(2)
            cases[case] = (line, {})
            continue
        m = run.match(line)
        if m and case:
            rep = int(m.group(1))
            cases[case][1][rep] = outcome(m.group(2), m.group(3))
        # pi-chain's summary of a run: "p99 n/a (<100)" when too few
        m = re.match(r"#   #   head blocked .*, p99 ([0-9.]+)", line)
        if m and case and rep:
            p99.add((case, rep))
        m = re.match(r"# \d+ passed, .* exit (\d+)$", line)
        if m:
            status = int(m.group(1))
    return cases, p99, status


def lava_result(tap_line):
    """the LAVA result a suite's test point must be"""
    if tap_line.startswith("not ok"):
        return ("fail", "unknown")
    if "# SKIP UNDECIDED" in tap_line:
        return ("unknown",)
    if "# SKIP" in tap_line:
        return ("skip",)
    return ("pass",)


def check_measured(rc, results, jr, log):
    show(results)
    c = ours(results)
    check("measured: lava-run completed the job (result pass)",
          rc == 0 and jr.get("result") == "pass", log_tail(log))
    run = [r for r in results if r.get("definition") == "lava"
           and r.get("case") == "0_invlab"]
    check("measured: LAVA ran the definition pulled from git",
          len(run) == 1 and run[0].get("result") == "pass"
          and run[0].get("path") == DEFN_DIR + "/invlab.yaml", run)
    tap, p99, status = suite_tap(log)
    check("measured: the suite's TAP is in the job's log, both cases",
          sorted(k for k in tap if k not in ("undecided-share", "gate"))
          == ["pi-chain-2-inherit", "pi-classic-nopriv"], sorted(tap))
    # what each case and each run is, from the suite's and the program's
    # TAP; LAVA must show the same (the verdicts are the kernel's under
    # TCG, which may FAIL: that is a result, not an error)
    for case, (line, runs) in sorted(tap.items()):
        check("measured: %s is listed as the suite's test point says" % case,
              c.get(case, {}).get("result") in lava_result(line),
              [line, c.get(case)])
        for rep, want in sorted(runs.items()):
            name = "%s-r%d" % (case, rep)
            check("measured: %s is a line with its verdict, %s"
                  % (name, want),
                  c.get(name, {}).get("result") == want, c.get(name))
    runs = tap.get("pi-chain-2-inherit", ("", {}))[1]
    check("measured: pi-chain-2-inherit ran twice (REPEAT 2)",
          sorted(runs) == [1, 2], runs)
    for rep in sorted(runs):
        for fig in ("max", "bound", "worst"):
            r = c.get("pi-chain-2-inherit-r%d-%s" % (rep, fig), {})
            check("measured: pi-chain-2-inherit-r%d-%s is a measurement in"
                  " ms" % (rep, fig),
                  r.get("result") == "pass" and r.get("units") == "ms"
                  and r.get("measurement", 0) > 0, r)
        # a p99 needs 100 waits, which a run stalled by a busy host
        # under TCG may not reach: LAVA has one exactly when pi-chain
        # measured one
        name = "pi-chain-2-inherit-r%d-p99" % rep
        r = c.get(name, {})
        if ("pi-chain-2-inherit", rep) in p99:
            check("measured: %s is a measurement in ms" % name,
                  r.get("result") == "pass" and r.get("units") == "ms"
                  and r.get("measurement", 0) > 0, r)
        else:
            check("measured: %s is left out: fewer than 100 waits" % name,
                  not r, r)
    check("measured: no p999 from runs of fewer than 1000 waits",
          not any(k.endswith("-p999") for k in c))
    check("measured: the case the ramdisk cannot run is a skip",
          c.get("pi-classic-nopriv", {}).get("result") == "skip",
          c.get("pi-classic-nopriv"))
    suite = {0: "pass", 1: "fail", 3: "unknown", 77: "skip"}.get(status)
    check("measured: the suite's exit %s is listed (%s), its run time in s"
          % (status, suite),
          suite is not None
          and c.get("invlab-suite", {}).get("result") == suite
          and c.get("invlab-suite-time", {}).get("units") == "s",
          [c.get("invlab-suite"), c.get("invlab-suite-time")])
    check("measured: the background command ran until the suite ended",
          c.get("background-load", {}).get("result") == "pass",
          c.get("background-load"))
    check("measured: LAVA has no other result of the definition",
          all(k in tap or k.startswith("pi-chain-2-inherit-r")
              or k in ("invlab-suite", "invlab-suite-time",
                       "background-load") for k in c),
          sorted(c))


def check_broken(rc, results, jr, log):
    show(results)
    c = ours(results)
    msg = str(jr.get("error_msg", ""))
    check("broken: the job ends on lava-test-raise (LAVA's TestError),"
          " not complete",
          rc == 1 and jr.get("result") == "fail"
          and jr.get("error_type") == "Test", [jr, log_tail(log)])
    check("broken: the raise carries the suite's message and the case",
          "invlab-suite could not judge (exit 99" in msg
          and "pi-chain-2-inherit: still running after 5 s: killed" in msg,
          msg)
    check("broken: the decided case was sent before the raise (skip)",
          c.get("pi-classic-nopriv", {}).get("result") == "skip",
          c.get("pi-classic-nopriv"))
    check("broken: the case that could not run is unknown, not fail",
          c.get("pi-chain-2-inherit", {}).get("result") == "unknown",
          c.get("pi-chain-2-inherit"))
    check("broken: no result of the definition is a fail",
          c and not any(r.get("result") == "fail" for r in c.values()), c)


def on_alarm(*_):
    stop_current()
    print("Bail out! the test ran past %d s" % TEST_LIMIT)
    raise SystemExit(99)


def main():
    meson, build, source = sys.argv[1:4]
    if os.uname().machine != "x86_64":
        skip_all("the QEMU device here is x86-64 and this host is %s"
                 % os.uname().machine)
    if os.geteuid() != 0:
        skip_all("lava-run runs as root only")
    for tool, pkg in (("lava-run", "lava-dispatcher"),
                      ("qemu-system-x86_64", "qemu-system-x86"),
                      ("git", "git"), ("cpio", "cpio"), ("gzip", "gzip")):
        if not shutil.which(tool):
            skip_all("%s is not installed (apt-get install %s)" % (tool, pkg))
    busybox = shutil.which("busybox") or "/bin/busybox"
    if not os.path.exists(busybox):
        skip_all("busybox is not installed (apt-get install busybox-static)")

    tmp = tempfile.mkdtemp(prefix="invlab-lava.")
    try:
        kernel = find_kernel(source, tmp)
        if not kernel:
            skip_all("no x86-64 kernel to boot: set INVLAB_LAVA_KERNEL to a "
                     "vmlinuz or a linux-image .deb")
        print("TAP version 13")
        print("# kernel %s" % kernel)
        t0 = time.time()
        ramdisk, prefix = make_ramdisk(meson, build, tmp, busybox)
        repo = make_repo(source, tmp)
        device = os.path.join(tmp, "device.yaml")
        device_dict(device)
        print("# ramdisk %d KiB, prefix %s, made in %.0f s"
              % (os.path.getsize(ramdisk) // 1024, prefix, time.time() - t0))
        base = {"INVLAB_PREFIX": prefix, "GATE": "", "BACKGROUND_CMD": "",
                 "MAX_UNDECIDED": "100"}
        job_id = os.getpid()

        # a case with figures, long enough for a p99 (100 waits; about
        # 24 a second here under TCG, when the host lets it run), twice;
        # a case the ramdisk skips: busybox has no setpriv; and a
        # background command through LAVA's params (blanks, ';'), one
        # that loads nothing: TCG is slow enough
        # A case's runs take 10 to 20 s here; CASE_TIMEOUT keeps two
        # killed runs (pi-chain stuck in the guest) inside the test
        # action's 3 minutes, so the suite's word on them reaches LAVA.
        job = os.path.join(tmp, "measured.yaml")
        job_def(job, "measured", kernel, ramdisk, repo,
                dict(base, CASES="pi-chain-2-inherit pi-classic-nopriv",
                     DURATION="8s", REPEAT="2", CASE_TIMEOUT="60",
                     BACKGROUND_CMD="while :; do sleep 1; done"))
        # The job is run again, once, when it did not complete: the
        # subject is LAVA's handling of the definition, and the guest's
        # 6.1 kernel under TCG has stalled a run before (.ci/run's QEMU
        # step boots again for the same reason).  A definition that is
        # broken fails both times.
        for attempt in (1, 2):
            rc, results, jr, secs, log = lava_run(
                tmp, "measured-%d" % attempt, job_id, device, job)
            print("# measured: lava-run exit %s in %.0f s" % (rc, secs))
            if attempt == 2 or (rc == 0 and jr.get("result") == "pass"):
                break
            why = "# measured: the job did not complete (%s %s: %s);" \
                  " its log's end, then once more:" % (
                      jr.get("result"), jr.get("error_type", ""),
                      jr.get("error_msg", ""))
            print(why)
            sys.stderr.write(why + "\n" + log_tail(log) + "\n")
            for line in log_tail(log).splitlines():
                print("#   " + line)
            job_id += 2
        check_measured(rc, results, jr, log)

        # a case killed by the suite's --timeout: it could not run, the
        # suite ends 99
        job = os.path.join(tmp, "broken.yaml")
        job_def(job, "broken", kernel, ramdisk, repo,
                dict(base, CASES="pi-classic-nopriv pi-chain-2-inherit",
                     DURATION="60s", REPEAT="", CASE_TIMEOUT="5"))
        rc, results, jr, secs, log = lava_run(tmp, "broken", job_id + 1,
                                              device, job)
        print("# broken: lava-run exit %s in %.0f s" % (rc, secs))
        check_broken(rc, results, jr, log)
        print("# %.0f s in all" % (time.time() - t0))
    finally:
        if os.environ.get("KEEP"):
            print("# kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % n)
    return 1 if failed else 0


def on_term(*_):
    stop_current()
    raise SystemExit(143)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(TEST_LIMIT)
    sys.exit(main())
