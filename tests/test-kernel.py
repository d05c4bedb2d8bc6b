#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Unit tests of invlab-kernel's pieces, without fetching or building a
# kernel: the fragment parser, the merge of fragments and the check of the
# final .config against it (a dropped option is an error), the cache key,
# the repository's fragments themselves, the private apt sources, the
# slim tree, the command line's errors, and --patch: the overlay that
# keeps the pristine tree as it was, the key, a patch that does not
# apply, and the incremental build on a base's objects (on a fake kernel
# whose Makefile compiles by copying, so make's own timestamp logic
# decides what is rebuilt).
#
#   python3 tests/test-kernel.py tools/invlab-kernel build/tools/invlab-vm \
#           docs/man/invlab-kernel.1

import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.dont_write_bytecode = True  # no __pycache__ beside the script
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'tools', 'invlab-kernel')
VM_SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'tools', 'invlab-vm')
MAN = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    TOP, 'docs', 'man', 'invlab-kernel.1')


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


ik = load('invlab_kernel', SCRIPT)


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='test-kernel.')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, data, mode=0o644):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb' if isinstance(data, bytes) else 'w') as f:
            f.write(data)
        os.chmod(path, mode)
        return path


class TestFragment(unittest.TestCase):
    def test_values(self):
        text = ('# a comment\n'
                '\n'
                'CONFIG_A=y\n'
                'CONFIG_B=m\n'
                '# CONFIG_C is not set\n'
                'CONFIG_D=n\n'
                'CONFIG_HZ=250\n'
                'CONFIG_S="a b"\n')
        got = ik.parse_fragment(text, 'f.config')
        self.assertEqual([(o, v) for o, v, _ in got], [
            ('CONFIG_A', 'y'), ('CONFIG_B', 'm'), ('CONFIG_C', 'n'),
            ('CONFIG_D', 'n'), ('CONFIG_HZ', '250'), ('CONFIG_S', '"a b"')])
        self.assertEqual(got[0][2], 'f.config:3')
        self.assertEqual(got[2][2], 'f.config:5')

    def test_bad_line(self):
        with self.assertRaises(ValueError) as e:
            ik.parse_fragment('CONFIG_A=y\nSCHED_PROXY_EXEC=y\n', 'f.config')
        self.assertIn('f.config:2', str(e.exception))

    def test_no_value(self):
        with self.assertRaises(ValueError) as e:
            ik.parse_fragment('CONFIG_A=\n', 'f.config')
        self.assertIn('CONFIG_A has no value', str(e.exception))

    def test_twice(self):
        with self.assertRaises(ValueError) as e:
            ik.parse_fragment('CONFIG_A=y\n# CONFIG_A is not set\n', 'f')
        self.assertIn('f:2: CONFIG_A is set already at f:1',
                      str(e.exception))

    def test_comment_read_as_option(self):
        # merge_config.sh takes '# CONFIG_X ...' for an option: a typo in
        # 'is not set' must not pass as a comment
        for line in ('# CONFIG_A is not set.', '#CONFIG_A is not set',
                     '# CONFIG_A=y'):
            with self.assertRaises(ValueError, msg=line):
                ik.parse_fragment(line + '\n', 'f')
        self.assertEqual(ik.parse_fragment('# CONFIGURATION of x\n'), [])

    def test_config_is_lenient(self):
        cfg = ik.read_config('#\n# Automatically generated file\n'
                             'CONFIG_A=y\n# CONFIG_B is not set\n'
                             'junk\nCONFIG_A=m\n')
        self.assertEqual(cfg, {'CONFIG_A': 'm', 'CONFIG_B': 'n'})

    def test_merge_later_wins(self):
        a = ik.parse_fragment('CONFIG_A=y\nCONFIG_B=y\n', 'a')
        b = ik.parse_fragment('# CONFIG_B is not set\nCONFIG_C=y\n', 'b')
        want = ik.merge_requests([a, b])
        self.assertEqual(want, {'CONFIG_A': ('y', 'a:1'),
                                'CONFIG_B': ('n', 'b:1'),
                                'CONFIG_C': ('y', 'b:2')})


