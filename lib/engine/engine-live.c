// SPDX-License-Identifier: MIT
/*
 * The live view's copy of a result (il_engine_opts.progress): taken in
 * the caller's thread while the tasks go on recording, word by word with
 * atomic loads, as the tasks store every word the copy reads with atomic
 * stores (il_hist_record, run_job).  A word is never torn; the words
 * need not agree with each other (a count may be one job ahead of its
 * histogram), which a display once a second does not mind.
 *
 * The copy is allocated at the first call, outside the measured path, and
 * shares the arrays that only grow (wait samples, job sequences, steal
 * timeline): their counts are published with release ordering.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/engine.h>
#include <invlab/hist.h>

#include "engine-private.h"

_Static_assert(sizeof(struct il_hist) % sizeof(uint64_t) == 0,
	       "a histogram is copied as 64-bit words");

#define LOAD(p) __atomic_load_n(p, __ATOMIC_RELAXED)

static void copy_hist(struct il_hist *d, const struct il_hist *s)
{
	const uint64_t *from = (const uint64_t *)s;
	uint64_t *to = (uint64_t *)d;

	for (size_t i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
		to[i] = LOAD(&from[i]);
}

static int alloc_copy(struct engine *e, const struct il_engine_result *res)
{
	struct il_engine_result *c = il_engine_result_new();

	if (!c)
		return -ENOMEM;
	e->live = c;
	for (int i = 0; i < res->ntasks; i++) {
		const struct il_task_result *r = &res->tasks[i];
		struct il_task_result *d = &c->tasks[i];

		for (int l = 0; l < r->nlocks; l++) {
			d->locks[l] = calloc(1, sizeof(*d->locks[l]));
			if (!d->locks[l])
				return -ENOMEM;
			d->nlocks = l + 1;
		}
		for (int k = 0; k < IL_MAX_RESOURCES; k++)
			if (r->hold[k]) {
				d->hold[k] = malloc(sizeof(*d->hold[k]));
				if (!d->hold[k])
					return -ENOMEM;
			}
	}
	return 0;
}

/* the copy's view of what it shares with res, taken off before a free */
static void drop_shared(struct il_engine_result *c)
{
	c->steal_t = c->steal_v = c->steal_cv = NULL;
	c->nsteal = c->steal_cap = 0;
	c->steal_ncpu = 0;
	for (int i = 0; i < c->ntasks; i++) {
		struct il_task_result *d = &c->tasks[i];

		d->job_cpu_seq = d->job_start_seq = d->job_end_seq = NULL;
		d->job_rel_seq = NULL;
		d->njob_cpu = d->job_cpu_cap = 0;
		for (int l = 0; l < d->nlocks; l++)
			d->locks[l]->samples = NULL;
	}
}

/*
 * A copy of res as it is now, or NULL when there is no memory for one
 * (the live view then skips a frame).  Only the caller's thread writes
 * the fields of res outside the tasks (rounds, steal, placement), so
 * those are read plainly.
 */
const struct il_engine_result *
__il_live_copy(struct engine *e, const struct il_engine_result *res)
{
	struct il_engine_result *c;

	if (!e->live && alloc_copy(e, res)) {
		__il_live_free(e);
		return NULL;
	}
	c = e->live;
	drop_shared(c);
	c->ntasks = res->ntasks;
	c->rounds = res->rounds;
	c->steal_ns = res->steal_ns;
	c->t_start_ns = res->t_start_ns;
	c->steal_t = res->steal_t;
	c->steal_v = res->steal_v;
	c->steal_cv = res->steal_cv;
	c->steal_ncpu = res->steal_ncpu;
	memcpy(c->steal_cpu, res->steal_cpu, sizeof(c->steal_cpu));
	c->nsteal = res->nsteal;
	c->steal_cap = res->steal_cap;
	c->elapsed_ns = res->elapsed_ns;
	c->hung = res->hung;
	c->stopped = res->stopped;
	memcpy(c->hung_why, res->hung_why, sizeof(c->hung_why));
	memcpy(c->placement, res->placement, sizeof(c->placement));
	memcpy(c->numa, res->numa, sizeof(c->numa));
	memcpy(c->lock_placement, res->lock_placement,
	       sizeof(c->lock_placement));
	memcpy(c->kmutex_cost_ns, res->kmutex_cost_ns,
	       sizeof(c->kmutex_cost_ns));
	memcpy(c->kmutex_cost_p90_ns, res->kmutex_cost_p90_ns,
	       sizeof(c->kmutex_cost_p90_ns));
	memcpy(c->kmutex_cost_mean_ns, res->kmutex_cost_mean_ns,
	       sizeof(c->kmutex_cost_mean_ns));
	memcpy(c->kmutex_where, res->kmutex_where, sizeof(c->kmutex_where));
	memcpy(c->cgroups, res->cgroups, sizeof(c->cgroups));
	memcpy(c->partitions, res->partitions, sizeof(c->partitions));
	for (int i = 0; i < res->ntasks; i++) {
		const struct il_task_result *r = &res->tasks[i];
		struct il_task_result *d = &c->tasks[i];

		memcpy(d->name, r->name, sizeof(d->name));
		memcpy(d->placement, r->placement, sizeof(d->placement));
		d->cpu = r->cpu;
		d->partitioned = r->partitioned;
		d->jobs = LOAD(&r->jobs);
		d->misses = LOAD(&r->misses);
		copy_hist(&d->wakeup, &r->wakeup);
		copy_hist(&d->response, &r->response);
		copy_hist(&d->job_cpu, &r->job_cpu);
		d->job_cpu_seq = r->job_cpu_seq;
		d->job_start_seq = r->job_start_seq;
		d->job_end_seq = r->job_end_seq;
		d->job_rel_seq = r->job_rel_seq;
		d->njob_cpu = __atomic_load_n(&r->njob_cpu, __ATOMIC_ACQUIRE);
		d->job_cpu_cap = r->job_cpu_cap;
		copy_hist(&d->budget, &r->budget);
		copy_hist(&d->budget_lent, &r->budget_lent);
		d->budget_unknown = LOAD(&r->budget_unknown);
		for (int k = 0; k < IL_MAX_RESOURCES; k++) {
			if (r->hold[k])
				copy_hist(d->hold[k], r->hold[k]);
			d->hold_max[k] = LOAD(&r->hold_max[k]);
		}
		copy_hist(&d->boost, &r->boost);
		for (int l = 0; l < r->nlocks; l++) {
			const struct il_lock_result *s = r->locks[l];
			struct il_lock_result *lr = d->locks[l];

			lr->res = s->res;
			copy_hist(&lr->blocked, &s->blocked);
			copy_hist(&lr->delay, &s->delay);
			lr->samples = s->samples;
			lr->nsamples =
				__atomic_load_n(&s->nsamples, __ATOMIC_ACQUIRE);
			lr->cap = s->cap;
			lr->late = LOAD(&s->late);
			lr->exact_foreign = s->exact_foreign;
		}
	}
	return c;
}

void __il_live_free(struct engine *e)
{
	if (!e->live)
		return;
	drop_shared(e->live);
	il_engine_result_delete(e->live);
	e->live = NULL;
}
