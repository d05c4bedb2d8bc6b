#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# The live board and the narration under a pseudo terminal of a given
# size, as an audience's screen would get them.
#
#   check-board.py board COLS ROWS CONFIGS -- PROGRAM ARGS...
#       PROGRAM runs with --live --json FILE on a terminal 40 columns and
#       10 lines larger, resized to COLSxROWS after a second: the frames
#       before the resize use the larger width; after it:
#       the screen redrawn in place; no line of any frame wider than
#       COLS, no frame taller than ROWS; every configuration named
#       in CONFIGS (comma-separated) in the final frame with a final
#       verdict; the final frame's elapsed time is the last run's
#       (elapsed_ns of the result file); the verdict lines after the
#       board within COLS (wrapped at word boundaries).  With timeline=want
#       before --: when the runs were traced (a worst_wait in the result
#       file), the final frame has the worst waits' timelines, one per
#       traced configuration, each with a wait line (R ... A) and a bound
#       line; with timeline=none, it has none (no room for them).
#   check-board.py stage COLS ROWS CONFIGS -- PROGRAM ARGS...
#       PROGRAM runs with --stage --stage-pause=0 --stage-step=0: for
#       each configuration its narration header, then in any order
#       "low takes M", "high wakes up", "high signals go" and a
#       "high waited ... for M" line (or the lines of steps=A|B|C given
#       before --), then the verdict line and the board's block; no
#       narration or verdict line wider than COLS.
#
# TAP on stdout; exit 77 when the program cannot run here (exit 77).
import atexit
import fcntl
import json
import os
import pty
import re
import select
import shutil
import struct
import sys
import tempfile
import termios
import time

ESC = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
n = 0
failed = 0


def check(ok, what):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, what))


def run(argv, cols, rows, timeout, start=None):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["LANG"] = "C.UTF-8"
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    # started at another size, then resized after a second: the program
    # must take the new size (TIOCGWINSZ, SIGWINCH)
    first = start or (cols, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ,
                struct.pack("HHHH", first[1], first[0], 0, 0))
    out = b""
    t0 = time.time()
    end = t0 + timeout
    resized = start is None
    while time.time() < end:
        # after a second and two frames: the first can be the title alone,
        # and a run that waited for its CPUs (another run held them) has
        # drawn nothing yet
        if not resized and time.time() > t0 + 1 and out.count(b"\x1b[H") >= 2:
            fcntl.ioctl(fd, termios.TIOCSWINSZ,
                        struct.pack("HHHH", rows, cols, 0, 0))
            resized = True
            out += b"\x00RESIZED\x00"
        r, _, _ = select.select([fd], [], [], 0.5)
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    else:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def width(line):
    return len(ESC.sub("", line).rstrip("\r"))