class TestCheck(unittest.TestCase):
    WANT = {'CONFIG_SCHED_PROXY_EXEC': ('y', 'proxy-exec.config:7'),
            'CONFIG_SCHED_CLASS_EXT': ('n', 'proxy-exec.config:5'),
            'CONFIG_HZ': ('250', 'guest.config:40'),
            'CONFIG_S': ('"x"', 'guest.config:41'),
            'CONFIG_DRM': ('n', 'trim.config:30')}

    def have(self, **changes):
        have = {'CONFIG_SCHED_PROXY_EXEC': 'y', 'CONFIG_SCHED_CLASS_EXT': 'n',
                'CONFIG_HZ': '250', 'CONFIG_S': '"x"', 'CONFIG_OTHER': 'y'}
        for k, v in changes.items():
            if v is None:
                have.pop('CONFIG_' + k, None)
            else:
                have['CONFIG_' + k] = v
        return have

    def test_all_present(self):
        # CONFIG_DRM absent counts as not set
        self.assertEqual(ik.check_config(self.WANT, self.have()), [])

    def test_dropped(self):
        got = ik.check_config(self.WANT, self.have(SCHED_PROXY_EXEC=None))
        self.assertEqual(got, [('CONFIG_SCHED_PROXY_EXEC', 'y', None,
                                'proxy-exec.config:7')])
        msg = ik.dropped_message(got, 'the final .config')
        self.assertIn('CONFIG_SCHED_PROXY_EXEC: asked for =y '
                      '(proxy-exec.config:7), got absent', msg)
        self.assertIn('1 option asked for is not', msg)

    def test_not_set_when_asked_for(self):
        got = ik.check_config(self.WANT, self.have(SCHED_PROXY_EXEC='n'))
        self.assertEqual([g[0] for g in got], ['CONFIG_SCHED_PROXY_EXEC'])
        self.assertIn('got is not set', ik.dropped_message(got, 'c'))

    def test_module_is_not_built_in(self):
        got = ik.check_config(self.WANT, self.have(SCHED_PROXY_EXEC='m'))
        self.assertEqual([g[2] for g in got], ['m'])

    def test_set_when_asked_off(self):
        got = ik.check_config(self.WANT, self.have(SCHED_CLASS_EXT='y',
                                                   DRM='m'))
        self.assertEqual([g[0] for g in got], ['CONFIG_DRM',
                                               'CONFIG_SCHED_CLASS_EXT'])

    def test_values(self):
        got = ik.check_config(self.WANT, self.have(HZ='1000', S='"y"'))
        self.assertEqual([(g[0], g[2]) for g in got],
                         [('CONFIG_HZ', '1000'), ('CONFIG_S', '"y"')])
        got = ik.check_config(self.WANT, self.have(HZ=None))
        self.assertEqual([g[0] for g in got], ['CONFIG_HZ'])

    def test_several(self):
        got = ik.check_config(self.WANT, {})
        self.assertEqual([g[0] for g in got], [
            'CONFIG_HZ', 'CONFIG_S', 'CONFIG_SCHED_PROXY_EXEC'])
        self.assertIn('3 options asked for are not',
                      ik.dropped_message(got, 'c'))


class TestRepoFragments(unittest.TestCase):
    """tools/kconfig as the tool reads it."""

    def requests(self, flavour):
        frags = ik.load_fragments(ik.fragment_files(flavour))
        return ik.merge_requests([e for _, _, e in frags])

    def test_parse_strictly(self):
        for flavour in ik.FLAVOURS:
            for _, _, entries in ik.load_fragments(
                    ik.fragment_files(flavour)):
                self.assertTrue(entries)

    def test_pe(self):
        want = self.requests('pe')
        self.assertEqual(want['CONFIG_SCHED_PROXY_EXEC'][0], 'y')
        self.assertEqual(want['CONFIG_EXPERT'][0], 'y')
        self.assertEqual(want['CONFIG_SCHED_CLASS_EXT'][0], 'n')
        self.assertEqual(want['CONFIG_PREEMPT_RT'][0], 'n')
        self.assertEqual(self.requests('nope')['CONFIG_SCHED_PROXY_EXEC'][0],
                         'n')

    def test_flavours_differ_in_proxy_exec_only(self):
        pe = {k: v for k, (v, _) in self.requests('pe').items()}
        nope = {k: v for k, (v, _) in self.requests('nope').items()}
        diff = sorted(k for k in set(pe) | set(nope)
                      if pe.get(k) != nope.get(k))
        self.assertEqual(diff, ['CONFIG_SCHED_PROXY_EXEC'])

    def test_trim_keeps_what_the_guest_needs(self):
        # trim.config comes after guest.config: an option in both would
        # silently be trimmed
        guest, trim = [e for _, _, e in ik.load_fragments(
            ik.fragment_files('pe')[:2])]
        both = {o for o, _, _ in guest} & {o for o, _, _ in trim}
        self.assertEqual(both, set())

    def test_share_built_in(self):
        # what invlab-vm needs for its result share, built in (no modules)
        vm = load('invlab_vm', VM_SCRIPT)
        want = self.requests('pe')
        for opt in vm.SHARE_CONFIG + ['CONFIG_DEVTMPFS', 'CONFIG_CGROUPS',
                                      'CONFIG_TRACING', 'CONFIG_DEBUG_FS',
                                      'CONFIG_IKCONFIG_PROC']:
            self.assertEqual(want.get(opt, ('absent',))[0], 'y', opt)

    def test_asked_for_in_the_brief(self):
        want = self.requests('pe')
        for opt in ('RT_GROUP_SCHED', 'CFS_BANDWIDTH', 'CPUSETS',
                    'CPUSETS_V1', 'PERF_EVENTS', 'IO_URING', 'NUMA',
                    'HZ_250', 'PREEMPT_DYNAMIC', 'FTRACE', 'IKCONFIG'):
            self.assertEqual(want['CONFIG_' + opt][0], 'y', opt)
        self.assertEqual(want['CONFIG_HZ'][0], '250')


