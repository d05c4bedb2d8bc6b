// SPDX-License-Identifier: MIT
/*
 * The `mbwi` model: the M-BWI guarantees for the SCHED_DEADLINE tasks of
 * a job (mbwi.h): temporal isolation and the interference bound over the
 * whole set, and bandwidth preservation per periodic reservation.
 *
 * C (a job's work) and L (the work inside each outermost section) are
 * declared by the bodies, as the theory has them; a `call` of a kernel
 * mutex counts as one section of its measured uncontended cost (p90).
 * Which task misbehaves is declared too (`misbehaves = yes`), not
 * inferred from measured CPU time: that includes the engine's clock
 * reads and the kernel's spinning on a running lock owner, which would
 * mark innocent waiters.  The misbehaving task is the negative control,
 * and its bandwidth check is expected to FAIL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/mbwi.h>
#include <invlab/noise.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "model.h"

/* the default steal step (USER_HZ 100) when the caller gives none */
#define DEFAULT_STEAL_STEP (10 * IL_NSEC_PER_MSEC)

struct mbwi_model {
	struct il_mbwi_task tasks[IL_MAX_TASKS];
	unsigned N[IL_MAX_TASKS * IL_MAX_RESOURCES];
	uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES];
	unsigned char nest[IL_MAX_TASKS * IL_MAX_RESOURCES * IL_MAX_RESOURCES];
	struct il_mbwi_task_verdict per_task[IL_MAX_TASKS];
	struct il_mbwi_set set;
	uint64_t eps, step, most;
	/* the engine's own CPU time per job (job_overhead), and whether any
	 * task's jobs told it */
	uint64_t overhead;
	bool overhead_known;
	/*
	 * Misses within the time foreign tasks ran on the job's CPUs while
	 * it waited, drawn from what the fair server may have run over the
	 * run (fair_left; fair_pool its whole): beyond it, that time was
	 * the kernel's choice
	 */
	uint64_t most_foreign, fair_left, fair_pool;
	size_t foreign_excused;
	/*
	 * The windows of the misses drawn on it so far, merged and sorted
	 * (drawn, ndrawn): jobs queued behind each other, and jobs of
	 * different tasks, wait through the same foreign time, which the
	 * server ran once.  A miss draws no more than its CPUs' time
	 * outside those windows (cpus of them, the run's count).
	 */
	struct drawn_span {
		uint64_t a, b;
	} * drawn;
	size_t ndrawn;
	int cpus;
	/*
	 * Late misses whose trace (job_later_seq) shows the kernel's choice
	 * covering their lateness (attested; most_later the most in one
	 * job), and late misses the trace saw whole that it does not
	 * explain (unexplained: nothing measured says what delayed them).
	 */
	size_t edf_attested, edf_unexplained;
	uint64_t most_later;
	uint64_t inherit; /* the longest section a deadline task held */
	/*
	 * Late misses after the kernel charged the task's sleep to its
	 * reservation beyond Q - C (sleep_charged), and the most so
	 * charged before one job
	 */
	size_t charged;
	uint64_t most_charged;
	/*
	 * Misses beyond the allowance of jobs that came after a job of the
	 * task the kernel charged more than Q (its CPU time, which is the
	 * kernel's account of it), each released while the one before was
	 * pending (overran): the reservation throttled that job, as a CBS
	 * must, and its backlog followed.  A vCPU the host held while the
	 * task ran counts as its run time (measured here: a 1.5 ms job
	 * read 13.5 ms).  Outside the guarantee, which is for jobs within
	 * Q: neither late nor kept, as late as the periods the overrun
	 * spans (ceil(CPU / Q) periods each, summed along the queue) and
	 * no later: beyond that the overrun explains nothing, and the miss
	 * is judged as any other.  most_overran: the most CPU time of such
	 * a job.
	 */
	size_t overran;
	uint64_t most_overran;
};

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
				bad |= sc->tasks[i].k.misbehaves != 0;
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
 * The reservation's consumption per period, from the jobs: each job's CPU
 * time spread over the periods between its start and its end, in
 * proportion to the overlap.  A job that ends within its period lands
 * whole in its own period; one that runs on across periods is not
 * charged to a single period it did not run all of in.  Periods are
 * t0 + k P.  Returns the array (calloc; the caller frees it) with *n
 * periods, or NULL with *n 0 (no job, no period) or -ENOMEM in *err.
 */
