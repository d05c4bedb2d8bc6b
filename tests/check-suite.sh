#!/bin/sh
# SPDX-License-Identifier: MIT
#
# invlab-suite without the real scenarios: stand-in programs that exit as
# told (0 as expected, 1 a wrong verdict, 3 as expected but UNDECIDED, 77
# a skip with its reason, 99, a hang) check its verdicts, its exit
# status, the share of UNDECIDED cases it allows, the TAP, JSON and
# JUnit reports, the gate hook, --only, --duration and --repeat, and
# that a report it cannot write is exit 99 whatever the verdicts.  TAP
# out.
#
#   check-suite.sh INVLAB-SUITE CASES.LIST [MANPAGE]
set -u
suite=$1
real_cases=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-suite-test.XXXXXX") || exit 99
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
n=0
fail=0

check() { # description, command...
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		fail=$((fail + 1))
	fi
}

# a stand-in program: exits with its first argument, writes --json FILE
mkdir "$tmp/bin"
cat >"$tmp/bin/fake" <<'EOS'
#!/bin/sh
code=$1
shift
while [ $# -gt 0 ]; do
	case $1 in
	--json) echo '{"program": "fake"}' >"$2"; shift ;;
	esac
	shift
done
case $code in
77) echo "fake: SKIP: needs CAP_SYS_NICE (run as root)" >&2 ;;
hang) exec sleep 30 ;;
esac
[ "$code" = hang ] && exit 0
echo "TAP version 13"
echo "1..1"
if [ "$code" = 3 ]; then
	echo "ok 1 - inherit: UNDECIDED (expected PASS) # SKIP undecided: measured noise could explain it"
else
	echo "ok 1 - fake"
fi
exit "$code"
EOS
chmod +x "$tmp/bin/fake"
# a stand-in gate: fails when the profile says so
cat >"$tmp/bin/invlab-gate" <<'EOS'
#!/bin/sh
for a; do
	case $a in *summary.json) echo "gated the summary" && exit 99 ;; esac
done
grep -q fail "$2" && { echo "FAIL"; exit 1; }
echo "PASS"
exit 0
EOS
chmod +x "$tmp/bin/invlab-gate"

run() { # cases..., then runs the suite with "$@" in $tmp/out: rc in $rc
	sh "$suite" --bindir "$tmp/bin" --cases "$tmp/cases" -o "$tmp/out" \
		"$@" >"$tmp/tap" 2>"$tmp/err"
	rc=$?
}
cases() { printf '%s\n' "$@" >"$tmp/cases"; }
# check_schema DESCRIPTION FILE: the summary validates against
# docs/results.schema.json (tests/check-schema.py); a SKIP without
# python3 or its jsonschema module
here=$(dirname "$0")
check_schema() {
	why=$("${INVLAB_PYTHON:-python3}" "$here/check-schema.py" "$2" 2>&1)
	st=$?
	command -v "${INVLAB_PYTHON:-python3}" >/dev/null 2>&1 || st=77 why="no python3 here"
	if [ "$st" = 77 ]; then
		n=$((n + 1))
		echo "ok $n - $1 # SKIP $why"
		return
	fi
	printf '%s\n' "$why" | sed 's/^/# /'
	check "$1" [ "$st" = 0 ]
}

echo "TAP version 13"

cases "# a comment" "a fake 0 0" "b fake 0 0 --tap"
run --json "$tmp/s.json" --junit "$tmp/s.xml"
check "every case as expected: exit 0" [ "$rc" = 0 ]
check "TAP: a plan and a test point per case" \
	grep -q '^1\.\.2$' "$tmp/tap"
check "TAP: the cases pass" [ "$(grep -c '^ok [12] - [ab]$' "$tmp/tap")" = 2 ]
check "JSON: the summary counts" \
	grep -q '"passed": 2,' "$tmp/s.json"
check_schema "JSON: the summary validates against the schema" "$tmp/s.json"
check "JUnit: two test cases" \
	[ "$(grep -c '<testcase ' "$tmp/s.xml")" = 2 ]
check "each case's result file in the output directory" \
	[ -s "$tmp/out/a.json" -a -s "$tmp/out/b.json" ]

cases "a fake 0 0" "s fake 0 77" "f fake 0 1"
run --json "$tmp/s.json" --junit "$tmp/s.xml"
check "a wrong verdict: exit 1" [ "$rc" = 1 ]
check "TAP: the failing case is not ok" grep -q '^not ok 3 - f' "$tmp/tap"
check "TAP: the skip is a SKIP with its reason" \
	grep -q '^ok 2 - s # SKIP needs CAP_SYS_NICE' "$tmp/tap"
