#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Result files against docs/results.schema.json.

  check-schema.py [--schema SCHEMA] FILE...
  check-schema.py [--schema SCHEMA] --invalid FILE...

Every FILE must validate against the schema (docs/results.md says what
it describes); with --invalid every FILE must NOT: the negative cases
that show the schema is not vacuous.  Each file's first errors are
printed, as "FILE: PATH: message", the path a JSON pointer into the file.

The schema is found beside the sources (../docs from here), then where
it is installed (share/invlab, from libexec/invlab), unless --schema or
INVLAB_RESULTS_SCHEMA names it.

Exit status: 0 all as expected, 1 a file that does not validate (or,
with --invalid, one that does), 2 bad usage or a file that cannot be
read or is not JSON, 77 when python3-jsonschema or the schema is not
here (the reason on standard output: the kernel scripts' skip_why).
"""
import json
import os
import sys

MAX_ERRORS = 5


def find_schema(given):
    if given:
        return given
    if os.environ.get('INVLAB_RESULTS_SCHEMA'):
        return os.environ['INVLAB_RESULTS_SCHEMA']
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ('../docs/results.schema.json',
                '../../share/invlab/results.schema.json'):
        p = os.path.normpath(os.path.join(here, rel))
        if os.path.exists(p):
            return p
    return None


def pointer(path):
    return '/' + '/'.join(str(p) for p in path)


def main(argv):
    args = argv[1:]
    schema_path = None
    invalid = False
    while args and args[0].startswith('--'):
        a = args.pop(0)
        if a == '--schema' and args:
            schema_path = args.pop(0)
        elif a == '--invalid':
            invalid = True
        elif a == '--':
            break
        else:
            sys.stderr.write('check-schema.py: unknown option %s\n' % a)
            return 2
    if not args:
        sys.stderr.write(__doc__)
        return 2
    try:
        import jsonschema
    except ImportError:
        print('no python3-jsonschema here to validate result files')
        return 77
    schema_path = find_schema(schema_path)
    if not schema_path or not os.path.exists(schema_path):
        print('results.schema.json not found (INVLAB_RESULTS_SCHEMA names it)')
        return 77
    with open(schema_path, encoding='utf-8') as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)

    rc = 0
    for path in args:
        try:
            with open(path, encoding='utf-8') as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print('%s: cannot be read as JSON: %s' % (path, e))
            rc = max(rc, 2)
            continue
        errors = sorted(validator.iter_errors(doc),
                        key=lambda e: list(e.absolute_path))
        if invalid:
            if errors:
                print('%s: invalid, as it must be: %s: %s' %
                      (path, pointer(errors[0].absolute_path),
                       errors[0].message[:200]))
            else:
                print('%s: validates, but must not' % path)
                rc = max(rc, 1)
            continue
        if not errors:
            print('%s: valid' % path)
            continue
        rc = max(rc, 1)
        for e in errors[:MAX_ERRORS]:
            print('%s: %s: %s' % (path, pointer(e.absolute_path),
                                  e.message[:300]))
        if len(errors) > MAX_ERRORS:
            print('%s: %d errors more' % (path, len(errors) - MAX_ERRORS))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
