// SPDX-License-Identifier: MIT
/*
 * An engine result's memory (engine.h): allocated empty, and freed with
 * everything it owns (the probe's and the trace's results, the steal
 * timeline, per-task and per-lock arrays, the region of a task with a
 * NUMA node).  Apart from engine.c so that
 * both the run and the live view's copy (engine-live.c) call down into
 * it, not into each other.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/engine.h>
#include <invlab/membind.h>
#include <invlab/probe.h>
#include <invlab/trace.h>

void il_engine_result_free(struct il_engine_result *res)
{
	il_probe_result_delete(res->probe);
	res->probe = NULL;
	if (res->trace) {
		il_trace_free(res->trace);
		free(res->trace);
		res->trace = NULL;
	}
	free(res->steal_t);
	free(res->steal_v);
	free(res->steal_cv);
	res->steal_t = res->steal_v = res->steal_cv = NULL;
	res->nsteal = res->steal_cap = 0;
	res->steal_ncpu = 0;
	free(res->round_t);
	free(res->round_end_t);
	res->round_t = res->round_end_t = NULL;
	res->nround_t = res->round_t_cap = 0;
	/* only what is set is written: see zero_result */
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		struct il_task_result *r = &res->tasks[i];
		/* a task with a node: what the engine made for it is part
		 * of its region (engine-setup.c), freed with it below */
		bool own = !r->mem;

		if (r->job_cpu_seq || r->job_start_seq || r->job_end_seq ||
		    r->job_rel_seq || r->njob_cpu || r->job_cpu_cap) {
			if (own) {
				free(r->job_cpu_seq);
				free(r->job_start_seq);
				free(r->job_end_seq);
				free(r->job_rel_seq);
			}
			free(r->job_foreign_seq);
			free(r->job_later_seq);
			free(r->job_throttled_seq);
			free(r->job_budget_seq);
			r->job_cpu_seq = r->job_start_seq = r->job_end_seq =
				NULL;
			r->job_rel_seq = r->job_foreign_seq = NULL;
			r->job_later_seq = r->job_throttled_seq = NULL;
			r->job_budget_seq = NULL;
			r->njob_cpu = r->job_cpu_cap = 0;
		}
		if (r->sect_from_seq || r->sect_to_seq || r->sect_cap) {
			if (own) {
				free(r->sect_from_seq);
				free(r->sect_to_seq);
			}
			r->sect_from_seq = r->sect_to_seq = NULL;
			r->nsect = r->sect_cap = 0;
		}
		memset(&r->deboost, 0, sizeof(r->deboost));
		memset(&r->affinity, 0, sizeof(r->affinity));
		for (int l = 0; l < r->nlocks; l++) {
			free(r->locks[l]->traced);
			if (own) {
				free(r->locks[l]->samples);
				free(r->locks[l]);
			}
			r->locks[l] = NULL;
		}
		if (r->nlocks)
			r->nlocks = 0;
		for (int k = 0; k < IL_MAX_RESOURCES; k++)
			if (r->hold[k]) {
				if (own)
					free(r->hold[k]);
				r->hold[k] = NULL;
			}
		if (r->mem) {
			il_membind_free(r->mem, r->mem_len);
			r->mem = NULL;
			r->mem_len = 0;
		}
	}
}

struct il_engine_result *il_engine_result_new(void)
{
	return calloc(1, sizeof(struct il_engine_result));
}

void il_engine_result_delete(struct il_engine_result *res)
{
	if (!res)
		return;
	il_engine_result_free(res);
	free(res);
}

uint64_t il_engine_hold_p50(const struct il_task_result *r, int res)
{
	uint64_t v;

	if (res < 0 || res >= IL_MAX_RESOURCES)
		return 0;
	if (r->hold[res] && !il_hist_percentile(r->hold[res], 0.5, &v))
		return v;
	return r->hold_p50[res];
}
