// SPDX-License-Identifier: MIT
/*
 * invlab-run: run any job file and judge it.
 *
 *   sudo invlab-run demos/jobs/pi-classic.job
 *   sudo invlab-run demos/jobs/pi-classic.job --set M.protocol=none \
 *        --set expect=FAIL --json out.json
 *
 * The job file describes tasks, resources and bodies (docs/job-files.md);
 * the engine runs it; the validators the job names in `validate` judge
 * it ("auto" picks them from the scenario's shape):
 *
 *   pi     every real-time task that takes locks is judged against the
 *          one-CPU priority-inheritance bound over the critical sections
 *          of the lower-priority tasks that use its locks (the immediate
 *          ceiling bound when all its locks are `protect`);
 *   chain  the highest-priority task that takes a lock is the head of a
 *          chain of owners; judged against the transitive inheritance
 *          bound, or the remote-blocking fixed point when a task above
 *          the head shares an owner's CPU;
 *   none   measure only.
 *
 * Exit: 0 when every verdict is the job's `expect` (PASS by default; an
 * UNDECIDED where PASS is expected counts, reported as undecided), 1
 * otherwise, 2 for a bad job file or usage (FILE:LINE: message), 77 when
 * it cannot run here (reason printed), 99 broken setup, 128+N interrupted.
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

#include <invlab/chain.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/live.h>
#include <invlab/mbwi.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/validate.h>
#include <invlab/verdict.h>

#include "demo.h"
#include "mbwi-common.h"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	struct il_strlist set;
	int print_job;
	int partition;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt run_opts[] = {
	{ "set", 's', IL_OPT_LIST, O(set), NULL, 0, 0, 0, NULL,
	  "NAME.KEY=VALUE",
	  "change one key of the job before it runs (NAME is global, a task "
	  "or a resource; may be repeated)",
	  NULL },
	{ "print-job", 0, IL_OPT_FLAG, O(print_job), NULL, 0, 0, 0, NULL, NULL,
	  "print the job as it will run (after --set and --duration) and "
	  "exit",
	  NULL },
	{ "partition", 0, IL_OPT_FLAG, O(partition), NULL, 0, 0, 0, NULL, NULL,
	  "run SCHED_DEADLINE tasks partitioned: each in a cpuset partition "
	  "of one CPU (its `partition` key, or the least loaded), created "
	  "for the run and removed after it (docs/m-bwi.md)",
	  NULL },
	{ .name = NULL },
};
#undef O

static uint64_t g_tick_ns; /* 1/HZ of the kernel under test */

static const struct il_opt *const tables[] = { il_common_opts, run_opts, NULL };

#define MAX_CHECKS (2 * IL_MAX_TASKS)

#define check demo_check

static bool has_validator(const struct il_scenario *sc, const char *name)
{
	const char *v = sc->g.validate;
	size_t n = strlen(name);

	for (const char *p = v; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!strncmp(p, name, n) &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return true;
		p += strcspn(p, ",");
	}
	return false;
}

static int rank(const struct il_sched *s)
{
	if (s->policy == IL_SCHED_DEADLINE)
		return 200;
	if (s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR)
		return 100 + s->prio;
	return 0;
}

static int first_lock(const struct il_task *t)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK)
			return t->phases[p].res;
	return -1;
}

/* the noise allowance: p90 idle wakeup latency of the task's class on
 * its CPU */
static int noise_for(const struct il_task_result *r, const struct il_task *t,
		     uint64_t *eps, struct il_hist *h, char *why, size_t len)
{
	int ret;

	ret = il_engine_calibrate(r->cpu, &t->sched, 1000,
				  200 * IL_NSEC_PER_USEC, &demo_stop, h, why,
				  len);
	if (ret)
		return ret;
	if (il_hist_percentile_upper(h, 0.90, eps))
		*eps = h->count ? h->max : 0;
	return 0;
}

