// SPDX-License-Identifier: MIT
/*
 * Steal time on the scenario's CPUs: read from /proc/stat as the run
 * goes on, given to the wait samples of each round, and kept as a
 * timeline for runs without rounds (il_steal_between).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/sysinfo.h>

#include "engine-private.h"

uint64_t __il_steal_now(struct engine *e)
{
	return __il_steal_read(e, NULL, NULL);
}

/*
 * The steal on the scenario's CPUs now, and in per[c] (when per is not
 * NULL) that of res->steal_cpu[c] alone: a CPU it cannot read counts 0
 * in the sum, as before, and keeps its last value in per
 */
uint64_t __il_steal_read(struct engine *e, const struct il_engine_result *res,
			 uint64_t *per)
{
	uint64_t total = 0, v;
	int k = 0;

	if (e->all_cpus) {
		il_steal_ns(-1, &total);
		return total;
	}
	for (int c = 0; c < IL_MAX_CPUS; c++) {
		if (!mask_test(e->cpus_used, c) || il_steal_ns(c, &v))
			continue;
		total += v;
		while (per && res && k < res->steal_ncpu &&
		       res->steal_cpu[k] < c)
			k++;
		if (per && res && k < res->steal_ncpu && res->steal_cpu[k] == c)
			per[k] = v;
	}
	return total;
}

/* which CPUs keep a timeline of their own: the scenario's, up to
 * IL_STEAL_CPUS of them, in ascending order */
void __il_steal_cpus(struct engine *e, struct il_engine_result *res)
{
	int n = 0;

	res->steal_ncpu = 0;
	if (e->all_cpus)
		return;
	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask_test(e->cpus_used, c)) {
			if (n == IL_STEAL_CPUS)
				return;
			res->steal_cpu[n++] = c;
		}
	res->steal_ncpu = n;
}

/* one point of the steal timeline, per[] that of each CPU (NULL: none);
 * the last slot keeps the latest */
void __il_steal_sample(struct il_engine_result *res, uint64_t t, uint64_t steal,
		       const uint64_t *per)
{
	size_t i;

	if (!res->steal_cap)
		return;
	i = res->nsteal < res->steal_cap ? res->nsteal++ : res->steal_cap - 1;
	res->steal_t[i] = t;
	res->steal_v[i] = steal;
	for (int c = 0; res->steal_cv && c < res->steal_ncpu; c++)
		res->steal_cv[i * (size_t)res->steal_ncpu + c] =
			per ? per[c] : 0;
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

/* the timeline's points around [from, to]: *i the last at or before
 * from, *j the first at or after to (or the last); false without two */
static bool around(const struct il_engine_result *res, uint64_t from,
		   uint64_t to, size_t *pi, size_t *pj)
{
	size_t i = 0, j;

	if (res->nsteal < 2)
		return false;
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
	*pi = i;
	*pj = j;
	return true;
}

uint64_t il_steal_between(const struct il_engine_result *res, uint64_t from,
			  uint64_t to)
{
	size_t i, j;

	if (!around(res, from, to, &i, &j))
		return 0;
	return sub0(res->steal_v[j], res->steal_v[i]);
}

/* the column of cpu in the timeline CPU by CPU, or -1 */
static int column(const struct il_engine_result *res, int cpu)
{
	for (int c = 0; res->steal_cv && c < res->steal_ncpu; c++)
		if (res->steal_cpu[c] == cpu)
			return c;
	return -1;
}

uint64_t il_steal_between_on(const struct il_engine_result *res,
			     const int *cpus, int n, uint64_t from, uint64_t to)
{
	size_t i, j, w = (size_t)res->steal_ncpu;
	uint64_t sum = 0;

	for (int k = 0; k < n; k++)
		if (column(res, cpus[k]) < 0)
			return il_steal_between(res, from, to);
	if (!n || !around(res, from, to, &i, &j))
		return 0;
	for (int k = 0; k < n; k++) {
		int c = column(res, cpus[k]);
		bool twice = false;

		/* a CPU named twice counts once */
		for (int m = 0; m < k; m++)
			twice |= cpus[m] == cpus[k];
		if (!twice)
			sum += sub0(res->steal_cv[j * w + (size_t)c],
				    res->steal_cv[i * w + (size_t)c]);
	}
	return sum;
}
