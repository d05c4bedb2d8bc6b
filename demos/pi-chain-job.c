// SPDX-License-Identifier: MIT
/*
 * The pi-chain demo's chain as a job file (pi-chain.h), judged as
 * invlab-run judges a job (demos/jobs/pi-chain-3.job is the depth-3 one).
 */
#include <inttypes.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "pi-chain.h"

const char *const chain_cls_names[4] = { "fifo", "rr", "deadline", "other" };
struct chain_member chain_m[CHAIN_MAX_DEPTH];
int chain_depth, chain_hops;
char chain_job[8192];

/* --classes into one class per member, head first; -1 with err */
int chain_parse_classes(const char *list, char *err, size_t len)
{
	char buf[256], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save), n++) {
		int c = 0;

		while (c < 4 && strcmp(t, chain_cls_names[c]))
			c++;
		if (c == 4) {
			snprintf(err, len,
				 "--classes: '%s' is not one of fifo, rr, "
				 "deadline, other",
				 t);
			return -1;
		}
		if (n < chain_depth)
			chain_m[n].cls = c;
	}
	for (int i = 1; n == 1 && i < chain_depth; i++)
		chain_m[i].cls = chain_m[0].cls;
	if (n == 1 || n == chain_depth)
		return 0;
	snprintf(err, len,
		 "--classes: give one class, or one per member (%d); got %d",
		 chain_depth, n);
	return -1;
}

/*
 * --place nodes: the nodes in the order spread placement meets them
 * (that of their first CPU), into nodes[]; how many.  A member's node
 * is then nodes[i % n]; cpu is its CPU when the node has one only.
 */
static int chain_nodes(const int *order, int n, int *nodes, int *ncpus,
		       int *one_cpu)
{
	int nn = 0;

	for (int i = 0; i < n; i++) {
		int nd = il_cpu_node(order[i]), k = 0;

		while (k < nn && nodes[k] != nd)
			k++;
		if (k == nn) {
			nodes[nn] = nd;
			ncpus[nn] = 0;
			one_cpu[nn++] = order[i];
		}
		ncpus[k]++;
	}
	return nn;
}

/* Priorities rise from the tail by 10; the head 10 more, the hogs 5
 * below it; one member per CPU in spread order, or per node in turn.
 * Then the job. */
