// SPDX-License-Identifier: MIT
/*
 * pi-chain: a chain of mutexes whose owners sit on different CPUs, with a
 * hog on every owner's CPU, under no protocol and priority inheritance.
 *
 *   sudo pi-chain                          # depth 3, none then inherit
 *   sudo pi-chain --depth 2 -p inherit --json chain.json
 *
 * The head waits for R1, held by owner 1, who waits for R2, held by
 * owner 2, ... the tail holds the last lock for --cs of CPU time; a hog
 * per owner CPU, between every owner's priority and the head's, spins
 * once the head is released.  Members are spread one per CPU (across NUMA
 * nodes first).  With inheritance every owner runs at the head's
 * priority and the hogs cannot delay the chain: the head waits at most
 * the sum of the owners' own work (transitive inheritance), or the
 * remote-blocking fixed point when a task above the head shares an
 * owner's CPU.  Without a protocol the hogs run first.  Per link the
 * engine also reports how long after the head's request the owner was
 * first seen running at an inherited priority.
 *
 * The chain is written as a job file (demos/jobs/pi-chain-3.job is the
 * depth-3 one) and judged by the chain validator, as invlab-run judges it.
 *
 * Exit: 0 every verdict as expected (none fails, inherit passes where the
 * bound applies), 1 otherwise, 2 bad usage, 77 cannot run here, 99 broken
 * setup, 128+N interrupted by signal N.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/validate.h>

#include "driver.h"

#define MAX_DEPTH 8

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int64_t depth;
	int protocol;
	uint64_t cs_ns, work_ns, hog_ns;
	const char *classes;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt chain_opts[] = {
	{
		.name = "depth",
		.short_name = 'D',
		.type = IL_OPT_INT,
		.offset = O(depth),
		.def = "3",
		.min = 2,
		.max = MAX_DEPTH,
		.metavar = "N",
		.help = "tasks in the chain, head and tail included (N-1 "
			"locks)",
	},
	{
		.name = "protocol",
		.short_name = 'p',
		.type = IL_OPT_CHOICE,
		.offset = O(protocol),
		.def = "all",
		.choices = "none|inherit|all",
		.metavar = "PROTO",
		.help = "mutex protocol of every lock; all runs none, then "
			"inherit",
	},
	{
		.name = "cs",
		.type = IL_OPT_DURATION,
		.offset = O(cs_ns),
		.def = "2ms",
		.min = 100 * IL_NSEC_PER_USEC,
		.max = 100 * IL_NSEC_PER_MSEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "CPU time the tail holds the last lock",
	},
	{
		.name = "link-work",
		.type = IL_OPT_DURATION,
		.offset = O(work_ns),
		.def = "200us",
		.min = 10 * IL_NSEC_PER_USEC,
		.max = 100 * IL_NSEC_PER_MSEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "CPU time each intermediate owner works once it has "
			"the next lock",
	},
	{
		.name = "hog",
		.type = IL_OPT_DURATION,
		.offset = O(hog_ns),
		.def = "20ms",
		.min = IL_NSEC_PER_MSEC,
		.max = IL_NSEC_PER_SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "how long each hog spins (it stops once the head has "
			"its lock)",
	},
	{
		.name = "classes",
		.type = IL_OPT_STRING,
		.offset = O(classes),
		.def = "fifo",
		.metavar = "LIST",
		.help = "class of each member, head first, comma-separated: "
			"fifo, rr, deadline or other; one class applies to all",
	},
	{ .name = NULL },
};
#undef O

static const struct drv_config protocols[] = {
	{ .name = "none", .set = { "expect=FAIL" } },
	{ .name = "inherit" },
};

static const char *const cls_names[] = { "fifo", "rr", "deadline", "other" };
enum { C_FIFO, C_RR, C_DEADLINE, C_OTHER };

static struct member {
	char name[IL_NAME_MAX];
	int cls, prio, cpu; /* cpu -1: not pinned (deadline) */
} m[MAX_DEPTH];
static int depth, hops;
static char job[8192];

