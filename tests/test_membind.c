// SPDX-License-Identifier: MIT
/*
 * membind: a task's memory on a NUMA node (lib/sys/membind.c, and the
 * engine's use of it for the task key `node`).  With libnuma the places
 * are asked of the kernel here with libnuma's own wrappers (get_mempolicy
 * with MPOL_F_ADDR, move_pages without target nodes), not through the
 * code under test; without it, every call and the run must refuse with
 * "not supported: built without libnuma".
 *
 * On every node this machine has: a region bound to it has that policy
 * and its touched pages there, and il_membind_where counts them; a
 * fair-class task with `node = N` (no privilege needed) runs on a stack
 * and records into buffers that are on node N, says so in its placement
 * and in mem_placement, and a task without a node gets none of it.  The
 * first node past the machine's is refused before the run with the
 * reason (-EINVAL: exit status 77 in the programs).  On this one-node
 * machine that is node 0 working and node 1 refused; a guest of several
 * nodes (invlab-vm --numa) runs the multi-node side through invlab-run.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#if HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/membind.h>
#include <invlab/runlock.h>
#include <invlab/scenario.h>

#include "t_util.h"

static long page;

static const char job[] = "[global]\n"
			  "duration = 200ms\n"
			  "validate = none\n"
			  "[resource M]\n"
			  "[task a]\n"
			  "node = %d\n"
			  "body = lock M, run 200us, unlock M, sleep 2ms\n"
			  "[task b]\n"
			  "body = lock M, run 200us, unlock M, sleep 2ms\n";

static int load(struct il_scenario *sc, int node)
{
	char text[512], err[256];
	int ret;

	snprintf(text, sizeof(text), job, node);
	ret = il_scenario_parse(text, "membind.job", sc, err, sizeof(err));
	if (ret)
		fprintf(stderr, "%s\n", err);
	t_check_int(ret, 0);
	return ret;
}

/* a job file with a node reads the same in every build */
static void test_scenario_keeps_node(void)
{
	struct il_scenario sc;

	if (load(&sc, 5))
		return;
	t_check_int((int)sc.tasks[0].k.node, 5);
	t_check_int((int)sc.tasks[1].k.node, -1);
	il_scenario_free(&sc);
}

#if HAVE_LIBNUMA

/* the node of the page holding p, as move_pages says; -ENOENT untouched */
static int node_of(const void *p)
{
	void *pg = (void *)((uintptr_t)p / (uintptr_t)page * (uintptr_t)page);
	int status = -1;

	if (move_pages(0, 1, &pg, NULL, &status, 0))
		return -errno;
	return status;
}

/* the policy of the mapping holding p, and whether its mask is {node} */
static int policy_of(const void *p, int node, int *only_node)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))];
	int mode = -1;

	memset(mask, 0, sizeof(mask));
	if (get_mempolicy(&mode, mask, 1025, (void *)p, MPOL_F_ADDR))
		return -errno;
	*only_node = 1;
	for (int n = 0; n < 1024; n++) {
		int set = (mask[n / (8 * sizeof(long))] >>
			   (n % (8 * sizeof(long)))) &
			  1;

		if (set != (n == node))
			*only_node = 0;
	}
	return mode;
}

