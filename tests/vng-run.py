#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# vng-run: the proxy-exec kernel invlab-kernel built, booted with
# virtme-ng (vng, fetched by tools/invlab-vng) under TCG, runs one case of
# invlab-suite from this build tree, and a verdict comes back.  vng shares
# the host's root filesystem with the guest, read-only, so the build
# tree's programs run inside as they are; the results go to a directory
# given read-write (--rwdir).
#
#   python3 tests/vng-run.py SOURCE BUILD [CASE]      (meson test --suite vng)
#
# The cached PE tree leaves CONFIG_VIRTIO_CONSOLE and CONFIG_OVERLAY_FS
# out (tools/kconfig/trim.config), so vng's script ports (virtio-serial)
# are missing in the guest: virtme-init runs the command on the serial
# console, which vng shows only with -v, and vng's own exit status is
# always 255 (its "no status came back").  So the run is -v, the case's
# exit status is written to the read-write directory, and the verdict is
# read from the console's text.
#
# Exit: 0 a verdict was printed and the suite ended 0 or 3 (as expected,
# or UNDECIDED: under TCG a timing check may not decide); 1 a verdict not
# the one expected (the suite's 1); 77 no virtme-ng fetched or usable, no
# PE kernel cached, not x86_64 (the reason printed); 99 no verdict (the
# guest did not boot, the case did not run, the timeout passed).

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP, BROKEN = 77, 99
PACKAGE = 'linux-source-7.2'
DEFAULT_CASE = 'job-pi-classic'
TIMEOUT_S = 540
# a verdict line of the case's own TAP, as invlab-suite comments it
VERDICT = re.compile(r'\b(PASS|FAIL|UNDECIDED)\b')


def skip(why):
    print('SKIP: %s' % why)
    sys.exit(SKIP)


def output_of(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return r.returncode, r.stdout.strip(), r.stderr.strip()


def main(argv):
    if len(argv) < 2:
        print('usage: vng-run.py SOURCE BUILD [CASE]', file=sys.stderr)
        return 2
    src, build = (os.path.abspath(a) for a in argv[:2])
    case = argv[2] if len(argv) > 2 else DEFAULT_CASE
    if os.uname().machine != 'x86_64':
        skip('boots an x86_64 kernel tree (this is %s)' % os.uname().machine)
    rc, vng, _ = output_of([sys.executable,
                            os.path.join(src, 'tools', 'invlab-vng'),
                            '--print-path'])
    if rc != 0:
        skip('virtme-ng is not fetched: tools/invlab-vng fetches it')
    rc, tree, _ = output_of([sys.executable,
                             os.path.join(src, 'tools', 'invlab-kernel'),
                             '--print-path', '--package', PACKAGE])
    if rc != 0:
        skip('no proxy-exec kernel is cached: tools/invlab-kernel '
             '--package %s builds it' % PACKAGE)
    for mod in ('argcomplete', 'requests'):
        if subprocess.run(['/usr/bin/python3', '-c', 'import ' + mod],
                          stderr=subprocess.DEVNULL).returncode:
            skip('virtme-ng cannot run: no Python module %s (Debian: '
                 'python3-%s)' % (mod, mod))
    if not shutil.which('qemu-system-x86_64'):
        skip('no qemu-system-x86_64 (Debian: qemu-system-x86)')
    suite = os.path.join(build, 'invlab-suite')
    bindir = os.path.join(build, 'demos')
    if not os.path.isfile(suite) or not os.path.isdir(bindir):
        print('no %s or %s: not a build tree' % (suite, bindir))
        return BROKEN

    out = tempfile.mkdtemp(prefix='vng-run.')
    res = os.path.join(out, 'suite')
    script = ('TMPDIR=%(o)s; export TMPDIR; sh %(s)s -o %(r)s --cases %(c)s '
              '--jobs %(j)s --bindir %(b)s --only %(k)s; '
              'echo $? > %(o)s/exit' % {
                  'o': out, 's': suite, 'r': res,
                  'c': os.path.join(src, 'tests', 'cases.list'),
                  'j': os.path.join(src, 'demos', 'jobs'), 'b': bindir,
                  'k': case})
    cmd = [vng, '-v', '--disable-kvm', '--cpus', '2', '--memory', '1G',
           '-r', tree, '--rwdir', out, '--', script]
    print('# %s' % ' '.join(cmd[:-1] + ["'%s'" % script]))
    sys.stdout.flush()
    start = time.monotonic()
    # its own session, so that a timeout stops vng, QEMU and all
    proc = subprocess.Popen(['nice', '-n', '10'] + cmd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        text, _ = proc.communicate(timeout=TIMEOUT_S)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        text, _ = proc.communicate()
        timed_out = True
    elapsed = time.monotonic() - start
    text = text.decode('utf-8', 'replace')
    try:
        with open(os.path.join(out, 'exit')) as f:
            status = f.read().strip()
    except OSError:
        status = None
    shutil.rmtree(out, ignore_errors=True)

    # the suite's TAP: its test point, then the case's own TAP commented
    lines = [re.sub(r'^\[[ 0-9.]+\] ', '', l) for l in text.splitlines()]
    point = [l for l in lines if re.match(r'^(not )?ok 1 - %s\b' %
                                          re.escape(case), l)]
    verdicts = [l for l in lines if l.startswith('#   ') and
                VERDICT.search(l)]
    summary = [l for l in lines if re.match(r'^# \d+ passed, ', l)]
    for l in point + verdicts[:8] + summary:
        print('# guest: %s' % l)
    print('# vng exit %d, the suite\'s %s, %.0f s from vng\'s start to '
          'its end' % (proc.returncode, status or 'not written', elapsed))
    if timed_out:
        print('not ok: no end in %d s; the last lines:' % TIMEOUT_S)
        print('\n'.join('#   ' + l for l in lines[-30:]))
        return BROKEN
    if not point or not verdicts or status is None:
        print('not ok: no verdict printed in the guest; the last lines:')
        print('\n'.join('#   ' + l for l in lines[-30:]))
        return BROKEN
    if status in ('0', '3'):
        print('ok: %s gave a verdict in a vng guest of %s' % (
            case, os.path.basename(tree)))
        return 0
    print('not ok: %s ended %s in the guest' % (case, status))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
