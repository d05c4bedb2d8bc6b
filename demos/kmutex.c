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
 * kernel mutex plus the section.  The recipe (--recipe, lib/sys/kmutex.c)
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
 * Each configuration is a job file (--print-job, kmutex-job.c); the demo
 * driver runs it and il_km_judge_run (validators/kmutex-judge.c,
 * docs/kmutex.md) judges it, from what the result file keeps too
 * (invlab-judge).  Exit: 0 every verdict as this kernel should give it, 1
 * otherwise, 2 bad usage, 77 cannot run here, 99 broken setup, 128+N
 * interrupted by signal N.  The cgroups and temporary files a run makes are
 * removed on every exit, SIGINT and SIGTERM included.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <invlab/cpu.h>
#include <invlab/time.h>

#include "kmutex-demo.h"

/*
 * The default run: every configuration until fg has the 1000 calls its
 * row's p999 needs, at most 3 s (4 s for rt-waiter, whose calls come in
 * bursts, one a second, when the fair server lets the owner run: about
 * 340 a second).  alone, contention and load have them in about 1.2 s;
 * load+contention, throttled and cross-cpu have 300 to 800 in 3 s,
 * which their verdicts need: in 1.5 s a throttled run beside another
 * one was UNDECIDED one time in three (tests/kernel-reliab.sh pair).
 */
static const struct drv_default defaults[] = {
	{ .config = "rt-waiter",
	  .tail = 0.999,
	  .bound_ns = 4 * IL_NSEC_PER_SEC },
	{ .tail = 0.999, .bound_ns = 3 * IL_NSEC_PER_SEC },
	{ .bound_ns = 0 },
};

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	static char jobs[C_N][4096];
	const struct km_cfg *cfg = d->cfg;
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)cfg->recipe,
		.via = (enum il_km_via)cfg->via,
		.size = cfg->recipe == IL_KM_RENAME ? 0 : cfg->size,
		.dir = cfg->dir,
		.source = cfg->source,
	};
	char err[512];

	if (km_parse_configs(d, cfg->configs, err, sizeof(err))) {
		fprintf(stderr, KM_PROG ": %s\n", err);
		return 2;
	}
	if (il_kmutex_check(&p, err, sizeof(err))) {
		fprintf(stderr, KM_PROG ": --%s\n", err);
		return 2;
	}
	km_setup_machine(d, cfg);
	if (km_su.cpu < 0)
		return 2;
	if (cfg->other_cpu >= 0 && (!il_cpu_is_online((int)cfg->other_cpu) ||
				    cfg->other_cpu == km_su.cpu)) {
		fprintf(stderr,
			KM_PROG ": --other-cpu: CPU %" PRId64 " is not another "
				"online CPU\n",
			cfg->other_cpu);
		return 2;
	}
	if (!cfg->print_job && geteuid() != 0 && !d->want[C_ALONE] &&
	    !d->want[C_CONTENTION] && !d->want[C_LOAD] &&
	    !d->want[C_LOAD_CONTENTION] && !d->want[C_RT_WAITER])
		return demo_skip(d->c, KM_PROG,
				 "creating cgroups needs root (or a delegated "
				 "cgroup)");
	for (int c = 0; c < C_N; c++) {
		km_job_text((enum km_config)c, jobs[c], sizeof(jobs[c]));
		d->configs[c] =
			(struct drv_config){ .name = km_config_names[c],
					     .text = jobs[c],
					     .file = km_config_names[c] };
	}
	d->nconfigs = C_N;
	return -1;
}

/* the orchestrating thread away from the hogs */
static void prepare(struct drv *d, int c)
{
	il_pin_cpu(0, c == C_CROSS_CPU || c == C_RT_WAITER || km_su.other < 0
			      ? km_su.cpu
			      : km_su.other);
}

/*
 * The verdict is il_km_judge_run's; this measures what it needs that the
 * run did not: the waiter's idle wakeup on its CPU in rt-waiter, as the
 * judge calibrates every task (kept in the judge's inputs).
 */
static int judge(struct drv *d, struct drv_run *r, char *why, size_t len)
{
	static struct il_hist calib;
	const struct km_cfg *cfg = d->cfg;
	int ret;

	memset(&km_cur, 0, sizeof(km_cur));
	km_cur.fg = il_scenario_task(r->sc, "fg");
	km_cur.bg = il_scenario_task(r->sc,
				     r->config == C_RT_WAITER ? "owner" : "bg");
	km_cur.k = il_scenario_resource(r->sc, "K");
	if (r->config == C_RT_WAITER) {
		struct il_judge_calib how;

		il_judge_calib_of(r->sc, r->er, km_cur.fg, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, &demo_stop, &calib,
					  why, len);
		if (ret)
			return ret;
		r->env.calib[km_cur.fg] = &calib;
	}
	if (r->config == C_ALONE) { /* what the others are compared with */
		const struct il_hist *h = km_fg_calls(r);

		km_alone_max = h->count ? h->max : 0;
		if (il_hist_percentile(h, 0.99, &km_alone_p99))
			km_alone_p99 = 0;
	}
	km_cur.rec = (struct il_judge_kmutex){
		.config = r->config,
		.quantum_ns = km_su.quantum_ns,
		.donor_migration = cfg->donor_migration,
		.si = &km_su.si,
	};
	r->kmutex = &km_cur.rec;
	ret = il_km_judge_run(r->sc, r->er, &r->env, &km_cur.rec, r->ck,
			      &r->nck, &km_cur.out, why, len);
	/* a judged case: where fg and the others ran (a donor is sent
	 * back to its CPU before it runs) */
	if (!ret && r->nck)
		ret = il_judge_affinity(r->sc, r->er, "kmutex", r->ck,
					DRV_MAX_CHECKS, &r->nck, why, len);
	if (!ret && r->nck)
		snprintf(r->expect_why, sizeof(r->expect_why), "%s",
			 km_cur.out.expect_why);
	return ret;
}

static const struct drv_family kmutex = {
	.prog = KM_PROG,
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
	.cfg_size = sizeof(struct km_cfg),
	.setup = setup,
	.cannot_run = km_cannot_run,
	.prepare = prepare,
	.judge = judge,
	.header = km_header,
	.run_note = km_run_note,
	.end_text = km_end_text,
	.json_head = km_json_head,
	.json_run = km_json_run,
	.subject = "fg",
	.skip_refused = true,
	.defaults = defaults,
};

int main(int argc, char **argv)
{
	return drv_main(&kmutex, argc, argv);
}