static void test_region(int node)
{
	size_t len = 4 * (size_t)page, present = 9, on = 9;
	char *p = il_membind_alloc(len - 1, node);
	int only = 0;

	t_check(p != NULL);
	if (!p)
		return;
	t_check_int((uintptr_t)p % (uintptr_t)page, 0);
	t_check_int(il_membind_round(len - 1), len);
	t_check_int(policy_of(p, node, &only), MPOL_BIND);
	t_check(only);
	/* nothing touched yet: nothing present */
	t_check_int(il_membind_where(p, len, node, &present, &on), 0);
	t_check_int(present, 0);
	t_check_int(on, 0);
	/* two pages written, from another thread's point of view too: the
	 * mapping's policy, not the writer's, places them */
	p[0] = 1;
	p[2 * page + 7] = 1;
	t_check_int(node_of(p), node);
	t_check_int(node_of(p + 2 * page), node);
	/* never touched: -ENOENT, or -EFAULT from Debian's 6.1 (seen in a
	 * NUMA guest) */
	t_check(node_of(p + page) == -ENOENT || node_of(p + page) == -EFAULT);
	t_check_int(il_membind_where(p, len, node, &present, &on), 0);
	t_check_int(present, 2);
	t_check_int(on, 2);
	/* the same pages counted against another node: none on it */
	t_check_int(il_membind_where(p, len, node + 1, &present, &on), 0);
	t_check_int(present, 2);
	t_check_int(on, 0);
	/* part of it: one page present of the first two */
	t_check_int(il_membind_where(p, 2 * (size_t)page, node, &present, &on),
		    0);
	t_check_int(present, 1);
	t_check_int(on, 1);
	t_check_int(il_membind_where(p + 1, len - (size_t)page, node, &present,
				     &on),
		    -EINVAL);
	il_membind_free(p, len - 1);
}

/*
 * The same under mlockall(MCL_FUTURE), as the programs run: every page
 * is there at once, and on the node.  Binding after mmap() put them all
 * on the caller's node there (every page filled before the policy), which
 * only a machine of two nodes or more can show.
 */
/* mlockall(MCL_FUTURE) in effect: a new mapping is there at mmap()
 * (AddressSanitizer, for one, makes mlockall() a no-op) */
static int future_locked(void)
{
	unsigned char v = 0;
	void *q = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (q == MAP_FAILED)
		return 0;
	ok = !mincore(q, (size_t)page, &v) && (v & 1);
	munmap(q, (size_t)page);
	return ok;
}

static void test_region_locked(int node)
{
	size_t len = 4 * (size_t)page, present = 0, on = 0;
	char *p;

	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		printf("# mlockall: %s: not tested locked\n", strerror(errno));
		return;
	}
	if (!future_locked()) {
		munlockall();
		printf("# mlockall(MCL_FUTURE) did not fill a new mapping "
		       "(a sanitizer's no-op?): not tested locked\n");
		return;
	}
	p = il_membind_alloc(len, node);
	munlockall();
	t_check(p != NULL);
	if (!p)
		return;
	t_check_int(il_membind_where(p, len, node, &present, &on), 0);
	t_check_int(present, 4);
	t_check_int(on, 4);
	for (int i = 0; i < 4; i++)
		t_check_int(node_of(p + i * page), node);
	il_membind_free(p, len);
}

/* the calling thread's own policy, then back to the default */
static void test_thread(int node)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))];
	int mode = -1;

	t_check_int(il_membind_thread(node), 0);
	memset(mask, 0, sizeof(mask));
	t_check_int(get_mempolicy(&mode, mask, 1025, NULL, 0), 0);
	t_check_int(mode, MPOL_BIND);
	t_check_int((mask[node / (8 * sizeof(long))] >>
		     (node % (8 * sizeof(long)))) &
			    1,
		    1);
	t_check_int(set_mempolicy(MPOL_DEFAULT, NULL, 0), 0);
}

/* a lock's memory (the resource key `node`, cpu.h): on the node, or
 * placed anywhere and said so when the node is not there */
static void test_lock_memory(int node, int nodes)
{
	int placed = -1, only = 0;
	char *p = il_alloc_on_node(64, node, &placed);

	t_check(p != NULL);
	t_check_int(placed, 1);
	if (p) {
		p[0] = 1;
		t_check_int(node_of(p), node);
		t_check_int(policy_of(p, node, &only), MPOL_BIND);
		t_check(only);
		il_free_on_node(p, 64);
	}
	p = il_alloc_on_node(64, nodes, &placed);
	t_check(p != NULL);
	t_check_int(placed, 0);
	t_check_int((uintptr_t)p % 64, 0);
	il_free_on_node(p, 64);
	p = il_alloc_on_node(64, -1, &placed);
	t_check(p != NULL);
	t_check_int(placed, 0);
	il_free_on_node(p, 64);
}

