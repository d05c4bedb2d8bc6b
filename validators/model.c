// SPDX-License-Identifier: MIT
/*
 * What the models share (model.h): how a scenario's tasks rank, a task's
 * first lock and whether it nests, and how a model appends a check.
 * Apart from judge.c so that the models (model-pi.c, model-chain.c,
 * model-mbwi.c) and attrib.c call down into it, not back into the file
 * that calls them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/affinity.h>
#include <invlab/deboost.h>
#include <invlab/order.h>
#include <invlab/strbuf.h>

#include "model.h"

int il_model_rank(const struct il_sched *s)
{
	if (s->policy == IL_SCHED_DEADLINE)
		return 200;
	if (s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR)
		return 100 + s->prio;
	return 0;
}

int il_model_first_lock(const struct il_task *t)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK)
			return t->phases[p].res;
	return -1;
}

bool il_model_nests(const struct il_task *t)
{
	uint32_t held = 0;

	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind == IL_PH_LOCK) {
			if (held)
				return true;
			held |= 1u << ph->res;
		} else if (ph->kind == IL_PH_UNLOCK) {
			held &= ~(1u << ph->res);
		}
	}
	return false;
}

int il_model_push(struct il_judged *out, int max, int *n, const char *val,
		  const char *task, char *why, size_t len,
		  struct il_judged **slot)
{
	if (*n >= max) {
		snprintf(why, len, "%s %s: more checks than the %d room for",
			 val, task, max);
		return -ENOSPC;
	}
	*slot = &out[*n];
	memset(*slot, 0, sizeof(**slot));
	(*slot)->validator = val;
	snprintf((*slot)->task, sizeof((*slot)->task), "%s", task);
	return 0;
}

/* a per-task check of the trace's ledgers, as check "<name> <what>",
 * expected to PASS; a task with nothing to judge (NONE) gets none */
static int per_task(const struct il_scenario *sc,
		    const struct il_engine_result *er, const char *val,
		    const char *what, bool deboost, struct il_judged *out,
		    int max, int *n, char *why, size_t len)
{
	for (int i = 0; i < sc->ntasks && i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];
		const char *task = sc->tasks[i].name;
		char name[IL_NAME_MAX + 16];
		struct il_judged *c;
		struct il_check ck;
		int ret = deboost ? il_check_deboost(&r->deboost, task, &ck)
				  : il_check_affinity(&r->affinity, task, &ck);

		if (ret || ck.verdict == IL_NONE)
			continue;
		snprintf(name, sizeof(name), "%s %s", task, what);
		ret = il_model_push(out, max, n, val, name, why, len, &c);
		if (ret)
			return ret;
		c->c = ck;
		c->expected = IL_PASS;
		(*n)++;
	}
	return 0;
}

int il_model_deboost(const struct il_scenario *sc,
		     const struct il_engine_result *er, const char *val,
		     struct il_judged *out, int max, int *n, char *why,
		     size_t len)
{
	return per_task(sc, er, val, "deboost", true, out, max, n, why, len);
}

int il_judge_affinity(const struct il_scenario *sc,
		      const struct il_engine_result *er, const char *val,
		      struct il_judged *out, int max, int *n, char *why,
		      size_t len)
{
	return per_task(sc, er, val, "affinity", false, out, max, n, why, len);
}

int il_model_order(const struct il_engine_result *er, const char *waiter,
		   const struct il_wait_sample *s, size_t n,
		   const char *bound_name, uint64_t bound_ns,
		   uint64_t typical_ns, uint64_t noise_ns,
		   uint64_t tolerance_ns, uint64_t rare_ns,
		   struct il_check *out, char *why_not, size_t len,
		   int *trace_rare)
{
	struct il_order_input in = {
		.waiter = waiter,
		.bound_name = bound_name,
		.bound_ns = bound_ns,
		.typical_ns = typical_ns,
		.noise_ns = noise_ns,
		.tolerance_ns = tolerance_ns,
		.rare_ns = rare_ns,
		.min_samples = IL_JUDGE_MIN_TRACE_SAMPLES,
	};
	uint64_t *steal = n ? calloc(n, sizeof(*steal)) : NULL;
	int ret;

	if (n && !steal)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (s[i].t_ns)
			steal[i] = il_steal_between(er, s[i].t_ns,
						    s[i].t_ns + s[i].delay_ns);
	in.steal_ns = steal;
	ret = il_check_order(&in, s, n, out);
	free(steal);
	*trace_rare = ret ? 0 : out->trace_rare;
	if (!ret && out->verdict == IL_NONE)
		il_setf(why_not, len, "%s", out->evidence);
	return ret;
}
