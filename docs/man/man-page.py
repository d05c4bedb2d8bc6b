#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Man pages whose OPTIONS section comes from the program's option table.

  man-page.py assemble TEMPLATE OPTIONS VERSION OUTPUT
  man-page.py check GENERATED COMMITTED
  man-page.py update SRCDIR GENERATED...
  man-page.py skip REASON

assemble: TEMPLATE (docs/man/PROG.1.in) is the page with a line
"@OPTIONS@" where the section goes and "@VERSION@" for the version;
OPTIONS is what "PROG --help=man" printed (".SH OPTIONS", then one .TP
entry per row of the program's tables).  A template may add text to one
option's entry, for what a one-sentence help cannot say:

    .\\" @OPTION --classes
    Deadline members are not pinned ...
    .\\" @END

The text is appended to that entry; an option the table does not have is
an error, so the template cannot document an option that is gone.

check: the committed page (docs/man/PROG.1, read where the program cannot
be run, e.g. a cross build without an exe_wrapper) must be the generated
one; exit 1 with a diff otherwise.  update copies generated pages over the
committed ones (ninja -C build man-update).
"""
import difflib
import os
import re
import shutil
import sys

HEADER = ('.\\" Generated from docs/man/{name} and the option table of '
          'the program\n.\\" (PROG --help=man); edit those, then run '
          '"ninja -C build man-update".\n')


def die(msg):
    sys.stderr.write('man-page.py: %s\n' % msg)
    sys.exit(1)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def split_extras(template, path):
    """Template lines without the @OPTION blocks; {"--name": [lines]}."""
    lines, extras, cur = [], {}, None
    for n, line in enumerate(template.splitlines(keepends=True), 1):
        m = re.match(r'^\.\\" @OPTION (--[a-z0-9-]+)\s*$', line)
        if m:
            if cur:
                die('%s:%d: @OPTION inside @OPTION %s' % (path, n, cur))
            cur = m.group(1)
            if cur in extras:
                die('%s:%d: @OPTION %s given twice' % (path, n, cur))
            extras[cur] = []
        elif re.match(r'^\.\\" @END\s*$', line):
            if not cur:
                die('%s:%d: @END without @OPTION' % (path, n))
            cur = None
        elif cur:
            extras[cur].append(line)
        else:
            lines.append(line)
    if cur:
        die('%s: @OPTION %s has no @END' % (path, cur))
    return lines, extras


def entry_name(tag_line):
    """The long option of a generated entry's tag line, as typed."""
    m = re.search(r'\\fB\\-\\-((?:[a-z0-9]|\\-)+)\\fR', tag_line)
    return '--' + m.group(1).replace('\\-', '-') if m else None


def assemble(template_path, options_path, version, output):
    lines, extras = split_extras(read(template_path), template_path)
    opts = read(options_path)
    if not opts.startswith('.SH OPTIONS\n'):
        die('%s: the program printed no OPTIONS section for --help=man '
            '(is it built with an older lib/scenario/opt.c?)' % options_path)
    entries = opts.split('.TP\n')
    out, seen = [entries[0]], set()
    for e in entries[1:]:
        name = entry_name(e.partition('\n')[0])
        out.append('.TP\n' + e)
        if name in extras:
            out.extend(extras[name])
            seen.add(name)
    missing = sorted(set(extras) - seen)
    if missing:
        die('%s: @OPTION %s: the program has no such option' %
            (template_path, ', '.join(missing)))
    marks = [n for n, l in enumerate(lines) if l.strip() == '@OPTIONS@']
    if len(marks) != 1:
        die('%s: wants exactly one @OPTIONS@ line, has %d' %
            (template_path, len(marks)))
    page = (''.join(lines[:marks[0]]) + ''.join(out) +
            ''.join(lines[marks[0] + 1:]))
    page = page.replace('@VERSION@', version)
    m = re.search(r'@[A-Z_]+@', page)
    if m:
        die('%s: unknown placeholder %s' % (template_path, m.group(0)))
    name = os.path.basename(template_path)
    # the licence line stays first
    first, _, rest = page.partition('\n')
    if first.startswith('.\\" SPDX'):
        page = first + '\n' + HEADER.format(name=name) + rest
    else:
        page = HEADER.format(name=name) + page
    with open(output + '.tmp', 'w', encoding='utf-8') as f:
        f.write(page)
    os.replace(output + '.tmp', output)


def check(generated, committed):
    g, c = read(generated), read(committed)
    if g == c:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        c.splitlines(keepends=True), g.splitlines(keepends=True),
        committed, generated))
    sys.stdout.write(
        '\n# %s does not match its template and option table.\n'
        '# Edit %s.in (or the table), then: ninja -C BUILD man-update\n' %
        (committed, committed))
    return 1


def update(srcdir, pages):
    for p in pages:
        dst = os.path.join(srcdir, os.path.basename(p))
        if os.path.exists(dst) and read(dst) == read(p):
            continue
        shutil.copyfile(p, dst)
        print('updated %s' % dst)
    return 0


def main(argv):
    if len(argv) == 6 and argv[1] == 'assemble':
        assemble(argv[2], argv[3], argv[4], argv[5])
        return 0
    if len(argv) == 4 and argv[1] == 'check':
        return check(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == 'update':
        return update(argv[2], argv[3:])
    if len(argv) == 3 and argv[1] == 'skip':
        print('SKIP: %s' % argv[2])
        return 77
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
