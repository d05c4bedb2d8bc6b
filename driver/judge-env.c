// SPDX-License-Identifier: MIT
/*
 * The judge's environment around a run, measured after it (the idle
 * calibrations the validators ask for), and its record for the result
 * file; see judge-env.h.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <invlab/engine.h>

#include "driver.h"
#include "judge-env.h"

/* one step of the steal counter in /proc/stat: 1/USER_HZ */
static uint64_t steal_step(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
}

bool judge_env_run_witness(const struct il_sysinfo *si)
{
	return si && si->config_irq_time == 0;
}

int judge_env_measure(const struct il_scenario *sc,
		      const struct il_engine_result *er,
		      const struct il_sysinfo *si, unsigned mask,
		      const int *stop, struct il_hist calib[IL_MAX_TASKS],
		      struct il_hist *any, struct il_judge_env *env, char *why,
		      size_t len)
{
	bool need[IL_MAX_TASKS];
	struct il_judge_calib how;
	int ret;

	env->tick_ns = demo_tick_ns(si);
	env->steal_step_ns = steal_step();
	env->ncpus = si->cpus_online;
	env->rt_runtime_us = si->rt_runtime_us;
	env->rt_period_us = si->rt_period_us;
	env->fair_runtime_ns =
		si->fair_server_runtime_ns > 0 ? si->fair_server_runtime_ns : 0;
	env->fair_period_ns =
		si->fair_server_period_ns > 0 ? si->fair_server_period_ns : 0;
	env->run_witness = judge_env_run_witness(si);
	il_judge_calib_needed(sc, er, mask, need);
	for (int i = 0; i < sc->ntasks; i++) {
		env->calib[i] = NULL;
		if (!need[i])
			continue;
		il_judge_calib_of(sc, er, i, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, stop, &calib[i], why,
					  len);
		if (ret)
			return ret;
		env->calib[i] = &calib[i];
	}
	env->calib_any = NULL;
	if (il_judge_calib_any_needed(sc, mask)) {
		il_judge_calib_of(sc, er, -1, &how);
		ret = il_engine_calibrate(how.cpu, &how.sched, how.samples,
					  how.period_ns, stop, any, why, len);
		if (ret)
			return ret;
		env->calib_any = any;
	}
	return 0;
}

void judge_env_record(const struct il_judge_env *env, unsigned mask,
		      struct il_judge_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->validators = mask;
	rec->tick_ns = env->tick_ns;
	rec->steal_step_ns = env->steal_step_ns;
	rec->ncpus = env->ncpus;
	rec->rt_runtime_us = env->rt_runtime_us;
	rec->rt_period_us = env->rt_period_us;
	rec->fair_runtime_ns = env->fair_runtime_ns;
	rec->fair_period_ns = env->fair_period_ns;
	rec->calib_any = env->calib_any;
	rec->unreserved = env->unreserved;
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		rec->calib[i] = env->calib[i];
		rec->declared[i] = env->declared[i];
	}
}
