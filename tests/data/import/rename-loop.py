#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# How the rename-test fixtures were made: rename-test's loop (rename a
# file, time it with CLOCK_MONOTONIC, rename it back), one latency in ns
# a line, sorted as its run.sh sorts them.  With "contention", a second
# process renames another file in the same directories meanwhile.
import os, sys, time, tempfile, multiprocessing

def loop(a, b, n, out=None):
    vals = []
    for _ in range(n):
        t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        os.rename(a, b)
        t1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        os.rename(b, a)
        vals.append(t1 - t0)
    return vals

def background(a, b, stop):
    while not stop.is_set():
        os.rename(a, b)
        os.rename(b, a)

conf, n = sys.argv[1], int(sys.argv[2])
d = tempfile.mkdtemp()
os.mkdir(d + "/a"); os.mkdir(d + "/b")
for f in ("fg", "bg"):
    open(d + "/a/" + f, "w").close()
stop = multiprocessing.Event()
bg = None
if conf == "contention":
    bg = multiprocessing.Process(target=background,
                                 args=(d + "/a/bg", d + "/b/bg", stop))
    bg.start()
vals = loop(d + "/a/fg", d + "/b/fg", n)
if bg:
    stop.set(); bg.join()
with open("results-%s.log" % conf, "w") as f:
    for v in sorted(vals):
        f.write("%d\n" % v)
