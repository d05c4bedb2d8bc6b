// SPDX-License-Identifier: MIT
/*
 * Binding a task's memory to a NUMA node (membind.h), for the task key
 * `node`.  The calls go to the libnuma part (numa.c) when the build has
 * it; without it every call refuses, since memory cannot be placed by
 * pinning alone and a run that asked for a node must not pretend.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "config.h"
#include <invlab/cpu.h>
#include <invlab/membind.h>
#if HAVE_LIBNUMA
#include "numa-private.h"
#endif

#define NO_LIBNUMA "not supported: built without libnuma"

const char *il_membind_missing(void)
{
#if HAVE_LIBNUMA
	return NULL;
#else
	return NO_LIBNUMA;
#endif
}

size_t il_membind_round(size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;

	return (len + pg - 1) / pg * pg;
}

int il_membind_check(int node, char *why, size_t len)
{
#if HAVE_LIBNUMA
	int ret = __il_numa_node_usable(node), n = il_numa_nodes();

	if (ret == -ENOSYS)
		snprintf(why, len,
			 "not supported: the kernel has no NUMA support "
			 "(libnuma: numa_available() < 0)");
	else if (ret == -ENOENT && n == 1)
		snprintf(
			why, len,
			"no NUMA node %d: this machine has 1 NUMA node, node 0 "
			"(/sys/devices/system/node/online)",
			node);
	else if (ret == -ENOENT)
		snprintf(why, len,
			 "no NUMA node %d: this machine has %d NUMA nodes, the "
			 "highest %d (/sys/devices/system/node/online)",
			 node, n, __il_numa_max_node());
	else if (ret == -ENOMEM)
		snprintf(why, len,
			 "NUMA node %d has no memory of its own (CPUs only): "
			 "nothing can be bound to it",
			 node);
	return ret == -ENOSYS ? -EOPNOTSUPP : ret;
#else
	(void)node;
	snprintf(why, len, "%s", NO_LIBNUMA);
	return -EOPNOTSUPP;
#endif
}

void *il_membind_alloc(size_t len, int node)
{
#if HAVE_LIBNUMA
	return __il_numa_bind_alloc(il_membind_round(len), node);
#else
	(void)len;
	(void)node;
	errno = EOPNOTSUPP;
	return NULL;
#endif
}

void il_membind_free(void *p, size_t len)
{
#if HAVE_LIBNUMA
	__il_numa_bind_free(p, il_membind_round(len));
#else
	(void)p;
	(void)len;
#endif
}

int il_membind_thread(int node)
{
#if HAVE_LIBNUMA
	return __il_numa_bind_thread(node);
#else
	(void)node;
	return -EOPNOTSUPP;
#endif
}

int il_membind_where(const void *p, size_t len, int node, size_t *present,
		     size_t *on_node)
{
#if HAVE_LIBNUMA
	return __il_numa_where(p, len, node, present, on_node);
#else
	(void)p;
	(void)len;
	(void)node;
	*present = *on_node = 0;
	return -EOPNOTSUPP;
#endif
}
