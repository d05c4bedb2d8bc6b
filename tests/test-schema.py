#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/results.schema.json: the repository's result files validate, and
the schema is not vacuous.

  test-schema.py SCHEMA FILE...

Every FILE (the fixtures of tests/data that are result files as the
programs write them) must validate.  Then single defects, each made in a
copy of one of them, must not: a verdict that is not one, a check
without its expectation, a missing envelope member, a newer
schema_version, a unit in a value, a histogram without its bins, a run
that ended in a way no program says; the gate's checks-unjudged.json
fixture (runs nobody can judge) must not either.  invlab-suite's summary
is checked the same way.  Each defect must be reported at the path where
it was made, so that a schema that fails a file for another reason does
not pass this test.

Exit status: 0 all as expected, 1 not, 77 without python3-jsonschema.
"""
import copy
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print('1..0 # SKIP no python3-jsonschema here')
    sys.exit(77)

n = 0
failed = False


def check(ok, desc):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, desc))
    if not ok:
        failed = True


def errors(validator, doc):
    return list(validator.iter_errors(doc))


def pointer(path):
    return '/' + '/'.join(str(p) for p in path)


def must_fail(validator, doc, where, desc):
    """doc must be invalid, with an error at or below the path where"""
    errs = errors(validator, doc)
    at = [pointer(e.absolute_path) for e in errs]
    hit = any(a == where or a.startswith(where + '/') for a in at)
    check(bool(errs) and hit, 'rejected: %s (at %s)' % (desc, where))
    if not hit:
        for e in errs[:3]:
            print('# %s: %s' % (pointer(e.absolute_path), e.message[:200]))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding='utf-8') as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    check(cls is jsonschema.Draft202012Validator,
          'the schema is draft 2020-12')
    v = cls(schema)

    docs = {}
    for path in argv[2:]:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
        docs[os.path.basename(path)] = doc
        errs = errors(v, doc)
        for e in errs[:3]:
            print('# %s: %s' % (pointer(e.absolute_path), e.message[:200]))
        if os.path.basename(path) == 'checks-unjudged.json':
            # runs nobody can judge: bad verdicts and expectations
            bad = {pointer(e.absolute_path) for e in errs}
            check('/runs/3/checks/0/verdict' in bad and
                  '/runs/4/checks/0/expected' in bad,
                  '%s is rejected for its verdict and expectation' % path)
        else:
            check(not errs, '%s validates' % path)

    base = docs.get('checks-pass.json')
    hist = docs.get('dl-mbwi-a.json')
    if base is None or hist is None:
        check(False, 'checks-pass.json and dl-mbwi-a.json among the files')
        return 1

    def mutated(doc, fn):
        d = copy.deepcopy(doc)
        fn(d)
        return d

    def setk(keys, value):
        def fn(d):
            o = d
            for k in keys[:-1]:
                o = o[k]
            o[keys[-1]] = value
        return fn

    def delk(keys):
        def fn(d):
            o = d
            for k in keys[:-1]:
                o = o[k]
            del o[keys[-1]]
        return fn

    cases = [
        (base, setk(['runs', 0, 'checks', 0, 'verdict'], 'OK'),
         '/runs/0/checks/0/verdict', 'a verdict that is not one'),
        (base, setk(['runs', 0, 'checks', 0, 'verdict'], 'pass'),
         '/runs/0/checks/0/verdict', 'a verdict in lower case'),
        (base, setk(['runs', 0, 'checks', 0, 'expected'], 'MAYBE'),
         '/runs/0/checks/0/expected', 'an expectation that is not one'),
        (base, delk(['runs', 0, 'checks', 0, 'expected']),
         '/runs/0/checks/0', 'a check without its expectation'),
        (base, delk(['runs', 0, 'checks', 0, 'verdict']),
         '/runs/0/checks/0', 'a check without its verdict'),
        (base, setk(['runs', 0, 'verdict'], 'PASSED'),
         '/runs/0/verdict', "a run's verdict that is not one"),
        (base, delk(['runs', 0, 'configuration']),
         '/runs/0', 'a run without its configuration'),
        (base, delk(['program']), '', 'no program'),
        (base, delk(['runs']), '', 'no runs'),
        (base, delk(['kernel']), '', 'no kernel'),
        (base, delk(['end_time']), '', 'no end_time'),
        (base, delk(['schema_version']), '', 'no schema_version'),
        (base, setk(['schema_version'], 2), '/schema_version',
         'a newer schema_version'),
        (base, setk(['schema_version'], '1'), '/schema_version',
         'schema_version as a string'),
        (base, setk(['return_code'], 'PASS'), '/return_code',
         'return_code not a number'),
        (base, setk(['start_time'], '06/12/2026 19:00'), '/start_time',
         'a time that is not RFC 3339 UTC'),
        (base, setk(['runs', 0, 'checks', 0, 'bound_ns'], '2ms'),
         '/runs/0/checks/0/bound_ns', 'a unit in a value'),
        (base, setk(['runs', 0, 'ended_by'], 'timeout'),
         '/runs/0/ended_by', 'a run ended by what no program says'),
        (base, setk(['kernel', 'hz'], '250'), '/kernel/hz',
         'the kernel\'s hz as a string'),
        (base, setk(['runs', 0, 'Worst Case'], 1), '/runs/0',
         'a key that is not snake_case'),
        (hist, delk(['runs', 0, 'tasks', 0, 'wakeup_ns', 'bins']),
         '/runs/0/tasks/0/wakeup_ns', 'a histogram without its bins'),
        (hist, setk(['runs', 0, 'tasks', 0, 'wakeup_ns', 'p99'], 'n/a'),
         '/runs/0/tasks/0/wakeup_ns/p99', 'a percentile as a string'),
        (hist, setk(['runs', 0, 'tasks', 0, 'wakeup_ns', 'bins'],
                    [[1000, 0]]),
         '/runs/0/tasks/0/wakeup_ns/bins/0', 'an empty bin listed'),
        (hist, setk(['runs', 0, 'tasks', 0, 'response_ns'], '12 ms'),
         '/runs/0/tasks/0/response_ns', 'a histogram replaced by a string'),
    ]
    for doc, fn, where, desc in cases:
        must_fail(v, mutated(doc, fn), where, desc)

    suite = {
        'schema_version': 1, 'suite': 'invlab-suite', 'version': '0.1.0',
        'kernel': '6.1.0', 'exit': 0, 'seconds': 12, 'passed': 1,
        'undecided': 0, 'failed': 0, 'skipped': 1, 'errors': 0,
        'max_undecided_percent': 100, 'undecided_over_share': False,
        'cases': [
            {'name': 'a', 'program': 'pi-classic', 'expected_exit': 0,
             'exit': 0, 'result': 'pass', 'seconds': 2, 'reason': ''},
            {'name': 'b', 'program': 'kmutex', 'expected_exit': 0,
             'exit': 77, 'result': 'skip', 'seconds': 0,
             'reason': 'no root'},
        ],
    }
    check(not errors(v, suite), "invlab-suite's summary validates")
    must_fail(v, mutated(suite, setk(['cases', 0, 'result'], 'ok')),
              '/cases/0/result', "a suite case's result that is not one")
    must_fail(v, mutated(suite, delk(['schema_version'])), '',
              'a suite summary without schema_version')
    must_fail(v, mutated(suite, delk(['cases'])), '',
              'a suite summary without cases')

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
