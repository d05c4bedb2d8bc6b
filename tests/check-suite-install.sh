#!/bin/sh
# SPDX-License-Identifier: MIT
#
# invlab-suite from an installed tree, as on a device: `meson install`
# into a scratch DESTDIR, then the installed invlab-suite runs script
# cases of the installed cases.list (tests/kernel-*.sh installed in
# libexec/invlab, the programs from the installed bin/), once with this
# machine's shell and tools, once with busybox alone on PATH (no python3,
# no util-linux) where what is missing is a SKIP with the reason.  None of
# the cases it runs needs a privilege or measures anything.  TAP out.
#
#   check-suite-install.sh MESON BUILD_ROOT
set -u
meson=$1 build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-suite-install.XXXXXX") || exit 99
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
n=0
fail=0

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

echo "TAP version 13"
if ! "$meson" install -C "$build" --no-rebuild --destdir "$tmp/root" \
	--quiet >"$tmp/install.log" 2>&1; then
	sed 's/^/# /' "$tmp/install.log"
	echo "1..0 # meson install failed"
	exit 99
fi
suite=$(find "$tmp/root" -path '*/bin/invlab-suite' | head -n 1)
prefix=${suite%/bin/invlab-suite}
libexec=$(find "$prefix" -type d -path '*/libexec*/invlab' | head -n 1)
check "invlab-suite is installed" [ -x "$suite" ]
check "the check scripts are installed in libexec/invlab" \
	[ -s "$libexec/tap.sh" -a -s "$libexec/kernel-pi-classic.sh" \
	-a -s "$libexec/kernel-reliab.sh" -a -s "$libexec/kernel-judge.sh" ]
check "their helpers fhog and dlthief too" \
	[ -x "$libexec/fhog" -a -x "$libexec/dlthief" ]

# the installed list names the script cases, resolved from the prefix
"$suite" --list >"$tmp/list" 2>"$tmp/err"
check "the installed list has the script cases" \
	grep -q '^pi-classic-sigterm kernel-pi-classic.sh 0 ' "$tmp/list"

# this machine's tools: the script runs the installed pi-classic
# without its privilege (exit 77 naming CAP_SYS_NICE): a pass
"$suite" --only pi-classic-nopriv -o "$tmp/out" --json "$tmp/s.json" \
	>"$tmp/tap" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err"
check "pi-classic-nopriv from the installed tree: exit 0 (got $rc)" [ "$rc" = 0 ]
check "its TAP: the case passes" grep -q '^ok 1 - pi-classic-nopriv$' "$tmp/tap"
check "the script's own checks under it" \
	grep -q '^#   ok 1 - exit 77 without CAP_SYS_NICE' "$tmp/tap"
check "the JSON summary: 1 passed" grep -q '"passed": 1,' "$tmp/s.json"
# the installed validator finds the installed schema (a SKIP where
# python3-jsonschema is not here)
if "${INVLAB_PYTHON:-python3}" -c 'import jsonschema' 2>/dev/null; then
	"${INVLAB_PYTHON:-python3}" "$libexec/check-schema.py" "$tmp/s.json" >"$tmp/schema" 2>&1
	st=$?
	sed 's/^/# /' "$tmp/schema"
	check "the installed check-schema.py validates the summary" [ "$st" = 0 ]
else
	n=$((n + 1))
	echo "ok $n - the installed check-schema.py validates the summary # SKIP no python3-jsonschema"
fi

# a program a script needs is not installed (a build without json-c):
# that case is a SKIP naming it, not an error
rm -f "$prefix/bin/invlab-judge"
# nor anywhere on PATH (a machine may have the package installed: the
# suite takes a program from PATH when its prefix has none): PATH is a
# directory of links to every other program on it
mkdir "$tmp/path"
printf '%s\n' "$PATH" | tr ':' '\n' | while read -r d; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		b=${f##*/}
		[ "$b" != invlab-judge ] && [ -x "$f" ] &&
			[ ! -e "$tmp/path/$b" ] && ln -s "$f" "$tmp/path/$b"
	done
done
INVLAB_PYTHON= PATH=$tmp/path "$suite" --only judge-replay -o "$tmp/out" \
	--junit "$tmp/j.xml" >"$tmp/tap" 2>"$tmp/err"
rc=$?
check "judge-replay without invlab-judge: exit 77 (got $rc)" [ "$rc" = 77 ]
check "the skip names what is missing" \
	grep -q '^ok 1 - judge-replay # SKIP .*invlab-judge is not installed' \
	"$tmp/tap"
check "JUnit: a skipped test case" grep -q '<skipped message=".*invlab-judge' \
	"$tmp/j.xml"

# busybox alone, as on a device: no python3 (and no INVLAB_PYTHON, the
# tests' Python meson names), no util-linux
bb=$(command -v busybox)
if [ -z "$bb" ]; then
	echo "ok $((n + 1)) - busybox sh # SKIP busybox is not installed"
	n=$((n + 1))
else
	for f in "$libexec"/*.sh "$suite"; do
		"$bb" sh -n "$f" 2>"$tmp/syntax"
		sed 's/^/# /' "$tmp/syntax"
		check "busybox sh reads ${f##*/}" [ ! -s "$tmp/syntax" ]
	done
	mkdir "$tmp/bb"
	for a in $("$bb" --list); do
		ln -s "$bb" "$tmp/bb/$a"
	done
	INVLAB_PYTHON= PATH=$tmp/bb TMPDIR=$tmp "$bb" sh "$suite" \
		--only 'pi-classic-[ln][io][vp]*' -o "$tmp/out-bb" \
		--junit "$tmp/bb.xml" >"$tmp/tap" 2>"$tmp/err"
	rc=$?
	sed 's/^/# /' "$tmp/err"
	check "busybox: both cases skipped: exit 77 (got $rc)" [ "$rc" = 77 ]
	check "busybox: pi-classic-nopriv skips naming the util-linux tool" \
		grep -q '^ok [12] - pi-classic-nopriv # SKIP [a-z]* (util-linux) not found$' \
		"$tmp/tap"
	check "busybox: pi-classic-live skips naming script(1)" \
		grep -q '^ok [12] - pi-classic-live # SKIP script (util-linux) not found$' \
		"$tmp/tap"
	check "busybox: the JUnit says why" \
		[ "$(grep -c '<skipped message=".*util-linux' "$tmp/bb.xml")" = 2 ]
fi

echo "1..$n"
[ "$fail" -eq 0 ] || exit 1
exit 0
