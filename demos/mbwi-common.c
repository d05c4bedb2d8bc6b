// SPDX-License-Identifier: MIT
/* M-BWI checks, tables and JSON shared by invlab-run and dl-mbwi; see
 * mbwi-common.h. */
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

#include "demo.h"
#include "mbwi-common.h"

/* does a task marked misbehaves lock a pthread mutex a deadline task
 * also locks? */
static bool misbehaving_on_futex(const struct il_scenario *sc)
{
	for (int r = 0; r < sc->nres; r++) {
		bool bad = false, dl = false;

		if (sc->res[r].k.type != IL_RES_MUTEX)
			continue;
		for (int i = 0; i < sc->ntasks; i++)
			for (int p = 0; p < sc->tasks[i].nphases; p++) {
				const struct il_phase *ph =
					&sc->tasks[i].phases[p];

				if (ph->kind != IL_PH_LOCK || ph->res != r)
					continue;
				bad |= sc->tasks[i].k.misbehaves;
				dl |= sc->tasks[i].sched.policy ==
					      IL_SCHED_DEADLINE &&
				      !sc->tasks[i].k.misbehaves;
			}
		if (bad && dl)
			return true;
	}
	return false;
}

/*
 * `mbwi`: the M-BWI guarantees for the SCHED_DEADLINE tasks of the job
 * (validators/mbwi.c): temporal isolation and the interference bound over
 * the whole set, and bandwidth preservation per periodic reservation.
 * C (a job's work) and L (the work inside each outermost section) are
 * declared by the bodies, as the theory has them.  Which task misbehaves
 * is declared too (`misbehaves = yes`), not inferred from measured CPU
 * time: that includes the engine's clock reads and the kernel's spinning
 * on a running lock owner (a 1 ms job measured 3.1 ms of CPU), which would
 * mark innocent waiters.  The misbehaving task is the negative control,
 * and its bandwidth check is expected to FAIL.
 */
/*
 * The reservation's consumption per period, from the jobs: each job's CPU
 * time spread over the periods between its start and its end, in
 * proportion to the overlap.  A job that ends within its period (every job
 * of a reservation that keeps up) lands whole in its own period; one that
 * runs on across periods (blocked, throttled, or behind a backlog) is not
 * charged to a single period it did not run all of in.  Periods are
 * t0 + k P, t0 the task's first release.  Returns the array (calloc; the
 * caller frees it) with *n periods, or NULL.
 */
static uint64_t *per_period(const struct il_task_result *r, uint64_t t0,
			    uint64_t period, size_t *n)
{
	uint64_t last = 0, *out;

	*n = 0;
	if (!r->njob_cpu || !period)
		return NULL;
	for (size_t k = 0; k < r->njob_cpu; k++)
		if (r->job_end_seq[k] > last)
			last = r->job_end_seq[k];
	if (last < t0)
		return NULL;
	*n = (size_t)((last - t0) / period) + 1;
	out = calloc(*n, sizeof(*out));
	if (!out)
		return NULL;
	for (size_t k = 0; k < r->njob_cpu; k++) {
		uint64_t a =
			r->job_start_seq[k] > t0 ? r->job_start_seq[k] : t0;
		uint64_t b = r->job_end_seq[k] > a ? r->job_end_seq[k] : a;
		uint64_t c = r->job_cpu_seq[k], given = 0;
		size_t p0 = (size_t)((a - t0) / period);
		size_t p1 = (size_t)((b - t0) / period);

		if (p1 >= *n)
			p1 = *n - 1;
		for (size_t p = p0; p <= p1; p++) {
			uint64_t lo = t0 + p * period, hi = lo + period;
			uint64_t s = a > lo ? a : lo, e = b < hi ? b : hi;
			uint64_t part;

			if (p == p1) {
				part = c - given; /* no rounding lost */
			} else {
				part = b > a ? (uint64_t)((double)c *
							  (double)(e - s) /
							  (double)(b - a))
					     : 0;
				if (part > c - given)
					part = c - given;
			}
			out[p] += part;
			given += part;
		}
	}
	return out;
}

/* one step of the steal counter in /proc/stat: 1/USER_HZ */
static uint64_t steal_step(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
}

/*
 * Misses of a periodic task judged job by job: late when the response
 * passes D + eps + one steal step + the steal on the scenario's CPUs
 * between the job's release and its end (il_steal_between; the timeline
 * is sampled every 10 ms, so the window is a little wider than the job).
 * A vCPU the host does not run cannot meet a deadline, but only the steal
 * that happened while this job was pending can excuse it, not the whole
 * run's.  false when the run has no timeline or not every job was kept
 * (then the whole run's steal is the allowance).  *most is raised to the
 * largest steal forgiven a missed job.
 */
