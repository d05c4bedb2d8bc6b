#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Unit tests of invlab-faults and of the fault gallery (tests/faults),
# without building or booting a kernel: the patch header's parser and its
# errors, each decision of a boot's cell, of a check's outcome and of the
# exit status, the table, the command line, a whole run on a fake
# invlab-kernel and a fake invlab-vm (the healthy boots shared between
# faults), and the gallery itself: every patch well formed, small, and
# applying to Debian's 7.2.13 source when it is on this machine
# (INVLAB_KERNEL_SOURCE, or invlab-kernel's cache; skipped with the
# reason otherwise).
#
#   python3 tests/test-faults.py tools/invlab-faults tools/invlab-vm \
#           docs/man/invlab-faults.1

import glob
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.dont_write_bytecode = True  # no __pycache__ beside the script
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'tools', 'invlab-faults')
VM_SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'tools', 'invlab-vm')
MAN = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'docs', 'man', 'invlab-faults.1')
GALLERY = os.path.join(TOP, 'tests', 'faults')
KERNEL_SCRIPT = os.path.join(TOP, 'tools', 'invlab-kernel')


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


fl = load('invlab_faults', SCRIPT)
ik = load('invlab_kernel_for_faults', KERNEL_SCRIPT)


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = fl.main(argv)
    return rc, out.getvalue(), err.getvalue()


def kernel_source():
    """The unpacked 7.2.13 source, or None."""
    env = os.environ.get('INVLAB_KERNEL_SOURCE')
    if env:
        return env if os.path.isfile(os.path.join(env, 'Makefile')) else None
    found = sorted(glob.glob('/var/cache/invlab/kernels/src/'
                             'linux-source-7.2_7.2.13*/Makefile'))
    return os.path.dirname(found[-1]) if found else None


HEADER = '''Fault: x-fault
Area: rt_mutex PI
Breaks: something, said on
 two lines
Append: sched_proxy_exec=1
Check: pi-classic -p inherit -d 3s
Check: kmutex --config 'cross-cpu' -d 3s
Control: pi-chain --depth 3

---
--- a/kernel/x.c
+++ b/kernel/x.c
'''


class TestHeader(unittest.TestCase):
    def test_fields(self):
        h = fl.parse_header(HEADER, 'x-fault.patch')
        self.assertEqual(h['fault'], 'x-fault')
        self.assertEqual(h['breaks'], 'something, said on two lines')
        self.assertEqual(h['append'], 'sched_proxy_exec=1')
        self.assertEqual(h['checks'], [
            ['pi-classic', '-p', 'inherit', '-d', '3s'],
            ['kmutex', '--config', 'cross-cpu', '-d', '3s']])
        self.assertEqual(h['controls'], [['pi-chain', '--depth', '3']])

    def test_no_checks_is_a_gap(self):
        h = fl.parse_header('Fault: a\nArea: b\nBreaks: c\n---\n', 'a')
        self.assertEqual((h['checks'], h['controls'], h['append']),
                         ([], [], ''))

    def test_stops_at_the_diff(self):
        # a diff line is never read as a field
        h = fl.parse_header('Fault: a\nArea: b\nBreaks: c\n'
                            'diff -up a/x b/x\nCheck: nonsense\n', 'a')
        self.assertEqual(h['checks'], [])

    def test_errors(self):
        for text, said in [
                ('Fault: a\nArea: b\nBreaks: c\nCheck: ls -l\n',
                 'f.patch:4: Check runs ls, not an invlab program'),
                ('Fault: a\nArea: b\nBreaks: c\nControl:\n',
                 'f.patch:4: Control runs nothing'),
                ('Fault: a\nFault: b\n', 'f.patch:2: Fault given already '
                 'at f.patch:1'),
                ('Fault: a\nMust-fail: pi-classic\n',
                 'f.patch:2: unknown field Must-fail'),
                ('Fault: a\nArea: b\n', 'f.patch: no Breaks: field'),
                (' x\n', 'f.patch:1: a continued line'),
                ('Fault: a\nwords\n', "f.patch:2: not a header line"),
                ("Fault: a\nArea: b\nBreaks: c\nCheck: kmutex 'x\n",
                 'f.patch:4:')]:
            with self.assertRaises(ValueError, msg=text) as e:
                fl.parse_header(text, 'f.patch')
            self.assertIn(said, str(e.exception), text)


