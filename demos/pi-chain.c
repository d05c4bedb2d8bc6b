// SPDX-License-Identifier: MIT
/*
 * pi-chain: a chain of mutexes whose owners sit on different CPUs, with a
 * hog on every owner's CPU, under no protocol and priority inheritance.
 *
 *   sudo pi-chain                          # depth 3, none then inherit
 *   sudo pi-chain --depth 2 -p inherit --json chain.json
 *
 * The head waits for R1, held by owner 1, who waits for R2, held by
 * owner 2, ... the tail holds the last lock for --cs of CPU time.  This
 * is the case rt_mutex chain walking (and, for kernel mutexes, proxy
 * execution with donor migration) must get right.  Each round:
 *
 *   tail      (lowest)  lock R(d-1), signal, run --cs, unlock
 *   owner k   (rising)  on the signal of owner k+1: lock Rk, signal,
 *                       lock R(k+1), run --link-work, unlock both
 *   head      (highest) at --cs/4: wait for owner 1, release the hogs,
 *                       lock R1
 *   hog per owner CPU   priority between every owner's and the head's:
 *                       spin --hog or until the head has R1
 *
 * Members are spread one per CPU (across NUMA nodes first) and share CPUs
 * when there are fewer CPUs than members; the output says how they were
 * placed.  With inheritance every owner runs at the head's priority, so
 * the hogs cannot delay the chain: the head waits at most the sum of the
 * owners' own work (transitive inheritance), or the remote-blocking
 * fixed point when a task above the head shares an owner's CPU.  Without
 * a protocol the hogs run first.
 *
 * Per link the engine also reports how long after the head's request the
 * owner was first seen running at an inherited priority
 * (/proc/thread-self/stat).
 *
 * Exit: 0 every verdict as expected (none fails, inherit passes where the
 * bound applies), 1 otherwise, 2 bad usage, 77 cannot run here, 99 broken
 * setup, 128+N interrupted by signal N.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <invlab/attrib.h>
#include <invlab/chain.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/live.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/verdict.h>

#include "demo.h"

#define MAX_DEPTH 8

enum { P_NONE, P_INHERIT, P_ALL };
static const char *const proto_names[] = { "none", "inherit" };

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int64_t depth;
	int protocol;
	uint64_t cs_ns;
	uint64_t work_ns;
	uint64_t hog_ns;
	const char *classes;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt chain_opts[] = {
	{ "depth", 'D', IL_OPT_INT, O(depth), "3", 2, MAX_DEPTH, 0, NULL, "N",
	  "tasks in the chain, head and tail included (N-1 locks)", NULL },
	{ "protocol", 'p', IL_OPT_CHOICE, O(protocol), "all", 0, 0, 0,
	  "none|inherit|all", "PROTO",
	  "mutex protocol of every lock; all runs none, then inherit", NULL },
	{ "cs", 0, IL_OPT_DURATION, O(cs_ns), "2ms", 100 * IL_NSEC_PER_USEC,
	  100 * IL_NSEC_PER_MSEC, IL_NSEC_PER_MSEC, NULL, "TIME",
	  "CPU time the tail holds the last lock", NULL },
	{ "link-work", 0, IL_OPT_DURATION, O(work_ns), "200us",
	  10 * IL_NSEC_PER_USEC, 100 * IL_NSEC_PER_MSEC, IL_NSEC_PER_MSEC, NULL,
	  "TIME",
	  "CPU time each intermediate owner works once it has the next lock",
	  NULL },
	{ "hog", 0, IL_OPT_DURATION, O(hog_ns), "20ms", IL_NSEC_PER_MSEC,
	  IL_NSEC_PER_SEC, IL_NSEC_PER_MSEC, NULL, "TIME",
	  "how long each hog spins (it stops once the head has its lock)",
	  NULL },
	{ "classes", 0, IL_OPT_STRING, O(classes), "fifo", 0, 0, 0, NULL,
	  "LIST",
	  "class of each member, head first, comma-separated: fifo, rr, "
	  "deadline or other; one class applies to all",
	  NULL },
	{ .name = NULL },
};
#undef O

static uint64_t g_tick_ns; /* 1/HZ of the kernel under test */