static uint64_t *per_period(const struct il_task_result *r, uint64_t t0,
			    uint64_t period, size_t *n, int *err)
{
	uint64_t last = 0, *out;

	*n = 0;
	*err = 0;
	if (!r->njob_cpu || !period)
		return NULL;
	for (size_t k = 0; k < r->njob_cpu; k++)
		if (r->job_end_seq[k] > last)
			last = r->job_end_seq[k];
	if (last < t0)
		return NULL;
	*n = (size_t)((last - t0) / period) + 1;
	out = calloc(*n, sizeof(*out));
	if (!out) {
		*n = 0;
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t k = 0; k < r->njob_cpu; k++) {
		uint64_t a =
			r->job_start_seq[k] > t0 ? r->job_start_seq[k] : t0;
		uint64_t b = r->job_end_seq[k] > a ? r->job_end_seq[k] : a;
		uint64_t c = r->job_cpu_seq[k], given = 0;
		size_t p0 = (size_t)((a - t0) / period);
		/* b <= last: p1 < *n */
		size_t p1 = (size_t)((b - t0) / period);

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

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * The sleep before job k that the kernel charged as run time: from the
 * end of job k - 1 (when the task went to sleep) to its first wakeup
 * after it made while it was still current on its CPU (wake, n: the
 * task's such wakeups, il_trace_woken_current), if that came before job
 * k ended; the run-time accounts over that span.  0 for the first job
 * (its sleep's start is not known) and without such a wakeup.
 */
static uint64_t sleep_charged(const struct il_engine_result *er,
			      const struct il_task_result *r,
			      const uint64_t *wake, long n, size_t k)
{
	uint64_t from, to;

	/* n > 0 only with a trace */
	if (!k)
		return 0;
	from = r->job_end_seq[k - 1];
	to = r->job_end_seq[k];
	for (long i = 0; i < n; i++) {
		if (wake[i] <= from)
			continue;
		if (wake[i] > to)
			return 0;
		return il_trace_accounted(er->trace, r->tid, from, wake[i]);
	}
	return 0;
}

/*
 * Misses of a periodic task judged job by job, on one ledger per missed
 * job: its lateness (response - D) against what was measured while it
 * was pending.
 *
 *  - the host's: the steal between its release and its end
 *    (il_steal_between), with one step of the counter (1/USER_HZ: a
 *    window's figure can read up to a step short) only where the counter
 *    moved in that window; and the time foreign tasks ran on its CPUs
 *    while it waited (job_foreign_seq: the fair server's, up to its
 *    budget over the run, m->fair_left, or a foreign deadline task's
 *    whose deadline the trace does not give).  Either may be the cause
 *    or the kernel's choice, so a miss they cover is set aside: never
 *    late, never met;
 *  - the kernel's (job_later_seq, il_attribute_edf): what it ranks below
 *    the job ran on its CPUs while the job was runnable, or they idled
 *    while it had budget left.  A late miss with at least its unexplained
 *    lateness of that is attested: the kernel's by the trace.  No more
 *    of it than the host's steal with a step, one section of deadline
 *    inheritance (not in the trace) and the calibration attests nothing:
 *    a vCPU the host holds shows its task running;
 *  - a miss by no more than the calibration is met when the trace saw it
 *    whole with nothing of the kernel's (misses_kept), else within noise.
 *
 * Beyond the calibration and the host's time the miss is late, whatever
 * else the trace says: a job late with nothing measured to explain it is
 * not excused by the order of events being kept.  Jobs charged more than
 * Q (or queued behind one) are set aside too: the reservation throttled
 * them, as it must.  false when the run has no timeline or not every job
 * was kept (then the whole run's steal is the allowance).  m->most is
 * raised to the largest steal forgiven a missed job.
 */
/*
 * The task's own run time on the jobs before job k inside k's window,
 * at most: a job released while its predecessors were still pending
 * waits for the thread to finish them.  Each pending predecessor counts
 * its CPU time, no more than its part of the window.  0 without start
 * times.
 */
static uint64_t backlog_run(const struct il_task_result *r, size_t k)
{
	uint64_t rel = r->job_rel_seq[k], sum = 0;

	if (!r->job_start_seq || !r->job_cpu_seq)
		return 0;
	for (size_t j = k; j-- > 0 && r->job_end_seq[j] > rel;) {
		uint64_t from =
			r->job_start_seq[j] > rel ? r->job_start_seq[j] : rel;
		uint64_t in =
			r->job_end_seq[j] > from ? r->job_end_seq[j] - from : 0;

		sum += r->job_cpu_seq[j] < in ? r->job_cpu_seq[j] : in;
	}
	return sum;
}

/*
 * The part of [a, b) outside every window drawn on the fair server's
 * budget so far, which [a, b) then joins; UINT64_MAX when the list
 * cannot grow (then the caller draws all it would have).
 */
static uint64_t draw_window(struct mbwi_model *m, uint64_t a, uint64_t b)
{
	struct drawn_span *d;
	uint64_t fresh = b > a ? b - a : 0, lo = a, hi = b;
	size_t i, j, n = m->ndrawn;

	if (b <= a)
		return 0;
	/* the windows it touches: [i, j) */
	for (i = 0; i < n && m->drawn[i].b < a; i++)
		;
	for (j = i; j < n && m->drawn[j].a <= b; j++) {
		uint64_t x = m->drawn[j].a > a ? m->drawn[j].a : a;
		uint64_t y = m->drawn[j].b < b ? m->drawn[j].b : b;

		fresh -= y > x ? y - x : 0;
		if (m->drawn[j].a < lo)
			lo = m->drawn[j].a;
		if (m->drawn[j].b > hi)
			hi = m->drawn[j].b;
	}
	if (i == j) {
		d = realloc(m->drawn, (n + 1) * sizeof(*d));
		if (!d)
			return UINT64_MAX;
		m->drawn = d;
		memmove(&d[i + 1], &d[i], (n - i) * sizeof(*d));
		m->ndrawn++;
	} else {
		memmove(&m->drawn[i + 1], &m->drawn[j],
			(n - j) * sizeof(*m->drawn));
		m->ndrawn -= j - i - 1;
	}
	m->drawn[i].a = lo;
	m->drawn[i].b = hi;
	return fresh;
}

/* does task t take lock r (or call kernel-mutex resource r)? */
static bool takes(const struct il_task *t, int r)
{
	for (int p = 0; p < t->nphases; p++)
		if ((t->phases[p].kind == IL_PH_LOCK ||
		     t->phases[p].kind == IL_PH_CALL) &&
		    t->phases[p].res == r)
			return true;
	return false;
}

/* do tasks a and b of sc take a lock in common? */
static bool share_lock(const struct il_scenario *sc, const struct il_task *a,
		       const struct il_task *b)
{
	for (int r = 0; r < sc->nres; r++)
		if (takes(a, r) && takes(b, r))
			return true;
	return false;
}

/* cpu into the list cpus of *n, once; false when it is full */
static bool add_cpu(int *cpus, int *n, int cpu)
{
	for (int k = 0; k < *n; k++)
		if (cpus[k] == cpu)
			return true;
	if (*n == IL_STEAL_CPUS)
		return false;
	cpus[(*n)++] = cpu;
	return true;
}

/*
 * The CPUs whose steal can delay a job of task i, in cpus (at most
 * IL_STEAL_CPUS); returns how many, 0 for every CPU of the set.  A job
 * of a task that ran in a partition runs only on its CPU, and waits
 * only for the tasks it shares a lock with, directly or through a chain:
 * when each of those ran in a partition too, their CPUs.  Otherwise a
 * vCPU the host holds can delay a job anywhere: a higher-ranked job kept
 * on it longer may preempt this one elsewhere.  (A CPU not known, -1,
 * has no timeline of its own: every CPU's steal, il_steal_between_on.)
 */
static int delaying_cpus(const struct il_scenario *sc,
			 const struct il_engine_result *er, int i, int *cpus)
{
	bool in[IL_MAX_TASKS] = { false };
	int n = 0;

	in[i] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (int j = 0; j < sc->ntasks; j++)
			for (int k = 0; !in[j] && k < sc->ntasks; k++)
				if (in[k] && share_lock(sc, &sc->tasks[j],
							&sc->tasks[k]))
					in[j] = grew = true;
	}
	for (int j = 0; j < sc->ntasks; j++) {
		if (!in[j])
			continue;
		if (j >= er->ntasks || !er->tasks[j].partitioned ||
		    !add_cpu(cpus, &n, er->tasks[j].cpu))
			return 0;
	}
	return n;
}

/* the steal on cpus (n 0: the set's CPUs) between from and to */
static uint64_t steal_on(const struct il_engine_result *er, const int *cpus,
			 int n, uint64_t from, uint64_t to)
{
	return n ? il_steal_between_on(er, cpus, n, from, to)
		 : il_steal_between(er, from, to);
}

static bool late_per_job(const struct il_engine_result *er,
			 const struct il_task_result *r,
			 struct il_mbwi_task *mt, struct mbwi_model *m,
			 bool reserved, const int *cpus, int ncpu)
{
	uint64_t late = 0, worst = 0, unattested = 0, over = 0, owed_allow;
	uint64_t *wake = NULL, c = mt->wcet_ns ? mt->wcet_ns : mt->cpu_max_ns;
	long nwake = 0;
	bool owed = false;
	/* the queue the job is in: its first job's release, the CPU time
	 * of its jobs so far */
	uint64_t q_rel = 0, q_work = 0;
	/* of the job before's lateness, what the kernel's choice makes
	 * up on the trace (0: it met its deadline or was set aside) */
	uint64_t kdelay = 0;

	if (er->nsteal < 2 || !r->njob_cpu || r->njob_cpu != r->jobs)
		return false;
	/* without the list (no trace, no task id, no memory: nwake <= 0),
	 * no late miss is put down to a charged sleep */
	if (er->trace)
		nwake = il_trace_woken_current(er->trace, r->tid, &wake);
	for (size_t k = 0; k < r->njob_cpu; k++) {
		uint64_t rel = r->job_rel_seq[k], end = r->job_end_seq[k];
		uint64_t resp = end > rel ? end - rel : 0, x, st, host, lo, fo;
		uint64_t carried;
		/* released before the one before it ended: queued behind
		 * it, as late as the kernel's choice made it, or not */
		bool behind = k && rel < r->job_end_seq[k - 1];
		uint64_t by_kernel = kdelay;
		bool trust;

		kdelay = 0;
		if (resp > worst)
			worst = resp;
		/*
		 * A job charged over Q, and the jobs queued behind it; only
		 * a task that ran under its reservation was throttled.  A
		 * queue starts at a job released after the one before
		 * ended; from its release the reservation gives Q a
		 * period, so its jobs' CPU time W, at Q a period, is done
		 * ceil(W / Q) periods on, one more for the budget the first
		 * found part spent: no job of it is later than that
		 * (owed_allow), however many of them overran.
		 */
		if (!k || rel >= r->job_end_seq[k - 1]) {
			owed = false;
			q_rel = rel;
			q_work = 0;
		}
		q_work += r->job_cpu_seq[k];
		if (reserved && r->job_cpu_seq[k] > mt->runtime_ns) {
			owed = true;
			over = r->job_cpu_seq[k];
		}
		owed_allow = 0;
		if (owed) {
			uint64_t q = mt->runtime_ns;
			uint64_t by =
				q_rel + (q_work + q - 1) / q * mt->period_ns;

			owed_allow = by > rel ? by - rel : 0;
		}
		if (resp <= mt->deadline_ns)
			continue;
		x = resp - mt->deadline_ns;
		st = steal_on(er, cpus, ncpu, rel, end);
		/* the counter's step only where it moved */
		host = st ? st + m->step : 0;
		lo = r->job_later_seq ? r->job_later_seq[k] : IL_EDF_UNSEEN;
		fo = r->job_foreign_seq ? r->job_foreign_seq[k] : 0;
		/* foreign time past the fair server's budget was the
		 * kernel's choice: it joins the trace's account */
		if (fo > m->fair_left) {
			if (lo != IL_EDF_UNSEEN)
				lo += fo - m->fair_left;
			fo = m->fair_left;
		}
		if (x <= m->eps) {
			/* within the calibration: met when the trace saw
			 * nothing of the kernel's in it */
			mt->misses_kept += lo <= m->eps;
		} else if (owed && x <= m->eps + owed_allow) {
			m->overran++;
			if (over > m->most_overran)
				m->most_overran = over;
		} else if (x <= m->eps + host) {
			if (st > m->most)
				m->most = st;
		} else if (x <= m->eps + host + fo) {
			uint64_t d = x - (m->eps + host);
			uint64_t fresh = draw_window(m, rel, end);

			/* the server ran that time once, for every job
			 * waiting through it */
			if (fresh != UINT64_MAX &&
			    fresh <= d / (uint64_t)m->cpus)
				d = fresh * (uint64_t)m->cpus;
			m->foreign_excused++;
			m->fair_left -= d;
			if (fo > m->most_foreign)
				m->most_foreign = fo;
		} else {
			uint64_t ch = sleep_charged(er, r, wake, nwake, k);

			/* the kernel took more of its budget for the sleep
			 * before it than the job could spare */
			if (ch > sub0(mt->runtime_ns, c)) {
				m->charged++;
				mt->late_charged++;
				if (ch > m->most_charged)
					m->most_charged = ch;
			}
			/* attested: the kernel's choice covers what the
			 * host and foreign tasks leave of its lateness, and
			 * is more than a held vCPU or a section could show */
			/*
			 * A job queued behind earlier ones waits for the
			 * thread to finish them: its own run on them inside
			 * this job's window is measured, the task's own, and
			 * leaves the rest of the lateness to explain
			 */
			/*
			 * and the time its reservation was throttled, by
			 * the kernel's rules, is the reservation's own too
			 * (the queue behind it, not the kernel's choice,
			 * made it wait)
			 */
			/*
			 * Behind a job, no more of the carry than the
			 * kernel's choice made that job late: a queue a
			 * stall or a pause made is not the kernel's doing,
			 * and the thread working it off, throttled at Q a
			 * period, leaves its jobs late by the queue with
			 * next to nothing of the kernel's choice in them.
			 * Nor does a queued job's own account (its deadline
			 * and budget by a model no wakeup renewed since the
			 * queue began) count for more than that, unless the
			 * queue is the kernel's: the job before late past
			 * this one's release by no more than the kernel's
			 * choice made it.  Then the budget the model gave
			 * it counts too (the CPU idle, a lower class outside
			 * the set): a thief that starves a reservation
			 * queues its jobs so; after a pause or a stall the
			 * model has drifted.
			 */
			trust = !behind || lo == IL_EDF_UNSEEN ||
				by_kernel + m->eps >=
					r->job_end_seq[k - 1] - rel;
			if (behind && lo != IL_EDF_UNSEEN && trust) {
				if (r->job_budget_seq)
					lo += r->job_budget_seq[k];
			} else if (!trust && lo > by_kernel) {
				lo = by_kernel;
			}
			carried = backlog_run(r, k);
			if (r->job_throttled_seq && lo != IL_EDF_UNSEEN)
				carried += r->job_throttled_seq[k];
			if (behind && carried > by_kernel)
				carried = by_kernel;
			if (lo != IL_EDF_UNSEEN)
				kdelay = lo + carried < x ? lo + carried : x;
			if (!trust && kdelay > by_kernel)
				kdelay = by_kernel;
			if (lo != IL_EDF_UNSEEN &&
			    lo > host + m->inherit + m->eps &&
			    lo + carried >= x - (m->eps + host + fo)) {
				m->edf_attested++;
				mt->late_attested_n++;
				if (lo > m->most_later)
					m->most_later = lo;
			} else {
				unattested++;
				if (lo != IL_EDF_UNSEEN)
					m->edf_unexplained++;
			}
			mt->late_seen_n += lo != IL_EDF_UNSEEN;
			if (!late++ || rel > mt->late_rel_max_ns)
				mt->late_rel_max_ns = rel;
			if (late == 1 || end < mt->late_end_min_ns)
				mt->late_end_min_ns = end;
			if (x > mt->late_worst_ns)
				mt->late_worst_ns = x;
		}
	}
	free(wake);
	mt->late_misses = late;
	mt->worst_response_ns = worst;
	mt->late_attested = late && !unattested;
	return true;
}

/* every task's late misses the trace's (late_attested) */
static bool all_attested(const struct mbwi_model *m)
{
	for (size_t i = 0; i < IL_MAX_TASKS; i++)
		if (m->tasks[i].late_misses && !m->tasks[i].late_attested)
			return false;
	return true;
}

/* what each task's C was made of: declared work and the engine's own */
static void note_overhead(struct il_check *c, const struct mbwi_model *m)
{
	char d[24];

	il_format_duration(d, sizeof(d), m->overhead);
	if (m->overhead_known)
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; C: declared work + %s per job, the engine's own "
			   "(least median excess of a job's CPU time)",
			   d);
	else
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; C: declared work alone (too few jobs tell the "
			   "engine's own cost)");
}

/* what the allowance for a miss was made of, after the evidence */
static void note_noise(struct il_check *c, const struct il_engine_result *er,
		       const struct mbwi_model *m)
{
	char a[24], b[24], d[24];

	il_format_duration(a, sizeof(a), m->eps);
	il_format_duration(b, sizeof(b), m->step);
	il_format_duration(d, sizeof(d), m->most);
	if (er->nsteal >= 2)
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; a miss counts beyond D + %s calibration + the "
			   "host steal around that job, with %s (one step of "
			   "its counter) where the counter moved then (up to "
			   "%s forgiven here)",
			   a, b, d);
	else
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; a miss counts beyond D + %s calibration + the "
			   "run's host steal",
			   a);
	if (m->edf_attested || m->edf_unexplained) {
		il_format_duration(d, sizeof(d), m->most_later);
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; trace: %zu late misses with the kernel's choice "
			   "(tasks ranked below the job, or its CPUs idle "
			   "while it had budget left) at least their lateness "
			   "(up to %s), %zu with nothing measured to explain "
			   "them",
			   m->edf_attested, d, m->edf_unexplained);
		/* the order of events decided a FAIL (a PASS on it was
		 * marked by the check) */
		if (c->verdict == IL_FAIL)
			c->by_trace = all_attested(m);
	}
	if (m->charged) {
		il_format_duration(d, sizeof(d), m->most_charged);
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; %zu late miss%s came after the kernel charged "
			   "the task's sleep as run time, beyond its slack Q "
			   "- C (up to %s; the trace: woken while still "
			   "current on its CPU, its run-time accounts going "
			   "on over the sleep): its own budget spent by the "
			   "kernel's accounting, not by the others",
			   m->charged, m->charged == 1 ? "" : "es", d);
	}
	if (m->overran) {
		il_format_duration(d, sizeof(d), m->most_overran);
		il_appendf(c->evidence, sizeof(c->evidence),
			   "; %zu miss%s of a job charged more than Q (up to "
			   "%s of CPU), or queued behind one: its reservation "
			   "throttled it, as it must (a vCPU the host held "
			   "while the task ran counts as its run time), "
			   "outside the guarantee of jobs within Q",
			   m->overran, m->overran == 1 ? "" : "es", d);
	}
	if (m->foreign_excused) {
		char p[24];

		il_format_duration(d, sizeof(d), m->most_foreign);
		il_format_duration(p, sizeof(p), m->fair_pool);
		il_appendf(
			c->evidence, sizeof(c->evidence),
			"; %zu miss%s within the time foreign tasks ran on "
			"the task's CPU (or the set's) while the job waited, "
			"as the trace shows (up to %s; within the fair "
			"server's %s over the run): the fair server's or the "
			"kernel's, which the trace does not tell",
			m->foreign_excused, m->foreign_excused == 1 ? "" : "es",
			d, p);
	}
}

