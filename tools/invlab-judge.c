// SPDX-License-Identifier: MIT
/*
 * invlab-judge: judge a run again from its result file.
 *
 *   invlab-judge RESULT.json
 *
 * Every run of an invlab-run, dl-mbwi, pi-classic, pi-chain or kmutex
 * result file records what its verdicts were decided from
 * ("judge_inputs", docs/results.md): the job as it ran, what the engine
 * measured, the calibrations and the rest of the judge's environment
 * (and for kmutex what its judge reads besides: "kmutex").  This rebuilds
 * the scenario, the engine result and the environment from them, judges
 * again (il_judge_run, or il_km_judge_run for a kmutex run), prints each
 * verdict and compares it with the recorded one.
 *
 * Exit: 0 when every re-derived verdict and expectation equals the
 * recorded one, 3 when they all do but a check where PASS was expected
 * is UNDECIDED (as the program that wrote the file ended: an UNDECIDED
 * is not a pass, docs/exit-status.md), 1 when any differs (both
 * printed), 2 for bad usage or a file that cannot be read or has no
 * judge inputs (FILE: message).
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <invlab/opt.h>
#include <invlab/report.h>

#include <invlab/emulated.h>
#include <invlab/engine.h>
#include <invlab/expect.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/scenario.h>
#include <invlab/verdict.h>

#include "args.h"
#include "escape.h"
#include "results.h"

#define PROG	   "invlab-judge"
#define MAX_CHECKS (4 * IL_MAX_TASKS)

/* everything one run is rebuilt into (freed with run_free) */
struct run {
	struct il_scenario sc;
	bool have_sc;
	struct il_engine_result er;
	struct il_judge_env env;
	struct il_hist calib[IL_MAX_TASKS], calib_any;
	struct il_sched declared[IL_MAX_TASKS];
	unsigned mask;
	/* a kmutex run (km.si points to si) */
	bool have_km;
	struct il_judge_kmutex km;
	struct il_sysinfo si;
};

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_null(struct json_object *o)
{
	return !o || json_object_get_type(o) == json_type_null;
}

/* a number member; -EINVAL when missing or not a number */
static int num(struct json_object *o, const char *key, int64_t *v, char *err,
	       size_t len)
{
	struct json_object *x = get(o, key);

	if (!x || (!json_object_is_type(x, json_type_int) &&
		   !json_object_is_type(x, json_type_boolean))) {
		snprintf(err, len, "'%s' is missing or not an integer", key);
		return -EINVAL;
	}
	*v = json_object_is_type(x, json_type_boolean)
		     ? json_object_get_boolean(x)
		     : json_object_get_int64(x);
	return 0;
}

static int unum(struct json_object *o, const char *key, uint64_t *v, char *err,
		size_t len)
{
	struct json_object *x = get(o, key);

	if (!x || !json_object_is_type(x, json_type_int)) {
		snprintf(err, len, "'%s' is missing or not an integer", key);
		return -EINVAL;
	}
	*v = json_object_get_uint64(x);
	return 0;
}

static uint64_t elem(struct json_object *a, size_t i)
{
	return json_object_get_uint64(json_object_array_get_idx(a, i));
}

static struct json_object *array(struct json_object *o, const char *key,
				 char *err, size_t len)
{
	struct json_object *a = get(o, key);

	if (!a || !json_object_is_type(a, json_type_array)) {
		snprintf(err, len, "'%s' is missing or not an array", key);
		return NULL;
	}
	return a;
}

static void str_member(struct json_object *o, const char *key, char *buf,
		       size_t len)
{
	struct json_object *x = get(o, key);

	snprintf(buf, len, "%s",
		 x && json_object_is_type(x, json_type_string)
			 ? json_object_get_string(x)
			 : "");
}

/* an optional unsigned member: 0 when missing */
static uint64_t opt_u(struct json_object *o, const char *key)
{
	struct json_object *x = get(o, key);

	return x && json_object_is_type(x, json_type_int)
		       ? json_object_get_uint64(x)
		       : 0;
}

/*
 * The trace's account of a lock's waits ("traced", "attribution"):
 * optional, files written without a trace have none.
 */