class TestCacheKey(unittest.TestCase):
    FRAGS = [('guest.config', b'CONFIG_A=y\n'),
             ('proxy-exec.config', b'CONFIG_SCHED_PROXY_EXEC=y\n')]

    def test_stable(self):
        k = ik.cache_key('7.2.13-1', self.FRAGS, 'pe')
        self.assertEqual(k, ik.cache_key('7.2.13-1', list(self.FRAGS), 'pe'))
        self.assertRegex(k, r'^7\.2\.13-1-pe-[0-9a-f]{16}$')
        # the directory a fragment is read from is not part of it
        moved = [('/elsewhere/' + n, d) for n, d in self.FRAGS]
        self.assertEqual(k, ik.cache_key('7.2.13-1', moved, 'pe'))

    def test_changes(self):
        k = ik.cache_key('7.2.13-1', self.FRAGS, 'pe')
        others = [
            ik.cache_key('7.2.13-2', self.FRAGS, 'pe'),
            ik.cache_key('7.2.13-1', self.FRAGS, 'nope'),
            ik.cache_key('7.2.13-1', self.FRAGS, 'pe', recipe=ik.RECIPE + 1),
            ik.cache_key('7.2.13-1', self.FRAGS[::-1], 'pe'),
            ik.cache_key('7.2.13-1', self.FRAGS[:1], 'pe'),
            ik.cache_key('7.2.13-1', [self.FRAGS[0], (
                'proxy-exec.config', b'CONFIG_SCHED_PROXY_EXEC=n\n')], 'pe'),
            ik.cache_key('7.2.13-1', [self.FRAGS[0], (
                'other.config', self.FRAGS[1][1])], 'pe'),
            # content moved between fragments
            ik.cache_key('7.2.13-1', [('guest.config', b'CONFIG_A=y\nC'),
                                      ('proxy-exec.config',
                                       b'ONFIG_SCHED_PROXY_EXEC=y\n')], 'pe'),
        ]
        self.assertNotIn(k, others)
        self.assertEqual(len(set(others)), len(others))

    def test_safe_name(self):
        k = ik.cache_key('1:7.2~rc3/x', self.FRAGS, 'pe')
        self.assertTrue(k.startswith('1_7.2_rc3_x-pe-'), k)
        self.assertNotIn('/', k)
        self.assertEqual(ik.safe_name('..'), 'x')

    def test_stale(self):
        self.assertEqual(ik.stale_entries(
            ['.lock', '.tmp-7.2-pe-abc.x1', 'src', 'apt', '7.2-pe-abc',
             '.tmp-unpack.y']), ['.tmp-7.2-pe-abc.x1', '.tmp-unpack.y'])


class TestSources(Tmp):
    def test_one_line(self):
        text = ('# comment\n'
                'deb http://deb.debian.org/debian bookworm main\n'
                'deb-src http://src.example/debian bookworm main\n'
                'deb [signed-by=/k.gpg arch=amd64] http://m.example/debian/ '
                'bookworm main  # trailing\n')
        self.assertEqual(ik.parse_sources(text), [
            'http://deb.debian.org/debian', 'http://m.example/debian/'])

    def test_deb822(self):
        text = ('Types: deb\n'
                '# http://snapshot.debian.org/archive/debian/2025\n'
                'URIs: http://deb.debian.org/debian\n'
                'Suites: bookworm bookworm-updates\n'
                'Components: main\n'
                '\n'
                'Types: deb-src\n'
                'URIs: http://src.example/debian\n'
                '\n'
                'Types: deb\n'
                'URIs: http://off.example/debian\n'
                'Enabled: no\n'
                '\n'
                'Types: deb\n'
                'URIs: http://deb.debian.org/debian-security\n')
        self.assertEqual(ik.parse_sources(text), [
            'http://deb.debian.org/debian',
            'http://deb.debian.org/debian-security'])

    def test_mirror(self):
        self.assertEqual(ik.debian_mirror([
            'https://packages.cloud.google.com/apt',
            'http://deb.debian.org/debian-security',
            'http://ftp.fr.debian.org/debian/']), 'http://ftp.fr.debian.org/debian')
        self.assertIsNone(ik.debian_mirror(['http://deb.debian.org/debian-security']))

    def test_machine_mirror(self):
        self.write('etc/sources.list', '')
        self.write('etc/sources.list.d/debian.sources',
                   'Types: deb\nURIs: http://m.example/debian\n'
                   'Suites: bookworm\nComponents: main\n')
        # files apt does not read are not read here either
        self.write('etc/sources.list.d/other.list.disabled',
                   'deb http://x.example/debian sid main\n')
        mirror, files = ik.machine_mirror(os.path.join(self.dir, 'etc'))
        self.assertEqual(mirror, 'http://m.example/debian')
        self.assertEqual(len(files), 2)

    def test_private(self):
        text = ik.private_sources('http://m.example/debian', '/k.gpg')
        self.assertIn('\ndeb [signed-by=/k.gpg] http://m.example/debian '
                      'sid main\n', text)
        self.assertEqual(ik.parse_sources(text), ['http://m.example/debian'])
        opts = ik.apt_options('/c/apt')
        self.assertIn('Dir::Etc::sourceparts=-', opts)
        self.assertIn('Dir::Etc::sourcelist=/c/apt/sources.list', opts)
        self.assertIn('Dir::State::Lists=/c/apt/lists', opts)
        self.assertIn('Dir::Cache=/c/apt/cache', opts)
        self.assertIn('Dir::State::status=/var/lib/dpkg/status', opts)
        self.assertEqual(opts[::2], ['-o'] * 5)


