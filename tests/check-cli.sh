#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The command line of a demo: --help lists every option with its default,
# every option in --help appears in the man page, the page's OPTIONS
# section is the one the option table generates (--help=man), and bad
# input is refused with exit 2 and a message that says what is allowed.
#
#   check-cli.sh PROGRAM MANPAGE
#
# In a cross build meson sets MESON_EXE_WRAPPER (e.g. "qemu-aarch64 -L
# /usr/aarch64-linux-gnu"), shell-quoted; PROGRAM then runs through it.
set -u
prog=$1
man=$2
wrap=${MESON_EXE_WRAPPER:-}
fail=0
n=0

run() { # PROGRAM with these arguments, through the exe_wrapper if any
	eval "$wrap \"\$prog\" \"\$@\""
}

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

# expect_error EXPECTED_TEXT ARGS...: exit 2 and the text on stderr
expect_error() {
	want=$1
	shift
	out=$(run "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || { echo "# $*: exit $rc, wanted 2" >&2; return 1; }
	case $out in
	*"$want"*) return 0 ;;
	esac
	echo "# $*: stderr was: $out" >&2
	return 1
}

# output_has TEXT ARGS...: the program's standard output contains TEXT
output_has() {
	want=$1
	shift
	run "$@" 2>/dev/null | grep -q -- "$want"
}

# the page's OPTIONS section is the table's: every line --help=man prints
# is a line of the page, and the page has no entry the table lacks (the
# template may add lines to an entry, not entries)
options_match() {
	roff=$(run --help=man) || return 1
	missing=$(printf '%s\n' "$roff" | grep -vxF -f "$man")
	if [ -n "$missing" ]; then
		printf '# not in %s: %s\n' "$man" "$missing" >&2
		return 1
	fi
	want=$(printf '%s\n' "$roff" | grep -c '^\.TP$')
	have=$(sed -n '/^\.SH OPTIONS$/,/^\.SH [^O]/p' "$man" | grep -c '^\.TP$')
	[ "$want" -eq "$have" ] || {
		echo "# $man: $have entries under OPTIONS, the table has $want" >&2
		return 1
	}
}

help=$(run --help)
check "--help exits 0" test $? -eq 0
check "--help shows usage" sh -c 'case "$1" in *Usage:*) exit 0;; esac; exit 1' - "$help"
opts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
check "--help lists options" test -n "$opts"
for o in $opts; do
	check "man page documents $o" grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$man"
done
check "man page OPTIONS are the option table's" options_match
check "--help shows defaults" sh -c 'case "$1" in *default*) exit 0;; esac; exit 1' - "$help"
check "--version exits 0" run --version
check "misspelt option gets a suggestion" expect_error "did you mean '--duration'" --duraton 3s
check "bad duration unit" expect_error "not a duration" --duration 3xs
check "duration out of range shows the range" expect_error "allowed" --duration 10ms
check "a missing --kconfig file is named" expect_error "no-such.config" --kconfig "$(dirname "$0")/no-such.config"
check "a --kconfig file that is no config is refused" expect_error "no CONFIG_ line" --kconfig "$0"
if [ "$(basename "$prog")" = sched-messaging ]; then
	# no scenario tasks: nothing to trace, the option is refused
	check "--trace-export is refused" expect_error "is not for this program" --trace-export "$(dirname "$0")"
else
	check "--trace-export without the trace refused" expect_error "needs the trace" --trace=off --trace-export "$(dirname "$0")"
	check "--trace-export where no directory can be made" expect_error "cannot make '/nonexistent/x'" --trace-export /nonexistent/x
	check "--trace-export into a file refused" expect_error "is not a directory" --trace-export "$0"
fi

# what each program adds
data=$(dirname "$0")/data/jobs
case $(basename "$prog") in
pi-classic)
	check "bad choice lists the choices" expect_error "none|inherit|protect|all" --protocol inheritt
	check "critical section out of range" expect_error "out of range" --cs 0
	check "priorities must rise" expect_error "low < medium < high" --prio-low 25
	check "offline CPU refused" expect_error "not online" --cpu 1000
	check "stray argument refused" expect_error "unexpected argument" extra
	;;
