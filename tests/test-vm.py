#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Unit tests of invlab-vm's pieces, without booting a VM: the initramfs
# (cpio newc read back), the guest's init and run scripts, module load
# order, kernel resolution, argument handling, the static-ELF check, and
# result retrieval (status, verdicts, the matrix table, diagnosis).
#
#   python3 tests/test-vm.py build/tools/invlab-vm docs/man/invlab-vm.1

import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stderr

sys.dont_write_bytecode = True  # no __pycache__ beside the script
SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), '..', 'tools', 'invlab-vm')
MAN = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), '..', 'docs', 'man', 'invlab-vm.1')
loader = importlib.machinery.SourceFileLoader('invlab_vm', SCRIPT)
spec = importlib.util.spec_from_loader('invlab_vm', loader)
vm = importlib.util.module_from_spec(spec)
loader.exec_module(vm)


def read_cpio(data):
    """{name: (mode, data, (rdevmajor, rdevminor))} from a newc archive."""
    out, off = {}, 0
    while True:
        assert data[off:off + 6] == b'070701', 'bad magic at %d' % off
        f = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
             for i in range(13)]
        mode, size, rmaj, rmin, namesize = f[1], f[6], f[9], f[10], f[11]
        off += 110
        name = data[off:off + namesize - 1].decode()
        assert data[off + namesize - 1] == 0
        off += namesize
        off += -off % 4
        body = data[off:off + size]
        off += size
        off += -off % 4
        if name == 'TRAILER!!!':
            return out
        out[name] = (mode, body, (rmaj, rmin))


def minimal_elf(interp):
    """A 64-bit little-endian ELF header with one program header: PT_INTERP
    (3) when interp, else PT_LOAD (1)."""
    ehdr = bytearray(64)
    ehdr[0:4] = b'\x7fELF'
    ehdr[4], ehdr[5], ehdr[6] = 2, 1, 1
    struct.pack_into('<HHIQQQIHHHHHH', ehdr, 16, 2, 62, 1, 0, 64, 0, 0, 64,
                     56, 1, 0, 0, 0)
    phdr = struct.pack('<IIQQQQQQ', 3 if interp else 1, 0, 0, 0, 0, 0, 0, 0)
    return bytes(ehdr) + phdr


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='test-vm.')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, data, mode=0o644):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb' if isinstance(data, bytes) else 'w') as f:
            f.write(data)
        os.chmod(path, mode)
        return path


class TestInitramfs(Tmp):
    def build(self, runs, modules=(), job=None, kconfig=None):
        bb = self.write('busybox', b'BUSYBOX', 0o755)
        progs = {p: self.write('prog/' + p, p.encode(), 0o755)
                 for p in vm.PROGRAMS}
        fs = vm.build_initramfs(bb, progs, list(modules), runs, job, kconfig)
        return read_cpio(fs.archive())

    def test_contents(self):
        files = self.build([['/bin/pi-classic', '--json', '/results/x.json']],
                           modules=[('virtio', b'V'), ('9p', b'N')])
        self.assertEqual(files['bin/busybox'][1], b'BUSYBOX')
        self.assertEqual(files['bin/busybox'][0], 0o100755)
        for p in vm.PROGRAMS:
            self.assertEqual(files['bin/' + p][1], p.encode())
            self.assertEqual(files['bin/' + p][0] & 0o111, 0o111)
        # the console device must exist before devtmpfs is mounted
        self.assertEqual(files['dev/console'][0], 0o020600)
        self.assertEqual(files['dev/console'][2], (5, 1))
        self.assertEqual(files['bin/sh'][0] & 0o170000, 0o120000)
        self.assertEqual(files['bin/sh'][1], b'busybox')
        self.assertEqual(files['lib/modules/virtio.ko'][1], b'V')
        self.assertEqual(files['init'][0], 0o100755)
        # every parent directory precedes its entries
        names = list(files)
        for n in names:
            parent = os.path.dirname(n)
            if parent:
                self.assertIn(parent, files)
                self.assertLess(names.index(parent), names.index(n))

    def test_archive_padding(self):
        fs = vm.Initramfs()
        fs.file('a', b'xyz')
        data = fs.archive()
        self.assertEqual(len(data) % 512, 0)
        self.assertEqual(read_cpio(data)['a'][1], b'xyz')

    def test_init_mounts_and_order(self):
        init = self.build([['/bin/kmutex']],
                          modules=[('virtio', b''), ('9p', b'')])['init'][1]
        init = init.decode()
        for m in ('-t proc', '-t sysfs', '-t devtmpfs', '-t tmpfs tmp /tmp',
                  '-t tmpfs -o mode=0755 run /run',
                  '-t cgroup2 cgroup2 /sys/fs/cgroup',
                  '-t tracefs tracefs /sys/kernel/tracing',
                  '-t debugfs debugfs /sys/kernel/debug',
                  '-t 9p -o trans=virtio'):
            self.assertIn('mount ' + m, init)
        # modules in the order given, before the share is mounted
        self.assertLess(init.index('insmod /lib/modules/virtio.ko'),
                        init.index('insmod /lib/modules/9p.ko'))
        self.assertLess(init.index('insmod /lib/modules/9p.ko'),
                        init.index('mount -t 9p'))
        self.assertIn(vm.INIT_MARK, init)
        # the scheduler's events on once, after tracefs is mounted and
        # before any run (no kernel-text patching while runs go on)
        keep = '/sys/kernel/tracing/instances/keep-events'
        for e in vm.KEEP_EVENTS:
            self.assertIn('echo 1 >%s/events/sched/%s/enable' % (keep, e),
                          init)
        self.assertIn('echo 0 >%s/tracing_on' % keep, init)
        self.assertLess(init.index('mount -t tracefs'),
                        init.index('mkdir ' + keep))
        self.assertLess(init.index('mkdir ' + keep), init.index('sh /run.sh'))
        self.assertLess(init.index('sh /run.sh'), init.index('>/results/status'))
        self.assertTrue(init.rstrip().endswith('reboot -f'))
        # the counters are not turned off for every run: the init says
        # whether it runs under KVM, before the runs
        self.assertNotIn('export INVLAB_COUNTERS=off', init)
        self.assertIn("grep -q 'Hypervisor detected: KVM'", init)
        self.assertLess(init.index('INVLAB_VM_KVM=1'), init.index('sh /run.sh'))

    def test_counters_per_run(self):
        self.assertIn('sched-messaging', vm.PROGRAMS)
        script = vm.run_script([['/bin/kmutex', '-d', '1s'],
                                ['/bin/sched-messaging', '-g', '10']])
        runs = [l for l in script.splitlines() if l.startswith('( ')]
        self.assertEqual(len(runs), 2)
        # without KVM: /proc only, set before the program starts
        for l in runs:
            self.assertIn('[ "$INVLAB_VM_KVM" = 1 ] || { export '
                          'INVLAB_COUNTERS=proc;', l)
            self.assertLess(l.index('INVLAB_COUNTERS=proc'),
                            l.index('/bin/'))

    def test_counters_guard_runs(self):
        # the guard as the guest's shell runs it: /proc only without KVM,
        # perf (the variable unset) with it
        guard = vm.counters_guard('/bin/sched-messaging')
        for kvm, want in (('0', 'proc'), ('1', 'unset'), ('', 'proc')):
            r = subprocess.run(
                ['sh', '-c', guard + 'echo "${INVLAB_COUNTERS:-unset}"'],
                env={'INVLAB_VM_KVM': kvm, 'PATH': os.environ['PATH']},
                stdout=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.stdout.splitlines()[-1], want)

    def test_job_and_kconfig(self):
        job = self.write('x.job', 'name = x\n')
        cfg = self.write('cfg', 'CONFIG_HZ=250\n')
        files = self.build([['/bin/invlab-run', '/jobs/x.job']], job=job,
                           kconfig=cfg)
        self.assertEqual(files['jobs/x.job'][1], b'name = x\n')
        self.assertEqual(files['kconfig'][1], b'CONFIG_HZ=250\n')

    def test_run_script_quoting(self):
        files = self.build([['/bin/invlab-run', '/jobs/a b.job', "it's"]])
        script = files['run.sh'][1].decode()
        self.assertIn("/bin/invlab-run '/jobs/a b.job' 'it'\"'\"'s'", script)
        self.assertIn('/results/statuses', script)

    def test_run_script_status(self):
        """The guest's combination of statuses, run with the host's sh."""
        if not shutil.which('sh') or not shutil.which('awk'):
            self.skipTest('no sh/awk')
        # docs/exit-status.md: 2, 99, another status that is no verdict,
        # 1, 3, 77, 0; a column without a result (99) is not hidden
        # behind another's FAIL
        for statuses, want in (([0, 0], 0), ([0, 77], 77), ([77, 1, 99], 99),
                               ([0, 99], 99), ([0], 0), ([0, 3], 3),
                               ([77, 3], 3), ([3, 1], 1), ([3, 99], 99),
                               ([1, 99], 99), ([99, 1], 99), ([1, 130], 130),
                               ([143, 130], 130), ([130, 99], 99),
                               ([2, 99, 1], 2), ([1, 77], 1), ([77, 0], 77)):
            res = os.path.join(self.dir, 'res%d' % want)
            os.makedirs(res, exist_ok=True)
            runs = [['sh', '-c', 'exit %d' % s] for s in statuses]
            script = vm.run_script(runs).replace('/results', res)
            script = script.replace('/tmp/rc', os.path.join(res, 'rc'))
            r = subprocess.run(['sh', '-c', script], stdout=subprocess.DEVNULL)
            self.assertEqual(r.returncode, want, statuses)
            self.assertEqual(vm.combine_status(statuses), want)
            if os.path.exists(os.path.join(res, 'statuses')):
                os.unlink(os.path.join(res, 'statuses'))


    def test_watchdog(self):
        """A run still going at the watchdog has its threads shown; the
        watchdog is stopped after each run; none without it."""
        runs = [['/bin/pi-classic'], ['/bin/kmutex']]
        self.assertNotIn('sysrq', vm.run_script(runs))
        text = vm.run_script(runs, watchdog=240)
        self.assertEqual(text.count('sh /watchdog.sh 240 '), 2)
        self.assertEqual(text.count('kill "$wd"'), 2)
        self.assertIn('/stack', vm.WATCHDOG_SH)
        self.assertIn('echo w >/proc/sysrq-trigger', vm.WATCHDOG_SH)
        self.assertLess(text.index('sh /watchdog.sh'),
                        text.index('/bin/pi-classic;'))
        self.assertEqual(vm.guest_watchdog(300), 240)
        self.assertEqual(vm.guest_watchdog(30), 10)
        if not shutil.which('sh'):
            return
        # run by the host's sh: a run past the watchdog gets the dump
        res = os.path.join(self.dir, 'wd')
        os.makedirs(res, exist_ok=True)
        wd = os.path.join(res, 'watchdog.sh')
        with open(wd, 'w') as f:
            f.write(vm.WATCHDOG_SH.replace('echo w >/proc/sysrq-trigger',
                                           'true'))
        script = vm.run_script([['sleep', '2']], watchdog=1)
        script = script.replace('/results', res).replace(
            '/tmp/rc', os.path.join(res, 'rc')).replace(
            '>/dev/console', '>' + os.path.join(res, 'console')).replace(
            '/watchdog.sh', wd)
        subprocess.run(['sh', '-c', script], stdout=subprocess.DEVNULL)
        with open(os.path.join(res, 'console')) as f:
            out = f.read()
        self.assertIn('still going after 1 s', out)
        self.assertIn('state', out)