/* C, N, L and nesting of task i from its body */
static void demand_of(const struct il_scenario *sc,
		      const struct il_engine_result *er, int i,
		      struct mbwi_model *m)
{
	const struct il_task *t = &sc->tasks[i];
	struct il_mbwi_task *mt = &m->tasks[i];
	const int nl = sc->nres;
	uint64_t in_sec[IL_MAX_RESOURCES] = { 0 };
	int held[IL_MAX_RESOURCES], nheld = 0;

	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];
		uint64_t cost;

		switch (ph->kind) {
		case IL_PH_RUN:
		case IL_PH_SPIN:
			mt->wcet_ns += ph->ns;
			for (int h = 0; h < nheld; h++)
				in_sec[held[h]] += ph->ns;
			break;
		case IL_PH_LOCK:
			m->N[i * nl + ph->res]++;
			/* nested directly in the innermost lock held */
			if (nheld)
				m->nest[(i * nl + held[nheld - 1]) * nl +
					ph->res] = 1;
			held[nheld++] = ph->res;
			in_sec[ph->res] = 0;
			break;
		case IL_PH_CALL:
			/* one kernel critical section: its uncontended cost
			 * measured in this run (p90) */
			cost = er->kmutex_cost_p90_ns[ph->res];
			m->N[i * nl + ph->res]++;
			if (nheld)
				m->nest[(i * nl + held[nheld - 1]) * nl +
					ph->res] = 1;
			if (cost > m->L[i * nl + ph->res])
				m->L[i * nl + ph->res] = cost;
			mt->wcet_ns += cost;
			for (int h = 0; h < nheld; h++)
				in_sec[held[h]] += cost;
			break;
		case IL_PH_UNLOCK:
			if (in_sec[ph->res] > m->L[i * nl + ph->res])
				m->L[i * nl + ph->res] = in_sec[ph->res];
			for (int h = 0; h < nheld; h++)
				if (held[h] == ph->res) {
					memmove(&held[h], &held[h + 1],
						(size_t)(nheld - h - 1) *
							sizeof(int));
					nheld--;
					break;
				}
			break;
		default:
			break;
		}
	}
}

