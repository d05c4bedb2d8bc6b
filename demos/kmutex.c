// SPDX-License-Identifier: MIT
/*
 * kmutex: priority inversion on a kernel struct mutex between CFS tasks,
 * the case proxy execution fixes, measured per configuration and judged
 * against what this kernel should give.
 *
 *   sudo kmutex                                  # every configuration, 3 s
 * each sudo kmutex --config throttled,rt-waiter -d 5s --json km.json sudo
 * kmutex --recipe fpos --size 256K --via io_uring
 *
 * A foreground task (fg, CFS) makes one kernel critical section every
 * --period (a relative sleep after each call) and records how long the
 * system call took: the time it was blocked on the kernel mutex plus the
 * section itself.  The recipe (--recipe, lib/kmutex.c) decides which
 * mutex: rename -> s_vfs_rename_mutex, fpos -> f_pos_lock, pipe ->
 * pipe->mutex, seqfile -> f_pos_lock then seq_file->lock.  Around it:
 *
 *   alone            fg only: the uncontended cost
 *   contention       a contender (bg) making the same calls back to back
 *   load             --hogs CPU-bound CFS tasks, no contender
 *   load+contention  both, every task at the default weight
 *   throttled        bg in a cgroup of weight --bg-weight, the hogs in one
 *                    of --hog-weight, fg in one of 100
 *   cross-cpu        as throttled, but bg and the hogs on another CPU
 *   rt-waiter        fg SCHED_FIFO; the owner a CFS task on another CPU
 *                    behind a SCHED_FIFO hog
 *
 * All but cross-cpu and rt-waiter share one CPU (--cpu), where proxy
 * execution without donor migration can act.  A mutex handed to bg while
 * bg waits for the CPU (or is preempted in its section) keeps fg waiting
 * for as long as bg's share of the CPU makes bg wait: without proxy
 * execution that is bg's share, with it fg's (validators/kmutex.c).
 *
 * Verdicts (docs/kmutex.md): contention must contend (PASS everywhere);
 * throttled and cross-cpu are judged against the waiter's-share bound
 * (FAIL is the expected, true finding on a kernel without proxy
 * execution); rt-waiter against the fair-server bound.  Exit: 0 every
 * verdict as this kernel should give it, 1 otherwise, 2 bad usage, 77
 * cannot run here, 99 broken setup, 128+N interrupted by signal N.  The
 * cgroups and temporary files a run makes are removed on every exit,
 * SIGINT and SIGTERM included.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/kmutex.h>
#include <invlab/live.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/verdict.h>

#include "demo.h"

#define PROG "kmutex"

enum config {
	C_ALONE,
	C_CONTENTION,
	C_LOAD,
	C_LOAD_CONTENTION,
	C_THROTTLED,
	C_CROSS_CPU,
	C_RT_WAITER,
	C_N
};
static const char *const config_names[C_N] = {
	"alone",     "contention", "load",	"load+contention",
	"throttled", "cross-cpu",  "rt-waiter",
};

/* a call longer than this stops the run (the fair server gives ~1 s) */
#define CALL_TIMEOUT "5s"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	const char *configs;
	int recipe;
	int via;
	uint64_t size;
	const char *dir;
	const char *source;
	uint64_t period_ns;
	int64_t hogs;
	int64_t bg_weight, hog_weight;
	int64_t cpu, other_cpu;
	int64_t rt_prio, hog_prio;
	int donor_migration;
	int print_job;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt km_opts[] = {
	{ "config", 'C', IL_OPT_STRING, O(configs), "all", 0, 0, 0, NULL,
	  "LIST",
	  "configurations to run, comma-separated: alone, contention, load, "
	  "load+contention, throttled, cross-cpu, rt-waiter, or all",
	  NULL },
	{ "recipe", 'k', IL_OPT_CHOICE, O(recipe), "rename", 0, 0, 0,
	  "rename|fpos|pipe|seqfile", "RECIPE",
	  "kernel mutex to contend: rename (s_vfs_rename_mutex), fpos "
	  "(f_pos_lock), pipe (pipe->mutex), seqfile (f_pos_lock then "
	  "seq_file->lock)",
	  NULL },
	{ "via", 0, IL_OPT_CHOICE, O(via), "syscall", 0, 0, 0,
	  IL_KM_VIA_CHOICES, "HOW",
	  "issue each critical section as a system call, or through io_uring "
	  "(the mutex is then owned by an io-wq worker for operations that "
	  "are punted to one)",
	  NULL },
	{ "size", 0, IL_OPT_SIZE, O(size), "0", 0, 16 << 20, 0, NULL, "BYTES",
	  "bytes copied in one critical section (fpos up to 4M, pipe up to "
	  "256K, seqfile up to 1M; rename has a fixed section); 0: 1M for "
	  "fpos, 64K for pipe and seqfile",
	  NULL },
	{ "dir", 0, IL_OPT_STRING, O(dir), "/tmp", 0, 0, 0, NULL, "PATH",
	  "where rename and fpos make their temporary directory: chooses the "
	  "filesystem whose rename mutex is contended",
	  NULL },
	{ "source", 0, IL_OPT_STRING, O(source), IL_KM_SOURCE_DEFAULT, 0, 0, 0,
	  NULL, "PATH", "the seq_file the seqfile recipe reads", NULL },
	{ "period", 'P', IL_OPT_DURATION, O(period_ns), "1ms",
	  100 * IL_NSEC_PER_USEC, IL_NSEC_PER_SEC, IL_NSEC_PER_MSEC, NULL,
	  "TIME", "how long fg sleeps after each call", NULL },
	{ "hogs", 0, IL_OPT_INT, O(hogs), "2", 1, 8, 0, NULL, "N",
	  "CPU-bound CFS tasks in load, load+contention, throttled and "
	  "cross-cpu",
	  NULL },
	{ "bg-weight", 0, IL_OPT_INT, O(bg_weight), "10", 1, 10000, 0, NULL,
	  "N",
	  "cgroup weight of the contender in throttled and cross-cpu (v2 "
	  "scale, 100 = a nice-0 task; cpu.shares = N * 1024 / 100 on v1)",
	  NULL },
	{ "hog-weight", 0, IL_OPT_INT, O(hog_weight), "1000", 1, 10000, 0, NULL,
	  "N", "cgroup weight of the hogs in throttled and cross-cpu", NULL },
	{ "cpu", 'c', IL_OPT_INT, O(cpu), "-1", -1, IL_MAX_CPUS - 1, 0, NULL,
	  "CPU", "the CPU fg runs on; -1 picks the last online CPU", NULL },
	{ "other-cpu", 0, IL_OPT_INT, O(other_cpu), "-1", -1, IL_MAX_CPUS - 1,
	  0, NULL, "CPU",
	  "the owner's CPU in cross-cpu and rt-waiter; -1 picks another "
	  "online CPU",
	  NULL },
	{ "rt-prio", 0, IL_OPT_INT, O(rt_prio), "50", 2, 99, 0, NULL, "PRIO",
	  "SCHED_FIFO priority of fg in rt-waiter", NULL },
	{ "hog-prio", 0, IL_OPT_INT, O(hog_prio), "40", 1, 98, 0, NULL, "PRIO",
	  "SCHED_FIFO priority of the real-time hog in rt-waiter", NULL },
	{ "donor-migration", 0, IL_OPT_FLAG, O(donor_migration), NULL, 0, 0, 0,
	  NULL, NULL,
	  "the kernel's proxy execution migrates donors across CPUs: expect "
	  "cross-cpu to pass when proxy execution is on",
	  NULL },
	{ "print-job", 0, IL_OPT_FLAG, O(print_job), NULL, 0, 0, 0, NULL, NULL,
	  "print each selected configuration as a job file (for invlab-run) "
	  "and exit",
	  NULL },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { il_common_opts, km_opts, NULL };

struct result {
	enum config config;
	int repeat; /* 1.. */
	bool ran;
	bool judged;
	bool informational; /* judged, but nothing is expected of it */
	enum il_verdict expected;
	char expect_why[160];
	struct il_check check;
	struct il_share_stats share;
	uint64_t cost_ns; /* uncontended cost, before the run: median */
	uint64_t cost_p90_ns;
	uint64_t cost_mean_ns;
	uint64_t steal_ns;
	uint64_t contender_calls;
	uint64_t noise_ns; /* rt-waiter: p90 wakeup calibration */
	char placement[256];
	char cgroups[256];
	char where[160];
	char fair_server[128];
	struct il_hist blocked;	  /* fg's calls */
	struct il_hist contender; /* bg's (or the owner's) calls */
};

/* everything a configuration's job needs, resolved once */
struct setup {
	const struct cfg *cfg;
	int cpu, other; /* other: -1 with one CPU */
	uint64_t tick_ns, slice_ns, quantum_ns;
	char slice_src[48];
	struct il_sysinfo si;
	struct il_fair_server fs;
};

static bool has_bg(enum config c)
{
	return c != C_ALONE && c != C_LOAD;
}

static bool has_hogs(enum config c)
{
	return c == C_LOAD || c == C_LOAD_CONTENTION || c == C_THROTTLED ||
	       c == C_CROSS_CPU;
}

static bool weighted(enum config c)
{
	return c == C_THROTTLED || c == C_CROSS_CPU;
}

/* --config into a set of configurations; -EINVAL with the reason */
static int parse_configs(const char *list, bool *want, char *err, size_t len)
{
	char buf[256], *save = NULL;

	memset(want, 0, C_N * sizeof(*want));
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int c;

		while (*tok == ' ')
			tok++;
		if (!strcmp(tok, "all")) {
			for (c = 0; c < C_N; c++)
				want[c] = true;
			continue;
		}
		for (c = 0; c < C_N; c++)
			if (!strcmp(tok, config_names[c]))
				break;
		if (c == C_N) {
			snprintf(
				err, len,
				"--config: '%s' is not one of alone, "
				"contention, load, load+contention, throttled, "
				"cross-cpu, rt-waiter, all",
				tok);
			return -EINVAL;
		}
		want[c] = true;
	}
	for (int c = 0; c < C_N; c++)
		if (want[c])
			return 0;
	snprintf(err, len, "--config: no configuration given");
	return -EINVAL;
}

