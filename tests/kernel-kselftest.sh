#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kselftest/ under the kernel's own kselftest runner, as TAP: the
# directory is copied into a temporary copy of the kselftest part of a
# kernel tree (tools/testing/selftests/{Makefile,lib.mk,kselftest/} and
# scripts/subarch.include; the tree itself is only read) and run with
#
#   make -C tools/testing/selftests TARGETS=invlab run_tests
#
# with the programs of this build (INVLAB_BIN), as docs/kselftest.md
# tells a kernel developer to.  Then the runner's summary is checked:
#
#   - the settings file's timeout is the one the runner takes;
#   - each scenario's KTAP is nested in the runner's output with its
#     verdicts (pi-classic's negative control FAILs as expected), and
#     the script's line for it says what the program's KTAP says (a
#     test not as expected: not ok; an UNDECIDED: a SKIP saying so);
#   - the runner's one line agrees: not ok when a scenario was, ok #
#     SKIP when one was UNDECIDED or none could run, else ok;
#   - skips are read as skips (ok ... # SKIP), never as failures: invlab
#     not installed, and the programs refused (77) without privileges;
#   - bad usage (the programs' 2) and a C library without priority
#     inheritance (a FAIL) are "not ok", never a skip or an XFAIL.
#
#   kernel-kselftest.sh KSELFTEST_DIR BUILD_DIR [NOPI_SO]
#
# The kernel source is $INVLAB_KERNEL_SOURCE, else Debian's 7.2.13 source
# that invlab-kernel --package linux-source-7.2 unpacks into its cache
# (/var/cache/invlab/kernels/src); without one (a CI machine) the test is
# a SKIP with the reason, as it is without make.  Each scenario runs
# INVLAB_TEST_DURATION (1s) per configuration.
set -u
ksft=$1
build=$2
nopi=${3:-}
dur=${INVLAB_TEST_DURATION:-1s}
# the runs below change directory: the preload by its absolute path
case $nopi in
'' | /*) ;;
*) nopi=$(cd "$(dirname "$nopi")" && pwd)/$(basename "$nopi") ;;
esac

. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
src=${INVLAB_KERNEL_SOURCE:-}
if [ -z "$src" ]; then
	for d in /var/cache/invlab/kernels/src/linux-source-7.2_7.2.13*/; do
		[ -d "$d" ] && src=${d%/}
	done
fi
sel=tools/testing/selftests
if [ -z "$src" ] || [ ! -f "$src/$sel/kselftest/runner.sh" ]; then
	echo "1..0 # SKIP no kernel source with kselftest's runner here" \
		"(${src:-none}; set INVLAB_KERNEL_SOURCE, or" \
		"invlab-kernel --package linux-source-7.2 unpacks it into" \
		"/var/cache/invlab/kernels/src)"
	exit 77
fi
if ! command -v make >/dev/null 2>&1; then
	echo "1..0 # SKIP make is not installed (kselftest's runner is run by it)"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-kselftest.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/linux
mkdir -p "$tree/$sel" "$tree/scripts" &&
	cp -R "$src/$sel/Makefile" "$src/$sel/lib.mk" "$src/$sel/kselftest" \
		"$tree/$sel/" &&
	cp "$src/scripts/subarch.include" "$tree/scripts/" &&
	cp -R "$ksft" "$tree/$sel/invlab" || {
	echo "1..0 # SKIP $src is not a kernel tree this test knows (no $sel/lib.mk or scripts/subarch.include)"
	exit 77
}
# readable by the unprivileged run below
chmod -R a+rX "$tmp"

# ksft OUT ENV...: make run_tests of the copy, with these variables
ksft() {
	out=$1
	shift
	env "$@" make -s -C "$tree/$sel" TARGETS=invlab run_tests \
		>"$tmp/$out" 2>&1
}

# show OUT: the runner's output, as comments
show() {
	sed 's/^/#   /' "$tmp/$1"
}