static const struct il_opt *const tables[] = { il_common_opts, chain_opts,
					       NULL };

enum cls { C_FIFO, C_RR, C_DEADLINE, C_OTHER };
static const char *const cls_names[] = { "fifo", "rr", "deadline", "other" };

struct member {
	char name[IL_NAME_MAX];
	enum cls cls;
	int prio; /* FIFO/RR priority, or the rank used for hogs */
	int cpu;  /* -1: not pinned (deadline) */
};

struct link_result {
	char owner[IL_NAME_MAX];
	int cpu;
	uint64_t own_ns;
	struct il_hist boost;
};

struct result {
	int protocol;
	int repeat; /* 1.. */
	bool ran;
	enum il_verdict expected;
	struct il_check check;
	struct il_blocking_stats st;
	size_t rounds, late;
	uint64_t steal_ns;
	char placement[256];
	char numa[64];
	int hops;
	struct il_hist calib, blocked, delay, wakeup;
	struct link_result links[MAX_DEPTH];
	int nlinks;
};

/* --classes into one class per member, head first */
static int parse_classes(const struct cfg *cfg, struct member *m, int d,
			 char *err, size_t len)
{
	char buf[256], *save = NULL, *tok;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", cfg->classes);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int c;

		for (c = 0; c < 4; c++)
			if (!strcmp(tok, cls_names[c]))
				break;
		if (c == 4) {
			snprintf(err, len,
				 "--classes: '%s' is not one of fifo, rr, "
				 "deadline, other",
				 tok);
			return -EINVAL;
		}
		if (n == d) {
			snprintf(
				err, len,
				"--classes: %d classes for a chain of depth %d",
				n + 1, d);
			return -EINVAL;
		}
		m[n++].cls = (enum cls)c;
	}
	if (n == 1)
		for (int i = 1; i < d; i++)
			m[i].cls = m[0].cls;
	else if (n != d) {
		snprintf(err, len,
			 "--classes: give one class, or one per member (%d); "
			 "got %d",
			 d, n);
		return -EINVAL;
	}
	return 0;
}

/*
 * Priorities rise from the tail (10) by 10 per member; the head gets 10
 * more than the next, leaving room for the hogs 5 below it.  Members are
 * placed one per CPU in spread order.
 */
static void layout(struct member *m, int d)
{
	int order[IL_MAX_CPUS], n = il_cpu_spread_order(order, IL_MAX_CPUS);

	for (int i = 0; i < d; i++) {
		if (i == 0)
			snprintf(m[i].name, sizeof(m[i].name), "head");
		else if (i == d - 1)
			snprintf(m[i].name, sizeof(m[i].name), "tail");
		else
			snprintf(m[i].name, sizeof(m[i].name), "owner%d", i);
		m[i].prio = 10 + 10 * (d - 1 - i);
		m[i].cpu = m[i].cls == C_DEADLINE || n <= 0 ? -1 : order[i % n];
	}
	m[0].prio += 10;
}

static int hog_prio(const struct member *m)
{
	return m[0].prio - 5;
}

static int class_spec(const struct cfg *cfg, const struct member *mb, char *buf,
		      size_t len)
{
	uint64_t rt = 2 * cfg->cs_ns + 2 * IL_NSEC_PER_MSEC;
	uint64_t period = 10 * rt > 50 * IL_NSEC_PER_MSEC
				  ? 10 * rt
				  : 50 * IL_NSEC_PER_MSEC;

	switch (mb->cls) {
	case C_FIFO:
		return snprintf(buf, len, "fifo:%d", mb->prio);
	case C_RR:
		return snprintf(buf, len, "rr:%d", mb->prio);
	case C_DEADLINE:
		return snprintf(buf, len,
				"deadline:%" PRIu64 "ns/%" PRIu64 "ns/%" PRIu64
				"ns",
				rt, period, period);
	default:
		return snprintf(buf, len, "other:0");
	}
}