int chain_write_job(const struct chain_cfg *g, char *err, size_t len)
{
	int order[IL_MAX_CPUS], n = il_cpu_spread_order(order, IL_MAX_CPUS);
	int nodes[IL_MAX_CPUS], ncpus[IL_MAX_CPUS], one[IL_MAX_CPUS], nn = 0;
	uint64_t rt = 2 * g->cs_ns + 2 * IL_NSEC_PER_MSEC, per = 10 * rt;
	bool hog_on[IL_MAX_CPUS] = { false };
	bool by_node = g->place == CHAIN_PLACE_NODES;
	int ntasks = chain_depth;

	per = per > 50 * IL_NSEC_PER_MSEC ? per : 50 * IL_NSEC_PER_MSEC;
	if (by_node) {
		nn = n > 0 ? chain_nodes(order, n, nodes, ncpus, one) : 0;
		if (nn < 2) {
			snprintf(err, len,
				 "--place nodes: this machine has %d NUMA "
				 "node%s "
				 "with CPUs; the chain needs 2 or more to span "
				 "nodes (a guest of two: invlab-vm --numa 2)",
				 nn, nn == 1 ? "" : "s");
			return -1;
		}
	}
	for (int i = 0; i < chain_depth; i++) {
		struct chain_member *p = &chain_m[i];
		int k = i % (nn ? nn : 1);

		p->node = by_node ? nodes[k] : -1;
		if (p->cls == C_DEADLINE || n <= 0)
			p->cpu = -1;
		else if (by_node)
			p->cpu = ncpus[k] == 1 ? one[k] : -1;
		else
			p->cpu = order[i % n];
	}
	il_appendf(chain_job, sizeof(chain_job),
		   "[global]\nname = pi-chain\nvalidate = chain\n");
	/* by node: each lock's memory on the node of the owner that holds
	 * it while the one above waits */
	for (int k = 1; k < chain_depth; k++) {
		il_appendf(chain_job, sizeof(chain_job),
			   "[resource R%d]\nprotocol = inherit\n", k);
		if (by_node)
			il_appendf(chain_job, sizeof(chain_job), "node = %d\n",
				   chain_m[k].node);
	}
	for (int i = 0; i < chain_depth; i++) {
		struct chain_member *p = &chain_m[i];

		if (i && i < chain_depth - 1)
			snprintf(p->name, sizeof(p->name), "owner%d", i);
		else
			snprintf(p->name, sizeof(p->name), i ? "tail" : "head");
		p->prio = 10 + 10 * (chain_depth - 1 - i) + (i ? 0 : 10);
		il_appendf(chain_job, sizeof(chain_job),
			   "[task %s]\nclass = ", p->name);
		if (p->cls == C_DEADLINE)
			il_appendf(chain_job, sizeof(chain_job),
				   "deadline:%" PRIu64 "ns/%" PRIu64
				   "ns/%" PRIu64 "ns\n",
				   rt, per, per);
		else
			il_appendf(chain_job, sizeof(chain_job), "%s:%d\n",
				   chain_cls_names[p->cls],
				   p->cls == C_OTHER ? 0 : p->prio);
		if (by_node && p->cls != C_DEADLINE)
			il_appendf(chain_job, sizeof(chain_job),
				   "cpu = node:%d\n", p->node);
		else if (p->cpu >= 0)
			il_appendf(chain_job, sizeof(chain_job), "cpu = %d\n",
				   p->cpu);
		if (by_node)
			il_appendf(chain_job, sizeof(chain_job), "node = %d\n",
				   p->node);
		if (!i) /* released inside the tail's section */
			il_appendf(chain_job, sizeof(chain_job),
				   "offset = %" PRIu64
				   "ns\nbody = wait h1, signal go, lock R1, "
				   "signal got, unlock R1\n",
				   g->cs_ns / 4);
		else if (i == chain_depth - 1)
			il_appendf(chain_job, sizeof(chain_job),
				   "body = lock R%d, signal h%d, run %" PRIu64
				   "ns, unlock R%d\n",
				   i, i, g->cs_ns, i);
		else /* released once the next owner holds its lock */
			il_appendf(chain_job, sizeof(chain_job),
				   "activation = event\non = h%d\nbody = lock "
				   "R%d, signal h%d, lock R%d, run %" PRIu64
				   "ns, unlock R%d, unlock R%d\n",
				   i + 1, i, i, i + 1, g->work_ns, i + 1, i);
		if (i &&
		    (chain_m[i - 1].cpu != p->cpu || chain_m[i - 1].cpu < 0))
			chain_hops++; /* a lock handed to another CPU */
	}
	/* a hog per owner's CPU; by node, on every CPU of each owner's
	 * node, so that an owner free to run anywhere on its node still
	 * finds a hog above it wherever it goes */
	for (int k = 1; k < chain_depth; k++) {
		int cpus[IL_MAX_CPUS], nc = 0;

		if (by_node && chain_m[k].cls != C_DEADLINE) {
			for (int c = 0; c < n; c++)
				if (il_cpu_node(order[c]) == chain_m[k].node)
					cpus[nc++] = order[c];
		} else if (chain_m[k].cpu >= 0) {
			cpus[nc++] = chain_m[k].cpu;
		}
		for (int c = 0; c < nc; c++) {
			if (hog_on[cpus[c]])
				continue;
			hog_on[cpus[c]] = true;
			if (++ntasks > IL_MAX_TASKS) {
				snprintf(err, len,
					 "--place nodes: %d members and a hog "
					 "on "
					 "every CPU of their nodes are more "
					 "than "
					 "%d tasks",
					 chain_depth, IL_MAX_TASKS);
				return -1;
			}
			il_appendf(chain_job, sizeof(chain_job),
				   "[task hog%d]\nclass = fifo:%d\ncpu = %d\n"
				   "activation = event\non = go\nbody = spin "
				   "%" PRIu64 "ns until got\n",
				   cpus[c], chain_m[0].prio - 5, cpus[c],
				   g->hog_ns);
		}
	}
	return 0;
}