/*
 * The configuration as a job file: what runs is exactly what --print-job
 * shows, and invlab-run can run it (validate = none: judging is here).
 */
static void job_text(const struct setup *su, enum config c, char *job,
		     size_t len)
{
	const struct cfg *cfg = su->cfg;
	/* contention: the contender beside fg, on another CPU, so every
	 * wait is the mutex and nothing else (one CPU: the same) */
	int owner_cpu =
		(c == C_CROSS_CPU || c == C_RT_WAITER || c == C_CONTENTION) &&
				su->other >= 0
			? su->other
			: su->cpu;
	const char *rname =
		il_kmutex_recipe_name((enum il_km_recipe)cfg->recipe);
	char via[16], cls[16];

	il_opt_choice_name(il_opt_find(tables, "via"), cfg->via, via,
			   sizeof(via));
	if (c == C_RT_WAITER)
		snprintf(cls, sizeof(cls), "fifo:%" PRId64, cfg->rt_prio);
	else
		snprintf(cls, sizeof(cls), "other");
	job[0] = '\0';
	il_appendf(job, len,
		   "; kmutex %s: %s\n"
		   "[global]\n"
		   "name = kmutex-%s\n"
		   "duration = %" PRIu64 "ns\n"
		   "validate = none\n"
		   "timeout = " CALL_TIMEOUT "\n"
		   "[resource K]\n"
		   "type = %s\n"
		   "via = %s\n",
		   config_names[c],
		   il_kmutex_lock_name((enum il_km_recipe)cfg->recipe),
		   config_names[c], cfg->common.duration_ns, rname, via);
	if (cfg->recipe != IL_KM_RENAME)
		il_appendf(job, len, "size = %" PRIu64 "\n",
			   cfg->size ? cfg->size
				     : il_kmutex_size_default(
					       (enum il_km_recipe)cfg->recipe));
	if (cfg->recipe == IL_KM_RENAME || cfg->recipe == IL_KM_FPOS)
		il_appendf(job, len, "dir = %s\n", cfg->dir);
	if (cfg->recipe == IL_KM_SEQFILE)
		il_appendf(job, len, "source = %s\n", cfg->source);

	il_appendf(job, len,
		   "[task fg]\n"
		   "class = %s\n"
		   "cpu = %d\n"
		   "activation = hog\n"
		   "body = call K, sleep %" PRIu64 "ns\n",
		   cls, su->cpu, cfg->period_ns);
	if (weighted(c))
		il_appendf(job, len, "cgroup = kmutex-fg\ncpu_weight = 100\n");
	if (has_bg(c)) {
		il_appendf(job, len,
			   "[task %s]\n"
			   "class = other\n"
			   "cpu = %d\n"
			   "activation = hog\n"
			   "body = call K%s\n",
			   c == C_RT_WAITER ? "owner" : "bg", owner_cpu,
			   cfg->recipe == IL_KM_SEQFILE ? " pread" : "");
		if (weighted(c))
			il_appendf(job, len,
				   "cgroup = kmutex-bg\ncpu_weight = %" PRId64
				   "\n",
				   cfg->bg_weight);
	}
	if (has_hogs(c))
		for (int h = 0; h < cfg->hogs; h++) {
			il_appendf(job, len,
				   "[task hog%d]\n"
				   "class = other\n"
				   "cpu = %d\n"
				   "activation = hog\n"
				   "body = run 100ms\n",
				   h + 1, owner_cpu);
			if (weighted(c))
				il_appendf(job, len,
					   "cgroup = kmutex-hogs\ncpu_weight = "
					   "%" PRId64 "\n",
					   cfg->hog_weight);
		}
	if (c == C_RT_WAITER)
		il_appendf(job, len,
			   "[task rthog]\n"
			   "class = fifo:%" PRId64 "\n"
			   "cpu = %d\n"
			   "activation = hog\n"
			   "body = spin 1s\n",
			   cfg->hog_prio, owner_cpu);
}

