// SPDX-License-Identifier: MIT
/*
 * kmutex: priority inversion on a kernel struct mutex between CFS tasks,
 * the case proxy execution fixes, measured per configuration and judged
 * against what this kernel should give.
 *
 *   sudo kmutex                                  # every configuration, 3 s
 *   sudo kmutex --config throttled,rt-waiter -d 5s --json km.json
 *   sudo kmutex --recipe fpos --size 256K --via io_uring
 *
 * A foreground task (fg, CFS) makes one kernel critical section every
 * --period and records how long the call took: the time blocked on the
 * kernel mutex plus the section.  The recipe (--recipe, lib/kmutex.c)
 * picks the mutex.  Around it:
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
 * Each configuration is a job file (--print-job); the demo driver runs it
 * and il_km_judge (validators/kmutex.c, docs/kmutex.md) judges it.  Exit:
 * 0 every verdict as this kernel should give it, 1 otherwise, 2 bad
 * usage, 77 cannot run here, 99 broken setup, 128+N interrupted by
 * signal N.  The cgroups and temporary files a run makes are removed on
 * every exit, SIGINT and SIGTERM included.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/kmutex.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "driver.h"

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
	{
		.name = "config",
		.short_name = 'C',
		.type = IL_OPT_STRING,
		.offset = O(configs),
		.def = "all",
		.metavar = "LIST",
		.help = "configurations to run, comma-separated: alone, "
			"contention, load, load+contention, throttled, "
			"cross-cpu, rt-waiter, or all",
	},
	{
		.name = "recipe",
		.short_name = 'k',
		.type = IL_OPT_CHOICE,
		.offset = O(recipe),
		.def = "rename",
		.choices = "rename|fpos|pipe|seqfile",
		.metavar = "RECIPE",
		.help = "kernel mutex to contend: rename (s_vfs_rename_mutex), "
			"fpos (f_pos_lock), pipe (pipe->mutex), seqfile "
			"(f_pos_lock then seq_file->lock)",
	},
	{
		.name = "via",
		.type = IL_OPT_CHOICE,
		.offset = O(via),
		.def = "syscall",
		.choices = IL_KM_VIA_CHOICES,
		.metavar = "HOW",
		.help = "issue each critical section as a system call, or "
			"through io_uring (the mutex is then owned by an io-wq "
			"worker for operations that are punted to one)",
	},
	{
		.name = "size",
		.type = IL_OPT_SIZE,
		.offset = O(size),
		.def = "0",
		.max = 16 << 20,
		.metavar = "BYTES",
		.help = "bytes copied in one critical section (fpos up to 4M, "
			"pipe up to 256K, seqfile up to 1M; rename has a fixed "
			"section); 0: 1M for fpos, 64K for pipe and seqfile",
	},
	{
		.name = "dir",
		.type = IL_OPT_STRING,
		.offset = O(dir),
		.def = "/tmp",
		.metavar = "PATH",
		.help = "where rename and fpos make their temporary directory: "
			"chooses the filesystem whose rename mutex is "
			"contended",
	},
	{
		.name = "source",
		.type = IL_OPT_STRING,
		.offset = O(source),
		.def = IL_KM_SOURCE_DEFAULT,
		.metavar = "PATH",
		.help = "the seq_file the seqfile recipe reads",
	},
	{
		.name = "period",
		.short_name = 'P',
		.type = IL_OPT_DURATION,
		.offset = O(period_ns),
		.def = "1ms",
		.min = 100 * IL_NSEC_PER_USEC,
		.max = IL_NSEC_PER_SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "how long fg sleeps after each call",
	},
	{
		.name = "hogs",
		.type = IL_OPT_INT,
		.offset = O(hogs),
		.def = "2",
		.min = 1,
		.max = 8,
		.metavar = "N",
		.help = "CPU-bound CFS tasks in load, load+contention, "
			"throttled and cross-cpu",
	},
	{
		.name = "bg-weight",
		.type = IL_OPT_INT,
		.offset = O(bg_weight),
		.def = "10",
		.min = 1,
		.max = 10000,
		.metavar = "N",
		.help = "cgroup weight of the contender in throttled and "
			"cross-cpu (v2 scale, 100 = a nice-0 task; cpu.shares "
			"= N * 1024 / 100 on v1)",
	},
	{
		.name = "hog-weight",
		.type = IL_OPT_INT,
		.offset = O(hog_weight),
		.def = "1000",
		.min = 1,
		.max = 10000,
		.metavar = "N",
		.help = "cgroup weight of the hogs in throttled and cross-cpu",
	},
	{
		.name = "cpu",
		.short_name = 'c',
		.type = IL_OPT_INT,
		.offset = O(cpu),
		.def = "-1",
		.min = -1,
		.max = IL_MAX_CPUS - 1,
		.metavar = "CPU",
		.help = "the CPU fg runs on; -1 picks the last online CPU",
	},
	{
		.name = "other-cpu",
		.type = IL_OPT_INT,
		.offset = O(other_cpu),
		.def = "-1",
		.min = -1,
		.max = IL_MAX_CPUS - 1,
		.metavar = "CPU",
		.help = "the owner's CPU in cross-cpu and rt-waiter; -1 picks "
			"another online CPU",
	},
	{
		.name = "rt-prio",
		.type = IL_OPT_INT,
		.offset = O(rt_prio),
		.def = "50",
		.min = 2,
		.max = 99,
		.metavar = "PRIO",
		.help = "SCHED_FIFO priority of fg in rt-waiter",
	},
	{
		.name = "hog-prio",
		.type = IL_OPT_INT,
		.offset = O(hog_prio),
		.def = "40",
		.min = 1,
		.max = 98,
		.metavar = "PRIO",
		.help = "SCHED_FIFO priority of the real-time hog in rt-waiter",
	},
	{
		.name = "donor-migration",
		.type = IL_OPT_FLAG,
		.offset = O(donor_migration),
		.help = "the kernel's proxy execution migrates donors across "
			"CPUs: expect cross-cpu to pass when proxy execution "
			"is on",
	},
	{
		.name = "print-job",
		.type = IL_OPT_FLAG,
		.offset = O(print_job),
		.help = "print each selected configuration as a job file (for "
			"invlab-run) and exit",
	},
	{ .name = NULL },
};
#undef O

static const struct il_opt *const km_tables[] = { km_opts, NULL };

/* everything a configuration's job needs, resolved once */
static struct setup {
	const struct cfg *cfg;
	int cpu, other; /* other: -1 with one CPU */
	uint64_t tick_ns, slice_ns, quantum_ns;
	char slice_src[48];
	struct il_sysinfo si;
	struct il_fair_server fs;
} su_;
static struct setup *const su = &su_;

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

