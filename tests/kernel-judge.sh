#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Judging can be redone from the result file: invlab-run writes a run's
# judge inputs, invlab-judge rebuilds the scenario, the engine result and
# the environment from them and must reach every recorded verdict again.
#
#   kernel-judge.sh INVLAB_RUN INVLAB_JUDGE JOBDIR [KMUTEX]
#
# Runs pi-classic.job and dl-basic.job for 1 s each, and kmutex's
# contention and rt-waiter configurations (whatever their verdicts:
# timing is not what is tested: a run may end 0, 1 or 3, undecided
# tolerated), then requires invlab-judge to agree (exit 0, or 3 exactly
# when a check where PASS was expected is UNDECIDED, as the run ended),
# to notice a recorded verdict changed by hand (exit 1), and to refuse a
# file that is no result (exit 2).  Exits 77 (SKIP) with the
# reason when the jobs cannot run here.
set -u
run=$1
judge=$2
jobs=$3
kmutex=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
if [ ! -f "$judge" ] || [ ! -x "$judge" ]; then
	echo "1..0 # SKIP $judge is not installed (it needs json-c)"
	exit 77
fi
for job in pi-classic dl-basic ${kmutex:+kmutex}; do
	if [ "$job" = kmutex ]; then
		"$kmutex" -C contention,rt-waiter -d 1s --json "$tmp/$job.json" \
			>"$tmp/$job.out" 2>"$tmp/$job.err"
	else
		"$run" "$jobs/$job.job" -d 1s --json "$tmp/$job.json" \
			>"$tmp/$job.out" 2>"$tmp/$job.err"
	fi
	rc=$?
	skip_if_77 $rc "$tmp/$job.err"
	# the verdicts are not what is tested: UNDECIDED (3) is tolerated
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
	check $? "$job: ran and was judged (exit $rc)"
	check_schema "$tmp/$job.json"
	run_rc=$rc
	"$judge" "$tmp/$job.json" >"$tmp/$job.judge" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/$job.judge"
	# agreeing is not passing: an UNDECIDED where PASS was expected
	# ends 3 here too, and the run that ended 3 had one
	want=0
	grep -q ": UNDECIDED, expected PASS: as recorded$" "$tmp/$job.judge" &&
		want=3
	[ "$rc" -eq "$want" ] && { [ "$run_rc" -ne 3 ] || [ "$want" -eq 3 ]; }
	check $? "$job: invlab-judge re-derives every verdict (exit $rc, expected $want; the run's $run_rc)"
	grep -q "as recorded$" "$tmp/$job.judge"
	check $? "$job: at least one check was judged again"
done

# a verdict changed by hand is found
for job in dl-basic ${kmutex:+kmutex}; do
	pycheck "$tmp/$job.json" "$tmp/changed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for r in d["runs"] for c in r["checks"]][0]
c["verdict"] = "FAIL" if c["verdict"] != "FAIL" else "PASS"
json.dump(d, open(sys.argv[2], "w"))
PY
	rc=$?
	if [ "$rc" -eq 0 ]; then
		"$judge" "$tmp/changed.json" >"$tmp/changed.out" 2>&1
		rc=$?
		[ "$rc" -eq 1 ] && grep -q DIFFERS "$tmp/changed.out"
		rc=$?
	fi
	check $rc "$job: a changed verdict is reported as differing"
done

echo '{"runs": []}' >"$tmp/empty.json"
"$judge" "$tmp/empty.json" >/dev/null 2>"$tmp/empty.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "empty.json: " "$tmp/empty.err"
check $? "a file without runs is bad input (exit $rc)"

echo "1..$n"
exit $fail
