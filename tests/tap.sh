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

# control_undecided FILE: the demo's TAP in FILE has a check where FAIL
# was expected that read UNDECIDED (a negative control the host's noise
# covered), and no other check not as expected
control_undecided() {
	grep -q '^not ok [0-9]* - .*: UNDECIDED (expected FAIL)$' "$1" &&
		! grep '^not ok ' "$1" | grep -qv ': UNDECIDED (expected FAIL)$'
}

# undecided_control DESCRIPTION: a negative control that read UNDECIDED:
# neither its pass nor a failure, a SKIP that says so, and the script
# ends 3 (script_exit) so that tap-run.sh runs it again; a kernel on
# which it is UNDECIDED every time does not pass
undecided_control() {
	undecided=$((undecided + 1))
	skip_why="undecided: a check where FAIL was expected is UNDECIDED"
	check 77 "$1"
	skip_why=
}

# relay FILE: a demo's TAP lines, renumbered after ours, its comments
# kept; a negative control that read UNDECIDED is undecided_control's
relay() {
	while IFS= read -r line; do
		case $line in
		"ok "*) check 0 "${line#ok [0-9]* - }" ;;
		"not ok "*": UNDECIDED (expected FAIL)")
			undecided_control "${line#not ok [0-9]* - }" ;;
		"not ok "*) check 1 "${line#not ok [0-9]* - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
}

# skip_if_77 RC FILE: when the demo could not run here, skip the whole
# script with its reason (what follows "SKIP" in FILE: "PROG: SKIP: why"
# on stderr, or "1..0 # SKIP why" in its TAP); once tests were reported,
# the rest of the script as one skipped test (a second suite beside this
# one may take the deadline bandwidth a later run needs)
skip_if_77() {
	if [ "$1" -eq 77 ]; then
		why=$(grep -h -m1 SKIP "$2" | sed 's/.*SKIP:* *//')
		[ -n "$why" ] || why=$(tr '\n' ' ' <"$2")
		why=$(printf '%s' "$why" | head -c 300)
		if [ "$n" -gt 0 ]; then
			# tests were reported already: "1..0" would be no
			# TAP; the rest is one skipped test, and the plan
			n=$((n + 1))
			echo "ok $n - the rest # SKIP $why"
			echo "1..$n"
			exit "$fail"
		fi
		echo "1..0 # SKIP $why"
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

# The checks below look for what THIS test's runs left, never for
# anything of the kind: another suite (a second checkout, a lab's run) may
# be running beside this one, and what its live runs hold is theirs.  A
# run's leftovers carry its PID (docs/reliability.md): cgroups and
# tracefs instances invlab-PID, the tracefs mount point
# /run/invlab/tracefs-PID, the state file /run/invlab/PID.state, kmutex's
# /tmp/invlab-kmutex-PID-*, the probe's /tmp/invlab-probe-PID.tmp.*.  So
# a check runs the program in the background to learn its PID.

# trace_instances: the tracefs instances (one name a line), seen through
# a tracefs mounted in a mount namespace of its own (unshare, util-linux
# or busybox) so that the host's mounts are not touched; else through
# /sys/kernel/tracing when it is mounted.  Returns 77 when neither can be
# had (skip_why says why).
trace_instances() {
	if command -v unshare >/dev/null 2>&1 &&
		unshare --mount --propagation private sh -c '
			d=$(mktemp -d "${TMPDIR:-/tmp}/invlab-tfs.XXXXXX") || exit 1
			mount -t tracefs tracefs "$d" && ls "$d/instances"
			rc=$?
			umount "$d" 2>/dev/null
			rmdir "$d"
			exit $rc' 2>/dev/null; then
		return 0
	fi
	if grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts; then
		ls /sys/kernel/tracing/instances
		return 0
	fi
	skip_why="no tracefs to look at (no unshare, /sys/kernel/tracing not mounted)"
	return 77
}

# own_trace_left PID...: what the runs of these PIDs left of their
# tracing: instances invlab-PID and mounts or mount points
# /run/invlab/tracefs-PID (one a line; nothing when all is clean).
# Returns 77 when the instances cannot be seen here.
own_trace_left() {
	inst=$(trace_instances) || return 77
	for p; do
		printf '%s\n' "$inst" | grep -x "invlab-$p"
		grep -o " /run/invlab/tracefs-$p " /proc/self/mounts |
			tr -d ' ' | sed 's/^/mount /'
		[ -e "/run/invlab/tracefs-$p" ] &&
			echo "mount point /run/invlab/tracefs-$p"
	done
	return 0
}

# check_trace_left DESCRIPTION PID...: one check that the runs of these
# PIDs left nothing of their tracing (own_trace_left), the leftovers named;
# a SKIP where the instances cannot be seen
check_trace_left() {
	d=$1
	shift
	left=$(own_trace_left "$@")
	st=$?
	if [ $st -eq 77 ]; then
		skip_why="no tracefs to look at (no unshare, /sys/kernel/tracing not mounted)"
	elif [ -n "$left" ]; then
		st=1
	fi
	check $st "$d${left:+ (left: $(echo $left))}"
}

# tracefs_mounts_not_others [PID]: tracefs mounts (a count) other than the
# mount points of other runs (/run/invlab/tracefs-N, N not PID): a run
# that leaves any mount of its own, wherever, changes this count
tracefs_mounts_not_others() {
	awk -v own="/run/invlab/tracefs-${1:-none}" '$3 == "tracefs" &&
		($2 == own || $2 !~ "^/run/invlab/tracefs-[0-9]+$")' \
		/proc/self/mounts | wc -l | tr -d ' '
}

# own_procs NAME MARK: processes called NAME that carry MARK (NAME=VALUE)
# in their environment, that is, were started by this test with it (forked
# workers keep it; they are no longer children of the run once it died)
own_procs() {
	for p in $(pgrep -x "$1" 2>/dev/null); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "$2" &&
			echo "$p"
	done
}

# wait_locked PID ERR SECONDS: wait until the run of PID (its standard
# error in ERR) holds all its CPUs' locks (what a run makes, it makes
# after that) or has ended.  Another suite's run on those CPUs makes it
# wait, up to its --lock-wait (30 s): it takes the locks one CPU at a
# time, so its PID in one lock file is not enough; a run that waited
# says "CPUs free" once it has them all.  Seen twice, 0.2 s apart: the
# "waiting" line follows the first lock taken within microseconds.
wait_locked() {
	t="grep -q '^$1 ' /run/invlab/cpu*.lock &&
		{ ! grep -q 'waiting for CPU' '$2' || grep -q 'CPUs free' '$2'; }"
	i=0
	while [ $i -lt $(($3 * 10)) ] && kill -0 "$1" 2>/dev/null; do
		if sh -c "$t" 2>/dev/null; then
			sleep 0.2
			sh -c "$t" 2>/dev/null && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# skip_if_gave_up PID ERR: a run that ended before it had its CPUs (waited
# past --lock-wait for another suite's run: exit 77): the whole script
# is a SKIP with its reason
skip_if_gave_up() {
	if ! kill -0 "$1" 2>/dev/null; then
		wait "$1"
		skip_if_77 $? "$2"
	fi
}

# lock_refused FILE: the run's exit 77 was the run lock's: another invlab
# run (another suite's) held its CPUs past --lock-wait
lock_refused() {
	grep -q "in use by .*another invlab run" "$1"
}

# balance_quiet: the v1 top cpuset's cpuset.sched_load_balance at a moment
# when no other run has it recorded as turned off (a "balance" record in
# its state file): another suite's partitioned run turns it off while it
# runs (and a killed one until the next run repairs it), which says
# nothing of this test's runs.  Waits up to 90 s for that to end; empty
# without a v1 cpuset hierarchy.  The runs of $own_pids are this test's:
# a record of theirs is never waited for, the value is read as it is.
balance_quiet() {
	m=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break;
		   if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)cpuset(,|$)/)
			   print $5 }' /proc/self/mountinfo | head -n 1)
	[ -n "$m" ] || return 0
	i=0
	while :; do
		busy=$(balance_holders)
		v=$(cat "$m/cpuset.sched_load_balance" 2>/dev/null)
		[ -z "$busy" ] && [ -z "$(balance_holders)" ] && break
		if [ $i -ge 900 ]; then
			echo "# sched_load_balance read while PID $busy holds it" >&2
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "$v"
}

