#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Mutation check: do the unit tests notice a flipped decision?

For every decision in the given C files (a comparison < <= > >= == != or
a logical && ||), make one mutant that flips that one operator
(< <-> <=, > <-> >=, == <-> !=, && <-> ||), rebuild, and run the unit
suite.  A mutant the suite fails on (or that hangs past the timeout) is
killed; one it passes on survived: no unit test depends on that decision
being right.  The report lists every survivor as
FILE:LINE:COL: original -> mutated.

The source tree is never modified: the script mutates a copy of it
(WORK/src, refreshed from the tree on every run) that it builds in
WORK/build (`meson setup` once, then `ninja`), and restores the copy's
file after each mutant, also on Ctrl-C or SIGTERM.

What counts as a decision point, by default:
  * operators in code; not in comments, strings, character constants or
    preprocessor lines (#include, #define, #if, ...);
  * not in the header of a for loop: flipping `i < n` to `i <= n` reads
    one element past an array, undefined behaviour that a unit test only
    catches by luck, so these mutants measure the allocator, not the
    tests (--for-loops includes them);
  * not in the arguments of a printf-like call (printf, snprintf, ...,
    and every function the tree declares with format(printf, ...)): a
    ternary there chooses words of a message, never a verdict
    (--messages includes them).
--ops not adds one more mutant kind: dropping a unary `!`.

Kill rate = killed / (tried - did not compile).  Mutants listed in an
--equivalent file are not run and not counted.  That file has one entry
per line, `FILE:LINE:COL reason`, the position as --list prints it; the
reason is required; `#` starts a comment.  An entry that names no
decision point (the code moved) or a file that no longer exists is
reported as stale.

The default files are every validators/*.c and tools/*.c that exist.
Mutation runs are CPU-heavy: one mutant is a rebuild plus the unit suite,
a few seconds each.  Sample (--sample) on a shared machine.

Examples:
  tests/mutate.py --list
  tests/mutate.py --files validators/pi.c validators/kmutex-judge.c \\
      --sample 60 --seed 1 --jobs 1 --equivalent tests/mutate-equivalent.txt
  tests/mutate.py --build-dir /tmp/invlab-mut --sample 80   # reuse a build

Exit status: 0 when the run finished (and the kill rate is at least
--min-rate, if given), 1 below --min-rate, 2 on a usage or setup error
(also when the unmutated unit suite fails), 130 when interrupted.
"""

import argparse
import filecmp
import glob
import json
import os
import hashlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GLOBS = ["validators/*.c", "tools/*.c"]

FLIPS = {
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "==": "!=",
    "!=": "==",
    "&&": "||",
    "||": "&&",
}
OP_CLASS = {
    "<": "rel",
    "<=": "rel",
    ">": "rel",
    ">=": "rel",
    "==": "eq",
    "!=": "eq",
    "&&": "logic",
    "||": "logic",
    "!": "not",
}
PUNCT3 = {"<<=", ">>=", "..."}
PUNCT2 = {
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
}
PRINTF_NAMES = {
    "printf", "fprintf", "dprintf", "sprintf", "snprintf", "vprintf",
    "vfprintf", "vdprintf", "vsprintf", "vsnprintf", "asprintf",
    "vasprintf", "syslog", "err", "errx", "warn", "warnx", "puts", "fputs",
}


class Interrupted(Exception):
    pass


def die(msg):
    print("mutate.py: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------
# Lexing
# ---------------------------------------------------------------------

class Tok:
    __slots__ = ("kind", "text", "off", "line", "col")

    def __init__(self, kind, text, off, line, col):
        self.kind, self.text, self.off = kind, text, off
        self.line, self.col = line, col


def lex(src):
    """C tokens outside comments and preprocessor lines.

    kind: 'id', 'num', 'str', 'chr', 'op'.  line and col are 1-based."""
    toks = []
    i, n = 0, len(src)
    line, bol = 1, 0  # bol: offset of the current line's start
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            i += 1
            line, bol = line + 1, i
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            line, bol = line + 1, i
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            k = src.rfind("\n", i, j)
            if k >= 0:
                bol = k + 1
            i = j
            continue
        if c == "#" and at_line_start:
            # a directive: to the end of the line, with continuations
            # and with comments that may span lines
            while i < n and src[i] != "\n":
                if src.startswith("\\\n", i):
                    i += 2
                    line, bol = line + 1, i
                elif src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    line += src.count("\n", i, j)
                    k = src.rfind("\n", i, j)
                    if k >= 0:
                        bol = k + 1
                    i = j
                elif src.startswith("//", i):
                    j = src.find("\n", i)
                    i = n if j < 0 else j
                else:
                    i += 1
            continue
        at_line_start = False
        start, col = i, i - bol + 1
        if c == '"' or c == "'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            i = min(j + 1, n)
            toks.append(Tok("str" if c == '"' else "chr", src[start:i],
                            start, line, col))
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            # string prefixes: L"", u8"" ...
            if j < n and src[j] in "\"'" and src[i:j] in ("L", "u", "U",
                                                          "u8"):
                i = j
                continue
            toks.append(Tok("id", src[i:j], start, line, col))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            j = i + 1
            while j < n:
                if src[j] in "eEpP" and j + 1 < n and src[j + 1] in "+-":
                    j += 2
                elif src[j].isalnum() or src[j] in "._'":
                    j += 1
                else:
                    break
            toks.append(Tok("num", src[i:j], start, line, col))
            i = j
            continue
        for width, table in ((3, PUNCT3), (2, PUNCT2)):
            if src[i:i + width] in table:
                toks.append(Tok("op", src[i:i + width], start, line, col))
                i += width
                break
        else:
            toks.append(Tok("op", c, start, line, col))
            i += 1
    return toks


def printf_like_names(files):
    """Functions the tree declares with __attribute__((format(printf)))."""
    names = set(PRINTF_NAMES)
    for f in files:
        try:
            text = f.read_text(errors="replace")
        except OSError:
            continue
        if "format(printf" not in text:
            continue
        text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
        for m in re.finditer(r"format\s*\(\s*printf", text):
            a = max(text.rfind(";", 0, m.start()),
                    text.rfind("}", 0, m.start()),
                    text.rfind("{", 0, m.start()))
            b = len(text)
            for ch in ";{":
                k = text.find(ch, m.end())
                if k >= 0:
                    b = min(b, k)
            decl = re.sub(r"__attribute__\s*\(\(.*?\)\)\)?", " ",
                          text[a + 1:b], flags=re.S)
            fm = re.search(r"([A-Za-z_]\w*)\s*\(", decl)
            if fm:
                names.add(fm.group(1))
    return names


# ---------------------------------------------------------------------
# Decision points
# ---------------------------------------------------------------------

class Point:
    __slots__ = ("file", "line", "col", "off", "op", "new", "before",
                 "after", "key", "ident")

    def __init__(self, file, tok, new, before, after):
        self.file, self.line, self.col = file, tok.line, tok.col
        self.off, self.op, self.new = tok.off, tok.text, new
        self.before, self.after = before, after
        self.key = "%s:%d:%d" % (file, tok.line, tok.col)
        self.ident = ""  # set by find_points(): what --sample ranks

    def rank(self, seed):
        return hashlib.sha256(("%d\0%s" % (seed, self.ident)).encode()
                              ).digest()

    def describe(self):
        return "%s -> %s" % (self.before, self.after)


BINARY_PREC = {
    "*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11,
    "<": 10, "<=": 10, ">": 10, ">=": 10, "==": 9, "!=": 9, "&": 8,
    "^": 7, "|": 6, "&&": 5, "||": 4,
}
BOUNDARY = {";", ",", "?", ":", "=", "*=", "/=", "%=", "+=", "-=", "<<=",
            ">>=", "&=", "^=", "|=", "{", "}"}
KEYWORDS = {"return", "case", "else", "do", "if", "while", "for", "switch",
            "goto"}


def _ends_operand(t):
    return (t.kind in ("num", "str", "chr") or
            (t.kind == "id" and t.text not in KEYWORDS) or
            t.text in (")", "]", "++", "--"))


def _binary_at(toks, k):
    """Precedence of toks[k] if it is a binary operator there, else 0."""
    prec = BINARY_PREC.get(toks[k].text, 0)
    if prec and toks[k].text in ("*", "&", "-", "+"):
        if k == 0 or not _ends_operand(toks[k - 1]):
            return 0  # unary
    return prec


def _operand_left(toks, k, prec):
    """First index of the left operand of a binary operator of precedence
    prec whose operand ends at toks[k]."""
    first = k + 1
    while k >= 0:
        t = toks[k]
        if t.text in (")", "]"):
            depth = 0
            while k >= 0:
                if toks[k].text in (")", "]"):
                    depth += 1
                elif toks[k].text in ("(", "["):
                    depth -= 1
                    if depth == 0:
                        break
                k -= 1
            first = max(k, 0)
            k -= 1
            continue
        if t.text in ("(", "[") or t.text in BOUNDARY or \
                (t.kind == "id" and t.text in KEYWORDS):
            break
        p = _binary_at(toks, k)
        if p and p < prec:
            break
        first = k
        k -= 1
    return first


def _operand_right(toks, k, prec):
    """Last index of the right operand of a binary operator of precedence
    prec whose operand starts at toks[k]."""
    n, last = len(toks), k - 1
    while k < n:
        t = toks[k]
        if t.text in ("(", "["):
            depth = 0
            while k < n:
                if toks[k].text in ("(", "["):
                    depth += 1
                elif toks[k].text in (")", "]"):
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            last = min(k, n - 1)
            k += 1
            continue
        if t.text in (")", "]") or t.text in BOUNDARY or \
                (t.kind == "id" and t.text in KEYWORDS):
            break
        p = _binary_at(toks, k)
        if p and p <= prec:
            break
        last = k
        k += 1
    return last


def _snippet(src, toks, a, b, limit=40, keep_end=False):
    if b < a:
        return ""
    text = " ".join(src[toks[a].off:toks[b].off + len(toks[b].text)].split())
    if len(text) <= limit:
        return text
    return "..." + text[-(limit - 3):] if keep_end else \
        text[:limit - 3] + "..."


def find_points(relpath, src, ops, printf_names, for_loops=False,
                messages=False):
    toks = lex(src)
    points = []
    # one entry per open bracket: 'for', 'printf' or ''
    stack = []
    for k, t in enumerate(toks):
        if t.text in ("(", "[", "{"):
            kind = ""
            if t.text == "(" and k > 0 and toks[k - 1].kind == "id":
                prev = toks[k - 1].text
                if prev == "for":
                    kind = "for"
                elif prev in printf_names:
                    kind = "printf"
            stack.append(kind)
            continue
        if t.text in (")", "]", "}"):
            if stack:
                stack.pop()
            continue
        if t.kind != "op" or t.text not in OP_CLASS:
            continue
        if OP_CLASS[t.text] not in ops:
            continue
        if not for_loops and "for" in stack:
            continue
        if not messages and "printf" in stack:
            continue
        if t.text == "!":
            if k + 1 >= len(toks):
                continue
            b = _operand_right(toks, k + 1, 14)
            before = _snippet(src, toks, k, b)
            after = _snippet(src, toks, k + 1, b)
            points.append(Point(relpath, t, "", before, after))
            continue
        if k == 0 or k + 1 >= len(toks):
            continue
        prec = BINARY_PREC[t.text]
        a = _operand_left(toks, k - 1, prec)
        b = _operand_right(toks, k + 1, prec)
        left = _snippet(src, toks, a, k - 1, keep_end=True)
        right = _snippet(src, toks, k + 1, b)
        new = FLIPS[t.text]
        points.append(Point(relpath, t, new, "%s %s %s" % (left, t.text,
                                                           right),
                            "%s %s %s" % (left, new, right)))
    # A point is known by its file, its line's text, its column and how
    # many such came before, not by its line number: sampling by rank
    # then draws the same mutants after edits elsewhere in the file.
    lines = src.split("\n")
    seen = {}
    for p in points:
        base = "%s\0%s\0%d\0%s" % (p.file, lines[p.line - 1].strip(),
                                    p.col, p.op)
        seen[base] = seen.get(base, 0) + 1
        p.ident = "%s\0%d" % (base, seen[base])
    return points


def apply(src, p):
    return src[:p.off] + p.new + src[p.off + len(p.op):]


# ---------------------------------------------------------------------
# Equivalent mutants
# ---------------------------------------------------------------------

def relocate_equivalent(path, stale, keys):
    """Move each stale entry of path (its line number in the file, its
    FILE, LINE, COL) to the line that now has the text LINE had when the
    entry was written (git blame of the entry), the two lines around it
    settling a tie; (moved, unresolved) as lists of messages.  The file
    is rewritten, atomically, only when something moved."""
    lines = Path(path).read_text().split("\n")
    cur_text, moved, unresolved = {}, [], []

    def git(*a):
        r = subprocess.run(["git", "-C", str(ROOT)] + list(a),
                           capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    rel = os.path.relpath(os.path.abspath(path), ROOT)
    for no, f, line, col in stale:
        blame = git("blame", "-L", "%d,%d" % (no, no), "--porcelain", rel)
        commit = blame.split()[0] if blame else None
        old = git("show", "%s:%s" % (commit, f)) if commit else None
        if old is None or line > len(old.split("\n")):
            unresolved.append("%s:%d: %s:%d:%d: not found as written" %
                              (path, no, f, line, col))
            continue
        old = old.split("\n")
        ctx = old[max(0, line - 3):line + 2]
        if f not in cur_text:
            cur_text[f] = (ROOT / f).read_text().split("\n")
        cur = cur_text[f]
        hits = [i + 1 for i, t in enumerate(cur) if t == old[line - 1]]
        if len(hits) > 1:
            score = sorted(((sum(a == b for a, b in zip(
                cur[max(0, i - 3):i + 2], ctx)), i) for i in hits),
                reverse=True)
            if score[0][0] > score[1][0]:
                hits = [score[0][1]]
        new_key = "%s:%d:%d" % (f, hits[0], col) if len(hits) == 1 else None
        if new_key not in keys:
            unresolved.append("%s:%d: %s:%d:%d: %s" % (
                path, no, f, line, col,
                "its line is gone" if not hits else
                "%d lines have its text" % len(hits) if len(hits) > 1 else
                "no decision point at line %d" % hits[0]))
            continue
        lines[no - 1] = lines[no - 1].replace("%s:%d:%d" % (f, line, col),
                                              new_key, 1)
        moved.append("%s:%d: %s:%d:%d -> line %d" %
                     (path, no, f, line, col, hits[0]))
    if moved:
        tmp = path + ".tmp"
        with open(tmp, "w") as out:
            out.write("\n".join(lines))
        os.replace(tmp, path)
    return moved, unresolved


def read_equivalent(path):
    entries = {}
    with open(path) as f:
        for no, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"(\S+?):(\d+):(\d+)\s+(\S.*)$", line)
            if not m:
                die("%s:%d: expected FILE:LINE:COL REASON" % (path, no))
            key = "%s:%s:%s" % (os.path.normpath(m.group(1)), m.group(2),
                                m.group(3))
            entries[key] = (m.group(4).strip(), "%s:%d" % (path, no), no)
    return entries


# ---------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------

def run(cmd, timeout=None, cwd=None):
    """Run cmd in its own process group; (rc, output, timed_out).

    On timeout or interruption the whole group is terminated."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True, text=True, errors="replace")
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out, False
    except subprocess.TimeoutExpired:
        stop(p)
        out, _ = p.communicate()
        return -1, out, True
    except BaseException:
        stop(p)
        p.communicate()
        raise


def stop(p):
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            pass


# ---------------------------------------------------------------------
# The work tree
# ---------------------------------------------------------------------

def tree_files(root):
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], check=True, capture_output=True).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs
                       if not x.startswith((".", "build"))]
            for nm in names:
                files.append(os.path.relpath(os.path.join(d, nm), root))
    return sorted(f for f in files if (root / f).is_file())


def sync_tree(root, dest):
    """Make dest a copy of the tree; copy only what differs."""
    files = tree_files(root)
    want = set(files)
    copied = 0
    for f in files:
        s, d = root / f, dest / f
        if d.is_file() and filecmp.cmp(s, d, shallow=False):
            continue
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(s, d)
        shutil.copymode(s, d)
        copied += 1
    for d, dirs, names in os.walk(dest):
        dirs[:] = [x for x in dirs if not (d == str(dest) and x == ".git")]
        for nm in names:
            rel = os.path.relpath(os.path.join(d, nm), dest)
            if rel not in want:
                os.unlink(os.path.join(d, nm))
    # the copy's own git index: tests that list the tree's files
    # (check-layers.py, the install test) ask git, as in a clone
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"]):
        try:
            subprocess.run(["git", "-C", str(dest)] + cmd[1:], check=True,
                           capture_output=True)
        except (OSError, subprocess.CalledProcessError):
            break
    return copied


def unit_targets(build, suite, names=None):
    """Ninja targets (paths relative to build) the suite's tests need,
    and the longest timeout among those tests."""
    rc, out, _ = run(["meson", "introspect", str(build), "--tests",
                      "--targets"])
    if rc:
        return None
    data = json.loads(out)
    byid = {t["id"]: t for t in data["targets"]}
    outs, timeouts = set(), []
    for t in data["tests"]:
        if not any(s == suite or s.endswith(":" + suite)
                   for s in t["suite"]):
            continue
        if names and t["name"] not in names:
            continue
        timeouts.append(t.get("timeout") or 30)
        for dep in t.get("depends", []):
            for fn in byid.get(dep, {}).get("filename", []):
                outs.add(os.path.relpath(fn, build))
    return sorted(outs), (max(timeouts) if timeouts else 30)


def slowest_test(build):
    worst = 0.0
    try:
        with open(build / "meson-logs" / "testlog.json") as f:
            for line in f:
                worst = max(worst, float(json.loads(line).get("duration",
                                                              0)))
    except (OSError, ValueError):
        pass
    return worst


def failed_tests(out):
    names = []
    for line in out.splitlines():
        m = re.search(r"\s/\s(\S+)\s+(FAIL|TIMEOUT|ERROR)\b", line)
        if m:
            names.append(m.group(1) + (" (timeout)"
                                       if m.group(2) == "TIMEOUT" else ""))
    return names


# ---------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------

def parse_args():
    ap = argparse.ArgumentParser(
        prog="tests/mutate.py", description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", nargs="+", metavar="FILE",
                    help="C files (or globs) to mutate, relative to the "
                    "tree's root; default: " + " ".join(DEFAULT_GLOBS))
    ap.add_argument("--sample", type=int, metavar="N",
                    help="run N mutants drawn at random (all if fewer): "
                    "the N that rank first by a hash of the seed and the "
                    "point's file, line text and column, so the same "
                    "seed draws the same mutants again, also after "
                    "edits elsewhere in the files")
    ap.add_argument("--seed", type=int, default=1, metavar="S",
                    help="seed for --sample (default 1)")
    ap.add_argument("--jobs", "-j", type=int, default=1, metavar="J",
                    help="ninja and meson test parallelism (default 1)")
    ap.add_argument("--list", action="store_true",
                    help="list the mutation points and exit (1 when an "
                    "--equivalent entry is stale); builds nothing")
    ap.add_argument("--equivalent", metavar="FILE",
                    help="known-equivalent mutants: FILE:LINE:COL REASON "
                    "per line, not run, not counted")
    ap.add_argument("--fix-equivalent", action="store_true",
                    help="move the --equivalent file's stale entries to "
                    "the line that now has the text their line had when "
                    "they were written (git blame), and exit: 0 when "
                    "none is left stale, 1 when some must be moved by "
                    "hand; builds nothing")
    ap.add_argument("--ops", default="rel,eq,logic",
                    help="mutant kinds, comma-separated: rel (< <= > >=), "
                    "eq (== !=), logic (&& ||), not (drop a unary !); "
                    "default rel,eq,logic")
    ap.add_argument("--for-loops", action="store_true",
                    help="also mutate for-loop headers")
    ap.add_argument("--messages", action="store_true",
                    help="also mutate the arguments of printf-like calls")
    ap.add_argument("--build-dir", metavar="DIR",
                    help="keep the copy and its build in DIR and reuse "
                    "them next time (default: a temporary directory, "
                    "removed at the end)")
    ap.add_argument("--suite", default="unit",
                    help="meson test suite to run (default unit)")
    ap.add_argument("--tests", nargs="+", metavar="NAME",
                    help="run only these tests of the suite (and build "
                    "only what they need): faster, but a mutant that "
                    "survives them may be killed by another test, so "
                    "quote figures from runs of the whole suite")
    ap.add_argument("--timeout", type=float, metavar="SEC",
                    help="per-test timeout of a mutant's run (default: "
                    "5x the slowest unmutated test, at least 20 s)")
    ap.add_argument("--changed", metavar="REV",
                    help="only the points on lines that differ from REV "
                    "(git diff REV, the work tree included): a change's "
                    "own decisions, without the whole file's")
    ap.add_argument("--min-rate", type=float, metavar="PCT",
                    help="exit 1 if the kill rate is below PCT")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="show which tests killed each mutant, and the "
                    "build log of mutants that did not compile")
    return ap.parse_args()


def select_files(args):
    pats = args.files or DEFAULT_GLOBS
    files = []
    for pat in pats:
        p = Path(pat)
        if p.is_absolute():
            try:
                p = p.resolve().relative_to(ROOT)
            except ValueError:
                die("%s is outside the tree %s" % (pat, ROOT))
        elif not (ROOT / p).exists() and Path.cwd() != ROOT and \
                (Path.cwd() / p).exists():
            p = (Path.cwd() / p).resolve().relative_to(ROOT)
        hits = sorted(glob.glob(str(p), root_dir=ROOT))
        if not hits and args.files and not glob.has_magic(str(p)):
            die("%s: no such file" % pat)
        files += [os.path.normpath(h) for h in hits]
    return list(dict.fromkeys(files))


def changed_lines(rev, files):
    """{file: set of line numbers} that differ from rev in the work tree"""
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "diff", "-U0", rev, "--"] + files,
            check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("--changed %s: git diff failed: %s" %
            (rev, getattr(e, "stderr", "") or e))
    lines, cur = {}, None
    for ln in out.splitlines():
        if ln.startswith("+++ "):
            cur = ln[6:] if ln.startswith("+++ b/") else None
        elif ln.startswith("@@") and cur:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", ln)
            if m:
                a, n = int(m.group(1)), int(m.group(2) or "1")
                lines.setdefault(cur, set()).update(range(a, a + n))
    return lines


def main():
    args = parse_args()
    ops = {o.strip() for o in args.ops.split(",") if o.strip()}
    if not ops or ops - {"rel", "eq", "logic", "not"}:
        die("--ops: one or more of rel, eq, logic, not")
    if args.jobs < 1:
        die("--jobs: at least 1")
    if args.sample is not None and args.sample < 1:
        die("--sample: at least 1")
    files = select_files(args)
    if not files:
        die("no files to mutate")
    printf_names = printf_like_names(
        [ROOT / f for f in tree_files(ROOT) if f.endswith((".c", ".h"))])
    equiv = read_equivalent(args.equivalent) if args.equivalent else {}

    points = []
    for f in files:
        points += find_points(f, (ROOT / f).read_text(), ops, printf_names,
                              args.for_loops, args.messages)
    if args.changed:
        changed = changed_lines(args.changed, files)
        points = [p for p in points if p.line in changed.get(p.file, ())]
    keys = {p.key for p in points}
    stale, nstale = [], 0
    for key, (reason, where, no) in sorted(equiv.items()):
        f = key.split(":")[0]
        if key not in keys and f in files and not args.changed:
            if args.fix_equivalent:
                _, line, col = key.rsplit(":", 2)
                stale.append((no, f, int(line), int(col)))
                continue
            print("%s: stale entry %s: no decision point there "
                  "(--fix-equivalent moves it after its line)" %
                  (where, key), file=sys.stderr)
            nstale += 1
        elif not (ROOT / f).is_file():
            # a file renamed or removed: its entries moved with the code
            print("%s: stale entry %s: no such file" % (where, key),
                  file=sys.stderr)
            nstale += 1
    if args.fix_equivalent:
        if not args.equivalent:
            die("--fix-equivalent: which file? (--equivalent FILE)")
        moved, unresolved = relocate_equivalent(args.equivalent, stale, keys)
        for m in moved:
            print("moved " + m)
        for u in unresolved:
            print("not moved " + u, file=sys.stderr)
        print("# %d stale entries: %d moved, %d left to move by hand" %
              (len(stale), len(moved), len(unresolved)))
        return 1 if unresolved else 0
    excluded = [p for p in points if p.key in equiv]
    candidates = [p for p in points if p.key not in equiv]

    if args.list:
        for p in points:
            mark = ""
            if p.key in equiv:
                mark = "  [equivalent: %s]" % equiv[p.key][0]
            print("%s: %s%s" % (p.key, p.describe(), mark))
        per = {}
        for p in points:
            per[p.file] = per.get(p.file, 0) + 1
        for f in files:
            print("# %s: %d points" % (f, per.get(f, 0)))
        print("# %d points, %d listed as equivalent" %
              (len(points), len(excluded)))
        if nstale:
            print("# %d stale entries in %s" % (nstale, args.equivalent))
        return 1 if nstale else 0

    chosen = candidates
    if args.sample is not None and args.sample < len(candidates):
        chosen = sorted(candidates, key=lambda p: p.rank(args.seed))
        chosen = chosen[:args.sample]
    chosen.sort(key=lambda p: (p.file, p.line, p.col))

    def on_term(signum, frame):
        raise Interrupted()

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)

    tmp = None
    if args.build_dir:
        work = Path(args.build_dir).resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.mkdtemp(prefix="invlab-mutate.")
        work = Path(tmp)
    src, build = work / "src", work / "build"
    results = []
    current = None  # (path, original text) while a mutant is in place
    try:
        src.mkdir(exist_ok=True)
        sync_tree(ROOT, src)
        if not (build / "build.ninja").exists():
            print("meson setup %s" % build, flush=True)
            rc, out, _ = run(["meson", "setup", str(build), str(src)])
            if rc:
                sys.stderr.write(out)
                die("meson setup failed")
        ut = unit_targets(build, args.suite, args.tests)
        targets, meson_timeout = ut if ut else ([], 30)
        ninja = ["ninja", "-C", str(build), "-j", str(args.jobs)] + targets
        mtest = ["meson", "test", "-C", str(build), "--suite", args.suite,
                 "--no-rebuild", "--num-processes", str(args.jobs)]
        if args.tests:
            mtest += args.tests
        # every target once: the install tests install them all; each
        # mutant then rebuilds only what the suite's tests run
        print("building the unmutated tree", flush=True)
        rc, out, _ = run(["ninja", "-C", str(build), "-j", str(args.jobs)])
        if rc:
            sys.stderr.write(out)
            die("the unmutated tree does not build")
        t0 = time.monotonic()
        rc, out, _ = run(mtest)
        base = time.monotonic() - t0
        if rc:
            sys.stderr.write(out)
            die("the unmutated %s suite fails: fix that first" % args.suite)
        per_test = args.timeout or max(20.0, 5 * slowest_test(build))
        mult = "%.3f" % (per_test / meson_timeout)
        # a mutant's run stops at its first failing test
        mtest += ["--timeout-multiplier", mult, "--maxfail", "1",
                  "--logbase", "mutate"]
        ntests = max(1, len([ln for ln in out.splitlines()
                             if re.search(r"\s/\s\S+\s+OK\b", ln)]))
        backstop = per_test * ntests / args.jobs + 60 + 3 * base
        print("%d decision points in %d files (%d listed as equivalent); "
              "running %d mutants, per-test timeout %.0f s" %
              (len(points), len(files), len(excluded), len(chosen),
               per_test), flush=True)

        for i, p in enumerate(chosen, 1):
            path = src / p.file
            orig = path.read_text()
            if orig[p.off:p.off + len(p.op)] != p.op:
                die("%s: the copy differs from the tree" % p.key)
            current = (path, orig)
            path.write_text(apply(orig, p))
            try:
                rc, out, _ = run(ninja)
                if rc:
                    status, detail = "did not compile", ""
                    if args.verbose:
                        detail = "\n" + out
                else:
                    rc, out, timed = run(mtest, timeout=backstop)
                    fails = failed_tests(out)
                    if timed:
                        status, detail = "killed", "timeout"
                    elif rc:
                        status = "killed"
                        detail = ", ".join(fails) if fails else "rc %d" % rc
                    else:
                        status, detail = "survived", ""
            finally:
                path.write_text(orig)
                current = None
            results.append((p, status))
            line = "[%d/%d] %s: %s  %s" % (i, len(chosen), p.key,
                                           p.describe(), status)
            if status == "killed" and (args.verbose or detail == "timeout"):
                line += " (%s)" % detail
            elif status == "did not compile" and args.verbose:
                line += detail
            print(line, flush=True)
    except (KeyboardInterrupt, Interrupted):
        print("\ninterrupted: the tree was never modified; the copy is "
              "restored", file=sys.stderr)
        report(results, excluded, files)
        return 130
    finally:
        if current:
            current[0].write_text(current[1])
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    rate = report(results, excluded, files)
    if args.min_rate is not None and rate is not None and \
            rate < args.min_rate:
        print("kill rate %.1f %% is below --min-rate %.1f %%" %
              (rate, args.min_rate))
        return 1
    return 0


def report(results, excluded, files):
    def line(name, rs, eq):
        k = sum(1 for _, s in rs if s == "killed")
        sv = sum(1 for _, s in rs if s == "survived")
        nc = sum(1 for _, s in rs if s == "did not compile")
        rate = 100.0 * k / (k + sv) if k + sv else None
        print("%-28s %5d %6d %8d %6d %6d %7s" %
              (name, len(rs), k, sv, nc, eq,
               "-" if rate is None else "%.1f %%" % rate))
        return rate

    print("\n%-28s %5s %6s %8s %6s %6s %7s" %
          ("file", "tried", "killed", "survived", "no-cc", "equiv", "rate"))
    for f in files:
        rs = [r for r in results if r[0].file == f]
        eq = sum(1 for p in excluded if p.file == f)
        if rs or eq:
            line(f, rs, eq)
    rate = line("total", results, len(excluded))
    surv = [p for p, s in results if s == "survived"]
    if surv:
        print("\nsurvivors (no unit test noticed):")
        for p in surv:
            print("  %s: %s" % (p.key, p.describe()))
    return rate


if __name__ == "__main__":
    sys.exit(main())