static bool late_per_job(const struct il_engine_result *er,
			 const struct il_task_result *r,
			 struct il_mbwi_task *mt, uint64_t eps, uint64_t *most)
{
	uint64_t late = 0, worst = 0,
		 base = mt->deadline_ns + eps + steal_step();

	if (er->nsteal < 2 || !r->njob_cpu || r->njob_cpu != r->jobs)
		return false;
	for (size_t k = 0; k < r->njob_cpu; k++) {
		uint64_t rel = r->job_rel_seq[k], end = r->job_end_seq[k];
		uint64_t resp = end > rel ? end - rel : 0, st;

		if (resp > worst)
			worst = resp;
		if (resp <= mt->deadline_ns)
			continue;
		st = il_steal_between(er, rel, end);
		if (resp > base + st)
			late++;
		else if (st > *most)
			*most = st;
	}
	mt->late_misses = late;
	mt->worst_response_ns = worst;
	return true;
}

/* what the allowance for a miss was made of, after the evidence */
static void note_noise(struct il_check *c, const struct il_engine_result *er,
		       uint64_t eps, uint64_t most)
{
	char a[24], b[24], d[24];

	il_format_duration(a, sizeof(a), eps);
	il_format_duration(b, sizeof(b), steal_step());
	il_format_duration(d, sizeof(d), most);
	if (er->nsteal >= 2)
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; a miss counts beyond D + %s calibration + %s "
			   "(one steal step) + the host steal around that "
			   "job (up to %s forgiven here)",
			   a, b, d);
	else
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; a miss counts beyond D + %s calibration + the "
			   "run's host steal",
			   a);
}

