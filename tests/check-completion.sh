#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The generated bash completion (completion/), sourced in bash and asked
# what it completes, as bash asks it: COMP_WORDS and COMP_CWORD set,
# then the function called, COMPREPLY read.  For every program, every
# option its --help lists is among what "--" completes to, so that the
# two cannot drift; then values of enumerated options, files and
# directories, and configuration names, on a few programs.  TAP out.
#
#   check-completion.sh COMPLETION_DIR NAME PROGRAM [NAME PROGRAM...]
#
# PROGRAM is run for its --help (invlab-suite, a script, with sh).
set -u
dir=$1
shift
n=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-completion.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

ok() { # status, description
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

# complete NAME WORD...: COMPREPLY for the command line "NAME WORD...",
# the cursor at the end of the last word, sorted, one a line
complete_words() {
	local name=$1 fn
	shift
	fn=_invlab_${name//[^A-Za-z0-9]/_}
	COMP_WORDS=("$name" "$@")
	COMP_CWORD=$#
	COMP_LINE="$name $*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$fn" "$name" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect DESCRIPTION "WANT" NAME WORD...: the completions are WANT
# (space-separated, in any order)
expect() {
	local desc=$1 want got
	want=$(printf '%s\n' $2 | sort)
	shift 2
	got=$(complete_words "$@")
	[ "$got" = "$want" ]
	ok $? "$desc"
	[ "$got" = "$want" ] || echo "# got: $(echo $got), want: $(echo $want)"
}

echo "TAP version 13"
declare -A prog
while [ $# -ge 2 ]; do
	name=$1
	prog[$name]=$2
	shift 2
	f=$dir/$name
	if [ ! -s "$f" ]; then
		ok 1 "$name: $f exists"
		continue
	fi
	# shellcheck disable=SC1090
	. "$f"
	complete -p "$name" >/dev/null 2>&1
	ok $? "$name: sourcing the file binds a completion to $name"
	case ${prog[$name]} in
	*invlab-suite) help=$(sh "${prog[$name]}" --help) ;;
	*) help=$("${prog[$name]}" --help) ;;
	esac
	# the options --help lists: "  -x, --name..." or "      --name..."
	# (a help text's own lines are indented further)
	listed=$(printf '%s\n' "$help" |
		sed -n 's/^  \(-[A-Za-z0-9], \|    \)\(--[a-z][a-z0-9-]*\).*/\2/p' |
		sort -u)
	offered=$(complete_words "$name" --)
	missing=$(comm -23 <(printf '%s\n' "$listed") <(printf '%s\n' "$offered"))
	[ -n "$listed" ] && [ -z "$missing" ]
	ok $? "$name: every option of --help is completed ($(echo "$listed" | wc -l) options)${missing:+; missing: $(echo $missing)}"
	extra=$(comm -13 <(printf '%s\n' "$listed") <(printf '%s\n' "$offered"))
	[ -z "$extra" ]
	ok $? "$name: and no option --help does not list${extra:+: $(echo $extra)}"
done

if [ -n "${prog[pi-classic]:-}" ]; then
	expect "pi-classic --tr: --trace and --trace-export" \
		"--trace --trace-export" pi-classic --tr
	expect "pi-classic --trace=: its choices, as one word" \
		"--trace=auto --trace=on --trace=off" pi-classic --trace=
	expect "pi-classic --trace = (split at '='): its choices" \
		"auto on off" pi-classic --trace =
	expect "pi-classic --trace = o: the choices that fit" \
		"on off" pi-classic --trace = o
	expect "pi-classic --trace o: the value in the next word" \
		"on off" pi-classic --trace o
	expect "pi-classic -p in: a short option's choices" \
		"inherit" pi-classic -p in
	expect "pi-classic --duration: a value, nothing offered" \
		"" pi-classic --duration ""
	expect "pi-classic takes no operands" "" pi-classic ""
	mkdir "$tmp/d" "$tmp/d/sub"
	: >"$tmp/d/r.json"
	expect "pi-classic --json=: files" \
		"--json=$tmp/d/r.json --json=$tmp/d/sub" pi-classic "--json=$tmp/d/"
	expect "pi-classic --trace-export: directories only" \
		"$tmp/d/sub" pi-classic --trace-export "$tmp/d/"
fi
if [ -n "${prog[dl-mbwi]:-}" ]; then
	names=$("${prog[dl-mbwi]}" --list | awk '{ print $1 }')
	expect "dl-mbwi: its scenarios, as --list names them" \
		"$names" dl-mbwi ""
	expect "dl-mbwi b: basic" "basic" dl-mbwi b
fi
if [ -n "${prog[rt-football]:-}" ]; then
	expect "rt-football p: pinned" "pinned" rt-football p
fi
if [ -n "${prog[invlab-compare]:-}" ]; then
	expect "invlab-compare: result files as operands" \
		"$tmp/d/r.json $tmp/d/sub" invlab-compare "$tmp/d/"
fi
if [ -n "${prog[invlab-suite]:-}" ]; then
	expect "invlab-suite --ou: --output" "--output" invlab-suite --ou
	expect "invlab-suite -o: a directory" "$tmp/d/sub" invlab-suite -o \
		"$tmp/d/"
fi
echo "1..$n"
exit $fail