/*
 * Partitioned, a task judged by a reservation it did not run with has no
 * partition: count it where the engine would have put it, on the least
 * loaded CPU by density.
 */
static void place_unpartitioned(const struct il_scenario *sc,
				struct mbwi_model *m, int ncpus)
{
	for (int i = 0; i < sc->ntasks; i++) {
		double load[64] = { 0 };
		int best = 0;

		if (!m->tasks[i].runtime_ns || m->tasks[i].cpu >= 0)
			continue;
		for (int k = 0; k < sc->ntasks; k++)
			if (m->tasks[k].runtime_ns && m->tasks[k].cpu >= 0 &&
			    m->tasks[k].cpu < 64)
				load[m->tasks[k].cpu] +=
					(double)m->tasks[k].runtime_ns /
					(double)m->tasks[k].deadline_ns;
		for (int c = 1; c < ncpus && c < 64; c++)
			if (load[c] < load[best])
				best = c;
		m->tasks[i].cpu = best;
	}
}

static bool is_control(const struct il_judge_env *env, int i)
{
	return env->unreserved == i && i >= 0 && i < IL_MAX_TASKS &&
	       env->declared[i];
}

/*
 * il_trace_late_ticks() for a result read back without its trace: the
 * task's accounts the file kept (engine.h long_acct_*); returns how
 * many accounts the trace held (0: no witness)
 */
