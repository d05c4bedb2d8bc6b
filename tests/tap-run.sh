# SPDX-License-Identifier: MIT
#
# tap-run.sh PROGRAM ARGS...: a kernel case under meson.  The case prints
# TAP and exits 77 when it cannot run here ("1..0 # SKIP why"); meson's TAP
# reader takes any non-zero exit for an error, even after a skip plan, so
# 77 becomes 0 and meson shows the case as skipped, with its reason.
#
# Exit 3 is "as expected, but a check where PASS was expected is
# UNDECIDED" (docs/exit-status.md), and so is, here, an exit 1 whose only
# checks not as expected are negative controls that read UNDECIDED
# (where FAIL was expected): on a noisy host a healthy kernel
# gets one now and then, a kernel that is wrong in a way the host's
# noise could hide gets it every time.  So the case runs again, at most
# twice more: a try that ends 0 passes the case, the undecided tries'
# output kept above it as comments.  When every try is UNDECIDED the case
# is a SKIP whose reason says so ("UNDECIDED in all 3 tries: ..."), shown
# in meson's summary and never an OK; with INVLAB_UNDECIDED=fail (a gate
# on a kernel, on a machine known quiet) it FAILS instead.  A SKIP by
# default because a busy shared host leaves some checks UNDECIDED three
# times running on a healthy kernel (job-dl-chain: 1 in 2 tries beside
# another suite), and a test command must not fail for the host.  The
# tries are INVLAB_RETRY_PAUSE seconds apart
# (default 5): the host's stalls come in bursts (another suite's run, a
# build beside), and a try right after an undecided one would meet the
# same burst.  Every other status is the case's.
# invlab-suite runs the cases without this, keeps 77 for a lab's harness
# and counts the UNDECIDED ones against its --max-undecided share.
#
# tap-run.sh --result PROGRAM ARGS...: a case that is a program (not a
# check script) also writes its result file, as invlab-suite runs it
# (--json added), and one test point more says whether that file
# validates against docs/results.schema.json (check-schema.py beside
# this script; a SKIP without python3-jsonschema), after the program's
# own, numbered on from them.
tries=3
pause=${INVLAB_RETRY_PAUSE:-5}
out=$(mktemp "${TMPDIR:-/tmp}/invlab-tap-run.XXXXXX") || exit 99
res=
if [ "${1:-}" = --result ]; then
	shift
	res=$out.json
fi
trap 'rm -f "$out" ${res:+"$res"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A failed case's "not ok" lines and the comments under each, on stderr
# too: meson shows a failed TAP test's stderr, not its TAP, so without
# this a log says that a case failed and not why.
why_on_stderr() {
	awk '/^not ok / { on = 1; n = 0; print; next }
	     on && /^#/ && n < 60 { n++; print; next }
	     { on = 0 }' "$out" >&2
}

echo "TAP version 13"
try=1
while :; do
	if [ -n "$res" ]; then
		rm -f "$res"
		"$@" --json "$res" >"$out"
	else
		"$@" >"$out"
	fi
	rc=$?
	# a negative control that read UNDECIDED (the program's exit 1
	# with every check not as expected an UNDECIDED where FAIL was
	# expected): the host's noise covered what it is there to show,
	# which is no more its failure than its pass: as 3
	if [ "$rc" -eq 1 ] &&
		grep -q '^not ok [0-9]* - .*: UNDECIDED (expected FAIL)' "$out" &&
		! grep '^not ok ' "$out" | grep -qv ': UNDECIDED (expected FAIL)'; then
		echo "# try $try: a negative control UNDECIDED, nothing else off: as exit 3"
		sed -i 's/^not \(ok [0-9]* - .*: UNDECIDED (expected FAIL)\)$/\1 # SKIP undecided: a check where FAIL was expected is UNDECIDED/' "$out"
		rc=3
	fi
	[ "$rc" -eq 3 ] && [ "$try" -lt "$tries" ] || break
	echo "# try $try of at most $tries ended 3: as expected, but UNDECIDED; its output:"
	sed -e '/^TAP version/d' -e 's/^/#   /' "$out"
	echo "# trying again in $pause s"
	sleep "$pause"
	try=$((try + 1))
done
if [ "$rc" -eq 3 ]; then
	why=$(grep -m 1 '# SKIP undecided' "$out" |
		sed -e 's/^ok [0-9]* *-* *//' -e 's/ *# SKIP.*//')
	sed -e '/^TAP version/d' -e 's/^/#   /' "$out"
	if [ "${INVLAB_UNDECIDED:-skip}" = fail ]; then
		echo "# a kernel that leaves a check UNDECIDED every time does not pass"
		echo "not ok 1 - UNDECIDED in all $tries tries (exit 3 each time)${why:+: $why}"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP UNDECIDED in all $tries tries (exit 3 each time)${why:+: $why}; INVLAB_UNDECIDED=fail fails it"
	exit 0
fi
[ "$try" -gt 1 ] && echo "# try $try of at most $tries ended $rc"
plan=$(grep -E '^1\.\.[0-9]+$' "$out" | tail -n 1)
if [ -z "$res" ] || [ "$rc" -eq 77 ] || [ -z "$plan" ]; then
	sed '/^TAP version/d' "$out"
	[ "$rc" -eq 77 ] && exit 0
	[ "$rc" -ne 0 ] && why_on_stderr
	exit "$rc"
fi
# the program's test points, then the result file's, then the plan
sed -e '/^TAP version/d' -e '/^1\.\.[0-9]*$/d' "$out"
k=$((${plan#1..} + 1))
desc="its result file validates against the schema"
if [ ! -s "$res" ]; then
	echo "not ok $k - $desc: no result file written (exit $rc)"
	[ "$rc" -eq 0 ] && rc=1
elif ! command -v "${INVLAB_PYTHON:-python3}" >/dev/null 2>&1; then
	echo "ok $k - $desc # SKIP no python3 here"
else
	why=$("${INVLAB_PYTHON:-python3}" "$(dirname "$0")/check-schema.py" "$res" 2>&1)
	st=$?
	if [ "$st" -eq 0 ]; then
		echo "ok $k - $desc"
	elif [ "$st" -eq 77 ]; then
		echo "ok $k - $desc # SKIP $(echo $why)"
	else
		printf '%s\n' "$why" | sed 's/^/# /'
		echo "not ok $k - $desc"
		[ "$rc" -eq 0 ] && rc=1
	fi
fi
echo "1..$k"
[ "$rc" -ne 0 ] && why_on_stderr
exit "$rc"