class TestTree(Tmp):
    def obj(self):
        for rel in ('arch/x86/boot/bzImage', '.config',
                    'include/config/kernel.release', 'System.map',
                    'vmlinux', 'kernel/fork.o'):
            self.write('obj/' + rel, rel)
        return os.path.join(self.dir, 'obj')

    def test_slim(self):
        tree = os.path.join(self.dir, 'tree')
        ik.slim_tree(self.obj(), tree)
        self.assertTrue(os.path.isfile(os.path.join(
            tree, 'arch/x86/boot/bzImage')))
        self.assertFalse(os.path.exists(os.path.join(tree, 'kernel')))
        self.assertFalse(ik.is_built(tree))  # no info file yet
        self.write('tree/' + ik.INFO, '{}')
        self.assertTrue(ik.is_built(tree))

    def test_slim_without_image(self):
        obj = self.obj()
        os.unlink(os.path.join(obj, 'arch/x86/boot/bzImage'))
        with self.assertRaises(ik.Fail):
            ik.slim_tree(obj, os.path.join(self.dir, 'tree'))

    def test_vm_takes_it(self):
        # invlab-vm's --kernel DIR on the slim tree: the image, the config
        # and the release; no modules needed with the share built in
        vm = load('invlab_vm', VM_SCRIPT)
        obj = self.obj()
        self.write('obj/.config', 'CONFIG_VIRTIO_PCI=y\n'
                   'CONFIG_NET_9P_VIRTIO=y\nCONFIG_9P_FS=y\n')
        self.write('obj/include/config/kernel.release', '7.2.13\n')
        tree = os.path.join(self.dir, 'tree')
        ik.slim_tree(obj, tree)
        k = vm.resolve_kernel(tree, self.dir)
        self.assertEqual(k.kind, 'tree')
        self.assertEqual(k.release, '7.2.13')
        self.assertEqual(vm.share_modules(k), [])


class TestTools(unittest.TestCase):
    def test_missing(self):
        got = ik.missing_tools([('sh', 'program', 'dash'),
                                ('no-such-tool-here', 'program', 'pkg-a'),
                                ('no-such-tool-either', 'program', 'pkg-a'),
                                ('no/such/header.h', 'header', 'pkg-b')])
        self.assertEqual(got, [('no-such-tool-here', 'pkg-a'),
                               ('no-such-tool-either', 'pkg-a'),
                               ('no/such/header.h', 'pkg-b')])
        msg = ik.missing_message(got)
        self.assertIn('apt-get install pkg-a pkg-b', msg)
        self.assertIn('--install-deps', msg)

    def test_lists(self):
        names = [t[0] for t in ik.TOOLS + ik.FETCH_TOOLS]
        for t in ('make', 'gcc', 'flex', 'bison', 'bc', 'gawk', 'gelf.h',
                  'openssl/ssl.h', 'xz', 'dpkg-deb', 'apt-get'):
            self.assertIn(t, names)
        self.assertEqual(ik.MAKE_AWK, 'AWK=gawk')