static long kept_late_ticks(const struct il_task_result *r, uint64_t tick_ns,
			    uint64_t t0, uint64_t period, uint64_t *late,
			    size_t n)
{
	for (size_t k = 0; k < r->nlong_acct; k++)
		il_trace_late_add(r->long_acct_ts[k], r->long_acct_run[k],
				  tick_ns, t0, period, late, n);
	return r->naccounts;
}

/* the steal over a window of a task's periods, as one span, on the
 * task's CPU when it ran on one (ncpu 1), else on the set's */
struct steal_span {
	const struct il_engine_result *er;
	uint64_t t0, period;
	int cpu[1], ncpu;
};

static uint64_t steal_window(const void *ctx, size_t first, size_t count)
{
	const struct steal_span *s = ctx;
	uint64_t a = s->t0 + first * s->period;

	return steal_on(s->er, s->cpu, s->ncpu, a, a + count * s->period);
}

/* the overlap of [a, b) and [lo, hi) */
static uint64_t overlap(uint64_t a, uint64_t b, uint64_t lo, uint64_t hi)
{
	uint64_t s = a > lo ? a : lo, e = b < hi ? b : hi;

	return e > s ? e - s : 0;
}

/*
 * The time in each of task i's np periods (from t0, period long) it may
 * have run on a deadline waiter's parameters (il_bw_input.lent_ns): the
 * judged waits of another task run as SCHED_DEADLINE on a pthread mutex
 * with priority inheritance that task i takes, from the request (or,
 * read back from an older file, the release) to the acquisition, each
 * at most the waiter's runtime, laid on the periods in time order.  With
 * the trace, each piece is at most the time task i was on a CPU in it
 * (il_trace_on_cpu): a holder that did not run while the waiter blocked
 * ran on nobody's parameters but its own.  Returns the array (calloc;
 * the caller frees it), NULL when nothing was lent or memory ran out
 * (nothing taken off).
 */
