// SPDX-License-Identifier: MIT
/*
 * M-BWI checks for SCHED_DEADLINE scenarios: bandwidth preservation,
 * temporal isolation and the interference bound (docs/theory.md 4.5).
 *
 * The theory promises each property only under conditions: isolation only
 * for tasks that share no lock with a misbehaving one, no misses only
 * when the reservations are hard-schedulable and a task's budget covers
 * its own work plus the interference it can suffer.  The checks test
 * those conditions first and judge only the tasks the theory speaks
 * about, so that a FAIL always means "the kernel broke a promise the
 * theory makes" and never "the scenario asked for more than any
 * scheduler could give".  Where a promise does not apply the answer is
 * UNDECIDED with the reason, as is a miss that measured noise explains.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/mbwi.h>
#include <invlab/order.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "check-none.h"

static const char name_bw[] = "bandwidth preservation (n*Q + tick)";
static const char name_iso[] = "temporal isolation (M-BWI)";
static const char name_int[] = "M-BWI interference (Q >= C + I)";

/* append to buf at *off; once full, the rest is dropped, never overrun */
static void __attribute__((format(printf, 4, 5)))
addf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*off >= len - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	*off += (size_t)w < len - *off ? (size_t)w : len - 1 - *off;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* ------------------------------------------------------------------ */
/* Bandwidth preservation                                              */
/* ------------------------------------------------------------------ */

int il_bw_worst_window(const uint64_t *consumed_ns, size_t n,
		       uint64_t runtime_ns, struct il_bw_window *w)
{
	int64_t cur = 0, best = 0;
	size_t cur_first = 0;
	uint64_t nq;

	if (!consumed_ns || !n || !w)
		return -EINVAL;
	if (runtime_ns > INT64_MAX)
		return -ERANGE;
	memset(w, 0, sizeof(*w));
	for (size_t k = 0; k < n; k++) {
		int64_t x;

		if (consumed_ns[k] > INT64_MAX)
			return -ERANGE;
		/* both in [0, 2^63): the difference cannot overflow */
		x = (int64_t)consumed_ns[k] - (int64_t)runtime_ns;
		/*
		 * The best window ending at k: extend the one ending at
		 * k - 1 if that has a positive sum, else start at k.
		 */
		if (k == 0 || cur <= 0) {
			cur = x;
			cur_first = k;
		} else if (__builtin_add_overflow(cur, x, &cur)) {
			return -ERANGE;
		}
		if (k == 0 || cur > best) {
			best = cur;
			w->first = cur_first;
			w->count = k - cur_first + 1;
		}
	}
	w->excess_ns = best;
	/* consumed = n * Q + excess, never negative */
	if (__builtin_mul_overflow((uint64_t)w->count, runtime_ns, &nq))
		return -ERANGE;
	if (best >= 0) {
		if (__builtin_add_overflow(nq, (uint64_t)best, &w->consumed_ns))
			return -ERANGE;
	} else {
		w->consumed_ns = nq - (uint64_t)(-best);
	}
	return 0;
}

/* w is the window judged: its bound n * Q + tick, its consumption and
 * its excess (0 when none) into out, worst and *over */
static int judged_window(const struct il_bw_input *in,
			 const struct il_bw_window *w, struct il_check *out,
			 struct il_bw_window *worst, uint64_t *over)
{
	uint64_t bound;

	if (__builtin_mul_overflow((uint64_t)w->count, in->runtime_ns,
				   &bound) ||
	    __builtin_add_overflow(bound, in->tick_ns, &bound))
		return -ERANGE;
	if (worst)
		*worst = *w;
	out->bound_ns = bound;
	out->worst_ns = w->consumed_ns;
	*over = w->excess_ns > 0 ? (uint64_t)w->excess_ns : 0;
	return 0;
}

/* the excess over n * Q that shows the kernel's: one tick, the noise,
 * and where the periods are the task's and not the kernel's one Q more
 * (il_bw_input.unaligned) */
static uint64_t fail_slack(const struct il_bw_input *in)
{
	uint64_t s = sat_add(in->tick_ns, in->noise_ns);

	return in->unaligned ? sat_add(s, in->runtime_ns) : s;
}

/* what of period k is not the task's: the host's steal, the lateness
 * of the tick and the time lent by blocked deadline waiters, each as far
 * as measured */
static uint64_t not_task(const struct il_bw_input *in, size_t k)
{
	return sat_add(sat_add(in->steal_ns ? in->steal_ns[k] : 0,
			       in->late_tick_ns ? in->late_tick_ns[k] : 0),
		       in->lent_ns ? in->lent_ns[k] : 0);
}

/* what was taken off, for the evidence: "the host's steal, the ticks'
 * lateness and the time lent" as far as each was measured */
static void taken_names(const struct il_bw_input *in, char *buf, size_t len)
{
	const char *part[3];
	size_t n = 0, off = 0;

	if (in->steal_ns)
		part[n++] = "the host's steal";
	if (in->late_tick_ns)
		part[n++] = "the ticks' lateness";
	if (in->lent_ns)
		part[n++] = "what it ran while deadline waiters blocked on "
			    "its locks";
	buf[0] = '\0';
	for (size_t k = 0; k < n; k++)
		addf(buf, len, &off, "%s%s",
		     !k		 ? ""
		     : k + 1 < n ? ", "
				 : " and ",
		     part[k]);
}

/*
 * The worst window w exceeds n * Q + tick + noise: judge again with what
 * was not the task's taken off each period (not_task).  Within the
 * bound then: UNDECIDED, the evidence saying what was taken off;
 * otherwise w becomes the window that exceeds it with that off, its
 * consumption in the evidence, and the caller decides.
 */