class TestRuns(unittest.TestCase):
    def test_program_gets_json(self):
        runs = vm.guest_runs(('program', ['pi-classic', '-d', '1s']), {},
                             None, set())
        self.assertEqual(runs, [['/bin/pi-classic', '-d', '1s', '--json',
                                 '/results/pi-classic.json']])

    def test_own_json_kept(self):
        runs = vm.guest_runs(('program', ['kmutex', '--json=/results/k.json']),
                             {}, None, set())
        self.assertEqual(runs, [['/bin/kmutex', '--json=/results/k.json']])

    def test_kconfig_only_when_supported(self):
        mode = ('program', ['pi-classic'])
        self.assertNotIn('--kconfig',
                         vm.guest_runs(mode, {}, '/c', set())[0])
        self.assertNotIn('--kconfig',
                         vm.guest_runs(mode, {}, None, {'pi-classic'})[0])
        run = vm.guest_runs(mode, {}, '/c', {'pi-classic'})[0]
        self.assertEqual(run[-2:], ['--kconfig', '/kconfig'])

    def test_job(self):
        runs = vm.guest_runs(('job', '/x/dl-basic.job'), {}, None, set())
        self.assertEqual(runs, [['/bin/invlab-run', '/jobs/dl-basic.job',
                                 '--json', '/results/dl-basic.json']])

    def test_suite(self):
        runs = vm.guest_runs(('suite', ['-d', '1s']), {}, None, set())
        self.assertEqual([r[0] for r in runs],
                         ['/bin/' + s[0] for s in vm.SUITE])
        names = [r[r.index('--json') + 1] for r in runs]
        self.assertEqual(len(set(names)), len(names))
        for r in runs:
            self.assertIn('-d', r)


class TestGuestTrace(unittest.TestCase):
    def test_script(self):
        runs = [['/bin/pi-classic'], ['/bin/kmutex']]
        plain = vm.run_script(runs)
        self.assertNotIn('tracing', plain)
        text = vm.run_script(runs, trace=True)
        i = 'instances/invlab-vm'
        self.assertIn('mkdir /sys/kernel/tracing/' + i, text)
        self.assertIn('echo mono >', text)
        for e in vm.GUEST_TRACE_EVENTS:
            self.assertIn('/events/%s/enable' % e, text)
        self.assertIn('timer/hrtimer_expire_entry', vm.GUEST_TRACE_EVENTS)
        # on before the first run, off and saved after the last, before
        # the combined status
        on = text.index(i + '/tracing_on')
        off = text.index('echo 0 >')
        self.assertLess(on, text.index('/bin/pi-classic'))
        self.assertLess(text.rindex('/bin/kmutex'), off)
        self.assertLess(off, text.index('/results/trace.txt'))
        self.assertLess(text.index('/results/trace.txt'), text.index('rc=$('))
        self.assertIn('rmdir', text)

    def test_option(self):
        self.assertFalse(vm.parse_args(['--kernel', 'A', '--suite'])
                         .guest_trace)
        self.assertTrue(vm.parse_args(['--kernel', 'A', '--guest-trace',
                                       '--suite']).guest_trace)


class TestProgramOptions(Tmp):
    def test_help_scanned(self):
        new = self.write('new', '#!/bin/sh\necho "  --kconfig=FILE  the config"\n'
                         'echo "  -d, --duration=TIME"\n', 0o755)
        old = self.write('old', '#!/bin/sh\necho "  -d, --duration=TIME"\n',
                         0o755)
        self.assertIn('--kconfig', vm.program_options(new))
        self.assertNotIn('--kconfig', vm.program_options(old))
        self.assertIn('--duration', vm.program_options(old))
        self.assertEqual(vm.program_options(os.path.join(self.dir, 'no')),
                         set())


