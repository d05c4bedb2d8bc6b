// SPDX-License-Identifier: MIT
/*
 * How a run ends (engine.h): the count of judged samples that a sample
 * target (the scenario's `samples`, --samples, --percentile) is held
 * against, and the sentence and name that say what ended the run.  The
 * count is read by the caller's thread while the tasks record, so every
 * word is loaded whole; it costs the tasks nothing.
 */
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/time.h>

uint64_t il_engine_samples(const struct il_scenario *sc,
			   const struct il_engine_result *res, int task,
			   int *who, int *waits)
{
	uint64_t least = 0;
	int best = -1, best_waits = 0;

	for (int i = 0; i < sc->ntasks && i < res->ntasks; i++) {
		enum il_activation a = sc->tasks[i].k.activation;
		const struct il_task_result *r = &res->tasks[i];
		int w = r->nlocks > 0;
		uint64_t n;

		if (task >= 0 ? i != task
			      : a != IL_ACT_ROUND && a != IL_ACT_EVENT &&
					a != IL_ACT_PERIODIC)
			continue;
		n = w ? __atomic_load_n(&r->locks[0]->nsamples,
					__ATOMIC_ACQUIRE)
		      : __atomic_load_n(&r->jobs, __ATOMIC_RELAXED);
		if (best < 0 || n < least) {
			least = n;
			best = i;
			best_waits = w;
		}
	}
	if (who)
		*who = best;
	if (waits)
		*waits = best_waits;
	return best < 0 ? 0 : least;
}

const char *il_engine_end_name(enum il_run_end e)
{
	switch (e) {
	case IL_END_DURATION:
		return "duration";
	case IL_END_SAMPLES:
		return "samples";
	case IL_END_STOPPED:
		return "stopped";
	case IL_END_HUNG:
		return "hung";
	case IL_END_NONE:
		break;
	}
	return "";
}

int il_engine_ended(const struct il_engine_result *res, char *buf, size_t len)
{
	char bound[24], took[24], of[80] = "";

	il_format_duration_exact(bound, sizeof(bound), res->duration_ns);
	il_format_duration(took, sizeof(took), res->elapsed_ns);
	if (res->samples_of[0])
		snprintf(of, sizeof(of), " (%s)", res->samples_of);
	switch (res->ended) {
	case IL_END_SAMPLES:
		return snprintf(buf, len, "ended: %llu samples%s in %s",
				(unsigned long long)res->samples, of, took);
	case IL_END_DURATION:
		if (!res->samples_target)
			return snprintf(buf, len, "ended: duration %s", bound);
		return snprintf(buf, len,
				"ended: duration %s, %llu of %llu samples%s",
				bound, (unsigned long long)res->samples,
				(unsigned long long)res->samples_target, of);
	case IL_END_STOPPED:
	case IL_END_HUNG:
		if (!res->samples_target)
			return snprintf(buf, len, "ended: %s after %s",
					il_engine_end_name(res->ended), took);
		return snprintf(buf, len,
				"ended: %s after %s, %llu of %llu samples%s",
				il_engine_end_name(res->ended), took,
				(unsigned long long)res->samples,
				(unsigned long long)res->samples_target, of);
	case IL_END_NONE:
		break;
	}
	return snprintf(buf, len, "ended: not run");
}