/* The scenario as a job file, parsed like any other. */
static int build(struct il_scenario *sc, const struct cfg *cfg,
		 const struct member *m, int d, int protocol, char *err,
		 size_t len)
{
	bool hog_on[IL_MAX_CPUS] = { false };
	char *job = NULL, spec[96];
	size_t jlen = 0;
	FILE *f = open_memstream(&job, &jlen);
	int ret;

	if (!f)
		return -ENOMEM;
	fprintf(f, "[global]\nname = pi-chain\nduration = %" PRIu64 "ns\n",
		cfg->common.duration_ns);
	for (int k = 1; k < d; k++)
		fprintf(f, "[resource R%d]\nprotocol = %s\n", k,
			proto_names[protocol]);
	for (int i = 0; i < d; i++) {
		class_spec(cfg, &m[i], spec, sizeof(spec));
		fprintf(f, "[task %s]\nclass = %s\n", m[i].name, spec);
		if (m[i].cpu >= 0)
			fprintf(f, "cpu = %d\n", m[i].cpu);
		if (i == 0) {
			/* released inside the tail's section */
			fprintf(f,
				"offset = %" PRIu64 "ns\n"
				"body = wait h1, signal go, lock R1, signal "
				"got, "
				"unlock R1\n",
				cfg->cs_ns / 4);
		} else if (i == d - 1) {
			fprintf(f,
				"body = lock R%d, signal h%d, run %" PRIu64
				"ns, unlock R%d\n",
				i, i, cfg->cs_ns, i);
		} else {
			/* released once the next owner holds its lock */
			fprintf(f,
				"activation = event\non = h%d\n"
				"body = lock R%d, signal h%d, lock R%d, run "
				"%" PRIu64 "ns, unlock R%d, unlock R%d\n",
				i + 1, i, i, i + 1, cfg->work_ns, i + 1, i);
		}
	}
	/* one hog per CPU an owner is pinned to */
	for (int k = 1; k < d; k++) {
		if (m[k].cpu < 0 || hog_on[m[k].cpu])
			continue;
		hog_on[m[k].cpu] = true;
		fprintf(f,
			"[task hog%d]\nclass = fifo:%d\ncpu = %d\n"
			"activation = event\non = go\n"
			"body = spin %" PRIu64 "ns until got\n",
			m[k].cpu, hog_prio(m), m[k].cpu, cfg->hog_ns);
	}
	if (fclose(f)) {
		free(job);
		return -ENOMEM;
	}
	ret = il_scenario_parse(job, "pi-chain", sc, err, len);
	free(job);
	return ret;
}

/* --live: the head's waits and each owner's boost as they come */
struct live_ctx {
	struct il_live live;
	char title[96];
	const struct il_scenario *sc;
	int head;
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	struct il_live_row rows[MAX_DEPTH + 2];
	int n = 0;

	memset(rows, 0, sizeof(rows));
	snprintf(rows[n].name, sizeof(rows[n].name), "head blocked");
	rows[n++].h = &er->tasks[lc->head].locks[0]->blocked;
	for (int i = 0; i < lc->sc->ntasks && n < MAX_DEPTH + 2; i++) {
		if (i == lc->head || !er->tasks[i].nlocks)
			continue;
		snprintf(rows[n].name, sizeof(rows[n].name),
			 "%.20s boosted after", er->tasks[i].name);
		rows[n++].h = &er->tasks[i].boost;
	}
	il_live_frame(&lc->live, lc->title, rows, n);
}