class TestRunTool(Tmp):
    def test_interrupted_group_killed(self):
        """An interrupted tool takes its children with it (dpkg-deb's tar)."""
        pidfile = os.path.join(self.dir, 'pid')

        class Interrupt(Exception):
            pass

        def ring(signum, frame):
            raise Interrupt()

        old = signal.signal(signal.SIGALRM, ring)
        try:
            with self.assertRaises(Interrupt):
                signal.setitimer(signal.ITIMER_REAL, 0.5)
                vm.run_tool(['sh', '-c', 'sleep 60 & echo $! >%s; wait'
                             % pidfile])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        with open(pidfile) as f:
            pid = int(f.read())
        # killed: gone, or a zombie until its new parent reaps it
        for _ in range(100):
            try:
                with open('/proc/%d/stat' % pid) as f:
                    state = f.read().rsplit(')', 1)[1].split()[0]
            except OSError:
                state = None
            if state in (None, 'Z', 'X'):
                break
            time.sleep(0.05)
        self.assertIn(state, (None, 'Z', 'X'))

    def test_result(self):
        r = vm.run_tool(['sh', '-c', 'echo out; exit 3'],
                        stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual((r.returncode, r.stdout), (3, 'out\n'))


class TestArgs(unittest.TestCase):
    def parse(self, argv):
        return vm.parse_args(argv)

    def usage(self, argv):
        with self.assertRaises(vm.UsageError):
            self.parse(argv)

    def test_program_after_dashes(self):
        a = self.parse(['--kernel', 'A', '--kernel', 'B', '--append',
                        'preempt=full', '--', 'pi-classic', '-d', '1s',
                        '--kernel', 'x'])
        self.assertEqual(a.kernel, ['A', 'B'])
        self.assertEqual(a.append, 'preempt=full')
        # what follows -- is the guest program's, even an option of ours
        self.assertEqual(a.mode, ('program', ['pi-classic', '-d', '1s',
                                              '--kernel', 'x']))
        self.assertEqual(a.cpus, vm.DEFAULT_CPUS)
        self.assertEqual(a.memory, vm.DEFAULT_MEMORY)
        self.assertEqual(a.timeout, vm.DEFAULT_TIMEOUT)
        self.assertEqual(a.accel, 'auto')

    def test_exactly_one_run(self):
        self.usage(['--kernel', 'A'])
        self.usage(['--kernel', 'A', '--suite', '--', 'pi-classic'])
        self.usage(['--kernel', 'A', '--', 'ls'])
        self.usage(['--', 'pi-classic'])  # no kernel
        self.usage(['--kernel', 'A', '--job', '/nonexistent.job'])
        self.usage(['--kernel', 'A', '-d', '1s', '--', 'pi-classic'])

    def test_ranges(self):
        base = ['--kernel', 'A', '--suite']
        self.assertEqual(self.parse(base + ['--memory', '2G']).memory, 2048)
        self.assertEqual(self.parse(base + ['--memory', '512']).memory, 512)
        self.assertEqual(self.parse(base + ['--memory', '128M']).memory, 128)
        self.usage(base + ['--memory', '127M'])
        self.usage(base + ['--memory', 'lots'])
        self.assertEqual(self.parse(base + ['--cpus', '64']).cpus, 64)
        self.usage(base + ['--cpus', '0'])
        self.usage(base + ['--cpus', '65'])
        self.assertEqual(self.parse(base + ['--timeout', '10']).timeout, 10)
        self.usage(base + ['--timeout', '9'])
        self.usage(base + ['--accel', 'hvf'])
        self.assertEqual(self.parse(base).boots, vm.DEFAULT_BOOTS)
        self.assertEqual(vm.DEFAULT_BOOTS, 1)
        self.assertEqual(self.parse(base + ['--boots', '5']).boots, 5)
        self.assertEqual(self.parse(base + ['--boots', '1']).boots, 1)
        self.assertEqual(self.parse(base + ['--boots', '100']).boots, 100)
        self.usage(base + ['--boots', '0'])
        self.usage(base + ['--boots', '101'])
        self.usage(base + ['--boots', 'many'])
        a = self.parse(base + ['-d', '2s'])
        self.assertEqual(a.mode, ('suite', ['-d', '2s']))

    def test_usage_exit_status(self):
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(vm.main(['--kernel', 'A', '--cpus', '0',
                                      '--suite']), vm.EXIT_USAGE)
        self.assertIn('1..64', err.getvalue())


class TestManPage(unittest.TestCase):
    def test_every_option_documented(self):
        with open(MAN) as f:
            page = f.read().replace('\\-', '-')
        opts = [o for a in vm.make_parser()._actions for o in a.option_strings]
        self.assertIn('--kernel', opts)
        for o in opts:
            self.assertIn('\\fB' + o + '\\fR', page, o)


class TestKernel(Tmp):
    def test_tree(self):
        self.write('linux/arch/x86/boot/bzImage', b'MZ')
        self.write('linux/.config', 'CONFIG_9P_FS=y\n')
        self.write('linux/include/config/kernel.release', '6.18.0-rc1\n')
        k = vm.resolve_kernel(os.path.join(self.dir, 'linux'), self.dir)
        self.assertEqual(k.kind, 'tree')
        self.assertTrue(k.image.endswith('arch/x86/boot/bzImage'))
        self.assertTrue(k.config.endswith('.config'))
        self.assertEqual(k.release, '6.18.0-rc1')
        self.assertEqual(k.label, '6.18.0-rc1')
        # '.' is labelled by the directory it is, never '.'
        os.unlink(os.path.join(self.dir, 'linux/include/config/kernel.release'))
        cwd = os.getcwd()
        os.chdir(os.path.join(self.dir, 'linux'))
        try:
            k = vm.resolve_kernel('.', self.dir)
        finally:
            os.chdir(cwd)
        self.assertEqual(k.label, 'linux')

    def test_tree_image(self):
        # vng -r takes a tree's bzImage for the tree; so does --kernel
        self.write('linux/arch/x86/boot/bzImage', b'MZ')
        self.write('linux/.config', 'CONFIG_9P_FS=y\n')
        self.write('linux/include/config/kernel.release', '6.18.0-rc1\n')
        img = os.path.join(self.dir, 'linux/arch/x86/boot/bzImage')
        k = vm.resolve_kernel(img, self.dir)
        self.assertEqual((k.kind, k.release, k.spec), ('tree', '6.18.0-rc1',
                                                       img))
        self.assertEqual(k.config, os.path.join(self.dir, 'linux/.config'))
        self.assertEqual(k.modules, os.path.join(self.dir, 'linux'))
        # without the tree's .config it is an image alone
        os.unlink(os.path.join(self.dir, 'linux/.config'))
        self.assertEqual(vm.resolve_kernel(img, self.dir).kind, 'image')

    def test_vng_built_tree(self):
        # vng -b builds in the tree and links its modules under
        # .virtme_mods, whose 'build' points back at the tree: each
        # module is found once, in the tree, and the walk ends
        t = os.path.join(self.dir, 'linux')
        self.write('linux/arch/x86/boot/bzImage', b'MZ')
        self.write('linux/.config', 'CONFIG_VIRTIO_PCI=y\n'
                   'CONFIG_NET_9P_VIRTIO=m\nCONFIG_9P_FS=m\n')
        self.write('linux/net/9p/9pnet.ko', b'\0depends=\0')
        self.write('linux/net/9p/9pnet_virtio.ko', b'\0depends=9pnet\0')
        self.write('linux/fs/9p/9p.ko', b'\0depends=9pnet\0')
        mods = os.path.join(t, '.virtme_mods/lib/modules/0.0.0')
        os.makedirs(os.path.join(mods, 'kernel/fs/9p'))
        os.symlink(t, os.path.join(mods, 'build'))
        os.symlink(os.path.join(t, 'fs/9p/9p.ko'),
                   os.path.join(mods, 'kernel/fs/9p/9p.ko'))
        k = vm.resolve_kernel(t, self.dir)
        self.assertEqual(k.kind, 'tree')
        self.assertEqual(vm.index_modules(k.modules), {
            '9pnet': os.path.join(t, 'net/9p/9pnet.ko'),
            '9pnet_virtio': os.path.join(t, 'net/9p/9pnet_virtio.ko'),
            '9p': os.path.join(t, 'fs/9p/9p.ko')})
        self.assertEqual([n for n, _ in vm.share_modules(k)],
                         ['9pnet', '9pnet_virtio', '9p'])

    def test_arm64_tree(self):
        self.write('la/arch/arm64/boot/Image', b'ARMd')
        k = vm.resolve_kernel(os.path.join(self.dir, 'la'), self.dir, 'arm64')
        self.assertTrue(k.image.endswith('arch/arm64/boot/Image'))
        # an x86 tree's image is not an arm64 one
        with self.assertRaises(vm.UsageError) as e:
            vm.resolve_kernel(os.path.join(self.dir, 'la'), self.dir)
        self.assertIn('arch/x86/boot/bzImage', str(e.exception))

    def test_not_a_tree(self):
        os.makedirs(os.path.join(self.dir, 'src'))
        with self.assertRaises(vm.UsageError):
            vm.resolve_kernel(os.path.join(self.dir, 'src'), self.dir)
        with self.assertRaises(vm.UsageError):
            vm.resolve_kernel(os.path.join(self.dir, 'nope'), self.dir)

    def test_image_with_config_beside(self):
        # a release no machine has in /lib/modules, which is looked in
        # last: the test must not depend on the kernels installed here
        img = self.write('boot/vmlinuz-0.0.0-invlab-test', b'MZ')
        self.write('boot/config-0.0.0-invlab-test', 'CONFIG_HZ=250\n')
        k = vm.resolve_kernel(img, self.dir)
        self.assertEqual(k.kind, 'image')
        self.assertEqual(k.release, '0.0.0-invlab-test')
        self.assertTrue(k.config.endswith('config-0.0.0-invlab-test'))
        self.assertIsNone(k.modules)
        # unpacked elsewhere: the modules in ../lib/modules/RELEASE
        os.makedirs(os.path.join(self.dir, 'lib/modules/0.0.0-invlab-test'))
        k = vm.resolve_kernel(img, self.dir)
        self.assertEqual(k.modules, os.path.join(
            self.dir, 'lib/modules/0.0.0-invlab-test'))

    def test_parse_config(self):
        cfg = vm.parse_config('CONFIG_HZ=250\n# CONFIG_9P_FS is not set\n'
                              'CONFIG_LOCALVERSION="-rt"\nCONFIG_VIRTIO=m\n')
        self.assertEqual(cfg, {'CONFIG_HZ': '250', 'CONFIG_9P_FS': 'n',
                               'CONFIG_LOCALVERSION': '-rt',
                               'CONFIG_VIRTIO': 'm'})

    def ko(self, name, depends):
        return self.write('mods/kernel/%s.ko' % name,
                          b'\0license=GPL\0depends=%s\0vermagic=6.1\0' %
                          depends.encode())

    def test_modules_from_config(self):
        self.ko('virtio', '')
        self.ko('virtio_ring', '')
        self.ko('virtio_pci', 'virtio,virtio_ring')
        self.ko('9pnet', '')
        self.ko('9pnet_virtio', 'virtio_ring,9pnet,virtio')
        self.ko('9p', '9pnet,netfs')
        self.ko('netfs', '')
        self.ko('unrelated', '')
        k = vm.Kernel('x')
        k.modules = os.path.join(self.dir, 'mods')
        k.config = self.write('config', 'CONFIG_VIRTIO_PCI=m\n'
                              'CONFIG_NET_9P_VIRTIO=m\nCONFIG_9P_FS=m\n')
        names = [n for n, _ in vm.share_modules(k)]
        self.assertEqual(sorted(names), sorted(
            ['virtio', 'virtio_ring', 'virtio_pci', '9pnet', '9pnet_virtio',
             '9p', 'netfs']))
        for mod, dep in (('virtio_pci', 'virtio'), ('9p', 'netfs'),
                         ('9pnet_virtio', '9pnet'), ('9p', '9pnet')):
            self.assertLess(names.index(dep), names.index(mod))
        # built in: nothing to load
        k.config = self.write('config', 'CONFIG_VIRTIO_PCI=y\n'
                              'CONFIG_NET_9P_VIRTIO=y\nCONFIG_9P_FS=y\n')
        self.assertEqual(vm.share_modules(k), [])
        # missing: a clear error
        k.config = self.write('config', 'CONFIG_VIRTIO_PCI=y\n'
                              '# CONFIG_9P_FS is not set\n')
        with self.assertRaises(vm.VmError) as e:
            vm.share_modules(k)
        self.assertIn('CONFIG_9P_FS', str(e.exception))

    def test_compressed_module(self):
        import lzma
        p = self.write('m/kernel/virtio.ko.xz',
                       lzma.compress(b'\0depends=\0'))
        self.assertEqual(vm.read_module(p), b'\0depends=\0')
        self.assertEqual(vm.module_name(p), 'virtio')
        self.assertEqual(vm.module_name('/a/9pnet-virtio.ko'), '9pnet_virtio')

    def test_load_order_errors(self):
        with self.assertRaises(vm.VmError):
            vm.module_load_order(['a'], {'a': ['b'], 'b': ['a']})
        with self.assertRaises(vm.VmError):
            vm.module_load_order(['a'], {'a': ['missing']})
        self.assertEqual(vm.module_load_order(['c'], {'c': ['b'], 'b': ['a'],
                                                      'a': []}),
                         ['a', 'b', 'c'])

    def test_modinfo_depends(self):
        self.assertEqual(vm.modinfo_depends(b'\0depends=a,b\0x=y\0'),
                         ['a', 'b'])
        self.assertEqual(vm.modinfo_depends(b'\0depends=\0'), [])
        self.assertEqual(vm.modinfo_depends(b'nothing'), [])
        # a key merely ending in "depends" is not it
        self.assertEqual(vm.modinfo_depends(b'\0xdepends=q\0'), [])


class TestElf(Tmp):
    def test_machine(self):
        x86 = self.write('x86', minimal_elf(False))
        arm = bytearray(minimal_elf(False))
        struct.pack_into('<H', arm, 18, 183)
        arm = self.write('arm', bytes(arm))
        self.assertEqual(vm.elf_machine(x86), 62)
        self.assertEqual(vm.elf_machine(arm), 183)
        self.assertIsNone(vm.elf_machine(self.write('t', b'#!/bin/sh\n')))
        self.assertTrue(vm.elf_is_static(arm, 183))
        self.assertFalse(vm.elf_is_static(arm, 62))
        self.assertTrue(vm.elf_is_static(x86, 62))
        self.assertTrue(vm.elf_is_static(arm))

    def test_static(self):
        self.assertTrue(vm.elf_is_static(self.write('s', minimal_elf(False))))
        self.assertFalse(vm.elf_is_static(self.write('d', minimal_elf(True))))
        self.assertFalse(vm.elf_is_static(self.write('t', b'#!/bin/sh\n')))
        self.assertFalse(vm.elf_is_static(os.path.join(self.dir, 'none')))


class TestResults(Tmp):
    PI = {'program': 'pi-classic', 'runs': [
        {'configuration': 'none', 'verdict': 'FAIL', 'expected': 'FAIL'},
        {'configuration': 'inherit', 'verdict': 'PASS', 'expected': 'PASS'},
        {'configuration': 'protect', 'verdict': 'FAIL', 'expected': 'PASS'}]}
    DL = {'program': 'dl-mbwi', 'runs': [
        {'configuration': 'basic', 'checks': [
            {'validator': 'bandwidth', 'task': 'tauA', 'verdict': 'PASS',
             'expected': 'PASS'},
            {'validator': 'isolation', 'task': 'tauD', 'expected': 'PASS'}]},
        {'configuration': 'alone', 'verdict': None, 'expected': None}]}

    def test_read_back(self):
        self.write('out/status', '1\n')
        self.write('out/pi-classic.json', json.dumps(self.PI))
        self.write('out/dl-mbwi.json', json.dumps(self.DL))
        self.write('out/broken.json', '{"runs": [')
        self.write('out/vm.json', '{}')
        status, results = vm.read_results(os.path.join(self.dir, 'out'))
        self.assertEqual(status, 1)
        self.assertEqual(sorted(results), ['broken', 'dl-mbwi', 'pi-classic'])
        rows = vm.verdicts(results)
        self.assertIn(('broken', 'UNREADABLE', None), rows)
        self.assertIn(('pi-classic inherit', 'PASS', 'PASS'), rows)
        self.assertIn(('dl-mbwi basic bandwidth tauA', 'PASS', 'PASS'), rows)
        # no verdict is no verdict, never a pass
        self.assertIn(('dl-mbwi basic isolation tauD', 'NONE', 'PASS'), rows)
        # nothing expected and no verdict: a measurement, not judged
        self.assertIn(('dl-mbwi alone', '-', None), rows)
        # a job judged by nothing (validate = none), its expect PASS
        rows = vm.verdicts({'j': {'program': 'invlab-run', 'runs': [
            {'configuration': 'chain', 'expected': 'PASS', 'checks': []}]}})
        self.assertEqual(rows, [('invlab-run chain', '-', None)])
        # a run without checks that had a verdict to give: NONE, never a
        # pass, and not as expected
        rows = vm.verdicts({'j': {'program': 'invlab-run', 'runs': [
            {'configuration': 'chain', 'expected': 'PASS'}]}})
        self.assertEqual(rows, [('invlab-run chain', 'NONE', 'PASS')])

    def test_copy_results(self):
        share = os.path.join(self.dir, 'share')
        out = os.path.join(self.dir, 'out')
        self.write('share/status', '0\n')
        self.write('share/status.tmp', '1\n')
        self.write('share/tr/football.json', '{}')
        self.write('share/tr/deep/pinned.json', '{}')
        self.write('share/tr/half.json.tmp', '{')
        os.symlink('/etc/hostname', os.path.join(share, 'link'))
        os.symlink('/etc/hostname', os.path.join(share, 'tr', 'link'))
        os.makedirs(out)
        vm.copy_results(share, out)
        self.assertEqual(sorted(os.listdir(out)), ['status', 'tr'])
        self.assertTrue(
            os.path.isfile(os.path.join(out, 'tr', 'football.json')))
        self.assertTrue(os.path.isfile(
            os.path.join(out, 'tr', 'deep', 'pinned.json')))
        self.assertFalse(os.path.exists(os.path.join(out, 'tr',
                                                     'half.json.tmp')))
        # a link inside a directory is left behind too
        self.assertFalse(os.path.lexists(os.path.join(out, 'tr', 'link')))
        # again over the same directory: no error, the files kept
        vm.copy_results(share, out)
        self.assertTrue(
            os.path.isfile(os.path.join(out, 'tr', 'football.json')))

    def test_no_status(self):
        os.makedirs(os.path.join(self.dir, 'out'))
        self.assertEqual(vm.read_results(os.path.join(self.dir, 'out')),
                         (None, {}))
        self.write('out/status', 'garbage')
        self.assertIsNone(vm.read_results(os.path.join(self.dir, 'out'))[0])

    def test_matrix(self):
        a = vm.verdicts({'pi-classic': self.PI})
        b = vm.verdicts({'pi-classic': {'program': 'pi-classic', 'runs': [
            {'configuration': 'inherit', 'verdict': 'PASS',
             'expected': 'PASS'},
            {'configuration': 'info', 'verdict': 'UNDECIDED',
             'checks': [{'validator': 'pi', 'task': 'high',
                         'verdict': 'UNDECIDED', 'expected': 'NONE'}]}]}})
        text = vm.matrix_table([('6.1.0-57-amd64', {'accel': 'tcg'}, a),
                                ('6.1.0-57-rt-amd64', {'accel': 'kvm'}, b)])
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith('configuration'))
        self.assertIn('6.1.0-57-rt-amd64', lines[0])
        row = {l.split()[0] + ' ' + l.split()[1]: l.split()[2:]
               for l in lines if l.startswith('pi-classic')}
        self.assertEqual(row['pi-classic none'], ['FAIL', '-'])
        self.assertEqual(row['pi-classic inherit'], ['PASS', 'PASS'])
        # not as expected is marked; judged for information is not
        self.assertEqual(row['pi-classic protect'], ['FAIL!', '-'])
        info = [l for l in lines if l.startswith('pi-classic info pi high')]
        self.assertEqual(info[0].split()[-2:], ['-', 'UNDECIDED'])
        acc = [l for l in lines if l.startswith('accel')][0].split()
        self.assertEqual(acc, ['accel', 'tcg', 'kvm'])

    def test_fingerprint(self):
        p = self.write('output.log', 'invlab-vm$ x\nintro\n'
                       'kernel 6.1.0-57-rt-amd64, preempt=rt, HZ=250\nrest\n')
        self.assertEqual(vm.fingerprint_line(p),
                         'kernel 6.1.0-57-rt-amd64, preempt=rt, HZ=250')
        self.assertIsNone(vm.fingerprint_line(os.path.join(self.dir, 'no')))

    def test_diagnose(self):
        self.assertIsNone(vm.diagnose('', True, False, 60))
        panic = 'x\nKernel panic - not syncing: VFS: Unable to mount root\n'
        self.assertIn('panicked: VFS: Unable', vm.diagnose(panic, False,
                                                           False, 60))
        self.assertIn('did not reach init within 60 s',
                      vm.diagnose('Booting', False, True, 60))
        self.assertIn('before reaching init',
                      vm.diagnose('Booting', False, False, 60))
        self.assertIn('did not finish within 60 s',
                      vm.diagnose(vm.INIT_MARK, False, True, 60))
        self.assertIn('9p result share',
                      vm.diagnose(vm.INIT_MARK + '\ninvlab-init: cannot '
                                  'mount the result share', False, False, 60))

    def test_console_faults(self):
        """The kernel's reports quoted from their first line to their end
        marker; a healthy console has none."""
        self.assertEqual(vm.console_faults('Booting\n' + vm.INIT_MARK +
                                           '\nclocksource: tsc unstable\n'),
                         [])
        oops = ('[ 1.0] ok\n[ 1.2] Oops: int3: 0000 [#1] PREEMPT SMP\n'
                '[ 1.2] RIP: 0010:__schedule+0x1\n[ 1.2] ---[ end trace '
                '0000000000000000 ]---\n[ 1.3] after\n')
        got = vm.console_faults(oops)
        self.assertEqual(got, ['[ 1.2] Oops: int3: 0000 [#1] PREEMPT SMP\n'
                               '[ 1.2] RIP: 0010:__schedule+0x1\n'
                               '[ 1.2] ---[ end trace 0000000000000000 ]---'])
        self.assertTrue(vm.CONSOLE_BROKEN.search(got[0]))
        warn = 'WARNING: CPU: 1 PID: 9 at kernel/sched/core.c:1 x\nnext\n'
        self.assertEqual(len(vm.console_faults(warn)), 1)
        self.assertFalse(vm.CONSOLE_BROKEN.search(vm.console_faults(warn)[0]))
        # a report inside one already quoted is part of it; at most 3
        self.assertEqual(len(vm.console_faults(
            'BUG: a\nOops: b\n' + 'x\n' * 20 + 'BUG: c\n')), 2)
        self.assertEqual(len(vm.console_faults('BUG: a\n' * 60)), 3)
        self.assertEqual(len(vm.console_faults('BUG: a\n' * 60)[0]
                             .splitlines()), 16)

    def test_status_with_faults(self):
        oops = vm.console_faults('Oops: int3\n')
        warn = vm.console_faults('WARNING: CPU: 0 PID: 1 at x\n')
        for status in (0, 3, 77):
            self.assertEqual(vm.status_with_faults(status, oops), 1)
            self.assertEqual(vm.status_with_faults(status, warn), status)
            self.assertEqual(vm.status_with_faults(status, []), status)
        for status in (1, 99, 2, 130):
            self.assertEqual(vm.status_with_faults(status, oops), status)

    def test_labels(self):
        ks = [vm.Kernel('/a/vmlinuz'), vm.Kernel('/b/vmlinuz'),
              vm.Kernel('/c/x y')]
        self.assertEqual(vm.column_labels(ks),
                         ['vmlinuz', 'vmlinuz-2', 'x_y'])
        # two trees of one release: told apart by their directories
        trees = [vm.Kernel('/c/7.2.13-1-pe-4d49'),
                 vm.Kernel('/c/7.2.13-1-pe+rtmutex-no-boost-9989/'),
                 vm.Kernel('/c/6.1-tree')]
        for k, rel in zip(trees, ('7.2.13', '7.2.13', '6.1.0')):
            k.label = rel
        self.assertEqual(vm.column_labels(trees),
                         ['7.2.13-1-pe-4d49', '7.2.13-1-pe+rtmutex-no-boost-9989',
                          '6.1.0'])
        dots = vm.Kernel('x')
        dots.label = '..'
        self.assertEqual(vm.column_labels([dots]), ['kernel'])


