// SPDX-License-Identifier: MIT
/*
 * NUMA topology and memory policy from libnuma.  Kept in its own file so
 * only builds that found libnuma link it; lib/sys/cpu.c reads /sys when
 * this is absent or when libnuma reports that the kernel has no NUMA
 * support, and lib/sys/membind.c refuses to bind memory.
 *
 * The policy calls are libnuma's system-call wrappers (numaif.h: mbind,
 * set_mempolicy, get_mempolicy, move_pages) rather than numa_alloc_onnode
 * and numa_set_membind, which print their failures to stderr: a library
 * function here returns the error and lets the program say it.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static size_t page_round(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;

	return (size + pg - 1) / pg * pg;
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
	/* not numa_alloc_onnode: it binds after mmap(), too late under
	 * mlockall (see __il_numa_bind_alloc) */
	p = __il_numa_bind_alloc(page_round(size), node);
	if (!p)
		return NULL;
	for (int i = 0; i < MAX_PLACED; i++) {
		if (__sync_bool_compare_and_swap(&placed[i], NULL, p))
			return p;
	}
	__il_numa_bind_free(p, page_round(size));
	return NULL;
}

int __il_numa_owns(void *p, size_t size)
{
	for (int i = 0; i < MAX_PLACED; i++) {
		if (p && __sync_bool_compare_and_swap(&placed[i], p, NULL)) {
			__il_numa_bind_free(p, page_round(size));
			return 1;
		}
	}
	return 0;
}

/* a node mask of IL_NODE_BITS bits with one node set */
#define IL_NODE_BITS 1024
#define NODE_LONGS   (IL_NODE_BITS / (8 * sizeof(unsigned long)))

static void node_mask(unsigned long *mask, int node)
{
	memset(mask, 0, NODE_LONGS * sizeof(*mask));
	mask[node / (8 * sizeof(*mask))] |= 1ul << (node % (8 * sizeof(*mask)));
}

int __il_numa_node_usable(int node)
{
	long long free_b;

	if (numa_available() < 0)
		return -ENOSYS;
	if (node < 0 || node > numa_max_node() || node >= IL_NODE_BITS ||
	    !numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)node))
		return -ENOENT;
	/* a node with CPUs only: MPOL_BIND to it would fail every fault */
	if (numa_node_size64(node, &free_b) <= 0)
		return -ENOMEM;
	return 0;
}

int __il_numa_max_node(void)
{
	return numa_available() < 0 ? -ENOSYS : numa_max_node();
}

void *__il_numa_bind_alloc(size_t len, int node)
{
	unsigned long mask[NODE_LONGS];
	void *p;
	int e;

	if (node < 0 || node >= IL_NODE_BITS) {
		errno = EINVAL;
		return NULL;
	}
	/*
	 * Mapped inaccessible first: under mlockall(MCL_FUTURE), as the
	 * programs run, a readable mapping is filled at mmap(), before any
	 * policy, with pages of the node the caller runs on (seen in a
	 * two-node guest: every page on the main thread's node).  An
	 * inaccessible one is not filled; mprotect() then fills a locked one
	 * under the policy, or leaves each page to its first write.
	 */
	p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	node_mask(mask, node);
	/* the kernel reads maxnode - 1 bits; libnuma passes one more too */
	if (mbind(p, len, MPOL_BIND, mask, IL_NODE_BITS + 1, 0) ||
	    mprotect(p, len, PROT_READ | PROT_WRITE)) {
		e = errno;
		munmap(p, len);
		errno = e;
		return NULL;
	}
	return p;
}

void __il_numa_bind_free(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

int __il_numa_bind_thread(int node)
{
	unsigned long mask[NODE_LONGS];

	if (node < 0 || node >= IL_NODE_BITS)
		return -EINVAL;
	node_mask(mask, node);
	return set_mempolicy(MPOL_BIND, mask, IL_NODE_BITS + 1) ? -errno : 0;
}

int __il_numa_where(const void *p, size_t len, int node, size_t *present,
		    size_t *on_node)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = page > 0 ? len / (size_t)page : 0;

	*present = *on_node = 0;
	if (page <= 0 || (uintptr_t)p % (size_t)page)
		return -EINVAL;
	/* move_pages with no target nodes only says where each page is:
	 * its node, or -ENOENT for a page never touched */
	for (size_t i = 0; i < n;) {
		void *pages[256];
		int status[256];
		size_t k = n - i < 256 ? n - i : 256;

		for (size_t j = 0; j < k; j++)
			pages[j] = (char *)p + (i + j) * (size_t)page;
		if (move_pages(0, k, pages, NULL, status, 0))
			return -errno;
		for (size_t j = 0; j < k; j++) {
			if (status[j] < 0)
				continue;
			(*present)++;
			if (status[j] == node)
				(*on_node)++;
		}
		i += k;
	}
	return 0;
}