static int load_attr(struct json_object *lo, struct il_lock_result *lr,
		     const char *task, char *err, size_t len)
{
	struct json_object *tr = get(lo, "traced"), *a = get(lo, "attribution"),
			   *f;
	struct il_attr_summary *s = &lr->attr;

	if (a && json_object_is_type(a, json_type_object)) {
		s->traced = opt_u(a, "waits");
		s->holder_ns = opt_u(a, "holder_ns");
		s->lower_ns = opt_u(a, "lower_ns");
		s->higher_ns = opt_u(a, "higher_ns");
		s->fhigh_ns = opt_u(a, "foreign_higher_ns");
		s->flow_ns = opt_u(a, "foreign_lower_ns");
		s->fair_ns = opt_u(a, "fair_ns");
		s->idle_ns = opt_u(a, "idle_ns");
		s->waiter_ns = opt_u(a, "waiter_ns");
		s->boosted = opt_u(a, "boosted");
		s->boost_worst_ns = opt_u(a, "boost_worst_ns");
		s->donor_migrated = opt_u(a, "donor_migrated");
		s->boost_from =
			(int16_t)json_object_get_int(get(a, "boost_from"));
		s->boost_to = (int16_t)json_object_get_int(get(a, "boost_to"));
		str_member(a, "note", s->note, sizeof(s->note));
		f = get(a, "foreign");
		for (size_t i = 0;
		     f && json_object_is_type(f, json_type_array) &&
		     i < json_object_array_length(f) && i < IL_ATTR_MAX_NAMED;
		     i++) {
			struct json_object *x = json_object_array_get_idx(f, i);
			struct il_attr_named *nm = &s->named[s->nnamed++];

			nm->pid = json_object_get_int(get(x, "pid"));
			nm->kprio =
				(int16_t)json_object_get_int(get(x, "kprio"));
			nm->higher = json_object_get_boolean(get(x, "higher"));
			/* absent in older files: not raised */
			nm->boosted =
				json_object_get_boolean(get(x, "boosted"));
			nm->ns = opt_u(x, "ns");
			nm->worst_ns = opt_u(x, "worst_ns");
			nm->waits = opt_u(x, "waits");
			str_member(x, "comm", nm->comm, sizeof(nm->comm));
		}
	}
	if (is_null(tr))
		return 0;
	if (!json_object_is_type(tr, json_type_array) ||
	    json_object_array_length(tr) != lr->nsamples) {
		snprintf(err, len,
			 "task %s: 'traced' is not one entry per wait", task);
		return -EINVAL;
	}
	lr->traced =
		lr->nsamples ? calloc(lr->nsamples, sizeof(*lr->traced)) : NULL;
	if (lr->nsamples && !lr->traced) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t k = 0; k < lr->nsamples; k++) {
		struct json_object *w = json_object_array_get_idx(tr, k);

		/* [foreign, lower] before the trace decided, then
		 * [foreign, lower, covered], then [..., unseen]: an older
		 * file's waits are not covered, and are judged on
		 * durations; without unseen, none of lower is witnessed */
		if (!json_object_is_type(w, json_type_array) ||
		    json_object_array_length(w) < 2 ||
		    json_object_array_length(w) > 4) {
			snprintf(err, len,
				 "task %s: traced wait %zu is malformed", task,
				 k);
			return -EINVAL;
		}
		lr->traced[k] = lr->samples[k];
		lr->traced[k].foreign_ns = elem(w, 0);
		lr->traced[k].lower_ns = elem(w, 1);
		lr->traced[k].traced =
			json_object_array_length(w) >= 3 && elem(w, 2) == 1;
		lr->traced[k].unseen_ns = json_object_array_length(w) == 4
						  ? elem(w, 3)
						  : lr->traced[k].lower_ns;
	}
	return 0;
}

/* a histogram as il_json_hist wrote it (null: *set false) */
static int hist(struct json_object *o, struct il_hist *h, bool *set, char *err,
		size_t len)
{
	struct json_object *bins;
	uint64_t v;

	il_hist_init(h);
	*set = false;
	if (is_null(o))
		return 0;
	bins = array(o, "bins", err, len);
	if (!bins)
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(bins); i++) {
		struct json_object *b = json_object_array_get_idx(bins, i);

		if (!json_object_is_type(b, json_type_array) ||
		    json_object_array_length(b) != 2 ||
		    il_hist_add_bin(h, elem(b, 0), elem(b, 1))) {
			snprintf(err, len, "histogram bin %zu is malformed", i);
			return -EINVAL;
		}
	}
	if (h->count) {
		if (unum(o, "min", &h->min, err, len) ||
		    unum(o, "max", &h->max, err, len))
			return -EINVAL;
	}
	if (!unum(o, "overflow", &v, err, len))
		h->overflow = v;
	*set = true;
	return 0;
}

static int sched_of(struct json_object *o, struct il_sched *s, char *err,
		    size_t len)
{
	int64_t policy, prio, nice;

	memset(s, 0, sizeof(*s));
	if (num(o, "policy", &policy, err, len) ||
	    num(o, "prio", &prio, err, len) ||
	    num(o, "nice", &nice, err, len) ||
	    unum(o, "runtime_ns", &s->runtime_ns, err, len) ||
	    unum(o, "deadline_ns", &s->deadline_ns, err, len) ||
	    unum(o, "period_ns", &s->period_ns, err, len) ||
	    unum(o, "flags", &s->flags, err, len))
		return -EINVAL;
	s->policy = (enum il_policy)policy;
	s->prio = (int)prio;
	s->nice = (int)nice;
	return 0;
}

/*
 * The task's run-time accounts the trace held (engine.h naccounts,
 * long_acct_*): absent from files written before them, and then none
 */