check "JUnit: the failure and the skip" \
	grep -q '<failure ' "$tmp/s.xml"
check "JUnit: the skip has its reason" \
	grep -q '<skipped message="needs CAP_SYS_NICE (run as root)"' "$tmp/s.xml"
check "JSON: failed 1, skipped 1" \
	grep -q '"failed": 1,' "$tmp/s.json"

cases "s fake 0 77" "t fake 0 77"
run
check "every case skipped: exit 77" [ "$rc" = 77 ]
cases "a fake 0 0" "s fake 0 77"
run
check "a pass and a skip: exit 0" [ "$rc" = 0 ]
cases "a fake 0 0" "e fake 0 99" "f fake 0 1"
run
check "a case that cannot run: exit 99, before a failure" [ "$rc" = 99 ]
cases "w fake 1 1"
run
check "a case expected to exit 1 that does: exit 0" [ "$rc" = 0 ]
cases "m nosuchprogram 0"
run
check "a program not installed: exit 99" [ "$rc" = 99 ]

# UNDECIDED (a case's exit 3 where 0 was expected): never a silent 0
cases "a fake 0 0" "u fake 0 3"
run --json "$tmp/s.json" --junit "$tmp/s.xml"
check "an UNDECIDED case: exit 3" [ "$rc" = 3 ]
check "TAP: the UNDECIDED case is a SKIP that names the check" \
	grep -q '^ok 2 - u # SKIP UNDECIDED (exit 3): .*: inherit: UNDECIDED (expected PASS)$' "$tmp/tap"
check "TAP: the share is one more test point, within the default 100 %" \
	grep -q '^ok 3 - undecided-share: 1 of 2 judged cases UNDECIDED (50 %), within the 100 %' "$tmp/tap"
check "TAP: the plan counts it" grep -q '^1\.\.3$' "$tmp/tap"
check "JSON: passed 1, undecided 1, the case's result" \
	[ "$(grep -c '"passed": 1,\|"undecided": 1,\|"result": "undecided"' "$tmp/s.json")" = 3 ]
check_schema "JSON: an UNDECIDED case's summary validates" "$tmp/s.json"
check "JUnit: the UNDECIDED case is skipped with its reason" \
	grep -q '<skipped message="UNDECIDED (exit 3)' "$tmp/s.xml"
check "JUnit: the share is a test case, not a failure" \
	grep -q 'tests="3" failures="0" errors="0" skipped="1"' "$tmp/s.xml"
run --max-undecided 50
check "--max-undecided 50, 1 of 2 UNDECIDED: within, exit 3" [ "$rc" = 3 ]
run --max-undecided 49 --junit "$tmp/s.xml"
check "--max-undecided 49, 1 of 2 UNDECIDED: over, exit 1" [ "$rc" = 1 ]
check "TAP: over the share is not ok" \
	grep -q '^not ok 3 - undecided-share: 1 of 2 .*over the 49 %' "$tmp/tap"
check "JUnit: over the share is a failure" \
	grep -q 'failures="1"' "$tmp/s.xml"
run --max-undecided 0
check "--max-undecided 0: any UNDECIDED fails, exit 1" [ "$rc" = 1 ]
cases "u fake 0 3" "s fake 0 77"
run
check "UNDECIDED and skipped: exit 3, not 77" [ "$rc" = 3 ]
cases "u fake 0 3" "f fake 0 1"
run
check "UNDECIDED and a failure: exit 1" [ "$rc" = 1 ]
cases "u fake 0 3" "e fake 0 99"
run
check "UNDECIDED and a case that cannot run: exit 99" [ "$rc" = 99 ]
cases "w fake 3 3"
run
check "a case expected to exit 3 that does: exit 0" [ "$rc" = 0 ]
cases "x fake 1 3"
run
check "a case expected to exit 1 that ends 3: a failure, exit 1" [ "$rc" = 1 ]
cases "a fake 0 0"
run --max-undecided 101
check "--max-undecided 101: exit 2" [ "$rc" = 2 ]
check "--max-undecided 101: the range named" grep -q '0\.\.100' "$tmp/err"
run --max-undecided half
check "--max-undecided half: exit 2" [ "$rc" = 2 ]
cases "h fake 0 hang"
run --timeout 1
check "a hung case is killed at --timeout: exit 99" [ "$rc" = 99 ]
check "the hung case's reason" grep -q 'killed' "$tmp/tap"
# busybox's timeout ends as the TERM it sent (143), not 124
if bb=$(command -v busybox) && "$bb" timeout 5 true 2>/dev/null; then
	mkdir "$tmp/bb-timeout"
	ln -s "$bb" "$tmp/bb-timeout/timeout"
	(
		PATH=$tmp/bb-timeout:$PATH
		run --timeout 1
		exit "$rc"
	)
	rc=$?
	check "busybox's timeout: a hung case is exit 99" [ "$rc" = 99 ]
	check "busybox's timeout: its reason, 'still running'" \
		grep -q 'still running after 1 s: killed' "$tmp/tap"
