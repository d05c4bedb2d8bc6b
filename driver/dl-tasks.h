/* SPDX-License-Identifier: MIT */
/*
 * About SCHED_DEADLINE scenarios, shared by the driver and dl-mbwi: the
 * per-task tables (jobs, misses from the release, blocked time, wakeup
 * and response percentiles, CPU time and reservation budget per job),
 * the tasks' JSON, and the negative control that takes a task's
 * reservation away.  Program-side code: it prints.
 */
#ifndef INVLAB_DL_TASKS_H
#define INVLAB_DL_TASKS_H

#include <stddef.h>
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>

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