/*
 * The configuration as a job file: what runs is exactly what --print-job
 * shows, and invlab-run can run it (validate = none: the kmutex judge,
 * il_km_judge, decides).
 */
static void job_text(enum config c, char *job, size_t len)
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

	il_opt_choice_name(il_opt_find(km_tables, "via"), cfg->via, via,
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

/* --config into d->want; -EINVAL with the reason */
static int parse_configs(struct drv *d, const char *list, char *err, size_t len)
{
	char buf[256], *save = NULL;
	bool any = false;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int c = 0;

		while (*tok == ' ')
			tok++;
		while (c < C_N && strcmp(tok, config_names[c]))
			c++;
		if (c == C_N && strcmp(tok, "all")) {
			snprintf(
				err, len,
				"--config: '%s' is not one of alone, "
				"contention, load, load+contention, throttled, "
				"cross-cpu, rt-waiter, all",
				tok);
			return -EINVAL;
		}
		for (int k = 0; k < C_N; k++)
			d->want[k] |= k == c || c == C_N;
		any = true;
	}
	if (!any)
		snprintf(err, len, "--config: no configuration given");
	return any ? 0 : -EINVAL;
}

/* the machine: CPUs, tick, base slice, fair server */
static void setup_machine(struct drv *d, const struct cfg *cfg)
{
	int cpus[IL_MAX_CPUS], n = il_cpu_online(cpus, IL_MAX_CPUS), lg = 0;

	su->cfg = cfg;
	su->si = d->si;
	il_fair_server_of(&su->si, &su->fs);
	su->cpu = drv_cpu(d, cfg->cpu);
	su->other = (int)cfg->other_cpu;
	for (int i = 0; su->other < 0 && i < n; i++)
		if (cpus[i] != su->cpu)
			su->other = cpus[i];
	su->tick_ns = d->tick_ns;
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

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	static char jobs[C_N][4096];
	const struct cfg *cfg = d->cfg;
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)cfg->recipe,
		.via = (enum il_km_via)cfg->via,
		.size = cfg->recipe == IL_KM_RENAME ? 0 : cfg->size,
		.dir = cfg->dir,
		.source = cfg->source,
	};
	char err[512];

	if (parse_configs(d, cfg->configs, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 2;
	}
	if (il_kmutex_check(&p, err, sizeof(err))) {
		fprintf(stderr, PROG ": --%s\n", err);
		return 2;
	}
	setup_machine(d, cfg);
	if (su->cpu < 0)
		return 2;
	if (cfg->other_cpu >= 0 && (!il_cpu_is_online((int)cfg->other_cpu) ||
				    cfg->other_cpu == su->cpu)) {
		fprintf(stderr,
			PROG ": --other-cpu: CPU %" PRId64 " is not another "
			     "online CPU\n",
			cfg->other_cpu);
		return 2;
	}
	if (!cfg->print_job && geteuid() != 0 && !d->want[C_ALONE] &&
	    !d->want[C_CONTENTION] && !d->want[C_LOAD] &&
	    !d->want[C_LOAD_CONTENTION] && !d->want[C_RT_WAITER])
		return demo_skip(d->c, PROG,
				 "creating cgroups needs root (or a delegated "
				 "cgroup)");
	for (int c = 0; c < C_N; c++) {
		job_text((enum config)c, jobs[c], sizeof(jobs[c]));
		d->configs[c] = (struct drv_config){ .name = config_names[c],
						     .text = jobs[c],
						     .file = config_names[c] };
	}
	d->nconfigs = C_N;
	return -1;
}

