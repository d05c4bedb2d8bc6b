#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Unit tests of invlab-kernel's pieces, without fetching or building a
# kernel: the fragment parser, the merge of fragments and the check of the
# final .config against it (a dropped option is an error), the cache key,
# the repository's fragments themselves, the private apt sources, the
# slim tree and the command line's errors.
#
#   python3 tests/test-kernel.py tools/invlab-kernel build/tools/invlab-vm \
#           docs/man/invlab-kernel.1

import importlib.machinery
import importlib.util
import io
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
        for t in ('make', 'gcc', 'flex', 'bison', 'bc', 'gelf.h',
                  'openssl/ssl.h', 'xz', 'dpkg-deb', 'apt-get'):
            self.assertIn(t, names)


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


if __name__ == '__main__':
    unittest.main(verbosity=1)
