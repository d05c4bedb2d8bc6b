#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --partition on a cgroup-v2-only system, as TAP: boots a kernel in QEMU
# with tools/invlab-vm (whose guest mounts cgroup2 alone), runs
# `dl-mbwi basic cross-cpu --partition -d 2s` there, and checks that the
# partitions were made: both scenarios' partitions lines say "v2, root"
# (the second could not make its groups had the first's stayed behind),
# the holder ran in CPU 1's partition, and on two CPUs the placement line
# says which CPU stayed with the top cgroup.  Verdicts under emulation
# are about the emulator: exit 0, 1 or 3 (UNDECIDED) pass here; a skip must be the
# kernel's reason, never a partition the suite failed to make.
#
#   kernel-dl-mbwi-v2.sh INVLAB_VM [KERNEL]
#
# KERNEL (default: $INVLAB_V2_KERNEL) is a vmlinuz or a Debian
# linux-image .deb.  Exits 77 (SKIP) with the reason when the VM runner or
# the kernel is missing.
set -u
vm=$1
kernel=${2:-${INVLAB_V2_KERNEL:-}}
. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
if [ ! -x "$vm" ]; then
	echo "1..0 # SKIP no VM runner at $vm (tools/invlab-vm)"
	exit 77
fi
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
	echo "1..0 # SKIP no kernel image: set INVLAB_V2_KERNEL to a vmlinuz" \
		"or linux-image .deb (e.g. Debian's 6.1)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/invlab-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

"$vm" --kernel "$kernel" --timeout 900 -q -o "$tmp/res" \
	-- dl-mbwi basic cross-cpu --partition -d 2s >"$tmp/vm.out" 2>&1
rc=$?
log=$(find "$tmp/res" -name output.log | head -n 1)
if [ "$rc" -eq 99 ] || [ -z "$log" ]; then
	check 1 "the VM gave a result (invlab-vm exit $rc)"
	sed 's/^/# /' "$tmp/vm.out" | tail -n 20
	echo "1..$n"
	exit 1
fi
if [ "$rc" -eq 77 ]; then
	# the kernel's reason is a skip; a partition not made is our bug
	if grep -q "cannot make cpuset partitions" "$log"; then
		check 1 "--partition on v2: partitions made"
		grep -m1 "cannot make" "$log" | sed 's/^/# /'
		echo "1..$n"
		exit 1
	fi
	skip_if_77 77 "$log"
fi
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]
check $? "--partition on v2: dl-mbwi ran to its verdicts (exit $rc)"
[ "$(grep -c '^partitions: .*(v2, root, cpus ' "$log")" -eq 2 ]
check $? "--partition on v2: both scenarios' partitions are roots"
grep -q "holder: cpu 1 (partition)" "$log"
check $? "--partition on v2: cross-cpu's holder ran in CPU 1's partition"
if grep -q "the top cgroup's remaining CPU" "$log"; then
	grep "^placement: holder" "$log" | grep -q \
		"stays with the top cgroup: a root domain of one CPU by itself"
	check $? "--partition on v2: the placement line names the kept CPU"
fi
! grep -q "invalid (" "$log"
check $? "--partition on v2: no partition the kernel called invalid"
grep "^placement:\|^partitions:" "$log" | sed 's/^/# /'
echo "1..$n"
exit $fail
