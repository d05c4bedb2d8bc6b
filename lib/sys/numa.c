// SPDX-License-Identifier: MIT
/*
 * NUMA topology from libnuma.  Kept in its own file so only builds that
 * found libnuma link it; lib/sys/cpu.c reads /sys when this is absent or when
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

/*
 * Few locks are ever placed, so remembering them in a small table is
 * simpler than a header in front of each allocation.
 */
#define MAX_PLACED 64
static void *placed[MAX_PLACED];

void *__il_numa_alloc(size_t size, int node)
{
	void *p;

	if (numa_available() < 0 || node > numa_max_node())
		return NULL;
	p = numa_alloc_onnode(size, node);
	if (!p)
		return NULL;
	for (int i = 0; i < MAX_PLACED; i++) {
		if (__sync_bool_compare_and_swap(&placed[i], NULL, p))
			return p;
	}
	numa_free(p, size);
	return NULL;
}

int __il_numa_owns(void *p, size_t size)
{
	for (int i = 0; i < MAX_PLACED; i++) {
		if (p && __sync_bool_compare_and_swap(&placed[i], p, NULL)) {
			numa_free(p, size);
			return 1;
		}
	}
	return 0;
}