/* --classes into one class per member, head first; -1 with err */
static int parse_classes(const char *list, char *err, size_t len)
{
	char buf[256], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save), n++) {
		int c = 0;

		while (c < 4 && strcmp(t, cls_names[c]))
			c++;
		if (c == 4) {
			snprintf(err, len,
				 "--classes: '%s' is not one of fifo, rr, "
				 "deadline, other",
				 t);
			return -1;
		}
		if (n < depth)
			m[n].cls = c;
	}
	for (int i = 1; n == 1 && i < depth; i++)
		m[i].cls = m[0].cls;
	if (n == 1 || n == depth)
		return 0;
	snprintf(err, len,
		 "--classes: give one class, or one per member (%d); got %d",
		 depth, n);
	return -1;
}

/* Priorities rise from the tail by 10; the head 10 more, the hogs 5
 * below it; one member per CPU in spread order.  Then the job. */
static void write_job(const struct cfg *g)
{
	int order[IL_MAX_CPUS], n = il_cpu_spread_order(order, IL_MAX_CPUS);
	uint64_t rt = 2 * g->cs_ns + 2 * IL_NSEC_PER_MSEC, per = 10 * rt;
	bool hog_on[IL_MAX_CPUS] = { false };

	per = per > 50 * IL_NSEC_PER_MSEC ? per : 50 * IL_NSEC_PER_MSEC;
	il_appendf(job, sizeof(job),
		   "[global]\nname = pi-chain\nvalidate = chain\n");
	for (int k = 1; k < depth; k++)
		il_appendf(job, sizeof(job),
			   "[resource R%d]\nprotocol = inherit\n", k);
	for (int i = 0; i < depth; i++) {
		struct member *p = &m[i];

		if (i && i < depth - 1)
			snprintf(p->name, sizeof(p->name), "owner%d", i);
		else
			snprintf(p->name, sizeof(p->name), i ? "tail" : "head");
		p->prio = 10 + 10 * (depth - 1 - i) + (i ? 0 : 10);
		p->cpu = p->cls == C_DEADLINE || n <= 0 ? -1 : order[i % n];
		il_appendf(job, sizeof(job), "[task %s]\nclass = ", p->name);
		if (p->cls == C_DEADLINE)
			il_appendf(job, sizeof(job),
				   "deadline:%" PRIu64 "ns/%" PRIu64
				   "ns/%" PRIu64 "ns\n",
				   rt, per, per);
		else
			il_appendf(job, sizeof(job), "%s:%d\n",
				   cls_names[p->cls],
				   p->cls == C_OTHER ? 0 : p->prio);
		if (p->cpu >= 0)
			il_appendf(job, sizeof(job), "cpu = %d\n", p->cpu);
		if (!i) /* released inside the tail's section */
			il_appendf(job, sizeof(job),
				   "offset = %" PRIu64
				   "ns\nbody = wait h1, signal go, lock R1, "
				   "signal got, unlock R1\n",
				   g->cs_ns / 4);
		else if (i == depth - 1)
			il_appendf(job, sizeof(job),
				   "body = lock R%d, signal h%d, run %" PRIu64
				   "ns, unlock R%d\n",
				   i, i, g->cs_ns, i);
		else /* released once the next owner holds its lock */
			il_appendf(job, sizeof(job),
				   "activation = event\non = h%d\nbody = lock "
				   "R%d, signal h%d, lock R%d, run %" PRIu64
				   "ns, unlock R%d, unlock R%d\n",
				   i + 1, i, i, i + 1, g->work_ns, i + 1, i);
		if (i && (m[i - 1].cpu != p->cpu || m[i - 1].cpu < 0))
			hops++; /* a lock handed to another CPU */
	}
	for (int k = 1; k < depth; k++) /* a hog per owner's CPU */
		if (m[k].cpu >= 0 && !hog_on[m[k].cpu]) {
			hog_on[m[k].cpu] = true;
			il_appendf(job, sizeof(job),
				   "[task hog%d]\nclass = fifo:%d\ncpu = %d\n"
				   "activation = event\non = go\nbody = spin "
				   "%" PRIu64 "ns until got\n",
				   m[k].cpu, m[0].prio - 5, m[k].cpu,
				   g->hog_ns);
		}
}

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	const struct cfg *g = d->cfg;
	char err[256];

	depth = (int)g->depth;
	if (parse_classes(g->classes, err, sizeof(err))) {
		fprintf(stderr, "pi-chain: %s\n", err);
		return 2;
	}
	write_job(g);
	for (int c = 0; c < 2; c++) {
		d->configs[c].text = job;
		d->configs[c].file = "pi-chain";
		d->want[c] = g->protocol == 2 || g->protocol == c;
	}
	return -1;
}

