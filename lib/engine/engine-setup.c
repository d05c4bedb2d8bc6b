// SPDX-License-Identifier: MIT
/*
 * The engine's setup, before any task thread starts: where each task
 * runs (CPU masks, --partition's cpuset partitions), what each lock
 * request may be blocked by, the result's buffers, and the mutexes,
 * kernel-mutex recipes and cgroups the scenario names.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/kmutex.h>
#include <invlab/membind.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

#include "config.h"
#include "engine-private.h"

static int rank_of(const struct il_sched *s)
{
	switch (s->policy) {
	case IL_SCHED_DEADLINE:
		return 200;
	case IL_SCHED_FIFO:
	case IL_SCHED_RR:
		return 100 + s->prio;
	default:
		/* fair-class tasks are not ordered among themselves */
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* setup                                                                */

static int mask_count(const unsigned long *m, int *only)
{
	int n = 0;

	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask_test(m, c)) {
			n++;
			*only = c;
		}
	return n;
}

static void mask_describe(const unsigned long *m, char *buf, size_t len)
{
	size_t off = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < IL_MAX_CPUS && off < len) {
		int lo;

		if (!mask_test(m, c)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < IL_MAX_CPUS && mask_test(m, c + 1))
			c++;
		off += (size_t)snprintf(buf + off, len - off, "%s%d",
					off ? "," : "", lo);
		if (c > lo && off < len)
			off += (size_t)snprintf(buf + off, len - off, "-%d", c);
		c++;
	}
}

/* density Q / min(D, P) of a deadline task, for placing partitions */
static double density(const struct il_sched *s)
{
	uint64_t w =
		s->deadline_ns < s->period_ns ? s->deadline_ns : s->period_ns;

	return w ? (double)s->runtime_ns / (double)w : 0.0;
}

/*
 * --partition: a CPU for every deadline task: its `partition` key, else
 * the least loaded online CPU by density, densest task first (worst fit
 * decreasing, which spreads the load; ties go to the lower CPU).
 */
static int partition_cpus(struct engine *e, char *why, size_t len)
{
	static int cpus[IL_MAX_CPUS];
	static double load[IL_MAX_CPUS];
	int n = il_cpu_online(cpus, IL_MAX_CPUS);
	int order[IL_MAX_TASKS], no = 0;

	if (n <= 0) {
		snprintf(why, len, "--partition: no online CPU found");
		return -ENOENT;
	}
	memset(load, 0, sizeof(load));
	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = e->t[i].t;

		if (t->sched.policy != IL_SCHED_DEADLINE)
			continue;
		if (t->k.partition < 0) {
			order[no++] = i;
			continue;
		}
		if (!il_cpu_is_online((int)t->k.partition)) {
			snprintf(why, len,
				 "task '%s': partition = %lld is not an online "
				 "CPU (see /sys/devices/system/cpu/online)",
				 t->name, (long long)t->k.partition);
			return -EINVAL;
		}
		e->t[i].part = (int)t->k.partition;
		for (int c = 0; c < n; c++)
			if (cpus[c] == e->t[i].part)
				load[c] += density(&t->sched);
	}
	/* densest first; insertion sort keeps the file's order for ties */
	for (int a = 1; a < no; a++)
		for (int b = a;
		     b > 0 && density(&e->t[order[b]].t->sched) >
				      density(&e->t[order[b - 1]].t->sched);
		     b--) {
			int x = order[b];

			order[b] = order[b - 1];
			order[b - 1] = x;
		}
	for (int k = 0; k < no; k++) {
		int best = 0;

		for (int c = 1; c < n; c++)
			if (load[c] < load[best])
				best = c;
		e->t[order[k]].part = cpus[best];
		load[best] += density(&e->t[order[k]].t->sched);
	}
	return 0;
}

/*
 * Tasks with `node = N`: refused before anything is set up when memory
 * cannot be bound (no libnuma, a kernel without NUMA: -EPERM, this
 * machine cannot) or node N is not there or has no memory (-EINVAL, as
 * a CPU that is not online).
 */