/* `pi`: one check per real-time task that takes locks */
static int check_pi(const struct il_scenario *sc,
		    const struct il_engine_result *er, struct check *out,
		    int *n, char *why, size_t len)
{
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		const struct il_task_result *r = &er->tasks[i];
		uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES] = { 0 };
		int ceil[IL_MAX_RESOURCES] = { 0 }, nl = 0, lower = 0;
		int locks[IL_MAX_RESOURCES];
		bool all_protect = true;
		struct il_bound_input in = { 0 };
		static struct il_hist calib;
		uint64_t eps = 0;
		int ret;

		if (!r->nlocks || !rank(&t->sched))
			continue;
		/* beta_i: the locks it requests */
		for (int p = 0; p < t->nphases; p++) {
			int res = t->phases[p].res, seen = 0;

			if (t->phases[p].kind != IL_PH_LOCK)
				continue;
			for (int k = 0; k < nl; k++)
				seen |= locks[k] == res;
			if (!seen)
				locks[nl++] = res;
		}
		for (int k = 0; k < nl; k++) {
			const struct il_resource *rs = &sc->res[locks[k]];

			all_protect &= rs->k.protocol == IL_PROTO_PROTECT;
			ceil[k] = rs->k.ceiling ? (int)rs->k.ceiling : 99;
		}
		/* L[j][l]: longest section of each lower task on each lock */
		for (int j = 0; j < sc->ntasks; j++) {
			uint64_t any = 0;

			if (j == i ||
			    rank(&sc->tasks[j].sched) >= rank(&t->sched))
				continue;
			for (int k = 0; k < nl; k++) {
				L[lower * nl + k] =
					er->tasks[j].hold_max[locks[k]];
				any |= L[lower * nl + k];
			}
			if (any)
				lower++;
		}
		/* no lower-priority task shares a lock with it: nothing to
		 * bound */
		if (!lower)
			continue;
		ret = noise_for(r, t, &eps, &calib, why, len);
		if (ret)
			return ret;
		if (all_protect) {
			in.bound_name = "immediate priority ceiling (one CPU)";
			in.bound_ns =
				il_ceiling_bound(L, ceil, t->sched.prio,
						 (size_t)lower, (size_t)nl);
		} else {
			in.bound_name = "priority inheritance (one CPU)";
			in.bound_ns = il_pi_bound(L, (size_t)lower, (size_t)nl);
		}
		in.noise_ns = eps;
		in.min_samples = 20;
		in.outlier_ns = demo_outlier_ns(&calib, in.bound_ns);
		out[*n].validator = "pi";
		snprintf(out[*n].task, sizeof(out[*n].task), "%s", t->name);
		il_check_blocking(&in, r->locks[0]->samples,
				  r->locks[0]->nsamples, &out[*n].c);
		(*n)++;
	}
	return 0;
}

/*
 * `chain`: the highest-priority task that takes a lock is the head; each
 * lock's owner is its other, lower-priority user; an owner that requests
 * another lock while holding one extends the chain.
 */