int demo_check_mbwi(const struct il_scenario *sc,
		    const struct il_engine_result *er,
		    const struct il_sysinfo *si,
		    const struct demo_mbwi_opts *mo, const int *stop,
		    struct demo_check *out, int *n, int max, char *why,
		    size_t len)
{
	static struct il_mbwi_task tasks[IL_MAX_TASKS];
	static unsigned N[IL_MAX_TASKS * IL_MAX_RESOURCES];
	static uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES];
	static unsigned char
		nest[IL_MAX_TASKS * IL_MAX_RESOURCES * IL_MAX_RESOURCES];
	const int nl = sc->nres;
	struct il_sched probe = { .policy = IL_SCHED_FIFO, .prio = 98 };
	struct il_mbwi_task_verdict per_task[IL_MAX_TASKS] = { { 0 } };
	struct il_mbwi_set set = { 0 };
	struct il_hist calib;
	int covered, unres = mo ? mo->unreserved : -1;
	bool partitioned = false;
	uint64_t steal_around = 0; /* most steal forgiven around one miss */
	uint64_t eps = 0, tick = si->hz > 0 ? 1000000000ull / (uint64_t)si->hz
					    : 4000000ull;
	int ret;

	memset(tasks, 0, sizeof(tasks));
	memset(N, 0, sizeof(N));
	memset(L, 0, sizeof(L));
	memset(nest, 0, sizeof(nest));
	/* the allowance: idle wakeup latency of a high-priority thread
	 * anywhere (deadline tasks are not pinned) */
	ret = il_engine_calibrate(-1, &probe, 1000, 200 * IL_NSEC_PER_USEC,
				  stop, &calib, why, len);
	if (ret)
		return ret;
	if (il_hist_percentile_upper(&calib, 0.90, &eps))
		eps = calib.max;
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		const struct il_task_result *r = &er->tasks[i];
		struct il_mbwi_task *mt = &tasks[i];
		uint64_t in_sec[IL_MAX_RESOURCES] = { 0 };
		int held[IL_MAX_RESOURCES], nheld = 0;

		const struct il_sched *s =
			mo && mo->declared[i] ? mo->declared[i] : &t->sched;

		mt->name = t->name;
		if (s->policy == IL_SCHED_DEADLINE) {
			mt->runtime_ns = s->runtime_ns;
			mt->deadline_ns = s->deadline_ns;
			mt->period_ns = s->period_ns;
		}
		mt->cpu = r->partitioned ? r->cpu : -1;
		partitioned |= r->partitioned != 0;
		mt->misbehaves = t->k.misbehaves;
		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];

			switch (ph->kind) {
			case IL_PH_RUN:
			case IL_PH_SPIN:
				mt->wcet_ns += ph->ns;
				for (int h = 0; h < nheld; h++)
					in_sec[held[h]] += ph->ns;
				break;
			case IL_PH_LOCK:
				N[i * nl + ph->res]++;
				/* nested directly in the innermost lock held */
				if (nheld)
					nest[(i * nl + held[nheld - 1]) * nl +
					     ph->res] = 1;
				held[nheld++] = ph->res;
				in_sec[ph->res] = 0;
				break;
			case IL_PH_CALL: {
				/*
				 * One kernel critical section (kmutex.h): a
				 * request of that kernel mutex whose section
				 * is the call's uncontended cost measured in
				 * this run (p90), the closest the theory's
				 * L gets for code the kernel runs.
				 */
				uint64_t cost = er->kmutex_cost_p90_ns[ph->res];

				N[i * nl + ph->res]++;
				if (nheld)
					nest[(i * nl + held[nheld - 1]) * nl +
					     ph->res] = 1;
				if (cost > L[i * nl + ph->res])
					L[i * nl + ph->res] = cost;
				mt->wcet_ns += cost;
				for (int h = 0; h < nheld; h++)
					in_sec[held[h]] += cost;
				break;
			}
			case IL_PH_UNLOCK:
				if (in_sec[ph->res] > L[i * nl + ph->res])
					L[i * nl + ph->res] = in_sec[ph->res];
				for (int h = 0; h < nheld; h++)
					if (held[h] == ph->res) {
						memmove(&held[h], &held[h + 1],
							(size_t)(nheld - h -
								 1) *
								sizeof(int));
						nheld--;
						break;
					}
				break;
			default:
				break;
			}
		}
		mt->jobs = r->jobs;
		mt->misses = r->misses;
		if (mt->deadline_ns &&
		    !late_per_job(er, r, mt, eps, &steal_around))
			il_mbwi_misses_from_hist(&r->response, mt->deadline_ns,
						 eps + er->steal_ns, NULL,
						 &mt->late_misses,
						 &mt->worst_response_ns);
		/* the engine's own reads per job, inside the allowance */
		mt->wcet_ns += eps;
		mt->cpu_max_ns = 0;
	}
	/*
	 * Partitioned, a task judged by a reservation it did not run with
	 * (--unreserve) has no partition: count it where the engine would
	 * have put it, on the least loaded CPU by density.
	 */
	if (partitioned) {
		int m = si->cpus_online > 0 ? si->cpus_online : 1;

		for (int i = 0; i < sc->ntasks; i++) {
			double load[64] = { 0 };
			int best = 0;

			if (!tasks[i].runtime_ns || tasks[i].cpu >= 0)
				continue;
			for (int k = 0; k < sc->ntasks; k++)
				if (tasks[k].runtime_ns && tasks[k].cpu >= 0 &&
				    tasks[k].cpu < 64)
					load[tasks[k].cpu] +=
						(double)tasks[k].runtime_ns /
						(double)tasks[k].deadline_ns;
			for (int c = 1; c < m && c < 64; c++)
				if (load[c] < load[best])
					best = c;
			tasks[i].cpu = best;
		}
	}
	set.tasks = tasks;
	set.ntasks = (size_t)sc->ntasks;
	set.nlocks = (size_t)nl;
	set.N = N;
	set.L = L;
	set.nest = nest;
	set.hold_max = NULL;
	set.ncpus = si->cpus_online > 0 ? si->cpus_online : 1;
	set.cap = si->rt_runtime_us == -1 ? 1.0
		  : si->rt_runtime_us > 0 && si->rt_period_us > 0
			  ? (double)si->rt_runtime_us / (double)si->rt_period_us
			  : 0.95;
	/*
	 * A miss is judged against the calibration, one /proc/stat steal
	 * step and the host steal measured around that job (late_per_job);
	 * deadline tasks float between CPUs, so the steal is all of the
	 * scenario's CPUs'.  The set's noise, which the evidence quotes, is
	 * the part every job gets.
	 */
	set.noise_ns =
		er->nsteal >= 2 ? eps + steal_step() : eps + er->steal_ns;
	set.min_jobs = 20;
	set.partitioned = partitioned;
	if (*n + 2 > max) {
		snprintf(why, len, "too many checks");
		return -ENOSPC;
	}

	out[*n].validator = "mbwi";
	snprintf(out[*n].task, sizeof(out[*n].task), "isolation");
	ret = il_check_isolation(&set, &out[*n].c, NULL);
	if (ret) {
		snprintf(why, len, "isolation check: %s", strerror(-ret));
		return ret;
	}
	note_noise(&out[*n].c, er, eps, steal_around);
	/*
	 * With a misbehaving task holding a pthread mutex that a deadline
	 * task waits for, no Linux kernel promises isolation: a PI futex
	 * gives the holder the waiter's deadline parameters, unthrottled
	 * (deadline inheritance, not bandwidth inheritance; proxy execution
	 * covers kernel mutexes only).  Either verdict is then a finding
	 * about the kernel, reported but not counted.
	 */
	if (misbehaving_on_futex(sc)) {
		out[*n].expected = out[*n].c.verdict;
		out[*n].has_expected = true;
		il_appendf(out[*n].c.evidence, sizeof(out[*n].c.evidence),
			   "; not counted: a misbehaving task holds a pthread "
			   "mutex a deadline task waits for, and Linux gives "
			   "PI futexes deadline inheritance, not bandwidth "
			   "inheritance");
	}
	if (unres >= 0) {
		out[*n].expected = IL_FAIL;
		out[*n].has_expected = true;
	}
	(*n)++;
	out[*n].validator = "mbwi";
	snprintf(out[*n].task, sizeof(out[*n].task), "interference");
	ret = il_check_interference(&set, &out[*n].c, per_task);
	if (ret) {
		snprintf(why, len, "interference check: %s", strerror(-ret));
		return ret;
	}
	note_noise(&out[*n].c, er, eps, steal_around);
	/*
	 * A set in which no task meets Q >= C + I is one the guarantee says
	 * nothing about: its UNDECIDED is the expected answer, not a
	 * failure of the run (measured C includes spinning on a running
	 * owner, so on a stock kernel few tasks are covered).
	 */
	covered = 0;
	for (int i = 0; i < sc->ntasks; i++)
		covered += per_task[i].judged;
	if (!covered) {
		out[*n].expected = IL_UNDECIDED;
		out[*n].has_expected = true;
	}
	/* the task run without its reservation, where the guarantee
	 * covers it, must miss */
	if (unres >= 0 && per_task[unres].judged) {
		out[*n].expected = IL_FAIL;
		out[*n].has_expected = true;
	}
	(*n)++;
	for (int i = 0; i < sc->ntasks && *n < max; i++) {
		const struct il_task_result *r = &er->tasks[i];
		struct il_bw_input bw = { 0 };

		/* a task run without its reservation has none to keep */
		if (!tasks[i].runtime_ns || !r->njob_cpu ||
		    (mo && mo->declared[i]))
			continue;
		bw.task = tasks[i].name;
		bw.runtime_ns = tasks[i].runtime_ns;
		bw.period_ns = tasks[i].period_ns;
		bw.tick_ns = tick;
		bw.noise_ns = eps;
		bw.min_periods = 20;
		out[*n].validator = "mbwi";
		snprintf(out[*n].task, sizeof(out[*n].task), "%.20s bandwidth",
			 tasks[i].name);
		{
			const struct il_task *t = &sc->tasks[i];
			size_t np;
			uint64_t *cons =
				per_period(r, er->t_start_ns + t->k.offset_ns,
					   t->k.period_ns, &np);

			if (!cons) {
				snprintf(why, len, "bandwidth check: %s",
					 strerror(ENOMEM));
				return -ENOMEM;
			}
			ret = il_check_bandwidth(&bw, cons, np, &out[*n].c,
						 NULL);
			free(cons);
		}
		if (ret) {
			snprintf(why, len, "bandwidth check: %s",
				 strerror(-ret));
			return ret;
		}
		if (tasks[i].misbehaves) {
			out[*n].expected = IL_FAIL;
			out[*n].has_expected = true;
		}
		(*n)++;
	}
	return 0;
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