fi

# SIGTERM: the running case is stopped, the reports so far are written
cases "h fake 0 hang" "i fake 0 0"
sh "$suite" --bindir "$tmp/bin" --cases "$tmp/cases" -o "$tmp/out-term" \
	--junit "$tmp/t.xml" >"$tmp/tap" 2>"$tmp/err" &
pid=$!
# once the hanging case runs (its log exists), not before
i=0
while [ ! -e "$tmp/out-term/h.log" ] && [ "$i" -lt 100 ]; do
	sleep 0.1 2>/dev/null || sleep 1
	i=$((i + 1))
done
sleep 0.2 2>/dev/null || sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 143" [ "$rc" = 143 ]
check "SIGTERM: the case is an error, the reports written" \
	grep -q 'interrupted by SIGTERM' "$tmp/t.xml"

cases "a fake 0 0"
echo "[x]" >"$tmp/pass.ini"
echo "fail" >"$tmp/fail.ini"
run --gate "$tmp/pass.ini" --json "$tmp/out/summary.json"
check "the gate passes: exit 0, one more test point" \
	[ "$rc" = 0 -a "$(grep -c '^1\.\.2$' "$tmp/tap")" = 1 ]
run --gate "$tmp/fail.ini" --junit "$tmp/g.xml"
check "the gate fails: exit 1" [ "$rc" = 1 ]
check "JUnit: the gate's failure is a test case" \
	grep -q 'tests="2" failures="1"' "$tmp/g.xml"
run --gate "$tmp/nosuch.ini"
check "a missing gate profile: exit 2 before anything runs" \
	[ "$rc" = 2 -a ! -s "$tmp/tap" ]

cases "a fake 0 0" "b fake 0 1"
run --only 'a*'
check "--only runs the matching cases" [ "$rc" = 0 ]
run --only 'zz*'
check "--only matching nothing: exit 2" [ "$rc" = 2 ]
cases "a fake 0 0" "b fake 0 1" "c fake 0 0"
run --only 'a*,c'
check "--only with two patterns runs the cases of both" \
	[ "$rc" = 0 -a "$(grep -c '^ok [12] - [ac]$' "$tmp/tap")" = 2 ]
run --only 'a* zz*'
check "--only: a pattern of several that matches nothing: exit 2, named" \
	grep -q "'zz\*' matches no case" "$tmp/err"

# --duration and --repeat reach the programs, not the check scripts
cat >"$tmp/bin/args" <<'EOS'
#!/bin/sh
for a; do echo "# arg $a"; done
echo "1..0"
exit 77
EOS
chmod +x "$tmp/bin/args"
cases "d args 77 --depth 2 -d 1s --tap" "e args 77 --duration=1s" \
	"f args 77 --tap"
run --duration 5s --repeat 3
check "--duration replaces a row's -d" \
	[ "$(grep -c '^# arg 5s$' "$tmp/out/d.log")" = 1 -a \
	-z "$(grep '^# arg 1s$' "$tmp/out/d.log")" ]
check "--duration replaces a row's --duration=" \
	grep -q '^# arg --duration=5s$' "$tmp/out/e.log"
check "--duration: a row without one gets -d" \
	[ "$(sed -n 's/^# arg //p' "$tmp/out/f.log" | tr '\n' ' ')" = \
	"--tap -d 5s --repeat 3 --json $tmp/out/f.json " ]
check "--repeat is added to every program" \
	[ "$(cat "$tmp"/out/[def].log | grep -c '^# arg --repeat$')" = 3 ]