static int check_chain(const struct il_scenario *sc,
		       const struct il_engine_result *er, struct check *out,
		       int *n, char *why, size_t len)
{
	struct il_chain_link links[IL_MAX_TASKS];
	struct il_interferer other[IL_MAX_TASKS];
	struct il_chain_input in = { 0 };
	uint32_t in_chain = 0;
	int head = -1, nlinks = 0, nother = 0, res, hops = 0, prev;
	static struct il_hist calib;
	uint64_t eps = 0;
	struct check *c = &out[*n];
	int ret;

	for (int i = 0; i < sc->ntasks; i++)
		if (first_lock(&sc->tasks[i]) >= 0 &&
		    (head < 0 ||
		     rank(&sc->tasks[i].sched) > rank(&sc->tasks[head].sched)))
			head = i;
	c->validator = "chain";
	if (head < 0) {
		snprintf(c->task, sizeof(c->task), "-");
		c->c.verdict = IL_UNDECIDED;
		snprintf(c->c.evidence, sizeof(c->c.evidence),
			 "bound does not apply: no task takes a lock");
		(*n)++;
		return 0;
	}
	snprintf(c->task, sizeof(c->task), "%s", sc->tasks[head].name);
	in_chain = 1u << head;
	prev = head;
	res = first_lock(&sc->tasks[head]);
	while (res >= 0 && nlinks < IL_MAX_TASKS) {
		int owner = -1, next = -1;
		bool holds = false;

		/* the owner: the one other task below the head that locks it */
		for (int j = 0; j < sc->ntasks; j++) {
			if ((in_chain & (1u << j)) ||
			    rank(&sc->tasks[j].sched) >=
				    rank(&sc->tasks[head].sched))
				continue;
			for (int p = 0; p < sc->tasks[j].nphases; p++)
				if (sc->tasks[j].phases[p].kind == IL_PH_LOCK &&
				    sc->tasks[j].phases[p].res == res) {
					owner = owner == -1 ? j : -2;
					break;
				}
		}
		if (owner < 0) {
			c->c.verdict = IL_UNDECIDED;
			snprintf(c->c.evidence, sizeof(c->c.evidence),
				 "bound does not apply: resource '%s' has %s "
				 "owner below the head",
				 sc->res[res].name,
				 owner == -1 ? "no" : "more than one");
			(*n)++;
			return 0;
		}
		/* the next link: what the owner requests while holding res */
		for (int p = 0; p < sc->tasks[owner].nphases && next < 0; p++) {
			const struct il_phase *ph = &sc->tasks[owner].phases[p];

			if (ph->kind == IL_PH_LOCK && ph->res == res)
				holds = true;
			else if (ph->kind == IL_PH_UNLOCK && ph->res == res)
				holds = false;
			else if (holds && ph->kind == IL_PH_LOCK)
				next = ph->res;
		}
		in_chain |= 1u << owner;
		links[nlinks].own_ns = er->tasks[owner].hold_max[res];
		links[nlinks].cpu =
			er->tasks[owner].cpu >= 0 ? er->tasks[owner].cpu : 0;
		if (er->tasks[owner].cpu < 0 ||
		    er->tasks[owner].cpu != er->tasks[prev].cpu)
			hops++;
		nlinks++;
		prev = owner;
		res = next;
	}
	/* every other task pinned to one CPU may interfere; spinning and
	 * running tasks are taken as hogs that never yield */
	for (int j = 0; j < sc->ntasks; j++) {
		const struct il_task *t = &sc->tasks[j];
		uint64_t work = 0;

		if ((in_chain & (1u << j)) || er->tasks[j].cpu < 0)
			continue;
		for (int p = 0; p < t->nphases; p++)
			if (t->phases[p].kind == IL_PH_RUN ||
			    t->phases[p].kind == IL_PH_SPIN)
				work += t->phases[p].ns;
		other[nother].cpu = er->tasks[j].cpu;
		other[nother].prio = rank(&t->sched) - 100;
		other[nother].wcet_ns = work;
		other[nother].period_ns = 0;
		nother++;
	}
	ret = noise_for(&er->tasks[head], &sc->tasks[head], &eps, &calib, why,
			len);
	if (ret)
		return ret;
	in.links = links;
	in.nlinks = (size_t)nlinks;
	in.head_prio = rank(&sc->tasks[head].sched) - 100;
	in.interferers = other;
	in.ninterferers = (size_t)nother;
	in.horizon_ns = sc->g.timeout_ns;
	/* one wakeup for the head, one per lock handed across CPUs, and a
	 * tick per owner boosted on another CPU (see pi-chain.c) */
	in.noise_ns = (uint64_t)(hops + 1) * eps + (uint64_t)hops * g_tick_ns;
	in.min_samples = 20;
	in.outlier_ns = demo_outlier_ns(&calib, UINT64_MAX);
	il_check_chain(&in, er->tasks[head].locks[0]->samples,
		       er->tasks[head].locks[0]->nsamples, &c->c);
	(*n)++;
	return 0;
}

/* chain-shaped: some owner below the head requests a lock while holding
 * the one the head wants */
static bool looks_like_chain(const struct il_scenario *sc)
{
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		uint32_t held = 0;

		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];

			if (ph->kind == IL_PH_LOCK) {
				if (held)
					return true;
				held |= 1u << ph->res;
			} else if (ph->kind == IL_PH_UNLOCK) {
				held &= ~(1u << ph->res);
			}
		}
	}
	return false;
}