static int run_protocol(const struct cfg *cfg, struct member *m, int d,
			int protocol, struct result *res, char *why, size_t len)
{
	struct live_ctx lc;
	struct il_engine_opts eo = { .stop = &demo_stop, .boost_from = "head" };
	struct il_chain_link links[MAX_DEPTH];
	struct il_interferer hogs[MAX_DEPTH];
	struct il_chain_input in = { 0 };
	struct il_sched head_sched;
	struct il_engine_result er;
	struct il_scenario sc;
	struct il_lock_result *lr;
	uint64_t p90 = 0;
	int ret, nh = 0, head;
	char err[256];

	res->protocol = protocol;
	res->expected = protocol == P_NONE ? IL_FAIL : IL_PASS;
	ret = build(&sc, cfg, m, d, protocol, why, len);
	if (ret) {
		il_scenario_free(&sc);
		return -EIO;
	}
	head = il_scenario_task(&sc, "head");
	head_sched = sc.tasks[head].sched;
	ret = il_engine_calibrate(m[0].cpu, &head_sched, 1000,
				  200 * IL_NSEC_PER_USEC, &demo_stop,
				  &res->calib, why, len);
	if (ret == 0 && cfg->common.live) {
		memset(&lc, 0, sizeof(lc));
		il_live_init(&lc.live, stdout, -1);
		snprintf(lc.title, sizeof(lc.title),
			 "pi-chain: depth %d, %s, "
			 "run %d",
			 d, proto_names[protocol], res->repeat);
		lc.sc = &sc;
		lc.head = head;
		eo.progress = live_frame;
		eo.progress_ctx = &lc;
	}
	if (ret == 0)
		ret = il_engine_run(&sc, &eo, &er, why, len);
	if (cfg->common.live)
		il_live_end(&lc.live);
	if (ret) {
		il_scenario_free(&sc);
		return ret;
	}
	lr = er.tasks[head].locks[0];
	/* judged on the scheduler's trace when there is one (attrib.h) */
	if (!il_attribute_run(&sc, &er) && lr->traced)
		memcpy(lr->samples, lr->traced,
		       lr->nsamples * sizeof(*lr->samples));
	res->blocked = lr->blocked;
	res->delay = lr->delay;
	res->wakeup = er.tasks[head].wakeup;
	res->rounds = lr->nsamples;
	res->late = lr->late;
	res->steal_ns = er.steal_ns;
	snprintf(res->placement, sizeof(res->placement), "%s", er.placement);
	snprintf(res->numa, sizeof(res->numa), "%s", er.numa);

	/* links head-side first: link k is lock R(k+1), owned by member k+1 */
	for (int k = 0; k < d - 1; k++) {
		int t = il_scenario_task(&sc, m[k + 1].name);
		int r = k; /* R(k+1) was added k-th */
		struct link_result *l = &res->links[k];

		snprintf(l->owner, sizeof(l->owner), "%s", m[k + 1].name);
		l->cpu = m[k + 1].cpu;
		l->own_ns = er.tasks[t].hold_max[r];
		l->boost = er.tasks[t].boost;
		links[k].own_ns = l->own_ns;
		links[k].cpu = l->cpu >= 0 ? l->cpu : 0;
		/* a lock handed over to another CPU costs a remote wakeup */
		if (m[k].cpu != m[k + 1].cpu || m[k].cpu < 0)
			res->hops++;
	}
	res->nlinks = d - 1;
	for (int i = 0; i < sc.ntasks; i++) {
		if (strncmp(sc.tasks[i].name, "hog", 3))
			continue;
		hogs[nh].cpu = er.tasks[i].cpu;
		hogs[nh].prio = sc.tasks[i].sched.prio;
		hogs[nh].wcet_ns = cfg->hog_ns;
		hogs[nh].period_ns = 0;
		nh++;
	}
	/*
	 * Noise: the head's idle wakeup latency (p90 of 1000) once for its
	 * own release and once per lock handed across CPUs,
	 */
	if (il_hist_percentile_upper(&res->calib, 0.90, &p90))
		p90 = res->calib.max;
	in.links = links;
	in.nlinks = (size_t)(d - 1);
	in.head_prio = m[0].cls == C_DEADLINE ? 100 : m[0].prio;
	in.interferers = hogs;
	in.ninterferers = (size_t)nh;
	in.horizon_ns = sc.g.timeout_ns;
	/*
	 * and, for each owner on another CPU than the lock it waits for,
	 * one tick: boosting it there must preempt a hog on that CPU, which
	 * the kernel may only do at that CPU's next tick (seen on this kind
	 * of VM: an owner first ran boosted up to 3.8 ms after the request,
	 * in about 1 of 400 rounds, always under one 4 ms tick)
	 */
	in.noise_ns = (uint64_t)(res->hops + 1) * p90 +
		      (uint64_t)res->hops * g_tick_ns;
	in.min_samples = 20;
	in.outlier_ns = demo_outlier_ns(&res->calib, UINT64_MAX);
	if (m[0].cls == C_OTHER) {
		res->check.verdict = IL_UNDECIDED;
		res->check.bound_name = "none";
		snprintf(res->check.evidence, sizeof(res->check.evidence),
			 "bound does not apply: a fair-class head cannot "
			 "boost its owners above real-time work");
		res->expected = protocol == P_NONE ? IL_FAIL : IL_UNDECIDED;
		/* fails closed: no verdict (NONE), why in the evidence */
		if (protocol == P_NONE &&
		    il_check_chain(&in, lr->samples, lr->nsamples, &res->check))
			fprintf(stderr, "pi-chain: %s\n", res->check.evidence);
	} else {
		if (il_check_chain(&in, lr->samples, lr->nsamples, &res->check))
			fprintf(stderr, "pi-chain: %s\n", res->check.evidence);
		if (il_chain_bound_applies(&in, err, sizeof(err)) != 1 &&
		    protocol != P_NONE)
			res->expected = IL_UNDECIDED;
	}
	{
		struct il_bound_input bi = { .bound_ns = res->check.bound_ns,
					     .noise_ns = in.noise_ns,
					     .min_samples = 20,
					     .outlier_ns = in.outlier_ns };

		il_blocking_stats(&bi, lr->samples, lr->nsamples, &res->st);
	}
	if (res->check.verdict != IL_NONE)
		il_attr_append(res->check.evidence, sizeof(res->check.evidence),
			       &lr->attr, er.trace_note, "head",
			       il_attr_kprio(&sc.tasks[head].sched));
	if (er.hung)
		snprintf(res->check.evidence + strlen(res->check.evidence),
			 sizeof(res->check.evidence) -
				 strlen(res->check.evidence),
			 "; the run was stopped: %s", er.hung_why);
	res->ran = true;
	il_engine_result_free(&er);
	il_scenario_free(&sc);
	return 0;
}