/* --live: fg's calls and the contender's as they come */
struct live_ctx {
	struct il_live live;
	char title[96];
	int fg, bg;
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	struct il_live_row rows[2];
	int n = 0;

	memset(rows, 0, sizeof(rows));
	snprintf(rows[n].name, sizeof(rows[n].name), "fg call latency");
	rows[n++].h = &er->tasks[lc->fg].locks[0]->blocked;
	if (lc->bg >= 0) {
		snprintf(rows[n].name, sizeof(rows[n].name),
			 "contender call latency");
		rows[n++].h = &er->tasks[lc->bg].locks[0]->blocked;
	}
	il_live_frame(&lc->live, lc->title, rows, n);
}

/* the verdict is the validators' (il_km_judge); this only gathers */
static int judge(const struct setup *su, struct result *r,
		 const struct il_engine_result *er)
{
	const struct cfg *cfg = su->cfg;
	struct il_km_judge_input in = {
		.config = (enum il_km_config)r->config,
		.via = cfg->via,
		.recipe = cfg->recipe,
		.cost_ns = r->cost_ns,
		.cost_p90_ns = r->cost_p90_ns,
		.blocked = &r->blocked,
		.contender_calls = r->contender_calls,
		.bg_weight = (unsigned)cfg->bg_weight,
		.hog_weight = (unsigned)cfg->hog_weight,
		.quantum_ns = su->quantum_ns,
		.tick_ns = su->tick_ns,
		.steal_ns = r->steal_ns,
		.noise_ns = r->noise_ns,
		.fs = &su->fs,
		.si = &su->si,
		.donor_migration = cfg->donor_migration != 0,
		.hung = er->hung != 0,
		.hung_why = er->hung_why,
	};
	struct il_km_judged out;
	int ret = il_km_judge(&in, &out);

	_Static_assert((int)C_N == (int)IL_KM_CONFIG_N,
		       "the configurations are il_km_config's");
	r->judged = out.judged;
	r->informational = out.informational;
	r->expected = out.expected;
	memcpy(r->expect_why, out.expect_why, sizeof(r->expect_why));
	r->check = out.check;
	r->share = out.share;
	if (r->config == C_RT_WAITER)
		snprintf(r->fair_server, sizeof(r->fair_server), "%s",
			 su->fs.source);
	return ret;
}

