#!/bin/sh
# SPDX-License-Identifier: MIT
#
# invlab.sh: invlab's scenarios as one kselftest test (docs/kselftest.md).
# This directory is tools/testing/selftests/invlab of a kernel tree:
#
#   make -C tools/testing/selftests TARGETS=invlab run_tests
#   KSELFTEST_INVLAB_SH_ARGS="-d 1s --only pi-classic" make ... run_tests
#
# It runs the invlab programs installed on the machine (on $PATH), or those
# of --bindir DIR (INVLAB_BIN=DIR; a meson build directory will do), each
# with --ktap --exit-status=kselftest, and prints KTAP version 1: a test
# per scenario, with the program's own KTAP nested under it (a test per
# check, with its verdict).  Nothing is built here.
#
#   invlab.sh [-d TIME] [--bindir DIR] [--only NAME,...] [--list]
#
# Exit status, kselftest's (kselftest.h): 0 every scenario ran and every
# check was decided and as expected (a scenario that cannot run here may
# be skipped), 1 a check was not as expected, or a program ended with
# anything but kselftest's 0, 1 or 4 (2 bad usage, 99 broken setup; the
# runner would read 2 as XFAIL, "ok"), or this script was used wrongly,
# 4 skip: invlab is not installed, nothing could run here (no root, a
# kernel feature missing; the reasons are printed), or a check where PASS
# was expected is UNDECIDED (measured noise could explain it: not a
# pass, and no failure of the kernel).
#
# The scenarios, NAME PROGRAM ARGUMENTS: each takes a few times --duration
# (a configuration each, and the idle calibration after it).
scenarios='pi-classic pi-classic
pi-chain pi-chain --depth 2 --cs 10ms --hog 40ms
kmutex kmutex --config contention,throttled,rt-waiter
dl-mbwi dl-mbwi basic'

ksft_pass=0
ksft_fail=1
ksft_skip=4

duration=2s
bindir=${INVLAB_BIN:-}
only=
list=0

usage() {
	cat <<EOF
Usage: invlab.sh [OPTIONS]
invlab's scenarios under kselftest: each program with --ktap, KTAP on
standard output, kselftest's exit status (0 pass, 1 fail, 4 skip).

  -d, --duration TIME  measurement time per configuration (default: 2s)
      --bindir DIR     the invlab programs, or a meson build directory
                       (default: \$INVLAB_BIN, else \$PATH)
      --only NAMES     only these scenarios, comma-separated (--list)
      --list           print the scenarios and exit
  -h, --help           this help

Pass options under kselftest's runner with KSELFTEST_INVLAB_SH_ARGS.
EOF
}

# usage errors are kselftest's failures: its runner reads 2 as XFAIL
die() {
	echo "invlab.sh: $1 (see --help)" >&2
	exit "$ksft_fail"
}

need_arg() { # option, remaining argument count
	[ "$2" -ge 2 ] || die "$1: missing argument"
}

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit "$ksft_pass"
		;;
	-d | --duration) need_arg "$1" $# && duration=$2 && shift ;;
	-d?*) duration=${1#-d} ;;
	--duration=*) duration=${1#*=} ;;
	--bindir) need_arg "$1" $# && bindir=$2 && shift ;;
	--bindir=*) bindir=${1#*=} ;;
	--only) need_arg "$1" $# && only=$2 && shift ;;
	--only=*) only=${1#*=} ;;
	--list) list=1 ;;
	*) die "unknown argument '$1'" ;;
	esac
	shift
done

if [ "$list" = 1 ]; then
	printf '%s\n' "$scenarios"
	exit "$ksft_pass"
fi
if [ -n "$only" ]; then
	sel=
	for name in $(printf '%s' "$only" | tr ',' ' '); do
		row=$(printf '%s\n' "$scenarios" | grep "^$name ") ||
			die "--only: no scenario '$name' (see --list)"
		sel="$sel$row
"
	done
	scenarios=$(printf '%s' "$sel")
fi

# prog_path PROGRAM: the program of --bindir (DIR/PROGRAM, or
# DIR/demos/PROGRAM in a build directory), else the one on $PATH
prog_path() {
	if [ -n "$bindir" ]; then
		for p in "$bindir/$1" "$bindir/demos/$1"; do
			[ -f "$p" ] && [ -x "$p" ] && echo "$p" && return 0
		done
		return 1
	fi
	command -v "$1" 2>/dev/null
}

where() {
	if [ -n "$bindir" ]; then
		echo "in $bindir"
	else
		echo "on \$PATH (install invlab, or give --bindir or INVLAB_BIN)"
	fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-ksft.XXXXXX") || {
	echo "invlab.sh: cannot make a temporary directory" >&2
	exit "$ksft_fail"
}
child=
stop_sig=
on_signal() { # the program running stops too, and says what it has
	stop_sig=$1
	[ -n "$child" ] && kill -"$1" "$child" 2>/dev/null
}
trap 'rm -rf "$tmp"' EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

