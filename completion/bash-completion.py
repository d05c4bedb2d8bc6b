#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bash completion for one program, from its own option table.

  bash-completion.py NAME TABLE OUTPUT [LIST]

TABLE is what "NAME --help=completion" printed (lib/scenario/opt.c,
il_opt_completion): a "usage" line, then a line an option,
"option<TAB>--name<TAB>-x<TAB>KIND<TAB>CHOICES".  A program without an
option table (invlab-suite, a shell script) gives its --help text
instead: its option lines ("  -o, --output DIR  ...") are read.

The operands come from the usage line: result and job files (a word
with FILE, .json or DIR in it) complete as file names; configuration or
scenario names (SCENARIO..., CONFIGURATION...) are the first words of
LIST, what "NAME --list" printed.  A program whose usage names such
operands must be given its LIST: the build fails otherwise, rather than
install a completion that offers nothing.

OUTPUT is a bash script defining _invlab_NAME and binding it to NAME
with "complete", loaded by bash-completion on demand (completionsdir)
or sourced.  It needs bash alone, not bash-completion's helpers.
"""
import re
import sys

HEADER = '''# bash completion for {name}
# Generated from the option table of {name} ({source}) by
# completion/bash-completion.py; edit the table, not this file.
'''


def die(msg):
    sys.stderr.write('bash-completion.py: %s\n' % msg)
    sys.exit(1)


def from_table(text):
    usage, opts = '', []
    for line in text.splitlines():
        f = line.split('\t')
        if f[0] == 'usage' and len(f) >= 2:
            usage = f[1]
        elif f[0] == 'option' and len(f) == 5:
            opts.append({'long': f[1], 'short': f[2], 'kind': f[3],
                         'choices': f[4].split('|') if f[4] else []})
        elif line.strip():
            die('not a line of --help=completion: %r' % line)
    return usage, opts


def from_help(text):
    """A --help text: "Usage: NAME ..." and "  -o, --output DIR  help"."""
    usage, opts = '', []
    for line in text.splitlines():
        m = re.match(r'^Usage: \S+ (.*)$', line)
        if m:
            usage = m.group(1)
            continue
        m = re.match(r'^  (?:(-[A-Za-z0-9]), |    )(--[a-z][a-z0-9-]*)'
                     r'(?:[ =]([A-Z][A-Z0-9_.]*))?(?:\s|$)', line)
        if not m:
            continue
        short, name, meta = m.group(1) or '', m.group(2), m.group(3)
        if not meta:
            kind = 'flag'
        elif 'DIR' in meta:
            kind = 'dir'
        elif 'FILE' in meta or 'PATH' in meta:
            kind = 'file'
        else:
            kind = 'value'
        opts.append({'long': name, 'short': short, 'kind': kind,
                     'choices': []})
    return usage, opts


def operands(usage, listing, name):
    """'files', a list of names, or None (no operands)"""
    words = []
    skip = False
    for w in usage.split():
        if skip:
            skip = False
            continue
        if w.startswith('--'):
            # "--profile FILE": an option and its value, not an operand
            skip = w != '--' and not w.startswith('--[')
            continue
        w = w.strip('[].')
        if w and w != 'OPTIONS' and w != '-':
            words.append(w)
    if not words:
        return None
    if any('FILE' in w or '.json' in w or 'DIR' in w for w in words):
        return 'files'
    if listing is None:
        die('%s: its usage names operands (%s) and no LIST of them was '
            'given ("%s --list")' % (name, ' '.join(words), name))
    names = [l.split()[0] for l in listing.splitlines() if l.strip()]
    if not names:
        die('%s --list printed no names' % name)
    return names


def quote(words):
    return "'" + ' '.join(words) + "'"


def generate(name, usage, opts, ops, source):
    fn = '_invlab_' + re.sub(r'[^A-Za-z0-9]', '_', name)
    all_words = []
    for o in opts:
        all_words.append(o['long'])
        if o['short']:
            all_words.append(o['short'])
    out = [HEADER.format(name=name, source=source)]
    out.append('%s_value()\n{\n' % fn)
    out.append('\t# $1 the option, $2 the value typed so far\n')
    out.append('\tcase $1 in\n')
    for o in opts:
        if o['kind'] == 'flag':
            continue
        pat = o['long'] + ('|' + o['short'] if o['short'] else '')
        if o['kind'] == 'choice':
            body = 'compgen -W %s -- "$2"' % quote(o['choices'])
        elif o['kind'] == 'file':
            body = 'compgen -f -- "$2"'
        elif o['kind'] == 'dir':
            body = 'compgen -d -- "$2"'
        else:
            body = ':'
        out.append('\t%s) %s ;;\n' % (pat, body))
    out.append('\t*) return 1 ;;\n\tesac\n}\n\n')

    takes = [o['long'] for o in opts if o['kind'] != 'flag']
    takes += [o['short'] for o in opts if o['kind'] != 'flag' and o['short']]
    out.append('%s()\n{\n' % fn)
    out.append('\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= prev2= o v\n')
    out.append('\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n')
    out.append('\t((COMP_CWORD > 1)) && prev2=${COMP_WORDS[COMP_CWORD - 2]}\n')
    out.append('\tCOMPREPLY=()\n')
    out.append('''\t# "--opt=VALUE" as one word (COMP_WORDBREAKS without '=')
\tif [[ $cur == --*=* ]]; then
\t\to=${cur%%%%=*} v=${cur#*=}
\t\tCOMPREPLY=($(%(fn)s_value "$o" "$v"))
\t\tCOMPREPLY=("${COMPREPLY[@]/#/$o=}")
\t\treturn 0
\tfi
\t# bash's default COMP_WORDBREAKS splits at '=': "--opt" "=" "VALUE"
\tif [[ $cur == = ]]; then
\t\tCOMPREPLY=($(%(fn)s_value "$prev" ""))
\t\treturn 0
\tfi
\tif [[ $prev == = && $prev2 == --* ]]; then
\t\tCOMPREPLY=($(%(fn)s_value "$prev2" "$cur"))
\t\treturn 0
\tfi
\t# "--opt VALUE", "-x VALUE"
\tcase $prev in
\t%(takes)s)
\t\tCOMPREPLY=($(%(fn)s_value "$prev" "$cur"))
\t\treturn 0
\t\t;;
\tesac
\tif [[ $cur == -* ]]; then
\t\tCOMPREPLY=($(compgen -W %(words)s -- "$cur"))
\t\treturn 0
\tfi
''' % {'fn': fn, 'takes': '|'.join(takes) if takes else '--',
       'words': quote(all_words)})
    if ops == 'files':
        out.append('\tCOMPREPLY=($(compgen -f -- "$cur"))\n')
    elif ops:
        out.append('\tCOMPREPLY=($(compgen -W %s -- "$cur"))\n' % quote(ops))
    out.append('\treturn 0\n}\n')
    out.append('complete -o filenames -F %s %s\n' % (fn, name))
    return ''.join(out)


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    name, table, output = argv[1], argv[2], argv[3]
    with open(table, encoding='utf-8') as f:
        text = f.read()
    if text.startswith('usage\t'):
        usage, opts = from_table(text)
        source = '"%s --help=completion"' % name
    else:
        usage, opts = from_help(text)
        source = 'its --help'
    if not opts:
        die('%s: no options in %s' % (name, table))
    listing = None
    if len(argv) == 5:
        with open(argv[4], encoding='utf-8') as f:
            listing = f.read()
    ops = operands(usage, listing, name)
    with open(output, 'w', encoding='utf-8') as f:
        f.write(generate(name, usage, opts, ops, source))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