/* Can this configuration run here?  NULL, or the reason it cannot. */
static const char *cannot_run(const struct setup *su, enum config c, char *why,
			      size_t len)
{
	char mnt[256];
	int version;

	if ((c == C_CROSS_CPU || c == C_RT_WAITER) && su->other < 0) {
		snprintf(why, len, "%s needs a second online CPU",
			 config_names[c]);
		return why;
	}
	if (weighted(c) &&
	    il_cgroup_mount(IL_CG_CPU, mnt, sizeof(mnt), &version, why, len))
		return why;
	if (c == C_RT_WAITER &&
	    il_sched_probe_rt((int)(su->cfg->rt_prio > su->cfg->hog_prio
					    ? su->cfg->rt_prio
					    : su->cfg->hog_prio),
			      why, len))
		return why;
	return NULL;
}

/*
 * One configuration: build, run, judge.  0; -EPERM (and kin) when it
 * cannot run here (why says why); another -errno when broken.
 */
static int run_config(const struct setup *su, enum config c, int repeat,
		      struct result *r, char *why, size_t len)
{
	const struct cfg *cfg = su->cfg;
	struct il_engine_opts eo = { .stop = &demo_stop };
	/* a couple of MB: not on the stack */
	struct il_engine_result *er;
	struct il_scenario sc;
	struct live_ctx lc;
	char job[4096];
	int ret, fg, bg, k;

	r->config = c;
	r->repeat = repeat;
	il_hist_init(&r->blocked);
	il_hist_init(&r->contender);
	job_text(su, c, job, sizeof(job));
	ret = il_scenario_parse(job, config_names[c], &sc, why, len);
	if (ret)
		return -EIO;
	fg = il_scenario_task(&sc, "fg");
	bg = il_scenario_task(&sc, c == C_RT_WAITER ? "owner" : "bg");
	k = il_scenario_resource(&sc, "K");
	if (c == C_RT_WAITER) {
		struct il_sched s = { .policy = IL_SCHED_FIFO,
				      .prio = (int)cfg->rt_prio };
		struct il_hist h;

		/* the waiter's wakeup noise on its CPU, idle */
		ret = il_engine_calibrate(su->cpu, &s, 500,
					  200 * IL_NSEC_PER_USEC, &demo_stop,
					  &h, why, len);
		if (ret) {
			il_scenario_free(&sc);
			return ret;
		}
		if (il_hist_percentile_upper(&h, 0.90, &r->noise_ns))
			r->noise_ns = h.count ? h.max : 0;
	}
	/* the orchestrating thread away from the hogs */
	il_pin_cpu(0, c == C_CROSS_CPU || c == C_RT_WAITER || su->other < 0
			      ? su->cpu
			      : su->other);
	if (cfg->common.live) {
		memset(&lc, 0, sizeof(lc));
		il_live_init(&lc.live, stdout, -1);
		snprintf(lc.title, sizeof(lc.title), "kmutex: %s, run %d",
			 config_names[c], repeat);
		lc.fg = fg;
		lc.bg = bg;
		eo.progress = live_frame;
		eo.progress_ctx = &lc;
	}
	er = malloc(sizeof(*er));
	ret = er ? il_engine_run(&sc, &eo, er, why, len) : -ENOMEM;
	if (cfg->common.live)
		il_live_end(&lc.live);
	if (ret) {
		if (ret == -ENOMEM && !er)
			snprintf(why, len, "out of memory");
		free(er);
		il_scenario_free(&sc);
		return ret;
	}
	r->blocked = er->tasks[fg].locks[0]->blocked;
	if (bg >= 0) {
		r->contender = er->tasks[bg].locks[0]->blocked;
		r->contender_calls = r->contender.count;
	}
	r->cost_ns = er->kmutex_cost_ns[k];
	r->cost_p90_ns = er->kmutex_cost_p90_ns[k];
	r->cost_mean_ns = er->kmutex_cost_mean_ns[k];
	r->steal_ns = er->steal_ns;
	snprintf(r->placement, sizeof(r->placement), "%s", er->placement);
	snprintf(r->cgroups, sizeof(r->cgroups), "%s", er->cgroups);
	snprintf(r->where, sizeof(r->where), "%s", er->kmutex_where[k]);
	/* a configuration that cannot be judged is broken, not skipped */
	ret = judge(su, r, er);
	if (ret)
		snprintf(why, len, "%s", r->check.evidence);
	r->ran = ret == 0;
	il_engine_result_free(er);
	free(er);
	il_scenario_free(&sc);
	return ret ? -EIO : 0;
}

