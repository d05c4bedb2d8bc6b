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
#include <string.h>

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