class TestRepath(unittest.TestCase):
    def test_records_follow_the_tree(self):
        """kbuild's records (.cmd, .d) that name the tree by its absolute
        path name the new one, times kept; objects and other files are
        left as they are, as is a record naming neither"""
        with tempfile.TemporaryDirectory() as d:
            old, new = os.path.join(d, 'old'), os.path.join(d, 'new')
            obj = os.path.join(new, 'invlab-obj', 'tools', 'objtool')
            os.makedirs(obj)
            files = {
                '.check.o.cmd': 'cmd_%s/invlab-obj/tools/objtool/check.o '
                                ':= gcc %s/tools/objtool/check.c\n'
                                % (old, old),
                'check.o.d': '%s/invlab-obj/x.o: %s/x.c\n' % (old, old),
                'check.o': '\0debug %s/tools/objtool/check.c\0' % old,
                'notes.txt': 'built in %s/\n' % old,
                '.other.o.cmd': 'cmd_x.o := gcc ../x.c %s-not/x.c\n' % old,
            }
            for f, text in files.items():
                with open(os.path.join(obj, f), 'w') as fh:
                    fh.write(text)
                os.utime(os.path.join(obj, f), ns=(10**18, 10**18))
            ik.repath(os.path.join(new, 'invlab-obj'), old, new)
            for f, text in files.items():
                p = os.path.join(obj, f)
                with open(p) as fh:
                    got = fh.read()
                if f in ('.check.o.cmd', 'check.o.d'):
                    self.assertEqual(got, text.replace(old + '/', new + '/'))
                    self.assertNotIn(old + '/', got)
                else:
                    self.assertEqual(got, text)
                self.assertEqual(os.stat(p).st_mtime_ns, 10**18)


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = ik.main(argv)
    return rc, out.getvalue(), err.getvalue()