static int long_accounts(struct json_object *o, struct il_task_result *r,
			 char *err, size_t len)
{
	struct json_object *a = get(o, "long_accounts");
	uint64_t seen;
	size_t n;

	if (!get(o, "runtime_accounts"))
		return 0;
	if (unum(o, "runtime_accounts", &seen, err, len))
		return -EINVAL;
	r->naccounts = seen > LONG_MAX ? LONG_MAX : (long)seen;
	if (!a || !json_object_is_type(a, json_type_array)) {
		snprintf(err, len,
			 "task %s: 'long_accounts' is missing or not "
			 "an array",
			 r->name);
		return -EINVAL;
	}
	n = json_object_array_length(a);
	if (!n)
		return 0;
	r->long_acct_ts = calloc(n, sizeof(uint64_t));
	r->long_acct_run = calloc(n, sizeof(uint64_t));
	if (!r->long_acct_ts || !r->long_acct_run) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		struct json_object *x = json_object_array_get_idx(a, k);

		if (!json_object_is_type(x, json_type_array) ||
		    json_object_array_length(x) != 2) {
			snprintf(err, len, "task %s: account %zu is malformed",
				 r->name, k);
			return -EINVAL;
		}
		r->long_acct_ts[k] = elem(x, 0);
		r->long_acct_run[k] = elem(x, 1);
	}
	r->nlong_acct = n;
	return 0;
}

/*
 * The deboost ledger the trace gave (engine.h il_deboost): absent from
 * files written without a trace or before it, and then nothing to judge
 */
static int deboost_of(struct json_object *o, struct il_task_result *r,
		      char *err, size_t len)
{
	struct json_object *d = get(o, "deboost");
	struct il_deboost *b = &r->deboost;
	int64_t own, ran;
	char why[128] = "not an object";

	if (!d || is_null(d))
		return 0;
	if (!json_object_is_type(d, json_type_object) ||
	    unum(d, "gaps", &b->gaps, why, sizeof(why)) ||
	    unum(d, "after_boost", &b->after_boost, why, sizeof(why)) ||
	    unum(d, "missed", &b->missed, why, sizeof(why)) ||
	    unum(d, "lost_events", &b->lost, why, sizeof(why)) ||
	    num(d, "own_prio", &own, why, sizeof(why)) ||
	    num(d, "missed_prio", &ran, why, sizeof(why)) ||
	    unum(d, "missed_at_ns", &b->missed_at_ns, why, sizeof(why)) ||
	    unum(d, "missed_late_ns", &b->missed_late_ns, why, sizeof(why))) {
		snprintf(err, len, "task %s: 'deboost': %s", r->name, why);
		return -EINVAL;
	}
	if (own < -1 || own > 139 || ran < -1 || ran > 139) {
		snprintf(err, len,
			 "task %s: 'deboost': a priority out of -1..139",
			 r->name);
		return -EINVAL;
	}
	b->own_prio = (int32_t)own;
	b->missed_prio = (int32_t)ran;
	b->traced = 1;
	return 0;
}

/* and the affinity ledger (engine.h il_affinity), likewise optional */
static int affinity_of(struct json_object *o, struct il_task_result *r,
		       char *err, size_t len)
{
	struct json_object *x = get(o, "affinity");
	struct il_affinity *a = &r->affinity;
	int64_t cpu, out;
	char why[128] = "not an object";

	if (!x || is_null(x))
		return 0;
	if (!json_object_is_type(x, json_type_object) ||
	    unum(x, "runs", &a->runs, why, sizeof(why)) ||
	    unum(x, "away", &a->away, why, sizeof(why)) ||
	    unum(x, "returned", &a->returned, why, sizeof(why)) ||
	    unum(x, "outside", &a->outside, why, sizeof(why)) ||
	    num(x, "cpu", &cpu, why, sizeof(why)) ||
	    num(x, "outside_cpu", &out, why, sizeof(why)) ||
	    unum(x, "outside_at_ns", &a->outside_at_ns, why, sizeof(why)) ||
	    unum(x, "outside_late_ns", &a->outside_late_ns, why, sizeof(why))) {
		snprintf(err, len, "task %s: 'affinity': %s", r->name, why);
		return -EINVAL;
	}
	if (cpu < 0 || cpu >= IL_MAX_CPUS || out < 0 || out >= IL_MAX_CPUS) {
		snprintf(err, len, "task %s: 'affinity': a CPU out of 0..%d",
			 r->name, IL_MAX_CPUS - 1);
		return -EINVAL;
	}
	a->cpu = (int32_t)cpu;
	a->outside_cpu = (int32_t)out;
	a->traced = 1;
	return 0;
}