pi-chain)
	check "depth out of range shows the range" expect_error "allowed 2..8" --depth 9
	check "bad choice lists the choices" expect_error "none|inherit|all" --protocol protect
	check "unknown class refused" expect_error "not one of fifo, rr, deadline, other" --classes fifo,fair,fifo
	check "class count must match the depth" expect_error "one per member" --depth 3 --classes fifo,fifo
	check "stray argument refused" expect_error "unexpected argument" extra
	;;
kmutex)
	check "unknown configuration lists them" expect_error "is not one of alone, contention" --config alone,bogus
	check "bad recipe lists the choices" expect_error "rename|fpos|pipe|seqfile" --recipe renam
	check "size beyond the recipe's range" expect_error "out of range for a pipe resource; allowed 1..256K" --recipe pipe --size 512K
	check "relative directory refused" expect_error "must be an absolute path" --dir tmp
	check "hog count out of range shows the range" expect_error "allowed 1..8" --hogs 0
	check "weight out of range shows the range" expect_error "allowed 1..10000" --bg-weight 0
	check "offline CPU refused" expect_error "not online" --cpu 1000
	check "stray argument refused" expect_error "unexpected argument" extra
	;;
invlab-run)
	check "a job file is required" expect_error "which job file?" --quiet
	check "a missing job file is named" expect_error "no-such.job" "$data/no-such.job"
	check "a bad job file gives FILE:LINE" expect_error "bad-class.job:5: task 'a': class" "$data/bad-class.job"
	check "--set with a misspelt key gets a suggestion" expect_error "did you mean 'class'" "$data/../../../demos/jobs/pi-classic.job" --set high.clas=fifo:40
	check "--set out of range shows the range" expect_error "allowed" "$data/../../../demos/jobs/pi-classic.job" --set global.duration=90m
	check "unknown validator refused" expect_error "unknown validator 'pii'" "$data/../../../demos/jobs/pi-classic.job" --set validate=pii
	check "--sweep value checked as --set checks it" expect_error "M.protocol=foo: protocol: 'foo' is not one of none|inherit|protect" "$data/../../../demos/jobs/pi-classic.job" --sweep M.protocol=none,foo
	check "--sweep with a misspelt key gets a suggestion" expect_error "did you mean 'protocol'" "$data/../../../demos/jobs/pi-classic.job" --sweep M.protcol=none,inherit
	check "--sweep value given twice refused" expect_error "'none' is given twice" "$data/../../../demos/jobs/pi-classic.job" --sweep M.protocol=none,inherit,none
	check "--print-job writes each swept configuration" output_has "protocol = protect" "$data/../../../demos/jobs/pi-classic.job" --sweep M.protocol=none,protect --print-job
	;;
sched-messaging)
	check "--sweep out of range shows the range" expect_error "--groups: 1001 is out of range; allowed 1..1000" --sweep groups=1,1001
	check "--sweep of a misspelt option gets a suggestion" expect_error "did you mean 'groups'" --sweep grups=1,2
	check "--sweep of an option that cannot be swept names those that can" expect_error "these can: groups, fds, loops, size" --sweep pipe=0,1
	check "--sweep value given twice refused" expect_error "'4' is given twice" --sweep groups=4,2,4
	;;
dl-mbwi)
	check "unknown scenario lists them" expect_error "unknown scenario 'basics' (basic, chain, cross-cpu, steal-budget, kmutex)" basics
	check "overrun out of range shows the range" expect_error "allowed" --overrun 2s
	check "--unreserve names a task of the scenarios" expect_error "no task of that name" basic --unreserve nosuch
	check "--print-job shows the overrun" output_has "run 5ms" steal-budget --overrun 4ms --print-job
	check "--overrun 0: the holder is declared well-behaved" output_has "misbehaves = no" steal-budget --overrun 0 --print-job
	check "--list names the five scenarios" test "$(run --list | wc -l)" -eq 5
	;;
rt-football)
	check "unknown configuration lists them" expect_error "unknown configuration 'pined' (football, pinned)" pined
	check "--list names both configurations" test "$(run --list | wc -l)" -eq 2
	check "--print-job pins the control's offense to one CPU" output_has "cpu = 0" pinned --print-job
	check "the control expects FAIL" output_has "expect = FAIL" pinned --print-job
	;;
esac

echo "1..$n"
[ "$fail" -eq 0 ]