/* the alone run with the same repeat index, or NULL */
static const struct result *alone_of(const struct result *res, int n,
				     int repeat)
{
	for (int i = 0; i < n; i++)
		if (res[i].ran && res[i].config == C_ALONE &&
		    res[i].repeat == repeat)
			return &res[i];
	return NULL;
}

static void fmt_ratio(char *buf, size_t len, const struct il_hist *h,
		      const struct il_hist *a, double p)
{
	uint64_t x, y;

	if (!a || !h->count || !a->count) {
		snprintf(buf, len, "-");
		return;
	}
	if (p < 0) {
		x = h->max;
		y = a->max;
	} else if (il_hist_percentile(h, p, &x) ||
		   il_hist_percentile(a, p, &y)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (!y)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1fx", (double)x / (double)y);
}

static void print_text(FILE *f, const struct setup *su, struct result *res,
		       int nres, const char *pfx)
{
	const struct cfg *cfg = su->cfg;
	struct il_table t;
	char a[24], b[24], c[24], d[24], e[24], g[24], x[24];

	il_table_init(&t);
	il_table_col(&t, "configuration", false);
	il_table_col(&t, "samples", true);
	il_table_col(&t, "p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "p999", true);
	il_table_col(&t, "p9999", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "p99/alone", true);
	il_table_col(&t, "max/alone", true);
	il_table_col(&t, "verdict", false);
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];
		const struct result *al = alone_of(res, nres, r->repeat);
		char tag[16];

		if (!r->ran)
			continue;
		il_format_stat(a, sizeof(a), &r->blocked, 0.5);
		il_format_stat(b, sizeof(b), &r->blocked, 0.99);
		il_format_stat(c, sizeof(c), &r->blocked, 0.999);
		il_format_stat(d, sizeof(d), &r->blocked, 0.9999);
		il_format_stat(e, sizeof(e), &r->blocked, -1);
		fmt_ratio(g, sizeof(g), &r->blocked, al ? &al->blocked : NULL,
			  0.99);
		fmt_ratio(x, sizeof(x), &r->blocked, al ? &al->blocked : NULL,
			  -1);
		il_table_cell(&t, "%s%s", config_names[r->config],
			      demo_run_tag(cfg->common.repeat, r->repeat, tag,
					   sizeof(tag)));
		il_table_cell(&t, "%" PRIu64, r->blocked.count);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", b);
		il_table_cell(&t, "%s", c);
		il_table_cell(&t, "%s", d);
		il_table_cell(&t, "%s", e);
		il_table_cell(&t, "%s", g);
		il_table_cell(&t, "%s", x);
		if (r->judged)
			il_table_cell(&t, "%s%s",
				      il_verdict_name(r->check.verdict),
				      r->informational ? " (informational)"
				      : r->check.verdict == r->expected ? ""
				      : demo_as_expected(r->check.verdict,
							 r->expected, NULL)
					      ? " (undecided)"
					      : " (unexpected)");
		else
			il_table_cell(&t, "-");
	}
	if (!cfg->common.quiet && nres)
		il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];
		char tag[16], cost[24];

		if (!r->ran)
			continue;
		demo_run_tag(cfg->common.repeat, r->repeat, tag, sizeof(tag));
		if (r->judged && r->informational)
			fprintf(f, "%s%s%s: %s (%s): %s\n", pfx,
				config_names[r->config], tag,
				il_verdict_name(r->check.verdict),
				r->expect_why, r->check.evidence);
		else if (r->judged)
			fprintf(f, "%s%s%s: %s, expected %s (%s): %s\n", pfx,
				config_names[r->config], tag,
				il_verdict_name(r->check.verdict),
				il_verdict_name(r->expected), r->expect_why,
				r->check.evidence);
		if (cfg->common.quiet)
			continue;
		il_format_duration(cost, sizeof(cost), r->cost_ns);
		fprintf(f,
			"%s  %s%s: uncontended cost %s (%s); contender "
			"calls %" PRIu64 "%s%s\n",
			pfx, config_names[r->config], tag, cost, r->where,
			r->contender_calls, r->cgroups[0] ? "; cgroups " : "",
			r->cgroups);
	}
}

struct json_ctx {
	const struct setup *su;
	struct result *res;
	int nres;
};