static int taken_off(const struct il_bw_input *in, const uint64_t *consumed_ns,
		     size_t n, struct il_bw_window *w, struct il_check *out,
		     struct il_bw_window *worst, uint64_t *over, size_t *off)
{
	char c[24], q[24], t[24], e[24], x[24], p[24], s_[24], l_[24], b_[24];
	char names[128];
	uint64_t *net = malloc(n * sizeof(*net)), st = 0, all = 0, lt = 0;
	uint64_t ln = 0;
	uint64_t slack = fail_slack(in);
	const char *task = in->task ? in->task : "task";
	struct il_bw_window wn;
	int ret;

	if (!net)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		uint64_t o = not_task(in, k);

		net[k] = consumed_ns[k] > o ? consumed_ns[k] - o : 0;
		all = sat_add(all, in->steal_ns ? in->steal_ns[k] : 0);
	}
	for (size_t k = w->first; k < w->first + w->count; k++) {
		st = sat_add(st, in->steal_ns ? in->steal_ns[k] : 0);
		lt = sat_add(lt, in->late_tick_ns ? in->late_tick_ns[k] : 0);
		ln = sat_add(ln, in->lent_ns ? in->lent_ns[k] : 0);
	}
	ret = il_bw_worst_window(net, n, in->runtime_ns, &wn);
	free(net);
	if (ret)
		return ret;
	/* a host that stole: each figure can read a step short */
	if (all > 0)
		slack = sat_add(slack, in->steal_step_ns);
	il_format_duration(q, sizeof(q), in->runtime_ns);
	il_format_duration(t, sizeof(t), in->tick_ns);
	il_format_duration(e, sizeof(e), in->noise_ns);
	il_format_duration(p, sizeof(p), in->period_ns);
	il_format_duration(s_, sizeof(s_), st);
	il_format_duration(l_, sizeof(l_), lt);
	il_format_duration(b_, sizeof(b_), ln);
	/* excused by the steal summed period by period: the same window
	 * with its steal taken once */
	if ((wn.excess_ns <= 0 || (uint64_t)wn.excess_ns <= slack) &&
	    in->steal_window && in->steal_ns) {
		uint64_t once =
			in->steal_window(in->steal_ctx, w->first, w->count);
		uint64_t left = w->consumed_ns, nq;

		left = left > lt ? left - lt : 0;
		left = left > ln ? left - ln : 0;
		left = left > once ? left - once : 0;
		if (__builtin_mul_overflow((uint64_t)w->count, in->runtime_ns,
					   &nq))
			return -ERANGE;
		if (left > nq && left - nq > slack && left - nq <= INT64_MAX) {
			wn = *w;
			wn.consumed_ns = left;
			wn.excess_ns = (int64_t)(left - nq);
		}
	}
	if (wn.excess_ns <= 0 || (uint64_t)wn.excess_ns <= slack) {
		out->verdict = IL_UNDECIDED;
		il_format_duration(x, sizeof(x), *over - in->tick_ns);
		addf(out->evidence, sizeof(out->evidence), off,
		     ", %s beyond %zu x %s + %s tick (noise %s), but", x,
		     w->count, q, t, e);
		/* nothing seen stolen is no steal: what the counter read */
		if (in->steal_ns && st)
			addf(out->evidence, sizeof(out->evidence), off,
			     " the host stole %s in those periods", s_);
		else if (in->steal_ns)
			addf(out->evidence, sizeof(out->evidence), off,
			     " the steal counter read 0ns in those periods");
		if (all > 0 && in->steal_step_ns) {
			char step[24];

			il_format_duration(step, sizeof(step),
					   in->steal_step_ns);
			addf(out->evidence, sizeof(out->evidence), off,
			     " (its counter moves in steps of %s, so up to "
			     "one more goes unseen)",
			     step);
		}
		if (lt)
			addf(out->evidence, sizeof(out->evidence), off,
			     "%s the kernel's accounts of %s came %s later "
			     "than one tick apart in those periods (its CPU "
			     "took no tick for that long: a vCPU the host "
			     "held, or interrupts off), so its throttle came "
			     "as much later",
			     in->steal_ns ? "; and" : "", task, l_);
		if (in->steal_ns || lt)
			addf(out->evidence, sizeof(out->evidence), off,
			     ", and a thread's CPU clock counts that time");
		if (ln)
			addf(out->evidence, sizeof(out->evidence), off,
			     "%s %s ran up to %s in those periods while "
			     "deadline tasks were blocked on locks it holds "
			     "(at most their Q a job), and a PI futex runs its "
			     "holder on its waiter's deadline and runtime, not "
			     "throttled (deadline inheritance), so some of its "
			     "time may have been theirs",
			     in->steal_ns || lt ? "; and" : "", task, b_);
		addf(out->evidence, sizeof(out->evidence), off,
		     ": within the reservation with it taken off%s",
		     in->unaligned ? " (and one Q more: the periods are the "
				     "task's, not the kernel's)"
				   : "");
		return 0;
	}
	/* the window that exceeds it with that taken off */
	*w = wn;
	ret = judged_window(in, w, out, worst, over);
	if (ret)
		return ret;
	*off = 0;
	il_format_duration(c, sizeof(c), w->consumed_ns);
	taken_names(in, names, sizeof(names));
	addf(out->evidence, sizeof(out->evidence), off,
	     "%s (Q %s every %s): periods %zu..%zu consumed %s with %s "
	     "taken off",
	     task, q, p, w->first, w->first + w->count - 1, c, names);
	return 0;
}