static void print_tasks_rt(FILE *f, const struct il_scenario *sc,
			   const struct il_engine_result *er, const char *pfx)
{
	struct il_table t;
	char a[24], b[24], c[24], d[24], e[24];

	il_table_init(&t);
	il_table_col(&t, "task", false);
	il_table_col(&t, "placement", false);
	il_table_col(&t, "jobs", true);
	il_table_col(&t, "wakeup p99", true);
	il_table_col(&t, "response p99", true);
	il_table_col(&t, "lock", false);
	il_table_col(&t, "blocked p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "max", true);
	for (int i = 0; i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];
		int rows = r->nlocks ? r->nlocks : 1;

		for (int l = 0; l < rows; l++) {
			il_format_stat(a, sizeof(a), &r->wakeup, 0.99);
			il_format_stat(b, sizeof(b), &r->response, 0.99);
			il_table_cell(&t, "%s", l ? "" : r->name);
			il_table_cell(&t, "%s", l ? "" : r->placement);
			if (l)
				il_table_cell(&t, "%s", "");
			else
				il_table_cell(&t, "%" PRIu64, r->jobs);
			il_table_cell(&t, "%s", l ? "" : a);
			il_table_cell(&t, "%s", l ? "" : b);
			if (!r->nlocks) {
				for (int k = 0; k < 4; k++)
					il_table_cell(&t, "%s", "");
				continue;
			}
			il_format_stat(c, sizeof(c), &r->locks[l]->blocked,
				       0.5);
			il_format_stat(d, sizeof(d), &r->locks[l]->blocked,
				       0.99);
			il_format_stat(e, sizeof(e), &r->locks[l]->blocked, -1);
			il_table_cell(&t, "%s", sc->res[r->locks[l]->res].name);
			il_table_cell(&t, "%s", c);
			il_table_cell(&t, "%s", d);
			il_table_cell(&t, "%s", e);
		}
	}
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
}

static void print_tasks(FILE *f, const struct il_scenario *sc,
			const struct il_engine_result *er, const char *pfx)
{
	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].sched.policy == IL_SCHED_DEADLINE) {
			demo_print_dl_tasks(f, sc, er, pfx);
			return;
		}
	print_tasks_rt(f, sc, er, pfx);
}

static void write_job(struct il_json *j, const struct il_scenario *sc,
		      int64_t repeat)
{
	char *job = NULL;
	size_t jlen = 0;
	FILE *m = open_memstream(&job, &jlen);

	if (m) {
		il_scenario_write(sc, m);
		fclose(m);
	}
	il_json_begin_object(j, "job");
	il_json_str(j, "file", sc->file);
	il_json_str(j, "name", sc->g.name);
	il_json_str(j, "description", sc->g.description);
	il_json_str(j, "text", job);
	il_json_int(j, "repeat", repeat);
	il_json_end_object(j);
	free(job);
}

static void write_run(struct il_json *j, const struct il_scenario *sc,
		      const struct il_engine_result *er, const struct check *ck,
		      int nck, int repeat)
{
	il_json_begin_object(j, NULL);
	il_json_str(j, "configuration", sc->g.name);
	il_json_int(j, "repeat", repeat);
	il_json_str(j, "expected",
		    il_verdict_name((enum il_verdict)(IL_PASS + sc->g.expect)));
	il_json_uint(j, "rounds", er->rounds);
	il_json_uint(j, "elapsed_ns", er->elapsed_ns);
	il_json_uint(j, "steal_ns", er->steal_ns);
	il_json_str(j, "placement", er->placement);
	il_json_str(j, "partitions", er->partitions);
	il_json_str(j, "numa", er->numa);
	il_json_str(j, "lock_placement", er->lock_placement);
	il_json_bool(j, "hung", er->hung);
	il_json_str(j, "hung_reason", er->hung ? er->hung_why : NULL);
	demo_json_checks(j, ck, nck);
	demo_json_tasks(j, sc, er);
	il_json_end_object(j);
}

