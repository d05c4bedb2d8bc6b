// SPDX-License-Identifier: MIT
/*
 * NUMA topology from libnuma.  Kept in its own file so only builds that
 * found libnuma link it; lib/cpu.c reads /sys when this is absent or when
 * libnuma reports that the kernel has no NUMA support.
 */
#include <errno.h>
#include <numa.h>

#include "numa-private.h"

int __il_numa_cpu_node(int cpu)
{
	int node;

	if (numa_available() < 0)
		return -ENOSYS;
	node = numa_node_of_cpu(cpu);
	return node < 0 ? -errno : node;
}

int __il_numa_nodes(void)
{
	if (numa_available() < 0)
		return -ENOSYS;
	return numa_num_configured_nodes();
}
