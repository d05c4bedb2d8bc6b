#!/bin/sh
# SPDX-License-Identifier: MIT
#
# pi-classic judged on the scheduler's trace, as TAP, with foreign load
# from tests/fhog (a SCHED_FIFO spinner that is not an invlab run).
#
#   kernel-trace.sh PI-CLASSIC FHOG inherit  a FIFO 50 hog spinning 15 ms
#                        every 100 ms on the scenario's CPU: inheritance
#                        must not FAIL, and the trace must name the hog
#   kernel-trace.sh PI-CLASSIC FHOG none     the same hog: none still FAILs
#   kernel-trace.sh PI-CLASSIC FHOG lower    under none, a FIFO 15 hog between
#                        low's and high's priority (medium spinning only
#                        1 ms): named as the inverting task
#                        (inherit and lower run up to 3 times, until a
#                        judged wait met a burst of the hog)
#   kernel-trace.sh PI-CLASSIC FHOG ignored  --ignore-protocol: FAIL, and
#                        the trace shows the holder never boosted
#   kernel-trace.sh PI-CLASSIC FHOG nopi SHIM  inheritance asked for with a
#                        C library (SHIM, preloaded: tests/nopi.c) that says
#                        yes and gives a plain mutex: FAIL on the trace,
#                        the holder never boosted
#   kernel-trace.sh PI-CLASSIC FHOG nopi-every SHIM  the same C library
#                        losing inheritance in one round of 50 only
#                        (INVLAB_NOPI_EVERY): each such wait is a whole
#                        inversion, on a CPU that ticked: FAIL on the
#                        trace by its size, not its count
#   kernel-trace.sh PI-CLASSIC FHOG fair-holder SHIM INVLAB-RUN  a fair-class
#                        holder (nice 0) and a FIFO 30 waiter, with a
#                        foreign fair task at nice -5 on the CPU: with
#                        inheritance the holder is boosted and does not
#                        FAIL; under SHIM it is never boosted, and the
#                        foreign fair task's time in its place must FAIL
#   kernel-trace.sh PI-CLASSIC FHOG keepboost SHIM  inheritance kept, and
#                        the C library (INVLAB_NOPI_KEEPBOOST) leaves the
#                        holder at high's priority after each unlock, as a
#                        kernel that misses the deboost does: low deboost
#                        FAILs; the same run without it PASSes
#   kernel-trace.sh PI-CLASSIC FHOG moved SHIM INVLAB-RUN  low and high pinned
#                        to two CPUs, and the C library (INVLAB_NOPI_MOVE)
#                        moves each to high's CPU after its first unlock, as
#                        a kernel that never sends a donor back leaves it:
#                        low affinity FAILs; without it, no affinity FAIL
#   kernel-trace.sh PI-CLASSIC FHOG dl-foreign  a foreign SCHED_DEADLINE
#                        task (20 ms every 50 ms, on whichever CPU the
#                        kernel gives it) beside inheritance: it ranks
#                        above every real-time task, so what it runs in
#                        a wait is interference: no FAIL
#   kernel-trace.sh PI-CLASSIC FHOG cleanup  no tracefs instance of the run
#                        left, and tracefs mounted after the run as it
#                        was before
#   kernel-trace.sh PI-CLASSIC FHOG overlap  no tracefs mounted (in a mount
#                        namespace of the test's own): two runs that
#                        overlap each keep their trace, and neither leaves
#                        a mount or an instance when the first ends first
#
# The leftovers looked for are the runs' own (their PIDs in the names,
# tests/tap.sh): another suite may be tracing beside this one.
#
# Exits 77 (SKIP) with the reason when SCHED_FIFO or tracefs is not
# available.
set -u
prog=$1
fhog=$2
mode=$3
dur=${INVLAB_TEST_DURATION:-1500ms}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-test.XXXXXX") || exit 99
hog=
pi=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null
	[ -n "$pi" ] && kill "$pi" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
cpu=$(($(cpu_count) - 1))
if [ ! -x "$fhog" ]; then
	echo "1..0 # SKIP the helper $fhog is not installed"
	exit 77
fi

# run_pi ARGS...: pi-classic on $cpu with the trace, its status in rc
run_pi() {
	"$prog" --cpu "$cpu" --duration "$dur" --trace=on "$@" \
		>"$tmp/out" 2>&1
	rc=$?
	skip_if_77 $rc "$tmp/out"
}