/* --live: every task's lock waits (or wakeups) as they come */
struct live_ctx {
	struct il_live live;
	char title[96];
	const struct il_scenario *sc;
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	struct il_live_row rows[IL_LIVE_MAX_ROWS];
	int n = 0;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < er->ntasks && n < IL_LIVE_MAX_ROWS; i++) {
		const struct il_task_result *r = &er->tasks[i];

		if (!r->nlocks) {
			snprintf(rows[n].name, sizeof(rows[n].name),
				 "%.30s wakeup", r->name);
			rows[n++].h = &r->wakeup;
			continue;
		}
		for (int l = 0; l < r->nlocks && n < IL_LIVE_MAX_ROWS; l++) {
			snprintf(rows[n].name, sizeof(rows[n].name),
				 "%.20s blocked on %.10s", r->name,
				 lc->sc->res[r->locks[l]->res].name);
			rows[n++].h = &r->locks[l]->blocked;
		}
	}
	il_live_frame(&lc->live, lc->title, rows, n);
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"Run a job file (docs/job-files.md) on the live kernel and "
		"judge "
		"it with the validators it names.  Exit status: 0 every "
		"verdict "
		"as the job expects, 1 otherwise, 2 bad job file or usage, 77 "
		"cannot run here, 99 broken setup, 128+N interrupted.";
	struct il_run_info ri = { .program = "invlab-run",
				  .argc = argc,
				  .argv = argv };
	struct il_engine_opts eo = { .stop = &demo_stop };
	struct check ck[MAX_CHECKS + 1];
	struct il_engine_result er;
	struct il_scenario sc;
	struct il_sysinfo si;
	struct cfg cfg;
	char err[512];
	int ret, nck = 0, rc = 0, ntap = 0, pos;
	bool want_pi, want_chain, want_mbwi, json_open = false;
	const char *idle_task;
	struct il_afile af;
	struct il_json j;

	memset(&cfg, 0, sizeof(cfg));
	ret = demo_args(argc, argv, tables, &cfg, "invlab-run",
			"JOBFILE [OPTIONS]", summary, 1, &pos);
	if (ret >= 0)
		return ret;
	if (pos >= argc) {
		fprintf(stderr, "invlab-run: which job file? (e.g. "
				"demos/jobs/pi-classic.job)\nTry 'invlab-run "
				"--help'.\n");
		return 2;
	}
	ret = pos;
	ret = il_scenario_load(argv[ret], &sc, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-run: %s\n", err);
		il_scenario_free(&sc);
		return 2;
	}
	for (int i = 0; i < cfg.set.n; i++) {
		if (il_scenario_set(&sc, cfg.set.v[i], err, sizeof(err))) {
			fprintf(stderr, "invlab-run: %s\n", err);
			il_scenario_free(&sc);
			return 2;
		}
	}
	/* --duration on the command line wins over the job's; the table's
	 * default must not, so look for the option itself */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--duration", 10) ||
		    (!strncmp(argv[i], "-d", 2) && argv[i][1] != '-'))
			sc.g.duration_ns = cfg.common.duration_ns;
	if (cfg.print_job) {
		il_scenario_write(&sc, stdout);
		il_scenario_free(&sc);
		return 0;
	}
	eo.partition = cfg.partition;
	want_pi = has_validator(&sc, "pi");
	want_mbwi = has_validator(&sc, "mbwi");
	want_chain = has_validator(&sc, "chain");
	if (has_validator(&sc, "auto")) {
		want_chain = looks_like_chain(&sc);
		want_pi = !want_chain;
	}
	for (const char *p = sc.g.validate; *p;) {
		char name[IL_NAME_MAX];
		size_t n;

		while (*p == ' ' || *p == ',')
			p++;
		n = strcspn(p, ", ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n && strcmp(name, "pi") && strcmp(name, "chain") &&
		    strcmp(name, "mbwi") && strcmp(name, "none") &&
		    strcmp(name, "auto")) {
			fprintf(stderr,
				"invlab-run: %s: validate: unknown validator "
				"'%s' (pi, chain, mbwi, none or auto)\n",
				sc.file, name);
			il_scenario_free(&sc);
			return 2;
		}
		p += n;
	}

	for (int i = 0; i < sc.ntasks; i++) {
		int r = rank(&sc.tasks[i].sched);

		if (r && (ret = il_sched_probe_rt(1, err, sizeof(err)))) {
			il_scenario_free(&sc);
			return demo_skip(&cfg.common, "invlab-run", err);
		}
	}
	if (il_lock_memory(err, sizeof(err)) && !cfg.common.quiet)
		fprintf(stderr, "invlab-run: note: %s\n", err);
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	g_tick_ns = demo_tick_ns(&si);
	ri.sys = &si;
	demo_signals();

	if (!cfg.common.quiet && !cfg.common.tap) {
		char d[24];

		il_format_duration(d, sizeof(d), sc.g.duration_ns);
		printf("invlab-run: %s (%s): %d tasks, %d resources, %s; "
		       "validate = %s\n",
		       sc.g.name, sc.file, sc.ntasks, sc.nres, d,
		       sc.g.validate);
		if (sc.g.description)
			printf("  %s\n", sc.g.description);
		demo_kernel_line(stdout, &si);
		fflush(stdout);
	}
	if (cfg.common.json) {
		if (il_afile_open(&af, cfg.common.json)) {
			fprintf(stderr,
				"invlab-run: --json: cannot create "
				"'%s'\n",
				cfg.common.json);
			il_scenario_free(&sc);
			return 2;
		}
		json_open = true;
		il_json_init(&j, af.f);
		il_report_begin(&j, &ri);
		write_job(&j, &sc, cfg.common.repeat);
		il_json_begin_array(&j, "runs");
	}
	if (cfg.common.tap)
		printf("TAP version 13\n");
	for (int rep = 1; rep <= cfg.common.repeat && !demo_signal; rep++) {
		struct live_ctx lc;
		char tag[16] = "";

		if (cfg.common.repeat > 1)
			snprintf(tag, sizeof(tag), " #%d", rep);
		if (cfg.common.live) {
			memset(&lc, 0, sizeof(lc));
			il_live_init(&lc.live, stdout, -1);
			snprintf(lc.title, sizeof(lc.title), "invlab-run: %s%s",
				 sc.g.name, tag);
			lc.sc = &sc;
			eo.progress = live_frame;
			eo.progress_ctx = &lc;
		}
		ret = il_engine_run(&sc, &eo, &er, err, sizeof(err));
		if (cfg.common.live)
			il_live_end(&lc.live);
		if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
			rc = demo_skip(&cfg.common, "invlab-run", err);
			break;
		}
		if (ret) {
			fprintf(stderr, "invlab-run: %s\n",
				err[0] ? err : strerror(-ret));
			rc = 99;
			break;
		}
		nck = 0;
		memset(ck, 0, sizeof(ck));
		if (want_pi)
			ret = check_pi(&sc, &er, ck, &nck, err, sizeof(err));
		if (!ret && want_chain)
			ret = check_chain(&sc, &er, ck, &nck, err, sizeof(err));
		if (!ret && want_mbwi)
			ret = demo_check_mbwi(&sc, &er, &si, NULL, &demo_stop,
					      ck, &nck, MAX_CHECKS, err,
					      sizeof(err));
		/* a check without its own expectation takes the job's */
		for (int i = 0; i < nck; i++)
			if (!ck[i].has_expected)
				ck[i].expected = (enum il_verdict)(IL_PASS +
								   sc.g.expect);
		if (ret) {
			fprintf(stderr, "invlab-run: calibration: %s\n", err);
			rc = 99;
		}
		for (int i = 0; i < nck; i++)
			if (!demo_as_expected(ck[i].c.verdict, ck[i].expected,
					      NULL))
				rc = rc ? rc : 1;
		/* measure-only jobs still have to run: every task at least one
		 * job, and no wait past the timeout */
		idle_task = NULL;
		for (int i = 0; i < er.ntasks; i++)
			if (!er.tasks[i].jobs && !idle_task)
				idle_task = er.tasks[i].name;
		if (!nck && (idle_task || er.hung))
			rc = rc ? rc : 1;
		if (er.hung)
			fprintf(stderr, "invlab-run: the run was stopped: %s\n",
				er.hung_why);
		if (cfg.common.tap) {
			print_tasks(stdout, &sc, &er, "# ");
			demo_print_checks(stdout, ck, nck, sc.g.name, tag, true,
					  &ntap);
			if (!nck)
				printf("%s %d - %s%s measured only (validate = "
				       "%s): %s%s%s\n",
				       idle_task || er.hung ? "not ok" : "ok",
				       ++ntap, sc.g.name, tag, sc.g.validate,
				       idle_task ? "a task never ran: " : "",
				       idle_task ? idle_task
				       : er.hung ? er.hung_why
						 : "every task ran",
				       "");
		} else {
			if (!cfg.common.quiet) {
				printf("placement: %s (%s)\n", er.placement,
				       er.numa);
				if (er.partitions[0])
					printf("partitions: %s\n",
					       er.partitions);
				print_tasks(stdout, &sc, &er, "");
			}
			demo_print_checks(stdout, ck, nck, NULL, tag, false,
					  NULL);
			if (!nck)
				printf("no check: validate = %s\n",
				       sc.g.validate);
		}
		if (json_open)
			write_run(&j, &sc, &er, ck, nck, rep);
		il_engine_result_free(&er);
	}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77)
		printf("1..%d\n", ntap);
	if (json_open) {
		il_json_end_array(&j);
		il_json_bool(&j, "interrupted", demo_signal != 0);
		il_report_end(&j, rc);
		fputc('\n', af.f);
		if (il_json_error(&j)) {
			il_afile_abort(&af);
		} else if (il_afile_commit(&af) == 0) {
			goto written;
		}
		fprintf(stderr, "invlab-run: --json: cannot write '%s'\n",
			cfg.common.json);
		rc = rc ? rc : 99;
	}
written:
	il_scenario_free(&sc);
	return rc;
}
