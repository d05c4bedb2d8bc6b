/* SPDX-License-Identifier: MIT */
/*
 * The libnuma-backed part of cpu.c, compiled only when the build has
 * libnuma (lib/numa.c).  cpu.c falls back to /sys without it.
 */
#ifndef INVLAB_NUMA_PRIVATE_H
#define INVLAB_NUMA_PRIVATE_H

/* node of cpu, or a negative errno when libnuma cannot tell */
int __il_numa_cpu_node(int cpu);
/* configured nodes with memory or CPUs, or a negative errno */
int __il_numa_nodes(void);

#endif
