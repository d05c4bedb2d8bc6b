#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What the programs write validates against docs/results.schema.json,
# without privilege: invlab-run on CFS tasks, sched-messaging, and
# invlab-import in each of its formats from the fixtures of
# tests/data/import.  The kernel suite validates the real-time runs'
# files; this is the part any build machine can check.  TAP out; a SKIP
# without python3-jsonschema.
#
#   check-schema-programs.sh INVLAB-RUN JOB SCHED-MESSAGING
#                            [INVLAB-IMPORT IMPORT-DATA]
set -u
run=$1
job=$2
sm=$3
import=${4:-}
data=${5:-}
here=$(dirname "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-schema.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

echo "TAP version 13"
if ! "${INVLAB_PYTHON:-python3}" -c 'import jsonschema' 2>/dev/null; then
	echo "1..0 # SKIP no python3-jsonschema here"
	exit 77
fi

# valid DESCRIPTION FILE: the file validates (the errors as comments)
valid() {
	n=$((n + 1))
	if "${INVLAB_PYTHON:-python3}" "$here/check-schema.py" "$2" >"$tmp/why" 2>&1; then
		echo "ok $n - $1"
	else
		sed 's/^/# /' "$tmp/why"
		echo "not ok $n - $1"
		fail=1
	fi
}

"$run" "$job" -d 300ms --repeat 2 --no-lock --json "$tmp/run.json" \
	>"$tmp/out" 2>&1
echo "# invlab-run: exit $?"
valid "invlab-run (two repeats of a CFS job)" "$tmp/run.json"
"$run" "$job" -d 200ms --no-lock --sweep 'M.protocol=none,inherit' \
	--json "$tmp/sweep.json" >"$tmp/out" 2>&1
echo "# invlab-run --sweep: exit $?"
valid "invlab-run --sweep (the file's sweep and each run's)" \
	"$tmp/sweep.json"
"$sm" -g 1 -l 20 -r 2 --no-lock --json "$tmp/sm.json" >"$tmp/out" 2>&1
echo "# sched-messaging: exit $?"
valid "sched-messaging" "$tmp/sm.json"
"$sm" -f 1 -l 2 --sweep groups=1,2 --no-lock --json "$tmp/smsweep.json" \
	>"$tmp/out" 2>&1
echo "# sched-messaging --sweep: exit $?"
valid "sched-messaging --sweep" "$tmp/smsweep.json"

if [ -n "$import" ]; then
	imp() { # description, output, arguments...
		d=$1 o=$2
		shift 2
		"$import" -o "$tmp/$o" "$@" >"$tmp/out" 2>&1
		echo "# invlab-import $1 $2: exit $?"
		valid "invlab-import: $d" "$tmp/$o"
	}
	imp cyclictest-json ct.json --from cyclictest-json \
		"$data/cyclictest-a.json" "$data/cyclictest-b.json"
	imp cyclictest-hist cth.json --from cyclictest-hist \
		"$data/cyclictest-a.hist"
	imp rt-app rtapp.json --from rt-app "$data/rt-app-fifo-1.log" \
		"$data/rt-app-periodic-0.log"
	imp rename-test rename.json --from rename-test \
		"$data/results-alone.log"
	imp perf-messaging perf.json --from perf-messaging \
		"$data/perf-process.txt"
	imp schbench schbench.json --from schbench "$data/schbench-a.txt"
fi
echo "1..$n"
exit $fail