static void print_text(FILE *f, const struct cfg *cfg, struct result *res,
		       int nres, const char *pfx)
{
	char a[24], b[24], c[24], d[24], x[24], tag[16], indent[16];

	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];
		struct il_table t;

		if (!r->ran)
			continue;
		fprintf(f, "%s%s%s: %s, expected %s: %s\n", pfx,
			proto_names[r->protocol],
			demo_run_tag(cfg->common.repeat, r->repeat, tag,
				     sizeof(tag)),
			il_verdict_name(r->check.verdict),
			il_verdict_name(r->expected), r->check.evidence);
		if (cfg->common.quiet)
			continue;
		il_format_stat(a, sizeof(a), &r->blocked, 0.5);
		il_format_stat(b, sizeof(b), &r->blocked, 0.99);
		il_format_stat(c, sizeof(c), &r->blocked, 0.999);
		il_format_stat(d, sizeof(d), &r->blocked, -1);
		il_format_duration(x, sizeof(x), r->check.bound_ns);
		fprintf(f,
			"%s  head blocked p50 %s, p99 %s, p999 %s, max %s over "
			"%zu rounds (%zu with a late owner not judged); "
			"bound %s\n",
			pfx, a, b, c, d, r->rounds, r->late, x);
		il_table_init(&t);
		il_table_col(&t, "link", false);
		il_table_col(&t, "owner", false);
		il_table_col(&t, "cpu", true);
		il_table_col(&t, "own work", true);
		il_table_col(&t, "ran boosted after: p50", true);
		il_table_col(&t, "max", true);
		il_table_col(&t, "times", true);
		for (int k = 0; k < r->nlinks; k++) {
			struct link_result *l = &r->links[k];

			il_format_duration(a, sizeof(a), l->own_ns);
			il_format_stat(b, sizeof(b), &l->boost, 0.5);
			il_format_stat(c, sizeof(c), &l->boost, -1);
			il_table_cell(&t, "R%d", k + 1);
			il_table_cell(&t, "%s", l->owner);
			if (l->cpu >= 0)
				il_table_cell(&t, "%d", l->cpu);
			else
				il_table_cell(&t, "any");
			il_table_cell(&t, "%s", a);
			il_table_cell(&t, "%s", b);
			il_table_cell(&t, "%s", c);
			il_table_cell(&t, "%" PRIu64, l->boost.count);
		}
		snprintf(indent, sizeof(indent), "%s  ", pfx);
		il_table_print_prefixed(&t, f, indent);
		il_table_free(&t);
	}
}