static uint64_t *lent_per_period(const struct il_scenario *sc,
				 const struct il_engine_result *er, int i,
				 uint64_t t0, uint64_t period, size_t np)
{
	uint64_t *out = np ? calloc(np, sizeof(*out)) : NULL;
	bool any = false;

	for (int w = 0; out && w < sc->ntasks; w++) {
		const struct il_sched *ws = &sc->tasks[w].sched;
		const struct il_task_result *r = &er->tasks[w];

		if (w == i || ws->policy != IL_SCHED_DEADLINE)
			continue;
		for (int l = 0; l < r->nlocks; l++) {
			const struct il_lock_result *lr = r->locks[l];
			const struct il_resource *res = &sc->res[lr->res];

			if (!takes(&sc->tasks[i], lr->res) ||
			    res->k.type != IL_RES_MUTEX ||
			    res->k.protocol != IL_PROTO_INHERIT)
				continue;
			for (size_t k = 0; k < lr->nsamples; k++) {
				const struct il_wait_sample *s =
					&lr->samples[k];
				uint64_t a =
					s->t_req_ns ? s->t_req_ns : s->t_ns;
				uint64_t b = s->t_ns + s->delay_ns;
				uint64_t left = ws->runtime_ns;
				/* only the periods it overlaps: a run's waits
				 * and periods both grow with its length */
				size_t p = a > t0 ? (a - t0) / period : 0;

				for (; s->t_ns && !s->timed_out && p < np &&
				       t0 + p * period < b;
				     p++) {
					uint64_t lo = t0 + p * period;
					uint64_t hi = lo + period;
					uint64_t part = overlap(a, b, lo, hi);
					uint64_t ran = UINT64_MAX;

					if (part)
						ran = il_trace_on_cpu(
							er->trace,
							er->tasks[i].tid,
							a > lo ? a : lo,
							b < hi ? b : hi);
					part = ran < part ? ran : part;
					part = part < left ? part : left;
					out[p] += part;
					left -= part;
					any |= part != 0;
				}
			}
		}
	}
	if (!any) {
		free(out);
		return NULL;
	}
	return out;
}

