/* SPDX-License-Identifier: MIT */
/*
 * The libnuma-backed part of cpu.c and membind.c, compiled only when the
 * build has libnuma (lib/sys/numa.c).  cpu.c falls back to /sys without
 * it; membind.c refuses, since nothing else binds memory.
 */
#ifndef INVLAB_NUMA_PRIVATE_H
#define INVLAB_NUMA_PRIVATE_H

#include <stddef.h>

/* node of cpu, or a negative errno when libnuma cannot tell */
int __il_numa_cpu_node(int cpu);
/* configured nodes with memory or CPUs, or a negative errno */
int __il_numa_nodes(void);

/* size bytes on node, or NULL */
void *__il_numa_alloc(size_t size, int node);
/* was p allocated by __il_numa_alloc?  If so it is freed and 1 returned */
int __il_numa_owns(void *p, size_t size);

/*
 * Memory bound to a node (membind.h says what for): 0 when node exists and
 * has memory, -ENOSYS when the kernel has no NUMA support, -ENOENT no such
 * node, -ENOMEM a node without memory.
 */
int __il_numa_node_usable(int node);
/* the highest node number, or a negative errno */
int __il_numa_max_node(void);
/* len bytes (a multiple of the page size) bound to node with MPOL_BIND,
 * no page touched yet; NULL with errno */
void *__il_numa_bind_alloc(size_t len, int node);
void __il_numa_bind_free(void *p, size_t len);
/* the calling thread's own policy: MPOL_BIND to node; 0 or -errno */
int __il_numa_bind_thread(int node);
/* of the pages of [p, p + len) (page aligned), how many are present and
 * how many of those are on node; 0 or -errno */
int __il_numa_where(const void *p, size_t len, int node, size_t *present,
		    size_t *on_node);

#endif
