// SPDX-License-Identifier: MIT
/*
 * pi-chain: a chain of mutexes whose owners sit on different CPUs, with a
 * hog on every owner's CPU, under no protocol and priority inheritance.
 *
 *   sudo pi-chain                          # depth 3, none then inherit
 *   sudo pi-chain --depth 2 -p inherit --json chain.json
 *   sudo pi-chain --place nodes            # across NUMA nodes, memory too
 *
 * The head waits for R1, held by owner 1, who waits for R2, held by
 * owner 2, ... the tail holds the last lock for --cs of CPU time; a hog
 * per owner CPU, between every owner's priority and the head's, spins
 * once the head is released.  Members are spread one per CPU (across NUMA
 * nodes first), or with --place nodes one per node in turn, each pinned
 * to its node's CPUs with its memory and the lock it holds bound there,
 * and a hog on every CPU of each owner's node.  With inheritance every
 * owner runs at the head's
 * priority and the hogs cannot delay the chain: the head waits at most
 * the sum of the owners' own work (transitive inheritance), or the
 * remote-blocking fixed point when a task above the head shares an
 * owner's CPU.  Without a protocol the hogs run first.  Per link the
 * engine also reports how long after the head's request the owner was
 * first seen running at an inherited priority.
 *
 * The chain is written as a job file (pi-chain-job.c; demos/jobs/
 * pi-chain-3.job is the depth-3 one) and judged by the chain validator,
 * as invlab-run judges it; what the validator says of a fair-class head
 * (il_judge_chain_fair_head) applies on top.
 *
 * Exit: 0 every verdict as expected (none fails, inherit passes where the
 * bound applies), 1 otherwise, 2 bad usage, 77 cannot run here, 99 broken
 * setup, 128+N interrupted by signal N.
 */
#include <stddef.h>

#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "pi-chain.h"

#define O(f) offsetof(struct chain_cfg, f)
static const struct il_opt chain_opts[] = {
	{
		.name = "depth",
		.short_name = 'D',
		.type = IL_OPT_INT,
		.offset = O(depth),
		.def = "3",
		.min = 2,
		.max = CHAIN_MAX_DEPTH,
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
		.name = "place",
		.type = IL_OPT_CHOICE,
		.offset = O(place),
		.def = "cpus",
		.choices = "cpus|nodes",
		.metavar = "HOW",
		.help = "where the members go: cpus, one per CPU, across NUMA "
			"nodes first; nodes, member k on NUMA node k mod N "
			"(cpu "
			"= node:N) with its memory and the lock it holds bound "
			"there, and a hog on every CPU of each owner's node (2 "
			"nodes or more)",
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

/*
 * The default run: each protocol until the head's row has the tail it
 * can show in a demo's time, at most 6 s.  Without a protocol a wait is
 * the whole hog (a round about twice its 20 ms): 100 waits, for p99,
 * take some 4.6 s; with inheritance 1000, for p999, some 5.2 s on a
 * 2-vCPU guest (docs/pi-chain.md).
 */
static const struct drv_default defaults[] = {
	{ .config = "none", .tail = 0.99, .bound_ns = 6 * IL_NSEC_PER_SEC },
	{ .config = "inherit", .tail = 0.999, .bound_ns = 6 * IL_NSEC_PER_SEC },
	{ .bound_ns = 0 },
};

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	const struct chain_cfg *g = d->cfg;
	char err[256];

	chain_depth = (int)g->depth;
	if (chain_parse_classes(g->classes, err, sizeof(err))) {
		fprintf(stderr, "pi-chain: %s\n", err);
		return 2;
	}
	if (chain_write_job(g, err, sizeof(err))) {
		/* the machine's, not the command line's: cannot run here */
		return demo_skip(d->c, "pi-chain", err);
	}
	for (int c = 0; c < 2; c++) {
		d->configs[c].text = chain_job;
		d->configs[c].file = "pi-chain";
		d->want[c] = g->protocol == 2 || g->protocol == c;
	}
	return -1;
}

static int adjust(struct drv *d, int c, struct il_scenario *sc, char *err,
		  size_t len)
{
	for (int k = 1; k < chain_depth && c == 0; k++)
		if (il_scenario_setf(sc, err, len, "R%d.protocol=none", k))
			return -1;
	return 0;
}

/* the chain validator, and what it says of a fair-class head */
static int judge(struct drv *d, struct drv_run *r, char *why, size_t len)
{
	int ret = il_judge_run(r->sc, r->er, &r->env, r->mask, r->ck,
			       DRV_MAX_CHECKS, &r->nck, why, len);

	if (!ret && r->nck)
		(void)il_judge_chain_fair_head(r->sc, "head", &r->ck[0]);
	return ret;
}

static void header(struct drv *d, FILE *f)
{
	char cpu[32];

	fprintf(f, "pi-chain: depth %d:", chain_depth);
	for (int i = 0; i < chain_depth; i++) {
		const struct chain_member *m = &chain_m[i];

		if (m->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "cpu %d", m->cpu);
		else
			snprintf(cpu, sizeof(cpu), "%s",
				 m->node >= 0 ? "" : "any cpu");
		if (m->node >= 0)
			il_appendf(cpu, sizeof(cpu), "%snode %d",
				   m->cpu >= 0 ? ", " : "", m->node);
		fprintf(f, "%s %s (%s %d, %s)", i ? " ->" : "", m->name,
			chain_cls_names[m->cls], m->prio, cpu);
	}
	fprintf(f, "; hogs at fifo %d on the owners' %s\n", chain_m[0].prio - 5,
		chain_m[1].node >= 0 ? "nodes' CPUs" : "CPUs");
}

static void run_text(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	if (!d->c->tap && !d->c->quiet)
		fprintf(f, "placement: %s (%s)\n", r->er->placement,
			r->er->numa);
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
	.cfg_size = sizeof(struct chain_cfg),
	.configs = protocols,
	.nconfigs = 2,
	.setup = setup,
	.adjust = adjust,
	.judge = judge,
	.header = header,
	.run_text = run_text,
	.run_note = chain_run_note,
	.json_head = chain_json_head,
	.json_run = chain_json_run,
	.live_rows = chain_live_rows,
	.subject = "head",
	.config_label = "protocol",
	.boost_from = "head",
	.defaults = defaults,
};

int main(int argc, char **argv)
{
	return drv_main(&pi_chain, argc, argv);
}