# the runner's line for the script ("ok 1 selftests: invlab: invlab.sh")
top_line() {
	grep '^\(not \)\{0,1\}ok [0-9]* selftests: invlab: invlab\.sh' "$tmp/$1"
}

timeout=$(sed -n 's/^timeout=\([0-9]*\)$/\1/p' "$ksft/settings")

# --- every scenario, with this build's programs -------------------------
ksft all INVLAB_BIN="$build" KSELFTEST_INVLAB_SH_ARGS="-d $dur"
show all
grep -q "^# timeout set to $timeout\$" "$tmp/all"
check $? "the runner takes the settings file's timeout ($timeout s)"
grep -q '^# selftests: invlab: invlab\.sh$' "$tmp/all" &&
	grep -q '^# KTAP version 1$' "$tmp/all" &&
	grep -q "^# 1\.\.$(sh "$ksft/invlab.sh" --list | wc -l | tr -d ' ')\$" \
		"$tmp/all"
check $? "the script's KTAP, a test per scenario, nested in the runner's"
# pi-classic cannot run here (no privilege, another run's CPUs): the
# checks that need its verdicts are skips, with its reason
pi_skip=$(sed -n 's/^# ok 1 - pi-classic # SKIP //p' "$tmp/all")
case $pi_skip in undecided:*) pi_skip= ;; esac
grep -q '^#   ok 1 - none: FAIL (expected FAIL)$' "$tmp/all" &&
	grep -q '^#   \(not \)\{0,1\}ok 2 - inherit: [A-Z]* (expected PASS)' \
		"$tmp/all" &&
	grep -q '^#   \(not \)\{0,1\}ok [0-9]* - protect: [A-Z]* (expected PASS)' \
		"$tmp/all"
st=$?
[ -n "$pi_skip" ] && st=77 skip_why="pi-classic: $pi_skip"
check $st "pi-classic's checks with their verdicts, the control FAILing as expected"
! grep -q '^# # [a-z-]*: exit \([^014]\|[0-9][0-9]\)' "$tmp/all"
check $? "every program ended 0, 1 or 4 (kselftest's pass, fail, skip)"

# what each scenario's line must be, from its program's exit status
# ("# # NAME: exit RC in S s") and its own KTAP (the lines since
# "# # NAME: PATH ..."): 0 ok, 1 not ok, 4 ok # SKIP (undecided when a
# check was UNDECIDED); and the status must agree with the KTAP: 1 when
# a check was not as expected, never 0 when one was UNDECIDED
awk '
/^# # [a-z-]+: \// { name = $3; sub(/:$/, "", name); nok = und = 0; rc = -1; next }
/^#   not ok /       { nok = 1 }
/^#   ok .* # SKIP undecided/ { und = 1 }
/^# # [a-z-]+: exit [0-9]+ in / { rc = $5 }
name != "" && $0 ~ "^# (not )?ok [0-9]+ - " name "( |$)" {
	want = rc == 0 ? "pass" : rc == 4 ? (und ? "undecided" : "skip") : "fail"
	got = $0 ~ /^# not ok/ ? "fail" : \
	      $0 ~ /# SKIP undecided/ ? "undecided" : \
	      $0 ~ /# SKIP/ ? "skip" : "pass"
	agree = (nok ? rc != 0 && rc != 4 : rc != 1) && !(und && rc == 0)
	print name, rc, want, got, agree ? "agrees" : "DISAGREES"
	name = ""
}' "$tmp/all" >"$tmp/lines"
sed 's/^/# scenario, exit, wanted, got, exit and KTAP: /' "$tmp/lines"
[ "$(wc -l <"$tmp/lines")" -eq "$(sh "$ksft/invlab.sh" --list | wc -l)" ] &&
	awk '$3 != $4 || $5 != "agrees" { bad = 1 } END { exit bad }' \
		"$tmp/lines"