static void test_engine(int node)
{
	struct il_engine_result *res = il_engine_result_new();
	struct il_scenario sc;
	const struct il_task_result *a, *b;
	char why[512], want[64];
	const char *stack_top;
	int ret, only = 0;
	size_t guard = il_membind_round(1);

	if (!res || load(&sc, node)) {
		free(res);
		return;
	}
	ret = il_engine_run(&sc, NULL, res, why, sizeof(why));
	if (ret)
		fprintf(stderr, "engine: %s\n", why);
	t_check_int(ret, 0);
	if (ret)
		goto out;
	a = &res->tasks[0];
	b = &res->tasks[1];
	t_check(a->jobs > 0);
	snprintf(want, sizeof(want), "with memory on node %d", node);
	t_check_contains(a->placement, want);
	t_check_contains(res->placement, want);
	t_check(!strstr(b->placement, "memory"));
	snprintf(want, sizeof(want), "a: node %d (", node);
	t_check_contains(res->mem_placement, want);
	t_check(!strstr(res->mem_placement, "b:"));
	/* its region: present pages, every one on the node */
	t_check(a->mem != NULL);
	t_check(a->mem_pages > 0);
	t_check_int(a->mem_on_node, a->mem_pages);
	t_check(b->mem == NULL);
	t_check_int(b->mem_pages, 0);
	t_check(a->nlocks == 1 && b->nlocks == 1);
	if (!a->mem || a->nlocks != 1)
		goto out;
	/* the buffers the engine made for it are in its region, on the
	 * node; the other task's are not in it */
	t_check((char *)a->locks[0] >= (char *)a->mem + guard &&
		(char *)a->locks[0] < (char *)a->mem + a->mem_len);
	t_check((char *)a->locks[0]->samples > (char *)a->mem + guard &&
		(char *)a->locks[0]->samples < (char *)a->mem + a->mem_len);
	t_check((char *)b->locks[0]->samples < (char *)a->mem ||
		(char *)b->locks[0]->samples >= (char *)a->mem + a->mem_len);
	t_check(a->locks[0]->nsamples > 0);
	t_check_int(node_of(a->locks[0]->samples), node);
	t_check_int(node_of(a->locks[0]), node);
	t_check_int(node_of(a->hold[0]), node);
	t_check_int(policy_of(a->locks[0]->samples, node, &only), MPOL_BIND);
	t_check(only);
	/* the stack's top page, written by the thread from its first
	 * instruction on: the region holds the stack, then the buffers, so
	 * it is the page just below the first of them (the hold histogram
	 * of M, for a task without job sequences) */
	t_check((char *)a->hold[0] < (char *)a->locks[0]);
	stack_top = (const char *)a->hold[0] - 1;
	t_check_int(node_of(stack_top), node);
	t_check_int(policy_of(stack_top, node, &only), MPOL_BIND);
	t_check(only);
out:
	il_engine_result_free(res);
	t_check(res->tasks[0].mem == NULL);
	free(res);
	il_scenario_free(&sc);
}

