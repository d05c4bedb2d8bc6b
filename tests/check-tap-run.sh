#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tap-run.sh, the wrapper every kernel case runs through under meson,
# with a stand-in case that ends as told, try by try: a skip is 0 for
# meson, an UNDECIDED (3) is run again, at most three tries in all, and
# passes only when a try ends 0, the undecided tries kept as comments;
# UNDECIDED every time fails with the reason.  TAP out.
#
#   check-tap-run.sh TAP-RUN.SH
set -u
taprun=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-tap-run-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
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
		sed 's/^/# /' "$tmp/out"
		fail=$((fail + 1))
	fi
}

# the stand-in: its Nth try ends with the Nth of its statuses
cat >"$tmp/case" <<'EOS'
#!/bin/sh
count=$1
shift
k=$(($(cat "$count" 2>/dev/null || echo 0) + 1))
echo "$k" >"$count"
eval "rc=\${$k:-0}"
echo "TAP version 13"
case $rc in
77) echo "1..0 # SKIP no SCHED_FIFO here" ;;
3) echo "ok 1 - inherit: UNDECIDED (expected PASS) # SKIP undecided: measured noise could explain it"
	echo "1..1" ;;
1) echo "not ok 1 - inherit: FAIL (expected PASS)"
	echo "#   12 waits over the bound"; echo "ok 2 - none"
	echo "#   not a reason"; echo "1..2" ;;
# exit 1 whose one check off is a negative control UNDECIDED
u) rc=1
	echo "ok 1 - inherit: PASS (expected PASS)"
	echo "not ok 2 - none: UNDECIDED (expected FAIL)"; echo "1..2" ;;
# and beside it a FAIL
m) rc=1
	echo "not ok 1 - inherit: FAIL (expected PASS)"
	echo "not ok 2 - none: UNDECIDED (expected FAIL)"; echo "1..2" ;;
*) echo "ok 1 - inherit: PASS (expected PASS) try $k"; echo "1..1" ;;
esac
exit "$rc"
EOS
chmod +x "$tmp/case"

run() { # statuses of the tries...: tap-run.sh's exit in rc, tries in tries
	rm -f "$tmp/count"
	INVLAB_RETRY_PAUSE=0 INVLAB_UNDECIDED=${strict:-skip} sh "$taprun" \
		"$tmp/case" "$tmp/count" "$@" >"$tmp/out" 2>&1
	rc=$?
	tries=$(cat "$tmp/count")
}
plans() { grep -c '^1\.\.' "$tmp/out"; }

echo "TAP version 13"
run 0
check "a pass: exit 0, one try" [ "$rc" = 0 -a "$tries" = 1 ]
run 77
check "a skip: exit 0 for meson, one try" [ "$rc" = 0 -a "$tries" = 1 ]
check "the skip plan kept" grep -q '^1\.\.0 # SKIP no SCHED_FIFO' "$tmp/out"
run 1
check "not as expected: exit 1, not tried again" [ "$rc" = 1 -a "$tries" = 1 ]
# meson shows a failed test's stderr: why it failed must be there
rm -f "$tmp/count"
INVLAB_RETRY_PAUSE=0 sh "$taprun" "$tmp/case" "$tmp/count" 1 \
	>/dev/null 2>"$tmp/err"