class TestCell(unittest.TestCase):
    def test_status(self):
        self.assertEqual(fl.cell(None, []), 'NONE')
        self.assertEqual(fl.cell(77, []), 'SKIP')
        self.assertEqual(fl.cell(99, [('r', 'PASS', 'PASS')]), 'BROKEN')
        self.assertEqual(fl.cell(2, []), 'BROKEN')
        # 3: done, one check UNDECIDED, the rest as expected
        self.assertEqual(fl.cell(3, [('r', 'UNDECIDED', 'PASS'),
                                     ('s', 'PASS', 'PASS')]), 'UNDECIDED')
        self.assertEqual(fl.cell(4, [('r', 'PASS', 'PASS')]), 'BROKEN')

    def test_verdicts(self):
        P, F, U = 'PASS', 'FAIL', 'UNDECIDED'
        for rows, want in [
                ([('a', P, P)], 'PASS'),
                ([('a', F, P)], 'FAIL'),
                ([('a', F, None)], 'FAIL'),
                # an expected FAIL (steal-budget's holder) is no FAIL
                ([('a', F, F), ('b', P, P)], 'PASS'),
                ([('a', U, P)], 'UNDECIDED'),
                ([('a', 'NONE', P)], 'UNDECIDED'),
                ([('a', P, F)], 'PASS!'),
                # FAIL before UNDECIDED before PASS!
                ([('a', U, P), ('b', F, P), ('c', P, F)], 'FAIL'),
                ([('a', P, F), ('b', U, P)], 'UNDECIDED'),
                # a measurement only, judged by nothing
                ([('a', '-', None)], 'NONE'),
                ([('a', P, None)], 'NONE'),
                ([], 'NONE')]:
            self.assertEqual(fl.cell(1 if 'FAIL' in str(rows) else 0, rows),
                             want, rows)


