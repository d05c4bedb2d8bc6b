// SPDX-License-Identifier: MIT
/*
 * The kmutex demo's configurations as job files, and the machine they
 * run on (kmutex-demo.h).  What runs is exactly what --print-job shows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "kmutex-demo.h"

/* a call longer than this stops the run (the fair server gives ~1 s) */
#define CALL_TIMEOUT "5s"

const char *const km_config_names[C_N] = {
	"alone",     "contention", "load",	"load+contention",
	"throttled", "cross-cpu",  "rt-waiter",
};

struct km_setup km_su;
static struct km_setup *const su = &km_su;

static bool has_bg(enum km_config c)
{
	return c != C_ALONE && c != C_LOAD;
}

static bool has_hogs(enum km_config c)
{
	return c == C_LOAD || c == C_LOAD_CONTENTION || c == C_THROTTLED ||
	       c == C_CROSS_CPU;
}

static bool weighted(enum km_config c)
{
	return c == C_THROTTLED || c == C_CROSS_CPU;
}

uint64_t km_size(const struct km_cfg *cfg)
{
	const enum il_km_recipe rc = (enum il_km_recipe)cfg->recipe;

	if (rc == IL_KM_RENAME)
		return 0;
	return cfg->size ? cfg->size : il_kmutex_size_default(rc);
}

/*
 * The configuration as a job file: what runs is exactly what --print-job
 * shows, and invlab-run can run it (validate = none: the kmutex judge,
 * il_km_judge, decides).
 */
void km_job_text(enum km_config c, char *job, size_t len)
{
	const struct km_cfg *cfg = su->cfg;
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

	km_via_name(cfg, via, sizeof(via));
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
		   km_config_names[c],
		   il_kmutex_lock_name((enum il_km_recipe)cfg->recipe),
		   km_config_names[c], cfg->common.duration_ns, rname, via);
	if (cfg->recipe != IL_KM_RENAME)
		il_appendf(job, len, "size = %" PRIu64 "\n", km_size(cfg));
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
int km_parse_configs(struct drv *d, const char *list, char *err, size_t len)
{
	char buf[256], *save = NULL;
	bool any = false;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int c = 0;

		while (*tok == ' ')
			tok++;
		while (c < C_N && strcmp(tok, km_config_names[c]))
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
void km_setup_machine(struct drv *d, const struct km_cfg *cfg)
{
	int cpus[IL_MAX_CPUS], n = il_cpu_online(cpus, IL_MAX_CPUS), lg = 0;

	su->cfg = cfg;
	su->si = d->si;
	il_km_fair_server_of(&su->si, &su->fs);
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

/* Can this configuration run here?  NULL, or the reason it cannot. */
const char *km_cannot_run(struct drv *d, int c, char *why, size_t len)
{
	char mnt[256];
	int version;

	if ((c == C_CROSS_CPU || c == C_RT_WAITER) && su->other < 0) {
		snprintf(why, len, "%s needs a second online CPU",
			 km_config_names[c]);
		return why;
	}
	if (weighted((enum km_config)c) &&
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
