#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Fuzz every target of a -Dfuzzing=true build for SECONDS each:
#
#   CC=clang meson setup build-fuzz -Dfuzzing=true && ninja -C build-fuzz
#   tests/fuzz/run.sh 20 [BUILDDIR]
#
# Each target starts from its committed corpus (corpus/NAME) and first
# replays it together with the reproducers of known defects
# (crashes/NAME), so a defect that comes back fails at once.  New inputs
# go to a scratch directory, never into the tree.  Any crash, sanitizer
# report, leak, timeout (one input running longer than its -timeout) or
# out-of-memory fails the script; the input that did it is kept in
# ARTIFACTS (default BUILDDIR/fuzz-artifacts, emptied of the target's
# files from a previous run first) and its first bytes shown.
# Prints the executions of each target, and its exit code when it failed
# (1 a crash, sanitizer report or leak, 2 a timeout, others libFuzzer's
# own: -rss_limit_mb, or 137 when the outer guard killed it).
# FUZZ_JOBS targets run at once (default: the CPUs online), each for the
# full SECONDS: the same effort per target in less wall time.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
	echo "usage: $0 SECONDS [BUILDDIR]   (SECONDS: 1 or more)" >&2
	exit 2
fi
secs=$1
build=${2:-build-fuzz}
src=$(cd "$(dirname "$0")" && pwd)
list="$build/tests/fuzz/targets"
if ! [ -r "$list" ]; then
	echo "$0: no $list: configure $build with -Dfuzzing=true" \
		"(CC=clang meson setup $build -Dfuzzing=true)" >&2
	exit 2
fi
read -r -a targets <"$list"
artifacts=${ARTIFACTS:-$build/fuzz-artifacts}
mkdir -p "$artifacts" || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT
trap 'kill $(jobs -p) 2>/dev/null; exit 143' TERM

# per target: the largest input tried and the time one input may take.
# The limits keep a slow or huge input from eating the run: result files
# are JSON of some 20 KiB, the others a few KiB of text.
options() {
	case $1 in
	results) echo "-max_len=32768 -timeout=10" ;;
	sysinfo) echo "-max_len=8192 -timeout=5" ;;
	*) echo "-max_len=4096 -timeout=5" ;;
	esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# one target, its log in $work/NAME.log and exit code in $work/NAME.rc
fuzz_one() {
	local t=$1 exe="$build/tests/fuzz/fuzz-$1" log="$work/$1.log" rc
	local dirs=("$work/$t" "$src/corpus/$t") opts

	[ -d "$src/crashes/$t" ] && dirs+=("$src/crashes/$t")
	mkdir -p "$work/$t"
	rm -f "$artifacts/$t-"*
	read -r -a opts <<<"$(options "$t")"
	# the words of the format, where a target has them (NAME.dict)
	[ -r "$src/$t.dict" ] && opts+=("-dict=$src/$t.dict")
	# the outer timeout only guards against libFuzzer itself hanging
	timeout --signal=KILL $((secs * 2 + 120)) "$exe" "${opts[@]}" \
		-max_total_time="$secs" -rss_limit_mb=2048 \
		-error_exitcode=1 -timeout_exitcode=2 \
		-print_final_stats=1 -artifact_prefix="$artifacts/$t-" \
		"${dirs[@]}" >"$log" 2>&1
	rc=$?
	echo "$rc" >"$work/$t.rc"
}

jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
if ! [ "$jobs" -gt 0 ] 2>/dev/null; then
	echo "$0: FUZZ_JOBS=$jobs: a count of 1 or more" >&2
	exit 2
fi
running=0
for t in "${targets[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz_one "$t" &
	running=$((running + 1))
done
wait

failed=0
printf '%-16s %10s %8s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
	log="$work/$t.log"
	rc=$(cat "$work/$t.rc" 2>/dev/null || echo 99)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	size=$(find "$work/$t" "$src/corpus/$t" -type f | wc -l)
	if [ "$rc" -eq 0 ]; then
		result=ok
	else
		result="FAILED (exit $rc)"
		failed=1
	fi
	printf '%-16s %10s %8s %8s  %s\n' "fuzz-$t" "${execs:-?}" \
		"${rate:-?}" "$size" "$result"
	if [ "$rc" -ne 0 ]; then
		# the report, then the input that caused it
		grep -E -A40 'ERROR: |runtime error|^fuzz-[a-z]+: |==[0-9]+==' \
			"$log" | head -80 | sed 's/^/    /'
		for a in "$artifacts/$t-"*; do
			[ -e "$a" ] || continue
			echo "    input: $a ($(wc -c <"$a") bytes):"
			head -c 512 "$a" | od -An -c | head -12 | sed 's/^/    /'
		done
	fi
done
exit "$failed"
