/* SPDX-License-Identifier: MIT */
/*
 * What the models of judge.c share: how a scenario's tasks rank, and the
 * three models that turn a scenario and an engine result into a
 * validator's inputs and verdicts (model-pi.c, model-chain.c,
 * model-mbwi.c).  Private to validators/.
 */
#ifndef INVLAB_MODEL_H
#define INVLAB_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <invlab/engine.h>
#include <invlab/judge.h>
#include <invlab/order.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>

/* calibration of every judged task: samples and spacing */
#define IL_JUDGE_CALIB_SAMPLES 1000
#define IL_JUDGE_CALIB_PERIOD  (200 * 1000ull)
/* fewer judged waits (jobs, periods) than this: UNDECIDED */
#define IL_JUDGE_MIN_SAMPLES 20
/*
 * Fewer traced waits than this: the trace does not decide.  Each traced
 * wait is a whole order of events, decisive by itself; a few guard
 * against a run whose contention never formed.
 */
#define IL_JUDGE_MIN_TRACE_SAMPLES 5

/*
 * Priority order of the job's classes: SCHED_DEADLINE above every
 * real-time priority, SCHED_FIFO/RR by priority (100 + prio), the fair
 * class 0.
 */
int il_model_rank(const struct il_sched *s);
/* the resource of a task's first `lock`, or -1 */
int il_model_first_lock(const struct il_task *t);
/* a task that requests a lock while it holds another */
bool il_model_nests(const struct il_task *t);

/* append one check; -ENOSPC with why when out is full */
int il_model_push(struct il_judged *out, int max, int *n, const char *val,
		  const char *task, char *why, size_t len,
		  struct il_judged **slot);

/*
 * The deboost check (deboost.h) of every task of sc whose sections the
 * trace showed it raised in, after the model's own checks, as validator
 * val, task "<name> deboost", expected to PASS whatever the job expects
 * (no configuration keeps a boost on purpose).  0 or -ENOSPC.
 */
int il_model_deboost(const struct il_scenario *sc,
		     const struct il_engine_result *er, const char *val,
		     struct il_judged *out, int max, int *n, char *why,
		     size_t len);

/*
 * Judge the n waits s of task w on the trace first (order.h), with
 * tolerance_ns and the per-wait steal of er; when the trace cannot
 * decide, out is left with no verdict and *why_not says why, and
 * *trace_rare whether the trace saw every wait with windows as rare as
 * the host's (the caller then judges on durations and hands both to
 * il_order_durations).  0, -ENOMEM, -EINVAL.
 */
int il_model_order(const struct il_engine_result *er, const char *waiter,
		   const struct il_wait_sample *s, size_t n,
		   const char *bound_name, uint64_t bound_ns,
		   uint64_t typical_ns, uint64_t noise_ns,
		   uint64_t tolerance_ns, uint64_t rare_ns,
		   struct il_check *out, char *why_not, size_t len,
		   int *trace_rare);

/*
 * `pi`: the real-time tasks that take locks and share one with a lower
 * task; il_model_pi_needs marks them, il_model_pi judges them.
 */
void il_model_pi_needs(const struct il_scenario *sc,
		       const struct il_engine_result *er, bool *need);
int il_model_pi(const struct il_scenario *sc, const struct il_engine_result *er,
		const struct il_judge_env *env, struct il_judged *out, int max,
		int *n, char *why, size_t len);

/* `chain`: the head (the highest-ranked task that locks), or -1 */
int il_model_chain_head(const struct il_scenario *sc);
int il_model_chain(const struct il_scenario *sc,
		   const struct il_engine_result *er,
		   const struct il_judge_env *env, struct il_judged *out,
		   int max, int *n, char *why, size_t len);

/* `mbwi`: isolation, interference, bandwidth per reservation */
int il_model_mbwi(const struct il_scenario *sc,
		  const struct il_engine_result *er,
		  const struct il_judge_env *env, struct il_judged *out,
		  int max, int *n, char *why, size_t len);

/*
 * `football`: the top-N-run invariant of the scenario's real-time tasks
 * on the trace; its calibration is the top task's (the highest-ranked
 * real-time task, -1: none).
 */
int il_model_football_top(const struct il_scenario *sc);
int il_model_football(const struct il_scenario *sc,
		      const struct il_engine_result *er,
		      const struct il_judge_env *env, struct il_judged *out,
		      int max, int *n, char *why, size_t len);

#endif
