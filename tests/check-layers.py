#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Layer check: no include and no call against the layer order, no cycle.

invlab's code sits in layers that depend one way (docs/hacking.md):

    lib/util < lib/sys < lib/trace < lib/scenario < lib/engine
      < validators < driver < demos, tools, bench

A file may include a header of its own layer or a lower one, and call a
function defined in its own layer or a lower one; never a higher one.
Between files, calls must not form a cycle (A calls B and B, maybe
through others, calls A): a helper two files need goes down into a file
of its own.

Calls are read from the built objects, not guessed from the text: `nm`
of every object of BUILD (meson's compile_commands.json maps each source
to its object) gives the symbols a file defines and the ones it uses.
Includes are read from the sources: `#include <invlab/X.h>` and
`#include "X.h"`, resolved to the header's path, whose layer is its
folder's, or for a public header (lib/include/invlab, validators/include,
driver/include) the layer of the file that defines its functions.

Tests (tests/) may use every layer and are not checked.

Usage: tests/check-layers.py BUILD [--list]
  --list   print each file's layer and its edges, then the verdict

Exit status: 0 clean, 1 a violation or a cycle (each printed as
FILE:LINE or FILE -> FILE), 2 bad usage or a build whose objects are not
all built.
"""
import json
import os
import re
import subprocess
import sys

RANKS = [
    ('lib/util/', 0, 'util'),
    ('lib/sys/', 1, 'sys'),
    ('lib/trace/', 2, 'trace'),
    ('lib/scenario/', 3, 'scenario'),
    ('lib/engine/', 4, 'engine'),
    ('validators/', 5, 'validators'),
    ('driver/', 6, 'driver'),
    ('demos/', 7, 'demos'),
    ('tools/', 7, 'tools'),
    ('bench/', 8, 'bench'),
]
PUBLIC = ('lib/include/', 'validators/include/', 'driver/include/')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(path):
    """(rank, name) of a source path relative to the top, or None."""
    for prefix, rank, name in RANKS:
        if path.startswith(prefix):
            return rank, name
    return None


def objects(build, top):
    """{source path relative to top: object path} from compile_commands."""
    with open(os.path.join(build, 'compile_commands.json')) as f:
        cmds = json.load(f)
    out = {}
    for c in cmds:
        src = os.path.normpath(os.path.join(c['directory'], c['file']))
        rel = os.path.relpath(src, top)
        gen = os.path.relpath(src, os.path.abspath(build))
        if not gen.startswith('..'):
            # generated in the build tree: the layer of its folder there
            rel = gen
        if rel.startswith('..') or rel.startswith('tests/'):
            continue
        # the same source compiled into several targets: one is enough
        out.setdefault(rel, os.path.join(c['directory'], c['output']))
    return out


NM_LINE = re.compile(r'^(.*):([0-9a-fA-F]+)?\s+(\S)\s+(\S+)$')


def symbols(objs):
    """{object: (defined, used) global symbol sets}, for every object in
    objs, from nm runs of many objects each: nm's start-up (its plugins)
    costs more than reading an object, so one run an object took most of
    this check's time.  With --print-file-name every line names its
    object; a line with an address is a definition, one without (U, and
    an undefined weak w or v) a use."""
    objs = list(objs)
    out = {o: (set(), set()) for o in objs}
    for i in range(0, len(objs), 256):
        chunk = objs[i:i + 256]
        res = subprocess.run(['nm', '--print-file-name', '-g'] + chunk,
                             capture_output=True, text=True, check=True)
        for ln in res.stdout.splitlines():
            m = NM_LINE.match(ln)
            if not m or m.group(1) not in out:
                continue
            out[m.group(1)][0 if m.group(2) else 1].add(m.group(4))
    return out


def sccs(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    build = argv[1]
    listing = '--list' in argv[2:]
    top = os.path.normpath(os.path.join(os.path.dirname(__file__), '..'))
    try:
        objs = objects(build, top)
    except OSError as e:
        print('check-layers: %s: %s (a meson build directory?)' % (build, e),
              file=sys.stderr)
        return 2
    # an object not built would be a file left unchecked: refuse, and
    # say which (ninja builds them all; meson test only a test's depends)
    missing = sorted(s for s, o in objs.items() if not os.path.exists(o))
    if missing:
        print('check-layers: %s: %d of %d objects not built (%s%s); run '
              'ninja first' % (build, len(missing), len(objs),
                               ', '.join(missing[:3]),
                               ', ...' if len(missing) > 3 else ''),
              file=sys.stderr)
        return 2

    definer = {}
    uses = {}
    syms = symbols(objs[s] for s in sorted(objs))
    for src, obj in sorted(objs.items()):
        d, u = syms[obj]
        uses[src] = u
        for s in d:
            definer.setdefault(s, src)
    edges = {}
    for src, u in uses.items():
        for s in u:
            dst = definer.get(s)
            if dst and dst != src:
                edges.setdefault(src, set()).add(dst)

    bad = []
    for src in sorted(edges):
        ls = layer_of(src)
        for dst in sorted(edges[src]):
            ld = layer_of(dst)
            if ls is None or ld is None:
                bad.append('%s -> %s: a file outside the layers' % (src, dst))
            elif ld[0] > ls[0] or (ld[0] == ls[0] and ld[1] != ls[1]):
                bad.append('%s (%s) calls %s (%s): against the layer order'
                           % (src, ls[1], dst, ld[1]))

    # a public header's layer: that of the file defining most of what it
    # declares; approximated by the source of the same name, else by the
    # first definer of a function it names
    def header_layer(hpath):
        base = os.path.basename(hpath)[:-2]
        for src in objs:
            if os.path.basename(src)[:-2] == base:
                return layer_of(src)
        try:
            text = open(os.path.join(top, hpath)).read()
        except OSError:
            return None
        for name in re.findall(r'\b(il_[a-z0-9_]+|drv_[a-z0-9_]+)\s*\(',
                               text):
            if name in definer:
                return layer_of(definer[name])
        return None  # types and macros only: any layer may include it

    headers = {}
    for rel in subprocess.run(['git', '-C', top, 'ls-files', '*.h'],
                              capture_output=True, text=True,
                              check=True).stdout.split():
        headers.setdefault(os.path.basename(rel), []).append(rel)
    files = subprocess.run(['git', '-C', top, 'ls-files', '*.c', '*.h'],
                           capture_output=True, text=True,
                           check=True).stdout.split()
    hl_cache = {}
    for rel in files:
        ls = layer_of(rel)
        if ls is None:
            continue
        with open(os.path.join(top, rel), errors='replace') as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(2)
                if name.startswith('invlab/'):
                    cands = [h for h in headers.get(os.path.basename(name), [])
                             if h.startswith(PUBLIC)]
                elif m.group(1) == '"':
                    here = os.path.normpath(os.path.join(
                        os.path.dirname(rel), name))
                    cands = [here] if here in headers.get(
                        os.path.basename(name), []) else []
                else:
                    continue
                for h in cands:
                    if h.startswith(PUBLIC):
                        if h not in hl_cache:
                            hl_cache[h] = header_layer(h)
                        lh = hl_cache[h]
                    else:
                        lh = layer_of(h)
                    if lh is None:
                        continue
                    if lh[0] > ls[0] or (lh[0] == ls[0] and lh[1] != ls[1]):
                        bad.append('%s:%d: includes %s (%s) from %s'
                                   % (rel, no, name, lh[1], ls[1]))

    cycles = sccs(set(objs), edges)
    if listing:
        for src in sorted(objs):
            ls = layer_of(src)
            print('%-36s %-10s -> %s' % (src, ls[1] if ls else '?',
                                         ' '.join(sorted(edges.get(src, ())))))
    for b in bad:
        print(b)
    for c in cycles:
        print('cycle: ' + ' -> '.join(c + [c[0]]))
    print('check-layers: %d files, %d edges, %d against the order, %d cycles'
          % (len(objs), sum(len(v) for v in edges.values()), len(bad),
             len(cycles)))
    return 1 if bad or cycles else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