# run_pi_hog PRIO SPIN ARGS...: run_pi with the hog on $cpu, started once
# the run holds its CPU's lock and stopped when it ends: a hog started
# before, while the run waited for a CPU another suite's run held, would
# be foreign load on that run (the hog is no invlab run and takes no lock)
run_pi_hog() {
	hp=$1
	hs=$2
	shift 2
	"$prog" --cpu "$cpu" --duration "$dur" --trace=on "$@" \
		>"$tmp/out" 2>&1 &
	pi=$!
	wait_locked $pi "$tmp/out" 35
	kill -0 $pi 2>/dev/null && start_hog "$hp" "$hs"
	wait $pi
	rc=$?
	stop_hog
	skip_if_77 $rc "$tmp/out"
}

# start_hog [PRIO [SPIN]]
start_hog() {
	"$fhog" --prio "${1:-50}" --cpu "$cpu" --spin "${2:-15ms}" --period 100ms \
		--time 60s >"$tmp/hog" 2>&1 &
	hog=$!
	sleep 0.2
	if ! kill -0 "$hog" 2>/dev/null; then
		wait "$hog"
		skip_if_77 $? "$tmp/hog"
	fi
}

stop_hog() {
	kill "$hog" 2>/dev/null
	wait "$hog" 2>/dev/null
	hog=
}

echo "TAP version 13"
case $mode in
inherit)
	# as in lower below: up to 3 runs until a judged wait met a burst of
	# the hog (20 of 20 runs here had 2 to 7), stopping at a FAIL
	for attempt in 1 2 3; do
		run_pi_hog 50 15ms --protocol inherit
		grep -q "inherit: FAIL" "$tmp/out" && break
		grep -q "delayed by fhog" "$tmp/out" && break
	done
	echo "# run $attempt of at most 3"
	sed 's/^/# /' "$tmp/out" | tail -3
	! grep -q "inherit: FAIL" "$tmp/out"
	check $? "inheritance with a FIFO 50 hog above it is not a FAIL"
	# UNDECIDED tolerated: what is tested is the trace's account of
	# the hog; the verdict is the pi-classic-inherit case's, where
	# UNDECIDED every time fails
	grep -Eq "inherit: (PASS|UNDECIDED)" "$tmp/out"
	check $? "PASS, or UNDECIDED with the reason (exit $rc)"
	grep -q "delayed by fhog (pid [0-9]*, FIFO 50)" "$tmp/out"
	check $? "the trace names the hog"
	grep -q "interference, not inversion" "$tmp/out"
	check $? "as interference"
	grep -q "holder boosted 10->30" "$tmp/out"
	check $? "the holder was boosted to high's priority"
	;;
dl-foreign)
	# up to 3 runs until the deadline task ran on the scenario's CPU in
	# a judged wait (it goes where the kernel puts it), stopping at a
	# FAIL
	for attempt in 1 2 3; do
		"$prog" --cpu "$cpu" --duration "$dur" --trace=on \
			--protocol inherit >"$tmp/out" 2>&1 &
		pi=$!
		wait_locked $pi "$tmp/out" 35
		if kill -0 $pi 2>/dev/null; then
			"$fhog" --deadline --spin 20ms --period 50ms --time 60s \
				>"$tmp/hog" 2>&1 &
			hog=$!
			sleep 0.2
			if ! kill -0 "$hog" 2>/dev/null; then
				wait "$hog"
				skip_if_77 $? "$tmp/hog"
			fi
		fi
		wait $pi
		rc=$?
		pi=
		stop_hog
		skip_if_77 $rc "$tmp/out"
		grep -q "inherit: FAIL" "$tmp/out" && break
		grep -q "delayed by fhog" "$tmp/out" && break
	done
	echo "# run $attempt of at most 3"
	grep "^inherit: " "$tmp/out" | cut -c1-600 | sed "s/^/# /"
	! grep -q "inherit: FAIL" "$tmp/out"
	check $? "inheritance beside a foreign deadline task is not a FAIL"
	grep -Eq "inherit: (PASS|UNDECIDED)" "$tmp/out"
	check $? "PASS, or UNDECIDED with the reason (exit $rc)"
	if grep -q "delayed by fhog" "$tmp/out"; then
		grep -q "delayed by fhog (pid [0-9]*, DL): .*higher priority" \
			"$tmp/out"
		check $? "the trace names the deadline task, above high"
	else
		echo "# the deadline task ran in no judged wait in 3 runs"
	fi
	;;
