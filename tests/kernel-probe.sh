#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --probe cyclictest on the live kernel, as TAP (docs/probes.md).  These
# check behaviour, not timing: what is written, what is said, what is
# left behind.
#
#   kernel-probe.sh PROGRAM histogram  pi-classic -p inherit --probe
#                                      cyclictest: the probe's histogram
#                                      per CPU in the result
#   kernel-probe.sh PROGRAM missing    cyclictest not in PATH: the probe
#                                      is a skip with the reason, the
#                                      verdicts and exit status are those
#                                      of a run without it; a bad
#                                      --probe is a usage error
#   kernel-probe.sh PROGRAM sigterm    SIGTERM (sigint: SIGINT) mid-run:
#                                      cyclictest stopped
#                                      and reaped, its figures kept in
#                                      the partial result
#   kernel-probe.sh PROGRAM timerlat   pi-classic -p inherit --probe
#                                      timerlat (rtla): its histogram per
#                                      CPU where the kernel has the
#                                      timerlat tracer; where it has not,
#                                      a skip of the probe that says so,
#                                      the run's verdicts unchanged; no
#                                      tracefs mount or instance of it
#                                      left either way
#   kernel-probe.sh PROGRAM histogram [GATE COMPARE PLOT]: the result
#   tools, when built, take the probe's histograms as any other
#
# Exits 77 (SKIP) with the reason when SCHED_FIFO is not available or
# cyclictest is not installed (histogram, sigterm, sigint), or rtla
# (timerlat).
set -u
prog=$1
mode=$2
gate=${3:-}
compare=${4:-}
plot=${5:-}
dur=${INVLAB_TEST_DURATION:-1s}
# another run on the CPU makes this one wait, then skip, within the
# test's timeout
lw="--lock-wait 15s"

tmp=$(mktemp -d /tmp/invlab-test.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "TAP version 13"

need_cyclictest() {
	if ! command -v cyclictest >/dev/null; then
		echo "1..0 # SKIP cyclictest (rt-tests) is not installed"
		exit 77
	fi
}

case $mode in
histogram)
	need_cyclictest
	"$prog" $lw -p inherit -d "$dur" --probe cyclictest --json "$tmp/out.json" \
		>"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	skip_if_77 $rc "$tmp/stderr"
	# 3: as expected but UNDECIDED, tolerated as 1 is
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
	check $? "ran to its verdicts (exit $rc; timing is not judged here)"
	pycheck "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
p = r["probe"]
assert p["status"] == "ran", p
cpus = [t["cpu"] for t in p["threads"]]
assert cpus, p
# one above the scenario's highest (high, FIFO 30)
assert p["priority"] == 31, p["priority"]
for c in cpus:
    h = r["probe_cyclictest_cpu%d_ns" % c]
    assert h["count"] > 100, (c, h["count"])
    assert h["max"] >= h["min"] > 0, h
    assert h["count"] == sum(b[1] for b in h["bins"]), h
all_ = r["probe_cyclictest_ns"]
assert all_["count"] == sum(t["cycles"] for t in p["threads"]), all_
print("# probe on cpus %s: %d wakeups, max %d ns, overflow %d" %
      (p["cpus"], all_["count"], all_["max"], all_["overflow"]))
PY
	check $? "the result holds the probe's histogram per CPU"
	check_schema "$tmp/out.json"
	grep -q "^  cpu [0-9]*: [0-9]* wakeups, p50 .*, p99 .*, max .*, overflow [0-9]*$" \
		"$tmp/stdout"
	check $? "the report has a line per CPU: $(grep -m1 'wakeups' "$tmp/stdout")"
	if [ -n "$gate" ]; then
		printf '[pi-classic/*]\nprobe_cyclictest_ns.count >= 100\nprobe_cyclictest_ns.max <= 60s\n' \
			>"$tmp/gate.ini"
		"$gate" -p "$tmp/gate.ini" "$tmp/out.json" >"$tmp/gate.out" 2>&1
		grc=$?
		[ "$grc" -eq 0 ]
		check $? "invlab-gate takes probe_cyclictest_ns as a metric (exit $grc)"
		sed 's/^/# /' "$tmp/gate.out"
	fi
	if [ -n "$compare" ]; then
		"$compare" -m probe_cyclictest_ns "$tmp/out.json" -- \
			"$tmp/out.json" >"$tmp/compare.out" 2>&1
		crc=$?
		# one run a side claims nothing (77); 0 with repeats in the file
		{ [ "$crc" -eq 0 ] || [ "$crc" -eq 77 ]; } &&
			grep -q "probe_cyclictest_ns" "$tmp/compare.out"
		check $? "invlab-compare compares probe_cyclictest_ns (exit $crc)"
	fi
	if [ -n "$plot" ]; then
		c=$(sed -n 's/^  cpu \([0-9]*\):.*/\1/p' "$tmp/stdout" | head -1)
		"$plot" -m "probe_cyclictest_cpu${c}_ns" "$tmp/out.json" \
			-o "$tmp/probe.svg" >"$tmp/plot.out" 2>&1
		prc=$?
		[ "$prc" -eq 0 ] && grep -q "<svg" "$tmp/probe.svg"
		check $? "invlab-plot draws probe_cyclictest_cpu${c}_ns (exit $prc)"
	fi
	;;