static int check_bandwidth_(const struct il_bw_input *in,
			    const uint64_t *consumed_ns, size_t n,
			    struct il_check *out, struct il_bw_window *worst)
{
	char c[24], q[24], t[24], e[24], x[24], p[24];
	const char *task;
	struct il_bw_window w;
	uint64_t over;
	size_t off = 0;
	int ret;

	if (!in || !out || (n && !consumed_ns))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bound_name = name_bw;
	out->noise_ns = in->noise_ns;
	task = in->task ? in->task : "task";
	if (!n) {
		out->verdict = IL_UNDECIDED;
		snprintf(out->evidence, sizeof(out->evidence),
			 "%s: no period measured", task);
		return 0;
	}
	ret = il_bw_worst_window(consumed_ns, n, in->runtime_ns, &w);
	if (ret)
		return ret;
	ret = judged_window(in, &w, out, worst, &over);
	if (ret)
		return ret;

	il_format_duration(c, sizeof(c), w.consumed_ns);
	il_format_duration(q, sizeof(q), in->runtime_ns);
	il_format_duration(t, sizeof(t), in->tick_ns);
	il_format_duration(e, sizeof(e), in->noise_ns);
	il_format_duration(p, sizeof(p), in->period_ns);
	addf(out->evidence, sizeof(out->evidence), &off,
	     "%s (Q %s every %s): periods %zu..%zu consumed %s", task, q, p,
	     w.first, w.first + w.count - 1, c);

	if (over > fail_slack(in) &&
	    (in->steal_ns || in->late_tick_ns || in->lent_ns)) {
		ret = taken_off(in, consumed_ns, n, &w, out, worst, &over,
				&off);
		if (ret || out->verdict == IL_UNDECIDED)
			return ret;
	}
	if (over > fail_slack(in)) {
		out->verdict = IL_FAIL;
		il_format_duration(x, sizeof(x), over - in->tick_ns);
		addf(out->evidence, sizeof(out->evidence), &off,
		     ", %s beyond %zu x %s + %s tick (noise %s): the "
		     "reservation was exceeded",
		     x, w.count, q, t, e);
		return 0;
	}
	if (over > sat_add(in->tick_ns, in->noise_ns)) {
		/* only unaligned comes here: within one Q more */
		out->verdict = IL_UNDECIDED;
		il_format_duration(x, sizeof(x), over - in->tick_ns);
		addf(out->evidence, sizeof(out->evidence), &off,
		     ", %s beyond %zu x %s + %s tick (noise %s), but within "
		     "one Q more: these periods are the task's, from its "
		     "releases, and the kernel's start later (a wake-up past "
		     "the deadline, a throttle), so %zu of them span %zu of "
		     "the kernel's budgets",
		     x, w.count, q, t, e, w.count, w.count + 1);
		return 0;
	}
	if (over > in->tick_ns) {
		out->verdict = IL_UNDECIDED;
		il_format_duration(x, sizeof(x), over - in->tick_ns);
		addf(out->evidence, sizeof(out->evidence), &off,
		     ", %s beyond %zu x %s + %s tick, within %s noise", x,
		     w.count, q, t, e);
		return 0;
	}
	if (n < in->min_periods) {
		out->verdict = IL_UNDECIDED;
		addf(out->evidence, sizeof(out->evidence), &off,
		     " <= %zu x %s + %s tick, but only %zu periods measured "
		     "(need %zu)",
		     w.count, q, t, n, in->min_periods);
		return 0;
	}
	out->verdict = IL_PASS;
	addf(out->evidence, sizeof(out->evidence), &off,
	     " <= %zu x %s + %s tick, the worst of %zu periods", w.count, q, t,
	     n);
	return 0;
}

int il_check_bandwidth(const struct il_bw_input *in,
		       const uint64_t *consumed_ns, size_t n,
		       struct il_check *out, struct il_bw_window *worst)
{
	return il_check_none(out,
			     check_bandwidth_(in, consumed_ns, n, out, worst),
			     "bandwidth check");
}

/* ------------------------------------------------------------------ */
/* The set                                                             */
/* ------------------------------------------------------------------ */

static int check_set(const struct il_mbwi_set *s)
{
	if (!s || (s->ntasks && !s->tasks) || s->ntasks > IL_MBWI_MAX_TASKS ||
	    s->nlocks > IL_MBWI_MAX_LOCKS || (s->nlocks && (!s->N || !s->L)))
		return -EINVAL;
	return 0;
}

/* buf holds at least 32 bytes: "task " and any size_t */
static const char *tname(const struct il_mbwi_set *s, size_t i, char *buf,
			 size_t len)
{
	if (s->tasks[i].name)
		return s->tasks[i].name;
	snprintf(buf, len, "task %zu", i);
	return buf;
}

static unsigned uses(const struct il_mbwi_set *s, size_t i, size_t l)
{
	return s->N[i * s->nlocks + l];
}

static bool uses_any(const struct il_mbwi_set *s, size_t i)
{
	for (size_t l = 0; l < s->nlocks; l++)
		if (uses(s, i, l))
			return true;
	return false;
}

/* C: declared, else measured; 0 unknown */
static uint64_t demand_c(const struct il_mbwi_task *t)
{
	return t->wcet_ns ? t->wcet_ns : t->cpu_max_ns;
}

/* ------------------------------------------------------------------ */
/* Schedulability                                                      */
/* ------------------------------------------------------------------ */

