// SPDX-License-Identifier: MIT
/*
 * The pi-classic demo's reports (pi-classic.h): the note after each run,
 * the JSON of the scenario and of each run, the --live rows.
 */
#include <inttypes.h>

#include <invlab/judge.h>
#include <invlab/time.h>

#include "pi-classic.h"

/* high's lock, low's section on M, and the calibration */
#define HIGH(r)	 (&(r)->er->tasks[il_scenario_task((r)->sc, "high")])
#define LOW(r)	 (&(r)->er->tasks[il_scenario_task((r)->sc, "low")])
#define CALIB(r) ((r)->env.calib[il_scenario_task((r)->sc, "high")])

/* the reports' copy of the tasks' CPU; pi-classic.c sets it */
int pic_cpu;

void pic_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		  const char *pfx)
{
	const struct il_hist *cal = CALIB(r);
	char steal[24];

	if (!r->nck)
		return;
	il_format_duration(steal, sizeof(steal), r->er->steal_ns);
	fprintf(f,
		"%s  %s; bound = longest critical section measured; noise = "
		"p90 idle wakeup latency (%" PRIu64 " samples); steal on the "
		"CPU %s; %zu round(s) with a late holder not judged\n",
		pfx, r->ck[0].c.bound_name, cal ? cal->count : 0, steal,
		HIGH(r)->locks[0]->late);
}

void pic_json_head(struct drv *d, struct il_json *j)
{
	const struct pic_cfg *g = d->cfg;

	il_json_begin_object(j, "scenario");
	il_json_int(j, "cpu", pic_cpu);
	il_json_uint(j, "cs_ns", g->cs_ns);
	il_json_uint(j, "hog_ns", g->hog_ns);
	il_json_uint(j, "lead_ns", g->cs_ns / 4);
	il_json_int(j, "prio_low", g->prio_low);
	il_json_int(j, "prio_medium", g->prio_medium);
	il_json_int(j, "prio_high", g->prio_high);
	il_json_uint(j, "duration_ns", g->common.duration_ns);
	il_json_int(j, "repeat", g->common.repeat);
	il_json_bool(j, "ignore_protocol", g->ignore_protocol);
	il_json_end_object(j);
}

void pic_json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	const struct il_task_result *lo = LOW(r);
	int m = il_scenario_resource(r->sc, "M");
	struct il_hist none;

	drv_json_subject(d, r, j);
	il_json_uint(j, "rounds_late_holder", HIGH(r)->locks[0]->late);
	il_hist_init(&none);
	il_json_hist(j, "holder_cs_cpu_ns", lo->hold[m] ? lo->hold[m] : &none);
}

/* --live: high's waits and the verdict forming (no noise allowance yet) */
int pic_live_rows(struct drv *d, const struct drv_run *r,
		  const struct il_engine_result *er, struct drv_live_row *row,
		  int max)
{
	const struct il_task_result *hi =
		&er->tasks[il_scenario_task(r->sc, "high")];
	const struct il_task_result *lo =
		&er->tasks[il_scenario_task(r->sc, "low")];
	int m = il_scenario_resource(r->sc, "M");
	size_t n = __atomic_load_n(&hi->locks[0]->nsamples, __ATOMIC_ACQUIRE);
	enum il_verdict v =
		il_judge_pi_so_far(hi->locks[0]->samples, n, lo->hold_max[m]);

	snprintf(row[0].name, sizeof(row[0].name), "high blocked");
	row[0].h = &hi->locks[0]->blocked;
	snprintf(row[0].verdict, sizeof(row[0].verdict), "%s so far",
		 il_verdict_name(v));
	snprintf(row[1].name, sizeof(row[1].name), "high wakeup");
	row[1].h = &hi->wakeup;
	snprintf(row[2].name, sizeof(row[2].name), "low section (CPU)");
	row[2].h = lo->hold[m];
	return row[2].h && max >= 3 ? 3 : 2;
}