static int task_of(struct json_object *o, struct run *rn, int i, char *err,
		   size_t len)
{
	struct il_task_result *r = &rn->er.tasks[i];
	struct json_object *a, *locks;
	int64_t cpu, part;
	bool set;
	size_t n;

	snprintf(r->name, sizeof(r->name), "%s", rn->sc.tasks[i].name);
	if (num(o, "cpu", &cpu, err, len) ||
	    num(o, "partitioned", &part, err, len) ||
	    unum(o, "jobs", &r->jobs, err, len) ||
	    unum(o, "misses", &r->misses, err, len) ||
	    hist(get(o, "response_ns"), &r->response, &set, err, len))
		return -EINVAL;
	r->cpu = (int)cpu;
	r->partitioned = (int)part;
	if (hist(get(o, "calib_ns"), &rn->calib[i], &set, err, len))
		return -EINVAL;
	rn->env.calib[i] = set ? &rn->calib[i] : NULL;
	if (!is_null(get(o, "declared"))) {
		if (sched_of(get(o, "declared"), &rn->declared[i], err, len))
			return -EINVAL;
		rn->env.declared[i] = &rn->declared[i];
	}
	a = array(o, "hold_max_ns", err, len);
	if (!a)
		return -EINVAL;
	for (size_t k = 0;
	     k < json_object_array_length(a) && k < IL_MAX_RESOURCES; k++)
		r->hold_max[k] = elem(a, k);
	/* absent from files written before it: the bound alone then */
	a = get(o, "hold_p50_ns");
	for (size_t k = 0;
	     a && json_object_is_type(a, json_type_array) &&
	     k < json_object_array_length(a) && k < IL_MAX_RESOURCES;
	     k++)
		r->hold_p50[k] = elem(a, k);
	if (long_accounts(o, r, err, len) || deboost_of(o, r, err, len) ||
	    affinity_of(o, r, err, len))
		return -EINVAL;
	a = array(o, "job_seq", err, len);
	if (!a)
		return -EINVAL;
	n = json_object_array_length(a);
	if (n) {
		r->job_cpu_seq = calloc(n, sizeof(uint64_t));
		r->job_start_seq = calloc(n, sizeof(uint64_t));
		r->job_end_seq = calloc(n, sizeof(uint64_t));
		r->job_rel_seq = calloc(n, sizeof(uint64_t));
		if (!r->job_cpu_seq || !r->job_start_seq || !r->job_end_seq ||
		    !r->job_rel_seq) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	for (size_t k = 0; k < n; k++) {
		struct json_object *j = json_object_array_get_idx(a, k);
		size_t m = json_object_array_length(j);

		/* the fifth, foreign time, the sixth, EDF inversion, the
		 * seventh, throttled, and the eighth, a queued job's
		 * budget, in every job or in none */
		if ((m < 4 || m > 8) ||
		    (k && (m >= 5) != !!r->job_foreign_seq) ||
		    (k && (m >= 6) != !!r->job_later_seq) ||
		    (k && (m >= 7) != !!r->job_throttled_seq) ||
		    (k && (m == 8) != !!r->job_budget_seq)) {
			snprintf(err, len, "task %s: job %zu is malformed",
				 r->name, k);
			return -EINVAL;
		}
		if (m >= 5 && !k &&
		    !(r->job_foreign_seq = calloc(n, sizeof(uint64_t)))) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		if (m >= 6 && !k &&
		    !(r->job_later_seq = calloc(n, sizeof(uint64_t)))) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		if (m >= 7 && !k &&
		    !(r->job_throttled_seq = calloc(n, sizeof(uint64_t)))) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		if (m == 8 && !k &&
		    !(r->job_budget_seq = calloc(n, sizeof(uint64_t)))) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		r->job_cpu_seq[k] = elem(j, 0);
		r->job_start_seq[k] = elem(j, 1);
		r->job_end_seq[k] = elem(j, 2);
		r->job_rel_seq[k] = elem(j, 3);
		if (m >= 5)
			r->job_foreign_seq[k] = elem(j, 4);
		if (m >= 6)
			r->job_later_seq[k] = elem(j, 5);
		if (m >= 7)
			r->job_throttled_seq[k] = elem(j, 6);
		if (m == 8)
			r->job_budget_seq[k] = elem(j, 7);
	}
	r->njob_cpu = r->job_cpu_cap = n;
	locks = array(o, "locks", err, len);
	if (!locks)
		return -EINVAL;
	for (size_t l = 0;
	     l < json_object_array_length(locks) && l < IL_MAX_PHASES; l++) {
		struct json_object *lo = json_object_array_get_idx(locks, l);
		struct il_lock_result *lr = calloc(1, sizeof(*lr));
		struct json_object *s;
		int64_t res, exact;

		if (!lr) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		r->locks[r->nlocks++] = lr;
		il_hist_init(&lr->blocked);
		il_hist_init(&lr->delay);
		if (num(lo, "res", &res, err, len) ||
		    num(lo, "exact_foreign", &exact, err, len) ||
		    unum(lo, "late", &lr->late, err, len) ||
		    !(s = array(lo, "samples", err, len)))
			return -EINVAL;
		lr->res = (int)res;
		lr->exact_foreign = (int)exact;
		/* the calls' histogram (kmutex); older files have none */
		if (hist(get(lo, "blocked_ns"), &lr->blocked, &set, err, len))
			return -EINVAL;
		n = json_object_array_length(s);
		lr->samples = n ? calloc(n, sizeof(*lr->samples)) : NULL;
		if (n && !lr->samples) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		for (size_t k = 0; k < n; k++) {
			struct json_object *w = json_object_array_get_idx(s, k);
			size_t nw = json_object_is_type(w, json_type_array)
					    ? json_object_array_length(w)
					    : 0;

			/* the fifth, the wait's start, from version 2's
			 * later files on; the sixth, its lock request,
			 * later still */
			if (nw < 4 || nw > 6) {
				snprintf(err, len,
					 "task %s: wait %zu is malformed",
					 r->name, k);
				return -EINVAL;
			}
			lr->samples[k].delay_ns = elem(w, 0);
			lr->samples[k].foreign_ns = elem(w, 1);
			lr->samples[k].lower_ns = elem(w, 2);
			lr->samples[k].timed_out = elem(w, 3) != 0;
			if (nw >= 5)
				lr->samples[k].t_ns = elem(w, 4);
			if (nw == 6)
				lr->samples[k].t_req_ns = elem(w, 5);
		}
		lr->nsamples = lr->cap = n;
		if (load_attr(lo, lr, r->name, err, len))
			return -EINVAL;
	}
	return 0;
}

static void run_free(struct run *rn)
{
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		struct il_task_result *r = &rn->er.tasks[i];

		free(r->job_cpu_seq);
		free(r->job_start_seq);
		free(r->job_end_seq);
		free(r->job_rel_seq);
		free(r->job_foreign_seq);
		free(r->job_later_seq);
		free(r->job_throttled_seq);
		free(r->job_budget_seq);
		free(r->long_acct_ts);
		free(r->long_acct_run);
		for (int l = 0; l < r->nlocks; l++) {
			free(r->locks[l]->traced);
			free(r->locks[l]->samples);
			free(r->locks[l]);
		}
	}
	free(rn->er.steal_t);
	free(rn->er.steal_v);
	free(rn->er.steal_cv);
	if (rn->have_sc)
		il_scenario_free(&rn->sc);
}