static int check_memory_nodes(struct engine *e, char *why, size_t len)
{
	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = e->t[i].t;
		const char *missing = il_membind_missing();
		char m[200];
		int ret;

		if (t->k.node < 0)
			continue;
		if (missing) {
			snprintf(why, len, "task '%s': node = %lld: %s",
				 t->name, (long long)t->k.node, missing);
			return -EPERM;
		}
		ret = il_membind_check((int)t->k.node, m, sizeof(m));
		if (ret) {
			snprintf(why, len, "task '%s': node = %lld: %s",
				 t->name, (long long)t->k.node, m);
			return ret == -EOPNOTSUPP ? -EPERM : -EINVAL;
		}
	}
	return 0;
}

/* the NUMA nodes of the CPUs of m, as a list ("1", "0-1") */
static void mask_nodes(const unsigned long *m, char *buf, size_t len)
{
	unsigned long nodes[MASK_LONGS];

	memset(nodes, 0, sizeof(nodes));
	for (int c = 0; c < IL_MAX_CPUS; c++) {
		int n = mask_test(m, c) ? il_cpu_node(c) : -1;

		if (n >= 0 && n < IL_MAX_CPUS)
			mask_set(nodes, n);
	}
	mask_describe(nodes, buf, len);
}

/*
 * A pinned task's placement for people: "cpu 1", "cpus 0-3", "cpu 2
 * (spread)", "node 1 (cpus 2-3)" for node:N; on a machine of several
 * nodes (nodes: the mask's nodes, else NULL) every placement names them,
 * "cpu 1 (node 1)", "cpu 2 (spread, node 1)", "cpus 0-3 (nodes 0-1)".
 */
static void describe(char *buf, size_t len, const struct il_task *t, bool one,
		     const char *cpus, const char *nodes)
{
	const char *kind = one ? "cpu" : "cpus";
	const char *nk = nodes && (strchr(nodes, ',') || strchr(nodes, '-'))
				 ? "nodes"
				 : "node";

	if (t->place == IL_PLACE_NODE) {
		snprintf(buf, len, "node %d (%s %s)", t->place_node, kind,
			 cpus);
		return;
	}
	snprintf(buf, len, "%s %s", kind, cpus);
	if (t->place == IL_PLACE_SPREAD && nodes)
		il_appendf(buf, len, " (spread, %s %s)", nk, nodes);
	else if (t->place == IL_PLACE_SPREAD)
		il_appendf(buf, len, " (spread)");
	else if (nodes)
		il_appendf(buf, len, " (%s %s)", nk, nodes);
}

