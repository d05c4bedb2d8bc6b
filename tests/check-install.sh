#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `meson install` into a scratch DESTDIR puts every program, man page,
# example job file, gate profile and document where a device image (or
# a distribution package) expects it, relative to the configured prefix.
#
#   check-install.sh MESON BUILD_ROOT SOURCE_ROOT PREFIX BINDIR DATADIR \
#                    MANDIR PROGRAM...
#
# A PROGRAM written NAME:noman has no man page.  TAP out.
set -u
meson=$1 build=$2 src=$3 prefix=$4 bindir=$5 datadir=$6 mandir=$7
shift 7
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
n=0
fail=0

check() { # description, test arguments...
	desc=$1
	shift
	n=$((n + 1))
	if test "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		fail=$((fail + 1))
	fi
}

# an option given relative to the prefix is under it; an absolute one is
# taken as it is
under() { case $1 in /*) echo "$tmp$1" ;; *) echo "$tmp$prefix/$1" ;; esac; }

echo "TAP version 13"
if ! "$meson" install -C "$build" --no-rebuild --destdir "$tmp" \
	--quiet >"$tmp.log" 2>&1; then
	sed 's/^/# /' "$tmp.log"
	rm -f "$tmp.log"
	echo "1..0 # meson install failed"
	exit 99
fi
rm -f "$tmp.log"

bin=$(under "$bindir")
man=$(under "$mandir")/man1
share=$(under "$datadir")
for p in "$@"; do
	name=${p%:noman}
	check "bin/$name is installed and executable" -x "$bin/$name"
	if [ "$name" = "$p" ]; then
		check "man1/$name.1 is installed" -s "$man/$name.1"
	fi
	check "its bash completion in share/bash-completion/completions" \
		-s "$share/bash-completion/completions/$name"
done
for job in "$src"/demos/jobs/*.job; do
	j=${job##*/}
	check "job file $j in share/invlab/jobs" -s "$share/invlab/jobs/$j"
done
check "invlab-suite's list of cases in share/invlab" \
	-s "$share/invlab/cases.list"
check "the kselftest target in share/invlab/kselftest" \
	-x "$share/invlab/kselftest/invlab.sh" -a \
	-s "$share/invlab/kselftest/Makefile" -a \
	-s "$share/invlab/kselftest/config" -a \
	-s "$share/invlab/kselftest/settings"
check "the result files' schema in share/invlab" \
	-s "$share/invlab/results.schema.json"
check "gate profile in share/invlab/gate" \
	-s "$share/invlab/gate/gate-example.ini" -a -s "$share/invlab/gate/suite.ini"
for doc in "$src"/README.md "$src"/docs/*.md; do
	d=${doc##*/}
	check "document $d in share/doc/invlab" -s "$share/doc/invlab/$d"
done
# nothing lands outside the prefix (a device image is one directory)
outside=$(cd "$tmp" && find . -type f | grep -v "^\.$prefix/" | head -n 3)
check "nothing installed outside $prefix${outside:+ (}$outside${outside:+)}" \
	-z "$outside"
echo "1..$n"
[ "$fail" -eq 0 ] || exit 1
exit 0