/*
 * The timeline CPU by CPU (steal_cpus, and a column each after the
 * time and the sum in tl): none in a file of before, or when the run
 * kept none; a CPU out of range, a row short of its columns or a column
 * that goes back is an error
 */
static int steal_cpus(struct json_object *ji, struct il_engine_result *er,
		      struct json_object *tl, char *err, size_t len)
{
	struct json_object *a = get(ji, "steal_cpus");
	size_t n = a && json_object_is_type(a, json_type_array)
			   ? json_object_array_length(a)
			   : 0;

	er->steal_ncpu = 0;
	if (a && !json_object_is_type(a, json_type_array)) {
		snprintf(err, len, "'steal_cpus' is not an array");
		return -EINVAL;
	}
	if (!n || !er->nsteal)
		return 0;
	if (n > IL_STEAL_CPUS) {
		snprintf(err, len, "'steal_cpus' has %zu CPUs (at most %d)", n,
			 IL_STEAL_CPUS);
		return -EINVAL;
	}
	for (size_t c = 0; c < n; c++) {
		int64_t v =
			json_object_get_int64(json_object_array_get_idx(a, c));

		if (v < 0 || v >= IL_MAX_CPUS) {
			snprintf(err, len,
				 "'steal_cpus' names CPU %lld (range: 0..%d)",
				 (long long)v, IL_MAX_CPUS - 1);
			return -EINVAL;
		}
		er->steal_cpu[c] = (int)v;
	}
	er->steal_cv = calloc(er->nsteal * n, sizeof(uint64_t));
	if (!er->steal_cv) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t k = 0; k < er->nsteal; k++) {
		struct json_object *p = json_object_array_get_idx(tl, k);

		if (!json_object_is_type(p, json_type_array) ||
		    json_object_array_length(p) != 2 + n) {
			snprintf(err, len,
				 "'steal_timeline' point %zu has not the %zu "
				 "columns of 'steal_cpus'",
				 k, 2 + n);
			return -EINVAL;
		}
		for (size_t c = 0; c < n; c++) {
			er->steal_cv[k * n + c] = elem(p, 2 + c);
			if (k && er->steal_cv[k * n + c] <
					 er->steal_cv[(k - 1) * n + c]) {
				snprintf(err, len,
					 "'steal_timeline' point %zu: CPU "
					 "%d's steal goes back",
					 k, er->steal_cpu[c]);
				return -EINVAL;
			}
		}
	}
	er->steal_ncpu = (int)n;
	return 0;
}