void demo_print_checks(FILE *f, const struct demo_check *ck, int n,
		       const char *name, const char *tag, bool tap, int *ntap)
{
	for (int i = 0; i < n; i++) {
		const char *got = il_verdict_name(ck[i].c.verdict);
		const char *exp = il_verdict_name(ck[i].expected);
		char desc[192];
		bool und, ok = demo_as_expected(ck[i].c.verdict, ck[i].expected,
						&und);

		if (!tap) {
			fprintf(f, "%s%s%s %s%s: %s, expected %s: %s\n",
				name ? name : "", name ? " " : "",
				ck[i].validator, ck[i].task, tag, got, exp,
				ck[i].c.evidence);
			continue;
		}
		snprintf(desc, sizeof(desc), "%s%s %s %s: %s (expected %s)",
			 name ? name : "", tag, ck[i].validator, ck[i].task,
			 got, exp);
		il_tap_result(f, ok, ++*ntap, desc,
			      und ? "SKIP undecided: measured noise could "
				    "explain it"
				  : NULL);
		il_tap_diag(f, "%s", ck[i].c.evidence);
	}
}

void demo_json_checks(struct il_json *j, const struct demo_check *ck, int n)
{
	il_json_begin_array(j, "checks");
	for (int i = 0; i < n; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "validator", ck[i].validator);
		il_json_str(j, "task", ck[i].task);
		il_json_str(j, "expected", il_verdict_name(ck[i].expected));
		il_json_check(j, &ck[i].c);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}