class TestMatrix(Tmp):
    def test_append_matrix_args(self):
        a = vm.parse_args(['--kernel', 'A', '--append', 'quiet',
                           '--append-matrix', 'sched_proxy_exec=0',
                           '--append-matrix', 'sched_proxy_exec=1',
                           '--', 'kmutex'])
        self.assertEqual(a.append_matrix, ['sched_proxy_exec=0',
                                           'sched_proxy_exec=1'])
        self.assertEqual(a.append, 'quiet')
        self.assertFalse(a.fail_on_worse)
        self.assertIsNone(a.compare)
        b = vm.parse_args(['--kernel', 'A', '--suite'])
        self.assertEqual(b.append_matrix, [])
        with self.assertRaises(vm.UsageError) as e:
            vm.parse_args(['--suite'])
        self.assertIn('no kernel', str(e.exception))

    def test_full_append(self):
        self.assertEqual(vm.full_append('', None), '')
        self.assertEqual(vm.full_append('quiet', None), 'quiet')
        self.assertEqual(vm.full_append('', 'a=1'), 'a=1')
        self.assertEqual(vm.full_append('quiet', 'a=1'), 'quiet a=1')
        self.assertEqual(vm.full_append('quiet', ''), 'quiet')

    def test_matrix_file(self):
        m = self.write('m/matrix', '# kernels\nkernel A.deb\n\n'
                       'kernel /abs/B\n  append sched_proxy_exec=0\n'
                       'append\n')
        k, a = vm.parse_matrix_file(m)
        self.assertEqual(k, [os.path.join(self.dir, 'm', 'A.deb'), '/abs/B'])
        self.assertEqual(a, ['sched_proxy_exec=0', ''])
        # added to the command line's
        args = vm.parse_args(['--kernel', 'C', '--append-matrix', 'x=1',
                              '--matrix', m, '--suite'])
        self.assertEqual(args.kernel, ['C'] + k)
        self.assertEqual(args.append_matrix, ['x=1'] + a)
        # a matrix file alone names the kernels
        self.assertEqual(vm.parse_args(['--matrix', m, '--suite']).kernel, k)

    def test_matrix_file_errors(self):
        bad = self.write('bad', 'kernel A\nappendd x=1\n')
        with self.assertRaises(vm.UsageError) as e:
            vm.parse_matrix_file(bad)
        self.assertIn(bad + ":2: unknown key 'appendd'", str(e.exception))
        nopath = self.write('nopath', '\nkernel\n')
        with self.assertRaises(vm.UsageError) as e:
            vm.parse_matrix_file(nopath)
        self.assertIn(nopath + ':2: kernel needs a path', str(e.exception))
        empty = self.write('empty', '# nothing\n')
        with self.assertRaises(vm.UsageError) as e:
            vm.parse_matrix_file(empty)
        self.assertIn('no kernel and no append line', str(e.exception))
        with self.assertRaises(vm.UsageError) as e:
            vm.parse_matrix_file(os.path.join(self.dir, 'none'))
        self.assertIn('--matrix', str(e.exception))
        # appends only, and no --kernel: no kernel at all
        only = self.write('only', 'append a=1\n')
        with self.assertRaises(vm.UsageError):
            vm.parse_args(['--matrix', only, '--suite'])

    def test_columns(self):
        self.assertEqual(vm.matrix_columns(['A', 'B'], []),
                         [(0, None, 'A'), (1, None, 'B')])
        cols = vm.matrix_columns(['A', 'B'], ['pe=0', 'pe=1'])
        self.assertEqual(cols, [(0, 'pe=0', 'A+pe=0'), (0, 'pe=1', 'A+pe=1'),
                                (1, 'pe=0', 'B+pe=0'), (1, 'pe=1', 'B+pe=1')])
        # spaces and slashes kept out of directory names; '' is none;
        # the same command line twice still gives two columns
        cols = vm.matrix_columns(['A'], ['a=1 b/c', '', 'x', 'x'])
        self.assertEqual([c[2] for c in cols],
                         ['A+a=1_b_c', 'A+none', 'A+x', 'A+x-2'])
        self.assertEqual([c[1] for c in cols], ['a=1 b/c', '', 'x', 'x'])


