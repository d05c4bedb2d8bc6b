#!/bin/sh
# SPDX-License-Identifier: MIT
#
# sched-messaging, small: what it writes, and that it is bounded.
#
#   kernel-sched-messaging.sh PROG result   2 groups, 2 runs: each run in
#                        the JSON with wall_ns > 0, completed, and its
#                        counters (every counter a number or the reason)
#   kernel-sched-messaging.sh PROG bound    a run far longer than its
#                        --duration bound: exit 1 within seconds, the run
#                        marked not completed, no worker left behind
#   kernel-sched-messaging.sh PROG sigterm  SIGTERM mid-run: 143, the JSON
#                        marked interrupted, no worker left behind
#
# No timing is judged: the machine may be loaded.
set -u
prog=$1
mode=$2

tmp=$(mktemp -d /tmp/invlab-test.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# this test's own workers: the program's processes started with the
# mark in their environment (another suite's sched-messaging may be
# running beside this one; a leftover worker is no child of the run)
mark="INVLAB_TEST_MARK=$$.${tmp##*.}"
export "$mark"
workers() {
	own_procs "$(basename "$prog")" "$mark" | wc -l | tr -d ' '
}

case $mode in
result)
	"$prog" -g 2 -l 50 -r 2 -d 30s --no-lock --json "$tmp/r.json" \
		>"$tmp/out" 2>&1
	rc=$?
	skip_if_77 $rc "$tmp/out"
	check $rc "exit 0 (every run completed): $rc"
	pycheck "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["program"] == "sched-messaging", d["program"]
PY
	check $? "a result file"
	pycheck "$tmp/r.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 2 and all(r["wall_ns"] > 0 for r in runs), runs
PY
	check $? "two runs, each with its wall time"
	pycheck "$tmp/r.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [r["completed"] for r in runs] == [True, True], runs
PY
	check $? "both completed"
	for k in context_switches cpu_migrations sched_switch sched_wakeup \
		sched_migrate_task cycles instructions cache_misses \
		voluntary_switches involuntary_switches; do
		pycheck "$tmp/r.json" "$k" <<'PY'
import json, sys
k = sys.argv[2]
# a count, or a string saying why not, wherever the run has the counter
def values(o):
    if isinstance(o, dict):
        for key, v in o.items():
            if key == k:
                yield v
            yield from values(v)
    elif isinstance(o, list):
        for v in o:
            yield from values(v)
got = list(values(json.load(open(sys.argv[1]))["runs"]))
assert got, "no " + k
assert all((isinstance(v, int) and not isinstance(v, bool)) or
           v in ("not supported", "not available") for v in got), got
PY
		check $? "counter $k: a count or why not"
	done
	pycheck "$tmp/r.json" <<'PY'
import json, sys
def values(o, k):
    if isinstance(o, dict):
        for key, v in o.items():
            if key == k:
                yield v
            yield from values(v, k)
    elif isinstance(o, list):
        for v in o:
            yield from values(v, k)
got = list(values(json.load(open(sys.argv[1]))["runs"], "voluntary_switches"))
assert any(isinstance(v, int) and v > 0 for v in got), got
PY
	check $? "receivers that block switch voluntarily"
	grep -q 'Total time: ' "$tmp/out"
	check $? "the text report has the wall time"
	grep -q 'AMean wall time' "$tmp/out"
	check $? "and its AMean over the runs"
	check_schema "$tmp/r.json"
	;;
bound)
	t0=$(date +%s%N)
	"$prog" -g 2 -l 5000000 -d 500ms --no-lock --json "$tmp/r.json" \
		>"$tmp/out" 2>&1
	rc=$?
	skip_if_77 $rc "$tmp/out"
	ms=$(elapsed_ms "$t0")
	check $((rc != 1)) "exit 1 (the run did not complete): $rc"
	check $((ms > 20000)) "ended within 20 s of a 500 ms bound: $ms ms"
	pycheck "$tmp/r.json" <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["runs"][0]["completed"] is False
PY
	check $? "the run is marked not completed"
	grep -q 'within the bound' "$tmp/out"
	check $? "and says why"
	check_schema "$tmp/r.json"
	check "$(workers)" "no worker of this run left behind"
	;;
sigterm)
	"$prog" -g 2 -l 5000000 -d 60s --no-lock --json "$tmp/r.json" \
		>"$tmp/out" 2>&1 &
	pid=$!
	sleep 1
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	skip_if_77 $rc "$tmp/out"
	check $((rc != 143)) "exit 143 on SIGTERM: $rc"
	pycheck "$tmp/r.json" <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["interrupted"] is True
PY
	check $? "the JSON says interrupted"
	check_schema "$tmp/r.json"
	sleep 0.2
	check "$(workers)" "no worker of this run left behind"
	;;
*)
	echo "kernel-sched-messaging.sh: unknown mode '$mode'" >&2
	exit 99
	;;
esac
echo "1..$n"
exit $fail