/* what a kmutex run's judge reads besides ("kmutex"; none: not one) */
static int kmutex_of(struct json_object *ji, struct run *rn, char *err,
		     size_t len)
{
	struct json_object *k = get(ji, "kmutex");
	int64_t v;

	if (is_null(k))
		return 0;
	if (num(k, "config", &v, err, len))
		return -EINVAL;
	rn->km.config = (int)v;
	if (unum(k, "quantum_ns", &rn->km.quantum_ns, err, len))
		return -EINVAL;
	/* null or absent: the fingerprint decides (IL_KM_DONOR_AUTO);
	 * true and false as the tester said (IL_KM_DONOR_YES, _NO) */
	rn->km.donor_migration = IL_KM_DONOR_AUTO;
	if (!is_null(get(k, "donor_migration"))) {
		if (num(k, "donor_migration", &v, err, len))
			return -EINVAL;
		rn->km.donor_migration = v ? IL_KM_DONOR_YES : IL_KM_DONOR_NO;
	}
	if (num(k, "proxy_exec_active", &v, err, len))
		return -EINVAL;
	rn->si.proxy_exec_active = (int)v;
	/* not in the record: the release decides donor migration */
	rn->si.config_proxy_exec = -1;
	if (num(k, "fair_server_runtime_ns", &rn->si.fair_server_runtime_ns,
		err, len) ||
	    num(k, "fair_server_period_ns", &rn->si.fair_server_period_ns, err,
		len))
		return -EINVAL;
	str_member(k, "release", rn->si.release, sizeof(rn->si.release));
	str_member(k, "hung_why", rn->er.hung_why, sizeof(rn->er.hung_why));
	rn->si.rt_runtime_us = (long)rn->env.rt_runtime_us;
	rn->si.rt_period_us = (long)rn->env.rt_period_us;
	rn->km.si = &rn->si;
	rn->have_km = true;
	return 0;
}

/* rebuild one run from its judge inputs (text: the file's job text) */
static int rebuild(struct json_object *ji, const char *text, const char *file,
		   struct run *rn, char *err, size_t len)
{
	struct json_object *tasks, *a, *t;
	int64_t v;
	bool set;
	int ret;

