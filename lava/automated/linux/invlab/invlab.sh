#!/bin/sh
# SPDX-License-Identifier: MIT
#
# invlab for LAVA, in the shape of Linaro's test-definitions: runs the
# installed invlab-suite, writes output/result.txt (one line a result,
# "NAME pass|fail|skip|unknown [MEASUREMENT UNITS]") and sends each line
# with lava-test-case; outside LAVA (no lava-test-case on PATH) it
# prints them.  Each case is a line with its verdict, followed by each
# run of its result file (a configuration, a repeat) with its verdict
# when the case's name does not already say which, and the figures the
# run holds (the judged wait's p99, p999 and max, the bound it was
# judged by, the worst wait); then the share of UNDECIDED cases, the
# gate, and the suite with its run time.  A case that was not a pass
# has its reason printed just before its line is sent.
#
#   ./invlab.sh -p /data/local/invlab -O 'pi-chain-*' -d 5s -r 3
#   ./invlab.sh -p /usr/local -b 'sched-messaging -g 4 -l 100000 -d 600s'
#
# An UNDECIDED case is "unknown", never "pass".  Linaro's send-to-lava.sh
# drops "unknown" lines without a word (it matches pass|fail|skip only),
# so the lines are sent by the loop below.  When the suite could not
# judge (exit 99: a case crashed, hung or is missing, or a report could
# not be written; exit 2: bad usage or input; interrupted) that is no
# kernel verdict: the lines it did decide are sent, then lava-test-raise
# ends the job with the suite's own message (LAVA's TestError: the job
# incomplete, error_type Test), never a fail of a case.  Needs a POSIX
# shell and the tools of busybox or toybox.
#
# Exit: 0 the results were reported (whatever they say), the suite's own
# status (99, 2, 130, 143) when it could not judge, 2 bad usage here.
set -u

here=$(cd "$(dirname "$0")" && pwd)
OUTPUT=$here/output
PREFIX=
ONLY=
DURATION=
REPEAT=
GATE=
BACKGROUND=
CASE_TIMEOUT=60
MAX_UNDECIDED=100

usage() {
	cat <<EOF
Usage: $0 [-p PREFIX] [-O PATTERNS] [-d TIME] [-r N] [-g PROFILE]
          [-b COMMAND] [-t SECS] [-u PERCENT] [-o DIR]
  -p PREFIX   where invlab is installed (PREFIX/bin/invlab-suite); empty:
              invlab-suite from PATH
  -O PATTERNS only the cases whose name matches one of the shell
              PATTERNS, separated by blanks or commas (invlab-suite
              --only); empty: every case
  -d TIME     each program's run takes TIME (invlab-suite --duration,
              e.g. 5s); empty: each case's own
  -r N        each program runs every configuration N times
              (invlab-suite --repeat); empty: once
  -g PROFILE  a gate profile on the device (invlab-suite --gate)
  -b COMMAND  a background load: COMMAND runs (sh -c, in a session of
              its own) from before the suite starts until it ends
  -t SECS     a case still running after SECS is killed (default: 60)
  -u PERCENT  the share of judged cases that may be UNDECIDED before the
              suite fails (invlab-suite --max-undecided; default: 100)
  -o DIR      result.txt and the suite's reports go here (default:
              $here/output)
EOF
}

while getopts "p:O:d:r:g:b:t:u:o:h" opt; do
	case $opt in
	p) PREFIX=$OPTARG ;;
	O) ONLY=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	r) REPEAT=$OPTARG ;;
	g) GATE=$OPTARG ;;
	b) BACKGROUND=$OPTARG ;;
	t) CASE_TIMEOUT=$OPTARG ;;
	u) MAX_UNDECIDED=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
done

RESULT_FILE=$OUTPUT/result.txt
REPORTS=$OUTPUT/invlab
# the reason of each case that was not a pass, NAME<tab>REASON
REASONS=$REPORTS/reasons.txt

# lava-test-raise, or outside LAVA the message; then the suite's status
raise() { # exit status, message
	echo "invlab: infrastructure error: $2" >&2
	if command -v lava-test-raise >/dev/null 2>&1; then
		lava-test-raise "$2"
	else
		echo "lava-test-raise \"$2\""
	fi
	exit "$1"
}

