#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How often each verdict comes out, run after run: a benchmark, not a test.

A verdict that noise can swing shows up here as a rate, which a test run
once cannot show.  Each condition runs its demo N times (root: real-time
classes and tracefs) and counts, per check (configuration, validator and
task), PASS, FAIL and UNDECIDED against the verdict expected, and how
many of them the trace decided.

  bench/verdict-rates.py --bin build -n 50 quiet
  bench/verdict-rates.py --bin build -n 20 fhog50 fhog15 nopi
  bench/verdict-rates.py --bin build -n 10 quiet dlmbwi  # a build beside

Conditions:
  quiet    pi-classic (none, inherit) and pi-chain --depth 3 (none,
           inherit), nothing added
  fhog50   pi-classic beside tests/fhog at FIFO 50, 15 ms every 100 ms, on
           the scenario's CPU (above every task: interference)
  fhog15   the same hog at FIFO 15 (below high, above low)
  nopi     pi-classic -p inherit with the C library that has no priority
           inheritance (tests/invlab-nopi.so preloaded)
  football rt-football: the game (expected PASS) and its negative control
           `pinned` (expected FAIL), always judged on the trace
  dlmbwi   dl-mbwi's five scenarios (basic, chain, cross-cpu,
           steal-budget, kmutex): isolation, interference and each
           task's bandwidth

Load beside it (a kernel build, say) is the caller's: this script adds
none.  Exit status 0, 77 when not root, 2 bad usage.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time


def verdicts(path):
    """(configuration, check, expected, verdict, decided on the trace)
    for each check of each run in the result file at path"""
    with open(path) as f:
        d = json.load(f)
    out = []
    for r in d.get('runs', []):
        for c in r.get('checks', []):
            name = ' '.join(x for x in (c.get('validator'), c.get('task'))
                            if x)
            trace = c.get('trace_decided')
            if trace is None:  # files from before the flag
                trace = (c.get('evidence', '').startswith('trace:') or
                         d.get('program') == 'rt-football')
            out.append((r['configuration'], name, c.get('expected', '?'),
                        c.get('verdict', '?'), bool(trace)))
    return out


def run(cmd, env, tmp):
    js = os.path.join(tmp, 'r.json')
    if os.path.exists(js):
        os.unlink(js)
    p = subprocess.run(cmd + ['--json', js], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode == 77:
        sys.exit('SKIP: ' + p.stderr.strip().splitlines()[-1])
    return verdicts(js) if os.path.exists(js) else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default='build', help='the build directory')
    ap.add_argument('-n', type=int, default=20, help='runs per condition')
    ap.add_argument('-d', default='2s', help='each run\'s duration')
    ap.add_argument('conditions', nargs='*', default=['quiet'],
                    choices=['quiet', 'fhog50', 'fhog15', 'nopi',
                             'football', 'dlmbwi'])
    a = ap.parse_args()
    if os.geteuid() != 0:
        print('SKIP: needs root (SCHED_FIFO, tracefs)')
        return 77
    b = a.bin
    pic = os.path.join(b, 'demos', 'pi-classic')
    chain = os.path.join(b, 'demos', 'pi-chain')
    fhog = os.path.join(b, 'tests', 'fhog')
    shim = os.path.join(b, 'tests', 'invlab-nopi.so')
    football = os.path.join(b, 'demos', 'rt-football')
    dlmbwi = os.path.join(b, 'demos', 'dl-mbwi')
    cpu = str(os.cpu_count() - 1)
    tmp = tempfile.mkdtemp(prefix='invlab-bench.')
    with open('/proc/loadavg') as f:
        print('load average at the start: ' + ' '.join(f.read().split()[:3]))
    for cond in a.conditions or ['quiet']:
        cmds = []
        env = dict(os.environ)
        hog = None
        if cond == 'quiet':
            cmds = [[pr, '-p', p, '-d', a.d] + extra
                    for pr, extra in ((pic, []), (chain, ['--depth', '3']))
                    for p in ('none', 'inherit')]
        elif cond in ('fhog50', 'fhog15'):
            cmds = [[pic, '--cpu', cpu, '-p', p, '-d', a.d, '--trace=on']
                    for p in ('none', 'inherit')]
            hog = subprocess.Popen(
                [fhog, '--prio', cond[4:], '--cpu', cpu, '--spin', '15ms',
                 '--period', '100ms', '--time', '3600s'],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.3)
        elif cond == 'nopi':
            env['LD_PRELOAD'] = shim
            cmds = [[pic, '-p', 'inherit', '-d', a.d]]
        elif cond == 'football':
            cmds = [[football, '-d', a.d, '--trace=on']]
        elif cond == 'dlmbwi':
            cmds = [[dlmbwi, '-d', a.d]]
        count = collections.defaultdict(collections.Counter)
        t0 = time.time()
        try:
            for i in range(a.n):
                for c in cmds:
                    prog = os.path.basename(c[0])
                    for conf, name, exp, v, trace in run(c, env, tmp):
                        n = count[(prog, conf, name, exp)]
                        n[v] += 1
                        n['trace'] += trace
                print('\r%s: %d of %d' % (cond, i + 1, a.n), end='',
                      file=sys.stderr, flush=True)
        finally:
            if hog:
                hog.terminate()
                hog.wait()
        print('', file=sys.stderr)
        print('%s, %d runs each, %.0f s:' % (cond, a.n, time.time() - t0))
        print('  %-12s %-13s %-22s %-9s %4s %4s %4s %6s' %
              ('program', 'config', 'check', 'expected', 'PASS', 'FAIL',
               'UND', 'trace'))
        for k in sorted(count):
            n = count[k]
            print('  %-12s %-13s %-22s %-9s %4d %4d %4d %6d' %
                  (k + (n['PASS'], n['FAIL'], n['UNDECIDED'], n['trace'])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