	t = get(ji, "job_text");
	if (!is_null(t))
		text = json_object_get_string(t);
	if (!text) {
		snprintf(err, len, "no job text to rebuild the scenario from");
		return -EINVAL;
	}
	ret = il_scenario_parse(text, file, &rn->sc, err, len);
	if (ret)
		return ret;
	rn->have_sc = true;
	rn->env.unreserved = -1;
	if (num(ji, "validators", &v, err, len))
		return -EINVAL;
	rn->mask = (unsigned)v;
	if (unum(ji, "tick_ns", &rn->env.tick_ns, err, len) ||
	    unum(ji, "steal_step_ns", &rn->env.steal_step_ns, err, len) ||
	    num(ji, "ncpus", &v, err, len))
		return -EINVAL;
	rn->env.ncpus = (int)v;
	if (num(ji, "rt_runtime_us", &rn->env.rt_runtime_us, err, len) ||
	    num(ji, "rt_period_us", &rn->env.rt_period_us, err, len) ||
	    num(ji, "unreserved", &v, err, len))
		return -EINVAL;
	rn->env.unreserved = (int)v;
	/* since the fair server's cap; a file of before: unknown */
	if ((get(ji, "fair_runtime_ns") &&
	     num(ji, "fair_runtime_ns", &rn->env.fair_runtime_ns, err, len)) ||
	    (get(ji, "fair_period_ns") &&
	     num(ji, "fair_period_ns", &rn->env.fair_period_ns, err, len)))
		return -EINVAL;
	if (hist(get(ji, "calib_any_ns"), &rn->calib_any, &set, err, len))
		return -EINVAL;
	rn->env.calib_any = set ? &rn->calib_any : NULL;
	str_member(ji, "trace_note", rn->er.trace_note,
		   sizeof(rn->er.trace_note));
	if (unum(ji, "t_start_ns", &rn->er.t_start_ns, err, len) ||
	    unum(ji, "steal_ns", &rn->er.steal_ns, err, len) ||
	    num(ji, "hung", &v, err, len))
		return -EINVAL;
	rn->er.hung = (int)v;
	/* since the one-burst rule's bound; a file of before: unknown */
	if (get(ji, "trace_silence_ns") &&
	    unum(ji, "trace_silence_ns", &rn->er.trace_silence_ns, err, len))
		return -EINVAL;
	a = array(ji, "steal_timeline", err, len);
	if (!a)
		return -EINVAL;
	rn->er.nsteal = rn->er.steal_cap = json_object_array_length(a);
	if (rn->er.nsteal) {
		rn->er.steal_t = calloc(rn->er.nsteal, sizeof(uint64_t));
		rn->er.steal_v = calloc(rn->er.nsteal, sizeof(uint64_t));
		if (!rn->er.steal_t || !rn->er.steal_v) {
			snprintf(err, len, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	for (size_t k = 0; k < rn->er.nsteal; k++) {
		struct json_object *p = json_object_array_get_idx(a, k);

		rn->er.steal_t[k] = elem(p, 0);
		rn->er.steal_v[k] = elem(p, 1);
	}
	if (steal_cpus(ji, &rn->er, a, err, len))
		return -EINVAL;
	static const char *const costs[] = { "kmutex_cost_ns",
					     "kmutex_cost_p90_ns",
					     "kmutex_cost_mean_ns" };
	uint64_t *dst[] = { rn->er.kmutex_cost_ns, rn->er.kmutex_cost_p90_ns,
			    rn->er.kmutex_cost_mean_ns };

	for (int c = 0; c < 3; c++) {
		a = array(ji, costs[c], err, len);
		if (!a)
			return -EINVAL;
		for (size_t k = 0;
		     k < json_object_array_length(a) && k < IL_MAX_RESOURCES;
		     k++)
			dst[c][k] = elem(a, k);
	}
	tasks = array(ji, "tasks", err, len);
	if (!tasks)
		return -EINVAL;
	if ((int)json_object_array_length(tasks) != rn->sc.ntasks) {
		snprintf(err, len, "%zu tasks recorded, the job has %d",
			 json_object_array_length(tasks), rn->sc.ntasks);
		return -EINVAL;
	}
	rn->er.ntasks = rn->sc.ntasks;
	for (int i = 0; i < rn->sc.ntasks; i++)
		if (task_of(json_object_array_get_idx(tasks, i), rn, i, err,
			    len))
			return -EINVAL;
	return kmutex_of(ji, rn, err, len);
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return is_null(v) ? "" : json_object_get_string(v);
}

/*
 * s made safe for a terminal or a log (strings come from a result file:
 * untrusted), in one of a few rotating buffers: valid until four more
 * calls.
 */
static const char *esc(const char *s)
{
	static char buf[4][1024];
	static unsigned next;
	char *e = il_res_escape(s, strlen(s));
	char *b = buf[next++ % 4];

	snprintf(b, sizeof(buf[0]), "%s", e ? e : "?");
	free(e);
	return b;
}

/* the file's kernel.emulated: 1 true, 0 false, -1 unknown */
static int file_emulated = -1;

/*
 * judge one run again; 0 agrees, 1 differs, -errno with err.  The
 * re-judged checks' outcomes are added to *t.
 */
static int judge_run(struct json_object *run, int idx, const char *text,
		     const char *file, struct il_exit_tally *t, char *err,
		     size_t len)
{
	static struct il_judged ck[MAX_CHECKS];
	struct json_object *ji = get(run, "judge_inputs"), *checks;
	const char *name = str_of(run, "configuration");
	struct run *rn;
	char why[512];
	int ret, n = 0, rc = 0, nrec;

	/* a configuration this build could not run: nothing to judge */
	if (get(run, "skipped") && is_null(ji)) {
		printf("%s #%d: SKIP, not judged: %s\n", esc(name ? name : "?"),
		       idx + 1,
		       esc(str_of(run, "skipped") ? str_of(run, "skipped")
						  : "?"));
		return 0;
	}
	if (is_null(ji)) {
		snprintf(err, len, "run %d: no judge_inputs recorded", idx + 1);
		return -EINVAL;
	}
	checks = array(run, "checks", err, len);
	if (!checks)
		return -EINVAL;
	rn = calloc(1, sizeof(*rn));
	if (!rn) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = rebuild(ji, text, file, rn, why, sizeof(why));
	if (ret) {
		snprintf(err, len, "run %d: %s", idx + 1, why);
		run_free(rn);
		free(rn);
		return ret; /* rebuild's errors are all -errno */
	}
	nrec = (int)json_object_array_length(checks);
	if (rn->have_km) {
		struct il_km_judged kmo;

		ret = il_km_judge_run(&rn->sc, &rn->er, &rn->env, &rn->km, ck,
				      &n, &kmo, why, sizeof(why));
		/* a judged case: where fg ran, as the demo judges it */
		if (!ret && n)
			ret = il_judge_affinity(&rn->sc, &rn->er, "kmutex", ck,
						MAX_CHECKS, &n, why,
						sizeof(why));
	} else {
		ret = il_judge_run(&rn->sc, &rn->er, &rn->env, rn->mask, ck,
				   MAX_CHECKS, &n, why, sizeof(why));
	}
	/* the rule the demos apply on an emulated CPU (emulated.h) */
	if (!ret)
		il_emu_apply(&rn->sc, &rn->er, file_emulated, ck, n);
	if (ret) {
		/* what could not be judged then cannot be now either */
		printf("%s #%d: no verdict: %s\n", name, idx + 1, why);
		rc = nrec ? 1 : 0;
		if (nrec)
			printf("%s #%d: differs: %d checks recorded, none "
			       "re-judged\n",
			       name, idx + 1, nrec);
		n = 0;
	} else if (n != nrec) {
		printf("%s #%d: differs: %d checks recorded, %d re-judged\n",
		       name, idx + 1, nrec, n);
		rc = 1;
	}
	for (int i = 0; i < n; i++) {
		struct json_object *c =
			i < nrec ? json_object_array_get_idx(checks, i) : NULL;
		const char *got = il_verdict_name(ck[i].c.verdict);
		const char *exp = il_verdict_name(ck[i].expected);
		const char *rv = c ? str_of(c, "verdict") : "-";
		const char *re = c ? str_of(c, "expected") : "-";
		bool same = c &&
			    !strcmp(str_of(c, "validator"), ck[i].validator) &&
			    !strcmp(str_of(c, "task"), ck[i].task) &&
			    !strcmp(rv, got) && !strcmp(re, exp);

		il_exit_tally_add(t,
				  il_expect(ck[i].c.verdict, ck[i].expected));
		printf("%s #%d %s %s: %s, expected %s: %s\n", esc(name),
		       idx + 1, ck[i].validator, esc(ck[i].task), got, exp,
		       same ? "as recorded" : "DIFFERS");
		if (same && strcmp(str_of(c, "evidence"), ck[i].c.evidence))
			printf("  note: the evidence differs: recorded '%s', "
			       "re-judged '%s'\n",
			       esc(str_of(c, "evidence")),
			       esc(ck[i].c.evidence));
		if (!same) {
			printf("  recorded: %s %s: %s, expected %s: ",
			       c ? esc(str_of(c, "validator")) : "-",
			       c ? esc(str_of(c, "task")) : "-", esc(rv),
			       esc(re));
			printf("%s\n", c ? esc(str_of(c, "evidence")) : "");
			printf("  re-judged: %s\n", esc(ck[i].c.evidence));
			rc = 1;
		}
	}
	run_free(rn);
	free(rn);
	return rc;
}

struct cfg {
	int help;
	int version;
	uint64_t max_input;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	IL_RES_OPT_MAX_INPUT(O(max_input)),
	{ .name = NULL },
};
#undef O
static const struct il_opt *const tables[] = { opts, NULL };

int main(int argc, char **argv)
{
	static const char summary[] =
		"Judge every run of an invlab-run, dl-mbwi, pi-classic, "
		"pi-chain or kmutex result file "
		"again from the inputs it recorded, and compare with the "
		"recorded verdicts.  Exit status: 0 all agree, 3 all agree "
		"but a check where PASS was expected is UNDECIDED, 1 some "
		"differ, 2 bad usage or input.";
	struct json_object *root, *runs;
	const char *text = NULL, *file;
	struct il_exit_tally t = { 0 };
	struct cfg cfg;
	char err[768];
	int rc = 0, first, ret;

	memset(&cfg, 0, sizeof(cfg));
	first = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (first < 0) {
		fprintf(stderr, "%s: %s\nTry '%s --help'.\n", PROG, err, PROG);
		return 2;
	}
	if (cfg.help) {
		il_opt_help(stdout, PROG, "RESULT.json", summary, tables);
		return 0;
	}
	if (cfg.version) {
		printf("%s %s (%s)\n", PROG, il_version(), il_features());
		return 0;
	}
	if (argc - first != 1) {
		fprintf(stderr, "%s: %s\nTry '%s --help'.\n", PROG,
			argc - first ? "one result file, please"
				     : "which result file?",
			PROG);
		return 2;
	}
	file = argv[first];
	root = il_res_parse_file(file, cfg.max_input, err, sizeof(err), &ret);
	if (!root) {
		fprintf(stderr, "%s: %s\n", PROG, err);
		return 2;
	}
	/* without one: a file of before schema_version, read as version 1 */
	if (json_object_is_type(root, json_type_object) &&
	    il_res_check_version(root, esc(file), err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", PROG, err);
		json_object_put(root);
		return 2;
	}
	runs = get(root, "runs");
	if (!runs || !json_object_is_type(runs, json_type_array) ||
	    !json_object_array_length(runs)) {
		fprintf(stderr, "%s: %s: no runs recorded\n", PROG, esc(file));
		json_object_put(root);
		return 2;
	}
	if (json_object_is_type(get(get(root, "kernel"), "emulated"),
				json_type_boolean))
		file_emulated = json_object_get_boolean(
			get(get(root, "kernel"), "emulated"));
	if (get(get(root, "job"), "text"))
		text = json_object_get_string(get(get(root, "job"), "text"));
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		ret = judge_run(json_object_array_get_idx(runs, i), (int)i,
				text, file, &t, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "%s: %s: %s\n", PROG, esc(file),
				esc(err));
			rc = 2;
			break;
		}
		if (ret)
			rc = 1;
	}
	json_object_put(root);
	if (!rc && t.undecided)
		printf("%s: %s: every verdict as recorded; %u undecided where "
		       "PASS was expected (exit %d)\n",
		       PROG, esc(file), t.undecided, IL_EXIT_UNDECIDED);
	else if (!rc)
		printf("%s: %s: every verdict as recorded\n", PROG, esc(file));
	/* agreeing is not passing: an UNDECIDED still ends 3 */
	if (rc != 2)
		rc = il_exit_worse(rc, t.undecided ? IL_EXIT_UNDECIDED
						   : IL_EXIT_OK);
	return rc;
}