static int bandwidth(const struct il_scenario *sc,
		     const struct il_engine_result *er,
		     const struct il_judge_env *env, struct mbwi_model *m,
		     int i, struct il_judged *out, int max, int *n, char *why,
		     size_t len)
{
	const struct il_task_result *r = &er->tasks[i];
	const struct il_task *t = &sc->tasks[i];
	struct il_bw_input bw = { 0 };
	struct il_judged *c;
	char task[IL_NAME_MAX];
	uint64_t *cons, *stolen, *late, *lent;
	struct steal_span span;
	size_t np;
	int ret, err;

	bw.task = m->tasks[i].name;
	bw.runtime_ns = m->tasks[i].runtime_ns;
	bw.period_ns = m->tasks[i].period_ns;
	bw.tick_ns = env->tick_ns;
	bw.noise_ns = m->eps;
	bw.min_periods = IL_JUDGE_MIN_SAMPLES;
	bw.unaligned = true; /* per_period: the task's releases */
	snprintf(task, sizeof(task), "%.20s bandwidth", m->tasks[i].name);
	ret = il_model_push(out, max, n, "mbwi", task, why, len, &c);
	if (ret)
		return ret;
	cons = per_period(r, er->t_start_ns + t->k.offset_ns, t->k.period_ns,
			  &np, &err);
	if (err) {
		snprintf(why, len, "mbwi %s: %s", task, strerror(-err));
		return err;
	}
	/*
	 * Each period's host steal, when the run has its timeline: a task
	 * is charged the time its vCPU was held while it ran, so a task
	 * that ran on one CPU only that CPU's
	 */
	span = (struct steal_span){ .er = er,
				    .t0 = er->t_start_ns + t->k.offset_ns,
				    .period = t->k.period_ns,
				    .cpu = { r->cpu },
				    .ncpu = r->cpu >= 0 };
	stolen = er->nsteal >= 2 && np ? calloc(np, sizeof(*stolen)) : NULL;
	for (size_t p = 0; stolen && p < np; p++)
		stolen[p] = steal_window(&span, p, 1);
	bw.steal_ns = stolen;
	bw.steal_step_ns = m->step;
	bw.steal_window = steal_window;
	bw.steal_ctx = &span;
	/* each period's tick lateness, when the trace holds the task's
	 * run-time accounts */
	late = np ? calloc(np, sizeof(*late)) : NULL;
	if (late &&
	    (er->trace ? il_trace_late_ticks(er->trace, r->tid, env->tick_ns,
					     er->t_start_ns + t->k.offset_ns,
					     t->k.period_ns, late, np)
		       : kept_late_ticks(r, env->tick_ns,
					 er->t_start_ns + t->k.offset_ns,
					 t->k.period_ns, late, np)) <= 0) {
		free(late);
		late = NULL;
	}
	bw.late_tick_ns = late;
	lent = lent_per_period(sc, er, i, er->t_start_ns + t->k.offset_ns,
			       t->k.period_ns, np);
	bw.lent_ns = lent;
	ret = il_check_bandwidth(&bw, cons, np, &c->c, NULL);
	free(lent);
	free(late);
	free(stolen);
	free(cons);
	if (ret) {
		snprintf(why, len, "mbwi %s: the check could not run: %s", task,
			 strerror(-ret));
		return ret;
	}
	if (m->tasks[i].misbehaves)
		c->expected = IL_FAIL;
	(*n)++;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The CPU time a job of task i takes beyond its declared work: the median
 * over its jobs of each job's CPU time less C (0 where less), or
 * UINT64_MAX when too few jobs tell it.  The median leaves out the jobs
 * a stall of the host lengthened (a vCPU's stolen time can count as the
 * thread's) and the few that spun on a lock.
 */
static uint64_t job_overhead(const struct il_task_result *r, uint64_t c)
{
	uint64_t *x, med, v;
	size_t n = r->njob_cpu;

	if (n < IL_JUDGE_MIN_SAMPLES || n != r->jobs || !r->job_cpu_seq) {
		if (r->job_cpu.count < IL_JUDGE_MIN_SAMPLES ||
		    il_hist_percentile(&r->job_cpu, 0.5, &v))
			return UINT64_MAX;
		return v > c ? v - c : 0;
	}
	x = malloc(n * sizeof(*x));
	if (!x)
		return UINT64_MAX;
	for (size_t k = 0; k < n; k++)
		x[k] = r->job_cpu_seq[k] > c ? r->job_cpu_seq[k] - c : 0;
	qsort(x, n, sizeof(*x), cmp_u64);
	med = x[n / 2];
	free(x);
	return med;
}

/*
 * Each task's C is its declared work and the engine's own cost per job
 * (its clock reads, the reservation's reads, the wake-up path): the
 * least of the deadline tasks' job_overhead, which is the same code in
 * every one of them (a task spinning on a lock owner raises only its
 * own; a fair task reads no reservation and costs less).  Not the
 * calibration's wake-up latency: that is a delay, not work, and on a
 * loaded host its 500 us and more pushed C past Q and left no task
 * covered.
 */
static void add_overhead(const struct il_scenario *sc,
			 const struct il_engine_result *er,
			 struct mbwi_model *m)
{
	uint64_t least = UINT64_MAX;

	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_mbwi_task *mt = &m->tasks[i];
		uint64_t o;

		if (!mt->runtime_ns || !mt->wcet_ns)
			continue;
		o = job_overhead(&er->tasks[i], mt->wcet_ns);
		if (o < least)
			least = o;
	}
	m->overhead_known = least != UINT64_MAX;
	m->overhead = m->overhead_known ? least : 0;
	for (int i = 0; i < sc->ntasks; i++)
		if (m->tasks[i].wcet_ns)
			m->tasks[i].wcet_ns += m->overhead;
}

/*
 * What the fair server may have run on the CPUs over the run, ahead of
 * deadline tasks: its runtime on each CPU in every period the run
 * touched (the kernel's default, 50 ms every 1 s, when not read)
 */
static uint64_t fair_budget(const struct il_scenario *sc,
			    const struct il_engine_result *er,
			    const struct il_judge_env *env, int ncpus)
{
	uint64_t q = env->fair_runtime_ns > 0 ? (uint64_t)env->fair_runtime_ns
					      : 50 * IL_NSEC_PER_MSEC;
	uint64_t p = env->fair_period_ns > 0 ? (uint64_t)env->fair_period_ns
					     : IL_NSEC_PER_SEC;
	uint64_t last = er->t_start_ns;

	for (int i = 0; i < sc->ntasks && i < er->ntasks; i++)
		for (size_t k = 0; k < er->tasks[i].njob_cpu; k++)
			if (er->tasks[i].job_end_seq[k] > last)
				last = er->tasks[i].job_end_seq[k];
	return (uint64_t)ncpus * q * ((last - er->t_start_ns) / p + 2);
}

/* does the task take a pthread mutex or call a kernel-mutex resource? */
static bool takes_lock(const struct il_task *t)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK ||
		    t->phases[p].kind == IL_PH_CALL)
			return true;
	return false;
}