int __il_place(struct engine *e, struct il_engine_result *res, char *why,
	       size_t len)
{
	int order[IL_MAX_CPUS],
		norder = il_cpu_spread_order(order, IL_MAX_CPUS);
	int nspread = 0, only = -1, ret, nodes = il_numa_nodes();
	char desc[48], nd[48];
	size_t off = 0;

	if ((ret = check_memory_nodes(e, why, len)))
		return ret;
	if (e->partition && (ret = partition_cpus(e, why, len)))
		return ret;
	for (int i = 0; i < e->n; i++) {
		struct trt *tr = &e->t[i];
		const struct il_task *t = tr->t;
		const char *spec = t->k.cpu ? t->k.cpu : "any";

		/* the job file's check parsed `cpu`; here it meets the machine
		 */
		memset(tr->mask, 0, sizeof(tr->mask));
		tr->cpu = -1;
		tr->pinned = false;
		if (tr->part >= 0 && t->place != IL_PLACE_ANY) {
			snprintf(why, len,
				 "task '%s': cpu = %s: a SCHED_DEADLINE task "
				 "runs where its partition is; with "
				 "--partition say cpu = any and partition = N",
				 t->name, spec);
			return -EINVAL;
		}
		if (tr->part >= 0) {
			tr->cpu = tr->part;
			tr->r->partitioned = 1;
			snprintf(tr->r->placement, sizeof(tr->r->placement),
				 "cpu %d (partition)", tr->part);
			mask_set(e->cpus_used, tr->part);
			goto described;
		}
		switch (t->place) {
		case IL_PLACE_ANY:
			snprintf(tr->r->placement, sizeof(tr->r->placement),
				 "any");
			e->all_cpus = true;
			break;
		case IL_PLACE_SPREAD:
			if (norder <= 0)
				return -ENOENT;
			mask_set(tr->mask, order[nspread % norder]);
			nspread++;
			break;
		case IL_PLACE_NODE: {
			int cpus[IL_MAX_CPUS],
				n = il_cpu_online(cpus, IL_MAX_CPUS);

			for (int c = 0; c < n; c++)
				if (il_cpu_node(cpus[c]) == t->place_node)
					mask_set(tr->mask, cpus[c]);
			break;
		}
		case IL_PLACE_CPUS:
			memcpy(tr->mask, t->cpus, sizeof(tr->mask));
			break;
		}
		if (t->place != IL_PLACE_ANY) {
			for (int c = 0; c < IL_MAX_CPUS; c++)
				if (mask_test(tr->mask, c) &&
				    !il_cpu_is_online(c))
					tr->mask[c / BITS_PER_LONG] &=
						~(1ul << (c % BITS_PER_LONG));
			if (!mask_count(tr->mask, &only)) {
				snprintf(why, len,
					 "task '%s': cpu = %s names no online "
					 "CPU "
					 "(see /sys/devices/system/cpu/online)",
					 tr->t->name, spec);
				return -EINVAL;
			}
			if (tr->t->sched.policy == IL_SCHED_DEADLINE) {
				snprintf(
					why, len,
					"task '%s': a SCHED_DEADLINE task "
					"cannot "
					"have an affinity narrower than its "
					"root "
					"domain; use cpu = any (global EDF), "
					"or "
					"run with --partition to place it in a "
					"cpuset partition (key partition = N)",
					tr->t->name);
				return -EINVAL;
			}
			tr->pinned = true;
			if (mask_count(tr->mask, &only) == 1)
				tr->cpu = only;
			mask_describe(tr->mask, desc, sizeof(desc));
			mask_nodes(tr->mask, nd, sizeof(nd));
			describe(tr->r->placement, sizeof(tr->r->placement), t,
				 tr->cpu >= 0, desc, nodes > 1 ? nd : NULL);
			for (int c = 0; c < IL_MAX_CPUS; c++)
				if (mask_test(tr->mask, c))
					mask_set(e->cpus_used, c);
		}
	described:
		if (t->k.node >= 0)
			il_appendf(tr->r->placement, sizeof(tr->r->placement),
				   " with memory on node %lld",
				   (long long)t->k.node);
		tr->r->cpu = tr->cpu;
		off += (size_t)snprintf(res->placement + off,
					sizeof(res->placement) - off,
					"%s%s: %s", off ? ", " : "",
					tr->t->name, tr->r->placement);
		if (off >= sizeof(res->placement))
			off = sizeof(res->placement) - 1;
	}
	if (nspread > norder && off + 1 < sizeof(res->placement))
		snprintf(res->placement + off, sizeof(res->placement) - off,
			 "; %d spread tasks share %d CPUs", nspread, norder);
	snprintf(res->numa, sizeof(res->numa), "%s, %d node%s",
		 il_numa_source(), il_numa_nodes(),
		 il_numa_nodes() == 1 ? "" : "s");
	return 0;
}

/* resources that can be held while r is requested: users of r and,
 * through nesting, the users of what they wait for while holding r */
static uint32_t blockers_of(const struct il_scenario *sc, int r, int depth)
{
	uint32_t users = 0;

	if (depth > IL_MAX_RESOURCES)
		return 0;
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		uint32_t held = 0;

		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];

			if (ph->kind == IL_PH_LOCK || ph->kind == IL_PH_CALL) {
				if (ph->res == r)
					users |= 1u << i;
				if (held & (1u << r))
					users |= blockers_of(sc, ph->res,
							     depth + 1);
				/* a call's kernel mutex is not held after it */
				if (ph->kind == IL_PH_LOCK)
					held |= 1u << ph->res;
			} else if (ph->kind == IL_PH_UNLOCK) {
				held &= ~(1u << ph->res);
			}
		}
	}
	return users;
}

