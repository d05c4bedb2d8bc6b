/* SPDX-License-Identifier: MIT */
/*
 * The judge's environment around a run: what validators' judge.h needs
 * besides the run's result (the tick, the steal step, the machine's CPUs
 * and deadline cap, the idle calibrations the validators ask for),
 * measured after the run, and its record for the result file, from
 * which invlab-judge can judge the run again.  Program-side code.
 */
#ifndef INVLAB_JUDGE_ENV_H
#define INVLAB_JUDGE_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/report-judge.h>
#include <invlab/scenario.h>
#include <invlab/sysinfo.h>

/*
 * May the trace's run-time accounts witness a stalled CPU on this kernel
 * (il_judge_env.run_witness; il_attribute_edf's run_witness)?  Only where
 * CONFIG_IRQ_TIME_ACCOUNTING is known off.
 */
bool judge_env_run_witness(const struct il_sysinfo *si);

/*
 * The judge's environment for one run: the tick, the steal step, the
 * machine's CPUs and deadline cap from si, and the calibrations the
 * validators in mask need, measured here into calib[] and *any (idle,
 * after the run; il_judge_calib_needed, il_judge_calib_of).  declared and
 * unreserved of env are left as they are.  0, or -errno with why filled.
 */
int judge_env_measure(const struct il_scenario *sc,
		      const struct il_engine_result *er,
		      const struct il_sysinfo *si, unsigned mask,
		      const int *stop, struct il_hist calib[IL_MAX_TASKS],
		      struct il_hist *any, struct il_judge_env *env, char *why,
		      size_t len);

/* What the judge was given, for the result file (report-judge.h). */
void judge_env_record(const struct il_judge_env *env, unsigned mask,
		      struct il_judge_record *rec);

#endif
