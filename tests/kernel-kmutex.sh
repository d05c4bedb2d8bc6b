#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kmutex on the live kernel, as TAP.
#
#   kernel-kmutex.sh PROGRAM recipe RECIPE  the recipe holds and contends:
#                                           a quick contention run shows fg's
#                                           calls slower than uncontended
#   kernel-kmutex.sh PROGRAM throttled      runs in under 20 s and gives a
#   kernel-kmutex.sh PROGRAM rt-waiter      verdict, the one this kernel
#                                           should give
#   kernel-kmutex.sh PROGRAM cleanup        after a run, and after SIGTERM
#                                           mid-run: no invlab-* cgroup in
#                                           any cpu or cpuset hierarchy, no
#                                           temporary directory, prompt exit
#
# Exits 77 (SKIP) with the reason when cgroups, SCHED_FIFO or a second CPU
# are missing (the program says which); 3 when a run's verdicts were as
# expected but one where PASS was expected UNDECIDED (tap.sh
# check_verdicts: tap-run.sh runs the case again).
set -u
prog=$1
mode=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
case $mode in
recipe)
	recipe=$3
	"$prog" --config contention --recipe "$recipe" -d 1s --tap \
		--json "$tmp/out.json" >"$tmp/tap" 2>"$tmp/err"
	rc=$?
	skip_if_77 $rc "$tmp/err"
	relay "$tmp/tap"
	# UNDECIDED tolerated here, and only here: the contention check
	# says whether fg's calls were slowed, which on a noisy host they
	# often are not for fpos (docs/kmutex.md: 4 of 6 runs under its 25 %
	# on a 2-vCPU guest, 5 of 6 here at a load of 4), and that is no
	# fault of the kernel's.  The run still ends 3 (invlab-suite counts
	# it), the case does not run again, and the check below still
	# requires the contender to have held the lock.
	[ "$rc" -eq 3 ] &&
		echo "# contention UNDECIDED: fg's calls not slowed enough to tell; tolerated for a recipe (docs/kmutex.md)"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]
	check $? "$recipe: exit status 0, or 3 (contention UNDECIDED, tolerated) (got $rc)"
	pycheck "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = next((x for x in d["runs"] if x["configuration"] == "contention"), None)
assert r, "no contention run in the result file"
assert r["contender_calls"] > 0, "the contender made no call"
assert r["uncontended_cost_ns"] > 0, "no uncontended cost"
b = r["blocked_ns"]
print("# %s: %d calls, mean %.1f us vs uncontended %.1f us (median); "
      "contender %d calls" % (d["scenario"]["lock"], b["count"],
      b["mean"] / 1e3, r["uncontended_cost_ns"] / 1e3, r["contender_calls"]))
PY
	check $? "$recipe: the contender held the lock, and the result file says so"
	check_schema "$tmp/out.json"
	;;
throttled | rt-waiter)
	# timed from when it has its CPUs: another suite's run may hold
	# them first, up to --lock-wait
	"$prog" --config "$mode" -d 3s --tap --json "$tmp/out.json" \
		>"$tmp/tap" 2>"$tmp/err" &
	pid=$!
	wait_locked $pid "$tmp/err" 35
	t0=$(now_ns)
	wait $pid
	rc=$?
	ms=$(elapsed_ms "$t0")
	skip_if_77 $rc "$tmp/err"
	relay "$tmp/tap"
	[ "$ms" -lt 20000 ]
	check $? "$mode ran in under 20 s once it had its CPUs ($ms ms)"
	pycheck "$tmp/out.json" "$mode" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = next((x for x in d["runs"] if x["configuration"] == sys.argv[2]), None)
assert r, "no %s run in the result file" % sys.argv[2]
assert r["verdict"] in ("PASS", "FAIL", "UNDECIDED"), r["verdict"]
print("# %s: %s, expected %s (%s); proxy_exec_active %s" % (sys.argv[2],
      r["verdict"], r["expected"], r["expected_because"],
      d["kernel"]["proxy_exec_active"]))
PY
	check $? "$mode produced a verdict with the kernel's proxy-exec state"
	check_schema "$tmp/out.json"
	check_verdicts $rc "$mode: the verdict this kernel should give (exit $rc)"
	;;
cleanup)
	# a whole run: what it made is gone when it ends
	"$prog" --config alone,throttled -d 500ms --quiet >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait $pid
	rc=$?
	skip_if_77 $rc "$tmp/err"
	# the verdicts are not what is tested: 3 (UNDECIDED) is as normal
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
	check $? "a short run ends normally (exit $rc)"
	left=$(leftover_cgroups "invlab-$pid")
	[ -z "$left" ]
	check $? "no invlab-$pid cgroup left after the run ${left:+($left)}"
	left=$(ls -d /tmp/invlab-kmutex-"$pid"-* 2>/dev/null)
	[ -z "$left" ]
	check $? "no temporary directory left after the run ${left:+($left)}"

	# SIGTERM in the middle of a configuration
	"$prog" --config throttled,rt-waiter -d 20s --json "$tmp/int.json" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	# mid-run: throttled's groups and the directory made (polled, not a
	# fixed sleep, once it has its CPUs: another suite's run may hold
	# them first), then a moment inside the configuration
	wait_locked $pid "$tmp/err" 35
	skip_if_gave_up $pid "$tmp/err"
	wait_for "ls -d /tmp/invlab-kmutex-$pid-* &&
		find /sys/fs/cgroup -maxdepth 4 -type d -name invlab-$pid |
		grep -q ." 10
	sleep 0.3
	mid_cg=$(leftover_cgroups "invlab-$pid")
	mid_tmp=$(ls -d /tmp/invlab-kmutex-"$pid"-* 2>/dev/null)
	[ -n "$mid_cg" ] && [ -n "$mid_tmp" ]
	check $? "mid-run the groups and the directory exist (so the check below means something)"
	stop_within "$pid" 10
	check $? "exits within 10 s of SIGTERM ($stop_ms ms)"
	[ "$rc" -eq 143 ]
	check $? "exit status 128+SIGTERM (got $rc)"
	left=$(leftover_cgroups "invlab-$pid")
	[ -z "$left" ]
	check $? "no invlab-$pid cgroup left after SIGTERM ${left:+($left)}"
	left=$(ls -d /tmp/invlab-kmutex-"$pid"-* 2>/dev/null)
	[ -z "$left" ]
	check $? "no temporary directory left after SIGTERM ${left:+($left)}"
	pycheck "$tmp/int.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True and d["return_code"] == 143
print("# partial JSON: %s" % [r["configuration"] for r in d["runs"]])
PY
	check $? "partial results written, marked interrupted"
	check_schema "$tmp/int.json"
	;;
*)
	echo "unknown mode '$mode'" >&2
	exit 99
	;;
esac
echo "1..$n"
script_exit
