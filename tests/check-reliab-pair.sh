#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kernel-reliab.sh pair's reading of kmutex throttled, its negative
# control where proxy execution is off, with stand-ins for both programs:
# each runs the real one for 0.3 s (a result file as the programs write
# it) and then sets the verdicts it is told to.  kmutex throttled read
# UNDECIDED (FAIL expected) must end the case 3, which tap-run.sh tries
# again; read PASS, a kernel that bounds what it should not, must fail
# the case (1); FAIL as expected passes it (0).  TAP out.
#
#   check-reliab-pair.sh KERNEL-RELIAB.SH DL-MBWI KMUTEX PI-CLASSIC CLEANUP
set -u
script=$1
dl=$2
km=$3
pic=$4
cleanup=$5
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root (kernel-reliab.sh runs the programs)"
	exit 77
fi
if ! command -v "${INVLAB_PYTHON:-python3}" >/dev/null 2>&1; then
	echo "1..0 # SKIP no python3 here"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-pair-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

# the stand-in: the real program (its path first) for 0.3 s with the same
# arguments, not 3 s, then each run's verdict and its checks' set
# to the comma-separated verdicts in turn, and the exit status given
cat >"$tmp/standin.py" <<'EOS'
import json, subprocess, sys
real, rc, verdicts = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
args = sys.argv[4:]
args = ["300ms" if a == "3s" else a for a in args]
out = args[args.index("--json") + 1]
subprocess.run([real] + args)
d = json.load(open(out))
for r, v in zip(d["runs"], verdicts):
    r["verdict"] = v
    for c in r.get("checks", []):
        c["verdict"] = v
json.dump(d, open(out, "w"))
sys.exit(rc)
EOS
mk() { # name real exit verdicts
	printf '#!/bin/sh\nexec ${INVLAB_PYTHON:-python3} %s %s %s %s "$@"\n' "$tmp/standin.py" \
		"$2" "$3" "$4" >"$tmp/$1"
	chmod +x "$tmp/$1"
}

# case KM-EXIT KM-VERDICT WANT DESCRIPTION
case_() {
	mk pic "$pic" 0 PASS
	mk km "$km" "$1" "$2"
	INVLAB_RETRY_PAUSE=0 sh "$script" pair "$dl" "$tmp/km" "$tmp/pic" \
		"$cleanup" >"$tmp/out" 2>&1
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq 77 ]; then
		echo "ok $n - $4 # SKIP $(grep -m1 SKIP "$tmp/out" | sed 's/.*SKIP //')"
	elif [ "$rc" -eq "$3" ]; then
		echo "ok $n - $4 (exit $rc)"
	else
		echo "not ok $n - $4 (exit $rc, wanted $3)"
		sed 's/^/#   /' "$tmp/out"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
case_ 1 UNDECIDED 3 "kmutex throttled UNDECIDED where FAIL was expected: tried again, not failed"
case_ 1 PASS 1 "kmutex throttled PASS where FAIL was expected: the case fails"
case_ 0 FAIL 0 "kmutex throttled FAIL as expected: the case passes"
echo "1..$n"
[ "$fail" -eq 0 ]