void __il_prepare_tasks(struct engine *e)
{
	const struct il_scenario *sc = e->sc;

	for (int i = 0; i < e->n; i++)
		e->t[i].rank = rank_of(&sc->tasks[i].sched);
	for (int i = 0; i < e->n; i++) {
		struct trt *me = &e->t[i];
		int li = 0;

		for (int o = 0; o < e->n; o++)
			if (o != i && e->t[o].rank < me->rank)
				me->lower_mask |= 1u << o;
		for (int p = 0; p < me->t->nphases; p++) {
			const struct il_phase *ph = &me->t->phases[p];

			if (ph->kind != IL_PH_LOCK && ph->kind != IL_PH_CALL)
				continue;
			me->waiter = true;
			if (ph->kind == IL_PH_CALL &&
			    me->t->k.activation == IL_ACT_HOG)
				me->lean = true;
			me->blockers[li] =
				blockers_of(sc, ph->res, 0) & ~(1u << i);
			me->hog_mask[li] = me->lower_mask & ~me->blockers[li];
			li++;
		}
	}
	/* lock holders below the boosting task watch their own priority */
	if (e->boost_from >= 0)
		for (int i = 0; i < e->n; i++)
			e->t[i].boost_watch =
				e->t[i].waiter && i != e->boost_from &&
				e->t[i].rank < e->t[e->boost_from].rank;
}

/*
 * The buffers of a task with `node = N` come from its region (r->mem),
 * zero as fresh pages are, one after the other at cache-line boundaries;
 * the others from calloc.
 */
struct carve {
	char *base;
	size_t off, len;
};

#define CARVE_ALIGN 64

static size_t carve_size(size_t n)
{
	return (n + CARVE_ALIGN - 1) / CARVE_ALIGN * CARVE_ALIGN;
}

static void *take(struct carve *c, size_t n)
{
	void *p;

	if (!c->base)
		return calloc(1, n);
	if (c->len - c->off < carve_size(n))
		return NULL; /* sized below; cannot happen */
	p = c->base + c->off;
	c->off += carve_size(n);
	return p;
}

/* a lock phase (not a call): its sections are the deboost's ledger */
static bool takes_locks(const struct il_task *t)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK)
			return true;
	return false;
}

/* what a task's region holds: a guard page, its stack, its buffers */
static size_t region_size(const struct il_task *t, size_t cap, size_t seq_cap)
{
	size_t n = il_membind_round(1) + TASK_STACK;
	uint32_t held = 0;

	if (seq_cap)
		n += 4 * carve_size(seq_cap * sizeof(uint64_t));
	if (takes_locks(t))
		n += 2 * carve_size(cap * sizeof(uint64_t));
	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind != IL_PH_LOCK && ph->kind != IL_PH_CALL)
			continue;
		if (!(held & (1u << ph->res)))
			n += carve_size(sizeof(struct il_hist));
		held |= 1u << ph->res;
		n += carve_size(sizeof(struct il_lock_result)) +
		     carve_size(cap * sizeof(struct il_wait_sample));
	}
	return n;
}