/* ceil(q / d * 2^32); q <= d is checked by the caller */
static uint64_t density_bw(uint64_t q, uint64_t d)
{
	/*
	 * Bring d and q below 2^32 so that q << 32 fits (rounding q up can
	 * take it to 2^32); q is rounded up and d down, the density grows.
	 */
	while ((d >> 32) || (q >> 32)) {
		q = (q >> 1) + (q & 1);
		d >>= 1;
	}
	return ((q << IL_DL_BW_SHIFT) + d - 1) / d;
}

static double bw_f(uint64_t bw)
{
	return (double)bw / (double)IL_DL_BW_ONE;
}

static int task_bw(const struct il_mbwi_task *t, uint64_t *bw)
{
	uint64_t p = t->period_ns ? t->period_ns : t->deadline_ns;
	uint64_t d = t->deadline_ns < p ? t->deadline_ns : p;

	if (!t->deadline_ns || t->runtime_ns > t->deadline_ns ||
	    t->deadline_ns > p)
		return -EINVAL;
	if (t->runtime_ns > INT64_MAX || p > INT64_MAX)
		return -ERANGE;
	*bw = density_bw(t->runtime_ns, d);
	return 0;
}

int il_dl_schedulable(const struct il_mbwi_set *set, struct il_dl_sched *out)
{
	uint64_t cap_bw, total = 0, max = 0, bw, m, mcap, minus;
	size_t reserved = 0;
	int ret;

	if (!out || check_set(set) || set->ncpus < 1 || !(set->cap > 0.0) ||
	    set->cap > 1.0)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	/* truncation is floor for a positive value: the cap rounds down */
	cap_bw = (uint64_t)(set->cap * (double)IL_DL_BW_ONE);
	for (size_t i = 0; i < set->ntasks; i++) {
		const struct il_mbwi_task *t = &set->tasks[i];

		if (!t->runtime_ns)
			continue;
		if (set->partitioned && (t->cpu < 0 || t->cpu >= set->ncpus))
			return -EINVAL;
		ret = task_bw(t, &bw);
		if (ret)
			return ret;
		reserved++;
		total += bw;
		if (bw > max)
			max = bw;
	}
	out->max_bw = max;

	if (set->partitioned) {
		out->test = IL_DL_PARTITIONED;
		out->name = "partitioned EDF";
		out->limit_bw = cap_bw;
		/* each CPU that holds a task, the most loaded one decides */
		for (size_t i = 0; i < set->ntasks; i++) {
			int cpu = set->tasks[i].cpu;
			uint64_t load = 0;

			if (!set->tasks[i].runtime_ns)
				continue;
			for (size_t k = 0; k < set->ntasks; k++) {
				if (!set->tasks[k].runtime_ns ||
				    set->tasks[k].cpu != cpu)
					continue;
				task_bw(&set->tasks[k], &bw);
				load += bw;
			}
			if (out->cpu < 0 || load > out->load_bw ||
			    (load == out->load_bw && cpu < out->cpu)) {
				out->load_bw = load;
				out->cpu = cpu;
			}
		}
		out->schedulable = out->load_bw <= cap_bw;
		if (!reserved)
			snprintf(out->desc, sizeof(out->desc),
				 "%s: no reservation", out->name);
		else
			snprintf(out->desc, sizeof(out->desc),
				 "%s: CPU %d density %.3f %s cap %.3f",
				 out->name, out->cpu, bw_f(out->load_bw),
				 out->schedulable ? "<=" : ">", bw_f(cap_bw));
		return 0;
	}

	out->test = IL_DL_GLOBAL_GFB;
	out->name = "global EDF (GFB)";
	out->load_bw = total;
	m = (uint64_t)set->ncpus;
	mcap = m * cap_bw;
	minus = (m - 1) * max;
	out->limit_bw = mcap > minus ? mcap - minus : 0;
	out->schedulable = total <= out->limit_bw;
	if (!reserved)
		snprintf(out->desc, sizeof(out->desc), "%s: no reservation",
			 out->name);
	else
		snprintf(out->desc, sizeof(out->desc),
			 "%s: density %.3f %s %d x %.3f - %d x %.3f = %.3f",
			 out->name, bw_f(total), out->schedulable ? "<=" : ">",
			 set->ncpus, bw_f(cap_bw), set->ncpus - 1, bw_f(max),
			 bw_f(out->limit_bw));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Interference                                                        */
/* ------------------------------------------------------------------ */

enum { UNSEEN, ON_PATH, DONE };

struct lhat_ctx {
	const struct il_mbwi_set *s;
	uint64_t *lhat;
	unsigned char state[IL_MBWI_MAX_TASKS * IL_MBWI_MAX_LOCKS];
};

/*
 * Depth-first over (task, lock) pairs: Lhat_{j,l} needs Lhat_{k,m} for
 * every m that j nests in l and every other user k of m.  Meeting a pair
 * that is still on the path is a circular wait across tasks.  The path is
 * at most ntasks * nlocks pairs long.
 */
static int lhat_of(struct lhat_ctx *c, size_t j, size_t l)
{
	const struct il_mbwi_set *s = c->s;
	size_t nl = s->nlocks, idx = j * nl + l;
	uint64_t v;
	int ret;

	if (c->state[idx] == DONE)
		return 0;
	if (c->state[idx] == ON_PATH)
		return -ELOOP;
	c->state[idx] = ON_PATH;
	v = s->L[idx];
	for (size_t m = 0; s->nest && m < nl; m++) {
		if (m == l || !s->nest[idx * nl + m])
			continue;
		for (size_t k = 0; k < s->ntasks; k++) {
			if (k == j || !uses(s, k, m))
				continue;
			ret = lhat_of(c, k, m);
			if (ret)
				return ret;
			if (__builtin_add_overflow(v, c->lhat[k * nl + m], &v))
				return -ERANGE;
		}
	}
	c->lhat[idx] = v;
	c->state[idx] = DONE;
	return 0;
}

int il_mbwi_lhat(const struct il_mbwi_set *set, uint64_t *lhat)
{
	struct lhat_ctx c;
	int ret;

	if (check_set(set) || (set->ntasks && set->nlocks && !lhat))
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	c.s = set;
	c.lhat = lhat;
	for (size_t i = 0; i < set->ntasks * set->nlocks; i++)
		lhat[i] = 0;
	for (size_t j = 0; j < set->ntasks; j++)
		for (size_t l = 0; l < set->nlocks; l++) {
			if (!uses(set, j, l))
				continue;
			ret = lhat_of(&c, j, l);
			if (ret)
				return ret;
		}
	return 0;
}

static int interference_from(const struct il_mbwi_set *set,
			     const uint64_t *lhat, uint64_t *interference)
{
	size_t nl = set->nlocks;

	for (size_t i = 0; i < set->ntasks; i++) {
		uint64_t sum_i = 0;

		for (size_t l = 0; l < nl; l++) {
			uint64_t others = 0, t;

			if (!uses(set, i, l))
				continue;
			/* every other user may hold l once per request */
			for (size_t j = 0; j < set->ntasks; j++)
				if (j != i && uses(set, j, l) &&
				    __builtin_add_overflow(
					    others, lhat[j * nl + l], &others))
					return -ERANGE;
			if (__builtin_mul_overflow((uint64_t)uses(set, i, l),
						   others, &t) ||
			    __builtin_add_overflow(sum_i, t, &sum_i))
				return -ERANGE;
		}
		interference[i] = sum_i;
	}
	return 0;
}

int il_mbwi_interference(const struct il_mbwi_set *set, uint64_t *interference)
{
	uint64_t lhat[IL_MBWI_MAX_TASKS * IL_MBWI_MAX_LOCKS];
	int ret;

	if (check_set(set) || (set->ntasks && !interference))
		return -EINVAL;
	ret = il_mbwi_lhat(set, lhat);
	if (ret)
		return ret;
	return interference_from(set, lhat, interference);
}

static size_t uf_find(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* comp[i]: a representative of i's lock-sharing component */
static void components(const struct il_mbwi_set *s, size_t *comp)
{
	for (size_t i = 0; i < s->ntasks; i++)
		comp[i] = i;
	for (size_t l = 0; l < s->nlocks; l++) {
		size_t first = s->ntasks;

		for (size_t i = 0; i < s->ntasks; i++) {
			if (!uses(s, i, l))
				continue;
			if (first == s->ntasks) {
				first = i;
				continue;
			}
			comp[uf_find(comp, i)] = uf_find(comp, first);
		}
	}
	for (size_t i = 0; i < s->ntasks; i++)
		comp[i] = uf_find(comp, i);
}

/* what every check needs, computed once */
struct prep {
	uint64_t lhat[IL_MBWI_MAX_TASKS * IL_MBWI_MAX_LOCKS];
	uint64_t inter[IL_MBWI_MAX_TASKS];
	size_t comp[IL_MBWI_MAX_TASKS];
	bool bad[IL_MBWI_MAX_TASKS];
};

/*
 * Declared, or measured beyond what the analysis allows: a section
 * longer than Lhat (its nested waits are in both), a job longer than
 * C + I (a waiter's spinning is in both).
 */
static bool misbehaves(const struct il_mbwi_set *s, const struct prep *p,
		       size_t i)
{
	const struct il_mbwi_task *t = &s->tasks[i];
	size_t nl = s->nlocks;

	if (t->misbehaves)
		return true;
	for (size_t l = 0; s->hold_max && l < nl; l++)
		if (uses(s, i, l) &&
		    s->hold_max[i * nl + l] >
			    sat_add(p->lhat[i * nl + l], s->noise_ns))
			return true;
	return t->wcet_ns && t->cpu_max_ns &&
	       t->cpu_max_ns >
		       sat_add(sat_add(t->wcet_ns, p->inter[i]), s->noise_ns);
}

static int prepare(const struct il_mbwi_set *s, struct prep *p)
{
	int ret = il_mbwi_lhat(s, p->lhat);

	if (ret)
		return ret;
	ret = interference_from(s, p->lhat, p->inter);
	if (ret)
		return ret;
	components(s, p->comp);
	for (size_t i = 0; i < s->ntasks; i++)
		p->bad[i] = misbehaves(s, p, i);
	return 0;
}

static int tainted(const struct il_mbwi_set *s, const struct prep *p, size_t i,
		   size_t *culprit)
{
	if (p->bad[i]) {
		*culprit = i;
		return 1;
	}
	for (size_t k = 0; k < s->ntasks; k++)
		if (k != i && p->comp[k] == p->comp[i] && p->bad[k]) {
			*culprit = k;
			return 1;
		}
	return 0;
}

int il_mbwi_tainted(const struct il_mbwi_set *set, size_t i, size_t *culprit)
{
	struct prep p;
	size_t c;
	int ret;

	if (check_set(set) || i >= set->ntasks)
		return -EINVAL;
	ret = prepare(set, &p);
	if (ret)
		return ret;
	ret = tainted(set, &p, i, &c);
	if (ret && culprit)
		*culprit = c;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Verdicts on misses                                                  */
/* ------------------------------------------------------------------ */

enum which { ISOLATION, INTERFERENCE };

static uint64_t lateness(const struct il_mbwi_task *t)
{
	return t->worst_response_ns > t->deadline_ns
		       ? t->worst_response_ns - t->deadline_ns
		       : 0;
}

/* slack D - R as a signed number, for "least slack" on PASS */
static int64_t slack(const struct il_mbwi_task *t)
{
	if (t->deadline_ns >= t->worst_response_ns)
		return (int64_t)(t->deadline_ns - t->worst_response_ns);
	return -(int64_t)(t->worst_response_ns - t->deadline_ns);
}

/*
 * Decide whether the guarantee covers task i; if not, say why in v->why
 * and return false.
 */
static bool covered(const struct il_mbwi_set *s, enum which w,
		    const struct prep *p, size_t i,
		    struct il_mbwi_task_verdict *v)
{
	const struct il_mbwi_task *t = &s->tasks[i];
	char n[32], a[24], b[24], cc[24], ii[24];
	size_t k;

	if (!t->runtime_ns) {
		snprintf(v->why, sizeof(v->why),
			 "no reservation: nothing is guaranteed");
		return false;
	}
	if (tainted(s, p, i, &k)) {
		if (k == i)
			snprintf(v->why, sizeof(v->why), "misbehaves itself");
		else
			snprintf(v->why, sizeof(v->why),
				 "shares a lock (directly or through a chain) "
				 "with misbehaving %s",
				 tname(s, k, n, sizeof(n)));
		return false;
	}
	if (w == INTERFERENCE && !uses_any(s, i)) {
		snprintf(v->why, sizeof(v->why),
			 "uses no lock (the isolation check covers it)");
		return false;
	}
	if (!demand_c(t)) {
		snprintf(v->why, sizeof(v->why),
			 "C unknown: neither declared nor measured");
		return false;
	}
	if (v->demand_ns > t->runtime_ns) {
		il_format_duration(a, sizeof(a), v->demand_ns);
		il_format_duration(b, sizeof(b), t->runtime_ns);
		il_format_duration(cc, sizeof(cc), demand_c(t));
		il_format_duration(ii, sizeof(ii), v->interference_ns);
		snprintf(v->why, sizeof(v->why),
			 "C + I = %s + %s = %s > Q = %s: not guaranteed", cc,
			 ii, a, b);
		return false;
	}
	return true;
}

/*
 * One burst: every late miss of the set known job by job, and one
 * instant at which all of them were pending (no late job ended before
 * the last late one was released).  A stall of the host, or of anything
 * outside the set, that the steal time does not show delays the jobs
 * pending while it lasts and no other: one such stall makes exactly
 * this.  A kernel that breaks the guarantee does so each time the cause
 * comes again (an overrun, a long section), and then some late job ends
 * before another is released.  Nor is it a stall when the trace shows
 * tasks ranked below a late job running while it waited
 * (late_attested), in every late job or in more of them than a host's
 * stalls make (late_attested_n, the binomial rule).  *span is how long
 * they were pending together, from the last release to the first end.
 * Nor when the trace shows no CPU stopped long enough (silence_ns):
 * then *silent is set (a burst by its pending, but longer than a stall).
 */
static bool one_burst(const struct il_mbwi_set *s, uint64_t *span, bool *silent)
{
	uint64_t rel = 0, end = UINT64_MAX, worst = 0;
	bool any = false;

	*span = 0;
	*silent = false;
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct il_mbwi_task *t = &s->tasks[i];

		if (!t->late_misses)
			continue;
		if (!t->late_rel_max_ns || !t->late_end_min_ns ||
		    t->late_attested ||
		    il_order_pattern(t->jobs, t->late_attested_n))
			return false;
		any = true;
		if (t->late_rel_max_ns > rel)
			rel = t->late_rel_max_ns;
		if (t->late_end_min_ns < end)
			end = t->late_end_min_ns;
		if (t->late_worst_ns > worst)
			worst = t->late_worst_ns;
	}
	if (!any || rel > end)
		return false;
	if (s->silence_ns &&
	    worst > sat_add(sat_add(s->silence_ns, s->silence_ns),
			    s->noise_ns)) {
		*silent = true;
		return false;
	}
	*span = end - rel;
	return true;
}

static void judge(const struct il_mbwi_set *s, size_t i,
		  struct il_mbwi_task_verdict *v)
{
	const struct il_mbwi_task *t = &s->tasks[i];
	char x[24], e[24], sp[24];
	uint64_t span;
	bool silent = false;

	/* how late its late misses were, where known one by one */
	il_format_duration(x, sizeof(x),
			   t->late_worst_ns ? t->late_worst_ns : lateness(t));
	il_format_duration(e, sizeof(e), s->noise_ns);
	if (t->late_misses && one_burst(s, &span, &silent)) {
		v->verdict = IL_UNDECIDED;
		il_format_duration(sp, sizeof(sp), span);
		il_setf(v->why, sizeof(v->why),
			"%llu of %llu jobs missed, up to %s late, all the "
			"set's late jobs pending together for %s: one burst, "
			"as one stall outside the set makes",
			(unsigned long long)t->late_misses,
			(unsigned long long)t->jobs, x, sp);
	} else if (t->late_misses && t->late_attested && t->jobs &&
		   !il_order_pattern(t->jobs, t->late_misses)) {
		/*
		 * Each late miss with lower-ranked tasks running on the
		 * trace, but no more of them than a host that stalls a job
		 * now and then makes (0.5 % a job, the order check's rate:
		 * docs/theory.md 6.1): a pattern is the kernel's, a few are
		 * not told from a stalled vCPU that shows its task running.
		 */
		v->verdict = IL_UNDECIDED;
		il_setf(v->why, sizeof(v->why),
			"%llu of %llu jobs missed, up to %s late, with the "
			"kernel's choice on the trace, but no more often than "
			"a host's stalls make it (chance %.1e)",
			(unsigned long long)t->late_misses,
			(unsigned long long)t->jobs, x,
			il_order_binom_tail(t->jobs, t->late_misses,
					    IL_ORDER_OUTLIER_P));
	} else if (t->late_misses && t->late_seen_n >= t->late_misses &&
		   !il_order_pattern(t->jobs, t->late_attested_n)) {
		/*
		 * The trace saw every late job whole and shows the kernel's
		 * choice in too few of them for a pattern: what made the
		 * rest late (a vCPU held unseen, a CPU slow to act) is not
		 * shown to be the kernel's.  Durations decide only what the
		 * trace did not see.
		 */
		v->verdict = IL_UNDECIDED;
		il_setf(v->why, sizeof(v->why),
			"%llu of %llu jobs missed, up to %s late (> %s noise), "
			"%llu of them with the kernel's choice on the trace, "
			"too few for a pattern: not shown to be the kernel's",
			(unsigned long long)t->late_misses,
			(unsigned long long)t->jobs, x, e,
			(unsigned long long)t->late_attested_n);
	} else if (t->late_misses) {
		v->verdict = IL_FAIL;
		snprintf(v->why, sizeof(v->why),
			 "%llu of %llu jobs missed, up to %s late (> %s noise)",
			 (unsigned long long)t->late_misses,
			 (unsigned long long)t->jobs, x, e);
		if (t->late_charged)
			il_appendf(v->why, sizeof(v->why),
				   ", %llu after the kernel charged its "
				   "sleep to its reservation",
				   (unsigned long long)t->late_charged);
		if (silent) {
			il_format_duration(sp, sizeof(sp), s->silence_ns);
			il_appendf(v->why, sizeof(v->why),
				   "; one burst, longer than a stall: no "
				   "CPU's trace silent over %s",
				   sp);
		}
	} else if (t->misses && t->misses_kept >= t->misses &&
		   t->jobs >= s->min_jobs) {
		/* each miss within the calibration, and the trace shows
		 * nothing of the kernel's choice in it */
		v->verdict = IL_PASS;
		v->by_trace = 1;
		snprintf(v->why, sizeof(v->why),
			 "%llu of %llu jobs missed, each by no more than %s "
			 "noise, the trace showing nothing of the kernel's "
			 "choice in each",
			 (unsigned long long)t->misses,
			 (unsigned long long)t->jobs, e);
	} else if (t->misses) {
		v->verdict = IL_UNDECIDED;
		snprintf(v->why, sizeof(v->why),
			 "%llu of %llu jobs missed, none beyond %s noise and "
			 "the time measured around it that may not be the "
			 "kernel's",
			 (unsigned long long)t->misses,
			 (unsigned long long)t->jobs, e);
	} else if (t->jobs < s->min_jobs) {
		v->verdict = IL_UNDECIDED;
		snprintf(v->why, sizeof(v->why), "only %llu jobs (need %llu)",
			 (unsigned long long)t->jobs,
			 (unsigned long long)s->min_jobs);
	} else {
		v->verdict = IL_PASS;
		snprintf(v->why, sizeof(v->why), "0 misses in %llu jobs",
			 (unsigned long long)t->jobs);
	}
}

static int check_misses(const struct il_mbwi_set *s, enum which w,
			struct il_check *out,
			struct il_mbwi_task_verdict *per_task)
{
	struct il_mbwi_task_verdict v[IL_MBWI_MAX_TASKS];
	const uint64_t *inter;
	struct prep p;
	size_t judged = 0, fails = 0, unsure = 0, decider = SIZE_MAX;
	char n[32], d[24], r[24], buf[32];
	struct il_dl_sched sched;
	char *ev;
	size_t len, off = 0;
	int ret;

	if (!out || check_set(s))
		return -EINVAL;
	ret = il_dl_schedulable(s, &sched);
	if (ret)
		return ret;
	ret = prepare(s, &p);
	if (ret)
		return ret;
	inter = p.inter;
	memset(out, 0, sizeof(*out));
	out->bound_name = w == ISOLATION ? name_iso : name_int;
	out->noise_ns = s->noise_ns;
	ev = out->evidence;
	len = sizeof(out->evidence);

	for (size_t i = 0; i < s->ntasks; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].verdict = IL_UNDECIDED;
		v[i].interference_ns = inter[i];
		v[i].demand_ns = sat_add(demand_c(&s->tasks[i]), inter[i]);
		if (!covered(s, w, &p, i, &v[i]))
			continue;
		if (!sched.schedulable) {
			snprintf(v[i].why, sizeof(v[i].why),
				 "the set is not hard-schedulable (%s)",
				 sched.name);
			continue;
		}
		v[i].judged = 1;
		judged++;
		judge(s, i, &v[i]);
		if (v[i].verdict == IL_FAIL) {
			/* the latest failing task decides */
			if (!fails || lateness(&s->tasks[i]) >
					      lateness(&s->tasks[decider]))
				decider = i;
			fails++;
		} else if (v[i].verdict == IL_UNDECIDED) {
			unsure++;
		}
	}
	if (per_task)
		memcpy(per_task, v, s->ntasks * sizeof(v[0]));

	if (!sched.schedulable) {
		/* desc is "<name>: <numbers>"; say "<name> fails: <numbers>" */
		size_t nlen = strlen(sched.name);
		const char *nums = sched.desc;

		if (!strncmp(nums, sched.name, nlen) && nums[nlen] == ':')
			nums += nlen + 2;
		out->verdict = IL_UNDECIDED;
		addf(ev, len, &off, "%s: %s fails: %s",
		     w == ISOLATION ? "isolation not guaranteed"
				    : "the guarantee does not apply",
		     sched.name, nums);
		goto not_judged;
	}
	if (!judged) {
		out->verdict = IL_UNDECIDED;
		addf(ev, len, &off, "no task is covered by the guarantee; %s",
		     sched.desc);
		goto not_judged;
	}
	if (!fails) {
		/* the judged task with the least slack */
		for (size_t i = 0; i < s->ntasks; i++)
			if (v[i].judged &&
			    (decider == SIZE_MAX ||
			     slack(&s->tasks[i]) < slack(&s->tasks[decider])))
				decider = i;
	}
	out->bound_ns = s->tasks[decider].deadline_ns;
	out->worst_ns = s->tasks[decider].worst_response_ns;
	il_format_duration(d, sizeof(d), s->tasks[decider].deadline_ns);
	il_format_duration(r, sizeof(r), s->tasks[decider].worst_response_ns);

	if (fails) {
		out->verdict = IL_FAIL;
		addf(ev, len, &off, "%s: %s (worst response %s, D %s)",
		     tname(s, decider, n, sizeof(n)), v[decider].why, r, d);
		if (w == ISOLATION) {
			addf(ev, len, &off,
			     ", though it shares no lock with a misbehaving "
			     "task");
		} else {
			char q[24], c[24], ii[24];

			il_format_duration(q, sizeof(q),
					   s->tasks[decider].runtime_ns);
			il_format_duration(c, sizeof(c),
					   demand_c(&s->tasks[decider]));
			il_format_duration(ii, sizeof(ii), inter[decider]);
			addf(ev, len, &off, ", though Q %s >= C %s + I %s", q,
			     c, ii);
		}
		if (fails > 1)
			addf(ev, len, &off, "; %zu tasks failed", fails);
	} else if (unsure) {
		out->verdict = IL_UNDECIDED;
		addf(ev, len, &off, "no miss beyond noise, but");
		for (size_t i = 0, k = 0; i < s->ntasks; i++)
			if (v[i].judged && v[i].verdict == IL_UNDECIDED)
				addf(ev, len, &off, "%s %s: %s", k++ ? ";" : "",
				     tname(s, i, n, sizeof(n)), v[i].why);
	} else {
		size_t kept = 0;

		out->verdict = IL_PASS;
		addf(ev, len, &off, "judged");
		for (size_t i = 0, k = 0; i < s->ntasks; i++)
			if (v[i].judged) {
				addf(ev, len, &off, "%s %s", k++ ? "," : "",
				     tname(s, i, n, sizeof(n)));
				kept += v[i].by_trace != 0;
			}
		addf(ev, len, &off,
		     ": no miss%s; least slack %s (worst "
		     "response %s, D %s)",
		     kept ? " the kernel made" : "",
		     tname(s, decider, n, sizeof(n)), r, d);
		for (size_t i = 0; i < s->ntasks; i++)
			if (v[i].by_trace) /* set only on a judged task */
				addf(ev, len, &off, "; %s: %s",
				     tname(s, i, n, sizeof(n)), v[i].why);
		out->by_trace = kept > 0;
	}
	addf(ev, len, &off, "; %s", sched.desc);

not_judged:
	/* what was left out, misses first: those are what people ask about */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->ntasks; i++) {
			const struct il_mbwi_task *t = &s->tasks[i];

			if (v[i].judged || !t->runtime_ns ||
			    (pass == 0) != (t->misses > 0))
				continue;
			if (t->misses)
				addf(ev, len, &off,
				     "; not judged: %s, %llu misses (%s)",
				     tname(s, i, buf, sizeof(buf)),
				     (unsigned long long)t->misses, v[i].why);
			else
				addf(ev, len, &off, "; not judged: %s (%s)",
				     tname(s, i, buf, sizeof(buf)), v[i].why);
		}
	return 0;
}

int il_check_isolation(const struct il_mbwi_set *set, struct il_check *out,
		       struct il_mbwi_task_verdict *per_task)
{
	return il_check_none(out, check_misses(set, ISOLATION, out, per_task),
			     "isolation check");
}

int il_check_interference(const struct il_mbwi_set *set, struct il_check *out,
			  struct il_mbwi_task_verdict *per_task)
{
	return il_check_none(out,
			     check_misses(set, INTERFERENCE, out, per_task),
			     "interference check");
}

void il_mbwi_misses_from_hist(const struct il_hist *h, uint64_t deadline_ns,
			      uint64_t noise_ns, uint64_t *misses,
			      uint64_t *late, uint64_t *worst_response_ns)
{
	uint64_t lim = sat_add(deadline_ns, noise_ns), lo, count;
	uint64_t m = 0, x = 0;
	unsigned idx = 0;

	/* every value in a bucket is >= its lower edge */
	while (il_hist_next_bin(h, &idx, &lo, &count)) {
		if (lo > deadline_ns)
			m += count;
		if (lo > lim)
			x += count;
	}
	if (misses)
		*misses = m;
	if (late)
		*late = x;
	if (worst_response_ns)
		*worst_response_ns = h->count ? h->max : 0;
}