static void write_json(struct il_json *j, const struct cfg *cfg,
		       const struct member *m, int d, struct result *res,
		       int nres)
{
	il_json_begin_object(j, "scenario");
	il_json_int(j, "depth", d);
	il_json_uint(j, "cs_ns", cfg->cs_ns);
	il_json_uint(j, "link_work_ns", cfg->work_ns);
	il_json_uint(j, "hog_ns", cfg->hog_ns);
	il_json_int(j, "hog_prio", hog_prio(m));
	il_json_uint(j, "duration_ns", cfg->common.duration_ns);
	il_json_begin_array(j, "members");
	for (int i = 0; i < d; i++) {
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
	il_json_bool(j, "interrupted", demo_signal != 0);
	il_json_begin_array(j, "runs");
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];

		if (!r->ran)
			continue;
		il_json_begin_object(j, NULL);
		il_json_str(j, "configuration", proto_names[r->protocol]);
		il_json_str(j, "protocol", proto_names[r->protocol]);
		il_json_int(j, "repeat", r->repeat);
		il_json_check(j, &r->check);
		il_json_str(j, "expected", il_verdict_name(r->expected));
		il_json_uint(j, "rounds", r->rounds);
		il_json_uint(j, "rounds_late_owner", r->late);
		demo_json_blocking(j, &r->st);
		il_json_uint(j, "cross_cpu_handoffs", (uint64_t)r->hops);
		il_json_uint(j, "steal_ns", r->steal_ns);
		il_json_str(j, "placement", r->placement);
		il_json_str(j, "numa", r->numa);
		il_json_hist(j, "blocked_ns", &r->blocked);
		il_json_hist(j, "release_to_lock_ns", &r->delay);
		il_json_hist(j, "wakeup_ns", &r->wakeup);
		il_json_hist(j, "calibration_wakeup_ns", &r->calib);
		il_json_begin_array(j, "links");
		for (int k = 0; k < r->nlinks; k++) {
			il_json_begin_object(j, NULL);
			il_json_str(j, "owner", r->links[k].owner);
			il_json_uint(j, "own_work_ns", r->links[k].own_ns);
			il_json_hist(j, "ran_boosted_after_ns",
				     &r->links[k].boost);
			il_json_end_object(j);
		}
		il_json_end_array(j);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/* what the JSON body needs, for demo_write_json */
struct json_ctx {
	const struct cfg *cfg;
	const struct member *m;
	int d;
	struct result *res;
	int nres;
};

static void json_body(struct il_json *j, void *arg)
{
	struct json_ctx *c = arg;

	write_json(j, c->cfg, c->m, c->d, c->res, c->nres);
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"A chain of mutexes across CPUs with a hog on every owner's "
		"CPU, under no protocol and priority inheritance, judged "
		"against the transitive inheritance bound (or the remote-"
		"blocking fixed point).  Needs CAP_SYS_NICE.  Exit status: 0 "
		"every verdict as expected, 1 otherwise, 2 bad usage, 77 "
		"cannot "
		"run here, 99 broken setup, 128+N interrupted by signal N.";
	struct il_run_info ri = { .program = "pi-chain",
				  .argc = argc,
				  .argv = argv };
	struct member m[MAX_DEPTH];
	struct result *res;
	struct il_sysinfo si;
	struct json_ctx jc;
	struct cfg cfg;
	char err[512], tag[16];
	int ret, d, nres = 0, rc = 0, first, last, pos;

	memset(&cfg, 0, sizeof(cfg));
	memset(m, 0, sizeof(m));
	ret = demo_args(argc, argv, tables, &cfg, "pi-chain", "[OPTIONS]",
			summary, 0, &pos);
	if (ret >= 0)
		return ret;
	d = (int)cfg.depth;
	if (parse_classes(&cfg, m, d, err, sizeof(err))) {
		fprintf(stderr, "pi-chain: %s\n", err);
		return 2;
	}
	layout(m, d);
	ret = il_sched_probe_rt(m[0].prio, err, sizeof(err));
	if (ret)
		return demo_skip(&cfg.common, "pi-chain", err);
	if (il_lock_memory(err, sizeof(err)) && !cfg.common.quiet)
		fprintf(stderr, "pi-chain: note: %s\n", err);
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	g_tick_ns = demo_tick_ns(&si);
	ri.sys = &si;
	demo_signals();

	if (!cfg.common.quiet && !cfg.common.tap) {
		printf("pi-chain: depth %d:", d);
		for (int i = 0; i < d; i++) {
			char cpu[16];

			if (m[i].cpu >= 0)
				snprintf(cpu, sizeof(cpu), "cpu %d", m[i].cpu);
			else
				snprintf(cpu, sizeof(cpu), "any cpu");
			printf("%s %s (%s %d, %s)", i ? " ->" : "", m[i].name,
			       cls_names[m[i].cls], m[i].prio, cpu);
		}
		printf("; hogs at fifo %d on the owners' CPUs\n", hog_prio(m));
		demo_kernel_line(stdout, &si);
		fflush(stdout);
	}
	first = cfg.protocol == P_ALL ? P_NONE : cfg.protocol;
	last = cfg.protocol == P_ALL ? P_INHERIT : cfg.protocol;
	res = calloc((size_t)(2 * cfg.common.repeat), sizeof(*res));
	if (!res) {
		fprintf(stderr, "pi-chain: out of memory\n");
		return 99;
	}
	for (int k = 0;
	     k < cfg.common.repeat * (last - first + 1) && !demo_signal; k++) {
		int p = first + k % (last - first + 1);

		res[nres].repeat = 1 + k / (last - first + 1);
		ret = run_protocol(&cfg, m, d, p, &res[nres], err, sizeof(err));
		if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
			rc = demo_skip(&cfg.common, "pi-chain", err);
			break;
		}
		if (ret) {
			fprintf(stderr, "pi-chain: %s\n", err);
			rc = 99;
			break;
		}
		if (res[nres].check.verdict != res[nres].expected)
			rc = 1;
		nres++;
	}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77) {
		printf("TAP version 13\n1..%d\n", nres);
		print_text(stdout, &cfg, res, nres, "# ");
		for (int i = 0; i < nres; i++) {
			char desc[160];

			snprintf(desc, sizeof(desc),
				 "depth %d, %s%s: %s (expected %s)", d,
				 proto_names[res[i].protocol],
				 demo_run_tag(cfg.common.repeat, res[i].repeat,
					      tag, sizeof(tag)),
				 il_verdict_name(res[i].check.verdict),
				 il_verdict_name(res[i].expected));
			il_tap_result(stdout,
				      res[i].check.verdict == res[i].expected,
				      i + 1, desc, NULL);
		}
	} else if (rc != 77) {
		if (nres && !cfg.common.quiet)
			printf("placement: %s (%s)\n", res[0].placement,
			       res[0].numa);
		print_text(stdout, &cfg, res, nres, "");
	}
	if (demo_signal)
		fprintf(stderr,
			"pi-chain: interrupted by signal %d; results "
			"so far written\n",
			(int)demo_signal);
	if (cfg.common.json && rc != 77) {
		jc = (struct json_ctx){ &cfg, m, d, res, nres };
		rc = demo_write_json("pi-chain", cfg.common.json, &ri,
				     json_body, &jc, rc);
	}
	free(res);
	return rc;
}