# each line of result.txt as a lava-test-case, "unknown" included; a
# case that was not a pass has its reason in the log just before it
# (LAVA's test case has no field for one)
send_results() {
	lava=0
	command -v lava-test-case >/dev/null 2>&1 && lava=1
	while read -r test result measurement units; do
		case $result in
		pass | fail | skip | unknown) ;;
		*) continue ;;
		esac
		awk -F '\t' -v n="$test" '$1 == n { print "invlab: " n ": " $2 }' \
			"$REASONS" >&2 2>/dev/null
		if [ "$lava" = 0 ]; then
			echo "$test $result${measurement:+ $measurement}${units:+ $units}"
		elif [ -n "$measurement" ]; then
			lava-test-case "$test" --result "$result" \
				--measurement "$measurement" --units "${units:-none}"
		else
			lava-test-case "$test" --result "$result"
		fi
	done <"$RESULT_FILE"
}

# The runs of one case's result file (docs/results.md), as result.txt
# lines: per run, its verdict against the one expected when the case's
# name does not already say which run it is, the judged wait's
# histogram (blocked_ns: p99, p999, max), bound_ns and worst_ns; per
# check of a job file, the checked task's verdict, bound and worst and
# its locks' blocked_ns.  A percentile the run had too few samples for
# is null there and left out here, and so is every figure of a file
# whose run was interrupted.  The verdict is read as il_expect
# (validators/expect.c) reads it, here in awk: as expected is "pass", a
# SKIP "skip", UNDECIDED where PASS was expected "unknown", anything
# else "fail"; a run nothing was expected of (measured, not judged) has
# no verdict line.  The file is read one member a line (json_lines):
# what --json-pretty writes, and what the compact default is made into.
figures() { # case name, result file
	json_lines "$2" | awk -v case_name="$1" '
	function clean(s) { gsub(/[^A-Za-z0-9._-]/, "_", s); return s }
	function ms(v) { return sprintf("%.3f", v / 1000000) }
	{
		line = $0
		key = ""
		if (match(line, /^[ \t]*"[^"]*":/)) {
			key = substr(line, RSTART, RLENGTH)
			sub(/^[ \t]*"/, "", key)
			sub(/":$/, "", key)
			line = substr(line, RSTART + RLENGTH)
		}
		val = line
		gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
		nb = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "{" || c == "[") {
				if (d > 0 && type[d] == "[")
					name = cnt[d]++
				else
					name = key
				d++
				type[d] = c
				seg[d] = name
				cnt[d] = 0
				nb++
			} else if (c == "}" || c == "]") {
				d--
				nb++
			}
		}
		if (nb || key == "")
			next
		sub(/^[ \t]*/, "", val)
		sub(/,[ \t]*$/, "", val)
		if (val ~ /^".*"$/)
			val = substr(val, 2, length(val) - 2)
		# the path below the top-level object: runs.0.blocked_ns.p99
		p = ""
		for (i = 2; i <= d; i++)
			p = p seg[i] "."
		v[p key] = val
	}
	END {
		# a run stopped part way (killed at the --timeout of the suite, a
		# signal) measured only part of what it was asked to: its
		# figures are no point of a trend
		if (v["interrupted"] == "true")
			exit
		# repeated (--repeat): every run is named by its repeat, the
		# first too, so that each has a verdict line of its own
		reps = 0
		for (r = 0; ("runs." r ".configuration") in v; r++)
			if (("runs." r ".repeat") in v && v["runs." r ".repeat"] + 0 > 1)
				reps = 1
		for (r = 0; ("runs." r ".configuration") in v; r++) {
			b = "runs." r "."
			conf = clean(v[b "configuration"])
			pre = case_name
			n = length(case_name) - length(conf)
			if (case_name != conf && substr(case_name, n) != "-" conf)
				pre = pre "-" conf
			if (reps && (b "repeat") in v)
				pre = pre "-r" (v[b "repeat"] + 0)
			if (pre != case_name)
				verdict(pre, b)
			# (a test with "in": reading v[x] would create x)
			own = (b "bound_ns") in v
			out(pre, b "blocked_ns.")
			if (own && v[b "bound_ns"] + 0 > 0)
				print pre "-bound pass " ms(v[b "bound_ns"]) " ms"
			if (v[b "worst_ns"] + 0 > 0)
				print pre "-worst pass " ms(v[b "worst_ns"]) " ms"
			# a job file run: its figures are those of its checks
			# (the run of a program repeats its own check there)
			if (own)
				continue
			for (c = 0; (b "checks." c ".task") in v; c++) {
				k = b "checks." c "."
				task = v[k "task"]
				tp = pre "-" clean(task)
				if (tp in seen)
					continue
				seen[tp] = 1
				verdict(tp, k)
				if (v[k "bound_ns"] + 0 > 0)
					print tp "-bound pass " ms(v[k "bound_ns"]) " ms"
				if (v[k "worst_ns"] + 0 > 0)
					print tp "-worst pass " ms(v[k "worst_ns"]) " ms"
				for (t = 0; (b "tasks." t ".name") in v; t++) {
					if (v[b "tasks." t ".name"] != task)
						continue
					l = b "tasks." t ".locks."
					for (j = 0; (l j ".resource") in v; j++)
						out(tp "-" clean(v[l j ".resource"]),
						    l j ".blocked_ns.")
				}
			}
		}
	}
	function verdict(name, k,    got, want) {
		if (!((k "verdict") in v))
			return
		got = v[k "verdict"]
		want = ((k "expected") in v) ? v[k "expected"] : "null"
		if (got !~ /^(PASS|FAIL|UNDECIDED|SKIP)$/)
			print name " fail"
		else if (got == "SKIP")
			print name " skip"
		else if (want !~ /^(PASS|FAIL|UNDECIDED)$/)
			return
		else if (got == want)
			print name " pass"
		else if (got == "UNDECIDED" && want == "PASS")
			print name " unknown"
		else
			print name " fail"
	}
	function out(name, h,    s, i, st) {
		split("p99 p999 max", st, " ")
		for (i = 1; i <= 3; i++) {
			s = h st[i]
			if ((s in v) && v[s] ~ /^[0-9.]+$/)
				print name "-" st[i] " pass " ms(v[s]) " ms"
		}
	}'
}