/* Can this configuration run here?  NULL, or the reason it cannot. */
static const char *cannot_run(struct drv *d, int c, char *why, size_t len)
{
	char mnt[256];
	int version;

	if ((c == C_CROSS_CPU || c == C_RT_WAITER) && su->other < 0) {
		snprintf(why, len, "%s needs a second online CPU",
			 config_names[c]);
		return why;
	}
	if (weighted((enum config)c) &&
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

/* the orchestrating thread away from the hogs */
static void prepare(struct drv *d, int c)
{
	il_pin_cpu(0, c == C_CROSS_CPU || c == C_RT_WAITER || su->other < 0
			      ? su->cpu
			      : su->other);
}

/* what the run measured, for the report (set by judge, for this run) */
static struct run {
	int fg, bg, k;
	struct il_km_judged out;
	uint64_t noise_ns;
} cur;
/* alone's p99 and max of the current repetition (0: not run) */
static uint64_t alone_p99, alone_max;

static const struct il_hist *fg_calls(const struct drv_run *r)
{
	return &r->er->tasks[cur.fg].locks[0]->blocked;
}

/* the verdict is il_km_judge's; this gathers what it needs */
static int judge(struct drv *d, struct drv_run *r, char *why, size_t len)
{
	const struct cfg *cfg = d->cfg;
	const struct il_engine_result *er = r->er;
	struct il_km_judge_input in = { 0 };
	int ret = 0;

	_Static_assert((int)C_N == (int)IL_KM_CONFIG_N,
		       "the configurations are il_km_config's");
	memset(&cur, 0, sizeof(cur));
	cur.fg = il_scenario_task(r->sc, "fg");
	cur.bg = il_scenario_task(r->sc,
				  r->config == C_RT_WAITER ? "owner" : "bg");
	cur.k = il_scenario_resource(r->sc, "K");
	if (r->config == C_RT_WAITER) {
		/* the waiter's wakeup noise on its CPU, idle, measured as
		 * the judge measures every task's */
		struct il_judge_calib how;
		struct il_hist h;

		il_judge_calib_of(r->sc, er, cur.fg, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, &demo_stop, &h, why,
					  len);
		if (ret)
			return ret;
		cur.noise_ns = il_judge_noise_ns(&h);
	}
	if (r->config == C_ALONE) { /* what the others are compared with */
		const struct il_hist *h = fg_calls(r);

		alone_max = h->count ? h->max : 0;
		if (il_hist_percentile(h, 0.99, &alone_p99))
			alone_p99 = 0;
	}
	in.config = (enum il_km_config)r->config;
	in.via = cfg->via;
	in.recipe = cfg->recipe;
	in.cost_ns = er->kmutex_cost_ns[cur.k];
	in.cost_p90_ns = er->kmutex_cost_p90_ns[cur.k];
	in.blocked = fg_calls(r);
	in.contender_calls =
		cur.bg >= 0 ? er->tasks[cur.bg].locks[0]->blocked.count : 0;
	in.bg_weight = (unsigned)cfg->bg_weight;
	in.hog_weight = (unsigned)cfg->hog_weight;
	in.quantum_ns = su->quantum_ns;
	in.tick_ns = su->tick_ns;
	in.steal_ns = er->steal_ns;
	in.noise_ns = cur.noise_ns;
	in.fs = &su->fs;
	in.si = &su->si;
	in.donor_migration = cfg->donor_migration != 0;
	in.hung = er->hung != 0;
	in.hung_why = er->hung_why;
	ret = il_km_judge(&in, &cur.out);
	if (ret) {
		snprintf(why, len, "%s", cur.out.check.evidence);
		return ret;
	}
	if (!cur.out.judged)
		return 0;
	r->ck[0].validator = "kmutex";
	snprintf(r->ck[0].task, sizeof(r->ck[0].task), "fg");
	r->ck[0].c = cur.out.check;
	r->ck[0].expected = cur.out.informational ? IL_NONE : cur.out.expected;
	snprintf(r->expect_why, sizeof(r->expect_why), "%s",
		 cur.out.expect_why);
	r->nck = 1;
	return 0;
}

static void header(struct drv *d, FILE *f)
{
	const struct cfg *cfg = d->cfg;
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)cfg->recipe,
		.via = (enum il_km_via)cfg->via,
		.size = cfg->size,
		.source = cfg->source,
	};
	char dur[24], desc[160], q[24];

	il_format_duration(dur, sizeof(dur), cfg->common.duration_ns);
	il_format_duration(q, sizeof(q), su->quantum_ns);
	fprintf(f,
		PROG ": %s on %s, fg on CPU %d, the owner's CPU in cross-cpu "
		     "and rt-waiter %d; %s per configuration\n",
		il_kmutex_describe(&p, IL_KM_OP_DEFAULT, desc, sizeof(desc)),
		il_kmutex_lock_name((enum il_km_recipe)cfg->recipe), su->cpu,
		su->other, dur);
	fprintf(f,
		"scheduler quantum %s (base slice %s, tick); fair server: "
		"%s\n",
		q, su->slice_src, su->fs.source);
}

