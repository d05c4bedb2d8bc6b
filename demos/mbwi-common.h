/* SPDX-License-Identifier: MIT */
/*
 * What invlab-run and dl-mbwi share about SCHED_DEADLINE scenarios: the
 * M-BWI checks of a run (validators/mbwi.c, docs/m-bwi.md), the per-task
 * tables (jobs, misses from the release, blocked time, wakeup and response
 * percentiles, CPU time and reservation budget per job) and the tasks'
 * JSON.  Program-side code: it prints.
 */
#ifndef INVLAB_MBWI_COMMON_H
#define INVLAB_MBWI_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/sysinfo.h>
#include <invlab/verdict.h>

/* one verdict of a run, with what it is expected to be */
struct demo_check {
	const char *validator;
	char task[IL_NAME_MAX];
	struct il_check c;
	enum il_verdict expected;
	bool has_expected; /* else the job's `expect` */
};

struct demo_mbwi_opts {
	/*
	 * The reservation each task is judged by, when it is not the one it
	 * ran with (NULL entries and a NULL array: its own): the negative
	 * control that runs a probe without its reservation.
	 */
	const struct il_sched *declared[IL_MAX_TASKS];
	/* index of that task, -1: none; its isolation (and, when the
	 * interference guarantee covers it, interference) must FAIL */
	int unreserved;
};

/*
 * The M-BWI checks of one run: isolation, interference, and bandwidth per
 * periodic reservation, appended to out (at most max in all).  C and L
 * are declared by the bodies; misbehaving tasks are declared
 * (`misbehaves = yes`); misses are judged against the idle-wakeup
 * calibration measured here plus the run's steal.  Partitioned runs
 * (engine option partition) are judged with the per-CPU test.  0, or
 * -errno with why filled.
 */
int demo_check_mbwi(const struct il_scenario *sc,
		    const struct il_engine_result *er,
		    const struct il_sysinfo *si,
		    const struct demo_mbwi_opts *mo, const int *stop,
		    struct demo_check *out, int *n, int max, char *why,
		    size_t len);

/*
 * The verdict lines of one run.  Text: "[NAME ]VALIDATOR TASK[TAG]: GOT,
 * expected EXP: evidence" (name may be NULL).  TAP (*ntap counts the
 * tests): "NAME[TAG] VALIDATOR TASK: GOT (expected EXP)", ok when
 * demo_as_expected(), a SKIP when undecided, the evidence as a comment.
 */
void demo_print_checks(FILE *f, const struct demo_check *ck, int n,
		       const char *name, const char *tag, bool tap, int *ntap);

/* The "checks" array of a run's JSON object. */
void demo_json_checks(struct il_json *j, const struct demo_check *ck, int n);

/* Per-task tables of a run with deadline tasks, each line prefixed. */
void demo_print_dl_tasks(FILE *f, const struct il_scenario *sc,
			 const struct il_engine_result *er, const char *pfx);

/* The "tasks" array of a run's JSON object. */
void demo_json_tasks(struct il_json *j, const struct il_scenario *sc,
		     const struct il_engine_result *er);

#endif