class TestCompare(Tmp):
    def results(self, name, files):
        d = os.path.join(self.dir, 'out', name)
        os.makedirs(d)
        for f in files:
            self.write(os.path.join('out', name, f), '{}')
        return d

    def fake(self, rc):
        # an invlab-compare stand-in: says what it was given, exits rc
        return self.write('bin/fake-compare', '#!/bin/sh\necho "compared $*"'
                          '\nexit %d\n' % rc, 0o755)

    def test_plan(self):
        a = self.results('A', ['pi-classic.json', 'kmutex.json', 'vm.json',
                               'output.log'])
        b = self.results('B', ['kmutex.json', 'vm.json'])
        c = self.results('C', ['pi-classic.json', 'kmutex.json'])
        plan = vm.compare_plan([('A', a), ('B', b), ('X', None), ('C', c)])
        # one compare a result file, every column that has it a side, the
        # baseline first and the others in column order
        self.assertEqual([(n, [lab for lab, _ in sides])
                          for n, sides in plan], [
            ('kmutex.json', ['A', 'B', 'C']),
            ('pi-classic.json', ['A', 'C'])])
        # a side the files of its boots: here one
        self.assertEqual(plan[0][1][0],
                         ('A', [os.path.join(a, 'kmutex.json')]))
        self.assertEqual(plan[0][1][1],
                         ('B', [os.path.join(b, 'kmutex.json')]))
        self.assertEqual(plan[0][1][2],
                         ('C', [os.path.join(c, 'kmutex.json')]))
        # a file only the baseline has is not compared
        self.assertEqual(vm.compare_plan([('A', a), ('B', b)]),
                         [('kmutex.json', [
                             ('A', [os.path.join(a, 'kmutex.json')]),
                             ('B', [os.path.join(b, 'kmutex.json')])])])
        # no baseline result: nothing to compare against
        self.assertEqual(vm.compare_plan([('A', None), ('B', b)]), [])
        self.assertEqual(vm.compare_plan([]), [])

    def test_plan_boots(self):
        # a column's boots are one side: every boot's file, in boot order
        a1 = self.results('A/boot-1', ['pi-classic.json', 'kmutex.json'])
        a2 = self.results('A/boot-2', ['pi-classic.json'])
        b1 = self.results('B/boot-1', ['pi-classic.json', 'kmutex.json'])
        b2 = self.results('B/boot-2', ['pi-classic.json', 'kmutex.json'])
        plan = vm.compare_plan([('A', [a1, a2]), ('B', [b1, b2])])
        self.assertEqual(plan, [
            ('kmutex.json', [('A', [os.path.join(a1, 'kmutex.json')]),
                             ('B', [os.path.join(b1, 'kmutex.json'),
                                    os.path.join(b2, 'kmutex.json')])]),
            ('pi-classic.json', [
                ('A', [os.path.join(a1, 'pi-classic.json'),
                       os.path.join(a2, 'pi-classic.json')]),
                ('B', [os.path.join(b1, 'pi-classic.json'),
                       os.path.join(b2, 'pi-classic.json')])])])
        # a file only a later boot of the baseline brought back counts
        c1 = self.results('C/boot-1', [])
        c2 = self.results('C/boot-2', ['kmutex.json'])
        self.assertEqual(vm.compare_plan([('C', [c1, c2]), ('B', [b1])]),
                         [('kmutex.json', [
                             ('C', [os.path.join(c2, 'kmutex.json')]),
                             ('B', [os.path.join(b1, 'kmutex.json')])])])
        # no boot of the baseline gave a result: nothing to compare
        self.assertEqual(vm.compare_plan([('A', []), ('B', [b1])]), [])
        self.assertEqual(vm.compare_argv('ic', plan[1][1]), [
            'ic', '--label', 'A', '--label', 'B',
            os.path.join(a1, 'pi-classic.json'),
            os.path.join(a2, 'pi-classic.json'), '--',
            os.path.join(b1, 'pi-classic.json'),
            os.path.join(b2, 'pi-classic.json')])

    def test_boot_dir(self):
        self.assertEqual(vm.boot_dir('out', 'A', 1, 1), os.path.join('out',
                                                                     'A'))
        self.assertEqual(vm.boot_dir('out', 'A', 1, 2),
                         os.path.join('out', 'A', 'boot-1'))
        self.assertEqual(vm.boot_dir('out', 'A', 5, 5),
                         os.path.join('out', 'A', 'boot-5'))

    def test_argv(self):
        # a --label a column as the matrix names it, options before the
        # files, the sides parted by '--'
        self.assertEqual(
            vm.compare_argv('ic', [('A', 'a.json'), ('B+pe=1', 'b.json'),
                                   ('C', 'c.json')]),
            ['ic', '--label', 'A', '--label', 'B+pe=1', '--label', 'C',
             'a.json', '--', 'b.json', '--', 'c.json'])
        self.assertEqual(vm.compare_argv('ic', [('A', 'a'), ('B', 'b')]),
                         ['ic', '--label', 'A', '--label', 'B', 'a', '--',
                          'b'])

    def test_status(self):
        # without --fail-on-worse the compares never change the status
        for rcs in ([1], [99], [77], [0, 1]):
            self.assertEqual(vm.compare_status(rcs, False), 0)
        self.assertEqual(vm.compare_status([], True), 0)
        self.assertEqual(vm.compare_status([0, 0], True), 0)
        self.assertEqual(vm.compare_status([0, 1], True), 1)
        self.assertEqual(vm.compare_status([0, 77], True), 0)
        self.assertEqual(vm.compare_status([77, 77], True), 77)
        # a compare that could not be made fails closed, over a worse one
        self.assertEqual(vm.compare_status([1, 99], True), vm.EXIT_BROKEN)
        self.assertEqual(vm.compare_status([0, 2], True), vm.EXIT_BROKEN)
        self.assertEqual(vm.combine_status([0, vm.compare_status([1], True)]),
                         1)
        self.assertEqual(vm.compare_outcome(0), 'nothing worse')
        self.assertEqual(vm.compare_outcome(1), 'something worse')
        self.assertEqual(vm.compare_outcome(77),
                         'nothing in common to compare')
        # 77 as compare's "not enough runs to tell": said so, and how
        self.assertEqual(vm.compare_outcome(77, 'x\nthe end\n'),
                         'nothing in common to compare')
        said = vm.compare_outcome(77, 'table\nno claim: 2 rows have too '
                                  'few runs a side\n')
        self.assertIn('no claim: too few runs a side', said)
        self.assertIn('--boots N', said)
        self.assertEqual(vm.compare_outcome(0, 'no claim: x'),
                         'nothing worse')
        self.assertEqual(vm.compare_outcome(99), 'compare failed (exit 99)')
        self.assertIn('no invlab-compare', vm.compare_outcome(None))

    def test_section(self):
        a = self.results('A', ['kmutex.json'])
        b = self.results('B+pe=1', ['kmutex.json'])
        c = self.results('C', ['kmutex.json'])
        plan = vm.compare_plan([('A', a), ('B+pe=1', b), ('C', c)])
        out = io.StringIO()
        top = os.path.join(self.dir, 'out')
        rcs = vm.compare_section(plan, self.fake(1), top, out)
        # one compare of the three columns, not one a column
        self.assertEqual(rcs, [1])
        text = out.getvalue()
        self.assertIn('== compare: every column against A (invlab-compare)',
                      text)
        self.assertIn('-- kmutex.json: B+pe=1, C against A', text)
        self.assertIn('compared --label A --label B+pe=1 --label C %s -- %s '
                      '-- %s' % (os.path.join(a, 'kmutex.json'),
                                 os.path.join(b, 'kmutex.json'),
                                 os.path.join(c, 'kmutex.json')), text)
        self.assertEqual(text.count('compared --label'), 1)
        self.assertIn('compare kmutex.json: B+pe=1, C vs A: something worse',
                      text)
        with open(os.path.join(top, 'compare', 'kmutex.txt')) as f:
            self.assertIn('compared', f.read())
        out = io.StringIO()
        self.assertEqual(vm.compare_section(plan, self.fake(0), top, out),
                         [0])
        self.assertIn('vs A: nothing worse', out.getvalue())
        # no program: said, and counted as a compare not made
        out = io.StringIO()
        self.assertEqual(vm.compare_section(plan, None, top, out),
                         [vm.EXIT_BROKEN])
        self.assertIn('not compared: no invlab-compare', out.getvalue())
        self.assertIn('--compare PATH', out.getvalue())
        self.assertEqual(vm.compare_section([], None, top, out), [])

    def test_real_compare(self):
        # the built invlab-compare, beside the configured script in a
        # build directory: one compare of three columns, a candidate 5x
        # slower worse, the same not, in one table named by the columns
        tool = os.path.join(os.path.dirname(os.path.realpath(SCRIPT)),
                            'invlab-compare')
        if not os.access(tool, os.X_OK):
            self.skipTest('no invlab-compare beside ' + SCRIPT)

        def doc(edges, more=0):
            return json.dumps({'schema_version': 1, 'program': 'pi-classic',
                               'runs': [{'configuration': 'inherit',
                                         'blocked_ns': {
                                             'count': 300 + more, 'bins': [
                                                 [e, 100 + more * (i == 0)]
                                                 for i, e in enumerate(
                                                     edges)]}}]})
        for name, edges in (('A', [100, 200, 256]), ('B', [512, 1024, 2048]),
                            ('C', [100, 200, 256])):
            self.write('r/%s/pi-classic.json' % name, doc(edges))
            for boot in range(1, 5):
                self.write('r/%s/boot-%d/pi-classic.json' % (name, boot),
                           doc(edges, 10 * boot))
        top = os.path.join(self.dir, 'r')
        # one boot a column: one run a side, no claim, and it says why
        plan = vm.compare_plan([(n, os.path.join(top, n)) for n in 'ABC'])
        out = io.StringIO()
        rcs = vm.compare_section(plan, tool, top, out)
        self.assertEqual(rcs, [77])
        self.assertIn('too few runs: 1 a side, need 4', out.getvalue())
        self.assertIn('compare pi-classic.json: B, C vs A: no claim: too '
                      'few runs a side', out.getvalue())
        self.assertEqual(vm.compare_status(rcs, True), 77)
        # four boots a column: the runs of all of them, a side each
        plan = vm.compare_plan([(n, [vm.boot_dir(top, n, k, 4)
                                     for k in range(1, 5)]) for n in 'ABC'])
        out = io.StringIO()
        rcs = vm.compare_section(plan, tool, top, out)
        self.assertEqual(rcs, [1])
        self.assertRegex(out.getvalue(), r' 4:4:4 ')
        text = out.getvalue()
        self.assertIn('pi-classic/inherit blocked_ns', text)
        # the three-side table: a column group a column, by its label
        self.assertRegex(text, r'stat +A \(CV\) +runs +B\[pct imp\]\(CV\)')
        self.assertIn('C[pct imp](CV)', text)
        self.assertIn('every side against the baseline', text)
        self.assertIn('compare pi-classic.json: B, C vs A: something worse',
                      text)
        self.assertEqual(vm.compare_status(rcs, True), 1)
        self.assertEqual(vm.compare_status(rcs, False), 0)

    def test_find(self):
        fake = self.fake(0)
        self.assertEqual(vm.find_compare(fake, None), fake)
        plain = self.write('plain', 'x', 0o644)
        self.assertIsNone(vm.find_compare(plain, None))
        sb = os.path.join(self.dir, 'sb')
        tool = self.write('sb/tools/invlab-compare', '#!/bin/sh\n', 0o755)
        found = vm.find_compare(None, sb)
        # beside the script first (an installed or built one), else the
        # static build's
        here = os.path.join(os.path.dirname(os.path.realpath(SCRIPT)),
                            'invlab-compare')
        self.assertEqual(found, here if os.access(here, os.X_OK) else tool)