# A JSON file one member a line, as --json-pretty writes it: a line
# break after each "{", "[" and "," and before each "}" and "]" outside
# a string (the programs write compact JSON unless asked otherwise)
json_lines() { # file
	awk '{
		n = length($0)
		out = ""
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (str) {
				out = out c
				if (esc)
					esc = 0
				else if (c == "\\")
					esc = 1
				else if (c == "\"")
					str = 0
				continue
			}
			if (c == "\"") {
				str = 1
				out = out c
			} else if (c == "{" || c == "[" || c == ",") {
				print out c
				out = ""
			} else if (c == "}" || c == "]") {
				if (out ~ /[^ \t]/)
					print out
				out = c
			} else if (c == " " && out == "") {
				continue
			} else
				out = out c
		}
		if (out != "")
			print out
	}' "$1"
}

# result.txt from the suite's JSON summary (one case a line there):
# each case's verdict with its runs and figures; the reasons to REASONS
suite_results() { # suite status, run seconds
	summary=$REPORTS/suite.json
	sed -n 's/^ *{"name": "\([^"]*\)",.*"result": "\([a-z]*\)",.*"reason": "\(.*\)"}.*$/\1 \2 \3/p' \
		"$summary" | while read -r name result reason; do
		case $result in
		pass | fail | skip) r=$result ;;
		# as expected but undecided, or could not run: no verdict
		*) r=unknown ;;
		esac
		echo "$name $r"
		[ -z "$reason" ] || printf '%s\t%s: %s\n' "$name" "$result" "$reason" |
			sed -e 's/\\"/"/g' -e 's/\\\\/\\/g' >>"$REASONS"
		[ -f "$REPORTS/$name.json" ] && figures "$name" "$REPORTS/$name.json"
	done
	und=$(sed -n 's/^ *"undecided": \([0-9]*\),$/\1/p' "$summary")
	passed=$(sed -n 's/^ *"passed": \([0-9]*\),$/\1/p' "$summary")
	if [ "${und:-0}" -gt 0 ]; then
		share=$((und * 100 / (und + passed)))
		if grep -q '"undecided_over_share": true' "$summary"; then
			echo "undecided-share fail $share percent"
		else
			echo "undecided-share pass $share percent"
		fi
	fi
	gate_rc=$(sed -n 's/^ *"gate": {.*"exit": \([0-9]*\)}.*$/\1/p' "$summary")
	case $gate_rc in
	'') ;;
	0) echo "gate pass" ;;
	1) echo "gate fail" ;;
	77) echo "gate skip" ;;
	*) echo "gate unknown" ;;
	esac
	case $1 in
	0) echo "invlab-suite pass" ;;
	1) echo "invlab-suite fail" ;;
	3) echo "invlab-suite unknown" ;;
	77) echo "invlab-suite skip" ;;
	esac
	echo "invlab-suite-time pass $2 s"
}