timerlat)
	if ! command -v rtla >/dev/null; then
		echo "1..0 # SKIP rtla (Debian's rtla package) is not installed"
		exit 77
	fi
	# rtla mounts tracefs where nothing is, in its own namespace: the
	# usual place stays as it was
	mounted0=$(grep -c " /sys/kernel/tracing tracefs " /proc/self/mounts)
	"$prog" $lw -p inherit -d "$dur" --probe timerlat --json "$tmp/out.json" \
		>"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	skip_if_77 $rc "$tmp/stderr"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
	check $? "ran to its verdicts (exit $rc; timing is not judged here)"
	pycheck "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
p = r["probe"]
assert p["name"] == "timerlat", p
assert p["command"].startswith("rtla timerlat hist -c "), p
if p["status"] == "skipped":
    # a kernel without the tracer: said, and nothing of it in the run
    assert p["reason"] == ("the kernel has no timerlat tracer "
                           "(CONFIG_TIMERLAT_TRACER)"), p
    assert not [k for k in r if k.startswith("probe_timerlat")], list(r)
    print("# this kernel has no timerlat tracer: the probe skipped")
    sys.exit(0)
assert p["status"] == "ran", p
assert p["priority"] == 31, p["priority"]
cpus = [t["cpu"] for t in p["threads"]]
assert cpus, p
for c in cpus:
    h = r["probe_timerlat_cpu%d_ns" % c]
    assert h["count"] > 100, (c, h["count"])
    assert h["max"] >= h["min"], h
    assert h["count"] == sum(b[1] for b in h["bins"]), h
all_ = r["probe_timerlat_ns"]
assert all_["count"] == sum(t["cycles"] for t in p["threads"]), all_
print("# timerlat on cpus %s: %d wakeups, max %d ns, overflow %d" %
      (p["cpus"], all_["count"], all_["max"], all_["overflow"]))
PY
	check $? "the result holds timerlat's histogram per CPU, or says the kernel has no timerlat tracer"
	check_schema "$tmp/out.json"
	if grep -q "^probe timerlat: skipped: " "$tmp/stdout"; then
		grep -q "probe timerlat skipped: the kernel has no timerlat tracer" \
			"$tmp/stderr"
		check $? "the skip and its reason are said: $(grep -m1 probe "$tmp/stderr")"
	else
		grep -q "^  cpu [0-9]*: [0-9]* wakeups, p50 .*, p99 .*, max .*, overflow [0-9]*$" \
			"$tmp/stdout"
		check $? "the report has a line per CPU: $(grep -m1 'wakeups' "$tmp/stdout")"
	fi
	mounted=$(grep -c " /sys/kernel/tracing tracefs " /proc/self/mounts)
	[ "$mounted" -eq "$mounted0" ]
	check $? "no tracefs mount of it left at /sys/kernel/tracing ($mounted0 before, $mounted after)"
	left=
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$d/instances/timerlat_hist" ] && left="$d/instances/timerlat_hist"
	done
	[ -z "$left" ]
	check $? "no tracefs instance of rtla's left${left:+ ($left)}"
	;;