none)
	run_pi_hog 50 15ms --protocol none
	sed 's/^/# /' "$tmp/out" | tail -3
	grep -q "none: FAIL, expected FAIL" "$tmp/out"
	check $? "no protocol still FAILs with the hog"
	grep -q "holder never boosted" "$tmp/out"
	check $? "the trace shows no boost"
	;;
lower)
	# a wait is judged only when the holder took the lock in time, so
	# the hog delays a judged wait only when a burst of it begins within
	# the holder's section: in 1.5 s runs here 0 to 15 waits of about 75
	# (0 in 1 of 20 runs, each burst beginning before a round, whose late
	# holder leaves it unjudged; the trace rightly named no hog).  The
	# hog is the only inversion past the tolerance here (medium spins
	# 1 ms), and the order check calls it a pattern, not the host's
	# stalls, from 9 such waits in 150 (binomial, 0.5 % a wait,
	# docs/theory.md 6.1): with 6 of 72 none read UNDECIDED.  So: 3 s
	# runs, up to 3, until one has 12 waits delayed by the hog (9, with
	# room for waits it delayed only briefly), the run with the most
	# judged.  With 12 or more, none must FAIL; with fewer, FAIL or
	# UNDECIDED (too few to tell from a host's stalls).  A trace that
	# never names the hog fails.
	dur=3s
	best=-1
	for attempt in 1 2 3; do
		run_pi_hog 15 30ms --protocol none --hog 1ms
		met=$(grep -o '[0-9]* waits\{0,1\} delayed by fhog' "$tmp/out" |
			grep -o '^[0-9]*')
		met=${met:-0}
		if [ "$met" -gt "$best" ]; then
			best=$met
			cp "$tmp/out" "$tmp/best"
		fi
		[ "$met" -ge 12 ] && break
	done
	echo "# $best judged waits met a burst of the hog (run $attempt of at most 3)"
	grep "^none: " "$tmp/best" | sed 's/^/# /'
	if [ "$best" -ge 12 ]; then
		grep -q "none: FAIL, expected FAIL" "$tmp/best"
		check $? "no protocol FAILs ($best waits met the hog)"
	else
		grep -Eq "none: (FAIL|UNDECIDED), expected FAIL" "$tmp/best"
		check $? "no protocol FAILs, or is UNDECIDED with $best waits met the hog"
	fi
	grep -q "delayed by fhog (pid [0-9]*, FIFO 15)" "$tmp/best"
	check $? "the trace names the foreign hog"
	grep -q "inversion by a task outside the scenario" "$tmp/best"
	check $? "as an inversion from outside the scenario"
	;;
nopi)
	shim=${4:-}
	if [ ! -f "$shim" ]; then
		echo "1..0 # SKIP the preload ${shim:-(none given)} is not there (a static build)"
		exit 77
	fi
	LD_PRELOAD=$shim run_pi --protocol inherit
	sed 's/^/# /' "$tmp/out" | tail -3
	grep -q "inherit: FAIL, expected PASS: trace: in [0-9]* of [0-9]* waits a task below high ran" "$tmp/out"
	check $? "a C library without inheritance FAILs, on the trace"
	grep -q "holder never boosted" "$tmp/out"
	check $? "the trace shows no boost"
	;;
nopi-every)
	shim=${4:-}
	if [ ! -f "$shim" ]; then
		echo "1..0 # SKIP the preload ${shim:-(none given)} is not there (a static build)"
		exit 77
	fi
	# 150 waits at least: three or more lose inheritance
	INVLAB_NOPI_EVERY=50 LD_PRELOAD=$shim run_pi --protocol inherit \
		--samples 150 --duration 20s
	sed 's/^/# /' "$tmp/out" | tail -3
	grep -q "inherit: FAIL, expected PASS: trace: in [0-9]* of [0-9]* waits past the bound" "$tmp/out"
	check $? "inheritance lost in one wait of 50 FAILs, by the window's size"
	grep -q "holder boosted" "$tmp/out"
	check $? "the trace shows the other waits boosted"
	;;
