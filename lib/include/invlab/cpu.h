/* SPDX-License-Identifier: MIT */
/*
 * CPUs and NUMA nodes: which CPUs are online, which node each belongs to
 * (libnuma when the build has it, /sys otherwise), and pinning a thread by
 * its id with sched_setaffinity (no glibc-only calls, so it ports to musl
 * and bionic).
 */
#ifndef INVLAB_CPU_H
#define INVLAB_CPU_H

#include <stdbool.h>
#include <sys/types.h>

#define IL_MAX_CPUS 1024

/* Online CPUs in increasing order into cpus[max]; returns their number or
 * a negative errno. */
int il_cpu_online(int *cpus, int max);
bool il_cpu_is_online(int cpu);
/* the highest-numbered online CPU, or a negative errno */
int il_cpu_last_online(void);
/* NUMA node of cpu (0 when the machine has no NUMA information) */
int il_cpu_node(int cpu);
/* number of NUMA nodes with CPUs (at least 1) */
int il_numa_nodes(void);
/* how node information was obtained: "libnuma", "sysfs" or "none" */
const char *il_numa_source(void);
/*
 * Online CPUs in the order `spread` placement uses them: across NUMA
 * nodes first (the first CPU of each node, then the second of each...).
 * Returns how many were written, or a negative errno.
 */
int il_cpu_spread_order(int *order, int max);
/* Pin tid (0: the calling thread) to one CPU.  0 or -errno. */
int il_pin_cpu(pid_t tid, int cpu);
/* Pin tid to the CPUs of a bitmap of IL_MAX_CPUS bits.  0 or -errno. */
int il_pin_mask(pid_t tid, const unsigned long *mask);
/*
 * Memory for a lock, on NUMA node `node` when libnuma is there (node < 0:
 * anywhere).  *placed tells whether the node was honoured.  Free with
 * il_free_on_node(p, size).
 */
void *il_alloc_on_node(size_t size, int node, int *placed);
void il_free_on_node(void *p, size_t size);
/*
 * Parse a CPU list "0-3,8,10-11" into a bitmap of IL_MAX_CPUS bits.
 * Returns the number of CPUs, or -EINVAL with the reason in err.
 */
int il_cpulist_parse(const char *s, unsigned long *mask, char *err,
		     size_t errlen);

#endif