/* "2.5x" of h's percentile p (-1: max) over alone's, "-" without one */
static void ratio(char *buf, size_t len, const struct il_hist *h, double p,
		  uint64_t alone)
{
	uint64_t x = h->max;

	if (!alone || !h->count)
		snprintf(buf, len, "-");
	else if (p >= 0 && il_hist_percentile(h, p, &x))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.1fx", (double)x / (double)alone);
}

/* the table of every run, printed at the end */
static struct il_table table;
static int nrows;

static void run_note(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	static const double pct[] = { 0.5, 0.99, 0.999, 0.9999, -1 };
	const struct il_hist *h = fg_calls(r);
	char s[24], cost[24];

	if (!nrows++) {
		static const char *const col[] = {
			"configuration", "samples", "p50", "p99",
			"p999",		 "p9999",   "max", "p99/alone",
			"max/alone",	 "verdict",
		};

		il_table_init(&table);
		for (int k = 0; k < 10; k++)
			il_table_col(&table, col[k], k && k < 9);
	}
	il_table_cell(&table, "%s%s", r->name, r->tag);
	il_table_cell(&table, "%" PRIu64, h->count);
	for (int k = 0; k < 5; k++) {
		il_format_stat(s, sizeof(s), h, pct[k]);
		il_table_cell(&table, "%s", s);
	}
	ratio(s, sizeof(s), h, 0.99, alone_p99);
	il_table_cell(&table, "%s", s);
	ratio(s, sizeof(s), h, -1, alone_max);
	il_table_cell(&table, "%s", s);
	if (!r->nck)
		il_table_cell(&table, "-");
	else
		il_table_cell(&table, "%s%s",
			      il_verdict_name(r->ck[0].c.verdict),
			      cur.out.informational ? " (informational)"
			      : r->ck[0].c.verdict == r->ck[0].expected ? ""
			      : demo_as_expected(r->ck[0].c.verdict,
						 r->ck[0].expected, NULL)
				      ? " (undecided)"
				      : " (unexpected)");
	il_format_duration(cost, sizeof(cost), r->er->kmutex_cost_ns[cur.k]);
	fprintf(f,
		"%s  %s%s: uncontended cost %s (%s); contender calls %" PRIu64
		"%s%s\n",
		pfx, r->name, r->tag, cost, r->er->kmutex_where[cur.k],
		cur.bg >= 0 ? r->er->tasks[cur.bg].locks[0]->blocked.count : 0,
		r->er->cgroups[0] ? "; cgroups " : "", r->er->cgroups);
}

static void end_text(struct drv *d, FILE *f, const char *pfx)
{
	if (!nrows)
		return;
	il_table_print_prefixed(&table, f, pfx);
	il_table_free(&table);
}