int __il_alloc_results(struct engine *e, struct il_engine_result *res,
		       uint64_t duration)
{
	const struct il_scenario *sc = e->sc;

	res->ntasks = e->n;
	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = &sc->tasks[i];
		struct il_task_result *r = &res->tasks[i];
		/* generous: a job every 100 us */
		size_t cap = (size_t)(duration / (100 * IL_NSEC_PER_USEC)) + 64;
		size_t seq_cap =
			t->k.activation == IL_ACT_PERIODIC && t->k.period_ns
				? (size_t)(duration / t->k.period_ns) + 16
				: 0;
		struct carve c = { 0 };

		snprintf(r->name, sizeof(r->name), "%s", t->name);
		il_hist_init(&r->wakeup);
		il_hist_init(&r->response);
		il_hist_init(&r->job_cpu);
		il_hist_init(&r->budget);
		il_hist_init(&r->budget_lent);
		il_hist_init(&r->boost);
		if (t->k.node >= 0) {
			/* bound before any page is touched: each page comes
			 * from the node as it is first written, whoever
			 * writes it (docs/job-files.md, "Memory on a node") */
			c.len = region_size(t, cap, seq_cap);
			r->mem = il_membind_alloc(c.len, (int)t->k.node);
			if (!r->mem)
				return -errno;
			r->mem_len = c.len;
			/* the stack above a guard page, the buffers above */
			(void)mprotect(r->mem, il_membind_round(1), PROT_NONE);
			c.base = r->mem;
			c.off = il_membind_round(1) + TASK_STACK;
		}
		if (seq_cap) {
			r->job_cpu_cap = seq_cap;
			r->job_cpu_seq =
				take(&c, seq_cap * sizeof(*r->job_cpu_seq));
			r->job_start_seq =
				take(&c, seq_cap * sizeof(*r->job_start_seq));
			r->job_rel_seq =
				take(&c, seq_cap * sizeof(*r->job_rel_seq));
			r->job_end_seq =
				take(&c, seq_cap * sizeof(*r->job_end_seq));
			if (!r->job_cpu_seq || !r->job_start_seq ||
			    !r->job_end_seq || !r->job_rel_seq)
				return -ENOMEM;
		}
		if (takes_locks(t)) {
			r->sect_cap = cap;
			r->sect_from_seq = take(&c, cap * sizeof(uint64_t));
			r->sect_to_seq = take(&c, cap * sizeof(uint64_t));
			if (!r->sect_from_seq || !r->sect_to_seq)
				return -ENOMEM;
		}
		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];
			struct il_lock_result *lr;

			if (ph->kind != IL_PH_LOCK && ph->kind != IL_PH_CALL)
				continue;
			if (!r->hold[ph->res]) {
				r->hold[ph->res] =
					take(&c, sizeof(struct il_hist));
				if (!r->hold[ph->res])
					return -ENOMEM;
				il_hist_init(r->hold[ph->res]);
			}
			lr = take(&c, sizeof(*lr));
			if (!lr)
				return -ENOMEM;
			r->locks[r->nlocks++] = lr;
			lr->res = ph->res;
			il_hist_init(&lr->blocked);
			il_hist_init(&lr->delay);
			lr->cap = cap;
			lr->samples = take(&c, cap * sizeof(*lr->samples));
			if (!lr->samples)
				return -ENOMEM;
			/* touch it now, not on the measured path */
			memset(lr->samples, 0, cap * sizeof(*lr->samples));
		}
	}
	return 0;
}

void __il_memory_where(struct engine *e, struct il_engine_result *res)
{
	size_t off = 0, guard = il_membind_round(1);

	res->mem_placement[0] = '\0';
	for (int i = 0; i < e->n; i++) {
		struct il_task_result *r = &res->tasks[i];
		int node = (int)e->t[i].t->k.node;
		int ret;

		if (!r->mem)
			continue;
		ret = il_membind_where((char *)r->mem + guard,
				       r->mem_len - guard, node, &r->mem_pages,
				       &r->mem_on_node);
		if (ret)
			off += (size_t)snprintf(
				res->mem_placement + off,
				sizeof(res->mem_placement) - off,
				"%s%s: node %d (pages not known: %s)",
				off ? ", " : "", r->name, node, strerror(-ret));
		else
			off += (size_t)snprintf(
				res->mem_placement + off,
				sizeof(res->mem_placement) - off,
				"%s%s: node %d (%zu of %zu pages)",
				off ? ", " : "", r->name, node, r->mem_on_node,
				r->mem_pages);
		if (off >= sizeof(res->mem_placement))
			off = sizeof(res->mem_placement) - 1;
	}
}

/*
 * A kernel-mutex resource: the recipe set up for every task (user index =
 * task index), and its uncontended cost measured before any task runs.
 */
static int make_kmutex(struct engine *e, struct il_engine_result *res, int r,
		       char *why, size_t len)
{
	const struct il_resource *rs = &e->sc->res[r];
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)(rs->k.type - IL_RES_RENAME),
		.via = (enum il_km_via)rs->k.via,
		.size = rs->k.size,
		.dir = rs->k.dir,
		.source = rs->k.source,
	};
	char m[200];
	int ret;

	/* the tasks that call it: each may have one write in a pipe */
	for (int i = 0; i < e->n; i++)
		for (int ph = 0; ph < e->sc->tasks[i].nphases; ph++)
			if (e->sc->tasks[i].phases[ph].kind == IL_PH_CALL &&
			    e->sc->tasks[i].phases[ph].res == r) {
				p.callers++;
				break;
			}
	ret = il_kmutex_open(&e->km[r], &p, e->n, m, sizeof(m));
	if (!ret)
		ret = __il_calibrate_kmutex(e, res, r, m, sizeof(m));
	if (ret) {
		snprintf(why, len, "resource '%s': %s", rs->name, m);
		/* io_uring refused, or the directory not writable: this
		 * machine cannot run it, the scenario is fine */
		return ret == -EOPNOTSUPP || ret == -EACCES || ret == -EPERM
			       ? -EPERM
			       : ret;
	}
	snprintf(res->kmutex_where[r], sizeof(res->kmutex_where[r]), "%s",
		 il_kmutex_where(e->km[r]));
	return 0;
}

