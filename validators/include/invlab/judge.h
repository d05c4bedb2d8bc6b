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
	IL_JUDGE_FOOTBALL = 1u << 3, /* the top N run (football.h) */
};

/* one verdict of a run, with what it is expected to be */
struct il_judged {
	const char *validator; /* "pi", "chain" or "mbwi" */
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
	/*
	 * Only a task with a declared[] entry is ever taken as the control,
	 * so a zeroed env has none.
	 */
	int unreserved;
	/*
	 * M-BWI: idle wakeup latency of a high-priority thread anywhere
	 * (deadline tasks are not pinned), measured as il_judge_calib_of(-1)
	 * says when il_judge_calib_any_needed(); NULL where not measured.
	 */
	const struct il_hist *calib_any;
	/* M-BWI: CPUs online (the root domain of global EDF); 0: one */
	int ncpus;
	/*
	 * M-BWI: sched_rt_runtime_us and sched_rt_period_us (the share of
	 * each CPU deadline tasks may use); runtime -1: all of it; both 0:
	 * unknown, taken as the default 0.95
	 */
	int64_t rt_runtime_us, rt_period_us;
	/*
	 * M-BWI: the fair server's runtime and period (debugfs, cpu0): what
	 * fair tasks may take from deadline tasks on each CPU; 0: unknown,
	 * taken as the kernel's default, 50 ms every 1 s
	 */
	int64_t fair_runtime_ns, fair_period_ns;
	/*
	 * The trace's run-time accounts may witness a stalled CPU
	 * (il_trace_stalls_runtime, trace.h): the kernel is known to take
	 * nothing but the host's steal off a task's run time
	 * (CONFIG_IRQ_TIME_ACCOUNTING off).  false in a zeroed env.
	 */
	bool run_witness;
};

/* How one calibration is measured (il_engine_calibrate's arguments). */
struct il_judge_calib {
	int cpu; /* -1: unpinned */
	struct il_sched sched;
	int samples;
	uint64_t period_ns;
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
/* Does any validator in mask need env.calib_any? */
bool il_judge_calib_any_needed(const struct il_scenario *sc, unsigned mask);
/*
 * How to measure env.calib[task] (task >= 0: the task's class on the CPU
 * it ran on) or env.calib_any (task -1: SCHED_FIFO 98, unpinned).
 */
void il_judge_calib_of(const struct il_scenario *sc,
		       const struct il_engine_result *er, int task,
		       struct il_judge_calib *c);
/*
 * The affinity check (affinity.h) of every task of sc pinned to one CPU
 * whose ledger shows it moved off its CPU or running elsewhere, appended
 * to out as validator val, task "<name> affinity", expected to PASS:
 * the pi and chain models add them, the kmutex judge's callers after
 * il_km_judge_run.  0 or -ENOSPC (why said).
 */
int il_judge_affinity(const struct il_scenario *sc,
		      const struct il_engine_result *er, const char *val,
		      struct il_judged *out, int max, int *n, char *why,
		      size_t len) IL_MUST_CHECK;

/*
 * Every check of the run for the validators in mask, appended to out
 * (at most max; *n counts them).  Each check has a verdict other than
 * IL_NONE, and its expected verdict (the job's `expect` unless the
 * validator sets its own).  0, or -errno with why filled (an input is
 * missing: a needed calibration, a malformed result; -ENOSPC: more
 * checks than max); the checks judged before it stay counted in *n, and
 * the one that could not be judged is not there: the caller reports it
 * with why, and never as a pass.
 */
int il_judge_run(const struct il_scenario *sc,
		 const struct il_engine_result *er,
		 const struct il_judge_env *env, unsigned mask,
		 struct il_judged *out, int max, int *n, char *why,
		 size_t len) IL_MUST_CHECK;

/*
 * A chain whose waiting head (task `head`) is fair-class and whose locks
 * inherit: inheritance gives the owners the head's fair priority, which
 * cannot take them above real-time work, so the chain bound does not
 * apply.  Then check c becomes UNDECIDED, expected UNDECIDED, with that
 * reason, and true is returned; otherwise c is left as it is (false).
 */
bool il_judge_chain_fair_head(const struct il_scenario *sc, const char *head,
			      struct il_judged *c);

/*
 * The pi check so far, while a run goes on (--live): the waiter's first
 * n waits against bound_ns (the longest section its holder has held so
 * far), with no noise allowance yet (the calibration comes after the
 * run) and the pi check's minimum of waits.  IL_NONE when the check
 * cannot run (il_check_blocking refuses its input).
 */
enum il_verdict il_judge_pi_so_far(const struct il_wait_sample *s, size_t n,
				   uint64_t bound_ns) IL_MUST_CHECK;

#endif