missing)
	# the same run with and without the probe, cyclictest out of reach
	mkdir "$tmp/empty"
	PATH="$tmp/empty" "$prog" $lw -p none -d "$dur" --json "$tmp/plain.json" \
		>"$tmp/plain.out" 2>"$tmp/plain.err"
	rc0=$?
	skip_if_77 $rc0 "$tmp/plain.err"
	PATH="$tmp/empty" "$prog" $lw -p none -d "$dur" --probe cyclictest \
		--json "$tmp/out.json" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	[ "$rc" -eq "$rc0" ]
	check $? "the exit status is that of the run without it ($rc, $rc0)"
	grep -q "probe cyclictest skipped: cyclictest is not in PATH" \
		"$tmp/stderr"
	check $? "the skip and its reason are said: $(grep -m1 probe "$tmp/stderr")"
	grep -q "^probe cyclictest: skipped: cyclictest is not in PATH" \
		"$tmp/stdout"
	check $? "and in the report"
	pycheck "$tmp/out.json" "$tmp/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = json.load(open(sys.argv[2]))
r = d["runs"][0]
assert r["probe"]["status"] == "skipped", r["probe"]
assert "not in PATH" in r["probe"]["reason"], r["probe"]
assert not [k for k in r if k.startswith("probe_cyclictest")], list(r)
v = [(c["validator"], c["verdict"], c["expected"]) for c in r["checks"]]
w = [(c["validator"], c["verdict"], c["expected"])
     for c in e["runs"][0]["checks"]]
assert v == w, (v, w)
assert d["return_code"] == e["return_code"]
print("# verdicts with and without: %s" % v)
PY
	check $? "the result records the skip; verdicts as without the probe"
	check_schema "$tmp/out.json" "$tmp/plain.json"
	# a mistake in the option costs nothing: exit 2, the range said
	"$prog" -p none -d "$dur" --probe cyclictest=prio=0 >/dev/null \
		2>"$tmp/usage.err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "prio: 0 is out of range (1 to 99)" \
		"$tmp/usage.err"
	check $? "a bad --probe is a usage error (exit $rc): $(head -1 "$tmp/usage.err")"
	;;
sigterm | sigint)
	need_cyclictest
	sig=TERM
	want=143
	if [ "$mode" = sigint ]; then
		sig=INT
		want=130
	fi
	"$prog" $lw -p inherit -d 20s --probe cyclictest --json "$tmp/out.json" \
		>"$tmp/stdout" 2>"$tmp/stderr" &
	pid=$!
	# once cyclictest runs beside the run (the run may first wait for
	# its CPU's lock), and a second after
	cpid=
	i=0
	while [ -z "$cpid" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 250 ]; do
		sleep 0.1
		cpid=$(pgrep -P "$pid" -x cyclictest)
		i=$((i + 1))
	done
	if [ -z "$cpid" ]; then
		wait "$pid"
		skip_if_77 $? "$tmp/stderr"
	fi
	[ -n "$cpid" ]
	check $? "cyclictest runs beside the run (pid $cpid)"
	sleep 1
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
	wait "$pid"
	rc=$?
	[ $i -lt 100 ]
	check $? "exits within 10 s of SIG$sig ($(elapsed_ms "$t0") ms)"
	[ "$rc" -eq "$want" ]
	check $? "exit status 128+SIG$sig (got $rc)"
	[ -n "$cpid" ] && ! kill -0 "$cpid" 2>/dev/null
	check $? "cyclictest $cpid is gone"
	pycheck "$tmp/out.json" "$cpid" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True
p = d["runs"][0]["probe"]
assert p["status"] == "ran", p
assert str(p["pid"]) == sys.argv[2], (p["pid"], sys.argv[2])
assert not os.path.exists("/proc/%d" % p["pid"]), "cyclictest %d is still there" % p["pid"]
assert d["runs"][0]["probe_cyclictest_ns"]["count"] > 0
print("# cyclictest %d stopped and reaped, %d wakeups kept" %
      (p["pid"], d["runs"][0]["probe_cyclictest_ns"]["count"]))
PY
	check $? "cyclictest is gone and its figures are in the partial result"
	check_schema "$tmp/out.json"
	left=$(ls /tmp | grep -c "^invlab-probe-$pid\\." || true)
	[ "$left" -eq 0 ]
	check $? "no probe output file of this run left in /tmp ($left)"
	;;
*)
	echo "unknown mode '$mode'" >&2
	exit 99
	;;
esac
echo "1..$n"
exit $fail