check "a failure's not-ok line and its comments on stderr, nothing else" \
	[ "$(cat "$tmp/err")" = "not ok 1 - inherit: FAIL (expected PASS)
#   12 waits over the bound" ]
rm -f "$tmp/count"
INVLAB_RETRY_PAUSE=0 sh "$taprun" "$tmp/case" "$tmp/count" 0 \
	>/dev/null 2>"$tmp/err"
check "a pass: nothing on stderr" [ ! -s "$tmp/err" ]
run 3 0
check "UNDECIDED, then a pass: exit 0 on the second try" \
	[ "$rc" = 0 -a "$tries" = 2 ]
check "the undecided try is kept, as comments, and said" \
	grep -q '^# try 1 of at most 3 ended 3' "$tmp/out"
check "its lines are visible" \
	grep -q '^#   ok 1 - inherit: UNDECIDED' "$tmp/out"
check "one TAP version line, one plan: meson reads one report" \
	[ "$(grep -c '^TAP version' "$tmp/out")" = 1 -a "$(plans)" = 1 ]
check "the passing try's test point is the result" \
	grep -q '^ok 1 - inherit: PASS (expected PASS) try 2' "$tmp/out"
run 3 3 0
check "UNDECIDED twice, then a pass: exit 0 on the third try" \
	[ "$rc" = 0 -a "$tries" = 3 ]
run 3 3 3 0
check "UNDECIDED in all three tries: a skip for meson (exit 0), no fourth try" \
	[ "$rc" = 0 -a "$tries" = 3 ]
check "the skip plan says it was UNDECIDED, with the reason" \
	grep -q '^1\.\.0 # SKIP UNDECIDED in all 3 tries (exit 3 each time): inherit: UNDECIDED (expected PASS); INVLAB_UNDECIDED=fail fails it$' "$tmp/out"
check "and one plan, no OK" [ "$(plans)" = 1 -a "$(grep -c '^ok' "$tmp/out")" = 0 ]
strict=fail
run 3 3 3 0
check "INVLAB_UNDECIDED=fail: exit 1, no fourth try" \
	[ "$rc" = 1 -a "$tries" = 3 ]
check "the failure is a test point with the reason" \
	grep -q '^not ok 1 - UNDECIDED in all 3 tries (exit 3 each time): inherit: UNDECIDED (expected PASS)$' "$tmp/out"
check "and one plan" [ "$(plans)" = 1 ]
strict=
run 3 1
check "UNDECIDED, then not as expected: exit 1" [ "$rc" = 1 -a "$tries" = 2 ]
# a negative control UNDECIDED (exit 1, nothing else off): as 3
run u 0
check "a control UNDECIDED, then a pass: tried again, exit 0" \
	[ "$rc" = 0 -a "$tries" = 2 ]
check "said as such" grep -q '^# try 1: a negative control UNDECIDED' "$tmp/out"
run u u u
check "a control UNDECIDED in all three tries: a skip, never an OK" \
	[ "$rc" = 0 -a "$tries" = 3 -a "$(grep -c '^ok' "$tmp/out")" = 0 ]
check "the skip plan says so" \
	grep -q '^1\.\.0 # SKIP UNDECIDED in all 3 tries (exit 3 each time): none: UNDECIDED (expected FAIL)' "$tmp/out"
strict=fail
run u u u
check "INVLAB_UNDECIDED=fail: a control UNDECIDED every time fails" \
	[ "$rc" = 1 -a "$tries" = 3 ]
strict=
run m 0
check "a control UNDECIDED beside a FAIL: exit 1, not tried again" \
	[ "$rc" = 1 -a "$tries" = 1 ]

# --result: the case's result file, validated after its own test points
here=$(dirname "$taprun")
cat >"$tmp/prog" <<'EOS'
#!/bin/sh
# a program that writes "$1" as its result (--json FILE added last)
doc=$1
shift 2
cp "$doc" "$1"
echo "TAP version 13"
echo "ok 1 - inherit: PASS (expected PASS)"
echo "1..1"
EOS
chmod +x "$tmp/prog"
"${INVLAB_PYTHON:-python3}" - "$tmp/good.json" "$tmp/bad.json" <<'PY'
import json, sys
d = {"schema_version": 1, "program": "p", "version": "0", "command_line": ["p"],
     "start_time": "2026-01-01T00:00:00Z", "end_time": "2026-01-01T00:00:01Z",
     "features": "", "kernel": None, "return_code": 0,
     "runs": [{"configuration": "c", "verdict": "PASS", "expected": "PASS"}]}
json.dump(d, open(sys.argv[1], "w"))
d["runs"][0]["verdict"] = "GOOD"
json.dump(d, open(sys.argv[2], "w"))
PY
if [ $? -ne 0 ] || ! "${INVLAB_PYTHON:-python3}" -c 'import jsonschema' 2>/dev/null ||
	[ ! -f "$here/check-schema.py" ]; then
	n=$((n + 1))
	echo "ok $n - --result # SKIP no python3-jsonschema or no check-schema.py"
else
	sh "$taprun" --result "$tmp/prog" "$tmp/good.json" >"$tmp/out" 2>&1
	rc=$?
	check "--result, a valid result file: exit 0" [ "$rc" = 0 ]
	check "its test point after the program's, and the plan counts it" \
		grep -q '^ok 2 - its result file validates' "$tmp/out"
	check "one plan, at the end" [ "$(plans)" = 1 -a "$(tail -n 1 "$tmp/out")" = 1..2 ]
	sh "$taprun" --result "$tmp/prog" "$tmp/bad.json" >"$tmp/out" 2>&1
	rc=$?
	check "--result, a verdict that is not one: exit 1" [ "$rc" = 1 ]
	check "a failing test point, the error said" \
		grep -q '^not ok 2 - its result file validates' "$tmp/out"
	check "the error said" grep -q "^# .*'GOOD' is not valid" "$tmp/out"
fi

echo "1..$n"
[ "$fail" -eq 0 ]