static void write_json(struct il_json *j, void *arg)
{
	const struct json_ctx *jc = arg;
	const struct setup *su = jc->su;
	const struct cfg *cfg = su->cfg;
	char via[16];

	il_opt_choice_name(il_opt_find(tables, "via"), cfg->via, via,
			   sizeof(via));
	il_json_begin_object(j, "scenario");
	il_json_str(j, "recipe",
		    il_kmutex_recipe_name((enum il_km_recipe)cfg->recipe));
	il_json_str(j, "lock",
		    il_kmutex_lock_name((enum il_km_recipe)cfg->recipe));
	il_json_str(j, "via", via);
	il_json_uint(j, "size_bytes",
		     cfg->recipe == IL_KM_RENAME ? 0
		     : cfg->size		 ? cfg->size
						 : il_kmutex_size_default(
							   (enum il_km_recipe)cfg->recipe));
	il_json_str(j, "dir", cfg->dir);
	il_json_str(j, "source", cfg->source);
	il_json_uint(j, "period_ns", cfg->period_ns);
	il_json_int(j, "hogs", cfg->hogs);
	il_json_int(j, "bg_weight", cfg->bg_weight);
	il_json_int(j, "hog_weight", cfg->hog_weight);
	il_json_int(j, "cpu", su->cpu);
	if (su->other >= 0)
		il_json_int(j, "other_cpu", su->other);
	else
		il_json_null(j, "other_cpu");
	il_json_int(j, "rt_prio", cfg->rt_prio);
	il_json_int(j, "hog_prio", cfg->hog_prio);
	il_json_uint(j, "duration_ns", cfg->common.duration_ns);
	il_json_int(j, "repeat", cfg->common.repeat);
	il_json_uint(j, "tick_ns", su->tick_ns);
	il_json_uint(j, "base_slice_ns", su->slice_ns);
	il_json_str(j, "base_slice_source", su->slice_src);
	il_json_uint(j, "quantum_ns", su->quantum_ns);
	il_json_uint(j, "fair_server_runtime_ns", su->fs.runtime_ns);
	il_json_uint(j, "fair_server_period_ns", su->fs.period_ns);
	il_json_str(j, "fair_server_source", su->fs.source);
	il_json_bool(j, "donor_migration", cfg->donor_migration);
	il_json_end_object(j);
	il_json_bool(j, "interrupted", demo_signal != 0);
	il_json_begin_array(j, "runs");
	for (int i = 0; i < jc->nres; i++) {
		const struct result *r = &jc->res[i];
		const struct result *al =
			alone_of(jc->res, jc->nres, r->repeat);
		uint64_t x, y;

		if (!r->ran)
			continue;
		il_json_begin_object(j, NULL);
		/* "configuration" names the run for compare and gate tools */
		il_json_str(j, "configuration", config_names[r->config]);
		il_json_int(j, "repeat", r->repeat);
		if (r->judged) {
			il_json_str(j, "verdict",
				    il_verdict_name(r->check.verdict));
			if (r->informational)
				il_json_null(j, "expected");
			else
				il_json_str(j, "expected",
					    il_verdict_name(r->expected));
			il_json_str(j, "expected_because", r->expect_why);
			il_json_str(j, "bound", r->check.bound_name);
			il_json_uint(j, "bound_ns", r->check.bound_ns);
			il_json_uint(j, "noise_ns", r->check.noise_ns);
			il_json_uint(j, "worst_ns", r->check.worst_ns);
			il_json_str(j, "evidence", r->check.evidence);
		} else {
			il_json_null(j, "verdict");
			il_json_null(j, "expected");
		}
		if (r->config == C_THROTTLED || r->config == C_CROSS_CPU) {
			il_json_double(j, "share_waiter", r->share.s_waiter);
			il_json_double(j, "share_owner", r->share.s_owner);
			il_json_double(j, "share_ratio", r->share.rho);
			il_json_uint(j, "waiter_share_bound_ns",
				     r->share.b_waiter_ns);
			il_json_uint(j, "owner_share_bound_ns",
				     r->share.b_owner_ns);
			il_json_uint(j, "waits_over_threshold",
				     r->share.exceed);
			il_json_double(j, "inversion_factor", r->share.factor);
		}
		if (r->config == C_RT_WAITER)
			il_json_str(j, "fair_server", r->fair_server);
		il_json_uint(j, "samples", r->blocked.count);
		il_json_uint(j, "uncontended_cost_ns", r->cost_ns);
		il_json_uint(j, "contender_calls", r->contender_calls);
		if (al && al->blocked.count && r->blocked.count &&
		    !il_hist_percentile(&r->blocked, 0.99, &x) &&
		    !il_hist_percentile(&al->blocked, 0.99, &y) && y)
			il_json_double(j, "p99_to_alone",
				       (double)x / (double)y);
		else
			il_json_null(j, "p99_to_alone");
		if (al && al->blocked.count && r->blocked.count &&
		    al->blocked.max)
			il_json_double(j, "max_to_alone",
				       (double)r->blocked.max /
					       (double)al->blocked.max);
		else
			il_json_null(j, "max_to_alone");
		il_json_uint(j, "steal_ns", r->steal_ns);
		il_json_str(j, "placement", r->placement);
		il_json_str(j, "cgroups", r->cgroups[0] ? r->cgroups : NULL);
		il_json_str(j, "where", r->where);
		il_json_hist(j, "blocked_ns", &r->blocked);
		il_json_hist(j, "contender_blocked_ns", &r->contender);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

static void setup_machine(struct setup *su, const struct cfg *cfg)
{
	int cpus[IL_MAX_CPUS], n = il_cpu_online(cpus, IL_MAX_CPUS), lg = 0;

	su->cfg = cfg;
	il_sysinfo_read(&su->si);
	il_fair_server_of(&su->si, &su->fs);
	su->cpu = cfg->cpu < 0 ? il_cpu_last_online() : (int)cfg->cpu;
	su->other = (int)cfg->other_cpu;
	if (su->other < 0)
		for (int i = 0; i < n; i++)
			if (cpus[i] != su->cpu) {
				su->other = cpus[i];
				break;
			}
	su->tick_ns = su->si.hz > 0 ? IL_NSEC_PER_SEC / (uint64_t)su->si.hz
				    : 4 * IL_NSEC_PER_MSEC;
	if (!il_sched_base_slice_ns(&su->slice_ns)) {
		snprintf(su->slice_src, sizeof(su->slice_src), "debugfs");
	} else {
		/* the kernel's default: 0.75 ms * (1 + ilog2(min(cpus, 8))) */
		for (int c = n < 8 ? n : 8; c > 1; c >>= 1)
			lg++;
		su->slice_ns = 750 * IL_NSEC_PER_USEC * (uint64_t)(1 + lg);
		snprintf(su->slice_src, sizeof(su->slice_src),
			 "default for %d CPUs", n);
	}
	su->quantum_ns =
		su->slice_ns > su->tick_ns ? su->slice_ns : su->tick_ns;
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"Priority inversion on a kernel struct mutex between CFS tasks "
		"(the case proxy execution fixes): a foreground task's "
		"critical sections measured alone, with a contender, under "
		"load, with the contender in a low-weight cgroup, across CPUs, "
		"and with a SCHED_FIFO waiter behind an RT hog; judged against "
		"what this kernel should give.  Needs root (cgroups, "
		"SCHED_FIFO).  Exit status: 0 every verdict as expected for "
		"this kernel, 1 otherwise, 2 bad usage, 77 cannot run here, "
		"99 broken setup, 128+N interrupted by signal N.";
	struct il_run_info ri = { .program = PROG, .argc = argc, .argv = argv };
	struct result *res;
	struct setup su;
	struct cfg cfg;
	bool want[C_N];
	char err[512];
	int rc = 0, nres = 0, first, ran = 0, skipped = 0, checks = 0;

	memset(&cfg, 0, sizeof(cfg));
	rc = demo_args(argc, argv, tables, &cfg, PROG, "[OPTIONS]", summary, 0,
		       &first);
	if (rc >= 0)
		return rc;
	rc = 0;
	if (parse_configs(cfg.configs, want, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 2;
	}
	{
		struct il_kmutex_params p = {
			.recipe = (enum il_km_recipe)cfg.recipe,
			.via = (enum il_km_via)cfg.via,
			.size = cfg.recipe == IL_KM_RENAME ? 0 : cfg.size,
			.dir = cfg.dir,
			.source = cfg.source,
		};

		if (il_kmutex_check(&p, err, sizeof(err))) {
			fprintf(stderr, PROG ": --%s\n", err);
			return 2;
		}
	}
	setup_machine(&su, &cfg);
	if (su.cpu < 0 || !il_cpu_is_online(su.cpu)) {
		fprintf(stderr,
			PROG ": --cpu: CPU %" PRId64 " is not online "
			     "(see /sys/devices/system/cpu/online)\n",
			cfg.cpu);
		return 2;
	}
	if (cfg.other_cpu >= 0 && (!il_cpu_is_online((int)cfg.other_cpu) ||
				   cfg.other_cpu == su.cpu)) {
		fprintf(stderr,
			PROG ": --other-cpu: CPU %" PRId64 " is not "
			     "another online CPU\n",
			cfg.other_cpu);
		return 2;
	}
	if (cfg.print_job) {
		char job[4096];

		for (int c = 0; c < C_N; c++)
			if (want[c]) {
				job_text(&su, (enum config)c, job, sizeof(job));
				printf("%s\n", job);
			}
		return 0;
	}
	if (geteuid() != 0 && (want[C_THROTTLED] || want[C_CROSS_CPU]) &&
	    !want[C_ALONE] && !want[C_CONTENTION] && !want[C_LOAD] &&
	    !want[C_LOAD_CONTENTION] && !want[C_RT_WAITER])
		return demo_skip(&cfg.common, PROG,
				 "creating cgroups needs root (or a delegated "
				 "cgroup)");
	res = calloc((size_t)(C_N * cfg.common.repeat), sizeof(*res));
	if (!res) {
		fprintf(stderr, PROG ": out of memory\n");
		return 99;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE) && !cfg.common.quiet)
		fprintf(stderr,
			PROG ": note: mlockall failed (%s); page faults "
			     "may add latency\n",
			strerror(errno));
	clock_gettime(CLOCK_REALTIME, &ri.start);
	ri.sys = &su.si;
	demo_signals();

	if (!cfg.common.quiet && !cfg.common.tap) {
		char d[24], desc[160], q[24];
		struct il_kmutex_params p = {
			.recipe = (enum il_km_recipe)cfg.recipe,
			.via = (enum il_km_via)cfg.via,
			.size = cfg.size,
			.source = cfg.source,
		};

		il_format_duration(d, sizeof(d), cfg.common.duration_ns);
		il_format_duration(q, sizeof(q), su.quantum_ns);
		printf(PROG
		       ": %s on %s, fg on CPU %d, the owner's CPU in "
		       "cross-cpu and rt-waiter %d; %s per configuration\n",
		       il_kmutex_describe(&p, IL_KM_OP_DEFAULT, desc,
					  sizeof(desc)),
		       il_kmutex_lock_name((enum il_km_recipe)cfg.recipe),
		       su.cpu, su.other, d);
		demo_kernel_line(stdout, &su.si);
		printf("scheduler quantum %s (base slice %s, tick); fair "
		       "server: %s\n",
		       q, su.slice_src, su.fs.source);
		fflush(stdout);
	}

	for (int k = 0; k < cfg.common.repeat && !demo_signal; k++) {
		for (int c = 0; c < C_N && !demo_signal; c++) {
			const char *why;
			int ret;

			if (!want[c])
				continue;
			why = cannot_run(&su, (enum config)c, err, sizeof(err));
			if (why) {
				if (!k)
					fprintf(stderr, PROG ": %s: SKIP: %s\n",
						config_names[c], why);
				skipped++;
				continue;
			}
			ret = run_config(&su, (enum config)c, k + 1, &res[nres],
					 err, sizeof(err));
			/* whatever happened, nothing of this run stays */
			il_cgroup_cleanup_all();
			il_kmutex_cleanup_all();
			if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL ||
			    ret == -ENODEV || ret == -EOPNOTSUPP) {
				fprintf(stderr, PROG ": %s: SKIP: %s\n",
					config_names[c], err);
				skipped++;
				continue;
			}
			if (ret) {
				fprintf(stderr, PROG ": %s: %s\n",
					config_names[c],
					err[0] ? err : strerror(-ret));
				rc = 99;
				break;
			}
			if (res[nres].judged) {
				checks++;
				if (!demo_as_expected(res[nres].check.verdict,
						      res[nres].expected,
						      NULL) &&
				    !res[nres].informational)
					rc = rc ? rc : 1;
			}
			nres++;
			ran++;
		}
		if (rc == 99)
			break;
	}
	il_cgroup_cleanup_all();
	il_kmutex_cleanup_all();
	if (!ran && skipped && !demo_signal && rc != 99) {
		free(res);
		return demo_skip(&cfg.common, PROG,
				 "no configuration could run here (reasons "
				 "above)");
	}
	if (demo_signal)
		rc = 128 + demo_signal;

	if (cfg.common.tap) {
		int n = 0;

		printf("TAP version 13\n1..%d\n", checks ? checks : 1);
		print_text(stdout, &su, res, nres, "# ");
		for (int i = 0; i < nres; i++) {
			char desc[200], tag[16];
			bool und = false;

			if (!res[i].judged)
				continue;
			demo_as_expected(res[i].check.verdict, res[i].expected,
					 &und);
			snprintf(desc, sizeof(desc), "%s%s: %s (%s%s: %s)",
				 config_names[res[i].config],
				 demo_run_tag(cfg.common.repeat, res[i].repeat,
					      tag, sizeof(tag)),
				 il_verdict_name(res[i].check.verdict),
				 res[i].informational ? "informational"
						      : "expected ",
				 res[i].informational
					 ? ""
					 : il_verdict_name(res[i].expected),
				 res[i].expect_why);
			il_tap_result(
				stdout,
				res[i].informational ||
					demo_as_expected(res[i].check.verdict,
							 res[i].expected, NULL),
				++n, desc,
				und && !res[i].informational
					? "SKIP undecided: measured noise "
					  "could explain it"
					: NULL);
			il_tap_diag(stdout, "%s", res[i].check.evidence);
		}
		if (!checks)
			il_tap_result(
				stdout, rc == 0 && nres > 0, 1,
				"configurations measured (none is judged)",
				NULL);
	} else {
		print_text(stdout, &su, res, nres, "");
	}
	if (demo_signal)
		fprintf(stderr,
			PROG ": interrupted by signal %d; results so "
			     "far written\n",
			(int)demo_signal);
	if (cfg.common.json) {
		struct json_ctx jc = { .su = &su, .res = res, .nres = nres };

		rc = demo_write_json(PROG, cfg.common.json, &ri, write_json,
				     &jc, rc);
	}
	free(res);
	return rc;
}