run --repeat 0
check "--repeat 0: exit 2" [ "$rc" = 2 ]
check "--repeat 0: the range named" grep -q '1\.\.1000' "$tmp/err"
run --duration '1 s'
check "--duration that is not one word: exit 2" [ "$rc" = 2 ]
if [ -w /dev/full ]; then
	cases "s fake 0 77" "f fake 0 1"
	run --json /dev/full
	check "--json /dev/full: exit 99 whatever the verdicts" [ "$rc" = 99 ]
fi
run --json "$tmp/nodir/s.json"
check "an --json that cannot be created: exit 2 before anything runs" \
	[ "$rc" = 2 -a ! -s "$tmp/tap" ]
run --timeout 0
check "--timeout 0: exit 2, the range named" \
	grep -q '1\.\.3600' "$tmp/err"
run --cases "$tmp/nosuch.list"
check "a missing cases list: exit 2" [ "$rc" = 2 ]
cases "bad fake x"
run
check "a malformed row: exit 2 with FILE:LINE" \
	grep -q "cases:1:" "$tmp/err"
run --bogus
check "a bad option: exit 2" [ "$rc" = 2 ]

# a check script (libexec): run with sh, @BIN@/ and @LIBEXEC@/ resolved,
# no --json added; its TAP decides, a skip carries the reason
mkdir "$tmp/libexec"
cat >"$tmp/libexec/check.sh" <<'EOS'
echo "TAP version 13"
case $1 in
skip) echo "1..0 # SKIP prlimit (util-linux) not found"; exit 77 ;;
fail) echo "ok 1 - first"; echo "not ok 2 - the cgroup is gone"; echo "1..2"
	exit 1 ;;
args) for a; do echo "# arg $a"; done ;;
esac
echo "ok 1 - fine"
echo "1..1"
EOS
echo helper >"$tmp/libexec/helper"
cases "p check.sh 0 pass" "s check.sh 0 skip" "f check.sh 0 fail" \
	"a check.sh 0 args @BIN@/fake @LIBEXEC@/helper @JOBS@/x.job"
run --libexec "$tmp/libexec" --jobs "$tmp/jobs" --json "$tmp/s.json" \
	--junit "$tmp/s.xml"
check "script cases: a failing check: exit 1" [ "$rc" = 1 ]
check "script cases: the passing script is ok" grep -q '^ok 1 - p$' "$tmp/tap"
check "script cases: the skip is a SKIP with the script's reason" \
	grep -q '^ok 2 - s # SKIP prlimit (util-linux) not found$' "$tmp/tap"
check "script cases: the failure names the failing check" \
	grep -q '^not ok 3 - f: .*the cgroup is gone' "$tmp/tap"
check "script cases: JUnit has the skip's reason" \
	grep -q '<skipped message="prlimit (util-linux) not found"' "$tmp/s.xml"
check "script cases: JSON counts 2 passed, 1 failed, 1 skipped" \
	[ "$(grep -c '"passed": 2,\|"failed": 1,\|"skipped": 1,' "$tmp/s.json")" = 3 ]
check_schema "script cases: the summary validates" "$tmp/s.json"
check "script cases: @BIN@/NAME is the installed program" \
	grep -q "^# arg $tmp/bin/fake\$" "$tmp/out/a.log"
check "script cases: @LIBEXEC@/NAME is the helper" \
	grep -q "^# arg $tmp/libexec/helper\$" "$tmp/out/a.log"
check "script cases: @JOBS@ is the job directory" \
	grep -q "^# arg $tmp/jobs/x.job\$" "$tmp/out/a.log"
check "script cases: no --json added, no result file" \
	[ ! -e "$tmp/out/a.json" -a -z "$(grep -- '--json' "$tmp/out/a.log")" ]
cases "m nosuch.sh 0"
run --libexec "$tmp/libexec"
check "a check script not installed: exit 99" [ "$rc" = 99 ]

# the real list: every row well formed, names unique
sh "$suite" --cases "$real_cases" --list >"$tmp/list" 2>"$tmp/err"
check "the installed list reads" [ $? = 0 ]
check "case names are unique" \
	[ -z "$(cut -d' ' -f1 "$tmp/list" | sort | uniq -d)" ]

# the hand-written man page lists every option --help does
if [ -n "${3:-}" ]; then
	for o in $(sh "$suite" --help | sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p'); do
		check "man page lists --$o" grep -qF -- "\\-\\-$o" "$3"
	done
fi

echo "1..$n"
[ "$fail" -eq 0 ] || exit 1
exit 0