int il_model_mbwi(const struct il_scenario *sc,
		  const struct il_engine_result *er,
		  const struct il_judge_env *env, struct il_judged *out,
		  int max, int *n, char *why, size_t len)
{
	struct mbwi_model *m;
	int ncpus = env->ncpus > 0 ? env->ncpus : 1, covered = 0, ret;
	int unres = -1;
	bool partitioned = false;
	struct il_judged *c;

	if (!env->calib_any) {
		snprintf(why, len,
			 "mbwi: no calibration of the wakeup "
			 "latency");
		return -EINVAL;
	}
	for (int i = 0; i < sc->ntasks; i++)
		if (is_control(env, i))
			unres = i;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, len, "mbwi: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	m->eps = il_noise_ns(env->calib_any);
	m->step = env->steal_step_ns ? env->steal_step_ns : DEFAULT_STEAL_STEP;
	m->fair_pool = m->fair_left = fair_budget(sc, er, env, ncpus);
	m->cpus = ncpus;
	/* the longest section a deadline task held: what deadline
	 * inheritance, which the trace does not show (a boosted deadline
	 * task keeps prio -1), can make a job wait behind a holder whose
	 * nominal deadline is later */
	for (int i = 0; i < sc->ntasks && i < er->ntasks; i++) {
		const struct il_sched *s = env->declared[i]
						   ? env->declared[i]
						   : &sc->tasks[i].sched;

		for (int k = 0; s->policy == IL_SCHED_DEADLINE &&
				k < sc->nres && k < IL_MAX_RESOURCES;
		     k++)
			if (er->tasks[i].hold_max[k] > m->inherit)
				m->inherit = er->tasks[i].hold_max[k];
	}
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		const struct il_task_result *r = &er->tasks[i];
		struct il_mbwi_task *mt = &m->tasks[i];
		const struct il_sched *s =
			env->declared[i] ? env->declared[i] : &t->sched;
		int cpus[IL_STEAL_CPUS];
		int ncpu = delaying_cpus(sc, er, i, cpus);

		mt->name = t->name;
		if (s->policy == IL_SCHED_DEADLINE) {
			mt->runtime_ns = s->runtime_ns;
			mt->deadline_ns = s->deadline_ns;
			mt->period_ns = s->period_ns;
		}
		mt->cpu = r->partitioned ? r->cpu : -1;
		partitioned |= r->partitioned != 0;
		mt->misbehaves = t->k.misbehaves;
		demand_of(sc, er, i, m);
		mt->jobs = r->jobs;
		mt->misses = r->misses;
		if (mt->deadline_ns &&
		    !late_per_job(er, r, mt, m,
				  t->sched.policy == IL_SCHED_DEADLINE, cpus,
				  ncpu))
			il_mbwi_misses_from_hist(&r->response, mt->deadline_ns,
						 m->eps + er->steal_ns, NULL,
						 &mt->late_misses,
						 &mt->worst_response_ns);
		mt->cpu_max_ns = 0;
	}
	add_overhead(sc, er, m);
	if (partitioned)
		place_unpartitioned(sc, m, ncpus);
	m->set.tasks = m->tasks;
	m->set.ntasks = (size_t)sc->ntasks;
	m->set.nlocks = (size_t)sc->nres;
	m->set.N = m->N;
	m->set.L = m->L;
	m->set.nest = m->nest;
	m->set.hold_max = NULL;
	m->set.ncpus = ncpus;
	m->set.cap =
		env->rt_runtime_us == -1 ? 1.0
		: env->rt_runtime_us > 0 && env->rt_period_us > 0
			? (double)env->rt_runtime_us / (double)env->rt_period_us
			: 0.95;
	/*
	 * A miss is judged against the calibration and the host steal
	 * around that job (late_per_job); the set's noise, which the
	 * evidence quotes, is the part every job gets.
	 */
	m->set.noise_ns = er->nsteal >= 2 ? m->eps : m->eps + er->steal_ns;
	m->set.min_jobs = IL_JUDGE_MIN_SAMPLES;
	m->set.silence_ns = er->trace ? il_trace_silence(er->trace, ncpus)
				      : er->trace_silence_ns;
	m->set.partitioned = partitioned;

	ret = il_model_push(out, max, n, "mbwi", "isolation", why, len, &c);
	if (ret)
		goto out;
	ret = il_check_isolation(&m->set, &c->c, NULL);
	if (ret) {
		snprintf(why, len,
			 "mbwi isolation: the check could not run: "
			 "%s",
			 strerror(-ret));
		goto out;
	}
	note_noise(&c->c, er, m);
	/*
	 * With a misbehaving task holding a pthread mutex that a deadline
	 * task waits for, no Linux kernel promises isolation: a PI futex
	 * gives the holder the waiter's deadline parameters, unthrottled
	 * (deadline inheritance, not bandwidth inheritance).  Either verdict
	 * is then a finding about the kernel, reported but not counted.
	 */
	if (misbehaving_on_futex(sc)) {
		c->expected = c->c.verdict;
		il_appendf(c->c.evidence, sizeof(c->c.evidence),
			   "; not counted: a misbehaving task holds a pthread "
			   "mutex a deadline task waits for, and Linux gives "
			   "PI futexes deadline inheritance, not bandwidth "
			   "inheritance");
	}
	note_overhead(&c->c, m);
	if (unres >= 0)
		c->expected = IL_FAIL;
	(*n)++;

	ret = il_model_push(out, max, n, "mbwi", "interference", why, len, &c);
	if (ret)
		goto out;
	ret = il_check_interference(&m->set, &c->c, m->per_task);
	if (ret) {
		snprintf(why, len,
			 "mbwi interference: the check could not "
			 "run: %s",
			 strerror(-ret));
		goto out;
	}
	note_noise(&c->c, er, m);
	note_overhead(&c->c, m);
	/*
	 * A set in which no task meets Q >= C + I is one the guarantee says
	 * nothing about: its UNDECIDED is the expected answer.
	 */
	for (int i = 0; i < sc->ntasks; i++)
		covered += m->per_task[i].judged != 0;
	if (!covered)
		c->expected = IL_UNDECIDED;
	/* the task run without its reservation, where the guarantee
	 * covers it, must miss */
	if (unres >= 0 && m->per_task[unres].judged)
		c->expected = IL_FAIL;
	(*n)++;

	for (int i = 0; i < sc->ntasks; i++) {
		/* a task run without its reservation has none to keep */
		if (!m->tasks[i].runtime_ns || !er->tasks[i].njob_cpu ||
		    env->declared[i])
			continue;
		ret = bandwidth(sc, er, env, m, i, out, max, n, why, len);
		if (ret)
			goto out;
		/*
		 * A negative control whose unreserved task takes locks: the
		 * deadline tasks waiting for it boost it with their own
		 * parameters, and Linux does not throttle a boosted task
		 * (deadline inheritance, not bandwidth inheritance), so the
		 * run promises no budget.  Reported, not counted, as the
		 * isolation check does with a misbehaving futex holder.
		 */
		c = &out[*n - 1];
		if (unres >= 0 && takes_lock(&sc->tasks[unres]) &&
		    c->expected != IL_FAIL) {
			c->expected = c->c.verdict;
			il_appendf(c->c.evidence, sizeof(c->c.evidence),
				   "; not counted: %s runs without its "
				   "reservation and takes locks (negative "
				   "control)",
				   sc->tasks[unres].name);
		}
	}
out:
	free(m->drawn);
	free(m);
	return ret;
}
