// SPDX-License-Identifier: MIT
/* The "judge_inputs" member of a run's JSON object; see report-judge.h. */
#include <stdio.h>
#include <stdlib.h>

#include <invlab/report-judge.h>

static void sched_obj(struct il_json *j, const char *key,
		      const struct il_sched *s)
{
	il_json_begin_object(j, key);
	il_json_int(j, "policy", (int64_t)s->policy);
	il_json_int(j, "prio", s->prio);
	il_json_int(j, "nice", s->nice);
	il_json_uint(j, "runtime_ns", s->runtime_ns);
	il_json_uint(j, "deadline_ns", s->deadline_ns);
	il_json_uint(j, "period_ns", s->period_ns);
	il_json_uint(j, "flags", s->flags);
	il_json_end_object(j);
}

static void uint_array(struct il_json *j, const char *key, const uint64_t *v,
		       int n)
{
	il_json_begin_array(j, key);
	for (int i = 0; i < n; i++)
		il_json_uint(j, NULL, v[i]);
	il_json_end_array(j);
}

static void job_text(struct il_json *j, const struct il_scenario *sc)
{
	char *job = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&job, &len);

	if (m) {
		il_scenario_write(sc, m);
		if (fclose(m))
			len = 0;
	}
	il_json_str(j, "job_text", m && len ? job : NULL);
	free(job);
}