# every program is looked for before anything runs: the plan comes first
ntotal=0
nfound=0
missing=
for r in $(printf '%s\n' "$scenarios" | cut -d' ' -f2); do
	ntotal=$((ntotal + 1))
	if prog_path "$r" >/dev/null; then
		nfound=$((nfound + 1))
	else
		missing="$missing $r"
	fi
done
echo "KTAP version 1"
if [ "$nfound" -eq 0 ]; then
	echo "1..0 # SKIP invlab is not installed: no${missing} $(where)"
	exit "$ksft_skip"
fi
echo "1..$ntotal"

start=$(date +%s)
n=0
npass=0
nund=0
nskip=0
nfail=0
ifs=$IFS
nl='
'
IFS=$nl
for row in $scenarios; do
	IFS=$ifs
	# shellcheck disable=SC2086
	set -- $row
	name=$1 prog=$2
	shift 2
	n=$((n + 1))
	if [ -n "$stop_sig" ]; then
		echo "not ok $n - $name # not run: stopped by SIG$stop_sig"
		nfail=$((nfail + 1))
		continue
	fi
	path=$(prog_path "$prog")
	if [ -z "$path" ]; then
		echo "ok $n - $name # SKIP $prog is not installed: not $(where)"
		nskip=$((nskip + 1))
		continue
	fi
	# an invlab older than this directory has no --ktap
	if ! "$path" --help 2>/dev/null | grep -q -- '--ktap'; then
		echo "ok $n - $name # SKIP $path has no --ktap: an invlab older than this test"
		nskip=$((nskip + 1))
		continue
	fi
	echo "# $name: $path${*:+ $*} -d $duration --ktap --exit-status=kselftest"
	t0=$(date +%s)
	"$path" "$@" -d "$duration" --ktap --exit-status=kselftest \
		>"$tmp/out" 2>"$tmp/err" &
	child=$!
	wait "$child"
	rc=$?
	# a signal interrupts wait: the program ends on the one it was sent
	while kill -0 "$child" 2>/dev/null; do
		wait "$child"
		rc=$?
	done
	child=
	# its KTAP nested under this test, its messages as diagnostics
	sed 's/^/  /' "$tmp/out"
	sed 's/^/  # /' "$tmp/err"
	echo "# $name: exit $rc in $(($(date +%s) - t0)) s"
	case $rc in
	"$ksft_pass")
		echo "ok $n - $name"
		npass=$((npass + 1))
		;;
	"$ksft_skip")
		# UNDECIDED (invlab's 3), or cannot run here (77)
		why=$(grep -m 1 '^ok [0-9]* - .* # SKIP undecided' "$tmp/out" |
			sed -e 's/^ok [0-9]* - //' -e 's/ # SKIP.*//')
		if [ -n "$why" ]; then
			why="undecided: $why (measured noise could explain it)"
			nund=$((nund + 1))
		else
			why=$(grep -m 1 '^1\.\.0 # SKIP' "$tmp/out" |
				sed 's/^1\.\.0 # SKIP *//')
			[ -n "$why" ] || why=$(grep 'SKIP' "$tmp/err" |
				tail -n 1 | sed 's/.*SKIP:* *//')
			[ -n "$why" ] || why="cannot run here (exit 4)"
			nskip=$((nskip + 1))
		fi
		echo "ok $n - $name # SKIP $why"
		;;
	"$ksft_fail")
		echo "not ok $n - $name"
		nfail=$((nfail + 1))
		;;
	*)
		# 2 bad usage, 99 broken setup, 128+N a signal: not the
		# kernel's verdict, and never a pass or a skip
		why=$(grep -v -e 'SKIP' -e "^Try '" "$tmp/err" | tail -n 1)
		echo "not ok $n - $name # exit=$rc${why:+: $why}"
		nfail=$((nfail + 1))
		;;
	esac
	IFS=$nl
done
IFS=$ifs

echo "# invlab: $npass passed, $nund undecided, $nskip skipped, $nfail failed in $(($(date +%s) - start)) s"
if [ -n "$stop_sig" ]; then
	[ "$stop_sig" = INT ] && exit 130
	exit 143
fi
# a failure first; then an UNDECIDED, which is no pass; then a pass
[ "$nfail" -gt 0 ] && exit "$ksft_fail"
[ "$nund" -gt 0 ] && exit "$ksft_skip"
[ "$npass" -gt 0 ] && exit "$ksft_pass"
exit "$ksft_skip"
