// SPDX-License-Identifier: MIT
/*
 * The `chain` model: the highest-ranked task that takes a lock is the
 * head; each lock's owner is its one other, lower-ranked user; an owner
 * that requests another lock while holding one extends the chain.  Every
 * other task pinned to one CPU may interfere with the owners (spinning
 * and running phases taken as hogs that never yield).  The noise is one
 * wakeup for the head and one per lock handed across CPUs, plus a tick
 * per owner boosted on another CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/chain.h>
#include <invlab/attrib.h>
#include <invlab/judge.h>
#include <invlab/noise.h>

#include "model.h"

int il_model_chain_head(const struct il_scenario *sc)
{
	int head = -1;

	for (int i = 0; i < sc->ntasks; i++)
		if (il_model_first_lock(&sc->tasks[i]) >= 0 &&
		    (head < 0 || il_model_rank(&sc->tasks[i].sched) >
					 il_model_rank(&sc->tasks[head].sched)))
			head = i;
	return head;
}

/* the one task below the head outside the chain that locks res: >= 0,
 * -1 none, -2 more than one */
static int owner_of(const struct il_scenario *sc, int head, uint32_t in_chain,
		    int res)
{
	int owner = -1, top = il_model_rank(&sc->tasks[head].sched);

	for (int j = 0; j < sc->ntasks; j++) {
		if ((in_chain & (1u << j)) ||
		    il_model_rank(&sc->tasks[j].sched) >= top)
			continue;
		for (int p = 0; p < sc->tasks[j].nphases; p++)
			if (sc->tasks[j].phases[p].kind == IL_PH_LOCK &&
			    sc->tasks[j].phases[p].res == res) {
				owner = owner == -1 ? j : -2;
				break;
			}
	}
	return owner;
}

/* what an owner requests while holding res, or -1 */
static int next_lock(const struct il_task *t, int res)
{
	bool holds = false;

	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind == IL_PH_LOCK && ph->res == res)
			holds = true;
		else if (ph->kind == IL_PH_UNLOCK && ph->res == res)
			holds = false;
		else if (holds && ph->kind == IL_PH_LOCK)
			return ph->res;
	}
	return -1;
}

