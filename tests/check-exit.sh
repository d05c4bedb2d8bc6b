#!/bin/sh
# SPDX-License-Identifier: MIT
#
# One exit-status table for every program (docs/exit-status.md): the same
# mistake ends with the same status whichever program it is made with.
# Each program is run on a missing input file, an unknown option and an
# output it cannot create; all three are 2 (bad usage or input), before
# anything is measured.  And an UNDECIDED where PASS was expected is 3,
# never 0: invlab-judge on a result file whose one check is UNDECIDED
# (tests/data/judge), invlab-suite on a case that ends 3.
#
#   check-exit.sh NAME PROGRAM [NAME PROGRAM]...
#
# NAME picks the input the program takes; PROGRAM runs through meson's
# exe_wrapper in a cross build (MESON_EXE_WRAPPER), except invlab-suite,
# a shell script.  TAP out.
set -u
wrap=${MESON_EXE_WRAPPER:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-exit.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
missing=$tmp/no-such-file
noout=$tmp/no-such-dir/out
n=0
fail=0
# a valid result file, for the tools' output checks
cat >"$tmp/r.json" <<'EOJ'
{"schema_version": 1, "program": "pi-classic", "runs": []}
EOJ
printf '[pi-classic/*]\nverdict = expected\n' >"$tmp/p.ini"
echo "a invlab-run 0" >"$tmp/cases"

expect() { # WANT DESCRIPTION PROGRAM ARGS...: the message names $name
	want=$1 desc=$2 prog=$3
	shift 3
	n=$((n + 1))
	case $prog in
	*invlab-suite) sh "$prog" "$@" >"$tmp/out" 2>"$tmp/err" ;;
	*) eval "$wrap \"\$prog\" \"\$@\"" >"$tmp/out" 2>"$tmp/err" ;;
	esac
	got=$?
	if [ "$got" = "$want" ] && grep -q "$word" "$tmp/err"; then
		echo "ok $n - $desc: exit $got"
	else
		echo "not ok $n - $desc: exit $got, expected $want and a message naming '$word'"
		sed 's/^/# /' "$tmp/err"
		fail=$((fail + 1))
	fi
}

# expect_out WANT DESCRIPTION TEXT PROGRAM ARGS...: the status, and TEXT
# in what the program printed (standard output or error)
expect_out() {
	want=$1 desc=$2 text=$3 prog=$4
	shift 4
	n=$((n + 1))
	case $prog in
	*invlab-suite) sh "$prog" "$@" >"$tmp/out" 2>&1 ;;
	*) eval "$wrap \"\$prog\" \"\$@\"" >"$tmp/out" 2>&1 ;;
	esac
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
		echo "ok $n - $desc: exit $got"
	else
		echo "not ok $n - $desc: exit $got, expected $want and '$text'"
		sed 's/^/# /' "$tmp/out"
		fail=$((fail + 1))
	fi
}
data=$(dirname "$0")/data

echo "TAP version 13"
while [ $# -ge 2 ]; do
	name=$1
	prog=$2
	shift 2
	word=no-such-option
	expect 2 "$name: an unknown option" "$prog" --no-such-option
	word=no-such-file
	case $name in
	pi-classic | pi-chain | kmutex | dl-mbwi)
		expect 2 "$name: a missing --kconfig file" "$prog" \
			--kconfig "$missing"
		word=no-such-dir
		expect 2 "$name: a --json it cannot create" "$prog" \
			--json "$noout"
		;;
	invlab-run)
		expect 2 "$name: a missing job file" "$prog" "$missing"
		word=no-such-dir
		expect 2 "$name: a --json it cannot create" "$prog" \
			--json "$noout" "$missing"
		;;
	invlab-compare)
		expect 2 "$name: a missing result file" "$prog" \
			"$tmp/r.json" "$missing"
		word=no-such-dir
		expect 2 "$name: a --json it cannot create" "$prog" \
			--json "$noout" "$tmp/r.json" "$tmp/r.json"
		;;
	invlab-gate)
		expect 2 "$name: a missing result file" "$prog" \
			-p "$tmp/p.ini" "$missing"
		expect 2 "$name: a missing profile" "$prog" \
			-p "$missing" "$tmp/r.json"
		word=no-such-dir
		expect 2 "$name: a --junit it cannot create" "$prog" \
			-p "$tmp/p.ini" --junit "$noout" "$tmp/r.json"
		;;
	invlab-plot)
		expect 2 "$name: a missing result file" "$prog" \
			-o "$tmp/x.svg" "$missing"
		word=no-such-dir
		expect 2 "$name: a -o it cannot create" "$prog" \
			-o "$noout" "$tmp/r.json"
		;;
	invlab-import)
		expect 2 "$name: a missing input file" "$prog" \
			--from rt-app -o "$tmp/x.json" "$missing"
		word=no-such-dir
		expect 2 "$name: a -o it cannot create" "$prog" \
			--from rt-app -o "$noout" "$tmp/r.json"
		;;
	invlab-judge)
		expect 2 "$name: a missing result file" "$prog" "$missing"
		# every verdict as recorded, one UNDECIDED where PASS was
		# expected: 3, not 0; recorded PASS instead, it differs: 1
		und=$data/judge/kmutex-undecided.json
		expect_out 3 "$name: an UNDECIDED where PASS was expected" \
			"1 undecided where PASS was expected" "$prog" "$und"
		sed 's/"verdict": "UNDECIDED"/"verdict": "PASS"/' "$und" \
			>"$tmp/pass.json"
		expect_out 1 "$name: the same recorded as a PASS differs" \
			"DIFFERS" "$prog" "$tmp/pass.json"
		;;
	invlab-suite)
		expect 2 "$name: a missing list of cases" "$prog" \
			--cases "$missing"
		expect 2 "$name: a missing gate profile" "$prog" \
			--cases "$tmp/cases" --gate "$missing"
		# a case that ends 3 where 0 was expected
		mkdir -p "$tmp/bin"
		printf '#!/bin/sh\nexit 3\n' >"$tmp/bin/undecided"
		chmod +x "$tmp/bin/undecided"
		echo "u undecided 0" >"$tmp/cases-u"
		expect_out 3 "$name: a case that ends UNDECIDED" "1 undecided" \
			"$prog" --cases "$tmp/cases-u" --bindir "$tmp/bin" \
			-o "$tmp/suite-out"
		;;
	esac
done
echo "1..$n"
[ "$fail" -eq 0 ] || exit 1
exit 0