/* who ran in the waits, from the trace (attrib.h): the judge's account */
static void attr_obj(struct il_json *j, const struct il_lock_result *lr)
{
	const struct il_attr_summary *a = &lr->attr;

	if (lr->traced) {
		/* each wait, as the trace attributes it: [foreign, lower,
		 * covered, unseen] (covered 1: the trace saw it whole;
		 * unseen: of lower, what no record of its CPU witnesses) */
		il_json_begin_array(j, "traced");
		for (size_t k = 0; k < lr->nsamples; k++) {
			il_json_begin_array(j, NULL);
			il_json_uint(j, NULL, lr->traced[k].foreign_ns);
			il_json_uint(j, NULL, lr->traced[k].lower_ns);
			il_json_int(j, NULL, lr->traced[k].traced);
			il_json_uint(j, NULL, lr->traced[k].unseen_ns);
			il_json_end_array(j);
		}
		il_json_end_array(j);
	} else {
		il_json_null(j, "traced");
	}
	il_json_begin_object(j, "attribution");
	il_json_uint(j, "waits", a->traced);
	il_json_uint(j, "holder_ns", a->holder_ns);
	il_json_uint(j, "lower_ns", a->lower_ns);
	il_json_uint(j, "higher_ns", a->higher_ns);
	il_json_uint(j, "foreign_higher_ns", a->fhigh_ns);
	il_json_uint(j, "foreign_lower_ns", a->flow_ns);
	il_json_uint(j, "fair_ns", a->fair_ns);
	il_json_uint(j, "idle_ns", a->idle_ns);
	il_json_uint(j, "waiter_ns", a->waiter_ns);
	il_json_uint(j, "boosted", a->boosted);
	il_json_uint(j, "boost_worst_ns", a->boost_worst_ns);
	il_json_uint(j, "donor_migrated", a->donor_migrated);
	il_json_int(j, "boost_from", a->boost_from);
	il_json_int(j, "boost_to", a->boost_to);
	il_json_str(j, "note", a->note);
	il_json_begin_array(j, "foreign");
	for (uint32_t i = 0; i < a->nnamed; i++) {
		const struct il_attr_named *f = &a->named[i];

		il_json_begin_object(j, NULL);
		il_json_int(j, "pid", f->pid);
		il_json_str(j, "comm", f->comm);
		il_json_int(j, "kprio", f->kprio);
		il_json_bool(j, "higher", f->higher != 0);
		il_json_bool(j, "boosted", f->boosted != 0);
		il_json_uint(j, "ns", f->ns);
		il_json_uint(j, "worst_ns", f->worst_ns);
		il_json_uint(j, "waits", f->waits);
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

/*
 * The task's run-time accounts in the trace: how many, and those longer
 * than one tick ([ts, run]), which the bandwidth check reads as a late
 * tick (il_trace_late_ticks): kept so that a re-judge without the trace
 * gives the same verdict
 */
static void accounts(struct il_json *j, const struct il_trace *t, int pid,
		     uint64_t tick_ns)
{
	uint64_t n = 0;

	il_json_begin_array(j, "long_accounts");
	for (size_t k = 0; t && pid > 0 && k < t->n; k++) {
		const struct il_trace_rec *x = &t->rec[k];

		if (x->kind != IL_TR_RUNTIME || x->prev_pid != pid)
			continue;
		n++;
		if (x->next_pid < 0 || (uint64_t)x->next_pid <= tick_ns)
			continue;
		il_json_begin_array(j, NULL);
		il_json_uint(j, NULL, x->ts);
		il_json_uint(j, NULL, (uint64_t)x->next_pid);
		il_json_end_array(j);
	}
	il_json_end_array(j);
	il_json_uint(j, "runtime_accounts", n);
}

static void task_obj(struct il_json *j, const struct il_task_result *r,
		     int nres, const struct il_judge_record *rec, int i,
		     const struct il_trace *t)
{
	il_json_begin_object(j, NULL);
	il_json_str(j, "name", r->name);
	il_json_int(j, "tid", r->tid);
	il_json_int(j, "cpu", r->cpu);
	il_json_bool(j, "partitioned", r->partitioned != 0);
	il_json_uint(j, "jobs", r->jobs);
	il_json_uint(j, "misses", r->misses);
	il_json_hist(j, "response_ns", &r->response);
	uint_array(j, "hold_max_ns", r->hold_max, nres);
	{
		uint64_t p50[IL_MAX_RESOURCES];

		for (int k = 0; k < nres && k < IL_MAX_RESOURCES; k++)
			p50[k] = il_engine_hold_p50(r, k);
		uint_array(j, "hold_p50_ns", p50, nres);
	}
	il_json_hist(j, "calib_ns", rec->calib[i]);
	accounts(j, t, r->tid, rec->tick_ns);
	/* the deboost check's ledger, from the trace (engine.h) */
	if (r->deboost.traced) {
		const struct il_deboost *d = &r->deboost;

		il_json_begin_object(j, "deboost");
		il_json_uint(j, "gaps", d->gaps);
		il_json_uint(j, "after_boost", d->after_boost);
		il_json_uint(j, "missed", d->missed);
		il_json_uint(j, "lost_events", d->lost);
		il_json_int(j, "own_prio", d->own_prio);
		il_json_int(j, "missed_prio", d->missed_prio);
		il_json_uint(j, "missed_at_ns", d->missed_at_ns);
		il_json_uint(j, "missed_late_ns", d->missed_late_ns);
		il_json_end_object(j);
	}
	/* and the affinity check's (engine.h) */
	if (r->affinity.traced) {
		const struct il_affinity *a = &r->affinity;

		il_json_begin_object(j, "affinity");
		il_json_uint(j, "runs", a->runs);
		il_json_uint(j, "away", a->away);
		il_json_uint(j, "returned", a->returned);
		il_json_uint(j, "outside", a->outside);
		il_json_int(j, "cpu", a->cpu);
		il_json_int(j, "outside_cpu", a->outside_cpu);
		il_json_uint(j, "outside_at_ns", a->outside_at_ns);
		il_json_uint(j, "outside_late_ns", a->outside_late_ns);
		il_json_end_object(j);
	}
	if (rec->declared[i])
		sched_obj(j, "declared", rec->declared[i]);
	else
		il_json_null(j, "declared");
	/* each job: [cpu, start, end, release] and, from the trace, its
	 * foreign time (engine.h, job_foreign_seq), then its EDF inversion
	 * (job_later_seq), the wait its reservation throttled
	 * (job_throttled_seq) and, queued, the wait only its budget would
	 * make the kernel's (job_budget_seq) */
	il_json_begin_array(j, "job_seq");
	for (size_t k = 0; k < r->njob_cpu; k++) {
		il_json_begin_array(j, NULL);
		il_json_uint(j, NULL, r->job_cpu_seq[k]);
		il_json_uint(j, NULL, r->job_start_seq[k]);
		il_json_uint(j, NULL, r->job_end_seq[k]);
		il_json_uint(j, NULL, r->job_rel_seq[k]);
		if (r->job_foreign_seq || r->job_later_seq)
			il_json_uint(j, NULL,
				     r->job_foreign_seq ? r->job_foreign_seq[k]
							: 0);
		if (r->job_later_seq)
			il_json_uint(j, NULL, r->job_later_seq[k]);
		if (r->job_later_seq && r->job_throttled_seq)
			il_json_uint(j, NULL, r->job_throttled_seq[k]);
		if (r->job_later_seq && r->job_throttled_seq &&
		    r->job_budget_seq)
			il_json_uint(j, NULL, r->job_budget_seq[k]);
		il_json_end_array(j);
	}
	il_json_end_array(j);
	il_json_begin_array(j, "locks");
	for (int l = 0; l < r->nlocks; l++) {
		const struct il_lock_result *lr = r->locks[l];

		il_json_begin_object(j, NULL);
		il_json_int(j, "res", lr->res);
		il_json_uint(j, "late", lr->late);
		il_json_bool(j, "exact_foreign", lr->exact_foreign != 0);
		il_json_hist(j, "blocked_ns", &lr->blocked);
		/* each wait: [delay, foreign, lower, timed_out, start,
		 * request] */
		il_json_begin_array(j, "samples");
		for (size_t k = 0; k < lr->nsamples; k++) {
			const struct il_wait_sample *s = &lr->samples[k];

			il_json_begin_array(j, NULL);
			il_json_uint(j, NULL, s->delay_ns);
			il_json_uint(j, NULL, s->foreign_ns);
			il_json_uint(j, NULL, s->lower_ns);
			il_json_uint(j, NULL, s->timed_out ? 1 : 0);
			il_json_uint(j, NULL, s->t_ns);
			il_json_uint(j, NULL, s->t_req_ns);
			il_json_end_array(j);
		}
		il_json_end_array(j);
		attr_obj(j, lr);
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

static void kmutex_obj(struct il_json *j, const struct il_judge_kmutex *km,
		       const struct il_engine_result *er)
{
	const struct il_sysinfo *si = km->si;

	il_json_begin_object(j, "kmutex");
	il_json_int(j, "config", km->config);
	il_json_uint(j, "quantum_ns", km->quantum_ns);
	/* the tester's override (enum il_km_donor): true yes, false no,
	 * null the fingerprint decides */
	if (km->donor_migration == 1 || km->donor_migration == 2)
		il_json_bool(j, "donor_migration", km->donor_migration == 1);
	else
		il_json_null(j, "donor_migration");
	il_json_str(j, "hung_why", er->hung ? er->hung_why : NULL);
	il_json_str(j, "release", si ? si->release : NULL);
	il_json_int(j, "proxy_exec_active", si ? si->proxy_exec_active : -1);
	il_json_int(j, "fair_server_runtime_ns",
		    si ? si->fair_server_runtime_ns : -1);
	il_json_int(j, "fair_server_period_ns",
		    si ? si->fair_server_period_ns : -1);
	il_json_end_object(j);
}

void il_report_judge_inputs(struct il_json *j, const struct il_scenario *sc,
			    const struct il_engine_result *er,
			    const struct il_judge_record *rec)
{
	if (!sc || !er || !rec) {
		il_json_null(j, "judge_inputs");
		return;
	}
	il_json_begin_object(j, "judge_inputs");
	il_json_int(j, "version", IL_JUDGE_INPUTS_VERSION);
	job_text(j, sc);
	il_json_uint(j, "validators", rec->validators);
	il_json_uint(j, "tick_ns", rec->tick_ns);
	il_json_uint(j, "steal_step_ns", rec->steal_step_ns);
	il_json_int(j, "ncpus", rec->ncpus);
	il_json_int(j, "rt_runtime_us", rec->rt_runtime_us);
	il_json_int(j, "rt_period_us", rec->rt_period_us);
	il_json_int(j, "fair_runtime_ns", rec->fair_runtime_ns);
	il_json_int(j, "fair_period_ns", rec->fair_period_ns);
	il_json_int(j, "unreserved", rec->unreserved);
	il_json_hist(j, "calib_any_ns", rec->calib_any);
	il_json_uint(j, "t_start_ns", er->t_start_ns);
	il_json_uint(j, "steal_ns", er->steal_ns);
	il_json_uint(j, "trace_silence_ns",
		     er->trace ? il_trace_silence(er->trace, rec->ncpus)
			       : er->trace_silence_ns);
	il_json_bool(j, "hung", er->hung != 0);
	il_json_str(j, "trace_note", er->trace_note);
	/* the steal timeline: [time, cumulative steal, then that of each
	 * of steal_cpus alone] */
	il_json_begin_array(j, "steal_cpus");
	for (int c = 0; er->steal_cv && c < er->steal_ncpu; c++)
		il_json_int(j, NULL, er->steal_cpu[c]);
	il_json_end_array(j);
	il_json_begin_array(j, "steal_timeline");
	for (size_t k = 0; k < er->nsteal; k++) {
		il_json_begin_array(j, NULL);
		il_json_uint(j, NULL, er->steal_t[k]);
		il_json_uint(j, NULL, er->steal_v[k]);
		for (int c = 0; er->steal_cv && c < er->steal_ncpu; c++)
			il_json_uint(j, NULL,
				     er->steal_cv[k * (size_t)er->steal_ncpu +
						  (size_t)c]);
		il_json_end_array(j);
	}
	il_json_end_array(j);
	uint_array(j, "kmutex_cost_ns", er->kmutex_cost_ns, sc->nres);
	uint_array(j, "kmutex_cost_p90_ns", er->kmutex_cost_p90_ns, sc->nres);
	uint_array(j, "kmutex_cost_mean_ns", er->kmutex_cost_mean_ns, sc->nres);
	il_json_begin_array(j, "tasks");
	for (int i = 0; i < er->ntasks && i < IL_MAX_TASKS; i++)
		task_obj(j, &er->tasks[i], sc->nres, rec, i, er->trace);
	il_json_end_array(j);
	if (rec->kmutex)
		kmutex_obj(j, rec->kmutex, er);
	il_json_end_object(j);
}
