// SPDX-License-Identifier: MIT
/*
 * Online CPUs, their NUMA nodes and thread pinning.
 *
 * Pinning uses the raw sched_setaffinity syscall on a thread id so the
 * same code works with glibc, musl and bionic (pthread_setaffinity_np is
 * a glibc extension).  Node information comes from libnuma when the build
 * has it and from /sys/devices/system otherwise.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include <invlab/cpu.h>
#if HAVE_LIBNUMA
#include "numa-private.h"
#endif

#define BITS_PER_LONG (8 * sizeof(unsigned long))

static void mask_set(unsigned long *mask, int cpu)
{
	mask[cpu / BITS_PER_LONG] |= 1ul << (cpu % BITS_PER_LONG);
}

static int mask_test(const unsigned long *mask, int cpu)
{
	return (mask[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

int il_cpulist_parse(const char *s, unsigned long *mask, char *err,
		     size_t errlen)
{
	const char *p = s;
	int n = 0;

	memset(mask, 0, IL_MAX_CPUS / 8);
	if (!*p)
		goto bad;
	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= IL_MAX_CPUS) {
			snprintf(err, errlen,
				 "CPU range '%ld-%ld' is invalid; CPUs are "
				 "0..%d",
				 lo, hi, IL_MAX_CPUS - 1);
			return -EINVAL;
		}
		for (long c = lo; c <= hi; c++) {
			if (!mask_test(mask, (int)c))
				n++;
			mask_set(mask, (int)c);
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return n;
bad:
	snprintf(err, errlen, "'%s' is not a CPU list (e.g. 0-3,8)", s);
	return -EINVAL;
}

static int read_online_mask(unsigned long *mask)
{
	char buf[4096], err[128];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int ret;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			ret = il_cpulist_parse(buf, mask, err, sizeof(err));
			fclose(f);
			if (ret > 0)
				return ret;
		} else {
			fclose(f);
		}
	}
	/* no sysfs (some containers): count what sysconf knows */
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return -ENOENT;
	memset(mask, 0, IL_MAX_CPUS / 8);
	for (long c = 0; c < n && c < IL_MAX_CPUS; c++)
		mask_set(mask, (int)c);
	return (int)n;
}

int il_cpu_online(int *cpus, int max)
{
	unsigned long mask[IL_MAX_CPUS / BITS_PER_LONG];
	int ret = read_online_mask(mask), n = 0;

	if (ret < 0)
		return ret;
	for (int c = 0; c < IL_MAX_CPUS && n < max; c++)
		if (mask_test(mask, c))
			cpus[n++] = c;
	return n;
}

bool il_cpu_is_online(int cpu)
{
	unsigned long mask[IL_MAX_CPUS / BITS_PER_LONG];

	if (cpu < 0 || cpu >= IL_MAX_CPUS || read_online_mask(mask) < 0)
		return false;
	return mask_test(mask, cpu);
}

int il_cpu_last_online(void)
{
	int cpus[IL_MAX_CPUS];
	int n = il_cpu_online(cpus, IL_MAX_CPUS);

	return n <= 0 ? (n < 0 ? n : -ENOENT) : cpus[n - 1];
}

static int sysfs_cpu_node(int cpu)
{
	char path[96];
	struct dirent *de;
	DIR *d;
	int node = -ENOENT;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "node", 4) &&
		    isdigit((unsigned char)de->d_name[4])) {
			node = atoi(de->d_name + 4);
			break;
		}
	}
	closedir(d);
	return node;
}

static int sysfs_nodes(void)
{
	struct dirent *de;
	DIR *d = opendir("/sys/devices/system/node");
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) &&
		    isdigit((unsigned char)de->d_name[4]))
			n++;
	closedir(d);
	return n ? n : -ENOENT;
}

const char *il_numa_source(void)
{
#if HAVE_LIBNUMA
	if (__il_numa_nodes() > 0)
		return "libnuma";
#endif
	return sysfs_nodes() > 0 ? "sysfs" : "none";
}

int il_cpu_node(int cpu)
{
	int node;

#if HAVE_LIBNUMA
	node = __il_numa_cpu_node(cpu);
	if (node >= 0)
		return node;
#endif
	node = sysfs_cpu_node(cpu);
	return node < 0 ? 0 : node;
}

int il_numa_nodes(void)
{
	int n;

#if HAVE_LIBNUMA
	n = __il_numa_nodes();
	if (n > 0)
		return n;
#endif
	n = sysfs_nodes();
	return n > 0 ? n : 1;
}

int il_pin_cpu(pid_t tid, int cpu)
{
	unsigned long mask[IL_MAX_CPUS / BITS_PER_LONG];

	if (cpu < 0 || cpu >= IL_MAX_CPUS)
		return -EINVAL;
	memset(mask, 0, sizeof(mask));
	mask_set(mask, cpu);
	if (syscall(SYS_sched_setaffinity, tid, sizeof(mask), mask))
		return -errno;
	return 0;
}

int il_pin_mask(pid_t tid, const unsigned long *mask)
{
	if (syscall(SYS_sched_setaffinity, tid, IL_MAX_CPUS / 8, mask))
		return -errno;
	return 0;
}

void *il_alloc_on_node(size_t size, int node, int *placed)
{
	void *p;

	*placed = 0;
#if HAVE_LIBNUMA
	if (node >= 0) {
		p = __il_numa_alloc(size, node);
		if (p) {
			*placed = 1;
			return p;
		}
	}
#endif
	/* cache-line aligned, so two locks never share a line */
	if (posix_memalign(&p, 64, size))
		return NULL;
	return p;
}

void il_free_on_node(void *p, size_t size)
{
#if HAVE_LIBNUMA
	if (__il_numa_owns(p, size))
		return;
#endif
	free(p);
}

/*
 * The order `spread` hands out CPUs: across nodes first (cpu 0 of node 0,
 * of node 1, ..., then the second CPU of each node).
 */
int il_cpu_spread_order(int *order, int max)
{
	int cpus[IL_MAX_CPUS], node[IL_MAX_CPUS], n, k = 0, nodes;

	n = il_cpu_online(cpus, IL_MAX_CPUS);
	if (n <= 0)
		return n;
	nodes = il_numa_nodes();
	for (int i = 0; i < n; i++)
		node[i] = il_cpu_node(cpus[i]);
	for (int round = 0; k < n && k < max; round++) {
		for (int nd = 0; nd < nodes + 1 && k < max; nd++) {
			int seen = 0;

			for (int i = 0; i < n; i++) {
				if (node[i] != nd &&
				    !(nd == nodes && node[i] >= nodes))
					continue;
				if (seen++ == round) {
					order[k++] = cpus[i];
					break;
				}
			}
		}
		if (round > n)
			break;
	}
	return k;
}