keepboost)
	shim=${4:-}
	if [ ! -f "$shim" ]; then
		echo "1..0 # SKIP the preload ${shim:-(none given)} is not there (a static build)"
		exit 77
	fi
	run_pi --protocol inherit
	sed 's/^/# /' "$tmp/out" | tail -3
	grep -q "^inherit, low deboost: PASS" "$tmp/out"
	check $? "without the fault the deboost PASSes (exit $rc)"
	INVLAB_NOPI_KEEPBOOST=30 LD_PRELOAD=$shim run_pi --protocol inherit
	sed 's/^/# /' "$tmp/out" | tail -3
	[ "$rc" -eq 1 ]
	check $? "a boost kept past the unlock: exit 1 (got $rc)"
	grep -q "^inherit, low deboost: FAIL, expected PASS: .*after giving back its last lock, low ran above its own FIFO 10 in [0-9]* of [0-9]* gaps the trace showed, first at FIFO 30" "$tmp/out"
	check $? "the deboost FAILs, naming the priority low kept"
	grep -q "; low deboost FAIL" "$tmp/out"
	check $? "and the table's row says so beside high's verdict"
	;;
moved)
	shim=${4:-}
	run=${5:-}
	if [ ! -f "$shim" ]; then
		echo "1..0 # SKIP the preload ${shim:-(none given)} is not there (a static build)"
		exit 77
	fi
	if [ "$cpu" -lt 1 ]; then
		echo "1..0 # SKIP one CPU: nowhere to move a task to"
		exit 77
	fi
	other=$((cpu - 1))
	# low on one CPU, high on the other: the trace records both
	cat >"$tmp/moved.job" <<EOF
[global]
description = a holder and its waiter pinned to two CPUs
validate = pi
[resource M]
protocol = inherit
[task low]
class = fifo:10
cpu = $other
activation = round
offset = 0
body = lock M, signal held, run 2ms, unlock M
[task high]
class = fifo:30
cpu = $cpu
activation = round
offset = 500us
body = wait held, lock M, unlock M
EOF
	"$run" "$tmp/moved.job" --duration 1500ms --trace=on >"$tmp/out" 2>&1
	rc=$?
	skip_if_77 $rc "$tmp/out"
	sed 's/^/# /' "$tmp/out" | grep -i affinity | head -2
	! grep -q "affinity: FAIL" "$tmp/out"
	check $? "without the fault no affinity FAIL (exit $rc)"
	INVLAB_NOPI_MOVE=$cpu LD_PRELOAD=$shim "$run" "$tmp/moved.job" \
		--duration 1500ms --trace=on >"$tmp/out" 2>&1
	rc=$?
	skip_if_77 $rc "$tmp/out"
	sed 's/^/# /' "$tmp/out" | grep -i affinity | head -2
	[ "$rc" -eq 1 ]
	check $? "a pinned task moved: exit 1 (got $rc)"
	grep -q "low affinity: FAIL, expected PASS: .*low, pinned to CPU $other, ran on CPU $cpu" "$tmp/out"
	check $? "low's affinity FAILs, naming both CPUs"
	;;
fair-holder)
	shim=${4:-}
	run=${5:-}
	if [ ! -f "$shim" ]; then
		echo "1..0 # SKIP the preload ${shim:-(none given)} is not there (a static build)"
		exit 77
	fi
	# low at nice 0 holds M for 2 ms of CPU; high (FIFO 30) waits for it
	cat >"$tmp/fair-holder.job" <<EOF
[global]
description = a fair-class holder and a real-time waiter on one CPU
validate = pi
[resource M]
protocol = inherit
[task low]
class = other:0
cpu = $cpu
activation = round
offset = 0
body = lock M, signal held, run 2ms, unlock M
[task high]
class = fifo:30
cpu = $cpu
activation = round
offset = 500us
body = wait held, lock M, unlock M
EOF
	# run_job [ENV...]: the job, with the nice -5 hog on $cpu from the
	# moment the run holds its CPU (as run_pi_hog) until it ends
	run_job() {
		env "$@" "$run" "$tmp/fair-holder.job" --duration 2s \
			--trace=on >"$tmp/out" 2>&1 &
		pi=$!
		wait_locked $pi "$tmp/out" 35
		if kill -0 $pi 2>/dev/null; then
			"$fhog" --nice -5 --cpu "$cpu" --spin 100ms \
				--period 100ms --time 60s >"$tmp/hog" 2>&1 &
			hog=$!
		fi
		wait $pi
		rc=$?
		pi=
		stop_hog
		skip_if_77 $rc "$tmp/out"
	}
	run_job
	sed 's/^/# /' "$tmp/out" | tail -2
	grep -q "pi high: \(PASS\|UNDECIDED\)" "$tmp/out"
	check $? "boosted, the fair holder does not FAIL beside a nice -5 task"
	run_job LD_PRELOAD="$shim"
	sed 's/^/# /' "$tmp/out" | tail -2
	grep -q "pi high: FAIL" "$tmp/out"
	check $? "never boosted, the fair holder FAILs"
	grep -q "holder never boosted" "$tmp/out"
	check $? "the trace shows no boost"
	;;
