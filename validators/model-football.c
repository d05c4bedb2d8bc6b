// SPDX-License-Identifier: MIT
/*
 * The `football` model: the scenario's real-time tasks, ranked by
 * class, their threads in the trace, and the run's calibration turned
 * into the inputs of the top-N-run check (football.h).  N is the CPUs
 * the real-time tasks may use; the tolerance is one p999 of the top task's
 * wakeup-to-run latency, calibrated after the run (docs/theory.md "The top N
 * run"); the shortest inversion the scenario shows is one job of its top task.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/football.h>
#include <invlab/hist.h>
#include <invlab/noise.h>

#include "model.h"

int il_model_football_top(const struct il_scenario *sc)
{
	int top = -1;

	for (int i = 0; i < sc->ntasks; i++) {
		int r = il_model_rank(&sc->tasks[i].sched);

		if (r >= 100 && r < 200 &&
		    (top < 0 || r > il_model_rank(&sc->tasks[top].sched)))
			top = i;
	}
	return top;
}

/* the busy time of one job: its run and spin phases */
static uint64_t job_ns(const struct il_task *t)
{
	uint64_t ns = 0;

	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_RUN ||
		    t->phases[p].kind == IL_PH_SPIN)
			ns += t->phases[p].ns;
	return ns;
}

/*
 * N: the CPUs the real-time tasks may use, the union of their CPU lists,
 * or every CPU online when one of them may run anywhere (or on a node,
 * or spread: wherever the engine puts it, among the CPUs online)
 */
static int cpus_used(const struct il_scenario *sc, int online)
{
	unsigned long all[IL_MAX_CPUS / (8 * sizeof(unsigned long))] = { 0 };
	int n = 0;

	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		int r = il_model_rank(&t->sched);

		if (r < 100 || r >= 200)
			continue;
		if (t->place != IL_PLACE_CPUS)
			return online;
		for (size_t w = 0; w < sizeof(all) / sizeof(all[0]); w++)
			all[w] |= t->cpus[w];
	}
	for (size_t w = 0; w < sizeof(all) / sizeof(all[0]); w++)
		n += __builtin_popcountl(all[w]);
	return n < online ? n : online;
}

int il_model_football(const struct il_scenario *sc,
		      const struct il_engine_result *er,
		      const struct il_judge_env *env, struct il_judged *out,
		      int max, int *n, char *why, size_t len)
{
	struct il_football_task tasks[IL_MAX_TASKS];
	int top = il_model_football_top(sc), ret;
	struct il_football_input in = { 0 };
	struct il_trace_stalls stalls = { 0 };
	char name[IL_NAME_MAX];
	struct il_judged *c;

	if (top < 0) {
		snprintf(why, len, "football: no real-time task to judge");
		return -EINVAL;
	}
	if (!env->calib[top] || env->ncpus <= 0) {
		snprintf(why, len,
			 "football: no calibration of %s's wakeup latency",
			 sc->tasks[top].name);
		return -EINVAL;
	}
	for (int i = 0; i < sc->ntasks; i++) {
		int r = il_model_rank(&sc->tasks[i].sched);

		if (r < 100 || r >= 200)
			continue; /* real-time tasks only */
		tasks[in.ntasks].name = sc->tasks[i].name;
		tasks[in.ntasks].tid = er->tasks[i].tid;
		tasks[in.ntasks].rank = r;
		tasks[in.ntasks].movable = sc->tasks[i].place == IL_PLACE_ANY;
		in.ntasks++;
	}
	in.tasks = tasks;
	in.trace = er->trace;
	in.no_trace = er->trace_note[0] ? er->trace_note : NULL;
	in.ncpus = cpus_used(sc, env->ncpus);
	in.tolerance_ns = il_noise_outlier_ns(env->calib[top], UINT64_MAX);
	in.detect_ns = job_ns(&sc->tasks[top]);
	in.min_wakeups = IL_JUDGE_MIN_SAMPLES;
	in.steal_t = er->steal_t;
	in.steal_v = er->steal_v;
	in.nsteal = er->nsteal;
	if (er->trace && !er->trace->lost) {
		/* the real-time releases: timers that show where a CPU
		 * stalled */
		struct il_trace_sleeper sl[IL_MAX_TASKS];
		size_t ns = 0;

		for (int i = 0; i < sc->ntasks && i < er->ntasks; i++) {
			int r = il_model_rank(&sc->tasks[i].sched);

			if (r < 100 || !er->tasks[i].job_rel_seq)
				continue;
			sl[ns].tid = er->tasks[i].tid;
			sl[ns].rel = er->tasks[i].job_rel_seq;
			sl[ns].nrel = er->tasks[i].njob_cpu;
			ns++;
		}
		ret = il_trace_stalls(er->trace, sl, ns, &stalls);
		if (!ret && env->run_witness)
			ret = il_trace_stalls_runtime(er->trace, &stalls);
		if (ret) {
			il_trace_stalls_free(&stalls);
			snprintf(why, len, "football: %s", strerror(-ret));
			return ret;
		}
		in.stalls = &stalls;
	}
	snprintf(name, sizeof(name), "top %d", in.ncpus);
	ret = il_model_push(out, max, n, "football", name, why, len, &c);
	if (ret) {
		il_trace_stalls_free(&stalls);
		return ret;
	}
	ret = il_football_check(&in, NULL, &c->c);
	il_trace_stalls_free(&stalls);
	if (ret) {
		snprintf(why, len, "football: the check could not run: %s",
			 strerror(-ret));
		return ret;
	}
	(*n)++;
	return 0;
}