/*
 * The tasks' cgroups, one per distinct name, with their weights, before
 * any thread starts; each thread joins its own as it starts.  -ENODEV
 * when the cpu controller is not available, -EPERM when groups cannot be
 * made here.
 */
int __il_make_cgroups(struct engine *e, struct il_engine_result *res, char *why,
		      size_t len)
{
	const struct il_scenario *sc = e->sc;
	size_t off = 0;

	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = &sc->tasks[i];
		char m[300];
		int g, ret;

		e->t[i].cg = -1;
		if (!t->k.cgroup)
			continue;
		for (g = 0; g < e->ncg; g++)
			if (!strcmp(e->cg[g].name, t->k.cgroup))
				break;
		e->t[i].cg = g;
		if (g < e->ncg)
			continue;
		ret = il_cgroup_create(&e->cg[g], IL_CG_CPU, t->k.cgroup, m,
				       sizeof(m));
		if (!ret)
			e->ncg++;
		if (!ret)
			ret = il_cgroup_set_weight(
				&e->cg[g],
				t->k.cpu_weight ? (unsigned)t->k.cpu_weight
						: 100,
				m, sizeof(m));
		if (ret) {
			snprintf(why, len, "task '%s': cgroup %s: %s", t->name,
				 t->k.cgroup, m);
			return ret == -ENOENT ? -ENODEV
			       : ret == -EACCES || ret == -EPERM ||
					       ret == -EROFS
				       ? -EPERM
				       : ret;
		}
		if (off < sizeof(res->cgroups))
			off += (size_t)snprintf(
				res->cgroups + off, sizeof(res->cgroups) - off,
				"%s%s: %s (v%d, weight %lld)", off ? "; " : "",
				t->k.cgroup, e->cg[g].path, e->cg[g].version,
				(long long)(t->k.cpu_weight ? t->k.cpu_weight
							    : 100));
	}
	return 0;
}

/*
 * --partition: one cpuset partition per CPU that has deadline tasks,
 * made together before any thread starts (cgroup v2 needs them all to
 * know whether the top cgroup keeps one of them); each task joins its own
 * as it starts, before it becomes SCHED_DEADLINE.  A partition that
 * cannot be made is a reason the run cannot happen here (-EPERM, why
 * says which and why).
 */
int __il_make_partitions(struct engine *e, struct il_engine_result *res,
			 char *why, size_t len)
{
	int gcpu[IL_MAX_TASKS], ng = 0, ret, kept = -1;
	char m[400];
	size_t off = 0;

	for (int i = 0; i < e->n; i++) {
		struct trt *tr = &e->t[i];
		int g;

		if (tr->part < 0)
			continue;
		for (g = 0; g < ng; g++)
			if (gcpu[g] == tr->part)
				break;
		if (g == ng)
			gcpu[ng++] = tr->part;
		tr->pcg = g;
	}
	if (!ng)
		return 0;
	ret = il_cgroup_partitions(e->pcg, gcpu, ng, m, sizeof(m));
	if (ret) {
		char list[128];
		size_t lo = 0;

		for (int i = 0; i < e->n; i++)
			e->t[i].pcg = -1;
		list[0] = '\0';
		for (int g = 0; g < ng && lo < sizeof(list); g++)
			lo += (size_t)snprintf(list + lo, sizeof(list) - lo,
					       "%s%d", g ? ", " : "", gcpu[g]);
		snprintf(why, len,
			 "--partition: cannot make cpuset partitions for CPU%s "
			 "%s: %s",
			 ng > 1 ? "s" : "", list, m);
		return -EPERM;
	}
	e->npcg = ng;
	for (int g = 0; g < ng; g++) {
		const struct il_cgroup *pc = &e->pcg[g];

		if (pc->top)
			kept = gcpu[g];
		if (off < sizeof(res->partitions))
			off += (size_t)snprintf(
				res->partitions + off,
				sizeof(res->partitions) - off,
				"%scpu%d %s (v%d, %s%s, cpus %s)",
				off ? ", " : "", gcpu[g], pc->path, pc->version,
				pc->top ? "the top cgroup's remaining CPU, "
					: "",
				pc->partition, pc->cpus[0] ? pc->cpus : "?");
	}
	/* the placement line says where a kept CPU's tasks really are */
	if (kept >= 0) {
		size_t p = strlen(res->placement);

		snprintf(res->placement + p, sizeof(res->placement) - p,
			 "; CPU %d stays with the top cgroup: a root domain of "
			 "one CPU by itself",
			 kept);
	}
	return 0;
}

