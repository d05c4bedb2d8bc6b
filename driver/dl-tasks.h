/* SPDX-License-Identifier: MIT */
/*
 * What the demos share besides the driver: measuring what the judge
 * needs around a run (validators' judge.h decides), and about
 * SCHED_DEADLINE scenarios the per-task
 * tables (jobs, misses from the release, blocked time, wakeup and response
 * percentiles, CPU time and reservation budget per job) and the tasks'
 * JSON.  Program-side code: it prints.
 */
#ifndef INVLAB_MBWI_COMMON_H
#define INVLAB_MBWI_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/judge.h>
#include <invlab/report-judge.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/sysinfo.h>
#include <invlab/verdict.h>

/*
 * The judge's environment for one run: the tick, the steal step, the
 * machine's CPUs and deadline cap from si, and the calibrations the
 * validators in mask need, measured here into calib[] and *any (idle,
 * after the run; il_judge_calib_needed, il_judge_calib_of).  declared and
 * unreserved of env are left as they are.  0, or -errno with why filled.
 */
int demo_judge_env(const struct il_scenario *sc,
		   const struct il_engine_result *er,
		   const struct il_sysinfo *si, unsigned mask, const int *stop,
		   struct il_hist calib[IL_MAX_TASKS], struct il_hist *any,
		   struct il_judge_env *env, char *why, size_t len);

/* What the judge was given, for the result file (report-judge.h). */
void demo_judge_record(const struct il_judge_env *env, unsigned mask,
		       struct il_judge_record *rec);

/* Per-task tables of a run with deadline tasks, each line prefixed. */
void dl_tasks_print(FILE *f, const struct il_scenario *sc,
		    const struct il_engine_result *er, const char *pfx);

/*
 * The negative control --unreserve: task ti runs as SCHED_OTHER behind a
 * SCHED_FIFO hog on every CPU (the fair class gets what RT throttling
 * and the fair server leave it; deadline tasks lose nothing), while the
 * checks judge it by the reservation it had, saved in *declared (and ti
 * in *unreserved) once it is known to have one.  0, or -EINVAL with err
 * (the task has no reservation, no room for a hog).
 */
int dl_tasks_unreserve(struct il_scenario *sc, int ti,
		       struct il_sched *declared, int *unreserved, char *err,
		       size_t len);

/* The "tasks" array of a run's JSON object. */
void dl_tasks_json(struct il_json *j, const struct il_scenario *sc,
		   const struct il_engine_result *er);

#endif