ignored)
	run_pi --protocol inherit --ignore-protocol
	sed 's/^/# /' "$tmp/out" | tail -3
	grep -q "inherit: FAIL, expected FAIL" "$tmp/out"
	check $? "the protocol ignored FAILs"
	grep -q "holder never boosted" "$tmp/out"
	check $? "the trace shows no boost"
	;;
cleanup)
	# this run's own: its instance invlab-PID, its mount point
	# /run/invlab/tracefs-PID, and no tracefs mount more than before
	# that is not another run's (another suite may be tracing beside)
	before=$(tracefs_mounts_not_others)
	"$prog" --cpu "$cpu" --duration 500ms --trace=on --protocol inherit \
		>"$tmp/out" 2>&1 &
	pid=$!
	wait $pid
	rc=$?
	skip_if_77 $rc "$tmp/out"
	after=$(tracefs_mounts_not_others $pid)
	[ "$before" = "$after" ]
	check $? "tracefs mounts as before the run ($before, $after; other runs' not counted)"
	check_trace_left "no invlab-$pid tracefs instance or mount left" $pid
	grep -q "trace: \|holder" "$tmp/out"
	check $? "the report says what the trace showed"
	;;
overlap)
	if [ "$cpu" -eq 0 ]; then
		echo "1..0 # SKIP two runs on two CPUs need two CPUs"
		exit 77
	fi
	if ! command -v unshare >/dev/null; then
		echo "1..0 # SKIP no unshare (util-linux) for a mount namespace"
		exit 77
	fi
	# in a namespace of its own: tracefs unmounted without touching the
	# host's mounts (another run's /run/invlab/tracefs-PID too, copied in
	# with the namespace); instances are the kernel's, seen from any
	# mount, so only the two runs' own invlab-PID count
	unshare --mount --propagation private sh -c '
		umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null
		umount /sys/kernel/tracing 2>/dev/null
		awk "\$3 == \"tracefs\" { print \$2 }" /proc/self/mounts |
			while read -r m; do umount -l "$m"; done
		grep -c " tracefs " /proc/self/mounts >"$3/before"
		"$1" --cpu "$2" --duration 1s --trace=on -p inherit \
			>"$3/a" 2>&1 &
		echo $! >"$3/a.pid"
		sleep 0.4
		"$1" --cpu 0 --duration 2s --trace=on -p inherit >"$3/b" 2>&1 &
		echo $! >"$3/b.pid"
		wait $!
		echo $? >"$3/b.rc"
		wait
		grep -c " tracefs " /proc/self/mounts >"$3/after"
		mkdir "$3/tfs" && mount -t tracefs tracefs "$3/tfs" &&
			ls "$3/tfs/instances" >"$3/inst"
		umount "$3/tfs"
	' sh "$prog" "$cpu" "$tmp"
	skip_if_77 "$(cat "$tmp/b.rc" 2>/dev/null || echo 99)" "$tmp/b"
	a=$(cat "$tmp/a.pid")
	b=$(cat "$tmp/b.pid")
	sed 's/^/# /' "$tmp/a" "$tmp/b" | grep "inherit:" | cut -c1-200
	[ "$(cat "$tmp/before")" = 0 ]
	check $? "no tracefs mounted in the namespace before the runs"
	grep -q "trace: " "$tmp/a" && grep -q "trace: " "$tmp/b"
	check $? "both runs kept their trace"
	[ "$(cat "$tmp/after")" = 0 ]
	check $? "no tracefs mount left ($(cat "$tmp/after"))"
	[ -f "$tmp/inst" ] && ! grep -Eqx "invlab-($a|$b)" "$tmp/inst"
	check $? "no tracefs instance of either run left (invlab-$a, invlab-$b; all there now: $(tr '\n' ' ' <"$tmp/inst" 2>/dev/null))"
	[ ! -e "/run/invlab/tracefs-$a" ] && [ ! -e "/run/invlab/tracefs-$b" ]
	check $? "no mount point of either run left under /run/invlab"
	;;
*)
	echo "unknown mode '$mode'" >&2
	exit 99
	;;
esac
echo "1..$n"
exit $fail
