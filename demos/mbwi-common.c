// SPDX-License-Identifier: MIT
/* The judge's environment, tables and JSON shared by invlab-run and
 * dl-mbwi; see mbwi-common.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/mbwi.h>
#include <invlab/report.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "driver.h"
#include "mbwi-common.h"

/* one step of the steal counter in /proc/stat: 1/USER_HZ */
static uint64_t steal_step(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
}

int demo_judge_env(const struct il_scenario *sc,
		   const struct il_engine_result *er,
		   const struct il_sysinfo *si, unsigned mask, const int *stop,
		   struct il_hist calib[IL_MAX_TASKS], struct il_hist *any,
		   struct il_judge_env *env, char *why, size_t len)
{
	bool need[IL_MAX_TASKS];
	struct il_judge_calib how;
	int ret;

	env->tick_ns = demo_tick_ns(si);
	env->steal_step_ns = steal_step();
	env->ncpus = si->cpus_online;
	env->rt_runtime_us = si->rt_runtime_us;
	env->rt_period_us = si->rt_period_us;
	il_judge_calib_needed(sc, er, mask, need);
	for (int i = 0; i < sc->ntasks; i++) {
		env->calib[i] = NULL;
		if (!need[i])
			continue;
		il_judge_calib_of(sc, er, i, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, stop, &calib[i], why,
					  len);
		if (ret)
			return ret;
		env->calib[i] = &calib[i];
	}
	env->calib_any = NULL;
	if (il_judge_calib_any_needed(sc, mask)) {
		il_judge_calib_of(sc, er, -1, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, stop, any, why, len);
		if (ret)
			return ret;
		env->calib_any = any;
	}
	return 0;
}

void demo_judge_record(const struct il_judge_env *env, unsigned mask,
		       struct il_judge_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->validators = mask;
	rec->tick_ns = env->tick_ns;
	rec->steal_step_ns = env->steal_step_ns;
	rec->ncpus = env->ncpus;
	rec->rt_runtime_us = env->rt_runtime_us;
	rec->rt_period_us = env->rt_period_us;
	rec->calib_any = env->calib_any;
	rec->unreserved = env->unreserved;
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		rec->calib[i] = env->calib[i];
		rec->declared[i] = env->declared[i];
	}
}

/* blocked time of every lock request of a task: total and largest */
static void blocked_of(const struct il_task_result *r, uint64_t *total,
		       uint64_t *max)
{
	*total = *max = 0;
	for (int l = 0; l < r->nlocks; l++) {
		*total += r->locks[l]->blocked.sum;
		if (r->locks[l]->blocked.count &&
		    r->locks[l]->blocked.max > *max)
			*max = r->locks[l]->blocked.max;
	}
}

static void reservation(char *buf, size_t len, const struct il_sched *s)
{
	char q[24], d[24], p[24];

	if (s->policy != IL_SCHED_DEADLINE) {
		il_sched_format(s, buf, len);
		return;
	}
	il_format_duration_exact(q, sizeof(q), s->runtime_ns);
	il_format_duration_exact(d, sizeof(d), s->deadline_ns);
	il_format_duration_exact(p, sizeof(p), s->period_ns);
	snprintf(buf, len, "%s/%s/%s", q, d, p);
}

