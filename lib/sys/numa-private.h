/* SPDX-License-Identifier: MIT */
/*
 * The libnuma-backed part of cpu.c, compiled only when the build has
 * libnuma (lib/sys/numa.c).  cpu.c falls back to /sys without it.
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

#endif
