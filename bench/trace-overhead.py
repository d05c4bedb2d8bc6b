#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the scheduler's trace costs (docs/tracing.md, "Cost").

Runs `pi-classic -p inherit` with --trace=off and --trace=on in turn, the
order alternating from pair to pair so that a drift of the machine's load
falls on both sides alike, and prints:

  - the blocked time's p50 and p99 of each run, and the median of each
    side: the shift tracing makes in what is measured (goal: p50 within
    2 %);
  - the CPU time of each run's process (user + system, from the kernel's
    account of the child, getrusage), whose difference on vs off is all
    that the recorder costs: setting up the instances, recording, and
    reading and parsing the calibration's and the run's traces;
  - the part of it the run's own recorder took in the caller's thread
    (making the instance, reading and parsing), from the result's trace
    note ("recorder CPU: setup ..., reading ...");
  - that difference as a share of one CPU over the measured duration
    (goal: at most 1 %).

A figure, not a test: it never fails on a slow machine.  Needs root (the
real-time classes and tracefs).  On a shared machine, say so beside the
figures ("loaded") and use several pairs.

  bench/trace-overhead.py build/demos/pi-classic [-n PAIRS] [-d 3s] [-c CPU]
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile


def one_run(prog, mode, args, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [prog, '-p', 'inherit', '-d', args.duration, '--trace=' + mode,
           '--json', path, '-q']
    if args.cpu is not None:
        cmd += ['--cpu', str(args.cpu)]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # the verdict is not what is measured: 1 (not as expected) and 3
    # (as expected but UNDECIDED) are runs like 0
    if p.returncode not in (0, 1, 3):
        sys.exit('%s exited %d: %s' % (' '.join(cmd), p.returncode,
                                       p.stderr.strip()))
    with open(path) as f:
        res = json.load(f)
    run = res['runs'][0]
    note = run.get('judge_inputs', {}).get('trace_note', '')
    m = re.search(r'(\d+) records', note)
    records = int(m.group(1)) if m else None
    m = re.search(r'recorder CPU: setup ([0-9.]+)(ns|us|ms|s), reading '
                  r'([0-9.]+)(ns|us|ms|s)', note)
    read_s = None
    if m:
        unit = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}
        read_s = (float(m.group(1)) * unit[m.group(2)] +
                  float(m.group(3)) * unit[m.group(4)])
    return {
        'p50': run['blocked_ns']['p50'],
        'p99': run['blocked_ns']['p99'] or run['blocked_ns']['max'],
        'cpu': (after.ru_utime - before.ru_utime) +
               (after.ru_stime - before.ru_stime),
        'read': read_s,
        'records': records,
        'verdict': run.get('verdict'),
    }


def seconds(text):
    m = re.fullmatch(r'([0-9.]+)(ms|s)?', text)
    if not m:
        sys.exit('--duration: %r is not a duration (3s, 500ms)' % text)
    return float(m.group(1)) * (1e-3 if m.group(2) == 'ms' else 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pi_classic')
    ap.add_argument('-n', '--pairs', type=int, default=5)
    ap.add_argument('-d', '--duration', default='3s')
    ap.add_argument('-c', '--cpu', type=int)
    args = ap.parse_args()
    if os.geteuid() != 0:
        print('SKIP: needs root (real-time classes, tracefs)')
        return 77
    dur = seconds(args.duration)
    runs = {'off': [], 'on': []}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'r.json')
        for i in range(args.pairs):
            order = ('off', 'on') if i % 2 == 0 else ('on', 'off')
            for mode in order:
                r = one_run(args.pi_classic, mode, args, path)
                runs[mode].append(r)
                print('pair %d %-3s  blocked p50 %7.1f us  p99 %7.1f us  '
                      'process CPU %.3f s%s%s  %s' % (
                          i + 1, mode, r['p50'] / 1e3, r['p99'] / 1e3,
                          r['cpu'],
                          '' if r['read'] is None else
                          ', recorder %.1f ms' % (r['read'] * 1e3),
                          '' if r['records'] is None else
                          ' (%d records)' % r['records'],
                          r['verdict']), flush=True)
    med = {m: {k: statistics.median(r[k] for r in runs[m])
               for k in ('p50', 'p99', 'cpu')} for m in runs}
    reads = [r['read'] for r in runs['on'] if r['read'] is not None]
    p50 = 100.0 * (med['on']['p50'] - med['off']['p50']) / med['off']['p50']
    p99 = 100.0 * (med['on']['p99'] - med['off']['p99']) / med['off']['p99']
    extra = med['on']['cpu'] - med['off']['cpu']
    print()
    print('medians of %d pairs, -d %s:' % (args.pairs, args.duration))
    print('  blocked p50: off %.1f us, on %.1f us: %+.2f %% (goal: within '
          '2 %%)' % (med['off']['p50'] / 1e3, med['on']['p50'] / 1e3, p50))
    print('  blocked p99: off %.1f us, on %.1f us: %+.2f %%' % (
        med['off']['p99'] / 1e3, med['on']['p99'] / 1e3, p99))
    print('  process CPU: off %.3f s, on %.3f s: the recorder %+.3f s, '
          '%.2f %% of one CPU over the %.1f s measured (goal: at most '
          '1 %%)' % (med['off']['cpu'], med['on']['cpu'], extra,
                     100.0 * extra / dur, dur))
    if reads:
        print('  the run\'s recorder (setup and reading, in the run\'s '
              'process): %.1f ms of CPU (median), %.2f %% of one CPU' % (statistics.median(reads) * 1e3,
                              100.0 * statistics.median(reads) / dur))
    return 0


if __name__ == '__main__':
    sys.exit(main())