class TestBoots(Tmp):
    def test_main_boots(self):
        # main's loop with the boot itself stood in for: every column
        # booted --boots times, each boot's results in its directory,
        # the matrix a column a boot, one compare of every boot's files
        booted = []

        def fake_run_kernel(args, kernel, progs, busybox, outdir, workdir,
                            state, extra=None, name=None):
            booted.append((kernel.label, outdir))
            os.makedirs(outdir, exist_ok=True)
            with open(os.path.join(outdir, 'pi-classic.json'), 'w') as f:
                f.write('{}')
            with open(os.path.join(outdir, 'output.log'), 'w') as f:
                f.write('kernel fake\n')
            return 0, {'accel': 'tcg', 'boot_to_result_s': 1.0,
                       'kernel_release': kernel.label,
                       'fingerprint': 'kernel fake'}, [
                ('pi-classic inherit', 'PASS', 'PASS')]

        def fake_kernel(spec, workdir, arch):
            return vm.Kernel(spec)

        saved = (vm.run_kernel, vm.resolve_kernel, vm.find_programs,
                 vm.elf_is_static)
        vm.run_kernel = fake_run_kernel
        vm.resolve_kernel = fake_kernel
        vm.find_programs = lambda *a: {'pi-classic': '/x/demos/pi-classic'}
        vm.elf_is_static = lambda *a: True
        fake = self.write('bin/fake-compare', '#!/bin/sh\necho "compared '
                          '$*"\nexit 0\n', 0o755)
        top = os.path.join(self.dir, 'out')
        out, err = io.StringIO(), io.StringIO()
        try:
            with redirect_stderr(err):
                saved_out, sys.stdout = sys.stdout, out
                try:
                    rc = vm.main(['--kernel', 'A', '--kernel', 'B',
                                  '--boots', '3', '--qemu', '/bin/true',
                                  '--busybox', '/bin/true', '--compare',
                                  fake, '-o', top, '-q', '--',
                                  'pi-classic'])
                finally:
                    sys.stdout = saved_out
        finally:
            (vm.run_kernel, vm.resolve_kernel, vm.find_programs,
             vm.elf_is_static) = saved
        self.assertEqual(rc, 0)
        self.assertEqual(booted, [
            ('A', os.path.join(top, 'A', 'boot-%d' % k)) for k in (1, 2, 3)
        ] + [('B', os.path.join(top, 'B', 'boot-%d' % k)) for k in (1, 2, 3)])
        text = out.getvalue()
        self.assertRegex(text, r'configuration +A #1 +A #2 +A #3 +B #1 +B #2 '
                         r'+B #3')
        files = ['%s/%s/boot-%d/pi-classic.json' % (top, n, k)
                 for n in 'AB' for k in (1, 2, 3)]
        self.assertIn('compared --label A --label B %s -- %s' % (
            ' '.join(files[:3]), ' '.join(files[3:])), text)
        self.assertIn('A#2: exit status 0', err.getvalue())