class TestOutcome(unittest.TestCase):
    def test_check(self):
        P, F, U, N = 'PASS', 'FAIL', 'UNDECIDED', 'NONE'
        for h, f, want in [
                ([P, P, P], [F, F, F], 'caught'),
                ([P, U, P], [F, F, F], 'caught'),
                ([P, P, P], [F, U, F], 'caught 2/3'),
                ([P, P, P], [U, U, P], 'missed'),
                ([P, F, P], [F, F, F], 'healthy fails'),
                ([N, N, N], ['BROKEN', N, N], 'no result'),
                ([N, P], [F, F], 'caught'),
                ([P], [F], 'caught')]:
            self.assertEqual(fl.outcome('check', h, f), want, (h, f))

    def test_control(self):
        self.assertEqual(fl.outcome('control', ['PASS'], ['PASS']), 'held')
        self.assertEqual(fl.outcome('control', ['PASS'], ['UNDECIDED']),
                         'held')
        self.assertEqual(fl.outcome('control', ['PASS'], ['FAIL']), 'fails')
        self.assertEqual(fl.outcome('control', ['FAIL'], ['PASS']), 'fails')

    def row(self, role, outcome, cells=('PASS',)):
        return {'role': role, 'outcome': outcome, 'healthy': list(cells),
                'faulted': list(cells), 'argv': ['pi-classic'],
                'append': ''}

    def test_exit_status(self):
        ok = {'rows': [self.row('check', 'caught'),
                       self.row('control', 'held')]}
        self.assertEqual(fl.exit_status([ok]), 0)
        self.assertEqual(fl.exit_status([ok, {'rows': []}]), 0)
        for bad in ('missed', 'caught 1/3', 'healthy fails'):
            self.assertEqual(fl.exit_status(
                [ok, {'rows': [self.row('check', bad)]}]), 1, bad)
        self.assertEqual(fl.exit_status(
            [{'rows': [self.row('control', 'fails')]}]), 1)
        # 99 before 1
        self.assertEqual(fl.exit_status(
            [{'rows': [self.row('check', 'missed', ['NONE'])]}]), 99)
        self.assertEqual(fl.exit_status(
            [ok, {'rows': [], 'build_error': 'x'}]), 99)
        self.assertEqual(fl.exit_status(
            [{'rows': [self.row('check', 'missed', ['SKIP'])]}]), 1)

    def test_table(self):
        faults = [{'fault': 'a', 'rows': [
            {'role': 'check', 'argv': ['pi-classic', '-d', '3s'],
             'append': '', 'healthy': ['PASS', 'PASS'],
             'faulted': ['FAIL', 'FAIL'], 'outcome': 'caught'},
            {'role': 'control', 'argv': ['kmutex'],
             'append': 'sched_proxy_exec=1', 'healthy': ['PASS'],
             'faulted': ['PASS'], 'outcome': 'held'}]},
            {'fault': 'b', 'rows': []},
            {'fault': 'c', 'rows': [], 'build_error': 'x'}]
        text = fl.table(faults)
        lines = text.splitlines()
        self.assertEqual(lines[0].split(), ['fault', 'check', 'healthy',
                                            'faulted', 'outcome'])
        self.assertIn('pi-classic -d 3s', lines[2])
        self.assertIn('PASS PASS', lines[2])
        self.assertTrue(lines[2].endswith('caught'))
        self.assertIn('control: kmutex [sched_proxy_exec=1]', lines[3])
        self.assertIn('(no check names it)', lines[4])
        self.assertTrue(lines[4].endswith('gap'))
        self.assertIn('(not built)', lines[5])


class TestGallery(unittest.TestCase):
    def patches(self):
        return sorted(glob.glob(os.path.join(GALLERY, '*.patch')))

    def test_well_formed(self):
        gallery = fl.load_gallery(GALLERY)
        self.assertGreaterEqual(len(gallery), 10)
        areas = set()
        for path, h in gallery:
            with open(path) as f:
                text = f.read()
            files = ik.patched_files(text)
            self.assertTrue(files, path)
            for rel in files:
                self.assertTrue(rel.startswith('kernel/'), (path, rel))
            # a few lines: a seeded fault, not a rewrite
            changed = [x for x in text.split('\n---\n', 1)[1].splitlines()
                       if x[:1] in '+-' and not x.startswith(('+++', '---'))]
            self.assertLessEqual(len(changed), 12, path)
            self.assertIn(h['append'], ('', 'sched_proxy_exec=0',
                                        'sched_proxy_exec=1'), path)
            areas.add(h['area'].split()[0])
        # the areas the gallery covers
        for a in ('rt_mutex', 'SCHED_DEADLINE', 'RT', 'proxy'):
            self.assertIn(a, areas)

    def test_proxy_faults_boot_with_it_on(self):
        for path, h in fl.load_gallery(GALLERY):
            if h['area'].startswith('proxy'):
                self.assertEqual(h['append'], 'sched_proxy_exec=1', path)

    @unittest.skipUnless(shutil.which('patch'), 'no patch')
    def test_applies_to_7_2_13(self):
        src = kernel_source()
        if not src:
            self.skipTest('no 7.2.13 source here (INVLAB_KERNEL_SOURCE, or '
                          'invlab-kernel --package linux-source-7.2 unpacks '
                          'it into /var/cache/invlab/kernels/src)')
        for path in self.patches():
            r = subprocess.run(['patch', '-p1', '--dry-run', '--batch',
                                '--forward', '-d', src, '-i', path],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True)
            self.assertEqual(r.returncode, 0, '%s: %s' % (path, r.stdout))
            self.assertNotIn('offset', r.stdout, path)
            self.assertNotIn('fuzz', r.stdout, path)


