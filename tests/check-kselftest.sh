#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kselftest/ without a kernel tree (the runner's own reading of it is
# tests/kernel-kselftest.sh): what a kernel tree takes in is well formed,
# the config fragment asks for nothing the kernels invlab builds for
# itself lack, and invlab.sh maps each program's exit status and KTAP to
# its test line and kselftest's exit status, run on stand-in programs.
#
#   check-kselftest.sh KSELFTEST_DIR GUEST_CONFIG
set -u
dir=$1
guest=$2
n=0
fail=0

check() { # status, description
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-check-ksft.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"

# --- what a kernel tree takes in --------------------------------------------
grep -q '^TEST_PROGS := invlab\.sh$' "$dir/Makefile" &&
	grep -q '^include \.\./lib\.mk$' "$dir/Makefile"
check $? "the Makefile runs invlab.sh with the kernel's lib.mk"
[ -x "$dir/invlab.sh" ] && head -n 1 "$dir/invlab.sh" | grep -q '^#!/bin/sh$'
check $? "invlab.sh is executable (else the runner warns and reads its first line)"
# kselftest's runner reads every line of settings as field=value
timeout=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$dir/settings")
[ -n "$timeout" ] && [ "$timeout" -gt 45 ] &&
	! grep -v '^#' "$dir/settings" | grep -q -v '^timeout=[0-9]*$'
check $? "settings: one timeout, above kselftest's 45 s (${timeout:-none})"
# every scenario may wait for its CPUs for its --lock-wait (30 s) before
# it gives up: the timeout must let each do so and still run
nscen=$(sh "$dir/invlab.sh" --list | wc -l)
[ -n "$timeout" ] && [ "$timeout" -ge $((nscen * 30 + 60)) ]
check $? "settings: the timeout lets $nscen scenarios wait 30 s each and run"
# the fragment's options, as merge_config.sh reads them
grep -v '^#' "$dir/config" | grep -v '^$' >"$tmp/options"
[ -s "$tmp/options" ] && ! grep -v '^CONFIG_[A-Z0-9_]*=[ym]$' "$tmp/options"
check $? "config: option lines only, CONFIG_X=y"
missing=$(grep -v -x -F -f "$guest" "$tmp/options" | tr '\n' ' ')
[ -z "$missing" ]
check $? "config: every option is in $(basename "$guest") too${missing:+ (not: $missing)}"
for o in CONFIG_FUTEX_PI CONFIG_RT_MUTEXES CONFIG_CGROUPS CONFIG_CPUSETS \
	CONFIG_SMP CONFIG_FTRACE; do
	grep -q "^$o=y$" "$tmp/options" || echo "# config lacks $o"
done >"$tmp/lacks"
[ ! -s "$tmp/lacks" ]
check $? "config: PI futexes, rt_mutex, cgroups, cpusets, SMP, tracing"
cat "$tmp/lacks"

# --- invlab.sh on stand-in programs -----------------------------------------
# Each stand-in prints the KTAP and exits with the status that
# STUB_<NAME> says (NAME with '-' as '_'): pass, fail, undecided, skip,
# usage, broken; noktap is an invlab without --ktap.  Its arguments go to
# NAME.args.
mkdir "$tmp/bin" "$tmp/empty"
for p in pi-classic pi-chain kmutex dl-mbwi; do
	v=STUB_$(echo "$p" | tr '-' '_')
	cat >"$tmp/bin/$p" <<EOF
#!/bin/sh
mode=\${$v:-pass}
if [ "\$1" = --help ]; then
	[ "\$mode" = noktap ] || echo "      --ktap   KTAP"
	exit 0
fi
echo "\$*" >"$tmp/$p.args"
echo "KTAP version 1"
case \$mode in
pass) printf '1..1\nok 1 - c: PASS (expected PASS)\n'; exit 0 ;;
fail) printf '1..1\nnot ok 1 - c: FAIL (expected PASS)\n'; exit 1 ;;
undecided) printf '1..2\nok 1 - a: PASS (expected PASS)\nok 2 - b: UNDECIDED (expected PASS) # SKIP undecided: measured noise could explain it\n'; exit 4 ;;
skip) echo "1..0 # SKIP needs CAP_SYS_NICE"; echo "$p: SKIP: needs CAP_SYS_NICE" >&2; exit 4 ;;
usage) echo "$p: --duration: '1x' is not a duration" >&2; exit 2 ;;
broken) printf '1..1\nok 1 - c: PASS (expected PASS)\n'; echo "$p: --json: cannot write" >&2; exit 99 ;;
esac
EOF
	chmod +x "$tmp/bin/$p"
done

# wrapper OUT VAR=VALUE... -- ARGS...: invlab.sh with the stand-ins, its
# status in $rc
wrapper() {
	out=$1
	shift
	env INVLAB_BIN="$tmp/bin" "$@" sh "$dir/invlab.sh" -d 1s \
		>"$tmp/$out" 2>"$tmp/$out.err"
	rc=$?
}

# result OUT N: the script's line for scenario N
result() {
	grep "^\(not \)\{0,1\}ok $2 - " "$tmp/$1"
}

wrapper pass
[ "$rc" -eq 0 ] &&
	[ "$(head -n 2 "$tmp/pass")" = "$(printf 'KTAP version 1\n1..4')" ] &&
	[ "$(result pass 1)" = "ok 1 - pi-classic" ] &&
	[ "$(result pass 4)" = "ok 4 - dl-mbwi" ] &&
	grep -q '^  ok 1 - c: PASS (expected PASS)$' "$tmp/pass" &&
	grep -q '^  KTAP version 1$' "$tmp/pass"