static int adjust(struct drv *d, int c, struct il_scenario *sc, char *err,
		  size_t len)
{
	for (int k = 1; k < depth && c == 0; k++)
		if (drv_setf(sc, err, len, "R%d.protocol=none", k))
			return -1;
	return 0;
}

/* a fair-class head cannot boost its owners above real-time work */
static int judge(struct drv *d, struct drv_run *r, char *why, size_t len)
{
	int ret = il_judge_run(r->sc, r->er, &r->env, r->mask, r->ck,
			       DRV_MAX_CHECKS, &r->nck, why, len);

	if (!ret && r->nck && m[0].cls == C_OTHER && r->config == 1) {
		r->ck[0].c.verdict = r->ck[0].expected = IL_UNDECIDED;
		snprintf(r->ck[0].c.evidence, sizeof(r->ck[0].c.evidence),
			 "bound does not apply: a fair-class head cannot boost "
			 "its owners above real-time work");
	}
	return ret;
}

static void header(struct drv *d, FILE *f)
{
	char cpu[16];

	fprintf(f, "pi-chain: depth %d:", depth);
	for (int i = 0; i < depth; i++) {
		snprintf(cpu, sizeof(cpu), m[i].cpu >= 0 ? "cpu %d" : "any cpu",
			 m[i].cpu);
		fprintf(f, "%s %s (%s %d, %s)", i ? " ->" : "", m[i].name,
			cls_names[m[i].cls], m[i].prio, cpu);
	}
	fprintf(f, "; hogs at fifo %d on the owners' CPUs\n", m[0].prio - 5);
}

#define TASK(r, i) (&(r)->er->tasks[il_scenario_task((r)->sc, m[i].name)])

static void run_text(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	if (!d->c->tap && !d->c->quiet)
		fprintf(f, "placement: %s (%s)\n", r->er->placement,
			r->er->numa);
}

static void run_note(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	const struct il_lock_result *lr = TASK(r, 0)->locks[0];
	char s[5][24], indent[16];
	struct il_table t;

	il_format_stat(s[0], 24, &lr->blocked, 0.5);
	il_format_stat(s[1], 24, &lr->blocked, 0.99);
	il_format_stat(s[2], 24, &lr->blocked, 0.999);
	il_format_stat(s[3], 24, &lr->blocked, -1);
	il_format_duration(s[4], 24, r->nck ? r->ck[0].c.bound_ns : 0);
	fprintf(f,
		"%s  head blocked p50 %s, p99 %s, p999 %s, max %s over %zu "
		"rounds (%zu with a late owner not judged); bound %s\n",
		pfx, s[0], s[1], s[2], s[3], lr->nsamples, lr->late, s[4]);
	il_table_init(&t);
	il_table_col(&t, "link", false);
	il_table_col(&t, "owner", false);
	il_table_col(&t, "cpu", true);
	il_table_col(&t, "own work", true);
	il_table_col(&t, "ran boosted after: p50", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "times", true);
	for (int k = 1; k < depth; k++) {
		const struct il_task_result *o = TASK(r, k);

		il_format_duration(s[0], 24, o->hold_max[k - 1]);
		il_format_stat(s[1], 24, &o->boost, 0.5);
		il_format_stat(s[2], 24, &o->boost, -1);
		il_table_cell(&t, "R%d", k);
		il_table_cell(&t, "%s", m[k].name);
		if (m[k].cpu >= 0)
			il_table_cell(&t, "%d", m[k].cpu);
		else
			il_table_cell(&t, "any");
		for (int c = 0; c < 3; c++)
			il_table_cell(&t, "%s", s[c]);
		il_table_cell(&t, "%" PRIu64, o->boost.count);
	}
	snprintf(indent, sizeof(indent), "%s  ", pfx);
	il_table_print_prefixed(&t, f, indent);
	il_table_free(&t);
}