check $? "each scenario's line says what its program's exit and KTAP say"
nfail=$(grep -c '^# not ok [0-9]* - ' "$tmp/all")
nund=$(grep -c '^# ok [0-9]* - .* # SKIP undecided' "$tmp/all")
npass=$(grep -c '^# ok [0-9]* - [a-z-]*$' "$tmp/all")
if [ "$nfail" -gt 0 ]; then
	want='not ok 1 selftests: invlab: invlab.sh # exit=1'
elif [ "$nund" -gt 0 ] || [ "$npass" -eq 0 ]; then
	want='ok 1 selftests: invlab: invlab.sh # SKIP'
else
	want='ok 1 selftests: invlab: invlab.sh'
fi
[ "$(top_line all)" = "$want" ]
check $? "the runner's line agrees: '$(top_line all | tr -d '#')' ($npass passed, $nund undecided, $nfail not as expected)"

# --- skips are skips --------------------------------------------------------
mkdir "$tmp/empty"
ksft none INVLAB_BIN="$tmp/empty"
show none
[ "$(top_line none)" = 'ok 1 selftests: invlab: invlab.sh # SKIP' ] &&
	grep -q '^# 1\.\.0 # SKIP invlab is not installed' "$tmp/none"
check $? "invlab not installed: the runner reads a skip (ok, SKIP), and the script says why"

# without CAP_SYS_NICE the programs cannot run here (77): kselftest's 4
if [ "$(id -u)" -eq 0 ]; then
	need_util_linux setpriv prlimit
	unpriv() {
		prlimit --rtprio=0 setpriv --reuid=65534 --regid=65534 \
			--clear-groups --inh-caps=-all --bounding-set=-all "$@"
	}
else
	need_util_linux prlimit
	unpriv() { prlimit --rtprio=0 "$@"; }
fi
# the runner writes to /dev/stdout: a pipe of the unprivileged user's own
unpriv env INVLAB_BIN="$build" \
	KSELFTEST_INVLAB_SH_ARGS="-d $dur --only pi-classic,dl-mbwi" \
	sh -c 'make -s -C "$1" TARGETS=invlab run_tests 2>&1 | cat' sh \
	"$tree/$sel" >"$tmp/nopriv"
show nopriv
[ "$(top_line nopriv)" = 'ok 1 selftests: invlab: invlab.sh # SKIP' ] &&
	grep -q '^# ok 1 - pi-classic # SKIP .*CAP_SYS_NICE' "$tmp/nopriv" &&
	grep -q '^#   1\.\.0 # SKIP ' "$tmp/nopriv"
check $? "no privilege (77): the runner reads a skip (ok, SKIP) with the reason, not a failure (exit=77)"

# --- failures are failures --------------------------------------------------
ksft usage INVLAB_BIN="$build" KSELFTEST_INVLAB_SH_ARGS="-d 1x --only pi-classic"
show usage
[ "$(top_line usage)" = 'not ok 1 selftests: invlab: invlab.sh # exit=1' ] &&
	grep -q '^# not ok 1 - pi-classic # exit=2: ' "$tmp/usage"
check $? "bad usage (2): not ok, never a SKIP or an XFAIL"

if [ -n "$pi_skip" ]; then
	skip_why="pi-classic: $pi_skip"
	check 77 "a C library without priority inheritance: inherit FAILs, not ok"
elif [ -n "$nopi" ] && [ -f "$nopi" ]; then
	ksft nopi INVLAB_BIN="$build" LD_PRELOAD="$nopi" \
		KSELFTEST_INVLAB_SH_ARGS="-d $dur --only pi-classic"
	show nopi
	[ "$(top_line nopi)" = 'not ok 1 selftests: invlab: invlab.sh # exit=1' ] &&
		grep -q '^#   not ok 2 - inherit: FAIL (expected PASS)$' "$tmp/nopi"
	check $? "a C library without priority inheritance: inherit FAILs, not ok"
else
	skip_why="the preload ${nopi:-(none given)} is not there (a static build)"
	check 77 "a C library without priority inheritance: inherit FAILs, not ok"
fi

echo "1..$n"
[ "$fail" = 0 ] || exit 1
exit 0