FAKE_KERNEL = '''#!/usr/bin/env python3
import os, sys
argv = sys.argv[1:]
cache = argv[argv.index('--cache') + 1]
name = 'healthy'
if '--patch' in argv:
    name = os.path.basename(argv[argv.index('--patch') + 1])[:-6]
tree = os.path.join(cache, name)
os.makedirs(tree, exist_ok=True)
with open(os.path.join(tree, 'invlab-kernel.json'), 'w') as f:
    f.write('{"files_compiled": 3, "make_s": 40.0, "key": "%s"}' % name)
print(tree)
'''

# a fake invlab-vm: invlab-vm's own reader, and a main that writes what a
# guest would, FAIL for the check on a tree whose name has 'bad'
FAKE_VM = '''#!/usr/bin/env python3
import importlib.machinery, importlib.util, json, os, sys
_l = importlib.machinery.SourceFileLoader('real_vm', %r)
_s = importlib.util.spec_from_loader('real_vm', _l)
_m = importlib.util.module_from_spec(_s)
_l.exec_module(_m)
read_results, verdicts = _m.read_results, _m.verdicts
if __name__ == '__main__':
    argv = sys.argv[1:]
    tree = argv[argv.index('--kernel') + 1]
    out = os.path.join(argv[argv.index('-o') + 1], '7.2.13')
    prog = argv[argv.index('--') + 1:]
    os.makedirs(out)
    with open(os.path.join(os.path.dirname(__file__), 'boots'), 'a') as f:
        f.write('%%s %%s\\n' %% (os.path.basename(tree), ' '.join(prog)))
    bad = 'bad' in os.path.basename(tree) and prog[0] == 'pi-classic'
    with open(os.path.join(out, 'status'), 'w') as f:
        f.write('1' if bad else '0')
    with open(os.path.join(out, prog[0] + '.json'), 'w') as f:
        json.dump({'program': prog[0], 'runs': [
            {'configuration': 'inherit', 'expected': 'PASS',
             'verdict': 'FAIL' if bad else 'PASS'}]}, f)
    sys.exit(1 if bad else 0)
'''


