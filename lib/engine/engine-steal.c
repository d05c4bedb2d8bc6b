// SPDX-License-Identifier: MIT
/*
 * Steal time on the scenario's CPUs: read from /proc/stat as the run
 * goes on, given to the wait samples of each round, and kept as a
 * timeline for runs without rounds (il_steal_between).
 */
#include <stddef.h>
#include <stdint.h>

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/sysinfo.h>

#include "engine-private.h"

uint64_t __il_steal_now(struct engine *e)
{
	uint64_t total = 0, v;

	if (e->all_cpus) {
		il_steal_ns(-1, &total);
		return total;
	}
	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask_test(e->cpus_used, c) && il_steal_ns(c, &v) == 0)
			total += v;
	return total;
}

/* one point of the steal timeline; the last slot keeps the latest */
void __il_steal_sample(struct il_engine_result *res, uint64_t t, uint64_t steal)
{
	size_t i;

	if (!res->steal_cap)
		return;
	i = res->nsteal < res->steal_cap ? res->nsteal++ : res->steal_cap - 1;
	res->steal_t[i] = t;
	res->steal_v[i] = steal;
}

/* give the samples of the round that just ended their steal time */
void __il_settle_foreign(struct engine *e, struct il_engine_result *res,
			 uint64_t steal)
{
	for (int i = 0; i < res->ntasks; i++) {
		struct il_task_result *r = &res->tasks[i];

		for (int l = 0; l < r->nlocks; l++) {
			struct il_lock_result *lr = r->locks[l];

			for (size_t s = e->t[i].pending_from[l];
			     s < lr->nsamples; s++)
				if (lr->samples[s].foreign_ns ==
				    FOREIGN_PENDING)
					lr->samples[s].foreign_ns =
						steal < lr->samples[s].delay_ns
							? steal
							: lr->samples[s]
								  .delay_ns;
			e->t[i].pending_from[l] = lr->nsamples;
		}
	}
}

uint64_t il_steal_between(const struct il_engine_result *res, uint64_t from,
			  uint64_t to)
{
	size_t i = 0, j;

	if (res->nsteal < 2)
		return 0;
	/* the points are in time order: bisect for both ends */
	{
		size_t lo = 0, hi = res->nsteal;

		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (res->steal_t[mid] <= from)
				lo = mid;
			else
				hi = mid;
		}
		i = lo;
	}
	for (j = i; j + 1 < res->nsteal && res->steal_t[j] < to; j++)
		;
	return sub0(res->steal_v[j], res->steal_v[i]);
}