def main():
    mode, cols, rows, configs = sys.argv[1], int(sys.argv[2]), \
        int(sys.argv[3]), sys.argv[4].split(",")
    argv = sys.argv[sys.argv.index("--") + 1:]
    # the narration, the verdict line, the board after it
    # "A/B": either (a lock taken in 20 us or more is "asks", "gets")
    steps = ["low takes M/low gets M", "high wakes up", "high signals go",
             "high waited", "%s: "]
    timeline = "any"
    for a in sys.argv[5:sys.argv.index("--")]:
        if a.startswith("steps="):
            steps = a[len("steps="):].split("|")
        if a.startswith("timeline="):
            timeline = a[len("timeline="):]
    # (a "/" in a step separates alternatives)
    steps += ["  %s ran ["]
    tmp = tempfile.mkdtemp(prefix="invlab-board.")
    atexit.register(shutil.rmtree, tmp, True)
    res = os.path.join(tmp, "r.json")
    print("TAP version 13")
    if mode == "board":
        argv += ["--live", "--json", res]
    else:
        argv += ["--stage", "--stage-pause=0", "--stage-step=0"]
    big = (cols + 40, rows + 10)
    rc, out = run(argv, cols, rows, 120, big if mode == "board" else None)
    if rc == 77:
        print("1..0 # SKIP " + out.strip().splitlines()[-1])
        return 77
    # 1 is a verdict not as expected, 3 one UNDECIDED: timing, which a
    # display test does not judge (a loaded machine); anything else is not
    check(rc in (0, 1, 3), "exit status 0, 1 or 3 under a %dx%d terminal "
          "(got %d)" % (cols, rows, rc))
    text = out.replace("\r\n", "\n")
    if mode == "board":
        before, _, text = text.partition("\x00RESIZED\x00")
        early = [f.partition("\x1b[J")[0]
                 for f in before.split("\x1b[H")[1:]]
        check(any(width(l) > cols for f in early for l in f.split("\n")),
              "before the resize, the board used the wider terminal")
        # the first frame after the resize may have been laid out before
        # it: it is not held to the new size
        frames = text.split("\x1b[H")[1:]
        frames = frames[1:] if len(frames) > 2 else frames
        check(len(frames) >= 2, "the board redrawn in place (%d frames)"
              % len(frames))
        if not frames:
            print("1..%d" % n)
            return 1
        last, _, after = frames[-1].partition("\x1b[J")
        wide = [l for f in frames for l in
                f.partition("\x1b[J")[0].split("\n") if width(l) > cols]
        check(not wide, "no line of a frame wider than %d: %r"
              % (cols, wide[:2]))
        tall = [len(f.partition("\x1b[J")[0].rstrip("\n").split("\n"))
                for f in frames]
        check(max(tall) <= rows, "no frame taller than %d (%d)"
              % (rows, max(tall)))
        lines = [ESC.sub("", l) for l in last.split("\n")]
        for c in configs:
            row = [l for l in lines if l.startswith(c + " ")]
            check(row and re.search(r"(PASS|FAIL|UNDECIDED|measured)", row[0]),
                  "the final frame has %s with its verdict: %r"
                  % (c, row[:1]))
        with open(res) as f:
            runs = json.load(f)["runs"]
        traced = [r["configuration"] for r in runs if "worst_wait" in r]
        if timeline == "want" and traced:
            check(any(l.startswith("worst waits") for l in lines),
                  "the final frame has the worst waits' timelines")
            # the board puts the timelines last, each whole, while they
            # fit: one left out needs a frame without room for it (a
            # timeline is its head, a lane, its wait and its bound at
            # least; foreign tasks in a worst wait add lanes)
            used = len(last.rstrip("\n").split("\n"))
            shown = 0
            for c in traced:
                # the timeline's head, "none: high waited 21.7ms for M
                # (...)", not a verdict's evidence that says "waited"
                head = re.compile(re.escape(c) + r": \S+ waited \S+ for ")
                i = next((k for k, l in enumerate(lines)
                          if head.match(l)), -1)
                if i < 0 and shown and used + 4 > rows:
                    check(True, "%s's timeline: no room left in %d rows "
                          "(%d used)" % (c, rows, used))
                    continue
                block = lines[i:i + 12] if i >= 0 else []
                shown += i >= 0
                check(i >= 0 and any(re.match(r"  wait +R", l)
                                     for l in block)
                      and any(re.match(r"  bound +\[", l) for l in block),
                      "%s's timeline with its wait and bound: %r"
                      % (c, block[:1]))
        elif timeline == "none":
            check(not any(l.startswith("worst waits") for l in lines),
                  "no timeline where there is no room")
        want = "[%.1fs]" % (runs[-1]["elapsed_ns"] / 1e9)
        check(want in lines[0], "the final frame's time is the run's: "
              "%s in %r" % (want, lines[0]))
        # prose (a verdict and its evidence) is wrapped to the terminal; a
        # table's row (a run of blanks inside it) is printed whole
        verdicts = [l for l in after.split("\n")
                    if re.search(r"\b(PASS|FAIL|UNDECIDED)\b", l)
                    and "  " not in l.strip()]
        check(all(width(l) <= cols for l in verdicts),
              "the verdict lines after the board within %d columns" % cols)
    else:
        lines = [ESC.sub("", l) for l in text.split("\n")]
        # a table's line (two gaps of spaces or more inside it) is the
        # report's own; narration has one gap, prose none
        # and the program's own notes on stderr are not narration
        prog = os.path.basename(argv[0]) + ": "
        wide = [l for l in lines if len(l) > cols and
                len(re.findall(r"\S {2,}(?=\S)", l)) < 2 and
                not l.startswith(prog)]
        check(not wide, "no narration or verdict line wider than %d: %r"
              % (cols, wide[:2]))
        # the narration's steps in any order after the round's header
        # (a task the host delayed wakes up later than usual, and the
        # narration says so); the verdict and board ("%s" steps) after
        # all of them, in order
        pos = 0
        for c in configs:
            head, last = -1, -1
            for s in [c + ": round 2 as it happened"] + steps:
                ordered = "%s" in s or head < 0
                s = s % c if "%s" in s else s
                start = pos if ordered else head + 1
                i = next((k for k in range(start, len(lines))
                          if any(a in lines[k] for a in s.split("/"))),
                         -1)
                check(i >= 0, "%s: '%s' in its place" % (c, s))
                if i < 0:
                    continue
                if head < 0:
                    head = i
                last = max(last, i)
                pos = i + 1 if ordered else last + 1
    if failed:
        for l in ESC.sub("", text).split("\n"):
            print("# " + l)
    print("1..%d" % n)
    return 1 if failed else 0


sys.exit(main())