class TestRun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='test-faults.')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def patch(self, name, checks, control=''):
        return self.write('gallery/%s.patch' % name, (
            'Fault: %s\nArea: RT\nBreaks: it\n%s%s---\n'
            '--- a/kernel/x.c\n+++ b/kernel/x.c\n' % (
                name, ''.join('Check: %s\n' % c for c in checks),
                'Control: %s\n' % control if control else '')))

    def test_run(self):
        self.patch('a-bad', ['pi-classic -p inherit'])
        self.patch('b-bad', ['pi-classic -p inherit', 'rt-football'])
        self.patch('c-fine', ['pi-chain'], control='pi-classic -p inherit')
        self.patch('d-gap', [])
        argv = ['--gallery', os.path.join(self.dir, 'gallery'),
                '--kernel-tool', self.write('kernel', FAKE_KERNEL, 0o755),
                '--vm', self.write('vm', FAKE_VM % VM_SCRIPT, 0o755),
                '--cache', os.path.join(self.dir, 'cache'), '--boots', '2',
                '-o', os.path.join(self.dir, 'out'), '--json',
                os.path.join(self.dir, 'f.json')]
        rc, out, err = run_main(argv)
        # rt-football and pi-chain miss their faults here: 1
        self.assertEqual(rc, 1, err)
        with open(os.path.join(self.dir, 'f.json')) as f:
            doc = json.load(f)
        rows = {(f['fault'], ' '.join(r['argv'])): r
                for f in doc['faults'] for r in f['rows']}
        a = rows[('a-bad', 'pi-classic -p inherit')]
        self.assertEqual((a['healthy'], a['faulted'], a['outcome']),
                         (['PASS', 'PASS'], ['FAIL', 'FAIL'], 'caught'))
        self.assertEqual(rows[('b-bad', 'rt-football')]['outcome'],
                         'missed')
        self.assertEqual(rows[('c-fine', 'pi-classic -p inherit')]['outcome'],
                         'held')
        self.assertEqual(rows[('c-fine', 'pi-chain')]['outcome'], 'missed')
        self.assertEqual(doc['exit_status'], 1)
        self.assertEqual(doc['faults'][0]['files_compiled'], 3)
        self.assertIn('d-gap', out)
        # the healthy boots of a check are made once and shared: two of
        # pi-classic, two of rt-football, two of pi-chain
        with open(os.path.join(self.dir, 'boots')) as f:
            boots = f.read().splitlines()
        healthy = [b for b in boots if b.startswith('healthy ')]
        self.assertEqual(len(healthy), 6, boots)
        self.assertEqual(len(boots), 6 + 2 * 5)
        # healthy and faulted boots alternate
        self.assertEqual(boots[0].split()[0], 'healthy')
        self.assertEqual(boots[1].split()[0], 'a-bad')

    def test_all_caught(self):
        self.patch('a-bad', ['pi-classic -p inherit'])
        rc, out, err = run_main([
            '--gallery', os.path.join(self.dir, 'gallery'),
            '--kernel-tool', self.write('kernel', FAKE_KERNEL, 0o755),
            '--vm', self.write('vm', FAKE_VM % VM_SCRIPT, 0o755),
            '--cache', os.path.join(self.dir, 'cache'), '--boots', '1',
            '-o', os.path.join(self.dir, 'out')])
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r'a-bad +pi-classic -p inherit +PASS +FAIL '
                              r'+caught')

    def test_usage(self):
        bad = self.write('g/x.patch', 'Fault: y\nArea: a\nBreaks: b\n')
        for argv, said in [
                (['--fault', 'no-such-fault'], 'not in'),
                (['--boots', '0'], 'out of range'),
                (['--list', '--json', 'x'], '--list runs nothing'),
                (['--gallery', os.path.join(self.dir, 'none')],
                 'No such file'),
                (['--gallery', os.path.dirname(bad)],
                 "Fault: y is not the file's name"),
                (['--source', self.dir], 'not a kernel source tree'),
                (['--package', 'p', '--source', self.dir],
                 'not allowed with')]:
            rc, out, err = run_main(argv)
            self.assertEqual(rc, 2, (argv, err))
            self.assertIn(said, err, argv)

    def test_list(self):
        rc, out, err = run_main(['--list'])
        self.assertEqual(rc, 0, err)
        self.assertIn('rtmutex-no-boost', out)
        self.assertIn('check    pi-classic -p inherit', out)

    def test_no_vm(self):
        self.patch('a-bad', ['pi-classic'])
        rc, out, err = run_main([
            '--gallery', os.path.join(self.dir, 'gallery'),
            '--vm', os.path.join(self.dir, 'no-vm'),
            '-o', os.path.join(self.dir, 'out')])
        self.assertEqual(rc, 77, err)
        self.assertIn('no invlab-vm', err)

    def test_help_and_man_page(self):
        r = subprocess.run([sys.executable, SCRIPT, '--help'],
                           stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 0)
        with open(MAN) as f:
            page = f.read().replace('\\-', '-')
        opts = [o for a in fl.make_parser()._actions
                for o in a.option_strings if o not in ('-h', '--help')]
        for o in opts:
            self.assertIn(o, r.stdout)
            self.assertIn('\\fB' + o + '\\fR', page, o)


if __name__ == '__main__':
    unittest.main(verbosity=1)
