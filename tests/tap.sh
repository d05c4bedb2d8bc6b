# SPDX-License-Identifier: MIT
#
# What the kernel test scripts share; sourced (". tests/tap.sh"), never
# run.  They print TAP 13: their own checks, and the demos' checks relayed
# and renumbered after them.  They run from the source tree under meson
# and installed (libexec/invlab) under invlab-suite on a device, so only
# POSIX sh and what busybox or toybox provide is assumed; a check that
# needs more (python3, util-linux) is a SKIP with the reason.

n=0
fail=0

# check STATUS DESCRIPTION: one test, ok when STATUS is 0; STATUS 77 is a
# check that could not be made here (SKIP, the reason in $skip_why)
skip_why=
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	elif [ "$1" = 77 ]; then
		echo "ok $n - $(printf '%s' "$2" | tr '#' ' ') # SKIP ${skip_why:-not here}"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

# check_verdicts RC DESCRIPTION: a demo's exit status where its verdicts
# are what is tested.  0 is ok; 3 (as expected, but a check where PASS
# was expected is UNDECIDED: docs/exit-status.md) is a SKIP that says
# so, and the script then ends 3 (script_exit) unless a check failed, so
# that tap-run.sh runs it again and a kernel that is UNDECIDED every
# time fails; anything else is not ok.
undecided=0
check_verdicts() {
	if [ "$1" = 3 ]; then
		undecided=$((undecided + 1))
		skip_why="undecided: a check where PASS was expected is UNDECIDED (exit 3)"
		check 77 "$2"
		skip_why=
	else
		[ "$1" = 0 ]
		check $? "$2"
	fi
}

# script_exit: 1 when a check failed, else 3 when a demo's verdicts were
# UNDECIDED (check_verdicts), else 0
script_exit() {
	[ "$fail" = 0 ] || exit 1
	if [ "$undecided" -gt 0 ]; then
		echo "# $undecided run(s) as expected but UNDECIDED: exit 3"
		exit 3
	fi
	exit 0
}

# relay FILE: a demo's TAP lines, renumbered after ours, its comments kept
relay() {
	while IFS= read -r line; do
		case $line in
		"ok "*) check 0 "${line#ok [0-9]* - }" ;;
		"not ok "*) check 1 "${line#not ok [0-9]* - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
}

# skip_if_77 RC FILE: when the demo could not run here, skip the whole
# script with its reason (what follows "SKIP" in FILE: "PROG: SKIP: why"
# on stderr, or "1..0 # SKIP why" in its TAP)
skip_if_77() {
	if [ "$1" -eq 77 ]; then
		why=$(grep -h -m1 SKIP "$2" | sed 's/.*SKIP:* *//')
		[ -n "$why" ] || why=$(tr '\n' ' ' <"$2")
		echo "1..0 # SKIP $(printf '%s' "$why" | head -c 300)"
		exit 77
	fi
}

# leftover_cgroups NAME: directories called NAME (a glob: invlab-PID,
# invlab-*) in every cgroup2 mount and every v1 cpu or cpuset hierarchy,
# found through mountinfo
leftover_cgroups() {
	awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break;
	       fs = $(i + 1); so = $(i + 3)
	       if (fs == "cgroup2" || (fs == "cgroup" &&
		   (so ~ /(^|,)cpu(,|$)/ || so ~ /(^|,)cpuset(,|$)/)))
		       print $5 }' /proc/self/mountinfo |
	while read -r m; do
		find "$m" -maxdepth 4 -type d -name "$1" 2>/dev/null
	done
}

# now_ns: the time in nanoseconds (date +%s%N); whole seconds where date
# has no %N (busybox without its nanosecond feature)
now_ns() {
	t=$(date +%s%N)
	case $t in
	*[!0-9]*) echo $(($(date +%s) * 1000000000)) ;;
	*) echo "$t" ;;
	esac
}

# elapsed_ms T0: milliseconds since T0 (now_ns)
elapsed_ms() {
	echo $((($(now_ns) - $1) / 1000000))
}

# stop_within PID SECONDS: SIGTERM, then wait at most SECONDS for the exit
# (SIGKILL after that); sets rc to the exit status and stop_ms to the time
# it took; returns 1 when it had to be killed
stop_within() {
	t0=$(now_ns)
	kill -TERM "$1"
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	killed=0
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1"
		killed=1
	fi
	wait "$1"
	rc=$?
	stop_ms=$(elapsed_ms "$t0")
	return $killed
}

# wait_for TEST SECONDS: poll until TEST (a shell command) succeeds
wait_for() {
	i=0
	while ! sh -c "$1" >/dev/null 2>&1 && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sh -c "$1" >/dev/null 2>&1
}

# pycheck [ARGS...] <<'PY' ... PY: a check written in Python, read from
# standard input, with ARGS as sys.argv[1:].  Whatever goes wrong inside
# it (a result file missing after an unexpected exit, a run or key that
# is not there) ends it with status 1 and the reason as a TAP comment,
# never a traceback, so the check is a plain "not ok".  Without python3
# (a device) it returns 77: the check is a SKIP with the reason.
pycheck() {
	if ! command -v python3 >/dev/null 2>&1; then
		skip_why="no python3 here to read the result file"
		cat >/dev/null
		return 77
	fi
	python3 -c '
import sys
src = sys.stdin.read()
sys.argv = ["check"] + sys.argv[1:]
try:
    exec(compile(src, "check", "exec"), {"__name__": "__main__"})
except SystemExit:
    raise
except BaseException as e:
    what = "%s: %s" % (type(e).__name__, e)
    print("# check failed: " + " ".join(what.split())[:300])
    sys.exit(1)
' "$@"
}

# need_util_linux TOOL...: the script cannot run here without these
# util-linux tools (busybox's setpriv lacks --reuid, toybox has no
# prlimit): a skip naming the first one missing
need_util_linux() {
	for t; do
		if ! "$t" --version 2>/dev/null | grep -q util-linux; then
			echo "1..0 # SKIP $t (util-linux) not found"
			exit 77
		fi
	done
}

# cpu_count: the CPUs online (nproc, else /proc/cpuinfo)
cpu_count() {
	nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo
}