static void json_head(struct drv *d, struct il_json *j)
{
	const struct cfg *cfg = d->cfg;
	const enum il_km_recipe rc = (enum il_km_recipe)cfg->recipe;
	char via[16];

	il_opt_choice_name(il_opt_find(km_tables, "via"), cfg->via, via,
			   sizeof(via));
	il_json_begin_object(j, "scenario");
	il_json_str(j, "recipe", il_kmutex_recipe_name(rc));
	il_json_str(j, "lock", il_kmutex_lock_name(rc));
	il_json_str(j, "via", via);
	il_json_uint(j, "size_bytes",
		     rc == IL_KM_RENAME ? 0
		     : cfg->size	? cfg->size
					: il_kmutex_size_default(rc));
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
}

static void json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	const struct il_hist *h = fg_calls(r);
	const struct il_share_stats *sh = &cur.out.share;
	const struct il_check *c = &cur.out.check;
	struct il_hist none;
	uint64_t x;

	if (r->nck) {
		il_json_check(j, c);
		if (cur.out.informational)
			il_json_null(j, "expected");
		else
			il_json_str(j, "expected",
				    il_verdict_name(cur.out.expected));
		il_json_str(j, "expected_because", cur.out.expect_why);
	} else {
		il_json_null(j, "verdict");
		il_json_null(j, "expected");
	}
	if (r->config == C_THROTTLED || r->config == C_CROSS_CPU) {
		il_json_double(j, "share_waiter", sh->s_waiter);
		il_json_double(j, "share_owner", sh->s_owner);
		il_json_double(j, "share_ratio", sh->rho);
		il_json_uint(j, "waiter_share_bound_ns", sh->b_waiter_ns);
		il_json_uint(j, "owner_share_bound_ns", sh->b_owner_ns);
		il_json_uint(j, "waits_over_threshold", sh->exceed);
		il_json_double(j, "inversion_factor", sh->factor);
	}
	if (r->config == C_RT_WAITER)
		il_json_str(j, "fair_server", su->fs.source);
	il_json_uint(j, "samples", h->count);
	il_json_uint(j, "uncontended_cost_ns", r->er->kmutex_cost_ns[cur.k]);
	il_json_uint(j, "contender_calls",
		     cur.bg >= 0 ? r->er->tasks[cur.bg].locks[0]->blocked.count
				 : 0);
	if (alone_p99 && h->count && !il_hist_percentile(h, 0.99, &x))
		il_json_double(j, "p99_to_alone",
			       (double)x / (double)alone_p99);
	else
		il_json_null(j, "p99_to_alone");
	if (alone_max && h->count)
		il_json_double(j, "max_to_alone",
			       (double)h->max / (double)alone_max);
	else
		il_json_null(j, "max_to_alone");
	il_json_uint(j, "steal_ns", r->er->steal_ns);
	il_json_str(j, "placement", r->er->placement);
	il_json_str(j, "cgroups", r->er->cgroups[0] ? r->er->cgroups : NULL);
	il_json_str(j, "where", r->er->kmutex_where[cur.k]);
	il_json_hist(j, "blocked_ns", h);
	il_hist_init(&none);
	il_json_hist(j, "contender_blocked_ns",
		     cur.bg >= 0 ? &r->er->tasks[cur.bg].locks[0]->blocked
				 : &none);
}

static const struct drv_family kmutex = {
	.prog = PROG,
	.usage = "[OPTIONS]",
	.summary =
		"Priority inversion on a kernel struct mutex between CFS "
		"tasks (the case proxy execution fixes): a foreground task's "
		"critical sections measured alone, with a contender, under "
		"load, with the contender in a low-weight cgroup, across "
		"CPUs, and with a SCHED_FIFO waiter behind an RT hog; judged "
		"against what this kernel should give.  Needs root "
		"(cgroups, SCHED_FIFO).  Exit status: 0 every verdict as "
		"expected for this kernel, 1 otherwise, 2 bad usage, 77 "
		"cannot run here, 99 broken setup, 128+N interrupted by "
		"signal N.",
	.opts = km_opts,
	.cfg_size = sizeof(struct cfg),
	.setup = setup,
	.cannot_run = cannot_run,
	.prepare = prepare,
	.judge = judge,
	.header = header,
	.run_note = run_note,
	.end_text = end_text,
	.json_head = json_head,
	.json_run = json_run,
	.subject = "fg",
	.skip_refused = true,
};

int main(int argc, char **argv)
{
	return drv_main(&kmutex, argc, argv);
}