class TestArgs(Tmp):
    def fake_tree(self, version='7.2.13'):
        self.write('src/Makefile', 'kernelversion:\n\t@echo %s\n' % version)
        return os.path.join(self.dir, 'src')

    def test_usage_errors(self):
        src = self.fake_tree()
        for argv, said in [
                ([], 'no kernel source'),
                (['--source', src, '--package', 'linux-source-7.2'],
                 'not allowed with'),
                (['--source', os.path.join(self.dir, 'none')],
                 'not a kernel source tree'),
                (['--package', 'Bad_Name'], 'not a Debian package name'),
                (['--package', 'linux-source-7.2', '--flavour', 'rt'],
                 'invalid choice'),
                (['--package', 'linux-source-7.2', '--nice', '20'],
                 'out of range'),
                (['--package', 'linux-source-7.2', '-j', '0'],
                 'out of range'),
                (['--package', 'linux-source-7.2', '-j', 'many'],
                 'not a number'),
                (['--package', 'linux-source-7.2', '--print-path',
                  '--rebuild'], '--print-path builds nothing'),
                (['--package', 'linux-source-7.2', '--no-such-option'],
                 'unrecognized')]:
            rc, out, err = run_main(argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn(said, err, argv)
            self.assertIn("Try 'invlab-kernel --help'", err)
            self.assertEqual(out, '')

    def test_help(self):
        r = subprocess.run([sys.executable, SCRIPT, '--help'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(r.returncode, 0)
        for opt in ('--source', '--package', '--flavour', '--cache',
                    '--print-path', '--install-deps', '--nice', '--jobs'):
            self.assertIn(opt, r.stdout)

    def test_every_option_in_the_man_page(self):
        with open(MAN) as f:
            page = f.read().replace('\\-', '-')
        opts = [o for a in ik.make_parser()._actions for o in a.option_strings
                if o not in ('-h', '--help')]
        self.assertIn('--package', opts)
        for o in opts:
            self.assertIn('\\fB' + o + '\\fR', page, o)

    @unittest.skipUnless(shutil.which('make'), 'no make')
    def test_print_path(self):
        src = self.fake_tree()
        cache = os.path.join(self.dir, 'cache')
        argv = ['--source', src, '--cache', cache, '--print-path']
        self.assertEqual(run_main(argv), (1, '', ''))
        frags = [(p, d) for p, d, _ in ik.load_fragments(
            ik.fragment_files('pe'))]
        tree = os.path.join(cache, ik.cache_key('7.2.13', frags, 'pe'))
        for rel in ('arch/x86/boot/bzImage', '.config', ik.INFO):
            self.write(os.path.relpath(os.path.join(tree, rel), self.dir), 'x')
        self.assertEqual(run_main(argv), (0, tree + '\n', ''))
        # the other flavour is another tree
        self.assertEqual(run_main(argv + ['--flavour', 'nope'])[0], 1)
        # a partial tree is not built
        os.unlink(os.path.join(tree, ik.INFO))
        self.assertEqual(run_main(argv)[0], 1)

    @unittest.skipUnless(shutil.which('make'), 'no make')
    def test_leftovers_removed(self):
        # what a killed run left is removed under the lock, before the run
        # goes on (here to stop at the missing kvm_guest.config, or at a
        # missing build tool: 77 either way)
        src = self.fake_tree()
        self.write('cache/.tmp-7.2.13-pe-0123456789abcdef.x/obj/a.o', 'x')
        self.write('cache/src/.tmp-unpack.y/deb', 'x')
        self.write('cache/7.2.13-pe-0123456789abcdef/keep', 'x')
        rc, out, err = run_main(['--source', src, '--cache',
                                 os.path.join(self.dir, 'cache')])
        self.assertEqual((rc, out), (77, ''), err)
        self.assertEqual(sorted(os.listdir(os.path.join(self.dir, 'cache'))),
                         ['.lock', '7.2.13-pe-0123456789abcdef', 'src'])
        self.assertEqual(os.listdir(os.path.join(self.dir, 'cache', 'src')),
                         [])

    @unittest.skipUnless(shutil.which('make'), 'no make')
    def test_signal(self):
        # stopped by SIGTERM while a tool runs: 128+15, the tool's process
        # group gone with it
        started = os.path.join(self.dir, 'started')
        self.write('src/Makefile',
                   'kernelversion:\n\t@touch %s; sleep 60\n' % started)
        src = os.path.join(self.dir, 'src')
        p = subprocess.Popen([sys.executable, SCRIPT, '--source', src,
                              '--print-path', '--cache',
                              os.path.join(self.dir, 'cache')],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        # the signal once the tool runs make (its handlers are set by
        # then), not after a guessed time: a loaded machine is slow
        for _ in range(400):
            if os.path.exists(started) or p.poll() is not None:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=20)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM, err)
        self.assertIn('stopped by signal 15', err)

    @unittest.skipUnless(shutil.which('make'), 'no make')
    def test_print_path_package_never_fetches(self):
        cache = os.path.join(self.dir, 'cache')
        rc, out, err = run_main(['--package', 'linux-source-7.2', '--cache',
                                 cache, '--print-path'])
        self.assertEqual((rc, out), (1, ''))
        self.assertFalse(os.path.exists(cache))


FAKE_MAKEFILE = """\
O ?= .
SRCS := $(sort $(wildcard kernel/*.c))
OBJS := $(patsubst %.c,$(O)/%.o,$(SRCS))
kernelversion:
	@echo 7.2.13
defconfig:
	@mkdir -p $(O) && echo CONFIG_FAKE=y > $(O)/.config
olddefconfig:
	@true
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC      $*.o'
	@cp $< $@
bzImage: $(OBJS)
	@mkdir -p $(O)/arch/x86/boot $(O)/include/config
	@cat $(OBJS) > $(O)/arch/x86/boot/bzImage
	@cp $(O)/arch/x86/boot/bzImage $(O)/vmlinux
	@echo 7.2.13-fake > $(O)/include/config/kernel.release
.PHONY: kernelversion defconfig olddefconfig bzImage
"""

# merge_config.sh -m -O OBJ CONFIG FRAGMENT...: appended in order, so the
# last value of an option wins, as with the kernel's
FAKE_MERGE = """#!/bin/sh
shift 3
cfg=$1
shift
cat "$@" >> "$cfg"
"""

A_PATCH = """Fault: a test fault
Breaks: nothing

--- a/kernel/a.c
+++ b/kernel/a.c
@@ -1,3 +1,3 @@
 int a(void)
 {
-\treturn 1;
+\treturn 0;
"""


class TestPatch(Tmp):
    def fake_kernel(self):
        self.write('src/Makefile', FAKE_MAKEFILE)
        self.write('src/kernel/configs/kvm_guest.config', 'CONFIG_KVM_G=y\n')
        self.write('src/scripts/kconfig/merge_config.sh', FAKE_MERGE, 0o755)
        self.write('src/kernel/a.c', 'int a(void)\n{\n\treturn 1;\n}\n')
        self.write('src/kernel/b.c', 'int b(void)\n{\n\treturn 2;\n}\n')
        return os.path.join(self.dir, 'src')

    def snapshot(self, root):
        """{path: (content, mtime_ns)} of every file under root."""
        out = {}
        for d, _, files in os.walk(root):
            for f in files:
                p = os.path.join(d, f)
                with open(p, 'rb') as fh:
                    out[os.path.relpath(p, root)] = (
                        fh.read(), os.stat(p).st_mtime_ns)
        return out

    def test_patched_files(self):
        text = ('header\n--- a/kernel/sched/rt.c\t2026-01-01\n'
                '+++ b/kernel/sched/rt.c\t2026-01-01\n@@ -1 +1 @@\n'
                '--- /dev/null\n+++ b/kernel/new.c\n@@ -0,0 +1 @@\n'
                '--- a/kernel/sched/rt.c\n+++ b/kernel/sched/rt.c\n')
        self.assertEqual(ik.patched_files(text),
                         ['kernel/sched/rt.c', 'kernel/new.c'])
        self.assertEqual(ik.patched_files('--- a\n+++ b\n'), [])
        # a removed line that starts with '-- ' is not a file header
        self.assertEqual(ik.patched_files('--- x/y\n-- z\n'), [])

    def test_key(self):
        frags = TestCacheKey.FRAGS
        k = ik.cache_key('7.2.13-1', frags, 'pe')
        p = [('tests/faults/rtmutex-no-boost.patch', A_PATCH.encode())]
        kp = ik.cache_key('7.2.13-1', frags, 'pe', patches=p)
        # without patches the key is as it was: the base's tree stays
        self.assertEqual(k, ik.cache_key('7.2.13-1', frags, 'pe',
                                         patches=[]))
        self.assertRegex(kp, r'^7\.2\.13-1-pe\+rtmutex-no-boost-[0-9a-f]{16}$')
        self.assertNotEqual(k[-16:], kp[-16:])
        other = [(p[0][0], A_PATCH.replace('0;', '2;').encode())]
        self.assertNotEqual(kp, ik.cache_key('7.2.13-1', frags, 'pe',
                                             patches=other))
        two = ik.cache_key('7.2.13-1', frags, 'pe', patches=p + other)
        self.assertRegex(two, r'\+rtmutex-no-boost\+1-')
        # the order of a series counts
        self.assertNotEqual(two[-16:], ik.cache_key(
            '7.2.13-1', frags, 'pe', patches=other + p)[-16:])
        # the header patch skips is not the kernel: the key is the same
        reworded = A_PATCH.replace('Breaks: nothing', 'Breaks: all')
        self.assertEqual(kp, ik.cache_key('7.2.13-1', frags, 'pe', patches=[
            (p[0][0], reworded.encode())]))
        self.assertEqual(ik.patch_body(A_PATCH.encode()),
                         A_PATCH[A_PATCH.index('--- a/'):].encode())
        self.assertEqual(ik.patch_body(b'diff -up a/x b/x\n--- a/x\n'),
                         b'diff -up a/x b/x\n--- a/x\n')
        self.assertEqual(ik.patch_body(b'--- x\n-- y\n'), b'--- x\n-- y\n')
        self.assertEqual(ik.patch_body(b'words\n--- x\n+++ y\n'),
                         b'--- x\n+++ y\n')
        # the same content elsewhere is the same kernel
        self.assertEqual(kp, ik.cache_key('7.2.13-1', frags, 'pe', patches=[
            ('/elsewhere/rtmutex-no-boost.patch', A_PATCH.encode())]))

    @unittest.skipUnless(shutil.which('patch') and shutil.which('cp'),
                         'no patch or cp')
    def test_overlay_keeps_the_pristine_tree(self):
        src = self.fake_kernel()
        before = self.snapshot(src)
        pf = self.write('a.patch', A_PATCH)
        dest = os.path.join(self.dir, 'ovl')
        ik.make_overlay(src, dest)
        ik.apply_patches(dest, [(pf, A_PATCH.encode())])
        self.assertEqual(self.snapshot(src), before)
        with open(os.path.join(dest, 'kernel/a.c')) as f:
            self.assertIn('return 0;', f.read())
        # the untouched file is the pristine one (a link, not a copy);
        # the patched one is the overlay's own
        same = os.path.samefile
        self.assertTrue(same(os.path.join(src, 'kernel/b.c'),
                             os.path.join(dest, 'kernel/b.c')))
        self.assertFalse(same(os.path.join(src, 'kernel/a.c'),
                              os.path.join(dest, 'kernel/a.c')))
        self.assertEqual(os.stat(os.path.join(src, 'kernel/a.c')).st_nlink,
                         1)
        self.assertFalse([f for f in os.listdir(os.path.join(dest, 'kernel'))
                          if f.endswith(('.orig', '.rej', '.invlab-copy'))])

    @unittest.skipUnless(shutil.which('patch') and shutil.which('cp'),
                         'no patch or cp')
    def test_does_not_apply(self):
        src = self.fake_kernel()
        before = self.snapshot(src)
        bad = A_PATCH.replace('return 1;', 'return 7;')
        pf = self.write('faults/bad.patch', bad)
        dest = os.path.join(self.dir, 'ovl')
        ik.make_overlay(src, dest)
        with self.assertRaises(ik.Fail) as e:
            ik.apply_patches(dest, [(pf, bad.encode())])
        self.assertEqual(e.exception.status, ik.EXIT_USAGE)
        self.assertIn('--patch %s does not apply' % pf, str(e.exception))
        self.assertIn('FAILED', str(e.exception))
        self.assertEqual(self.snapshot(src), before)

    def test_unreadable_or_not_a_diff(self):
        src = self.fake_tree()
        for name, data, said in [
                ('none.patch', None, 'No such file'),
                ('text.patch', 'only words\n', 'not a unified diff')]:
            path = os.path.join(self.dir, name)
            if data is not None:
                self.write(name, data)
            rc, out, err = run_main(['--source', src, '--cache',
                                     os.path.join(self.dir, 'cache'),
                                     '--patch', path, '--print-path'])
            self.assertEqual((rc, out), (2, ''), err)
            self.assertIn('--patch %s: %s' % (path, said), err)

    fake_tree = TestArgs.fake_tree

    @unittest.skipUnless(shutil.which('make'), 'no make')
    def test_print_path(self):
        src = self.fake_tree()
        cache = os.path.join(self.dir, 'cache')
        pf = self.write('f.patch', A_PATCH)
        argv = ['--source', src, '--cache', cache, '--print-path']
        frags = [(p, d) for p, d, _ in ik.load_fragments(
            ik.fragment_files('pe'))]
        base = os.path.join(cache, ik.cache_key('7.2.13', frags, 'pe'))
        for rel in ('arch/x86/boot/bzImage', '.config', ik.INFO):
            self.write(os.path.relpath(os.path.join(base, rel), self.dir),
                       'x')
        self.assertEqual(run_main(argv), (0, base + '\n', ''))
        # the base built is not the patched kernel
        self.assertEqual(run_main(argv + ['--patch', pf]), (1, '', ''))

    def run_build(self, argv):
        rc, out, err = run_main(argv)
        self.assertEqual(rc, 0, err)
        tree = out.strip()
        with open(os.path.join(tree, ik.INFO)) as f:
            return tree, json.load(f), err

    @unittest.skipIf(ik.missing_tools(ik.TOOLS + ik.PATCH_TOOLS),
                     'a build tool is missing')
    def test_incremental(self):
        src = self.fake_kernel()
        before = self.snapshot(src)
        cache = os.path.join(self.dir, 'cache')
        pf = self.write('faults/a-returns-0.patch', A_PATCH)
        argv = ['--source', src, '--cache', cache, '--nice', '0', '-j', '1']
        # the base first, since its objects are not kept
        tree, info, err = self.run_build(argv + ['--patch', pf])
        self.assertIn('building it first', err)
        self.assertEqual(info['files_compiled'], 1, err)
        self.assertEqual(info['patches'][0]['files'], ['kernel/a.c'])
        self.assertRegex(os.path.basename(tree), r'\+a-returns-0-')
        with open(os.path.join(tree, 'arch/x86/boot/bzImage')) as f:
            image = f.read()
        self.assertIn('return 0;', image)
        self.assertIn('return 2;', image)
        base = os.path.join(cache, info['base'])
        objects = os.path.join(cache, ik.OBJECTS, info['base'])
        self.assertTrue(ik.has_objects(objects))
        with open(os.path.join(base, ik.INFO)) as f:
            self.assertEqual(json.load(f)['files_compiled'], 2)
        with open(os.path.join(base, 'arch/x86/boot/bzImage')) as f:
            self.assertIn('return 1;', f.read())
        kept = self.snapshot(objects)
        # a second fault on the kept objects: only its file compiled
        pb = self.write('faults/b.patch', A_PATCH.replace('a.c', 'b.c')
                        .replace('a(void)', 'b(void)')
                        .replace('return 1;', 'return 2;'))
        tree2, info2, err = self.run_build(argv + ['--patch', pb])
        self.assertNotIn('building it first', err)
        self.assertEqual(info2['files_compiled'], 1, err)
        with open(os.path.join(tree2, 'arch/x86/boot/bzImage')) as f:
            image = f.read()
        self.assertIn('return 1;', image)
        self.assertNotIn('return 2;', image)
        # neither the pristine tree nor the base's objects were written to
        self.assertEqual(self.snapshot(src), before)
        self.assertEqual(self.snapshot(objects), kept)
        # cached, and nothing left behind
        self.assertEqual(run_main(argv + ['--patch', pb])[:2],
                         (0, tree2 + '\n'))
        self.assertFalse([n for n in os.listdir(cache)
                          if n.startswith(ik.TMP_PREFIX)])

    @unittest.skipIf(ik.missing_tools(ik.TOOLS + ik.PATCH_TOOLS),
                     'a build tool is missing')
    def test_does_not_apply_exits_2(self):
        src = self.fake_kernel()
        cache = os.path.join(self.dir, 'cache')
        pf = self.write('bad.patch', A_PATCH.replace('return 1;', 'x'))
        rc, out, err = run_main(['--source', src, '--cache', cache,
                                 '--nice', '0', '--patch', pf])
        self.assertEqual((rc, out), (2, ''), err)
        self.assertIn('--patch %s does not apply' % pf, err)
        # found before anything was built, and nothing left
        self.assertEqual(sorted(os.listdir(cache)), ['.lock'])


if __name__ == '__main__':
    unittest.main(verbosity=1)