class TestQemu(unittest.TestCase):
    def test_command(self):
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 2, 1024,
                              'preempt=full')
        self.assertIn('tcg,thread=multi', cmd)
        self.assertNotIn('kvm', cmd)
        self.assertIn('-no-reboot', cmd)
        cl = cmd[cmd.index('-append') + 1]
        self.assertIn('panic=-1', cl)
        self.assertTrue(cl.endswith(' preempt=full'))
        self.assertEqual(cmd[cmd.index('-smp') + 1], '2')
        self.assertEqual(cmd[cmd.index('-m') + 1], '1024M')
        self.assertIn('virtio-9p-pci,fsdev=res,mount_tag=' + vm.SHARE_TAG,
                      cmd)
        kvm = vm.qemu_command('q', 'kvm', '/k', '/i', '/s', '/c', 1, 512, '')
        self.assertEqual(kvm[kvm.index('-accel') + 1], 'kvm')
        self.assertEqual(cmd[cmd.index('-M') + 1], 'pc')

    def test_tcg_tsc(self):
        def cl(accel, append, arch='x86_64'):
            cmd = vm.qemu_command('q', accel, '/k', '/i', '/s', '/c', 2,
                                  1024, append, arch)
            return cmd[cmd.index('-append') + 1].split()

        # an x86 guest under TCG: the TSC trusted, before --append's
        words = cl('tcg', 'preempt=full')
        self.assertIn('tsc=reliable', words)
        self.assertLess(words.index('tsc=reliable'),
                        words.index('preempt=full'))
        self.assertIn('tsc=reliable', cl('tcg', ''))
        # not under KVM, not on arm64 (no TSC)
        self.assertNotIn('tsc=reliable', cl('kvm', ''))
        self.assertNotIn('tsc=reliable', cl('kvm', 'preempt=full'))
        self.assertFalse([w for w in cl('tcg', '', 'arm64')
                          if w.startswith('tsc=')])
        # a tsc= of --append's decides, alone
        for given in ('tsc=unstable', 'x=1 tsc=reliable', 'tsc=nowatchdog'):
            words = cl('tcg', given)
            self.assertEqual([w for w in words if w.startswith('tsc=')],
                             [w for w in given.split()
                              if w.startswith('tsc=')], given)
        # a word that merely contains it is not one
        self.assertIn('tsc=reliable', cl('tcg', 'notsc=1'))

    def numa(self, cmd):
        """[(backend, node)] option pairs of cmd, in order."""
        out = []
        for i, a in enumerate(cmd):
            if a == '-object':
                self.assertEqual(cmd[i + 2], '-numa')
                out.append((cmd[i + 1], cmd[i + 3]))
        self.assertEqual(cmd.count('-numa'), len(out))
        return out

    def test_numa(self):
        # one node: QEMU's default, no NUMA option at all
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 2, 1024,
                              '')
        self.assertNotIn('-numa', cmd)
        self.assertNotIn('-object', cmd)
        self.assertEqual(vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c',
                                         2, 1024, '', numa=1), cmd)
        # two nodes of one CPU: a CPU alone is written without a range
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 2, 1024,
                              '', numa=2)
        self.assertEqual(self.numa(cmd), [
            ('memory-backend-ram,id=m0,size=512M',
             'node,nodeid=0,cpus=0,memdev=m0'),
            ('memory-backend-ram,id=m1,size=512M',
             'node,nodeid=1,cpus=1,memdev=m1')])
        self.assertEqual(cmd[cmd.index('-smp') + 1], '2')
        self.assertEqual(cmd[cmd.index('-m') + 1], '1024M')
        # the NUMA options come after -m, before the devices
        self.assertLess(cmd.index('-m'), cmd.index('-object'))
        self.assertLess(cmd.index('-numa'), cmd.index('-kernel'))
        # four nodes of two CPUs, 3G: CPUs and memory in order
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 8, 3072,
                              '', numa=4)
        self.assertEqual(self.numa(cmd), [
            ('memory-backend-ram,id=m%d,size=768M' % n,
             'node,nodeid=%d,cpus=%d-%d,memdev=m%d' % (n, 2 * n, 2 * n + 1,
                                                       n))
            for n in range(4)])
        self.assertEqual(vm.numa_options(4, 8, 3072),
                         cmd[cmd.index('-object'):cmd.index('-display')])
        # QEMU refuses nodes whose sizes do not add up to -m
        self.assertEqual(sum(int(b.split('size=')[1][:-1]) for b, _ in
                             self.numa(cmd)), 3072)

    def test_numa_args(self):
        base = ['--kernel', 'A', '--suite']
        a = vm.parse_args(base)
        self.assertEqual(a.numa, vm.DEFAULT_NUMA)
        self.assertEqual(vm.DEFAULT_NUMA, 1)
        a = vm.parse_args(base + ['--numa', '2'])
        self.assertEqual((a.numa, a.cpus, a.memory), (2, 2, 1024))
        self.assertEqual(vm.parse_args(base + ['--numa', '8', '--cpus', '8']
                                       ).numa, 8)
        self.assertEqual(vm.parse_args(base + ['--numa', '1', '--cpus', '3',
                                               '--memory', '1025']).numa, 1)
        for bad in (['--numa', '0'], ['--numa', '9'], ['--numa', 'two'],
                    ['--numa', '2', '--cpus', '3'],
                    ['--numa', '4', '--cpus', '2'],
                    ['--numa', '2', '--memory', '1025']):
            with self.assertRaises(vm.UsageError, msg=bad):
                vm.parse_args(base + bad)
        self.assertIsNone(vm.check_numa(2, 4, 1024))
        self.assertIsNone(vm.check_numa(3, 3, 129))
        self.assertIn('--cpus 3 is not a multiple of 2',
                      vm.check_numa(2, 3, 1024))
        self.assertIn('--memory 1025M', vm.check_numa(2, 2, 1025))
        self.assertIn('e.g. --memory 1024M', vm.check_numa(2, 2, 1025))
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(vm.main(['--kernel', 'A', '--numa', '2',
                                      '--cpus', '3', '--suite']),
                             vm.EXIT_USAGE)
        self.assertIn('not a multiple of 2', err.getvalue())
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(vm.main(['--kernel', 'A', '--numa', '9',
                                      '--suite']), vm.EXIT_USAGE)
        self.assertIn('1..8', err.getvalue())

    def test_numa_vng(self):
        # vng's --numa: one node a time, MEM[,cpus=FIRST[-LAST]]...
        self.assertEqual(vm.parse_numa('512M,cpus=0-1'), (512, [(0, 1)]))
        self.assertEqual(vm.parse_numa('1G,cpus=2'), (1024, [(2, 2)]))
        self.assertEqual(vm.parse_numa('256m,cpus=0,cpus=3-4'),
                         (256, [(0, 0), (3, 4)]))
        self.assertEqual(vm.parse_numa('128M'), (128, []))
        # a bare number is still invlab's N nodes split evenly
        self.assertEqual(vm.parse_numa('2'), 2)
        for bad in ('512', '0M', '512K', '512M,cpus=1-0', '512M,cpu=0',
                    '512M,cpus=', 'M,cpus=0', '512M,cpus=0,', '9', '0'):
            with self.assertRaises(vm.argparse.ArgumentTypeError, msg=bad):
                vm.parse_numa(bad)
        # taken as given: memory and CPUs need not be even
        layout = [(768, [(0, 0)]), (256, [(1, 1)])]
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 2, 1024,
                              '', numa=2, numa_layout=layout)
        self.assertEqual(self.numa(cmd), [
            ('memory-backend-ram,id=m0,size=768M',
             'node,nodeid=0,cpus=0,memdev=m0'),
            ('memory-backend-ram,id=m1,size=256M',
             'node,nodeid=1,cpus=1,memdev=m1')])
        # several ranges in one node; a node with memory and no CPU
        self.assertEqual(vm.numa_options(2, 4, 1024, [
            (512, [(0, 0), (2, 3)]), (256, [(1, 1)]), (256, [])]), [
            '-object', 'memory-backend-ram,id=m0,size=512M',
            '-numa', 'node,nodeid=0,cpus=0,cpus=2-3,memdev=m0',
            '-object', 'memory-backend-ram,id=m1,size=256M',
            '-numa', 'node,nodeid=1,cpus=1,memdev=m1',
            '-object', 'memory-backend-ram,id=m2,size=256M',
            '-numa', 'node,nodeid=2,memdev=m2'])
        # the checks: memory adds up, every CPU in exactly one node
        self.assertIsNone(vm.check_numa_layout(layout, 2, 1024))
        self.assertIn('1000M in all, --memory is 1024M',
                      vm.check_numa_layout([(744, [(0, 0)]),
                                            (256, [(1, 1)])], 2, 1024))
        self.assertIn('1025M in all', vm.check_numa_layout(
            [(769, [(0, 0)]), (256, [(1, 1)])], 2, 1024))
        self.assertIn('CPU 1 in no node', vm.check_numa_layout(
            [(1024, [(0, 0)])], 2, 1024))
        self.assertIn('CPU 1 is in node 0 and node 1', vm.check_numa_layout(
            [(512, [(0, 1)]), (512, [(1, 1)])], 2, 1024))
        self.assertIn('node 1 has CPU 2', vm.check_numa_layout(
            [(512, [(0, 1)]), (512, [(2, 2)])], 2, 1024))
        self.assertIsNone(vm.check_numa_layout(
            [(128, [(n, n)]) for n in range(8)], 8, 1024))
        self.assertIn('9 nodes, at most 8', vm.check_numa_layout(
            [(128, [])] * 9, 1, 1152))
        # on the command line
        base = ['--kernel', 'A', '--suite']
        a = vm.parse_args(base + ['--numa', '768M,cpus=0',
                                  '--numa', '256M,cpus=1'])
        self.assertEqual((a.numa, a.numa_layout), (2, layout))
        a = vm.parse_args(base + ['--numa', '1G,cpus=0-1'])
        self.assertEqual((a.numa, a.numa_layout), (1, [(1024, [(0, 1)])]))
        a = vm.parse_args(base + ['--numa', '2'])
        self.assertEqual((a.numa, a.numa_layout), (2, []))
        # a node of memory alone, as vng allows
        a = vm.parse_args(base + ['--numa', '512M,cpus=0-1',
                                  '--numa', '512M'])
        self.assertEqual(a.numa_layout, [(512, [(0, 1)]), (512, [])])
        for bad in (['--numa', '2', '--numa', '512M,cpus=0'],
                    ['--numa', '2', '--numa', '2'],
                    ['--numa', '512M,cpus=0', '--numa', '256M,cpus=1'],
                    ['--numa', '512M,cpus=0', '--numa', '512M,cpus=0'],
                    ['--numa', '512M,cpus=0-1', '--numa', '512M',
                     '--memory', '2G']):
            with self.assertRaises(vm.UsageError, msg=bad):
                vm.parse_args(base + bad)

    def test_arm64(self):
        cmd = vm.qemu_command('q', 'tcg', '/k', '/i', '/s', '/c', 2, 1024,
                              'x=1', 'arm64')
        self.assertEqual(cmd[cmd.index('-M') + 1], 'virt')
        self.assertEqual(cmd[cmd.index('-cpu') + 1], 'cortex-a57')
        cl = cmd[cmd.index('-append') + 1]
        self.assertTrue(cl.startswith('console=ttyAMA0 '))
        self.assertTrue(cl.endswith(' x=1'))
        a = vm.parse_args(['--kernel', 'A', '--arch', 'arm64', '--suite'])
        self.assertEqual(a.qemu, 'qemu-system-aarch64')
        self.assertEqual(vm.parse_args(['--kernel', 'A', '--suite']).qemu,
                         'qemu-system-x86_64')
        self.assertEqual(vm.parse_args(['--kernel', 'A', '--arch', 'arm64',
                                        '--qemu', 'Q', '--suite']).qemu, 'Q')
        with self.assertRaises(vm.UsageError):
            vm.parse_args(['--kernel', 'A', '--arch', 'riscv64', '--suite'])
        msg = vm.busybox_missing('arm64')
        if vm.HOST_ARCH != 'arm64':
            self.assertIn('busybox-static:arm64', msg)
            self.assertIn('do not install it', msg)


if __name__ == '__main__':
    unittest.main(verbosity=1)
