/* SPDX-License-Identifier: MIT */
/*
 * Everything a run's verdicts were decided from, written into the run's
 * JSON object as "judge_inputs" (docs/results.md), so that judging can
 * be redone from the result file alone (invlab-judge): the job as it ran,
 * what the engine measured that the judge reads, and what the caller
 * measured or decided around the run.  One writer, for every program
 * that judges a scenario.
 */
#ifndef INVLAB_REPORT_JUDGE_H
#define INVLAB_REPORT_JUDGE_H

#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/sysinfo.h>

/* version of the "judge_inputs" object; bumped when it changes */
#define IL_JUDGE_INPUTS_VERSION 2

/*
 * A run of the kmutex demo: what its judge (il_km_judge_run,
 * kmutex-bounds.h) reads besides the scenario, the engine result, the
 * tick and the calibrations.  Written as the "kmutex" member.
 */
struct il_judge_kmutex {
	int config;	     /* enum il_km_config */
	uint64_t quantum_ns; /* the larger of the base slice and the tick */
	/* enum il_km_donor (kmutex-bounds.h): 0 the fingerprint decides,
	 * 1 the tester says the kernel migrates donors, 2 it does not */
	int donor_migration;
	/* the fingerprint (release, proxy execution, fair server, RT
	 * throttling): what the fair server and the expectation come from */
	const struct il_sysinfo *si;
};

/* What was around the run: the judge's environment, as plain fields. */
struct il_judge_record {
	unsigned validators; /* the judge's validator mask */
	uint64_t tick_ns;
	uint64_t steal_step_ns;
	int ncpus;
	int64_t rt_runtime_us, rt_period_us;
	int64_t fair_runtime_ns, fair_period_ns; /* 0: unknown */
	/* calibrations (NULL: not measured) */
	const struct il_hist *calib[IL_MAX_TASKS];
	const struct il_hist *calib_any;
	/* negative control: the reservation a task is judged by; -1 */
	const struct il_sched *declared[IL_MAX_TASKS];
	int unreserved;
	const struct il_judge_kmutex *kmutex; /* NULL: not a kmutex run */
};

/*
 * Write "judge_inputs": {...} as a member of the object being written.
 * The scenario is written as job-file text (il_scenario_write); nothing
 * is written for a NULL argument but the key, as null.
 */
void il_report_judge_inputs(struct il_json *j, const struct il_scenario *sc,
			    const struct il_engine_result *er,
			    const struct il_judge_record *rec);

#endif
