// SPDX-License-Identifier: MIT
/*
 * About SCHED_DEADLINE scenarios, shared by the driver and dl-mbwi: the
 * per-task tables and JSON, and the negative control that takes a task's
 * reservation away; see dl-tasks.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/mbwi.h>
#include <invlab/report.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "driver.h"
#include "dl-tasks.h"

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

void dl_tasks_print(FILE *f, const struct il_scenario *sc,
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
	il_table_col(&t, "lent total", true);
	il_table_col(&t, "max", true);
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
		/* the budget that paid for others (engine.h) */
		il_format_duration(a, sizeof(a), r->budget_lent.sum);
		il_format_stat(b, sizeof(b), &r->budget_lent, -1);
		il_table_cell(&t, "%s", dl && r->budget_lent.count ? a : "-");
		il_table_cell(&t, "%s", dl && r->budget_lent.count ? b : "-");
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

void dl_tasks_json(struct il_json *j, const struct il_scenario *sc,
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
			il_json_hist(j, "budget_lent_ns", &r->budget_lent);
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

int dl_tasks_unreserve(struct il_scenario *sc, int ti,
		       struct il_sched *declared, int *unreserved, char *err,
		       size_t len)
{
	const char *name = sc->tasks[ti].name;
	int cpus[IL_MAX_CPUS], ncpu = il_cpu_online(cpus, IL_MAX_CPUS), ret;

	if (sc->tasks[ti].sched.policy != IL_SCHED_DEADLINE) {
		snprintf(err, len,
			 "--unreserve %s: the task has no reservation to take "
			 "away (%s)",
			 name, sc->tasks[ti].k.class_spec);
		return -EINVAL;
	}
	*declared = sc->tasks[ti].sched;
	*unreserved = ti;
	ret = il_scenario_setf(sc, err, len, "%s.class=other", name);
	/* the fair class gets what RT throttling and the fair server leave
	 * it; deadline tasks lose nothing */
	for (int k = 0; !ret && k < ncpu && sc->ntasks < IL_MAX_TASKS; k++) {
		char hog[24];

		snprintf(hog, sizeof(hog), "rt-hog%d", k);
		if (il_scenario_add_task(sc, hog) < 0) {
			snprintf(err, len, "--unreserve: cannot add %s", hog);
			return -EINVAL;
		}
		ret = il_scenario_setf(sc, err, len, "rt-hog%d.class=fifo:1",
				       k);
		if (!ret)
			ret = il_scenario_setf(sc, err, len,
					       "rt-hog%d.cpu=spread", k);
		if (!ret)
			ret = il_scenario_setf(sc, err, len,
					       "rt-hog%d.activation=hog", k);
		if (!ret)
			ret = il_scenario_setf(sc, err, len,
					       "rt-hog%d.body=run 1ms", k);
	}
	return ret;
}