int il_model_chain(const struct il_scenario *sc,
		   const struct il_engine_result *er,
		   const struct il_judge_env *env, struct il_judged *out,
		   int max, int *n, char *why, size_t len)
{
	struct il_chain_link links[IL_MAX_TASKS];
	uint64_t typ[IL_MAX_TASKS]; /* each link's median section */
	struct il_interferer other[IL_MAX_TASKS];
	struct il_chain_input in = { 0 };
	const struct il_lock_result *lr;
	const struct il_hist *calib;
	uint32_t in_chain;
	int head, nlinks = 0, nother = 0, res, hops = 0, prev, ret;
	uint64_t eps;
	struct il_judged *c;

	head = il_model_chain_head(sc);
	ret = il_model_push(out, max, n, "chain",
			    head < 0 ? "-" : sc->tasks[head].name, why, len,
			    &c);
	if (ret)
		return ret;
	if (head < 0) {
		c->c.verdict = IL_UNDECIDED;
		snprintf(c->c.evidence, sizeof(c->c.evidence),
			 "bound does not apply: no task takes a lock");
		(*n)++;
		return 0;
	}
	in_chain = 1u << head;
	prev = head;
	res = il_model_first_lock(&sc->tasks[head]);
	while (res >= 0 && nlinks < IL_MAX_TASKS) {
		int owner = owner_of(sc, head, in_chain, res);

		if (owner < 0) {
			c->c.verdict = IL_UNDECIDED;
			snprintf(c->c.evidence, sizeof(c->c.evidence),
				 "bound does not apply: resource '%s' has %s "
				 "owner below the head",
				 sc->res[res].name,
				 owner == -1 ? "no" : "more than one");
			(*n)++;
			return 0;
		}
		in_chain |= 1u << owner;
		links[nlinks].own_ns = er->tasks[owner].hold_max[res];
		typ[nlinks] = il_engine_hold_p50(&er->tasks[owner], res);
		links[nlinks].cpu =
			er->tasks[owner].cpu >= 0 ? er->tasks[owner].cpu : 0;
		if (er->tasks[owner].cpu < 0 ||
		    er->tasks[owner].cpu != er->tasks[prev].cpu)
			hops++;
		nlinks++;
		prev = owner;
		res = next_lock(&sc->tasks[owner], res);
	}
	for (int j = 0; j < sc->ntasks; j++) {
		const struct il_task *t = &sc->tasks[j];
		uint64_t work = 0;

		if ((in_chain & (1u << j)) || er->tasks[j].cpu < 0)
			continue;
		for (int p = 0; p < t->nphases; p++)
			if (t->phases[p].kind == IL_PH_RUN ||
			    t->phases[p].kind == IL_PH_SPIN)
				work += t->phases[p].ns;
		other[nother].cpu = er->tasks[j].cpu;
		other[nother].prio = il_model_rank(&t->sched) - 100;
		other[nother].wcet_ns = work;
		other[nother].period_ns = 0;
		nother++;
	}
	calib = env->calib[head];
	lr = er->tasks[head].nlocks ? er->tasks[head].locks[0] : NULL;
	if (!calib || !lr) {
		snprintf(why, len, "chain %s: %s", sc->tasks[head].name,
			 !calib ? "no calibration of its wakeup latency"
				: "no lock result");
		return -EINVAL;
	}
	eps = il_noise_ns(calib);
	in.links = links;
	in.nlinks = (size_t)nlinks;
	in.head_prio = il_model_rank(&sc->tasks[head].sched) - 100;
	in.interferers = other;
	in.ninterferers = (size_t)nother;
	in.horizon_ns = sc->g.timeout_ns;
	in.noise_ns =
		(uint64_t)(hops + 1) * eps + (uint64_t)hops * env->tick_ns;
	in.min_samples = IL_JUDGE_MIN_SAMPLES;
	in.outlier_ns = il_noise_outlier_ns(calib, UINT64_MAX);
	in.steal_ns = er->steal_ns;
	{
		/* on the trace's account when there is one */
		struct il_wait_sample *tmp;
		struct il_attr_summary as;
		const struct il_wait_sample *smp =
			il_attr_judged(sc, er, head, &tmp, &as);

		char why_not[512] = "";
		int rare = 0;
		struct il_chain_bound cb, cb50;
		struct il_chain_link links50[IL_MAX_TASKS];
		struct il_chain_input in50 = in;
		uint64_t typical = 0;

		/* the same bound over the median sections: the order
		 * check's yardstick (order.h typical_ns) */
		for (int k = 0; k < nlinks; k++) {
			links50[k] = links[k];
			links50[k].own_ns = typ[k];
		}
		in50.links = links50;
		if (!il_chain_bound(&in50, &cb50))
			typical = cb50.bound_ns;

		/* the order of events first: one wakeup latency per CPU the
		 * request reaches, no tick (the trace shows when the remote
		 * CPU rescheduled); durations where the trace cannot decide */
		ret = 0;
		if (!il_chain_bound(&in, &cb))
			ret = il_model_order(
				er, sc->tasks[head].name, smp, lr->nsamples,
				cb.name, cb.bound_ns, typical, in.noise_ns,
				(uint64_t)(hops + 1) * in.outlier_ns,
				(uint64_t)(hops + 1) * il_noise_rare_ns(calib),
				&c->c, why_not, sizeof(why_not), &rare);
		if (!ret && c->c.verdict == IL_NONE) {
			ret = il_check_chain(&in, smp, lr->nsamples, &c->c);
			if (!ret)
				il_order_durations(&c->c, rare, why_not);
		}
		free(tmp);
		if (!ret)
			il_order_set_aside(&c->c, lr->late, lr->nsamples,
					   "a late owner");
		if (!ret)
			il_attr_append(c->c.evidence, sizeof(c->c.evidence),
				       &as, er->trace_note,
				       sc->tasks[head].name,
				       il_attr_kprio(&sc->tasks[head].sched));
	}
	if (ret) {
		snprintf(why, len, "chain %s: the check could not run: %s",
			 sc->tasks[head].name, strerror(-ret));
		return ret;
	}
	(*n)++;
	ret = il_model_deboost(sc, er, "chain", out, max, n, why, len);
	return ret ? ret
		   : il_judge_affinity(sc, er, "chain", out, max, n, why, len);
}

bool il_judge_chain_fair_head(const struct il_scenario *sc, const char *head,
			      struct il_judged *c)
{
	int h = sc ? il_scenario_task(sc, head) : -1;
	const struct il_task *t;
	bool inherit = false;

	if (h < 0 || !c)
		return false;
	t = &sc->tasks[h];
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK)
			inherit |= sc->res[t->phases[p].res].k.protocol ==
				   IL_PROTO_INHERIT;
	if (!inherit || (t->sched.policy != IL_SCHED_OTHER &&
			 t->sched.policy != IL_SCHED_BATCH &&
			 t->sched.policy != IL_SCHED_IDLE))
		return false;
	c->c.verdict = c->expected = IL_UNDECIDED;
	snprintf(c->c.evidence, sizeof(c->c.evidence),
		 "bound does not apply: a fair-class head cannot boost its "
		 "owners above real-time work");
	return true;
}