const char *il_engine_protect_missing(void)
{
#if HAVE_PRIO_PROTECT
	return NULL;
#else
	return "the priority-ceiling protocol (protect) is not in this build: "
	       "the C library has no pthread_mutexattr_setprioceiling";
#endif
}

int __il_make_mutexes(struct engine *e, struct il_engine_result *res, char *why,
		      size_t len)
{
	const struct il_scenario *sc = e->sc;
	size_t off = 0;

	for (int r = 0; r < sc->nres; r++) {
		const struct il_resource *rs = &sc->res[r];
		pthread_mutexattr_t a;
		int ceiling = (int)rs->k.ceiling, proto, ret, placed;

		if (IL_RES_IS_KMUTEX(rs->k.type)) {
			ret = make_kmutex(e, res, r, why, len);
			if (ret)
				return ret;
			continue;
		}
		e->mtx[r] = il_alloc_on_node(sizeof(pthread_mutex_t),
					     (int)rs->k.node, &placed);
		if (!e->mtx[r])
			return -ENOMEM;
		if (rs->k.node >= 0 && off < sizeof(res->lock_placement))
			off += (size_t)snprintf(
				res->lock_placement + off,
				sizeof(res->lock_placement) - off,
				"%s%s on node %d%s", off ? ", " : "", rs->name,
				(int)rs->k.node,
				placed ? ""
				       : " requested, not placed (no libnuma "
					 "or no such node)");
		if (!ceiling) {
			/* the highest RT priority among the lock's users */
			for (int i = 0; i < sc->ntasks; i++)
				for (int p = 0; p < sc->tasks[i].nphases; p++)
					if (sc->tasks[i].phases[p].kind ==
						    IL_PH_LOCK &&
					    sc->tasks[i].phases[p].res == r &&
					    sc->tasks[i].sched.prio > ceiling)
						ceiling =
							sc->tasks[i].sched.prio;
			if (!ceiling)
				ceiling = 1;
		}
		proto = rs->k.protocol == IL_PROTO_INHERIT
				? PTHREAD_PRIO_INHERIT
			: rs->k.protocol == IL_PROTO_PROTECT
				? PTHREAD_PRIO_PROTECT
				: PTHREAD_PRIO_NONE;
		if (proto == PTHREAD_PRIO_PROTECT &&
		    il_engine_protect_missing()) {
			snprintf(why, len, "resource '%s': %s", rs->name,
				 il_engine_protect_missing());
			return -EPERM;
		}
		pthread_mutexattr_init(&a);
		ret = pthread_mutexattr_setprotocol(&a, proto);
#if HAVE_PRIO_PROTECT
		if (!ret && proto == PTHREAD_PRIO_PROTECT)
			ret = pthread_mutexattr_setprioceiling(&a, ceiling);
#endif
		if (!ret)
			ret = pthread_mutex_init(e->mtx[r], &a);
		pthread_mutexattr_destroy(&a);
		if (ret) {
			snprintf(why, len,
				 "resource '%s': cannot create the "
				 "mutex: %s",
				 rs->name, strerror(ret));
			return -ret;
		}
	}
	return 0;
}