static void test_refused(int nodes)
{
	struct il_engine_result *res = il_engine_result_new();
	struct il_scenario sc;
	char why[512] = "", want[128];
	int ret;

	t_check_int(il_membind_check(nodes, why, sizeof(why)), -ENOENT);
	t_check_contains(why, "no NUMA node");
	/* the machine as it is: its one node by name, else the highest */
	if (nodes == 1)
		t_check_contains(why, "this machine has 1 NUMA node, node 0 (");
	else
		t_check_contains(why, "NUMA nodes, the highest ");
	t_check_int(il_membind_check(-1, why, sizeof(why)), -ENOENT);
	t_check(il_membind_alloc(page, -1) == NULL);
	t_check(il_membind_alloc(page, 1024) == NULL);
	t_check_int(il_membind_thread(-1), -EINVAL);
	t_check_int(il_membind_thread(1024), -EINVAL);
	t_check(il_membind_missing() == NULL);
	if (!res || load(&sc, nodes)) {
		free(res);
		return;
	}
	/* the scenario reads the same everywhere; the run refuses */
	t_check_int((int)sc.tasks[0].k.node, nodes);
	ret = il_engine_run(&sc, NULL, res, why, sizeof(why));
	t_check_int(ret, -EINVAL);
	snprintf(want, sizeof(want),
		 "task 'a': node = %d: no NUMA node %d: ", nodes, nodes);
	t_check_contains(why, want);
	snprintf(want, sizeof(want), "this machine has %d NUMA node%s", nodes,
		 nodes == 1 ? "" : "s");
	t_check_contains(why, want);
	t_check(res->tasks[0].mem == NULL);
	il_engine_result_delete(res);
	il_scenario_free(&sc);
}

int main(void)
{
	int nodes;

	/* a unit test measures nothing: it must not take (or wait for) the
	 * CPUs of a kernel suite running beside it (runlock.h) */
	il_runlock_configure(true, 0);
	page = sysconf(_SC_PAGESIZE);
	test_scenario_keeps_node();
	if (numa_available() < 0) {
		char why[256];

		printf("SKIP: the kernel has no NUMA support\n");
		t_check_int(il_membind_check(0, why, sizeof(why)), -EOPNOTSUPP);
		t_check_contains(why, "not supported");
		return t_failures ? 1 : 77;
	}
	nodes = il_numa_nodes();
	t_check(nodes >= 1);
	for (int n = 0; n < nodes; n++) {
		char why[256] = "";
		int ret = il_membind_check(n, why, sizeof(why));

		/* a node with CPUs and no memory is refused with a reason;
		 * any other is usable, and success says nothing */
		t_check(ret == 0 || ret == -ENOMEM);
		if (ret) {
			t_check_contains(why, "has no memory");
			printf("# node %d: %s\n", n, why);
			continue;
		}
		t_check_str(why, "");
		test_region(n);
		test_thread(n);
		test_lock_memory(n, nodes);
		test_region_locked(n);
		test_engine(n);
	}
	test_refused(nodes);
	return t_done("membind");
}

#else /* !HAVE_LIBNUMA */

/* a build without libnuma: nothing binds, everything says why */
int main(void)
{
	struct il_engine_result *res = il_engine_result_new();
	struct il_scenario sc;
	char why[512] = "";
	size_t present = 1, on = 1;
	int x = 0;

	/* a unit test measures nothing: it must not take (or wait for) the
	 * CPUs of a kernel suite running beside it (runlock.h) */
	il_runlock_configure(true, 0);
	page = sysconf(_SC_PAGESIZE);
	test_scenario_keeps_node();
	t_check_str(il_membind_missing(),
		    "not supported: built without libnuma");
	t_check_int(il_membind_check(0, why, sizeof(why)), -EOPNOTSUPP);
	t_check_str(why, "not supported: built without libnuma");
	errno = 0;
	t_check(il_membind_alloc((size_t)page, 0) == NULL);
	t_check_int(errno, EOPNOTSUPP);
	t_check_int(il_membind_thread(0), -EOPNOTSUPP);
	t_check_int(il_membind_where(&x, sizeof(x), 0, &present, &on),
		    -EOPNOTSUPP);
	t_check_int(present, 0);
	t_check_int(on, 0);
	/* the run refuses before anything is set up: -EPERM, this machine
	 * (this build) cannot; the programs skip it, exit status 77 */
	if (res && !load(&sc, 0)) {
		t_check_int(il_engine_run(&sc, NULL, res, why, sizeof(why)),
			    -EPERM);
		t_check_str(why, "task 'a': node = 0: not supported: built "
				 "without libnuma");
		il_scenario_free(&sc);
	}
	il_engine_result_delete(res);
	return t_done("membind");
}

#endif
