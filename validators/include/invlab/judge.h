/* SPDX-License-Identifier: MIT */
/*
 * Judging a run: the model that turns a scenario (scenario.h) and the
 * engine's result (engine.h) into each validator's inputs, and the
 * verdicts.  Pure: it reads what the run recorded and what the caller
 * measured around it (il_judge_env), never measures, never prints.  The
 * same call on a result read back from its JSON file gives the same
 * verdicts.
 */
#ifndef INVLAB_JUDGE_H
#define INVLAB_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/verdict.h>

/* the validators a job can name in `validate` */
enum il_judge_validator {
	IL_JUDGE_PI = 1u << 0,
	IL_JUDGE_CHAIN = 1u << 1,
	IL_JUDGE_MBWI = 1u << 2,
};

/* one verdict of a run, with what it is expected to be */
struct il_judged {
	const char *validator; /* "pi", "chain", "mbwi isolation", ... */
	char task[IL_NAME_MAX];
	struct il_check c;
	/* IL_NONE: the job's `expect` applies (il_judge_run fills it in) */
	enum il_verdict expected;
};

/* what the caller measured or decided around the run */
struct il_judge_env {
	uint64_t tick_ns; /* 1/HZ of the kernel under test */
	/* the steal counter's step (1/USER_HZ of /proc/stat) */
	uint64_t steal_step_ns;
	/*
	 * Idle wakeup latency of each task's class on its CPU, measured
	 * after the run (il_engine_calibrate) for the tasks
	 * il_judge_calib_needed() names; NULL where not measured.
	 */
	const struct il_hist *calib[IL_MAX_TASKS];
	/*
	 * M-BWI negative control: the reservation a task is judged by when
	 * it is not the one it ran with (NULL: its own), and the index of
	 * that task (-1: none).
	 */
	const struct il_sched *declared[IL_MAX_TASKS];
	int unreserved;
};

/*
 * The validators the scenario's `validate` names ("auto" resolved from
 * its shape).  0 with *mask set, or -EINVAL with err saying which name is
 * unknown (FILE: validate: ...).
 */
int il_judge_validators(const struct il_scenario *sc, unsigned *mask, char *err,
			size_t len) IL_MUST_CHECK;

/* Which tasks need a calibration in env.calib for these validators. */
void il_judge_calib_needed(const struct il_scenario *sc,
			   const struct il_engine_result *er, unsigned mask,
			   bool need[IL_MAX_TASKS]);

/*
 * Every check of the run for the validators in mask, appended to out
 * (at most max; *n counts them).  Each check has a verdict other than
 * IL_NONE, and its expected verdict (the job's `expect` unless the
 * validator sets its own).  0, or -errno with why filled (an input is
 * missing: a needed calibration, a malformed result).
 */
int il_judge_run(const struct il_scenario *sc,
		 const struct il_engine_result *er,
		 const struct il_judge_env *env, unsigned mask,
		 struct il_judged *out, int max, int *n, char *why,
		 size_t len) IL_MUST_CHECK;

#endif