static void json_head(struct drv *d, struct il_json *j)
{
	const struct cfg *g = d->cfg;

	il_json_begin_object(j, "scenario");
	il_json_int(j, "depth", depth);
	il_json_uint(j, "cs_ns", g->cs_ns);
	il_json_uint(j, "link_work_ns", g->work_ns);
	il_json_uint(j, "hog_ns", g->hog_ns);
	il_json_int(j, "hog_prio", m[0].prio - 5);
	il_json_uint(j, "duration_ns", g->common.duration_ns);
	il_json_begin_array(j, "members");
	for (int i = 0; i < depth; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "name", m[i].name);
		il_json_str(j, "class", cls_names[m[i].cls]);
		il_json_int(j, "prio", m[i].prio);
		if (m[i].cpu >= 0)
			il_json_int(j, "cpu", m[i].cpu);
		else
			il_json_null(j, "cpu");
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

static void json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	drv_json_subject(d, r, j);
	il_json_uint(j, "rounds_late_owner", TASK(r, 0)->locks[0]->late);
	il_json_uint(j, "cross_cpu_handoffs", (uint64_t)hops);
	il_json_str(j, "numa", r->er->numa);
	il_json_begin_array(j, "links");
	for (int k = 1; k < depth; k++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "owner", m[k].name);
		il_json_uint(j, "own_work_ns", TASK(r, k)->hold_max[k - 1]);
		il_json_hist(j, "ran_boosted_after_ns", &TASK(r, k)->boost);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/* --live: the head's waits and each owner's boost as they come */
static int live_rows(struct drv *d, const struct drv_run *r,
		     const struct il_engine_result *er, struct il_live_row *row,
		     int max)
{
	int n = 0;

	for (int i = 0; i < depth && n < max; i++, n++) {
		const struct il_task_result *t =
			&er->tasks[il_scenario_task(r->sc, m[i].name)];

		snprintf(row[n].name, sizeof(row[n].name), "%.20s %s",
			 m[i].name, i ? "boosted after" : "blocked");
		row[n].h = i ? &t->boost : &t->locks[0]->blocked;
	}
	return n;
}

static const struct drv_family pi_chain = {
	.prog = "pi-chain",
	.usage = "[OPTIONS]",
	.summary =
		"A chain of mutexes across CPUs with a hog on every owner's "
		"CPU, under no protocol and priority inheritance, judged "
		"against the transitive inheritance bound (or the remote-"
		"blocking fixed point).  Needs CAP_SYS_NICE.  Exit status: 0 "
		"every verdict as expected, 1 otherwise, 2 bad usage, 77 "
		"cannot run here, 99 broken setup, 128+N interrupted by "
		"signal N.",
	.opts = chain_opts,
	.cfg_size = sizeof(struct cfg),
	.configs = protocols,
	.nconfigs = 2,
	.setup = setup,
	.adjust = adjust,
	.judge = judge,
	.header = header,
	.run_text = run_text,
	.run_note = run_note,
	.json_head = json_head,
	.json_run = json_run,
	.live_rows = live_rows,
	.subject = "head",
	.config_label = "protocol",
	.boost_from = "head",
};

int main(int argc, char **argv)
{
	return drv_main(&pi_chain, argc, argv);
}