void demo_print_dl_tasks(FILE *f, const struct il_scenario *sc,
			 const struct il_engine_result *er, const char *pfx)
{
	static const double pct[] = { 0.5, 0.99, 0.999, -1 };
	struct il_table t;
	char a[80], b[32];

	/* timing: from each job's release */
	il_table_init(&t);
	il_table_col(&t, "task", false);
	il_table_col(&t, "Q/D/P", false);
	il_table_col(&t, "placement", false);
	il_table_col(&t, "jobs", true);
	il_table_col(&t, "misses", true);
	il_table_col(&t, "wakeup p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "p999", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "response p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "p999", true);
	il_table_col(&t, "max", true);
	for (int i = 0; i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];

		reservation(a, sizeof(a), &sc->tasks[i].sched);
		il_table_cell(&t, "%s", r->name);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", r->placement);
		il_table_cell(&t, "%" PRIu64, r->jobs);
		il_table_cell(&t, "%" PRIu64, r->misses);
		for (int k = 0; k < 4; k++) {
			il_format_stat(b, sizeof(b), &r->wakeup, pct[k]);
			il_table_cell(&t, "%s", b);
		}
		for (int k = 0; k < 4; k++) {
			il_format_stat(b, sizeof(b), &r->response, pct[k]);
			il_table_cell(&t, "%s", b);
		}
	}
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);

	/* per job: CPU time, reservation budget, blocking */
	il_table_init(&t);
	il_table_col(&t, "task", false);
	il_table_col(&t, "CPU/job p50", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "budget/job p50", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "not told", true);
	il_table_col(&t, "blocked total", true);
	il_table_col(&t, "max", true);
	for (int i = 0; i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];
		uint64_t total, max;
		bool dl = sc->tasks[i].sched.policy == IL_SCHED_DEADLINE;

		il_table_cell(&t, "%s", r->name);
		il_format_stat(a, sizeof(a), &r->job_cpu, 0.5);
		il_format_stat(b, sizeof(b), &r->job_cpu, -1);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", b);
		il_format_stat(a, sizeof(a), &r->budget, 0.5);
		il_format_stat(b, sizeof(b), &r->budget, -1);
		il_table_cell(&t, "%s", dl ? a : "-");
		il_table_cell(&t, "%s", dl ? b : "-");
		if (dl)
			il_table_cell(&t, "%" PRIu64, r->budget_unknown);
		else
			il_table_cell(&t, "%s", "-");
		blocked_of(r, &total, &max);
		if (!r->nlocks) {
			il_table_cell(&t, "%s", "-");
			il_table_cell(&t, "%s", "-");
			continue;
		}
		il_format_duration(a, sizeof(a), total);
		il_format_duration(b, sizeof(b), max);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", b);
	}
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
}

void demo_json_tasks(struct il_json *j, const struct il_scenario *sc,
		     const struct il_engine_result *er)
{
	il_json_begin_array(j, "tasks");
	for (int i = 0; i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];
		const struct il_sched *s = &sc->tasks[i].sched;
		uint64_t total, max;

		blocked_of(r, &total, &max);
		il_json_begin_object(j, NULL);
		il_json_str(j, "name", r->name);
		il_json_str(j, "placement", r->placement);
		if (s->policy == IL_SCHED_DEADLINE) {
			il_json_uint(j, "runtime_ns", s->runtime_ns);
			il_json_uint(j, "deadline_ns", s->deadline_ns);
			il_json_uint(j, "period_ns", s->period_ns);
		}
		il_json_uint(j, "jobs", r->jobs);
		il_json_uint(j, "deadline_misses", r->misses);
		il_json_hist(j, "wakeup_ns", &r->wakeup);
		il_json_hist(j, "response_ns", &r->response);
		il_json_hist(j, "job_cpu_ns", &r->job_cpu);
		if (s->policy == IL_SCHED_DEADLINE) {
			il_json_hist(j, "budget_ns", &r->budget);
			il_json_uint(j, "budget_unknown", r->budget_unknown);
		}
		il_json_uint(j, "blocked_total_ns", total);
		il_json_uint(j, "blocked_max_ns", max);
		il_json_begin_array(j, "locks");
		for (int l = 0; l < r->nlocks; l++) {
			il_json_begin_object(j, NULL);
			il_json_str(j, "resource",
				    sc->res[r->locks[l]->res].name);
			il_json_uint(j, "judged", r->locks[l]->nsamples);
			il_json_uint(j, "late", r->locks[l]->late);
			il_json_hist(j, "blocked_ns", &r->locks[l]->blocked);
			il_json_hist(j, "release_to_lock_ns",
				     &r->locks[l]->delay);
			il_json_end_object(j);
		}
		il_json_end_array(j);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}
