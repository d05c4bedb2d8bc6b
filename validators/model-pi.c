// SPDX-License-Identifier: MIT
/*
 * The `pi` model: every real-time task that takes locks is judged
 * against the one-CPU priority-inheritance bound over the critical
 * sections of the lower-ranked tasks that use its locks (the immediate
 * ceiling bound when all its locks are `protect`).  L is each lower
 * task's longest measured section (hold_max) on each lock; a task no
 * lower task shares a lock with has nothing to bound and no check.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/attrib.h>
#include <invlab/judge.h>
#include <invlab/noise.h>
#include <invlab/validate.h>

#include "model.h"

/* the distinct locks a task requests, in body order; their count */
static int locks_of(const struct il_task *t, int *locks)
{
	int nl = 0;

	for (int p = 0; p < t->nphases; p++) {
		int res = t->phases[p].res, seen = 0;

		if (t->phases[p].kind != IL_PH_LOCK)
			continue;
		for (int k = 0; k < nl; k++)
			seen |= locks[k] == res;
		if (!seen)
			locks[nl++] = res;
	}
	return nl;
}

/*
 * L[lower][k]: the longest section (median: the median one) of each
 * lower-ranked task that holds one of task i's locks; returns how many
 * lower tasks there are.  A task counts when it held one (its longest
 * section is not 0), so both tables have the same rows.
 */
static int lower_sections(const struct il_scenario *sc,
			  const struct il_engine_result *er, int i,
			  const int *locks, int nl, uint64_t *L, bool median)
{
	int lower = 0, me = il_model_rank(&sc->tasks[i].sched);

	for (int j = 0; j < sc->ntasks; j++) {
		uint64_t any = 0;

		if (j == i || il_model_rank(&sc->tasks[j].sched) >= me)
			continue;
		for (int k = 0; k < nl; k++) {
			L[lower * nl + k] =
				median ? il_engine_hold_p50(&er->tasks[j],
							    locks[k])
				       : er->tasks[j].hold_max[locks[k]];
			any |= er->tasks[j].hold_max[locks[k]];
		}
		if (any)
			lower++;
	}
	return lower;
}

/* a real-time task with lock results and a lower task to bound */
static bool judged(const struct il_scenario *sc,
		   const struct il_engine_result *er, int i)
{
	uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES] = { 0 };
	int locks[IL_MAX_RESOURCES], nl;

	if (!er->tasks[i].nlocks || !il_model_rank(&sc->tasks[i].sched))
		return false;
	nl = locks_of(&sc->tasks[i], locks);
	return nl && lower_sections(sc, er, i, locks, nl, L, false) > 0;
}

void il_model_pi_needs(const struct il_scenario *sc,
		       const struct il_engine_result *er, bool *need)
{
	for (int i = 0; i < sc->ntasks; i++)
		if (judged(sc, er, i))
			need[i] = true;
}

int il_model_pi(const struct il_scenario *sc, const struct il_engine_result *er,
		const struct il_judge_env *env, struct il_judged *out, int max,
		int *n, char *why, size_t len)
{
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		const struct il_task_result *r = &er->tasks[i];
		uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES] = { 0 };
		uint64_t L50[IL_MAX_TASKS * IL_MAX_RESOURCES] = { 0 };
		uint64_t typical;
		int ceil[IL_MAX_RESOURCES] = { 0 }, locks[IL_MAX_RESOURCES];
		const struct il_hist *calib = env->calib[i];
		struct il_bound_input in = { 0 };
		struct il_judged *c;
		bool all_protect = true;
		int nl, lower, ret;

		if (!judged(sc, er, i))
			continue;
		nl = locks_of(t, locks);
		lower = lower_sections(sc, er, i, locks, nl, L, false);
		if (!calib) {
			snprintf(why, len,
				 "pi %s: no calibration of its wakeup latency",
				 t->name);
			return -EINVAL;
		}
		if (!r->locks[0]) {
			snprintf(why, len, "pi %s: no lock result", t->name);
			return -EINVAL;
		}
		for (int k = 0; k < nl; k++) {
			const struct il_resource *rs = &sc->res[locks[k]];

			all_protect &= rs->k.protocol == IL_PROTO_PROTECT;
			ceil[k] = rs->k.ceiling ? (int)rs->k.ceiling : 99;
		}
		/* the same bound over the median sections: the order
		 * check's yardstick (order.h typical_ns) */
		lower_sections(sc, er, i, locks, nl, L50, true);
		if (all_protect) {
			in.bound_name = "immediate priority ceiling (one CPU)";
			in.bound_ns =
				il_ceiling_bound(L, ceil, t->sched.prio,
						 (size_t)lower, (size_t)nl);
			typical = il_ceiling_bound(L50, ceil, t->sched.prio,
						   (size_t)lower, (size_t)nl);
		} else {
			in.bound_name = "priority inheritance (one CPU)";
			in.bound_ns = il_pi_bound(L, (size_t)lower, (size_t)nl);
			typical = il_pi_bound(L50, (size_t)lower, (size_t)nl);
		}
		in.noise_ns = il_noise_ns(calib);
		in.min_samples = IL_JUDGE_MIN_SAMPLES;
		in.outlier_ns = il_noise_outlier_ns(calib, in.bound_ns);
		in.steal_ns = er->steal_ns;
		ret = il_model_push(out, max, n, "pi", t->name, why, len, &c);
		if (ret)
			return ret;
		{
			/* on the trace's account when there is one */
			struct il_wait_sample *tmp;
			struct il_attr_summary as;
			const struct il_wait_sample *smp =
				il_attr_judged(sc, er, i, &tmp, &as);

			size_t ns = r->locks[0]->nsamples;
			char why_not[512] = "";
			int rare = 0;

			/* the order of events first; durations where the
			 * trace cannot decide */
			ret = il_model_order(
				er, t->name, smp, ns, in.bound_name,
				in.bound_ns, typical, in.noise_ns,
				il_noise_outlier_ns(calib, UINT64_MAX),
				il_noise_rare_ns(calib), &c->c, why_not,
				sizeof(why_not), &rare);
			if (!ret && c->c.verdict == IL_NONE) {
				ret = il_check_blocking(&in, smp, ns, &c->c);
				if (!ret)
					il_order_durations(&c->c, rare,
							   why_not);
			}
			free(tmp);
			if (!ret)
				il_order_set_aside(&c->c, r->locks[0]->late, ns,
						   "a late holder");
			if (!ret)
				il_attr_append(c->c.evidence,
					       sizeof(c->c.evidence), &as,
					       er->trace_note, t->name,
					       il_attr_kprio(&t->sched));
		}
		if (ret) {
			snprintf(why, len, "pi %s: the check could not run: %s",
				 t->name, strerror(-ret));
			return ret;
		}
		(*n)++;
	}
	{
		int ret = il_model_deboost(sc, er, "pi", out, max, n, why, len);

		return ret ? ret
			   : il_judge_affinity(sc, er, "pi", out, max, n, why,
					       len);
	}
}

enum il_verdict il_judge_pi_so_far(const struct il_wait_sample *s, size_t n,
				   uint64_t bound_ns)
{
	struct il_bound_input in = { .bound_ns = bound_ns,
				     .min_samples = IL_JUDGE_MIN_SAMPLES,
				     .bound_name = "bound" };
	struct il_check c;

	if (il_check_blocking(&in, s, n, &c))
		return IL_NONE;
	return c.verdict;
}