if [ -n "$PREFIX" ]; then
	PATH=$PREFIX/bin:$PATH
	export PATH
fi
suite=$(command -v invlab-suite) ||
	raise 2 "invlab-suite is not installed${PREFIX:+ in $PREFIX/bin} (nor on PATH)"

rm -rf "$REPORTS" "$RESULT_FILE"
mkdir -p "$REPORTS/tmp" || raise 2 "cannot make the directory '$REPORTS'"
# the cases' temporary files beside the reports (Android has no /tmp)
TMPDIR=$REPORTS/tmp
export TMPDIR

set -- -o "$REPORTS" --tap "$REPORTS/suite.tap" --json "$REPORTS/suite.json" \
	--junit "$REPORTS/suite.xml" --timeout "$CASE_TIMEOUT" \
	--max-undecided "$MAX_UNDECIDED"
[ -z "$GATE" ] || set -- "$@" --gate "$GATE"
[ -z "$ONLY" ] || set -- "$@" --only "$ONLY"
[ -z "$DURATION" ] || set -- "$@" --duration "$DURATION"
[ -z "$REPEAT" ] || set -- "$@" --repeat "$REPEAT"

# the background load, in a session of its own so that all it started
# is stopped with it (setsid does not fork here: a background job of a
# shell without job control leads no process group)
bg=
bg_end=
if [ -n "$BACKGROUND" ]; then
	if command -v setsid >/dev/null 2>&1; then
		setsid sh -c "$BACKGROUND" </dev/null >"$REPORTS/background.log" 2>&1 &
	else
		sh -c "$BACKGROUND" </dev/null >"$REPORTS/background.log" 2>&1 &
	fi
	bg=$!
	echo "invlab: background load (pid $bg): $BACKGROUND" >&2
fi
stop_background() {
	[ -n "$bg" ] || return 0
	kill -TERM -"$bg" 2>/dev/null || kill -TERM "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
	bg=
}
trap stop_background EXIT

t0=$(date +%s)
"$suite" "$@" 2>"$REPORTS/suite.err"
rc=$?
t1=$(date +%s)
# a load that ended before the suite did was not there for all of it
if [ -n "$bg" ] && ! kill -0 "$bg" 2>/dev/null; then
	wait "$bg"
	bg_end="ended (exit $?) before the suite did: $(tail -n 1 "$REPORTS/background.log")"
	bg=
fi
stop_background
# the TAP (the reasons, each program's own TAP) and the suite's words in
# the job's log
cat "$REPORTS/suite.tap" 2>/dev/null
cat "$REPORTS/suite.err" >&2
why=$(tail -n 1 "$REPORTS/suite.err")

case $rc in
0 | 1 | 3 | 77) [ -s "$REPORTS/suite.json" ] ||
	raise 99 "invlab-suite ended $rc without its summary $REPORTS/suite.json" ;;
esac
if [ -s "$REPORTS/suite.json" ]; then
	suite_results "$rc" $((t1 - t0)) >"$RESULT_FILE"
else
	: >"$RESULT_FILE"
fi
if [ -n "$BACKGROUND" ]; then
	if [ -n "$bg_end" ]; then
		echo "background-load fail" >>"$RESULT_FILE"
		printf 'background-load\tthe background load %s\n' "$bg_end" >>"$REASONS"
	else
		echo "background-load pass" >>"$RESULT_FILE"
	fi
fi
send_results
case $rc in
0 | 1 | 3 | 77) exit 0 ;;
2) raise 2 "invlab-suite could not start (exit 2: bad usage or input): $why" ;;
99)
	# the cases that could not run, with their reasons, else the suite's
	errs=$(sed -n 's/^ *{"name": "\([^"]*\)",.*"result": "error",.*"reason": "\(.*\)"}.*$/\1: \2/p' \
		"$REPORTS/suite.json" 2>/dev/null |
		sed -e 's/\\"/"/g' | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
	raise 99 "invlab-suite could not judge (exit 99: a case could not run or a report could not be written): ${errs:-$why}"
	;;
*) raise "$rc" "invlab-suite ended $rc: $why" ;;
esac