check $? "every program passes: 0, a test per scenario, its KTAP nested (exit $rc)"
[ "$(cat "$tmp/pi-classic.args")" = "-d 1s --ktap --exit-status=kselftest" ] &&
	[ "$(cat "$tmp/pi-chain.args")" = "--depth 2 --cs 10ms --hog 40ms -d 1s --ktap --exit-status=kselftest" ]
check $? "each program runs with its scenario's arguments, -d, --ktap and kselftest's exit status"

wrapper fail STUB_kmutex=fail
[ "$rc" -eq 1 ] && [ "$(result fail 3)" = "not ok 3 - kmutex" ] &&
	grep -q '^  not ok 1 - c: FAIL (expected PASS)$' "$tmp/fail"
check $? "a check not as expected: not ok, exit 1 (exit $rc)"

wrapper und STUB_pi_chain=undecided
[ "$rc" -eq 4 ] &&
	[ "$(result und 2)" = "ok 2 - pi-chain # SKIP undecided: b: UNDECIDED (expected PASS) (measured noise could explain it)" ] &&
	[ "$(result und 1)" = "ok 1 - pi-classic" ]
check $? "an UNDECIDED: a SKIP that says so, and kselftest's 4, not a pass (exit $rc)"

wrapper skip STUB_dl_mbwi=skip
[ "$rc" -eq 0 ] &&
	[ "$(result skip 4)" = "ok 4 - dl-mbwi # SKIP needs CAP_SYS_NICE" ]
check $? "one scenario cannot run here: a SKIP with its reason, the others decide (exit $rc)"

wrapper skipall STUB_pi_classic=skip STUB_pi_chain=skip STUB_kmutex=skip \
	STUB_dl_mbwi=skip
[ "$rc" -eq 4 ] && [ "$(grep -c '^ok [0-9] - .* # SKIP needs CAP_SYS_NICE$' "$tmp/skipall")" -eq 4 ]
check $? "none can run here: kselftest's 4 (exit $rc)"

wrapper usage STUB_pi_classic=usage
[ "$rc" -eq 1 ] &&
	[ "$(result usage 1)" = "not ok 1 - pi-classic # exit=2: pi-classic: --duration: '1x' is not a duration" ]
check $? "bad usage (2): not ok, exit 1, never 2 (kselftest's XFAIL) or 4 (exit $rc)"

wrapper broken STUB_kmutex=broken
[ "$rc" -eq 1 ] &&
	[ "$(result broken 3)" = "not ok 3 - kmutex # exit=99: kmutex: --json: cannot write" ]
check $? "a broken setup (99): not ok, never a pass or a skip (exit $rc)"

rm -f "$tmp/pi-chain.args"
wrapper old STUB_pi_chain=noktap
[ "$rc" -eq 0 ] && result old 2 | grep -q '^ok 2 - pi-chain # SKIP .* has no --ktap' &&
	[ ! -f "$tmp/pi-chain.args" ]
check $? "an invlab without --ktap: a SKIP that says so (exit $rc)"

env INVLAB_BIN="$tmp/empty" sh "$dir/invlab.sh" >"$tmp/none" 2>&1
rc=$?
[ "$rc" -eq 4 ] && [ "$(head -n 1 "$tmp/none")" = "KTAP version 1" ] &&
	sed -n 2p "$tmp/none" | grep -q "^1\.\.0 # SKIP invlab is not installed: no pi-classic pi-chain kmutex dl-mbwi in $tmp/empty$"
check $? "invlab not installed: a skip plan that says why, exit 4 (exit $rc)"
env PATH=/usr/bin:/bin INVLAB_BIN= sh "$dir/invlab.sh" >"$tmp/path" 2>&1
rc=$?
# (unless this machine has invlab installed there: then the script found
# and ran it, whatever was installed or removed since; a package being
# installed and removed beside the suite made a command -v afterwards
# disagree with what the script had seen)
if grep -q '^1\.\.0 # SKIP' "$tmp/path"; then
	[ "$rc" -eq 4 ] && grep -q 'on \$PATH (install invlab' "$tmp/path"
else
	grep -q '^1\.\.[1-9]' "$tmp/path" && grep -q '^# pi-classic: /usr/bin/pi-classic ' "$tmp/path"
fi
check $? "without --bindir the programs are looked for on \$PATH (exit $rc)"

# a build directory: the programs in demos/
mkdir "$tmp/build" && mv "$tmp/bin" "$tmp/build/demos" && ln -s build/demos "$tmp/bin"
env INVLAB_BIN="$tmp/build" sh "$dir/invlab.sh" -d 1s --only pi-classic >"$tmp/only" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$tmp/only")" = "1..1" ] &&
	grep -q "^# pi-classic: $tmp/build/demos/pi-classic -d 1s" "$tmp/only"
check $? "--only, and a build directory's demos/ (exit $rc)"

sh "$dir/invlab.sh" --only nosuch >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "no scenario 'nosuch'" "$tmp/err"
check $? "the script used wrongly: exit 1, not 2 (kselftest's XFAIL) (exit $rc)"
sh "$dir/invlab.sh" --bogus >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ]
check $? "an unknown argument: exit 1 (exit $rc)"
[ "$(sh "$dir/invlab.sh" --list | cut -d' ' -f1 | tr '\n' ' ')" = "pi-classic pi-chain kmutex dl-mbwi " ]
check $? "--list names the scenarios"

echo "1..$n"
exit "$fail"