# balance_holders: the runs (PIDs) other than $own_pids whose state file
# records a sched_load_balance they turned off
balance_holders() {
	for f in /run/invlab/*.state; do
		[ -f "$f" ] || continue
		p=${f##*/}
		p=${p%.state}
		case " ${own_pids:-} " in *" $p "*) continue ;; esac
		grep -q '^balance ' "$f" 2>/dev/null && echo "$p"
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
	if ! command -v "${INVLAB_PYTHON:-python3}" >/dev/null 2>&1; then
		skip_why="no python3 here to read the result file"
		cat >/dev/null
		return 77
	fi
	"${INVLAB_PYTHON:-python3}" -c '
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

# check_schema FILE...: one check that these result files validate
# against docs/results.schema.json (check-schema.py beside this file,
# which finds the schema in the source tree or where it is installed),
# the errors as comments; a SKIP without python3 or its jsonschema
# module (a device), or where the schema is not installed
check_schema() {
	names=
	for f; do names="$names ${f##*/}"; done
	if ! command -v "${INVLAB_PYTHON:-python3}" >/dev/null 2>&1; then
		skip_why="no python3 here to validate the result files"
		check 77 "the result files validate against the schema:$names"
		skip_why=
		return 0
	fi
	why=$("${INVLAB_PYTHON:-python3}" "$(dirname "$0")/check-schema.py" "$@" 2>&1)
	st=$?
	if [ $st -eq 77 ]; then
		skip_why=$why
	else
		printf '%s\n' "$why" | grep -v ': valid$' | sed 's/^/# /'
	fi
	check $st "the result files validate against the schema:$names"
	skip_why=
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
